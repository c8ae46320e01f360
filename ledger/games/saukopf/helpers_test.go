package saukopf

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// seated is the session's seating: player 5 sits at the table but plays no
// hand in most tests.
var seated = []int64{1, 2, 3, 4, 5}

// seatedHand is a hand of facts at the seated table under the default
// rules with option overrides.
func seatedHand(t testing.TB, facts, overrides string) score.Hand {
	t.Helper()
	return score.Hand{
		Seated: seated,
		Rules:  gamestest.MustRules(t, Engine{}, "", overrides),
		Facts:  json.RawMessage(facts),
	}
}

func scoreWith(t testing.TB, facts, overrides string) (score.Result, error) {
	t.Helper()
	return Engine{}.Score(seatedHand(t, facts, overrides))
}

func mustScore(t testing.TB, facts, overrides string) score.Result {
	t.Helper()
	return gamestest.MustScore(t, Engine{}, seatedHand(t, facts, overrides))
}

// wantLines checks that each wanted line ("label op value") appears, in
// the given order.
func wantLines(t *testing.T, res score.Result, want ...string) {
	t.Helper()
	texts := make([]string, len(res.Lines))
	for i, l := range res.Lines {
		texts[i] = gamestest.LineText(l)
	}
	at := 0
	for _, w := range want {
		i := slices.Index(texts[at:], w)
		if i < 0 {
			t.Errorf("line %q missing or out of order in:\n  %s", w, strings.Join(texts, "\n  "))
			return
		}
		at += i + 1
	}
}

// noLine checks that no line's label starts with prefix.
func noLine(t *testing.T, res score.Result, prefix string) {
	t.Helper()
	for _, l := range res.Lines {
		if strings.HasPrefix(l.Label, prefix) {
			t.Errorf("unexpected line %q", gamestest.LineText(l))
		}
	}
}

func hasLine(res score.Result, prefix string) bool {
	return slices.ContainsFunc(res.Lines, func(l score.Line) bool { return strings.HasPrefix(l.Label, prefix) })
}

// solo builds the facts of a Vierer solo by player 1 (bid 61 unless
// changed): contract and its parameters in extra, e.g. `"contract":"eber"`.
func solo(extra string, augen, tricks int, laufende string) string {
	lauf := ""
	if laufende != "" {
		lauf = `,"laufende":` + laufende
	}
	return fmt.Sprintf(`{"variant":"vierer","players":[1,2,3,4],"dealer":4,"spieler":1,%s,"augen":%d,"tricks":%d%s}`,
		extra, augen, tricks, lauf)
}

// keiler builds a Gras-Keiler of player 1 with the given bid (a JSON
// value), Augen, tricks and Laufende.
func keiler(bid string, augen, tricks int, laufende string) string {
	return solo(`"bid":`+bid+`,"contract":"keiler","trump_suit":"gras"`, augen, tricks, laufende)
}

// sauerei builds a Sauerei of player 1 with Mitspieler 3 (called
// Eichel-Sau); extra adds fields.
func sauerei(bid string, augen, tricks int, laufende, extra string) string {
	if extra != "" {
		extra = "," + extra
	}
	return fmt.Sprintf(`{"variant":"vierer","players":[1,2,3,4],"dealer":4,"bid":%s,"spieler":1,"contract":"sauerei","called_sau":"eichel","mitspieler":3,"augen":%d,"tricks":%d,"laufende":%s%s}`,
		bid, augen, tricks, laufende, extra)
}

// threeHand builds a Dreihaxer Keiler of player 1 among players 1, 2, 3;
// trog is `"trog":"mit"` or `"trog":"ohne","open_augen":10`.
func threeHand(trog string, bid string, augen, tricks int, laufende string) string {
	return fmt.Sprintf(`{"variant":"dreihaxer","players":[1,2,3],"dealer":3,%s,"bid":%s,"spieler":1,"contract":"keiler","trump_suit":"eichel","augen":%d,"tricks":%d,"laufende":%s}`,
		trog, bid, augen, tricks, laufende)
}

// wild builds a Wilde Sauerei from "player:augen/tricks" takes.
func wild(extra string, takes ...string) string {
	parts := make([]string, len(takes))
	for i, tk := range takes {
		var p, a, n int
		if _, err := fmt.Sscanf(tk, "%d:%d/%d", &p, &a, &n); err != nil {
			panic(err)
		}
		parts[i] = fmt.Sprintf(`{"player":%d,"augen":%d,"tricks":%d}`, p, a, n)
	}
	if extra != "" {
		extra = "," + extra
	}
	return fmt.Sprintf(`{"variant":"vierer","players":[1,2,3,4],"dealer":4,"per_player":[%s]%s}`, strings.Join(parts, ","), extra)
}
