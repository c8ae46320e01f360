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
