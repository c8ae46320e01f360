package klaberjass

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// handFacts is gamestest.KlaberjassHand for the players 1..4 and its trump
// player, the one after the dealer.
func handFacts(dealer int64, trumpWins, kontra bool) (string, int64) {
	return gamestest.Seat(gamestest.KlaberjassHand(int(dealer), trumpWins, kontra), seated4...), dealer%4 + 1
}

// A whole four-player match and the start of the next, each hand fed the
// state of the one before and dealt by the proposed next dealer.
func TestWholeFourPlayerMatch(t *testing.T) {
	hands := []struct {
		trumpWins, kontra bool
		die13, die24      int // dice after the hand
		match             int
		event             string // match_won winners as "1,3"
	}{
		{true, false, 1, 0, 1, ""},  // dealer 4, trump 1 wins: 1/3 +1
		{true, true, 1, 2, 1, ""},   // dealer 1, trump 2 wins with Kontra: 2/4 +2
		{false, false, 1, 4, 1, ""}, // dealer 2, trump 3 loses: 2/4 +2
		{true, false, 1, 5, 1, ""},  // dealer 3, trump 4 wins: 2/4 +1
		{false, false, 0, 0, 2, "2,4"},
		{false, true, 4, 0, 2, ""},     // dealer 1, trump 2 loses with Kontra: 1/3 +4
		{true, false, 5, 0, 2, ""},     // dealer 2, trump 3 wins: 1/3 +1
		{false, false, 0, 0, 3, "1,3"}, // dealer 3, trump 4 loses: 1/3 +2 reaches 6
	}
	var state json.RawMessage
	dealer := int64(4)
	wantDealer := []int64{1, 2, 3, 4, 1, 2, 3, 4}
	for i, h := range hands {
		facts, trump := handFacts(dealer, h.trumpWins, h.kontra)
		res := play(t, seated4, nil, state, facts)
		assertZeroPoints(t, res, seated4)
		st := stateOf(t, res)
		if got13, got24 := die(t, st, 1, 3), die(t, st, 2, 4); got13 != h.die13 || got24 != h.die24 || st.Match != h.match {
			t.Fatalf("hand %d (trump %d): match %d dice 1/3=%d 2/4=%d, want match %d dice %d %d", i+1, trump, st.Match, got13, got24, h.match, h.die13, h.die24)
		}
		if st.NextDealer != wantDealer[i] {
			t.Errorf("hand %d: next dealer %d, want %d", i+1, st.NextDealer, wantDealer[i])
		}
		checkMatchEvents(t, i+1, res.Events, h.event)
		state, dealer = res.State, st.NextDealer
	}
	st := stateOf(t, play(t, seated4, nil, state, `{"dealer":1,"trump_player":2,"trump_suit":"herz","card_points":[{"player":2,"points":76},{"player":1,"points":76}],"last_trick":2}`))
	if st.MatchesWon[1] != 1 || st.MatchesWon[2] != 1 || st.MatchesWon[3] != 1 || st.MatchesWon[4] != 1 || st.Hands != 1 {
		t.Errorf("after two matches: %+v", st)
	}
	if st.Sides[0].MatchesWon != 1 || st.Sides[1].MatchesWon != 1 {
		t.Errorf("matches per side %+v", st.Sides)
	}
}

func checkMatchEvents(t *testing.T, hand int, events []score.Event, winners string) {
	t.Helper()
	if winners == "" {
		if len(events) != 0 {
			t.Errorf("hand %d: unexpected events %+v", hand, events)
		}
		return
	}
	if len(events) != 2 || events[0].Type != "match_won" || events[1].Type != "match_lost" {
		t.Fatalf("hand %d: events %+v, want match_won and match_lost", hand, events)
	}
	if got := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(events[0].Players)), ","), "[]"); got != winners {
		t.Errorf("hand %d: winners %s, want %s", hand, got, winners)
	}
	if len(events[1].Players) != 2 || slices.ContainsFunc(events[1].Players, func(id int64) bool { return slices.Contains(events[0].Players, id) }) {
		t.Errorf("hand %d: losers %v overlap winners %v", hand, events[1].Players, events[0].Players)
	}
}

// Two players with the default dealer rule: the winner deals next.
func TestTwoPlayerMatchWinnerDeals(t *testing.T) {
	var state json.RawMessage
	dealer := int64(1)
	for i, trumpWins := range []bool{false, false, false} { // player 2 plays trump when 1 deals
		trump := int64(3) - dealer
		other := dealer
		winner := trump
		if !trumpWins {
			winner = other
		}
		facts := fmt.Sprintf(`{"dealer":%d,"trump_player":%d,"trump_suit":"pik","card_points":[{"player":%d,"points":100},{"player":%d,"points":52}],"last_trick":%d}`,
			dealer, trump, winner, 3-winner, winner)
		res := play(t, seated2, nil, state, facts)
		st := stateOf(t, res)
		if st.NextDealer != winner {
			t.Fatalf("hand %d: next dealer %d, want the winner %d", i+1, st.NextDealer, winner)
		}
		state, dealer = res.State, st.NextDealer
	}
	// Player 1 won all three hands as the opponent: 2 + 2 + 2 = 6 wins.
	if st := stateOf(t, score.Result{State: state}); st.Match != 2 || st.MatchesWon[1] != 1 {
		t.Errorf("state %+v: player 1 should have won match 1", st)
	}
}

