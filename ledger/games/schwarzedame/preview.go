package schwarzedame

import (
	"encoding/json"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Preview returns the table's state as the session's next hand finds it,
// in the shape of the state a hand leaves (SchwarzeDameState): the match
// in progress and the hand within it, the balances and the matches won,
// as they carry over from evening to evening whoever sits at the table,
// and the hands left in the match under the table's rules (at least the
// next one). The state does not know who dealt last (the facts name the
// dealer of every hand), so the preview names no dealer.
func (Engine) Preview(h score.Hand) (json.RawMessage, error) {
	rules, err := decodeRules(h.Rules)
	if err != nil {
		return nil, err
	}
	st, err := decodeState(h.State)
	if err != nil {
		return nil, err
	}
	st.finish(rules, h.Seated)
	return json.Marshal(st)
}

// Ahead returns the seats of the session's next hands, one round of
// dealers: the deal passes to the next seated player after the last
// dealer (the first seated before the session's first hand). The dealer
// and the three seats after him play.
func (Engine) Ahead(h score.Hand, lastDealer int64) ([]score.Seats, error) {
	if _, err := decodeRules(h.Rules); err != nil {
		return nil, err
	}
	return score.Rotate(h.Seated, score.NextOf(h.Seated, lastDealer), 4, true), nil
}
