package doppelkopf

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
)

// TestNoWinnerReadings scores hands where both parties made Absagen and
// neither reached its goal, under both readings of option
// no_winner_unter_gespielt:
//   - off (the engine's reading until now): only the points reached against
//     an Absage (under ddv) and the special points;
//   - on (TSR 7.1.3, Stand 21.02.2026: "Erreichen beide Parteien ihr
//     abgesagtes Ziel nicht, hat keine Partei gewonnen, und es werden nur
//     die unter 7.2.2 (a) und 7.2.2 (e und f) genannten Punkte sowie
//     Sonderpunkte vergeben"): also 7.2.2 (a) without "gewonnen", i.e.
//     "unter 90 / 60 / 30 gespielt" for the party whose opponents stayed
//     under it.
//
// value is the Spielwert for Re: each Re player gets it (the soloist three
// times), each Kontra player its negative. The readings differ only where a
// party stayed under 90, which takes Absagen of different heights (or a
// trick of nines): when both said keine 90, both have 90 to 150 Augen.
func TestNoWinnerReadings(t *testing.T) {
	cases := []struct {
		name      string
		preset    string
		facts     string
		off, on   int64
		onlyLines []string // lines only the TSR reading has
	}{
		// Re keine 90 (needs 151), Kontra keine 90 (needs 151), Re 130:110.
		// off: 120 gegen keine 90 (Re 130) = +1; Kontra 110 < 120 gets none.
		// on:  same; neither party is under 90.              +1
		{"keine 90 both, Re 130", "ddv",
			`{"game":"normal","re":{"players":[1,3],"augen":130,"announced":"keine90"},"kontra":{"announced":"keine90"}}`,
			1, 1, nil},
		// The same with special points: Re Fuchs +1, Kontra Doppelkopf -1.
		// off: 1 + 1 - 1 = +1; on: +1.
		{"keine 90 both, Re 130, special points", "ddv",
			`{"game":"normal","re":{"players":[1,3],"augen":130,"announced":"keine90","fuchs_gefangen":1},"kontra":{"announced":"keine90","doppelkopf":1}}`,
			1, 1, nil},
		// Re keine 60 (needs 181), Kontra keine 90 (needs 151), Re 170:70.
		// off: 120 gegen keine 90 (Re) = +1; Kontra 70 < 90 against keine 60.
		// on:  + unter 90 gespielt (Re), Kontra 70 < 90: +1 = +2.
		{"Re keine 60, Kontra keine 90, Re 170", "ddv",
			`{"game":"normal","re":{"players":[1,3],"augen":170,"announced":"keine60"},"kontra":{"announced":"keine90"}}`,
			1, 2, []string{"unter 90 gespielt (Re)"}},
		// Re keine 30 (needs 211), Kontra keine 90, Re 200:40.
		// off: 120 gegen keine 90 (Re) = +1.
		// on:  + unter 90 and unter 60 gespielt (Re), 40 < 60 = +3.
		{"Re keine 30, Kontra keine 90, Re 200", "ddv",
			`{"game":"normal","re":{"players":[1,3],"augen":200,"announced":"keine30"},"kontra":{"announced":"keine90"}}`,
			1, 3, []string{"unter 90 gespielt (Re)", "unter 60 gespielt (Re)"}},
		// The same with Re Karlchen +1 and Kontra Doppelkopf -1 (Kontra's 40
		// Augen are four Zehnen). off: 1 + 1 - 1 = +1; on: 3 + 1 - 1 = +3.
		{"Re keine 30, Kontra keine 90, Re 200, special points", "ddv",
			`{"game":"normal","re":{"players":[1,3],"augen":200,"announced":"keine30","karlchen":true},"kontra":{"announced":"keine90","doppelkopf":1}}`,
			1, 3, []string{"unter 90 gespielt (Re)", "unter 60 gespielt (Re)"}},
		// Mirrored: Re keine 90, Kontra keine 60 (needs 181), Re 60:180.
		// off: 120 gegen keine 90 (Kontra 180) = -1.
		// on:  + unter 90 gespielt (Kontra), Re 60 < 90, not < 60: -2.
		{"Re keine 90, Kontra keine 60, Re 60", "ddv",
			`{"game":"normal","re":{"players":[1,3],"augen":60,"announced":"keine90"},"kontra":{"announced":"keine60"}}`,
			-1, -2, []string{"unter 90 gespielt (Kontra)"}},
		// 48 cards: Re schwarz, Kontra keine 90; Re 240 Augen, but Kontra took
		// a trick of four nines, so Re's schwarz fails, and Kontra's 0 Augen
		// miss its 151. off: 120 gegen keine 90 (Re) = +1.
		// on: + unter 90, 60, 30 gespielt (Re); Kontra took a trick, so no
		// schwarz gespielt: +4.
		{"Re schwarz, Kontra keine 90 with a trick of nines", "ddv",
			`{"game":"normal","re":{"players":[1,3],"augen":240,"announced":"schwarz"},"kontra":{"announced":"keine90","tricks":1}}`,
			1, 4, []string{"unter 90 gespielt (Re)", "unter 60 gespielt (Re)", "unter 30 gespielt (Re)"}},
		// A solo: Damensolo, Re keine 60, Kontra keine 90, Re 175:65.
		// off: d = 1 (120 gegen keine 90): soloist +3, opponents -1 each.
		// on:  d = 2 (+ unter 90 gespielt): soloist +6, opponents -2 each.
		{"Damensolo, Re keine 60, Kontra keine 90, Re 175", "ddv",
			`{"game":"damensolo","re":{"players":[1],"augen":175,"announced":"keine60"},"kontra":{"announced":"keine90"}}`,
			1, 2, []string{"unter 90 gespielt (Re)"}},
		// house: without the option only special points count (none here);
		// with it, Re 200:40 gets unter 90 and unter 60: +2. Not a Bock game.
		{"house: Re keine 30, Kontra keine 90, Re 200", "house",
			`{"game":"normal","re":{"players":[1,3],"augen":200,"announced":"keine30"},"kontra":{"announced":"keine90"}}`,
			0, 2, []string{"unter 90 gespielt (Re)", "unter 60 gespielt (Re)"}},
	}
	for _, c := range cases {
		for _, on := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/unter_gespielt=%t", c.name, on), func(t *testing.T) {
				res := testHand{preset: c.preset, options: fmt.Sprintf(`{"no_winner_unter_gespielt":%t}`, on), facts: c.facts}.mustScore(t)
				v := c.off
				if on {
					v = c.on
				}
				if len(res.Winners) != 0 {
					t.Errorf("winners %v, want none", res.Winners)
				}
				wantLine(t, res, "Spielwert für Re", "=", v)
				want := map[int64]int64{1: v, 3: v, 2: -v, 4: -v}
				if strings.Contains(c.facts, `"damensolo"`) {
					want = map[int64]int64{1: 3 * v, 2: -v, 3: -v, 4: -v}
				}
				gamestest.WantPoints(t, res, four, want)
				for _, label := range c.onlyLines {
					if on {
						op := score.OpAdd
						if strings.HasSuffix(label, "(Kontra)") {
							op = score.OpSub
						}
						wantLine(t, res, label, op, 1)
					} else {
						noLine(t, res, label)
					}
				}
				noLine(t, res, "schwarz gespielt (Re)")
				noLine(t, res, "gewonnen")
			})
		}
	}
}

// TestNoWinnerDefaults: ddv takes the TSR 7.1.3 reading, house keeps its
// own, and a rule set stored without the option keeps the old reading.
func TestNoWinnerDefaults(t *testing.T) {
	facts := `{"game":"normal","re":{"players":[1,3],"augen":170,"announced":"keine60"},"kontra":{"announced":"keine90"}}`
	// ddv: 120 gegen keine 90 + unter 90 gespielt = 2.
	res := testHand{preset: "ddv", facts: facts}.mustScore(t)
	wantLine(t, res, "Spielwert für Re", "=", 2)
	// house: no special points, nothing else: 0.
	res = testHand{facts: facts}.mustScore(t)
	wantLine(t, res, "Spielwert für Re", "=", 0)
	noLine(t, res, "unter 90 gespielt (Re)")
	// Stored before the option: only 120 gegen keine 90 = 1.
	old := `{"preset":"ddv","valuation":"ddv","bock_triggers":"each"}`
	got, err := Engine{}.Score(scoreHand(four, old, []byte(facts)))
	if err != nil {
		t.Fatal(err)
	}
	wantLine(t, got, "Spielwert für Re", "=", 1)
}
