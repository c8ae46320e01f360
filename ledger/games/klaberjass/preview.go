package klaberjass

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Preview returns the table's state as the session's next hand finds it,
// in the shape of the state a hand leaves (KlaberjassState):
//   - the match, its hands and dice and the matches won, as they carry
//     over. With 2 to 4 seated, a hand that leaves its players out is
//     played by the seating; when that makes other sides than the match
//     under way (another player, other partners), the next hand abandons
//     that match, and the preview shows the match it starts: its sides,
//     every die on 0. With more seated the players of the next hand are
//     not known and the match is shown as it stands;
//   - next_dealer: the dealer the state proposes if he is seated, else the
//     first seated player; without a seating (no session yet) the state's
//     proposal. It is a proposal: the facts name the dealer.
func (Engine) Preview(h score.Hand) (json.RawMessage, error) {
	if _, err := decodeRules(h.Rules); err != nil {
		return nil, err
	}
	for i, id := range h.Seated {
		if slices.Index(h.Seated, id) != i {
			return nil, score.Invalid(fmt.Sprintf("seated[%d]", i), "player %d is seated twice", id)
		}
	}
	st, err := decodeState(h.State)
	if err != nil {
		return nil, err
	}
	abandoned := 0
	if n := len(h.Seated); n >= 2 && n <= 4 {
		sides := makeSides(h.Seated)
		if sameSides(st, sides) == nil {
			if st.Hands > 0 {
				abandoned = st.Match
				st.Match++
				st.Hands = 0
			}
			st.Sides = make([]SideState, len(sides))
			for i, s := range sides {
				st.Sides[i] = SideState{Players: s}
			}
		}
	}
	if len(h.Seated) > 0 && !slices.Contains(h.Seated, st.NextDealer) {
		st.NextDealer = h.Seated[0]
	}
	if st.Sides == nil {
		st.Sides = []SideState{}
	}
	st.Summary = st.summary(abandoned)
	return json.Marshal(st)
}
