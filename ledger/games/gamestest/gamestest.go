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
