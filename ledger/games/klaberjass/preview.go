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

// Ahead returns the seats of the session's next hands, as many as are
// seated: the state's proposed dealer first (the first seated if he is
// not), then the deal rotates (option dealer_rule winner_deals, and auto
// with two, give it to a winner instead: only the first is sure then).
// With two to four seated everyone plays; with more, the players of the
// match under way while they are all seated, else the dealer and the
// three seats after him, and the deal rotates among the players.
func (Engine) Ahead(h score.Hand, _ int64) ([]score.Seats, error) {
	if _, err := decodeRules(h.Rules); err != nil {
		return nil, err
	}
	if len(h.Seated) == 0 {
		return []score.Seats{}, nil
	}
	st, err := decodeState(h.State)
	if err != nil {
		return nil, err
	}
	first := st.NextDealer
	if !slices.Contains(h.Seated, first) {
		first = h.Seated[0]
	}
	if len(h.Seated) <= 4 {
		return score.Rotate(h.Seated, first, 4, true), nil
	}
	players := matchPlayers(st, h.Seated)
	if len(players) == 0 || !slices.Contains(players, first) {
		players = score.Rotate(h.Seated, first, 4, true)[0].Players
	}
	round := score.Rotate(players, first, 4, true)
	out := make([]score.Seats, len(h.Seated))
	for k := range out {
		s := round[k%len(round)]
		s.SittingOut = []int64{}
		for _, id := range h.Seated {
			if !slices.Contains(s.Players, id) {
				s.SittingOut = append(s.SittingOut, id)
			}
		}
		out[k] = s
	}
	return out, nil
}

// matchPlayers are the players of the match under way in seating order,
// none when one of them is not seated or no match is under way.
func matchPlayers(st State, seated []int64) []int64 {
	var ids []int64
	for _, s := range st.Sides {
		for _, id := range s.Players {
			if !slices.Contains(seated, id) {
				return nil
			}
			ids = append(ids, id)
		}
	}
	return score.InSeatingOrder(ids, seated)
}
