package doppelkopf

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// fuzzSeeds are valid hands of every game type.
var fuzzSeeds = []string{
	`{"game":"normal","re":{"players":[1,3],"augen":187,"announced":"keine90","fuchs_gefangen":1},"kontra":{"doppelkopf":1}}`,
	`{"game":"normal","re":{"players":[1,2],"augen":109,"announced":"re","karlchen":true},"kontra":{"announced":"kontra"}}`,
	`{"game":"normal","re":{"players":[1,3],"augen":120,"announced":"keine90","fuchs_gefangen":2},"kontra":{"announced":"keine90","karlchen":true}}`,
	`{"game":"normal","verworfen_by":1,"re":{"players":[1,3],"augen":130,"announced":"re"}}`,
	`{"game":"damensolo","verworfen_by":2,"re":{"players":[1],"augen":100}}`,
	`{"game":"farbsolo","suit":"herz","re":{"players":[4],"augen":190,"announced":"keine90"},"kontra":{"announced":"kontra"}}`,
	`{"game":"farbsolo","suit":"karo","schweinchen":1,"herzstich":true,"re":{"players":[1],"augen":0}}`,
	`{"game":"hochzeit","re":{"players":[1],"augen":130}}`,
	`{"game":"armut","re":{"players":[2,3],"augen":240,"doppelkopf":4},"kontra":{"took_trick":false}}`,
	`{"game":"koehler","re":{"players":[2],"augen":8,"announced":"schwarz"},"kontra":{"announced":"keine30"}}`,
	`{"game":"schmeissen","dealer":2}`,
	`{"game":"armut_nicht_genommen","players":[1,2,3,4]}`,
	`{"game":"normal","players":[5,1,2,3],"dealer":4,"re":{"players":[5,1],"augen":130}}`,
	`{"game":"normal","re":{"players":[1,3],"augen":240,"announced":"schwarz"},"kontra":{"tricks":1,"announced":"keine90"}}`,
	`{"game":"normal","re":{"players":[1,3],"augen":3,"tricks":1,"karlchen":true},"kontra":{"doppelkopf":4,"fuchs_gefangen":2}}`,
	`{"game":"normal","re":{"players":[1,3],"augen":0,"took_trick":true},"kontra":{"took_trick":true}}`,
}

// fuzzRules are the rule sets each fuzzed hand is scored under.
var fuzzRules = []struct{ preset, options string }{
	{"house", ""},
	{"ddv", ""},
	{"house", `{"nines":true}`},
	{"ddv", `{"nines":false}`},
	{"house", `{"sonderpunkte_in_solo":true,"bock_triggers":"one","revoker_pays_alone":false}`},
	{"ddv", `{"bock":true,"armut":true,"schmeissen":true,"schweinchen":true,"gegen_die_alten_in_solo":true,"solo_verloren":true,"sonderpunkte_in_solo":true}`},
}

// FuzzScore checks that no facts make the engine panic, that every accepted
// hand sums to exactly zero over the seated players, and that every refused
// hand is a *score.Violation.
func FuzzScore(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	rules := make([]json.RawMessage, len(fuzzRules))
	for i, r := range fuzzRules {
		rules[i] = gamestest.MustRules(f, Engine{}, r.preset, r.options)
	}
	tables := [][]int64{four, {1, 2, 3, 4, 5}}
	state := json.RawMessage(`{"session":1,"next_dealer":4,"bock_games_left":1,"bock_rounds_queued":1,"solos":{"1":1}}`)
	f.Fuzz(func(t *testing.T, facts []byte) {
		for _, r := range rules {
			for _, seated := range tables {
				h := score.Hand{Seated: seated, Session: 1, Rules: r, State: state, Facts: facts}
				checkFuzzHand(t, h)
			}
		}
	})
}

func checkFuzzHand(t *testing.T, h score.Hand) {
	res, err := Engine{}.Score(h)
	if err != nil {
		var v *score.Violation
		if !errors.As(err, &v) {
			t.Fatalf("refused with %T %v, want *score.Violation", err, err)
		}
		return
	}
	if len(res.Points) != len(h.Seated) {
		t.Fatalf("%d points for %d seated", len(res.Points), len(h.Seated))
	}
	var sum score.Points
	for i, pp := range res.Points {
		if pp.Player != h.Seated[i] {
			t.Fatalf("points out of seating order: %+v", res.Points)
		}
		sum = sum.Add(pp.Points)
	}
	if !sum.IsZero() {
		t.Fatalf("hand %s sums to %s", h.Facts, sum)
	}
	var st State
	if err := json.Unmarshal(res.State, &st); err != nil || st.Summary == "" {
		t.Fatalf("state %s unreadable or without summary: %v", res.State, err)
	}
	if res.Title == "" || strings.HasSuffix(res.Title, ".") {
		t.Fatalf("hand %s has title %q, want a title without trailing period", h.Facts, res.Title)
	}
	again, err := Engine{}.Score(h)
	if err != nil || string(again.State) != string(res.State) || again.Title != res.Title {
		t.Fatalf("scoring twice differs: %v", err)
	}
}

func BenchmarkScore(b *testing.B) {
	h := score.Hand{
		Seated:  four,
		Session: 1,
		Rules:   gamestest.MustRules(b, Engine{}, "house", ""),
		State:   json.RawMessage(`{"session":1,"next_dealer":2,"bock_games_left":3,"bock_rounds_queued":1,"solos":{"3":1}}`),
		Facts:   json.RawMessage(fuzzSeeds[0]),
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Engine{}).Score(h); err != nil {
			b.Fatal(err)
		}
	}
}

// openAPIExample is the example of DoppelkopfFacts in openapi.yaml.
const openAPIExample = `{"game": "normal", "re": {"players": [1, 3], "augen": 187, "announced": "keine90", "fuchs_gefangen": 1}, "kontra": {"announced": "none", "doppelkopf": 1}, "herzstich": false}`

func TestOpenAPIExample(t *testing.T) {
	data, err := os.ReadFile("../../../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "example: "+openAPIExample) {
		t.Fatalf("openapi.yaml's Facts example is not %s", openAPIExample)
	}
	res := testHand{facts: openAPIExample}.mustScore(t)
	// 4, x2 (Re angesagt), +1 Fuchs -1 Doppelkopf = 8
	gamestest.WantPoints(t, res, four, map[int64]int64{1: 8, 3: 8, 2: -8, 4: -8})
}
