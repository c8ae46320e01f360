package klaberjass

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// State is what the table remembers: the dice of the match in progress.
type State struct {
	// Match is the number of the match in progress, from 1.
	Match int `json:"match"`
	// Hands counts the hands played in the match in progress.
	Hands int `json:"hands"`
	// Sides are the match's sides with their dice; empty before the first
	// hand.
	Sides []SideState `json:"sides"`
	// MatchesWon counts the matches each player has won (a shared win
	// counts for each winner).
	MatchesWon map[int64]int `json:"matches_won"`
	// NextDealer is the dealer the rules propose for the next hand.
	NextDealer int64 `json:"next_dealer,omitempty"`
	// LastWinners are the winners of the last finished match.
	LastWinners []int64 `json:"last_match_winners,omitempty"`
	Summary     string  `json:"summary"`
}

// SideState is one side of the match: a team or a player, its die (0..5)
// and the matches this side has won while playing together.
type SideState struct {
	Players    []int64 `json:"players"`
	Die        int     `json:"die"`
	MatchesWon int     `json:"matches_won"`
}

// played is what the match made of a hand: breakdown lines and events.
type played struct {
	lines  []score.Line
	events []score.Event
}

func decodeState(raw json.RawMessage) (State, error) {
	st := State{Match: 1}
	if len(raw) > 0 && string(raw) != "null" && string(raw) != "{}" {
		if err := json.Unmarshal(raw, &st); err != nil {
			return State{}, fmt.Errorf("klaberjass: stored state unreadable: %w", err)
		}
	}
	for _, s := range st.Sides {
		if s.Die < 0 || s.Die >= dieGoal {
			return State{}, fmt.Errorf("klaberjass: stored state has a die on %d, want 0..5", s.Die)
		}
	}
	if st.MatchesWon == nil {
		st.MatchesWon = map[int64]int{}
	}
	if st.Match < 1 {
		st.Match = 1
	}
	return st, nil
}

// sameSides maps each side of the hand to the state's side with the same
// players, or returns nil when the sides differ.
func sameSides(st State, sides [][]int64) []int {
	if len(st.Sides) != len(sides) {
		return nil
	}
	idx := make([]int, len(sides))
	for i, s := range sides {
		idx[i] = slices.IndexFunc(st.Sides, func(ss SideState) bool { return sameSet(ss.Players, s) })
		if idx[i] < 0 {
			return nil
		}
	}
	return idx
}

func sameSet(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for _, id := range a {
		if !slices.Contains(b, id) {
			return false
		}
	}
	return true
}

// playMatch moves the dice of the hand's outcome, closes a won match and
// proposes the next dealer.
func (g *game) playMatch(st *State, out outcome, r Rules) played {
	var p played
	idx := sameSides(*st, g.sides)
	if idx == nil {
		p.events = g.abandon(st)
		idx = g.startSides(st)
	}
	st.Hands++
	var won []int // sides of the hand that reached 6
	for s, mv := range out.moves {
		if mv == 0 {
			continue
		}
		ss := &st.Sides[idx[s]]
		from, to := ss.Die, ss.Die+mv
		label := fmt.Sprintf("Würfel %s von %d auf %d", sideName(g.sides[s]), from, to)
		if to >= dieGoal {
			label = fmt.Sprintf("Würfel %s: %d + %d erreicht 6, Partie gewonnen", sideName(g.sides[s]), from, mv)
			to = dieGoal
			won = append(won, s)
		}
		ss.Die = to
		p.lines = append(p.lines, score.Line{Label: label, Op: score.OpEq, Value: score.Int(int64(to)), Player: singlePlayer(g.sides[s])})
	}
	if len(won) > 0 {
		p.events = append(p.events, g.finish(st, idx, won)...)
	}
	st.NextDealer = g.nextDealer(out, r)
	st.Summary = st.summary(0)
	return p
}

// abandon ends a match under way that other sides are not continuing.
func (g *game) abandon(st *State) []score.Event {
	if st.Hands == 0 {
		return nil
	}
	var players []int64
	for _, s := range st.Sides {
		players = append(players, s.Players...)
	}
	ev := score.Event{
		Type:    score.EventMatchAbandoned,
		Text:    fmt.Sprintf("Partie %d abgebrochen: es spielen andere Spieler oder Partner; neue Partie, alle Würfel auf 0", st.Match),
		Players: players,
	}
	st.Match++
	st.Hands = 0
	return []score.Event{ev}
}

