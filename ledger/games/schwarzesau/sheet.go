package schwarzesau

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

var _ score.Sheeter = Engine{}

// Sheet reads the tallies of a table's state for a score sheet: each
// player's minus points toward the day's threshold ("Stand"), 0 again
// after a payout, with the threshold of the day as the summary. The row
// of a hand that caused a payout notes that every tally starts again at
// 0 (the payout itself is the hand's event).
func (Engine) Sheet(_, state json.RawMessage) (score.Sheet, error) {
	st, err := decodeState(state)
	if err != nil {
		return score.Sheet{}, err
	}
	sh := score.Sheet{Heading: "Stand", Figures: []score.Figure{}}
	for id, t := range st.Tallies {
		sh.Figures = append(sh.Figures, score.Figure{Player: id, Value: t, Text: formatPoints(t)})
	}
	slices.SortFunc(sh.Figures, func(a, b score.Figure) int { return int(a.Player - b.Player) })
	if st.Limit > 0 {
		sh.Summary = fmt.Sprintf("Minuspunkte bis zur Grenze %d (%d + %d.); wer sie überschreitet, zahlt", st.Limit, st.ThresholdBase, st.Date.Day)
	}
	if st.Hands == 0 && st.LastPayout != nil {
		sh.Notes = []string{"Auszahlung: alle Stände beginnen wieder bei 0"}
	}
	return sh, nil
}