// exampleFacts is the example of KlaberjassFacts in openapi.yaml.
const exampleFacts = `{"players": [1, 2, 3, 4], "dealer": 4, "trump_player": 1, "trump_suit": "herz", "melds": [{"player": 1, "kind": "terz", "suit": "pik", "top": "koenig"}], "bella": 3, "card_points": [{"player": 1, "points": 92}, {"player": 2, "points": 60}], "last_trick": 3, "kontra": true}`

func TestOpenAPIExample(t *testing.T) {
	spec, err := os.ReadFile("../../../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(spec), "example: "+exampleFacts) {
		t.Fatal("openapi.yaml does not carry exampleFacts as the Facts example")
	}
	res := play(t, seated4, nil, nil, exampleFacts)
	if got := line(t, res, "Summe {{player:1}}/{{player:3}} (Trumpf)"); got != "= 142" {
		t.Errorf("example total %s, want 142", got)
	}
	if got := line(t, res, "Würfel {{player:1}}/{{player:3}} von 0 auf 2"); got != "= 2" {
		t.Errorf("example die %s", got)
	}
	for _, name := range []string{"KlaberjassFacts:", "KlaberjassOptions:", "KlaberjassState:"} {
		if !strings.Contains(string(spec), name) {
			t.Errorf("openapi.yaml lacks %s", name)
		}
	}
}

// fuzzSeeds are valid hands of the tests above plus a few refused ones.
var fuzzSeeds = []string{
	exampleFacts,
	`{"dealer":4,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"terz","suit":"herz","top":"koenig"}],"card_points":[{"player":1,"points":92},{"player":2,"points":60}],"last_trick":3}`,
	`{"dealer":1,"trump_player":2,"trump_suit":"pik","kontra":true,"re":true,"bella":4,"card_points":[{"player":2,"points":70},{"player":1,"points":82}],"last_trick":1}`,
	`{"players":[1,2,3],"dealer":3,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"terz","suit":"kreuz","top":"ass"},{"player":2,"kind":"halber","suit":"pik","top":"10"}],"card_points":[{"player":1,"points":40},{"player":2,"points":56},{"player":3,"points":56}],"last_trick":2}`,
	`{"players":[2,1],"dealer":2,"trump_player":1,"trump_suit":"karo","orgi":true,"kontra":true,"card_points":[{"player":1,"points":71},{"player":2,"points":81}],"bella":2,"last_trick":1}`,
	`{"players":[1,2,4,3],"dealer":4,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":92},{"player":2,"points":60}],"last_trick":1}`,
	`{"dealer":1,"trump_player":1,"trump_suit":"herz","re":true,"card_points":[{"player":1,"points":151},{"player":2,"points":1}],"last_trick":1}`,
	`{"dealer":1,"trump_player":1,"trump_suit":"herz","bella":2,"melds":[{"player":3,"kind":"terz","suit":"herz","top":"dame"}],"card_points":[{"player":1,"points":76},{"player":2,"points":76}],"last_trick":1}`,
	`[]`, `null`, ``,
}

func FuzzScore(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	plain := gamestest.MustRules(f, Engine{}, "", "")
	orgi := gamestest.MustRules(f, Engine{}, "", `{"orgi":true,"dealer_rule":"winner_deals"}`)
	state := json.RawMessage(`{"match":2,"hands":3,"sides":[{"players":[1,3],"die":5},{"players":[2,4],"die":4}],"matches_won":{"1":1}}`)
	f.Fuzz(func(t *testing.T, facts []byte) {
		for _, rules := range []json.RawMessage{plain, orgi} {
			res, err := Engine{}.Score(score.Hand{Seated: seated4, Rules: rules, State: state, Facts: facts})
			if err != nil {
				var v *score.Violation
				if !errors.As(err, &v) || v.Field == "" || v.Rule == "" {
					t.Fatalf("refused with %T %v, want a *score.Violation", err, err)
				}
				continue
			}
			sum := score.Int(0)
			for _, p := range res.Points {
				sum = sum.Add(p.Points)
			}
			if !sum.IsZero() || len(res.Points) < 2 || len(res.Winners) == 0 {
				t.Fatalf("accepted hand: points %v winners %v", res.Points, res.Winners)
			}
			var st State
			if err := json.Unmarshal(res.State, &st); err != nil {
				t.Fatalf("state %s: %v", res.State, err)
			}
			for _, s := range st.Sides {
				if s.Die < 0 || s.Die >= dieGoal {
					t.Fatalf("die %d left 0..5", s.Die)
				}
			}
		}
	})
}

func BenchmarkScore(b *testing.B) {
	rules := gamestest.MustRules(b, Engine{}, "", "")
	state := json.RawMessage(`{"match":1,"hands":2,"sides":[{"players":[1,3],"die":1,"matches_won":0},{"players":[2,4],"die":3,"matches_won":0}],"matches_won":{},"next_dealer":4,"summary":""}`)
	h := score.Hand{Seated: seated4, Rules: rules, State: state, Facts: json.RawMessage(fuzzSeeds[1])}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Engine{}).Score(h); err != nil {
			b.Fatal(err)
		}
	}
}
