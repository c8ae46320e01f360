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
	st.NextDealer = &next
	st.NextPlayers = defaultPlayers(seated, next)
	st.NextSittingOut = []int64{}
	for _, id := range seated {
		if !slices.Contains(st.NextPlayers, id) {
			st.NextSittingOut = append(st.NextSittingOut, id)
		}
	}
	st.Summary = st.summary()
}

func (st *State) summary() string {
	parts := []string{}
	if st.NextDealer != nil {
		parts = append(parts, "next dealer: "+score.PlayerRef(*st.NextDealer))
	}
	if len(st.NextSittingOut) > 0 {
		parts = append(parts, "sitting out: "+playerList(st.NextSittingOut))
	}
	parts = append(parts, bockSummary(st.BockGamesLeft, st.BockRoundsQueued))
	if len(st.Solos) > 0 {
		ids := make([]int64, 0, len(st.Solos))
		for id := range st.Solos {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		solos := make([]string, 0, len(ids))
		for _, id := range ids {
			solos = append(solos, fmt.Sprintf("%s: %d", score.PlayerRef(id), st.Solos[id]))
		}
		parts = append(parts, "solos this session: "+strings.Join(solos, ", "))
	}
	return strings.Join(parts, "; ")
}

// bockSummary reads like "3 Bock games left, 1 round queued".
func bockSummary(left, queued int) string {
	if left == 0 && queued == 0 {
		return "no Bock games left, no round queued"
	}
	games := plural(left, "Bock game", "Bock games")
	rounds := plural(queued, "round", "rounds")
	return games + " left, " + rounds + " queued"
}

func playerList(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = score.PlayerRef(id)
	}
	return strings.Join(parts, ", ")
}
