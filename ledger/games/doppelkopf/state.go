package doppelkopf

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// State is what the table remembers between hands.
type State struct {
	// Session is the session the per-session counts belong to.
	Session int64 `json:"session"`
	// Games counts the hands played in this session (redeals excluded).
	Games int `json:"games"`
	// NextDealer deals the next hand.
	NextDealer *int64 `json:"next_dealer,omitempty"`
	// NextPlayers and NextSittingOut preview the next hand by the default
	// scheme (the four seats after the dealer play).
	NextPlayers    []int64 `json:"next_players"`
	NextSittingOut []int64 `json:"next_sitting_out"`
	// BockGamesLeft are the Bock games left in the running round.
	BockGamesLeft int `json:"bock_games_left"`
	// BockRoundsQueued are the Bock rounds waiting after the running one.
	BockRoundsQueued int `json:"bock_rounds_queued"`
	// Solos counts the announced solos per player in this session.
	Solos map[int64]int `json:"solos"`
	// Summary is a one-line preview for people.
	Summary string `json:"summary"`
	// Pflichtsoli are the players who played their Pflichtsolo in this
	// session, in the order played (tournament play only).
	Pflichtsoli []int64 `json:"pflichtsoli,omitempty"`
}

// decodeState reads the previous state; empty, "null" and "{}" are the
// initial state.
func decodeState(raw json.RawMessage) (State, error) {
	var st State
	if len(raw) > 0 && string(raw) != "null" && string(raw) != "{}" {
		if err := json.Unmarshal(raw, &st); err != nil {
			return State{}, fmt.Errorf("doppelkopf: stored state unreadable: %w", err)
		}
	}
	st.BockGamesLeft = max(st.BockGamesLeft, 0)
	st.BockRoundsQueued = max(st.BockRoundsQueued, 0)
	if st.Solos == nil {
		st.Solos = map[int64]int{}
	}
	return st, nil
}

// nextDealer is the state's next dealer if seated, else the first seated
// player.
func (st *State) nextDealer(seated []int64) int64 {
	if st.NextDealer != nil && slices.Contains(seated, *st.NextDealer) {
		return *st.NextDealer
	}
	if len(seated) == 0 {
		return 0
	}
	return seated[0]
}

// startSession restarts the per-session counts when a new session begins.
func (st *State) startSession(session int64) {
	if st.Session == session {
		return
	}
	st.Session = session
	st.Games = 0
	st.Solos = map[int64]int{}
	st.Pflichtsoli = nil
}

// startQueuedRound starts the next queued Bock round when none is running.
func (st *State) startQueuedRound(length int) {
	if st.BockGamesLeft > 0 || st.BockRoundsQueued == 0 {
		return
	}
	st.BockRoundsQueued--
	st.BockGamesLeft = length
}

// finish moves the deal on, counts the hand and writes the preview.
func (st *State) finish(hd hand, seated []int64) {
	next := hd.dealer
	if !hd.redeal {
		st.Games++
		i := slices.Index(seated, hd.dealer)
		next = seated[(i+1)%len(seated)]
	}
	if hd.declaredSolo {
		st.Solos[hd.re.players[0]]++
	}
	if hd.soloKind == SoloPflicht {
		st.Pflichtsoli = append(st.Pflichtsoli, hd.lead)
		if !hd.vorgefuehrt {
			next = hd.dealer // TSR 3.3.1, 4.2.5: the same dealer deals again
		}
	}
	st.seatNext(seated, next)
	st.Summary = st.summary(seated)
}

// seatNext makes dealer the next dealer and previews the next hand's
// players by the default scheme (the four seats after the dealer play, the
// others sit out).
func (st *State) seatNext(seated []int64, dealer int64) {
	st.NextDealer = &dealer
	st.NextPlayers = defaultPlayers(seated, dealer)
	st.NextSittingOut = []int64{}
	for _, id := range seated {
		if !slices.Contains(st.NextPlayers, id) {
			st.NextSittingOut = append(st.NextSittingOut, id)
		}
	}
}

// summary is the state in one German line for people: "{{player:1}}
// gibt, {{player:5}} setzt aus; noch 3 Bockspiele, 1 Bockrunde wartet;
// Soli an diesem Abend: {{player:2}} 1". Players are listed in seating
// order (those not seated after them, by id).
func (st *State) summary(seated []int64) string {
	parts := []string{st.dealSummary(), bockSummary(st.BockGamesLeft, st.BockRoundsQueued)}
	if len(st.Solos) > 0 {
		ids := make([]int64, 0, len(st.Solos))
		for id := range st.Solos {
			ids = append(ids, id)
		}
		ids = score.InSeatingOrder(ids, seated)
		solos := make([]string, 0, len(ids))
		for _, id := range ids {
			solos = append(solos, fmt.Sprintf("%s %d", score.PlayerRef(id), st.Solos[id]))
		}
		parts = append(parts, "Soli an diesem Abend: "+strings.Join(solos, ", "))
	}
	return strings.Join(parts, "; ")
}

// dealSummary says who deals and who sits out the next hand: "{{player:1}}
// gibt", "{{player:1}} gibt und setzt aus" (five seated), "{{player:1}} gibt
// und setzt aus, ebenso {{player:6}}" (six), "{{player:1}} gibt,
// {{player:5}} setzt aus" (a dealer who plays); "Geber noch offen" before
// anyone is seated.
func (st *State) dealSummary() string {
	if st.NextDealer == nil {
		return "Geber noch offen"
	}
	dealer := *st.NextDealer
	text := score.PlayerRef(dealer) + " gibt"
	others := slices.DeleteFunc(slices.Clone(st.NextSittingOut), func(id int64) bool { return id == dealer })
	dealerOut := len(others) < len(st.NextSittingOut)
	switch {
	case dealerOut && len(others) == 0:
		return text + " und setzt aus"
	case dealerOut:
		return text + " und setzt aus, ebenso " + score.PlayerList(others)
	case len(others) == 1:
		return text + ", " + score.PlayerList(others) + " setzt aus"
	case len(others) > 1:
		return text + ", " + score.PlayerList(others) + " setzen aus"
	}
	return text
}

// bockSummary reads like "noch 3 Bockspiele, 1 Bockrunde wartet", "2
// Bockrunden warten" (before a round's length is known) or "kein Bock".
func bockSummary(left, queued int) string {
	var parts []string
	if left > 0 {
		parts = append(parts, "noch "+plural(left, "Bockspiel", "Bockspiele"))
	}
	switch {
	case queued == 1:
		parts = append(parts, "1 Bockrunde wartet")
	case queued > 1:
		parts = append(parts, fmt.Sprintf("%d Bockrunden warten", queued))
	}
	if len(parts) == 0 {
		return "kein Bock"
	}
	return strings.Join(parts, ", ")
}
