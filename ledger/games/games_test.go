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