// startSides begins a match of the hand's sides, every die on 0.
func (g *game) startSides(st *State) []int {
	st.Sides = make([]SideState, len(g.sides))
	idx := make([]int, len(g.sides))
	for i, s := range g.sides {
		st.Sides[i] = SideState{Players: slices.Clone(s)}
		idx[i] = i
	}
	return idx
}

// finish closes a won match: events for winners and losers, counts, and
// every die back to 0.
func (g *game) finish(st *State, idx []int, won []int) []score.Event {
	var winners, losers []int64
	for _, id := range g.players {
		if slices.Contains(won, g.side(id)) {
			winners = append(winners, id)
			st.MatchesWon[id]++
		} else {
			losers = append(losers, id)
		}
	}
	for _, s := range won {
		st.Sides[idx[s]].MatchesWon++
	}
	verb := "gewinnt"
	if len(won) > 1 {
		verb = "gewinnen gemeinsam"
	}
	events := []score.Event{
		{Type: score.EventMatchWon, Text: fmt.Sprintf("%s %s Partie %d", joinSides(g.sides, won), verb, st.Match), Players: winners, Amount: 1},
		{Type: score.EventMatchLost, Text: fmt.Sprintf("%s verliert Partie %d", sideName(losers), st.Match), Players: losers, Amount: 1},
	}
	for i := range st.Sides {
		st.Sides[i].Die = 0
	}
	st.LastWinners = winners
	st.Match++
	st.Hands = 0
	return events
}

func joinSides(sides [][]int64, which []int) string {
	names := make([]string, len(which))
	for i, s := range which {
		names[i] = sideName(sides[s])
	}
	return strings.Join(names, " und ")
}

// nextDealer proposes the next dealer: the next seat, or with winner_deals
// (and "auto" with two players) the first winner after the dealer.
func (g *game) nextDealer(out outcome, r Rules) int64 {
	n := len(g.players)
	d := g.seat(g.dealer)
	winnerDeals := r.DealerRule == DealerWinnerDeals || (r.DealerRule == DealerAuto && n == 2)
	if !winnerDeals {
		return g.players[(d+1)%n]
	}
	for k := 1; k <= n; k++ {
		id := g.players[(d+k)%n]
		if out.winners[g.side(id)] {
			return id
		}
	}
	return g.players[(d+1)%n]
}

// summary is the state in one German line for people; abandoned is the
// number of the match under way that the next hand abandons, which only a
// preview foresees (0: none).
func (st State) summary(abandoned int) string {
	var text string
	switch {
	case len(st.Sides) == 0:
		text = fmt.Sprintf("Partie %d, noch kein Spiel", st.Match)
	case abandoned > 0:
		text = fmt.Sprintf("Partie %d endet ohne Sieger, es spielen andere Seiten; Partie %d: %s, alle Würfel auf 0", abandoned, st.Match, sidesAgainst(st.Sides))
	case st.Hands == 0 && len(st.LastWinners) > 0:
		text = fmt.Sprintf("Partie %d gewonnen von %s; Partie %d beginnt, alle Würfel auf 0", st.Match-1, sideName(st.LastWinners), st.Match)
	case st.Hands == 0:
		text = fmt.Sprintf("Partie %d: %s, alle Würfel auf 0", st.Match, sidesAgainst(st.Sides))
	default:
		dice := make([]string, len(st.Sides))
		for i, s := range st.Sides {
			dice[i] = fmt.Sprintf("%s auf %d", sideName(s.Players), s.Die)
		}
		hands := fmt.Sprintf("%d Spielen", st.Hands)
		if st.Hands == 1 {
			hands = "1 Spiel"
		}
		text = fmt.Sprintf("Partie %d nach %s: %s", st.Match, hands, strings.Join(dice, ", "))
	}
	if st.NextDealer != 0 {
		text += "; nächster Geber " + score.PlayerRef(st.NextDealer)
	}
	return text
}

// sidesAgainst names the sides of a match: "{{player:1}}/{{player:3}}
// gegen {{player:2}}/{{player:4}}".
func sidesAgainst(sides []SideState) string {
	names := make([]string, len(sides))
	for i, s := range sides {
		names[i] = sideName(s.Players)
	}
	return strings.Join(names, " gegen ")
}
