package api_test

import (
	"strings"
	"testing"
)

// TestKoenigssoloAndTheFormsHelp: the house preset offers a Königssolo as
// an option, off by default; a table that switches it on records one, a
// table without it refuses one in German; the catalogue carries the
// option's German line and the help lines of the table's settings (the
// stake as "0,5", the Klaberjass match price).
func TestKoenigssoloAndTheFormsHelp(t *testing.T) {
	g := newGameTable(t, "doppelkopf", `{"koenigssolo":true}`, 4)
	g.open("2026-03-12", 1, 2, 3, 4)
	res := g.record(`{"game":"koenigssolo","re":{"players":[P3],"augen":150}}`)
	if got, want := points(res), g.want("P1:-1 P2:-1 P3:3 P4:-1"); got != want {
		t.Errorf("Königssolo won: %s, want %s", got, want)
	}
	plain := newGameTable(t, "doppelkopf", "", 4)
	plain.open("2026-03-12", 1, 2, 3, 4)
	plain.refuseWithHint(hintCase{"a Königssolo without the option", `{"game":"koenigssolo","re":{"players":[P3],"augen":150}}`, "facts.game", []string{"Königssolo"}})

	cat := g.e.must(200, "GET", "/v1/games", g.e.admin, nil)
	var found bool
	for _, x := range cat["games"].([]any) {
		game := x.(map[string]any)
		if game["name"] != "doppelkopf" {
			continue
		}
		for _, o := range game["options"].([]any) {
			opt := o.(map[string]any)
			if opt["name"] != "koenigssolo" {
				continue
			}
			found = true
			if d := opt["defaults"].(map[string]any); d["house"] != false || d["ddv"] != false {
				t.Errorf("koenigssolo defaults %v, want off in both presets", d)
			}
			if de, _ := opt["description_de"].(string); !strings.Contains(de, "Könige") {
				t.Errorf("koenigssolo's German line %q", de)
			}
		}
	}
	if !found {
		t.Errorf("the catalogue has no option koenigssolo")
	}
	help := map[string]string{}
	for _, x := range cat["table_fields"].([]any) {
		f := x.(map[string]any)
		help[f["name"].(string)] = f["description_de"].(string)
	}
	if !strings.Contains(help["stake_cents_per_point"], "0,5") || help["match_loss_cents"] == "" || help["preset"] == "" {
		t.Errorf("the table's help lines %v, want the stake as 0,5, the match price and the rule set explained", help)
	}
}
