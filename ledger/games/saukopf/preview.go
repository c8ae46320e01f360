package saukopf

import (
	"encoding/json"
	"fmt"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// noHandYet is the summary of a table before its first hand.
const noHandYet = "Noch kein Spiel an diesem Tisch"

// Preview returns the table's state as the session's next hand finds it,
// in the shape of the state a hand leaves (SaukopfState). Saukopf carries
// nothing from hand to hand, so that is the state as it is: the summary
// of the last hand ("Noch kein Spiel an diesem Tisch" before the first).
// The state does not know who dealt last (the facts name the dealer of
// every hand), so the preview names no dealer.
func (Engine) Preview(h score.Hand) (json.RawMessage, error) {
	if _, err := decodeRules(h.Rules); err != nil {
		return nil, err
	}
	var st State
	if len(h.State) > 0 && string(h.State) != "null" {
		if err := json.Unmarshal(h.State, &st); err != nil {
			return nil, fmt.Errorf("saukopf: stored state unreadable: %w", err)
		}
	}
	if st.Summary == "" {
		st.Summary = noHandYet
	}
	return json.Marshal(st)
}

// Ahead returns the seats of the session's next hands, one round of
// dealers: the deal passes to the next seated player after the last
// dealer (the first seated before the session's first hand). At a table
// of five the dealer sits out and the four after him play; with three or
// four seated everyone plays (a Dreihaxer or a Vierer).
func (Engine) Ahead(h score.Hand, lastDealer int64) ([]score.Seats, error) {
	if _, err := decodeRules(h.Rules); err != nil {
		return nil, err
	}
	return score.Rotate(h.Seated, score.NextOf(h.Seated, lastDealer), 4, false), nil
}
