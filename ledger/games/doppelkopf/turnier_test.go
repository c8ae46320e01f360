package doppelkopf

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
)

const turnierOptions = `{"turnier": true}`

// turnierTable plays hands of one session under ddv with option turnier,
// feeding each hand's state into the next.
type turnierTable struct {
	t       *testing.T
	session int64
	state   json.RawMessage
}

func (tt *turnierTable) hand(facts string) testHand {
	return testHand{preset: "ddv", options: turnierOptions, session: tt.session, state: string(tt.state), facts: facts}
}

// play scores facts and keeps the state.
func (tt *turnierTable) play(facts string) score.Result {
	tt.t.Helper()
	res := tt.hand(facts).mustScore(tt.t)
	tt.state = res.State
	return res
}

// refuse checks that facts are refused naming field, and keeps the state.
func (tt *turnierTable) refuse(facts, field string) {
	tt.t.Helper()
	_, err := tt.hand(facts).score(tt.t)
	gamestest.WantViolation(tt.t, err, field)
}

// statsOf lists the hand's statistics as "player:key".
func statsOf(res score.Result, keys ...string) []string {
	var out []string
	for _, s := range res.Stats {
		if slices.Contains(keys, s.Key) {
			out = append(out, string(rune('0'+s.Player))+":"+s.Key)
		}
	}
	return out
}

var turnierKeys = []string{StatPflichtsolo, StatVorgefuehrt, StatLustsolo, StatAufspiel}

// TestTurnierSpielrunde plays the TSR's rules of one table's Spielrunde:
// position 1 deals first, the same dealer deals again after a Pflichtsolo,
// the next after a vorgeführt one, one Pflichtsolo per player before any
// Lustsolo, and who leads to the first trick.
func TestTurnierSpielrunde(t *testing.T) {
	// The state of an earlier session proposes player 3 as the next dealer;
	// a new Spielrunde starts with position 1 (TSR 3.3.1, 8.4.1).
	tt := &turnierTable{t: t, session: 7, state: json.RawMessage(`{"session": 6, "games": 24, "next_dealer": 3, "pflichtsoli": [1, 2, 3, 4]}`)}

	// 1. Dealer 1, a normal game: player 2 (the dealer's left) leads.
	res := tt.play(`{"game": "normal", "re": {"players": [1, 3], "augen": 130}}`)
	wantDealer(t, 1, res, 1, 2)
	if got := statsOf(res, turnierKeys...); !slices.Equal(got, []string{"2:aufspiel"}) {
		t.Errorf("hand 1 stats %v, want 2 leading", got)
	}
	// 2. Dealer 2, player 3's Pflichtsolo (a Damensolo, won with 130: 1
	// point, x3 for him): he leads (TSR 4.2.2), and dealer 2 deals again
	// (TSR 3.3.1, 4.2.5).
	res = tt.play(`{"game": "damensolo", "solo_kind": "pflicht", "re": {"players": [3], "augen": 130}}`)
	gamestest.WantPoints(t, res, four, map[int64]int64{1: -1, 2: -1, 3: 3, 4: -1})
	wantDealer(t, 2, res, 2, 2)
	if got := statsOf(res, turnierKeys...); !slices.Equal(got, []string{"3:aufspiel", "3:pflichtsolo"}) {
		t.Errorf("hand 2 stats %v, want 3 leading his Pflichtsolo", got)
	}
	// A second Pflichtsolo of player 3, a Lustsolo of player 1 before his
	// Pflichtsolo, and a solo without its kind are refused.
	tt.refuse(`{"game": "bubensolo", "solo_kind": "pflicht", "re": {"players": [3], "augen": 130}}`, "facts.solo_kind")
	tt.refuse(`{"game": "bubensolo", "solo_kind": "lust", "re": {"players": [1], "augen": 130}}`, "facts.solo_kind")
	tt.refuse(`{"game": "bubensolo", "re": {"players": [1], "augen": 130}}`, "facts.solo_kind")
	// 3. Dealer 2 again, player 1's Pflichtsolo; dealer 2 deals once more.
	res = tt.play(`{"game": "farbsolo", "suit": "kreuz", "solo_kind": "pflicht", "re": {"players": [1], "augen": 100}}`)
	wantDealer(t, 3, res, 2, 2)
	if got := statsOf(res, turnierKeys...); !slices.Equal(got, []string{"1:aufspiel", "1:pflichtsolo"}) {
		t.Errorf("hand 3 stats %v, want 1 leading his Pflichtsolo, not 3 (the dealer's left)", got)
	}
	// 4. Dealer 2, player 1's Lustsolo: the dealer's left (3) leads (TSR
	// 4.3.1), and the deal moves on.
	res = tt.play(`{"game": "bubensolo", "solo_kind": "lust", "re": {"players": [1], "augen": 150}}`)
	wantDealer(t, 4, res, 2, 3)
	if got := statsOf(res, turnierKeys...); !slices.Equal(got, []string{"1:lustsolo", "3:aufspiel"}) {
		t.Errorf("hand 4 stats %v, want 1's Lustsolo led by 3", got)
	}
	// 5. Dealer 3; 2 and 4 still owe their Pflichtsolo. Vorgeführt is 4,
	// the next to the dealer's left (TSR 4.2.3), not 2; after it the deal
	// moves on (TSR 4.2.5).
	tt.refuse(`{"game": "damensolo", "solo_kind": "pflicht", "vorgefuehrt": true, "re": {"players": [2], "augen": 130}}`, "facts.vorgefuehrt")
	res = tt.play(`{"game": "damensolo", "solo_kind": "pflicht", "vorgefuehrt": true, "re": {"players": [4], "augen": 100}}`)
	wantDealer(t, 5, res, 3, 4)
	if got := statsOf(res, turnierKeys...); !slices.Equal(got, []string{"4:aufspiel", "4:pflichtsolo", "4:pflichtsolo_vorgefuehrt"}) {
		t.Errorf("hand 5 stats %v, want 4's vorgeführt Pflichtsolo", got)
	}
	st := decodeTestState(t, res)
	if st.Games != 5 || !slices.Equal(st.Pflichtsoli, []int64{3, 1, 4}) || st.Solos[1] != 2 {
		t.Errorf("state: %d games, Pflichtsoli %v, solos %v; want 5, [3 1 4], player 1 two", st.Games, st.Pflichtsoli, st.Solos)
	}
}

