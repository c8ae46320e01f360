package schwarzedame

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// FuzzScore: no facts panic the engine; every accepted hand lists the
// four players of the hand once each, in seating order, sums to exactly 0,
// and leaves valid state; every refusal is a *score.Violation naming a
// field of the facts.
func FuzzScore(f *testing.F) {
	for _, facts := range []Facts{exampleA(), exampleB(), penaltyA(), tieHand()} {
		f.Add([]byte(factsJSON(f, facts)), false)
		f.Add([]byte(factsJSON(f, facts)), true)
	}
	mixed := exampleA()
	mixed.Players[1] = PlayerFacts{Player: ost, Tricks: 3, Penalty: pen(40)}
	f.Add([]byte(factsJSON(f, mixed)), false)
	r := rand.New(rand.NewPCG(7, 7))
	for range 8 {
		h, _ := randomHand(r)
		f.Add([]byte(factsJSON(f, h)), true)
	}
	f.Add([]byte(`{"dealer":1,"players":[{"player":1,"tricks":13,"penalty":130},{"player":2},{"player":3},{"player":5}]}`), false)
	f.Add([]byte(`{"dealer":1,"players":[]}`), false)
	f.Add([]byte(`null`), true)
	f.Add([]byte(``), false)

	eight := gamestest.MustRules(f, Engine{}, "", "")
	one := gamestest.MustRules(f, Engine{}, "", `{"hands_per_match":1}`)
	f.Fuzz(func(t *testing.T, facts []byte, closeMatch bool) {
		rules := eight
		if closeMatch {
			rules = one
		}
		res, err := Engine{}.Score(score.Hand{Seated: seated, Rules: rules, Facts: facts})
		if err != nil {
			var v *score.Violation
			if !errors.As(err, &v) {
				t.Fatalf("refusal %v is %T, want *score.Violation", err, err)
			}
			if !strings.HasPrefix(v.Field, "facts") {
				t.Fatalf("refusal names field %q, want one under facts", v.Field)
			}
			return
		}
		if len(res.Points) != 4 {
			t.Fatalf("points for %d players, want 4: %v", len(res.Points), res.Points)
		}
		next := 0
		seen := map[int64]bool{}
		for _, pp := range res.Points {
			if seen[pp.Player] {
				t.Fatalf("player %d listed twice", pp.Player)
			}
			seen[pp.Player] = true
			for next < len(seated) && seated[next] != pp.Player {
				next++
			}
			if next == len(seated) {
				t.Fatalf("points %v not in seating order %v", res.Points, seated)
			}
			if !pp.Points.IsInt() {
				t.Fatalf("player %d scored %s, want a whole number", pp.Player, pp.Points)
			}
		}
		if sum := sumPoints(res); !sum.IsZero() {
			t.Fatalf("points %v sum to %s for %s", res.Points, sum, facts)
		}
		if len(res.Lines) != 12 {
			t.Fatalf("%d lines, want 3 per player", len(res.Lines))
		}
		var st State
		if err := json.Unmarshal(res.State, &st); err != nil {
			t.Fatalf("state %s: %v", res.State, err)
		}
		if closeMatch && (len(res.Events) != 1 || st.Match != 2 || len(st.Balance) != 0) {
			t.Fatalf("one-hand match not closed: events %v, state %s", res.Events, res.State)
		}
		if !closeMatch && (len(res.Events) != 0 || st.HandsPlayed != 1 || st.HandsLeft != 7) {
			t.Fatalf("first of 8 hands: events %v, state %s", res.Events, res.State)
		}
	})
}

func BenchmarkScore(b *testing.B) {
	hand := score.Hand{Seated: seated, Rules: gamestest.MustRules(b, Engine{}, "", ""), Facts: factsJSON(b, exampleA())}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Engine{}).Score(hand); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScoreMatchEnd scores the last hand of a match from a carried
// state: the path that picks the winners and resets the balance.
func BenchmarkScoreMatchEnd(b *testing.B) {
	hand := score.Hand{
		Seated: seated, Rules: gamestest.MustRules(b, Engine{}, "", `{"hands_per_match":3}`), Facts: factsJSON(b, exampleA()),
		State: json.RawMessage(`{"match":1,"hands_played":2,"hands_left":1,"balance":{"1":20,"2":-10,"3":3,"4":-13},"matches_won":{"3":1}}`),
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := (Engine{}).Score(hand)
		if err != nil || len(res.Events) != 1 {
			b.Fatal(err, res.Events)
		}
	}
}
