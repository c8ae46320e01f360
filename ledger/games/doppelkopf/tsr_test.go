package doppelkopf

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
)

// TestTSRWinCriteria walks the DDV Turnierspielregeln' own list of when a
// party has won (TSR 7.1.1 for Re, 7.1.2 for Kontra, Stand 21.02.2026,
// unchanged since 2000) under ddv, with 48 cards, at each case's boundary.
// The TSR has no worked scoring examples; this list is its nearest thing.
// Re is 1 and 3; facts give Re's Augen and, where it matters, the tricks.
func TestTSRWinCriteria(t *testing.T) {
	cases := []struct {
		tsr    string
		re, ko string // announcements
		augen  int    // Re's Augen
		more   string // more Re facts, then "|" and more Kontra facts
		winner string
	}{
		{"7.1.1 Nr. 1: Re with the 121st Auge", "", "", 121, "", "re"},
		{"7.1.2 Nr. 1: Kontra with the 120th Auge", "", "", 120, "", "kontra"},
		{"7.1.1 Nr. 2: only Re said, 121", "re", "", 121, "", "re"},
		{"7.1.2 Nr. 2: only Re said, Kontra 120", "re", "", 120, "", "kontra"},
		{"7.1.1 Nr. 3: Re and Kontra said, 121", "re", "kontra", 121, "", "re"},
		{"7.1.2 Nr. 3: Re and Kontra said, Kontra 120", "re", "kontra", 120, "", "kontra"},
		{"7.1.1 Nr. 4: only Kontra said, Re 120", "", "kontra", 120, "", "re"},
		{"7.1.2 Nr. 4: only Kontra said, Kontra 121", "", "kontra", 119, "", "kontra"},
		{"7.1.1 Nr. 5: Re keine 90 with the 151st Auge", "keine90", "", 151, "", "re"},
		{"7.1.1 Nr. 5: Re keine 90 with 150 loses", "keine90", "", 150, "", "kontra"},
		{"7.1.1 Nr. 5: Re keine 60 with the 181st", "keine60", "", 181, "", "re"},
		{"7.1.1 Nr. 5: Re keine 30 with the 211th", "keine30", "", 211, "", "re"},
		{"7.1.1 Nr. 5: Re keine 30 with 210 loses", "keine30", "", 210, "", "kontra"},
		{"7.1.2 Nr. 5: Kontra keine 90 with the 151st", "", "keine90", 89, "", "kontra"},
		{"7.1.2 Nr. 5: Kontra keine 90 with 150 loses", "", "keine90", 90, "", "re"},
		{"7.1.1 Nr. 6: Re schwarz with every trick", "schwarz", "", 240, `|,"took_trick":false`, "re"},
		{"7.1.1 Nr. 6: Re schwarz, Kontra took four nines", "schwarz", "", 240, `|,"tricks":1`, "kontra"},
		{"7.1.2 Nr. 6: Kontra schwarz with every trick", "", "schwarz", 0, `,"took_trick":false|`, "kontra"},
		{"7.1.1 Nr. 7: Kontra keine 90, Re with the 90th Auge", "", "keine90", 90, "", "re"},
		{"7.1.1 Nr. 7: Kontra keine 60, Re with the 60th", "", "keine60", 60, "", "re"},
		{"7.1.1 Nr. 7: Kontra keine 60, Re 59", "", "keine60", 59, "", "kontra"},
		{"7.1.1 Nr. 7: Kontra keine 30, Re with the 30th", "", "keine30", 30, "", "re"},
		// Re's 100 beat Kontra's keine 60, but Re bound itself to 151 by its
		// keine 90, and Kontra misses its own 181: nobody won (7.1.3).
		{"7.1.1 Nr. 7: not when Re bound itself higher", "keine90", "keine60", 100, "", "none"},
		{"7.1.2 Nr. 7: Re keine 90, Kontra with the 90th", "keine90", "", 150, "", "kontra"},
		{"7.1.2 Nr. 7: Re keine 30, Kontra with the 30th", "keine30", "", 210, "", "kontra"},
		{"7.1.2 Nr. 7: Re keine 30, Kontra 29", "keine30", "", 211, "", "re"},
		{"7.1.1 Nr. 8: Kontra schwarz, Re's first trick (four nines, 0 Augen)", "", "schwarz", 0, `,"tricks":1|`, "re"},
		{"7.1.1 Nr. 8: Kontra schwarz, Re 3 Augen in a trick", "", "schwarz", 3, "", "re"},
		{"7.1.2 Nr. 8: Re schwarz, Kontra's first trick", "schwarz", "", 237, "", "kontra"},
	}
	for _, c := range cases {
		t.Run(c.tsr, func(t *testing.T) {
			re := fmt.Sprintf(`"players":[1,3],"augen":%d,"announced":%q`, c.augen, c.re)
			kontra := fmt.Sprintf(`"announced":%q`, c.ko)
			if reMore, koMore, ok := strings.Cut(c.more, "|"); ok {
				re += reMore
				kontra += koMore
			}
			facts := fmt.Sprintf(`{"game":"normal","re":{%s},"kontra":{%s}}`, re, kontra)
			res := testHand{preset: "ddv", facts: facts}.mustScore(t)
			want := []int64{1, 3}
			switch c.winner {
			case "kontra":
				want = []int64{2, 4}
			case "none":
				want = []int64{}
			}
			if !sameIDs(res.Winners, want) {
				t.Errorf("%s: winners %v, want %s %v (%s)", facts, res.Winners, c.winner, want, res.Title)
			}
		})
	}
}

// TestChecklistExamples encodes the two worked examples of the checklist
// "Ermittlung des Spielwerts" at http://baum24.net/Doppelkopf/Spielwert.php,
// which values hands by the TSR 7.2.2 list (the TSR itself has none).
func TestChecklistExamples(t *testing.T) {
	// Bsp. 1: Kontra said Kontra and won with 160 Augen: gewonnen 1, unter
	// 90 gespielt 1 (Re 80), Kontra angesagt 2, gegen die Kreuz-Damen 1 = 5.
	res := testHand{preset: "ddv", facts: `{"game":"normal","re":{"players":[1,3],"augen":80},"kontra":{"announced":"kontra"}}`}.mustScore(t)
	gamestest.WantPoints(t, res, four, map[int64]int64{2: 5, 4: 5, 1: -5, 3: -5})
	// Bsp. 2: Re said Re, keine 90, keine 60 and made 130: Kontra won with
	// 110: gewonnen 1, Re angesagt 2, keine 90 and keine 60 abgesagt 2, 90
	// gegen keine 60 erreicht 1, gegen die Kreuz-Damen 1 = 7.
	res = testHand{preset: "ddv", facts: `{"game":"normal","re":{"players":[1,3],"augen":130,"announced":"keine60"}}`}.mustScore(t)
	gamestest.WantPoints(t, res, four, map[int64]int64{2: 7, 4: 7, 1: -7, 3: -7})
	wantLine(t, res, "90 gegen keine 60 (Kontra)", "+", 1)
}
