package doppelkopf

import (
	"encoding/json"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Preview returns the table's state as the session's next hand finds it,
// in the shape of the state a hand leaves (DoppelkopfState):
//   - the next dealer: the state's if he is seated, else the first seated
//     player (a new table, another evening with other players), the
//     players of the next hand by the default scheme and who sits out;
//     without a seating (no session yet) the state's next dealer, if any,
//     and no players;
//   - the Bock games left in the running round and the rounds queued, as
//     they carry over; a queued round that the next hand would start is
//     started (its length fixed by the rules or this seating);
//   - session, games and solos: another session than the state's starts
//     at 0 games and no solos.
//
// A hand scored next from the same state in the same session that leaves
// dealer and players out finds this dealer and these players, and is a
// Bock game exactly when bock_games_left is above 0 (a solo excepted).
func (Engine) Preview(h score.Hand) (json.RawMessage, error) {
	rules, err := decodeRules(h.Rules)
	if err != nil {
		return nil, err
	}
	if len(h.Seated) > 0 {
		if err := checkSeated(h.Seated); err != nil {
			return nil, err
		}
	}
	st, err := decodeState(h.State)
	if err != nil {
		return nil, err
	}
	st.startSession(h.Session)
	if len(h.Seated) > 0 {
		st.seatNext(h.Seated, st.nextDealer(h.Seated))
	} else {
		st.NextPlayers, st.NextSittingOut = []int64{}, []int64{}
	}
	if rules.Bock {
		roundLen := rules.BockRoundLength
		if roundLen == 0 {
			roundLen = len(h.Seated)
		}
		if roundLen > 0 {
			st.startQueuedRound(roundLen)
		}
	}
	st.Summary = st.summary(h.Seated)
	return json.Marshal(st)
}

// Ahead returns the seats of the session's next hands, one round of
// dealers: the next hand's dealer as Score finds him, then each next
// seated player; the four seats after the dealer play (with four seated,
// everyone), the others sit out. A redeal or a Pflichtsolo that deals
// again changes the round; the next state's ahead says so.
func (Engine) Ahead(h score.Hand, _ int64) ([]score.Seats, error) {
	if len(h.Seated) == 0 {
		return []score.Seats{}, nil
	}
	rules, err := decodeRules(h.Rules)
	if err != nil {
		return nil, err
	}
	if err := checkSeated(h.Seated); err != nil {
		return nil, err
	}
	st, err := decodeState(h.State)
	if err != nil {
		return nil, err
	}
	return score.Rotate(h.Seated, firstDealer(&st, rules, h.Session, h.Seated), playersPerHand, false), nil
}
