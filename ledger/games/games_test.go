package games

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestPreviewOfNewTables: every game previews a new table, with and
// without a session, as a complete state with a summary that names no
// player by id.
func TestPreviewOfNewTables(t *testing.T) {
	for _, name := range Names() {
		e, _ := Lookup(name)
		rules := gamestest.MustRules(t, e, "", "")
		for _, h := range []score.Hand{
			{Rules: rules, State: json.RawMessage(`{}`)},
			{Rules: rules, Seated: []int64{11, 12, 13, 14}, Session: 7, Date: score.Date{Year: 2026, Month: 3, Day: 12}},
		} {
			raw, err := e.Preview(h)
			if err != nil {
				t.Errorf("%s: Preview(%v): %v", name, h.Seated, err)
				continue
			}
			gamestest.CompleteState(t, raw, "summary")
			var st struct {
				Summary string `json:"summary"`
			}
			if err := json.Unmarshal(raw, &st); err != nil || st.Summary == "" {
				t.Errorf("%s: preview %s has no summary", name, raw)
			}
			text := strings.NewReplacer("{{player:11}}", "", "{{player:12}}", "", "{{player:13}}", "", "{{player:14}}", "").Replace(st.Summary)
			for _, english := range []string{"{{", "player", "dealer", "next", "left", "queued", "session", "round"} {
				if strings.Contains(strings.ToLower(text), english) {
					t.Errorf("%s: summary %q: %q is no reference to a seated player or no German", name, st.Summary, english)
				}
			}
		}
	}
}

// TestResultListsAreArrays: every engine's result, for a hand where
// nothing beyond points happens, writes lines, events and winners as
// JSON arrays, never null (Klaberjass left its events nil).
func TestResultListsAreArrays(t *testing.T) {
	seated := []int64{1, 2, 3, 4}
	hands := map[string]string{
		"doppelkopf":    gamestest.Seat(gamestest.BockEvening[0], seated...),
		"saukopf":       `{"variant":"vierer","players":[1,2,3,4],"dealer":1,"bid":61,"spieler":2,"contract":"keiler","trump_suit":"eichel","augen":95,"tricks":6,"laufende":{"holder":2,"count":5}}`,
		"schwarze_sau":  gamestest.Seat(gamestest.SchwarzeSauMarch9[2], seated...),
		"klaberjass":    gamestest.Seat(gamestest.KlaberjassHand(4, true, false), seated...),
		"schwarze_dame": `{"dealer":1,"players":[{"player":1,"tricks":4,"hearts":[2,5,13]},{"player":2,"tricks":3,"hearts":[14],"pik_dame":true},{"player":3,"tricks":5,"hearts":[3,4,6,7,8,9,10]},{"player":4,"tricks":1,"hearts":[11,12]}]}`,
	}
	for _, name := range Names() {
		facts, ok := hands[name]
		if !ok {
			t.Errorf("%s: no hand in this test: add one", name)
			continue
		}
		e, _ := Lookup(name)
		res := gamestest.MustScore(t, e, score.Hand{Seated: seated, Session: 1, Date: score.Date{Year: 2026, Month: 3, Day: 12},
			Rules: gamestest.MustRules(t, e, "", ""), Facts: json.RawMessage(facts)})
		raw, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var lists map[string]json.RawMessage
		if err := json.Unmarshal(raw, &lists); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"lines", "events", "winners"} {
			if v := lists[key]; len(v) == 0 || v[0] != '[' {
				t.Errorf("%s: %s is %s, want an array", name, key, v)
			}
		}
	}
	raw, _ := json.Marshal(score.Result{})
	if !strings.Contains(string(raw), `"events":[]`) || !strings.Contains(string(raw), `"lines":[]`) || !strings.Contains(string(raw), `"winners":[]`) {
		t.Errorf("an empty result: %s, want its lists as []", raw)
	}
}