// wantDealer checks a hand's dealer and the next dealer after it.
func wantDealer(t *testing.T, n int, res score.Result, dealer, next int64) {
	t.Helper()
	if res.Dealer != dealer {
		t.Errorf("hand %d: dealer %d, want %d", n, res.Dealer, dealer)
	}
	if st := decodeTestState(t, res); st.NextDealer == nil || *st.NextDealer != next {
		t.Errorf("hand %d: next dealer %v, want %d", n, st.NextDealer, next)
	}
}

// TestTurnierNextDealer checks the next dealer the state proposes after a
// Pflichtsolo (the same), a vorgeführt one and a Lustsolo (the next).
func TestTurnierNextDealer(t *testing.T) {
	cases := []struct {
		name  string
		facts string
		next  int64
	}{
		{"normal game", `{"game": "normal", "re": {"players": [1, 3], "augen": 130}}`, 2},
		{"Pflichtsolo", `{"game": "damensolo", "solo_kind": "pflicht", "re": {"players": [3], "augen": 130}}`, 1},
		{"vorgeführt", `{"game": "damensolo", "solo_kind": "pflicht", "vorgefuehrt": true, "re": {"players": [2], "augen": 130}}`, 2},
		{"stille Hochzeit", `{"game": "stille_hochzeit", "re": {"players": [4], "augen": 130}}`, 2},
	}
	for _, c := range cases {
		tt := &turnierTable{t: t, session: 1}
		res := tt.play(c.facts)
		if st := decodeTestState(t, res); st.NextDealer == nil || *st.NextDealer != c.next {
			t.Errorf("%s: next dealer %v, want %d", c.name, st.NextDealer, c.next)
		}
	}
}

// TestTurnierRefusals: solo_kind and vorgefuehrt only in tournament play,
// only for an announced solo, at a table of four.
func TestTurnierRefusals(t *testing.T) {
	solo := `{"game": "damensolo", "solo_kind": "pflicht", "re": {"players": [3], "augen": 130}}`
	cases := []struct {
		name    string
		options string
		seated  []int64
		facts   string
		field   string
		rule    string // a part of the rule
	}{
		{"no tournament play", `{}`, nil, solo, "facts.solo_kind", "option turnier"},
		{"vorgeführt without tournament play", `{}`, nil, `{"game": "damensolo", "vorgefuehrt": true, "re": {"players": [3], "augen": 130}}`, "facts.vorgefuehrt", "option turnier"},
		{"five seated", turnierOptions, []int64{1, 2, 3, 4, 5}, solo, "seated", "8.3.1"},
		{"unknown kind", turnierOptions, nil, `{"game": "damensolo", "solo_kind": "pflichtig", "re": {"players": [3], "augen": 130}}`, "facts.solo_kind", "pflicht"},
		{"a normal game", turnierOptions, nil, `{"game": "normal", "solo_kind": "lust", "re": {"players": [1, 3], "augen": 130}}`, "facts.solo_kind", "only an announced solo"},
		{"a stille Hochzeit (TSR 4.4.5)", turnierOptions, nil, `{"game": "stille_hochzeit", "solo_kind": "pflicht", "re": {"players": [3], "augen": 130}}`, "facts.solo_kind", "4.4.5"},
		{"a Hochzeit without partner (TSR 4.4.3 b)", turnierOptions, nil, `{"game": "hochzeit", "solo_kind": "pflicht", "re": {"players": [3], "augen": 130}}`, "facts.solo_kind", "4.4.3 b"},
		{"a Lustsolo vorgeführt", turnierOptions, nil, `{"game": "damensolo", "solo_kind": "lust", "vorgefuehrt": true, "re": {"players": [3], "augen": 130}}`, "facts.vorgefuehrt", "only a Pflichtsolo"},
	}
	for _, c := range cases {
		th := testHand{preset: "ddv", options: c.options, seated: c.seated, session: 1, facts: c.facts}
		_, err := th.score(t)
		gamestest.WantViolation(t, err, c.field)
		if err == nil || !strings.Contains(err.Error(), c.rule) {
			t.Errorf("%s: %v, want the rule to say %q", c.name, err, c.rule)
		}
	}
}

func TestVorgefuehrt(t *testing.T) {
	cases := []struct {
		dealer int64
		played []int64
		want   int64
		ok     bool
	}{
		{1, nil, 2, true},
		{4, nil, 1, true},
		{2, []int64{3, 4, 1}, 2, true}, // the dealer himself, last
		{3, []int64{4}, 1, true},
		{1, []int64{1, 2, 3, 4}, 0, false},
	}
	for _, c := range cases {
		got, ok := Vorgefuehrt(four, c.dealer, c.played)
		if got != c.want || ok != c.ok {
			t.Errorf("dealer %d, played %v: %d %v, want %d %v", c.dealer, c.played, got, ok, c.want, c.ok)
		}
	}
}
