package doppelkopf

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// forty is the ddv preset played with the house rules' 40 cards.
const forty = `{"nines":false}`

func TestDeckOption(t *testing.T) {
	cases := []struct {
		preset, options string
		want            bool
	}{
		{"house", "", false},
		{"ddv", "", true},
		{"house", `{"nines":true}`, true},
		{"ddv", forty, false},
	}
	for _, c := range cases {
		var r Rules
		if err := json.Unmarshal(gamestest.MustRules(t, Engine{}, c.preset, c.options), &r); err != nil {
			t.Fatal(err)
		}
		if r.Nines != c.want {
			t.Errorf("%s %s: nines %t, want %t", c.preset, c.options, r.Nines, c.want)
		}
	}
	// A rule set stored before the option existed plays with 40 cards.
	old := `{"preset":"ddv","valuation":"ddv","bock_triggers":"each"}`
	_, err := Engine{}.Score(scoreHand(four, old, json.RawMessage(`{"game":"normal","re":{"players":[1,3],"augen":5}}`)))
	gamestest.WantViolation(t, err, "facts.re.augen")
}

// TestMinAugen pins the deck model: the fewest Augen t tricks hold, and what
// Doppelköpfe, Füchse and the Karlchen add, counted by hand from the cards
// (8 each of Neun 0, Bube 2, Dame 3, König 4, Zehn 10, Ass 11).
func TestMinAugen(t *testing.T) {
	nines, forty := deck{nines: true}, deck{nines: false}
	cases := []struct {
		name   string
		d      deck
		t      int
		c      content
		want   int
		wantOK bool
	}{
		{"48: one trick of four nines", nines, 1, content{}, 0, true},
		{"48: two tricks of four nines", nines, 2, content{}, 0, true},
		{"48: three tricks: 8 nines + 4 Buben", nines, 3, content{}, 8, true},
		{"48: eleven tricks leave the top trick, four Asse", nines, 11, content{}, 196, true},
		{"48: all 12 tricks", nines, 12, content{}, 240, true},
		{"40: one trick of four Buben", forty, 1, content{}, 8, true},
		{"40: nine tricks leave four Asse", forty, 9, content{}, 196, true},
		{"48: a Doppelkopf: four Zehnen", nines, 1, content{doppelkopf: 1}, 40, true},
		{"48: 2 Doppelköpfe: eight Zehnen", nines, 2, content{doppelkopf: 2}, 80, true},
		{"48: 3 Doppelköpfe: 8 Zehnen + 4 Asse = 124", nines, 3, content{doppelkopf: 3}, 124, true},
		{"48: 4 Doppelköpfe: every Ass and Zehn = 168", nines, 4, content{doppelkopf: 4}, 168, true},
		{"48: 3 Doppelköpfe need 3 tricks", nines, 2, content{doppelkopf: 3}, 0, false},
		{"48: a Fuchs: Karo-Ass + Bube + 2 nines = 13", nines, 1, content{fuchs: 1}, 13, true},
		{"48: 2 Füchse in one trick: 11 + 11 + 2 + 0 = 24", nines, 1, content{fuchs: 2}, 24, true},
		{"48: the Karlchen: Kreuz-Bube + 3 nines = 2", nines, 1, content{karlchen: true}, 2, true},
		{"48: Fuchs and Karlchen in one trick: 11 + 2 + 0 + 0", nines, 1, content{fuchs: 1, karlchen: true}, 13, true},
		{"48: a Fuchs caught in a Doppelkopf: 11 + 10 + 10 + 10", nines, 1, content{doppelkopf: 1, fuchs: 1}, 41, true},
		{"48: Doppelkopf with 2 Füchse + Karlchen trick: 42 + 2", nines, 2, content{doppelkopf: 1, fuchs: 2, karlchen: true}, 44, true},
		{"48: Doppelkopf and Karlchen need 2 tricks", nines, 1, content{doppelkopf: 1, karlchen: true}, 0, false},
		{"40: cards not counted, tricks are", forty, 1, content{doppelkopf: 1}, 8, true},
		{"40: 2 Doppelköpfe need 2 tricks", forty, 1, content{doppelkopf: 2}, 0, false},
	}
	for _, c := range cases {
		got, ok := c.d.minAugen(c.t, c.c)
		if got != c.want || ok != c.wantOK {
			t.Errorf("%s: minAugen(%d, %+v) = %d, %t; want %d, %t", c.name, c.t, c.c, got, ok, c.want, c.wantOK)
		}
	}
}

