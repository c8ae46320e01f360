// Package gamestest holds what the tests of the game engines, of the store
// and of the API share: rule sets and scores that fail the test instead of
// returning an error, for any score.Engine, and the hands several of those
// tests play, written once.
//
// It is a normal (non-test) package so that test files of other packages
// can import it, but it is used only from tests: no engine, no store and no
// handler may import it. It imports nothing of the module but ledger/score,
// so that an engine's own (internal) tests can import it without a cycle.
//
// Hands are written with the placeholders P1, P2, … for the players, in
// the order the test created or seated them; Seat writes the ids in. The
// engines' tests use the ids 1..n, the store's and the API's the ids the
// database gave.
package gamestest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// MustRules resolves a preset ("" is the game's default) with option
// overrides (a JSON object, or "" for none) or fails the test.
func MustRules(t testing.TB, e score.Engine, preset, overrides string) json.RawMessage {
	t.Helper()
	var raw json.RawMessage
	if overrides != "" {
		raw = json.RawMessage(overrides)
	}
	r, err := e.Rules(preset, raw)
	if err != nil {
		t.Fatalf("%s: Rules(%q, %s): %v", e.Name(), preset, overrides, err)
	}
	return r
}

// MustScore scores h or fails the test.
func MustScore(t testing.TB, e score.Engine, h score.Hand) score.Result {
	t.Helper()
	res, err := e.Score(h)
	if err != nil {
		t.Fatalf("%s: Score(%s): %v", e.Name(), h.Facts, err)
	}
	return res
}

var placeholder = regexp.MustCompile(`\bP([1-9][0-9]*)\b`)

// Seat replaces the placeholders P1, P2, … in text by ids[0], ids[1], ….
// A placeholder without an id is a mistake in the test and panics.
func Seat(text string, ids ...int64) string {
	return placeholder.ReplaceAllStringFunc(text, func(p string) string {
		n, _ := strconv.Atoi(p[1:])
		if n > len(ids) {
			panic(fmt.Sprintf("gamestest.Seat: %s in %q, but only %d ids", p, text, len(ids)))
		}
		return strconv.FormatInt(ids[n-1], 10)
	})
}

// CompleteState fails the test unless state is a JSON object with every
// member of required and without a null anywhere (an empty array or
// object stands for "none"): what a state schema asks of a preview and of
// the state a hand leaves.
func CompleteState(t testing.TB, state json.RawMessage, required ...string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(state, &m); err != nil || m == nil {
		t.Fatalf("state %s is not a JSON object: %v", state, err)
	}
	for _, key := range required {
		if _, ok := m[key]; !ok {
			t.Errorf("state %s lacks %q", state, key)
		}
	}
	if path, ok := nullAt(m, ""); ok {
		t.Errorf("state %s has null at %s", state, path)
	}
}

// nullAt returns the path of the first null in v.
func nullAt(v any, path string) (string, bool) {
	switch x := v.(type) {
	case nil:
		return path, true
	case map[string]any:
		for k, e := range x {
			if p, ok := nullAt(e, path+"."+k); ok {
				return p, true
			}
		}
	case []any:
		for i, e := range x {
			if p, ok := nullAt(e, fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
	}
	return "", false
}

// MustPreview previews the next hand after h with e, or fails the test,
// and checks the preview is a complete state with the required members.
func MustPreview(t testing.TB, e score.Engine, h score.Hand, required ...string) json.RawMessage {
	t.Helper()
	raw, err := e.Preview(h)
	if err != nil {
		t.Fatalf("Preview: %v", err)
	}
	CompleteState(t, raw, required...)
	return raw
}

// SameJSON fails the test unless got and want are the same JSON value,
// whatever their members' order and spacing.
func SameJSON(t testing.TB, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("got\n %s\nwant\n %s", gb, wb)
	}
}
