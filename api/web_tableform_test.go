package api_test

import (
	"fmt"
	"testing"
)

// TestWebTableFormStake: the admin's table form takes the stake as a
// German types it – "0,5", "0.5", "½", "1/2", "½ Cent" – and stores the
// contract's exact "1/2"; it chooses the rule set (DDV with nines), a
// Königssolo where the catalogue offers it, and Klaberjass's match-loss
// payout.
func TestWebTableFormStake(t *testing.T) {
	e, b, srv := startWeb(t)
	p := login(b, srv.URL, e.admin)
	create := func(name, game, stake string, more func()) map[string]any {
		t.Helper()
		p.Eval(`location.hash = '#/'`, nil)
		p.WaitFor("the new table's form", `[...document.querySelectorAll('button')].some((b) => b.textContent === 'Tisch anlegen')`)
		p.fill("Name", name)
		if game != "" {
			p.choose("Spiel", game)
		}
		p.WaitFor("the rule set from the catalogue", `[...document.querySelectorAll('label')].some((l) => l.textContent.trim() === 'Regeln' || l.textContent.trim() === 'Cent je verlorene Partie')`)
		if more != nil {
			more()
		}
		p.fill("Cent je Punkt", stake)
		p.TapText("", "Tisch anlegen")
		p.WaitFor("the table", fmt.Sprintf(`document.querySelector('h1')?.textContent.startsWith(%q)`, name))
		for _, tbl := range e.must(200, "GET", "/v1/tables?limit=200", e.admin, nil)["tables"].([]any) {
			if tbl := tbl.(map[string]any); tbl["name"] == name {
				return tbl
			}
		}
		t.Fatalf("no table %q stored", name)
		return nil
	}
	for i, typed := range []string{"0,5", "0.5", "½", "1/2", "½ Cent"} {
		if got := create(fmt.Sprintf("Tisch %d", i), "", typed, nil)["stake_cents_per_point"]; got != "1/2" {
			t.Errorf("stake typed %q stored as %v, want 1/2", typed, got)
		}
	}
	if got := create("Komma", "", "1,25", nil)["stake_cents_per_point"]; got != "5/4" {
		t.Errorf("stake typed 1,25 stored as %v, want 5/4", got)
	}

	koenigssolo := false
	ddv := create("Turnier", "Doppelkopf", "1", func() {
		p.choose("Regeln", "DDV-Turnierregeln")
		p.WaitFor("the DDV's line", `[...document.querySelectorAll('.help')].some((x) => x.textContent.includes('DDV'))`)
		p.Eval(`!!document.querySelector('input[data-option="koenigssolo"]')`, &koenigssolo)
	})
	if ddv["preset"] != "ddv" {
		t.Errorf("rule set stored %v, want ddv", ddv["preset"])
	}
	house := create("Haus", "Doppelkopf", "1", func() {
		p.Tap("mit Neunen", `document.querySelector('input[data-option="nines"]')`)
		if koenigssolo {
			p.Tap("Königssolo", `document.querySelector('input[data-option="koenigssolo"]')`)
		}
	})
	opts, _ := house["options"].(map[string]any)
	if opts["nines"] != true {
		t.Errorf("house table's options %v, want nines", opts)
	}
	if !koenigssolo {
		t.Error("the catalogue offers no koenigssolo option")
	} else if opts["koenigssolo"] != true {
		t.Errorf("house table's options %v, want koenigssolo", opts)
	} else {
		// The table's record screen offers the Königssolo.
		var seating []any
		for _, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
			seating = append(seating, e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})["id"])
		}
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%v/sessions", house["id"]), e.admin, map[string]any{"player_ids": seating})
		p.Eval(fmt.Sprintf(`location.hash = '#/t/%v/neu'`, house["id"]), nil)
		p.TapText(`fieldset[data-field="facts.game"]`, "Königssolo")
		p.WaitFor("one soloist to tap", `document.querySelector('fieldset[data-field="facts.re.players"] legend')?.textContent.includes('Solo')`)
	}
	jass := create("Jass", "Klaberjass", "1", func() { p.fill("Cent je verlorene Partie", "50") })
	if jass["match_loss_cents"] != float64(50) {
		t.Errorf("Klaberjass's match loss stored %v, want 50 cents", jass["match_loss_cents"])
	}
}