// TestNinesBoundaries plays the 48-card deck at its boundaries. Each case is
// a normal game without announcements under ddv (nines), Re 1 and 3, and
// gives the value each winner gets.
func TestNinesBoundaries(t *testing.T) {
	cases := []struct {
		name    string
		facts   string
		winner  string
		value   int64
		schwarz bool
	}{
		// Kontra 0 Augen but one trick of four nines: Re wins 1 + keine 90,
		// 60, 30 = 4; Kontra took a trick, so no "schwarz".
		{"a trick of 0 Augen (four nines)", `"re":{"players":[1,3],"augen":240},"kontra":{"tricks":1}`, "re", 4, false},
		{"a trick of 0 Augen, said by took_trick", `"re":{"players":[1,3],"augen":240},"kontra":{"took_trick":true}`, "re", 4, false},
		// Kontra 0 Augen and no trick: 1 + 3 + schwarz = 5.
		{"0 Augen and no trick is schwarz", `"re":{"players":[1,3],"augen":240},"kontra":{"took_trick":false}`, "re", 5, true},
		{"0 Augen and 0 tricks is schwarz", `"re":{"players":[1,3],"augen":240,"tricks":12}`, "re", 5, true},
		// Kontra 3 Augen (a Dame and three nines): it took a trick; 1 + 3 = 4.
		{"3 Augen took a trick, not schwarz", `"re":{"players":[1,3],"augen":237}`, "re", 4, false},
		// Re 3 Augen: Kontra wins 1 + 3 + gegen die Kreuz-Damen = 5.
		{"Re with 3 Augen is not schwarz", `"re":{"players":[1,3],"augen":3}`, "kontra", 5, false},
		// keine 90 at the boundary: Kontra 90 stays at 1, Kontra 89 gives 2.
		{"Kontra 90: no keine 90", `"re":{"players":[1,3],"augen":150}`, "re", 1, false},
		{"Kontra 89: keine 90", `"re":{"players":[1,3],"augen":151}`, "re", 2, false},
		// Re said keine 90: Kontra wins with its 90th Auge (TSR 7.1.2 Nr. 7):
		// 1 + Re angesagt 2 + keine 90 angesagt 1 + gegen die Kreuz-Damen 1 = 5.
		{"keine 90 said, Kontra 90: Kontra wins", `"re":{"players":[1,3],"augen":150,"announced":"keine90"}`, "kontra", 5, false},
		// Kontra 89: Re wins 1 + keine 90 + Re angesagt 2 + keine 90 angesagt 1 = 5.
		{"keine 90 said, Kontra 89: Re wins", `"re":{"players":[1,3],"augen":151,"announced":"keine90"}`, "re", 5, false},
		// Re said schwarz and took every Auge, but Kontra took a trick of four
		// nines: Kontra wins with its first trick (TSR 7.1.2 Nr. 8): 1 + Re
		// angesagt 2 + four Absagen 4 + gegen die Kreuz-Damen 1 = 8.
		{"schwarz said, Kontra took four nines", `"re":{"players":[1,3],"augen":240,"announced":"schwarz"},"kontra":{"tricks":1}`, "kontra", 8, false},
		// Without that trick Re's schwarz holds: 1 + 3 + schwarz 1 + Re
		// angesagt 2 + four Absagen 4 = 11.
		{"schwarz said and made", `"re":{"players":[1,3],"augen":240,"announced":"schwarz"},"kontra":{"took_trick":false}`, "re", 11, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testHand{preset: "ddv", facts: `{"game":"normal",` + c.facts + `}`}.mustScore(t)
			v := c.value
			want := map[int64]int64{1: v, 3: v, 2: -v, 4: -v}
			winners := []int64{1, 3}
			if c.winner == "kontra" {
				want = map[int64]int64{1: -v, 3: -v, 2: v, 4: v}
				winners = []int64{2, 4}
			}
			gamestest.WantPoints(t, res, four, want)
			if !sameIDs(res.Winners, winners) {
				t.Errorf("winners %v, want %v", res.Winners, winners)
			}
			if c.schwarz {
				wantLine(t, res, "schwarz", "+", 1)
			} else {
				noLine(t, res, "schwarz")
			}
		})
	}
}

