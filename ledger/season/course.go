package season

import (
	"slices"
	"strings"
)

// Course is the leaders' course through the season: the final of each
// of the leading players after each offered evening, computed by the
// same rules over the evenings up to that date (eligibility aside: a
// course shows the figure, not the place).
type Course struct {
	Dates   []string     `json:"dates"`
	Players []CourseLine `json:"players"`
}

// CourseLine is one leader's finals, one per date of the course.
type CourseLine struct {
	Player int64   `json:"player_id"`
	Name   string  `json:"name"`
	Finals []Exact `json:"finals"`
}

// CourseOf computes the course of the top leaders of the table (ranked
// first, then the unranked), over the offered dates: each leader's line
// under the rules over his evenings and the offered dates up to each date.
// A unit's score does not depend on the dates after it (placement is at
// its own table), so the evenings are scored once.
func CourseOf(r Rules, recs []Record, names map[int64]string, t Table, top int) Course {
	c := Course{Dates: slices.Clone(t.Offered), Players: []CourseLine{}}
	if c.Dates == nil {
		c.Dates = []string{}
	}
	ev := evenings(r, recs)
	mine := ev.byPlayer()
	for _, row := range t.Rows[:min(top, len(t.Rows))] {
		cl := CourseLine{Player: row.Player, Name: row.Name, Finals: make([]Exact, 0, len(c.Dates))}
		units := mine[row.Player]
		slices.SortFunc(units, func(a, b *unit) int { return strings.Compare(a.date, b.date) })
		for i, d := range c.Dates {
			var upto []*unit
			for _, u := range units {
				if u.date > d {
					break
				}
				cp := *u
				upto = append(upto, &cp)
			}
			if len(upto) == 0 {
				cl.Finals = append(cl.Finals, Exact{})
				continue
			}
			cl.Finals = append(cl.Finals, line(r, row.Player, row.Name, upto, c.Dates[:i+1], 0).Final)
		}
		c.Players = append(c.Players, cl)
	}
	return c
}
