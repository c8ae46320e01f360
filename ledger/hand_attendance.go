package ledger

import (
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Attendance is what one hand adds to a player's standing: a hand played
// or a hand sat out (as a difference between two revisions, -1, 0 or 1
// each).
type Attendance struct {
	Player int64
	Played int
	SatOut int
}

// AttendanceOf returns, for every player of a hand with this result, whether
// he played it or sat it out. A voided hand and a redeal count for nobody:
// neither was a hand played. Who played is the result's Players; a result
// stored before it named them falls back to its parties (StatsOf).
func AttendanceOf(res score.Result, void bool) []Attendance {
	if void || slices.ContainsFunc(res.Events, func(e score.Event) bool { return e.Type == score.EventRedeal }) {
		return nil
	}
	var out []Attendance
	for _, st := range StatsOf(res) {
		if !st.Present {
			continue // a payer who did not play: not at the table
		}
		played := !st.SatOut
		if len(res.Players) > 0 {
			played = slices.Contains(res.Players, st.Player)
		}
		a := Attendance{Player: st.Player, SatOut: 1}
		if played {
			a.Played, a.SatOut = 1, 0
		}
		out = append(out, a)
	}
	return out
}

// AttendanceDiffs returns next minus previous per player, leaving out the
// players whose counts did not change.
func AttendanceDiffs(previous, next []Attendance) []Attendance {
	sum := map[int64]*Attendance{}
	var order []int64
	add := func(list []Attendance, sign int) {
		for _, a := range list {
			d, ok := sum[a.Player]
			if !ok {
				d = &Attendance{Player: a.Player}
				sum[a.Player] = d
				order = append(order, a.Player)
			}
			d.Played += sign * a.Played
			d.SatOut += sign * a.SatOut
		}
	}
	add(next, 1)
	add(previous, -1)
	var out []Attendance
	for _, id := range order {
		if d := sum[id]; d.Played != 0 || d.SatOut != 0 {
			out = append(out, *d)
		}
	}
	return out
}