// TestNinesAugenAccepted: Augen 2..7 and 233..238 (a trick may hold fewer
// than 8 Augen) are accepted with 48 cards and refused with 40; 1 and 239
// no cards make (TestEveryAugenSplit).
func TestNinesAugenAccepted(t *testing.T) {
	var augen []int
	for a := 2; a <= 7; a++ {
		augen = append(augen, a, totalAugen-a)
	}
	for _, a := range augen {
		facts := fmt.Sprintf(`{"game":"normal","re":{"players":[1,3],"augen":%d}}`, a)
		testHand{preset: "ddv", facts: facts}.mustScore(t)
		testHand{preset: "house", options: `{"nines":true}`, facts: facts}.mustScore(t)
		for _, r := range []struct{ preset, options string }{{"house", ""}, {"ddv", forty}} {
			_, err := testHand{preset: r.preset, options: r.options, facts: facts}.score(t)
			gamestest.WantViolation(t, err, "facts.re.augen")
			wantDeckNamed(t, err, false)
		}
	}
}

// TestNinesRefusals: what the 48-card deck still refuses, each message
// naming the deck.
func TestNinesRefusals(t *testing.T) {
	cases := []struct {
		name, preset, options, facts, field string
	}{
		// With 0 Augen a party may or may not have taken a trick of nines.
		{"Re 0 Augen, trick not said", "ddv", "", `"re":{"players":[1,3],"augen":0}`, "facts.re.took_trick"},
		{"Kontra 0 Augen, trick not said", "ddv", "", `"re":{"players":[1,3],"augen":240}`, "facts.kontra.took_trick"},
		{"Augen but no trick", "ddv", "", `"re":{"players":[1,3],"augen":3,"took_trick":false}`, "facts.re.took_trick"},
		{"tricks and took_trick disagree", "ddv", "", `"re":{"players":[1,3],"augen":0,"tricks":1,"took_trick":false}`, "facts.re.took_trick"},
		// Eight nines make at most two tricks of 0 Augen.
		{"0 Augen in 3 tricks", "ddv", "", `"re":{"players":[1,3],"augen":0,"tricks":3}`, "facts.re.tricks"},
		// One trick holds at most four Asse, 44.
		{"45 Augen in 1 trick", "ddv", "", `"re":{"players":[1,3],"augen":45,"tricks":1}`, "facts.re.tricks"},
		// Re taking 11 tricks holds all but the top trick at the least, 196.
		{"Re's 11 tricks below 196", "ddv", "", `"re":{"players":[1,3],"augen":195},"kontra":{"tricks":1}`, "facts.kontra.tricks"},
		{"13 tricks", "ddv", "", `"re":{"players":[1,3],"augen":130,"tricks":13}`, "facts.re.tricks"},
		{"tricks not adding up", "ddv", "", `"re":{"players":[1,3],"augen":130,"tricks":6},"kontra":{"tricks":5}`, "facts.kontra.tricks"},
		{"negative tricks", "ddv", "", `"re":{"players":[1,3],"augen":130},"kontra":{"tricks":-1}`, "facts.kontra.tricks"},
		// Doppelköpfe: 3 need 8 Zehnen + 4 Asse = 124, 4 need 168.
		{"3 Doppelköpfe in 123 Augen", "ddv", "", `"re":{"players":[1,3],"augen":123,"doppelkopf":3}`, "facts.re.doppelkopf"},
		{"4 Doppelköpfe in 167 Augen", "ddv", "", `"re":{"players":[1,3],"augen":167,"doppelkopf":4}`, "facts.re.doppelkopf"},
		{"3 Doppelköpfe in 2 tricks", "ddv", "", `"re":{"players":[1,3],"augen":80,"tricks":2,"doppelkopf":3}`, "facts.re.doppelkopf"},
		{"a Doppelkopf in 39 Augen", "ddv", "", `"re":{"players":[1,3],"augen":39,"doppelkopf":1}`, "facts.re.doppelkopf"},
		// Kontra's Doppelkopf needs 40 of Kontra's Augen, so Re keeps 200.
		{"Kontra's Doppelkopf leaves Re 200", "ddv", "", `"re":{"players":[1,3],"augen":201},"kontra":{"doppelkopf":1}`, "facts.kontra.doppelkopf"},
		// A Fuchs: Karo-Ass 11 + a Bube that wins it 2 + two nines = 13.
		{"a Fuchs in 12 Augen", "ddv", "", `"re":{"players":[1,3],"augen":12,"fuchs_gefangen":1}`, "facts.re.fuchs_gefangen"},
		{"2 Füchse in 23 Augen", "ddv", "", `"re":{"players":[1,3],"augen":23,"fuchs_gefangen":2}`, "facts.re.fuchs_gefangen"},
		{"a Fuchs in a trick of nines", "ddv", "", `"re":{"players":[1,3],"augen":240},"kontra":{"tricks":1,"fuchs_gefangen":1}`, "facts.kontra.fuchs_gefangen"},
		{"a Fuchs in a Doppelkopf: 41", "ddv", "", `"re":{"players":[1,3],"augen":40,"doppelkopf":1,"fuchs_gefangen":1}`, "facts.re.doppelkopf"},
		// The Karlchen: the Kreuz-Bube, 2 Augen.
		{"Karlchen in 0 Augen", "ddv", "", `"re":{"players":[1,3],"augen":0,"tricks":1,"karlchen":true}`, "facts.re.karlchen"},
		{"Karlchen without a trick", "ddv", "", `"re":{"players":[1,3],"augen":240,"tricks":12},"kontra":{"karlchen":true}`, "facts.kontra.karlchen"},
		// With 40 cards the tricks count too, once given.
		{"40 cards: 11 tricks", "house", "", `"re":{"players":[1,3],"augen":130,"tricks":11}`, "facts.re.tricks"},
		{"40 cards: 45 Augen in 1 trick", "house", "", `"re":{"players":[1,3],"augen":45,"tricks":1}`, "facts.re.tricks"},
		{"40 cards: 0 Augen in 1 trick", "house", "", `"re":{"players":[1,3],"augen":0,"tricks":1}`, "facts.re.tricks"},
		{"40 cards: 2 Doppelköpfe in 1 trick", "house", "", `"re":{"players":[1,3],"augen":80,"tricks":1,"doppelkopf":2}`, "facts.re.tricks"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := testHand{preset: c.preset, options: c.options, facts: `{"game":"normal",` + c.facts + `}`}.score(t)
			gamestest.WantViolation(t, err, c.field)
			wantDeckNamed(t, err, c.preset == "ddv")
		})
	}
}

