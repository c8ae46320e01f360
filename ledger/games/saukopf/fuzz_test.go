package saukopf

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// validSeeds are accepted hands covering every contract and variant.
var validSeeds = []string{
	exampleA,
	exampleB,
	solo(`"bid":61,"contract":"mastschwein"`, 0, 0, ""),
	solo(`"bid":61,"contract":"sauerei","called_sau":"gras","unrein":true,"huftritte":2,"hauer":2`, 50, 3, `{"holder":2,"count":1}`),
	solo(`"bid":61,"contract":"ferkelparade","am_spiess":true`, 30, 2, `{"holder":1,"count":6}`),
	solo(`"bid":61,"contract":"knorpel","knorpel_card":"gras_ober","knorpel_holder":3`, 61, 3, ""),
	solo(`"bid":61,"contract":"schwarte"`, 120, 8, ""),
	keiler(`"schwarz"`, 120, 8, `{"holder":1,"count":2}`),
	sauerei("75", 74, 4, `{"holder":1,"count":1}`, `"stallgeruch":true,"huftritte":1`),
	threeHand(`"trog":"mit"`, "61", 55, 5, `{"holder":1,"count":3}`),
	threeHand(`"trog":"ohne","open_augen":10`, "61", 50, 4, `{"holder":2,"count":1}`),
	wild(`"laufende":{"holder":2,"count":2},"saukopf":{"trumped_by":1,"herz_sau_of":4}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"),
	wild(`"laufende":{"holder":2,"count":3}`, "1:40/3", "2:40/3", "3:10/1", "4:30/1"),
}

// FuzzScore: no input panics, every accepted hand lists each of its
// players once and sums to exactly zero, every refusal is a Violation.
func FuzzScore(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Add([]byte(`{"variant":"vierer","bid":"schwarz"}`), false)
	f.Add([]byte(`null`), true)
	schuessel := gamestest.MustRules(f, Engine{}, "", "")
	einzeln := gamestest.MustRules(f, Engine{}, "", `{"verlorenes_solo":"jeder_einzeln"}`)
	f.Fuzz(func(t *testing.T, facts []byte, jeder bool) {
		rules := schuessel
		if jeder {
			rules = einzeln
		}
		res, err := Engine{}.Score(score.Hand{Seated: seated, Rules: rules, Facts: facts})
		if err != nil {
			var v *score.Violation
			if !errors.As(err, &v) {
				t.Fatalf("refusal %v is %T, want *score.Violation", err, err)
			}
			return
		}
		var sum score.Points
		for _, pp := range res.Points {
			sum = sum.Add(pp.Points)
		}
		if !sum.IsZero() {
			t.Fatalf("points %v sum to %s for %s", res.Points, sum, facts)
		}
		if n := len(res.Points); n != 3 && n != 4 {
			t.Fatalf("points for %d players", n)
		}
		if res.Title == "" || strings.HasSuffix(res.Title, ".") {
			t.Fatalf("title %q for %s, want one without trailing period", res.Title, facts)
		}
		if !json.Valid(res.State) {
			t.Fatalf("state %s is not JSON", res.State)
		}
	})
}

func BenchmarkScore(b *testing.B) {
	hand := score.Hand{Seated: seated, Rules: gamestest.MustRules(b, Engine{}, "", ""), Facts: json.RawMessage(exampleA)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Engine{}).Score(hand); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOpenAPIExample scores the example of SaukopfFacts in openapi.yaml:
// worked example A.
func TestOpenAPIExample(t *testing.T) {
	data, err := os.ReadFile("../../../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, schema, _ := strings.Cut(string(data), "    SaukopfFacts:")
	var example string
	for _, ln := range strings.Split(schema, "\n") {
		if s, ok := strings.CutPrefix(strings.TrimSpace(ln), "example: "); ok {
			example = s
			break
		}
	}
	if example == "" {
		t.Fatal("no SaukopfFacts example in openapi.yaml")
	}
	res := mustScore(t, example, "")
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "12", 2: "-12", 3: "12", 4: "-12"})
}

// TestZeroSumSweep scores a grid of Vierer and Dreihaxer hands over every
// contract, bid, Augen and tricks: every accepted hand sums to zero, and
// the grid is not refused wholesale.
func TestZeroSumSweep(t *testing.T) {
	contracts := []string{
		`"contract":"mastschwein"`, `"contract":"eber","am_spiess":true`, `"contract":"wutz"`,
		`"contract":"ferkelparade"`, `"contract":"keiler","trump_suit":"herz"`, `"contract":"schwarte"`,
		`"contract":"knorpel","knorpel_card":"eichel_ober","knorpel_holder":2`,
		`"contract":"sauerei","called_sau":"gras","unrein":true,"hauer":1`,
	}
	bids := []string{"61", "70", "75", "100", "120", `"schwarz"`}
	hands := map[string]string{
		"vierer":    `"variant":"vierer","players":[1,2,3,4],"dealer":4`,
		"mit Trog":  `"variant":"dreihaxer","players":[1,2,3],"dealer":3,"trog":"mit"`,
		"ohne Trog": `"variant":"dreihaxer","players":[1,2,3],"dealer":3,"trog":"ohne","open_augen":21`,
	}
	rules := []json.RawMessage{gamestest.MustRules(t, Engine{}, "", ""), gamestest.MustRules(t, Engine{}, "", `{"verlorenes_solo":"jeder_einzeln"}`)}
	accepted, n := 0, 0
	for _, table := range hands {
		for _, c := range contracts {
			for _, bid := range bids {
				for _, augen := range []int{0, 20, 30, 50, 60, 61, 70, 90, 98, 99, 110, 120} {
					for _, tricks := range []int{0, 1, 2, 5, 7, 8, 10, 11} {
						for _, lauf := range []string{`,"laufende":{"holder":1,"count":3}`, `,"laufende":{"holder":2,"count":2}`} {
							facts := fmt.Sprintf(`{%s,"bid":%s,"spieler":1,%s,"augen":%d,"tricks":%d,"huftritte":1%s}`, table, bid, c, augen, tricks, lauf)
							n++
							res, err := Engine{}.Score(score.Hand{Seated: seated, Rules: rules[n%2], Facts: json.RawMessage(facts)})
							if err != nil {
								continue
							}
							accepted++
							var sum score.Points
							for _, pp := range res.Points {
								sum = sum.Add(pp.Points)
							}
							if !sum.IsZero() {
								t.Fatalf("%s sums to %s", facts, sum)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d of %d hands accepted", accepted, n)
	if accepted < 500 {
		t.Errorf("only %d hands of the grid accepted", accepted)
	}
}
