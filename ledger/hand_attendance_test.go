package ledger_test

import (
	"reflect"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

func TestAttendanceCountsHandsPlayedAndSatOut(t *testing.T) {
	points := []score.PlayerPoints{{Player: 1}, {Player: 2}, {Player: 3}, {Player: 4}, {Player: 5}}
	five := score.Result{Points: points, Players: []int64{2, 3, 4, 5}, Parties: [][]int64{{2, 4}, {3, 5}}}
	legacy := score.Result{Points: points, Parties: [][]int64{{2, 4}, {3, 5}}} // stored before results named their players
	redeal := score.Result{Points: points[:4], Events: []score.Event{{Type: score.EventRedeal}}}
	satOutFirst := []ledger.Attendance{{Player: 1, SatOut: 1}, {Player: 2, Played: 1}, {Player: 3, Played: 1}, {Player: 4, Played: 1}, {Player: 5, Played: 1}}
	for _, c := range []struct {
		name string
		res  score.Result
		void bool
		want []ledger.Attendance
	}{
		{"five at the table, the dealer sits out", five, false, satOutFirst},
		{"a result without players, by its parties", legacy, false, satOutFirst},
		{"a voided hand", five, true, nil},
		{"a redeal", redeal, false, nil},
	} {
		if got := ledger.AttendanceOf(c.res, c.void); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	undone := ledger.AttendanceDiffs(satOutFirst, nil)
	want := []ledger.Attendance{{Player: 1, SatOut: -1}, {Player: 2, Played: -1}, {Player: 3, Played: -1}, {Player: 4, Played: -1}, {Player: 5, Played: -1}}
	if !reflect.DeepEqual(undone, want) {
		t.Errorf("voiding the hand moves %+v, want %+v", undone, want)
	}
	if d := ledger.AttendanceDiffs(satOutFirst, satOutFirst); d != nil {
		t.Errorf("a correction that keeps the seats moves %+v", d)
	}
}
