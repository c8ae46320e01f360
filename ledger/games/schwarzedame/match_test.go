package schwarzedame

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// table plays hands in sequence, carrying the state like the ledger does.
type table struct {
	t     *testing.T
	rules json.RawMessage
	state json.RawMessage
}

func newTable(t *testing.T, overrides string) *table {
	return &table{t: t, rules: gamestest.MustRules(t, Engine{}, "", overrides)}
}

func (tb *table) play(f Facts) (score.Result, State) {
	tb.t.Helper()
	res, err := Engine{}.Score(score.Hand{Seated: seated, Session: 1, Rules: tb.rules, State: tb.state, Facts: factsJSON(tb.t, f)})
	if err != nil {
		tb.t.Fatalf("Score(%s): %v", factsJSON(tb.t, f), err)
	}
	if !sumPoints(res).IsZero() {
		tb.t.Fatalf("hand sums to %s", sumPoints(res))
	}
	tb.state = res.State
	return res, decodeStateT(tb.t, res.State)
}

// tieHand: N and S both +20, E -10, W -30.
func tieHand() Facts {
	return Facts{Dealer: nord, Players: []PlayerFacts{
		{Player: nord, Tricks: 4, Penalty: pen(20)},
		{Player: ost, Tricks: 3, Penalty: pen(40)},
		{Player: sued, Tricks: 4, Penalty: pen(20)},
		{Player: west, Tricks: 2, Penalty: pen(50)},
	}}
}

func wantState(t *testing.T, hand int, st State, match, played, left int, balance map[int64]int64, won map[int64]int) {
	t.Helper()
	if st.Match != match || st.HandsPlayed != played || st.HandsLeft != left {
		t.Errorf("after hand %d: match %d, played %d, left %d; want %d, %d, %d", hand, st.Match, st.HandsPlayed, st.HandsLeft, match, played, left)
	}
	if len(st.Balance) != len(balance) || !maps.Equal(st.Balance, balance) {
		t.Errorf("after hand %d: balance %v, want %v", hand, st.Balance, balance)
	}
	if len(st.MatchesWon) != len(won) || !maps.Equal(st.MatchesWon, won) {
		t.Errorf("after hand %d: matches won %v, want %v", hand, st.MatchesWon, won)
	}
}

func TestMatchOfThreeHands(t *testing.T) {
	tb := newTable(t, `{"hands_per_match":3}`)

	res, st := tb.play(exampleA())
	if len(res.Events) != 0 {
		t.Errorf("hand 1: events %v, want none", res.Events)
	}
	wantState(t, 1, st, 1, 1, 2, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13}, map[int64]int{})
	if st.Summary != "Partie 1: 1 von 3 Spielen gespielt; Stand: {{player:1}} +20, {{player:2}} -10, {{player:3}} +3, {{player:4}} -13" {
		t.Errorf("hand 1: summary %q", st.Summary)
	}

	res, st = tb.play(exampleB())
	if len(res.Events) != 0 {
		t.Errorf("hand 2: events %v, want none", res.Events)
	}
	wantState(t, 2, st, 1, 2, 1, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13}, map[int64]int{})
	if st.Summary != "Partie 1: 2 von 3 Spielen gespielt; Stand: {{player:1}} +20, {{player:2}} -10, {{player:3}} +3, {{player:4}} -13" {
		t.Errorf("hand 2: summary %q", st.Summary)
	}

	// Hand 3 closes the match: N leads with 40.
	res, st = tb.play(exampleA())
	gamestest.WantPoints(t, res, handOrder, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13})
	if len(res.Events) != 1 {
		t.Fatalf("hand 3: events %v, want one match_won", res.Events)
	}
	ev := res.Events[0]
	if ev.Type != "match_won" || !slices.Equal(ev.Players, []int64{nord}) || ev.Text != "Partie 1 gewonnen von {{player:1}}" {
		t.Errorf("hand 3: event %+v, want match_won by [1], \"Partie 1 gewonnen von {{player:1}}\"", ev)
	}
	wantState(t, 3, st, 2, 0, 3, map[int64]int64{}, map[int64]int{nord: 1})
	if !slices.Equal(st.LastWinners, []int64{nord}) {
		t.Errorf("hand 3: last winners %v, want [1]", st.LastWinners)
	}
	if st.Summary != "Partie 1 gewonnen von {{player:1}}; Partie 2: 0 von 3 Spielen gespielt" {
		t.Errorf("hand 3: summary %q", st.Summary)
	}
	// The stored state has an empty balance object, not null.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(res.State, &raw); err != nil || string(raw["balance"]) != "{}" {
		t.Errorf("hand 3: state %s, want \"balance\":{}", res.State)
	}

	// Hand 4 starts match 2 from a clean balance; the match count stays.
	res, st = tb.play(penaltyA())
	if len(res.Events) != 0 {
		t.Errorf("hand 4: events %v, want none", res.Events)
	}
	wantState(t, 4, st, 2, 1, 2, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13}, map[int64]int{nord: 1})
	if !slices.Equal(st.LastWinners, []int64{nord}) {
		t.Errorf("hand 4: last winners %v, want [1] kept", st.LastWinners)
	}

	// Match 2: S comes from behind with all tricks and no cards.
	tb.play(Facts{Dealer: west, Players: []PlayerFacts{
		{Player: nord, Tricks: 1, Penalty: pen(100)},
		{Player: ost},
		{Player: sued, Tricks: 12, Penalty: pen(30)},
		{Player: west},
	}})
	res, st = tb.play(exampleB())
	if len(res.Events) != 1 || !slices.Equal(res.Events[0].Players, []int64{sued}) || res.Events[0].Text != "Partie 2 gewonnen von {{player:3}}" {
		t.Errorf("match 2: events %+v, want won by S", res.Events)
	}
	wantState(t, 6, st, 3, 0, 3, map[int64]int64{}, map[int64]int{nord: 1, sued: 1})
}

