package ledger_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestCheckRulesTakesWhatATableCanHave: every rule set a table can be
// created with passes, whatever its preset and options.
func TestCheckRulesTakesWhatATableCanHave(t *testing.T) {
	for _, c := range []struct{ game, preset, options string }{
		{"doppelkopf", "house", `{}`},
		{"doppelkopf", "ddv", `{}`},
		{"doppelkopf", "ddv", `{"turnier": true}`},
		{"doppelkopf", "house", `{"bock_round_length": 5, "bock_triggers": "one", "nines": true}`},
		{"klaberjass", "", `{"orgi": true, "dealer_rule": "rotate"}`},
		{"saukopf", "", `{}`},
		{"schwarze_dame", "", `{"hands_per_match": 12}`},
		{"schwarze_sau", "", `{}`},
	} {
		rules, err := ledger.ResolveRules(c.game, c.preset, json.RawMessage(c.options))
		if err != nil {
			t.Fatalf("%s %s %s: %v", c.game, c.preset, c.options, err)
		}
		if err := ledger.CheckRules("rules", c.game, rules); err != nil {
			t.Errorf("%s %s %s: %v", c.game, c.preset, c.options, err)
		}
	}
	for _, game := range games.Names() {
		rules, err := ledger.ResolveRules(game, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := ledger.CheckRules("rules", game, rules); err != nil {
			t.Errorf("%s's default rules: %v", game, err)
		}
	}
}

// TestCheckRulesRefusesWhatNoTableCanHave: a rule set of another game, a
// member only a preset sets, a value out of range, a member missing or
// added, or no preset is refused, naming the member.
func TestCheckRulesRefusesWhatNoTableCanHave(t *testing.T) {
	ddv, err := ledger.ResolveRules("doppelkopf", "ddv", nil)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(fn func(map[string]any)) json.RawMessage {
		var m map[string]any
		if err := json.Unmarshal(ddv, &m); err != nil {
			t.Fatal(err)
		}
		fn(m)
		out, _ := json.Marshal(m)
		return out
	}
	for _, c := range []struct {
		name, game string
		rules      json.RawMessage
		field      string
	}{
		{"another game's rules", "klaberjass", ddv, "rules.preset"},
		{"the house valuation under ddv", "doppelkopf", edit(func(m map[string]any) { m["valuation"] = "house" }), "rules.valuation"},
		{"a Bock round of -1 hands", "doppelkopf", edit(func(m map[string]any) { m["bock_round_length"] = -1 }), "rules.bock_round_length"},
		{"a member missing", "doppelkopf", edit(func(m map[string]any) { delete(m, "armut") }), "rules"},
		{"a member added", "doppelkopf", edit(func(m map[string]any) { m["doppelbock"] = true }), "rules.doppelbock"},
		{"no preset", "doppelkopf", edit(func(m map[string]any) { delete(m, "preset") }), "rules.preset"},
		{"an unknown preset", "doppelkopf", edit(func(m map[string]any) { m["preset"] = "skat" }), "rules.preset"},
		{"not an object", "doppelkopf", json.RawMessage(`[1]`), "rules"},
	} {
		err := ledger.CheckRules("rules", c.game, c.rules)
		if e := ledger.AsError(err); ledger.ErrorCode(err) != ledger.EINVALID || e.Field != c.field {
			t.Errorf("%s: %v, want invalid %s", c.name, err, c.field)
		}
	}
}

// TestCheckTermsKeepsTheTablesLimits: an evening's stake, settle mode and
// match price are held to a table's limits, naming the same fields.
func TestCheckTermsKeepsTheTablesLimits(t *testing.T) {
	rules, err := ledger.ResolveRules("klaberjass", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	valid := ledger.Terms{Rules: rules, Stake: score.Frac(1, 2), SettleMode: ledger.SettleKitty, MatchLossCents: 100}
	if err := ledger.CheckTerms("klaberjass", valid); err != nil {
		t.Fatalf("valid terms: %v", err)
	}
	for _, c := range []struct {
		name  string
		edit  func(*ledger.Terms)
		field string
	}{
		{"a negative stake", func(tm *ledger.Terms) { tm.Stake = score.Int(-5) }, "stake_cents_per_point"},
		{"a stake of 1/1001 cent", func(tm *ledger.Terms) { tm.Stake = score.Frac(1, 1001) }, "stake_cents_per_point"},
		{"no settle mode", func(tm *ledger.Terms) { tm.SettleMode = "" }, "settle_mode"},
		{"a settle mode of its own", func(tm *ledger.Terms) { tm.SettleMode = "cash" }, "settle_mode"},
		{"a match price past the limit", func(tm *ledger.Terms) { tm.MatchLossCents = ledger.MaxMatchLossCents + 1 }, "match_loss_cents"},
		{"no rules", func(tm *ledger.Terms) { tm.Rules = nil }, "rules"},
	} {
		tm := valid
		c.edit(&tm)
		err := ledger.CheckTerms("klaberjass", tm)
		if e := ledger.AsError(err); ledger.ErrorCode(err) != ledger.EINVALID || e.Field != c.field || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v, want invalid %s", c.name, err, c.field)
		}
	}
}
