package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/score"
)

func TestFormatEUR(t *testing.T) {
	cases := []struct {
		cents int64
		want  string
	}{
		{123456, "1.234,56 €"},
		{-8000, "-80,00 €"},
		{5, "0,05 €"},
		{0, "0,00 €"},
		{-5, "-0,05 €"},
		{99, "0,99 €"},
		{100, "1,00 €"},
		{100000, "1.000,00 €"},
		{-123456789, "-1.234.567,89 €"},
		{math.MaxInt64, "92.233.720.368.547.758,07 €"},
		{math.MinInt64, "-92.233.720.368.547.758,08 €"},
	}
	for _, c := range cases {
		if got := formatEUR(c.cents); got != c.want {
			t.Errorf("formatEUR(%d) = %q, want %q", c.cents, got, c.want)
		}
	}
}

func TestFormatPoints(t *testing.T) {
	cases := []struct {
		p    score.Points
		want string
	}{
		{score.Frac(14, 3), "4 2/3"},
		{score.Frac(-7, 2), "-3 1/2"},
		{score.Int(-13), "-13"},
		{score.Int(0), "0"},
		{score.Points{}, "0"},
		{score.Frac(2, 3), "2/3"},
		{score.Frac(-2, 3), "-2/3"},
		{score.Frac(-31, 6), "-5 1/6"},
		{score.Frac(1200, 7), "171 3/7"},
		{score.Frac(math.MinInt64+1, 2), "-4611686018427387903 1/2"},
	}
	for _, c := range cases {
		if got := formatPoints(c.p); got != c.want {
			t.Errorf("formatPoints(%s) = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestFormatDate(t *testing.T) {
	cases := map[string]string{"2026-11-21": "21.11.2026", "2027-01-05": "05.01.2027", "": "", "morgen": "morgen"}
	for in, want := range cases {
		if got := formatDate(in); got != want {
			t.Errorf("formatDate(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNoFloatingPoint keeps the package's promise that money and chart
// coordinates never pass through a float.
// TestGameNames: the sheet names every registered game as its engine
// does, in German, and writes an unknown game's registry name as is.
func TestGameNames(t *testing.T) {
	want := map[string]string{
		"doppelkopf":    "Doppelkopf",
		"klaberjass":    "Klaberjass",
		"saukopf":       "Saukopf",
		"schwarze_dame": "Schwarze Dame",
		"schwarze_sau":  "Schwarze Sau",
	}
	if got := games.Names(); len(got) != len(want) {
		t.Errorf("registry games %v, want the %d of this test", got, len(want))
	}
	for _, game := range games.Names() {
		if got := gameName(game); got != want[game] {
			t.Errorf("gameName(%q) = %q, want %q", game, got, want[game])
		}
	}
	if got := gameName("skat"); got != "skat" {
		t.Errorf("gameName(%q) = %q, want the registry name", "skat", got)
	}
}

func TestNoFloatingPoint(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"float32", "float64", "math.Floor", "big.Float", "ParseFloat", "%f", "%g"} {
			if strings.Contains(string(src), bad) {
				t.Errorf("%s uses %s", f, bad)
			}
		}
	}
}