func TestMatchTieSharesTheWin(t *testing.T) {
	tb := newTable(t, `{"hands_per_match":1}`)
	res, st := tb.play(tieHand())
	if len(res.Events) != 1 {
		t.Fatalf("events %v, want one match_won", res.Events)
	}
	ev := res.Events[0]
	if ev.Type != "match_won" || !slices.Equal(ev.Players, []int64{nord, sued}) {
		t.Errorf("event %+v, want match_won shared by [1 3]", ev)
	}
	if ev.Text != "Partie 1 gewonnen von {{player:1}} und {{player:3}}" {
		t.Errorf("event text %q", ev.Text)
	}
	wantState(t, 1, st, 2, 0, 1, map[int64]int64{}, map[int64]int{nord: 1, sued: 1})
	if !slices.Equal(st.LastWinners, []int64{nord, sued}) {
		t.Errorf("last winners %v, want [1 3]", st.LastWinners)
	}

	// Next match, won alone by N: counts accumulate.
	res, st = tb.play(exampleA())
	if len(res.Events) != 1 || !slices.Equal(res.Events[0].Players, []int64{nord}) {
		t.Errorf("match 2 events %+v, want won by [1]", res.Events)
	}
	wantState(t, 2, st, 3, 0, 1, map[int64]int64{}, map[int64]int{nord: 2, sued: 1})

	// All four level: all four share the win.
	res, st = tb.play(exampleB())
	if len(res.Events) != 1 || !slices.Equal(res.Events[0].Players, []int64{nord, ost, sued, west}) {
		t.Errorf("match 3 events %+v, want shared by all four", res.Events)
	}
	wantState(t, 3, st, 4, 0, 1, map[int64]int64{}, map[int64]int{nord: 3, ost: 1, sued: 2, west: 1})
}

// TestMatchWonOnBalance: the match goes to the best balance over all its
// hands, not to the best score of the last hand.
func TestMatchWonOnBalance(t *testing.T) {
	tb := newTable(t, `{"hands_per_match":2}`)
	tb.play(Facts{Dealer: nord, Players: []PlayerFacts{
		{Player: nord, Tricks: 1, Penalty: pen(40)},
		{Player: ost, Tricks: 4, Penalty: pen(40)},
		{Player: sued, Tricks: 4, Penalty: pen(40)},
		{Player: west, Tricks: 4, Penalty: pen(10)},
	}}) // N -30, E 0, S 0, W +30
	res, _ := tb.play(Facts{Dealer: nord, Players: []PlayerFacts{
		{Player: nord, Tricks: 4, Penalty: pen(10)},
		{Player: ost, Tricks: 3, Penalty: pen(31)},
		{Player: sued, Tricks: 3, Penalty: pen(32)},
		{Player: west, Tricks: 3, Penalty: pen(57)},
	}}) // N +30, E -1, S -2, W -27 => N 0, E -1, S -2, W 3
	if len(res.Events) != 1 || !slices.Equal(res.Events[0].Players, []int64{west}) {
		t.Errorf("events %+v, want won by W (balance 3)", res.Events)
	}
}

// TestMatchSittingOutPlayer: a seated player who plays no hand has no
// balance and does not share a win, even when all players are level at 0.
func TestMatchSittingOutPlayer(t *testing.T) {
	tb := newTable(t, `{"hands_per_match":1}`)
	res, st := tb.play(exampleB())
	if len(res.Events) != 1 || !slices.Equal(res.Events[0].Players, []int64{nord, ost, sued, west}) {
		t.Errorf("events %+v, want shared by the four players of the hand only", res.Events)
	}
	if _, ok := st.MatchesWon[bank]; ok {
		t.Errorf("player 5 who sat out is in matches won: %v", st.MatchesWon)
	}
}