// TestNinesAccepted: the same limits, met exactly.
func TestNinesAccepted(t *testing.T) {
	cases := []string{
		`"re":{"players":[1,3],"augen":0,"took_trick":true}`,
		`"re":{"players":[1,3],"augen":0,"tricks":2}`,
		`"re":{"players":[1,3],"augen":0,"took_trick":false}`,
		`"re":{"players":[1,3],"augen":44,"tricks":1}`,
		`"re":{"players":[1,3],"augen":196},"kontra":{"tricks":1}`,
		`"re":{"players":[1,3],"augen":130,"tricks":6},"kontra":{"tricks":6,"took_trick":true}`,
		`"re":{"players":[1,3],"augen":124,"doppelkopf":3}`,
		`"re":{"players":[1,3],"augen":168,"doppelkopf":4}`,
		`"re":{"players":[1,3],"augen":40,"doppelkopf":1,"tricks":1}`,
		`"re":{"players":[1,3],"augen":200},"kontra":{"doppelkopf":1}`,
		`"re":{"players":[1,3],"augen":13,"fuchs_gefangen":1}`,
		`"re":{"players":[1,3],"augen":24,"fuchs_gefangen":2,"karlchen":true}`,
		`"re":{"players":[1,3],"augen":41,"doppelkopf":1,"fuchs_gefangen":1}`,
		`"re":{"players":[1,3],"augen":2,"karlchen":true}`,
	}
	for _, facts := range cases {
		testHand{preset: "ddv", facts: `{"game":"normal",` + facts + `}`}.mustScore(t)
	}
	// With 40 cards the house rules' bounds stay: 4 Doppelköpfe in 160.
	testHand{facts: `{"game":"normal","re":{"players":[1,2],"augen":160,"doppelkopf":4}}`}.mustScore(t)
	_, err := testHand{preset: "ddv", facts: `{"game":"normal","re":{"players":[1,2],"augen":160,"doppelkopf":4}}`}.score(t)
	gamestest.WantViolation(t, err, "facts.re.doppelkopf")
}

