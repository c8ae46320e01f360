package doppelkopf

import "testing"

// TestSummaryReadsGerman: the state's summary says in German, with player
// references, who deals, who sits out, the Bock games and rounds and the
// solos of the evening.
func TestSummaryReadsGerman(t *testing.T) {
	cases := []struct {
		name   string
		seated []int64
		state  string
		facts  string
		want   string
	}{
		{"four, nothing pending", four, "",
			`{"game":"normal","re":{"players":[1,2],"augen":150}}`,
			"{{player:2}} gibt; kein Bock"},
		{"five: the dealer sits out", []int64{1, 2, 3, 4, 5}, "",
			`{"game":"normal","re":{"players":[2,3],"augen":130}}`,
			"{{player:2}} gibt und setzt aus; kein Bock"},
		{"six: the dealer and the player to his right", []int64{1, 2, 3, 4, 5, 6}, `{"next_dealer":3}`,
			`{"game":"normal","re":{"players":[4,5],"augen":130}}`,
			"{{player:4}} gibt und setzt aus, ebenso {{player:3}}; kein Bock"},
		{"seven", []int64{1, 2, 3, 4, 5, 6, 7}, `{"next_dealer":7}`,
			`{"game":"normal","re":{"players":[1,2],"augen":130}}`,
			"{{player:1}} gibt und setzt aus, ebenso {{player:6}} und {{player:7}}; kein Bock"},
		{"one Bock game and one round", four, `{"bock_games_left":2}`,
			`{"game":"normal","herzstich":true,"re":{"players":[1,3],"augen":121}}`,
			"{{player:2}} gibt; noch 1 Bockspiel, 1 Bockrunde wartet"},
		{"solos in seating order", []int64{4, 3, 2, 1}, `{"session":7,"solos":{"1":2}}`,
			`{"game":"damensolo","re":{"players":[3],"augen":130}}`,
			"{{player:3}} gibt; kein Bock; Soli an diesem Abend: {{player:3}} 1, {{player:1}} 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testHand{seated: c.seated, session: 7, state: c.state, facts: c.facts}.mustScore(t)
			if st := decodeTestState(t, res); st.Summary != c.want {
				t.Errorf("summary %q, want %q", st.Summary, c.want)
			}
		})
	}
}

// TestDealSummary: every way the deal and the players sitting out read,
// also those the default seating does not produce.
func TestDealSummary(t *testing.T) {
	dealer := int64(1)
	cases := []struct {
		dealer *int64
		out    []int64
		want   string
	}{
		{nil, nil, "Geber noch offen"},
		{&dealer, nil, "{{player:1}} gibt"},
		{&dealer, []int64{1}, "{{player:1}} gibt und setzt aus"},
		{&dealer, []int64{5, 1}, "{{player:1}} gibt und setzt aus, ebenso {{player:5}}"},
		{&dealer, []int64{5}, "{{player:1}} gibt, {{player:5}} setzt aus"},
		{&dealer, []int64{5, 6}, "{{player:1}} gibt, {{player:5}} und {{player:6}} setzen aus"},
	}
	for _, c := range cases {
		st := State{NextDealer: c.dealer, NextSittingOut: c.out}
		if got := st.dealSummary(); got != c.want {
			t.Errorf("dealer %v, sitting out %v: %q, want %q", c.dealer, c.out, got, c.want)
		}
	}
}

// TestBockSummary: the Bock games and rounds in German, singular and
// plural.
func TestBockSummary(t *testing.T) {
	cases := []struct {
		left, queued int
		want         string
	}{
		{0, 0, "kein Bock"},
		{1, 0, "noch 1 Bockspiel"},
		{3, 1, "noch 3 Bockspiele, 1 Bockrunde wartet"},
		{4, 2, "noch 4 Bockspiele, 2 Bockrunden warten"},
		{0, 2, "2 Bockrunden warten"},
	}
	for _, c := range cases {
		if got := bockSummary(c.left, c.queued); got != c.want {
			t.Errorf("%d left, %d queued: %q, want %q", c.left, c.queued, got, c.want)
		}
	}
}
