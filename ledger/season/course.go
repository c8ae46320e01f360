package season

import "slices"

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
// first, then the unranked), over the offered dates.
func CourseOf(r Rules, recs []Record, names map[int64]string, t Table, top int) Course {
	c := Course{Dates: slices.Clone(t.Offered), Players: []CourseLine{}}
	if c.Dates == nil {
		c.Dates = []string{}
	}
	for _, row := range t.Rows[:min(top, len(t.Rows))] {
		c.Players = append(c.Players, CourseLine{Player: row.Player, Name: row.Name, Finals: make([]Exact, 0, len(c.Dates))})
	}
	for _, d := range c.Dates {
		var upto []Record
		for _, rec := range recs {
			if rec.Date <= d {
				upto = append(upto, rec)
			}
		}
		sub := Compute(r, upto, names)
		for i := range c.Players {
			j := slices.IndexFunc(sub.Rows, func(row Row) bool { return row.Player == c.Players[i].Player })
			f := Exact{}
			if j >= 0 {
				f = sub.Rows[j].Final
			}
			c.Players[i].Finals = append(c.Players[i].Finals, f)
		}
	}
	return c
}