// wantDeckNamed checks that a refusal names the deck it was judged by.
func wantDeckNamed(t *testing.T, err error, nines bool) {
	t.Helper()
	var v *score.Violation
	if !errors.As(err, &v) {
		return
	}
	want := "with 40 cards"
	if nines {
		want = "with 48 cards (nines)"
	}
	if !strings.HasPrefix(v.Rule, want) {
		t.Errorf("%s: %q does not name the deck (%q)", v.Field, v.Rule, want)
	}
}

// possibleAugen counts, by brute force over how many cards of each rank a
// party holds, which Augen each number of its tricks can hold: the cards
// of t tricks are any 4t cards of the pack.
func possibleAugen(d deck) map[[2]int]bool {
	out := map[[2]int]bool{}
	ranks := d.ranks()
	var walk func(i, cards, augen int)
	walk = func(i, cards, augen int) {
		if i == len(ranks) {
			if cards%cardsPerTrick == 0 {
				out[[2]int{cards / cardsPerTrick, augen}] = true
			}
			return
		}
		for n := 0; n <= copiesPerRank; n++ {
			walk(i+1, cards+n, augen+n*ranks[i])
		}
	}
	walk(0, 0, 0)
	return out
}

// TestEveryAugenSplit: for both decks, every Augen of Re from 0 to 240,
// with the tricks unsaid and with each number of tricks said, is accepted
// exactly when some cards of the pack make it: with 48 cards every split
// but 1/239 (the smallest card worth anything is a Bube, 2), with 40 every
// split but 1..7 and 233..239, and with the tricks said the gaps of each
// count (one trick never holds 38 or 39, eleven of twelve never 201).
func TestEveryAugenSplit(t *testing.T) {
	for _, c := range []struct {
		d               deck
		preset, options string
	}{{deck{nines: true}, "ddv", ""}, {deck{}, "house", ""}} {
		possible := possibleAugen(c.d)
		for a := 0; a <= totalAugen; a++ {
			any := false
			for n := 0; n <= c.d.tricks(); n++ {
				any = any || possible[[2]int{n, a}]
			}
			// With 0 Augen a party of the 48-card pack may have taken a
			// trick of nines: say that it took none.
			took := ""
			if c.d.nines && a == 0 {
				took = `,"took_trick":false`
			}
			if c.d.nines && a == totalAugen {
				took = `},"kontra":{"took_trick":false`
			}
			facts := fmt.Sprintf(`{"game":"normal","re":{"players":[1,3],"augen":%d%s}}`, a, took)
			_, err := testHand{preset: c.preset, options: c.options, facts: facts}.score(t)
			if want := any || c.d.nines && (a == 0 || a == totalAugen); (err == nil) != want {
				t.Errorf("%s, Re %d Augen: %v; want accepted %v", c.d.name(), a, err, want)
			}
			for n := 0; n <= c.d.tricks(); n++ {
				facts := fmt.Sprintf(`{"game":"normal","re":{"players":[1,3],"augen":%d,"tricks":%d}}`, a, n)
				_, err := testHand{preset: c.preset, options: c.options, facts: facts}.score(t)
				if want := possible[[2]int{n, a}]; (err == nil) != want {
					t.Errorf("%s, Re %d Augen in %d tricks: %v; want accepted %v", c.d.name(), a, n, err, want)
				}
			}
		}
	}
}
