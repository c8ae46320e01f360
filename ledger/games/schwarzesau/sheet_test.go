package schwarzesau

import (
	"encoding/json"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestSheetShowsTalliesAndTheReset: the "Stand" is each player's tally,
// 0 after a payout, whose row notes the reset; the threshold of the day
// is the summary.
func TestSheetShowsTalliesAndTheReset(t *testing.T) {
	st := State{Tallies: map[int64]score.Points{1: score.Int(0), 2: score.Frac(41, 2)}, Limit: 1521, ThresholdBase: 1500,
		Date: score.Date{Year: 2026, Month: 11, Day: 21}, Round: 2, Hands: 0, LastPayout: &Payout{Payers: []int64{1}}}
	raw, _ := json.Marshal(st)
	sh, err := Engine{}.Sheet(nil, raw)
	if err != nil {
		t.Fatal(err)
	}
	if sh.Heading != "Stand" || sh.Scored || len(sh.Figures) != 2 || sh.Figures[0].Text != "0" || sh.Figures[1].Text != "20,5" {
		t.Errorf("sheet %+v", sh)
	}
	if sh.Summary != "Minuspunkte bis zur Grenze 1521 (1500 + 21.); wer sie überschreitet, zahlt" || len(sh.Notes) != 1 {
		t.Errorf("summary %q, notes %q", sh.Summary, sh.Notes)
	}
	st.Hands = 1
	raw, _ = json.Marshal(st)
	if sh, _ = (Engine{}).Sheet(nil, raw); len(sh.Notes) != 0 {
		t.Errorf("a hand after the payout's notes %q", sh.Notes)
	}
}
