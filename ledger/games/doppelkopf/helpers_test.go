package doppelkopf

import (
	"encoding/json"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

var four = []int64{1, 2, 3, 4}

// testHand is one hand to score in a test.
type testHand struct {
	preset  string
	options string
	seated  []int64
	session int64
	state   string
	facts   string
}

// hand is the score.Hand of th, its rules resolved.
func (th testHand) hand(t testing.TB) score.Hand {
	t.Helper()
	seated := th.seated
	if seated == nil {
		seated = four
	}
	return score.Hand{
		Seated:  seated,
		Session: th.session,
		Rules:   gamestest.MustRules(t, Engine{}, th.preset, th.options),
		State:   json.RawMessage(th.state),
		Facts:   json.RawMessage(th.facts),
	}
}

func (th testHand) score(t testing.TB) (score.Result, error) {
	t.Helper()
	return Engine{}.Score(th.hand(t))
}

func (th testHand) mustScore(t testing.TB) score.Result {
	t.Helper()
	return gamestest.MustScore(t, Engine{}, th.hand(t))
}

// wantLine checks that a breakdown line with this label, op and value
// exists.
func wantLine(t *testing.T, res score.Result, label string, op score.Op, value int64) {
	t.Helper()
	for _, l := range res.Lines {
		if l.Label == label && l.Player == 0 {
			if l.Op != op || l.Value.Cmp(score.Int(value)) != 0 {
				t.Errorf("line %q: %s %s, want %s %d", label, l.Op, l.Value, op, value)
			}
			return
		}
	}
	t.Errorf("no line %q in %s", label, gamestest.LinesText(res))
}

func noLine(t *testing.T, res score.Result, label string) {
	t.Helper()
	for _, l := range res.Lines {
		if l.Label == label {
			t.Errorf("unexpected line %q %s %s", label, l.Op, l.Value)
		}
	}
}

// labels lists the value lines (not the per-player results) in order.
func labels(res score.Result) []string {
	var out []string
	for _, l := range res.Lines {
		if l.Player == 0 {
			out = append(out, l.Label)
		}
	}
	return out
}

func event(res score.Result, typ score.EventType) (score.Event, bool) {
	for _, e := range res.Events {
		if e.Type == typ {
			return e, true
		}
	}
	return score.Event{}, false
}

func decodeTestState(t *testing.T, res score.Result) State {
	t.Helper()
	var st State
	if err := json.Unmarshal(res.State, &st); err != nil {
		t.Fatalf("state %s: %v", res.State, err)
	}
	return st
}

func sameIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func scoreHand(seated []int64, rules string, facts json.RawMessage) score.Hand {
	return score.Hand{Seated: seated, Session: 1, Rules: json.RawMessage(rules), Facts: facts}
}
