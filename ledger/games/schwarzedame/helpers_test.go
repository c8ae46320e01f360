package schwarzedame

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// The players N, E, S, W of the rules' worked examples; player 5 sits at
// the table and plays no hand.
const (
	nord int64 = 1
	ost  int64 = 2
	sued int64 = 3
	west int64 = 4
	bank int64 = 5
)

var seated = []int64{nord, ost, sued, west, bank}

func pen(n int) *int { return &n }

// exampleA is worked example A of README.md:
// N 4 tricks, Herz 2, 5, König (20) = +20; E 3 tricks, Pik-Dame and
// Herz-Ass (40) = -10; S 5 tricks, Herz 3, 4, 6..10 (47) = +3; W 1 trick,
// Herz-Bube and Herz-Dame (23) = -13.
func exampleA() Facts {
	return Facts{Dealer: west, Players: []PlayerFacts{
		{Player: nord, Tricks: 4, Hearts: []int{2, 5, 13}},
		{Player: ost, Tricks: 3, Hearts: []int{14}, PikDame: true},
		{Player: sued, Tricks: 5, Hearts: []int{3, 4, 6, 7, 8, 9, 10}},
		{Player: west, Tricks: 1, Hearts: []int{11, 12}},
	}}
}

// exampleB is worked example B: N takes all 13 tricks and every card.
func exampleB() Facts {
	return Facts{Dealer: nord, Players: []PlayerFacts{
		{Player: nord, Tricks: 13, Hearts: []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, PikDame: true},
		{Player: ost},
		{Player: sued},
		{Player: west},
	}}
}

// penaltyA is example A with penalty points instead of cards.
func penaltyA() Facts {
	return Facts{Dealer: west, Players: []PlayerFacts{
		{Player: nord, Tricks: 4, Penalty: pen(20)},
		{Player: ost, Tricks: 3, Penalty: pen(40)},
		{Player: sued, Tricks: 5, Penalty: pen(47)},
		{Player: west, Tricks: 1, Penalty: pen(23)},
	}}
}

func factsJSON(t testing.TB, f Facts) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// seatedHand is a hand of f at the seated table under the default rules.
func seatedHand(t testing.TB, f Facts) score.Hand {
	t.Helper()
	return score.Hand{Seated: seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), Facts: factsJSON(t, f)}
}

func scoreFacts(t testing.TB, f Facts) (score.Result, error) {
	t.Helper()
	return Engine{}.Score(seatedHand(t, f))
}

func mustScore(t testing.TB, f Facts) score.Result {
	t.Helper()
	return gamestest.MustScore(t, Engine{}, seatedHand(t, f))
}

// wantLines checks the lines exactly, in order.
func wantLines(t *testing.T, res score.Result, want ...string) {
	t.Helper()
	if len(res.Lines) != len(want) {
		t.Errorf("%d lines, want %d", len(res.Lines), len(want))
	}
	for i := range min(len(res.Lines), len(want)) {
		if got := fmt.Sprintf("%d: %s", res.Lines[i].Player, gamestest.LineText(res.Lines[i])); got != want[i] {
			t.Errorf("line %d = %q, want %q", i, got, want[i])
		}
	}
}

// asViolation returns err as a *score.Violation or fails the test.
func asViolation(t *testing.T, err error) *score.Violation {
	t.Helper()
	if err == nil {
		t.Error("accepted, want a *score.Violation")
		return nil
	}
	var v *score.Violation
	if !errors.As(err, &v) {
		t.Errorf("error %v is %T, want *score.Violation", err, err)
		return nil
	}
	return v
}

func decodeStateT(t *testing.T, raw json.RawMessage) State {
	t.Helper()
	var st State
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatalf("state %s: %v", raw, err)
	}
	return st
}

func sumPoints(res score.Result) score.Points {
	var sum score.Points
	for _, pp := range res.Points {
		sum = sum.Add(pp.Points)
	}
	return sum
}
