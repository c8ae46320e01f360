package schwarzesau

import (
	"encoding/json"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Preview returns the table's state as the session's next hand finds it,
// in the shape of the state a hand leaves (SchwarzeSauState): the tallies,
// the Durchgang, its hands and the payouts as they carry over, and the
// limit of the session's date under the table's rules (threshold_base +
// the day of the month), with each tally's distance to it. A tally above
// that limit (carried from an evening with a later day) pays with the
// next hand, whatever that hand brings. Without a date (no session yet)
// the preview keeps the date of the state's last hand; a new table
// without a date has the limit threshold_base alone and the date
// 0000-00-00. The state does not know who dealt last (the facts name the
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
	date := h.Date
	switch {
	case date == score.Date{}:
		date = st.Date
	case date.Day < 1 || date.Day > 31:
		return nil, score.Invalid("date.day", "the session's day of the month is 1..31, got %d", date.Day)
	}
	st.at(rules, date, h.Seated)
	return json.Marshal(st)
}

// Ahead returns the seats of the session's next hands, one round of
// dealers: the deal passes to the next seated player after the last
// dealer (the first seated before the session's first hand). With three
// or four seated everyone plays; with more, the dealer (who plays the
// Stock) and the three seats after him.
func (Engine) Ahead(h score.Hand, lastDealer int64) ([]score.Seats, error) {
	if _, err := decodeRules(h.Rules); err != nil {
		return nil, err
	}
	return score.Rotate(h.Seated, score.NextOf(h.Seated, lastDealer), 4, true), nil
}