// TestHandsPerMatchLoweredMidMatch: lowering hands_per_match below the
// hands already played closes the match with the next hand.
func TestHandsPerMatchLoweredMidMatch(t *testing.T) {
	tb := newTable(t, "")
	tb.play(exampleA())
	_, st := tb.play(exampleA())
	if st.HandsLeft != 6 || st.Summary != "Partie 1: 2 von 8 Spielen gespielt; Stand: {{player:1}} +40, {{player:2}} -20, {{player:3}} +6, {{player:4}} -26" {
		t.Errorf("after 2 of 8: left %d, summary %q", st.HandsLeft, st.Summary)
	}
	tb.rules = gamestest.MustRules(t, Engine{}, "", `{"hands_per_match":2}`)
	res, st := tb.play(exampleB())
	if len(res.Events) != 1 || !slices.Equal(res.Events[0].Players, []int64{nord}) {
		t.Errorf("events %+v, want the match closed and won by N", res.Events)
	}
	wantState(t, 3, st, 2, 0, 2, map[int64]int64{}, map[int64]int{nord: 1})
}

func TestEmptyStatesStartMatchOne(t *testing.T) {
	for _, state := range []string{``, `null`, `{}`, `{"match":0}`} {
		res, err := Engine{}.Score(score.Hand{Seated: seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), State: json.RawMessage(state), Facts: factsJSON(t, exampleA())})
		if err != nil {
			t.Errorf("state %q: %v", state, err)
			continue
		}
		st := decodeStateT(t, res.State)
		wantState(t, 1, st, 1, 1, 7, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13}, map[int64]int{})
	}
	_, err := Engine{}.Score(score.Hand{Seated: seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), State: json.RawMessage(`{"match":"x"}`), Facts: factsJSON(t, exampleA())})
	if err == nil {
		t.Error("unreadable stored state accepted")
	}
}

func TestRules(t *testing.T) {
	decode := func(raw json.RawMessage) Rules {
		t.Helper()
		var r Rules
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("rules %s: %v", raw, err)
		}
		return r
	}
	for _, preset := range []string{"", "standard"} {
		for _, o := range []string{"", "{}", "null", " { } "} {
			raw, err := Engine{}.Rules(preset, json.RawMessage(o))
			if err != nil {
				t.Errorf("Rules(%q, %q): %v", preset, o, err)
				continue
			}
			if r := decode(raw); r != (Rules{Preset: "standard", HandsPerMatch: 8}) {
				t.Errorf("Rules(%q, %q) = %+v, want standard with 8 hands", preset, o, r)
			}
		}
	}
	for _, n := range []int{1, 3, 100} {
		raw, err := Engine{}.Rules("", json.RawMessage(`{"hands_per_match":`+itoa(n)+`}`))
		if err != nil {
			t.Errorf("hands_per_match %d: %v", n, err)
			continue
		}
		if r := decode(raw); r.HandsPerMatch != n || r.Preset != "standard" {
			t.Errorf("hands_per_match %d resolved to %+v", n, r)
		}
	}

	tests := []struct {
		name, preset, overrides, field string
	}{
		{"unknown preset", "turnier", "", "preset"},
		{"unknown preset with options", "Standard", `{"hands_per_match":3}`, "preset"},
		{"unknown option", "", `{"x":1}`, "options.x"},
		{"hands_per_match 0", "", `{"hands_per_match":0}`, "options.hands_per_match"},
		{"hands_per_match 101", "", `{"hands_per_match":101}`, "options.hands_per_match"},
		{"hands_per_match -1", "", `{"hands_per_match":-1}`, "options.hands_per_match"},
		{"hands_per_match string", "", `{"hands_per_match":"8"}`, "options.hands_per_match"},
		{"hands_per_match fraction", "", `{"hands_per_match":2.5}`, "options.hands_per_match"},
		{"options not an object", "", `[8]`, "options"},
		{"options trailing", "", `{"hands_per_match":3} {}`, "options"},
		{"options not JSON", "", `{hands_per_match:3}`, "options"},
	}
	for _, tt := range tests {
		raw, err := Engine{}.Rules(tt.preset, json.RawMessage(tt.overrides))
		v := asViolation(t, err)
		if v == nil {
			t.Errorf("%s: accepted as %s", tt.name, raw)
			continue
		}
		if v.Field != tt.field {
			t.Errorf("%s: field %q (rule %q), want %q", tt.name, v.Field, v.Rule, tt.field)
		}
	}
	// The rule names the range.
	_, err := Engine{}.Rules("", json.RawMessage(`{"hands_per_match":101}`))
	if v := asViolation(t, err); v != nil && !strings.Contains(v.Rule, "between 1 and 100, got 101") {
		t.Errorf("rule %q", v.Rule)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
