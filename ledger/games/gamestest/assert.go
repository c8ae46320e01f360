package gamestest

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// WantViolation fails the test unless err is a *score.Violation naming
// field with a rule.
func WantViolation(t testing.TB, err error, field string) {
	t.Helper()
	var v *score.Violation
	if !errors.As(err, &v) {
		t.Fatalf("error %v (%T), want a *score.Violation on %s", err, err, field)
	}
	if v.Field != field {
		t.Errorf("violation on %q (%s), want %q", v.Field, v.Rule, field)
	}
	if v.Rule == "" {
		t.Errorf("violation on %q has no rule", v.Field)
	}
}

// WantPoints checks a hand's points exactly, summing to zero: with order,
// one entry per player of order in that order, each what want says (0
// when want leaves him out); without, one entry per player of want. Points
// are whole numbers or exact fractions written "45/2".
func WantPoints[V int64 | string](t testing.TB, res score.Result, order []int64, want map[int64]V) {
	t.Helper()
	n := len(want)
	if order != nil {
		n = len(order)
	}
	if len(res.Points) != n {
		t.Fatalf("points for %d players, want %d: %+v", len(res.Points), n, res.Points)
	}
	var sum score.Points
	for i, pp := range res.Points {
		sum = sum.Add(pp.Points)
		if order != nil && pp.Player != order[i] {
			t.Errorf("points[%d] is player %d, want %d (seating order)", i, pp.Player, order[i])
		}
		w, ok := want[pp.Player]
		if !ok && order == nil {
			t.Errorf("player %d scored %s, want no entry", pp.Player, pp.Points)
			continue
		}
		if p := pointsOf(t, w); pp.Points.Cmp(p) != 0 {
			t.Errorf("player %d: %s points, want %s", pp.Player, pp.Points, p)
		}
	}
	if !sum.IsZero() {
		t.Errorf("points sum to %s, want 0", sum)
	}
}

// pointsOf reads a whole number or a fraction "45/2" as points.
func pointsOf[V int64 | string](t testing.TB, v V) score.Points {
	t.Helper()
	switch v := any(v).(type) {
	case int64:
		return score.Int(v)
	case string:
		if v == "" {
			return score.Points{}
		}
		var p score.Points
		if err := json.Unmarshal([]byte(`"`+v+`"`), &p); err != nil {
			t.Fatalf("points %q: %v", v, err)
		}
		return p
	}
	panic("unreachable")
}

// LineText is a breakdown line as the tests write it: "label op value".
func LineText(l score.Line) string {
	return fmt.Sprintf("%s %s %s", l.Label, l.Op, l.Value)
}

// LinesText is a result's lines, for a failure's message.
func LinesText(res score.Result) string {
	texts := make([]string, len(res.Lines))
	for i, l := range res.Lines {
		texts[i] = LineText(l)
	}
	return strings.Join(texts, "; ")
}

// CheckStats checks what the statistics of every engine promise
// (score.Result): each counter has a count of 1 or more and a key the game
// knows (key says why not, "" when it does); they come ordered by the
// seat of their player (players who are not seated last, by id), then by
// key, none twice; parties, when the hand has any, are disjoint and hold
// players with points, and the winners, when there are any, are one of
// them. What a game's keys say beyond that is its own test's.
func CheckStats(t testing.TB, res score.Result, seated []int64, key func(score.Stat) string) {
	t.Helper()
	rank := func(id int64) int64 {
		if i := slices.Index(seated, id); i >= 0 {
			return int64(i)
		}
		return int64(len(seated)) + id
	}
	for i, s := range res.Stats {
		if why := key(s); why != "" || s.Count < 1 {
			t.Fatalf("stat %+v: %s", s, cmp.Or(why, "count below 1"))
		}
		if i == 0 {
			continue
		}
		p := res.Stats[i-1]
		if rank(p.Player) > rank(s.Player) || p.Player == s.Player && p.Key >= s.Key {
			t.Fatalf("stats out of order or repeated: %+v then %+v", p, s)
		}
	}
	if len(res.Parties) == 0 {
		return
	}
	var all []int64
	for _, party := range res.Parties {
		if len(party) == 0 {
			t.Fatalf("an empty party in %v", res.Parties)
		}
		all = append(all, party...)
	}
	slices.Sort(all)
	if len(slices.Compact(slices.Clone(all))) != len(all) {
		t.Fatalf("a player in two parties of %v", res.Parties)
	}
	for _, id := range all {
		if !slices.ContainsFunc(res.Points, func(pp score.PlayerPoints) bool { return pp.Player == id }) {
			t.Fatalf("party player %d has no points (parties %v)", id, res.Parties)
		}
	}
	if len(res.Winners) > 0 && !slices.ContainsFunc(res.Parties, func(p []int64) bool { return slices.Equal(p, res.Winners) }) {
		t.Fatalf("winners %v are not a party of %v", res.Winners, res.Parties)
	}
}
