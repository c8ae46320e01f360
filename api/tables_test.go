package api_test

import (
	"fmt"
	"testing"
)

// TestATableChangesFromItsNextEvening: a club raises its stake and turns
// Bock off in the middle of an evening. The open evening keeps its terms
// and its hands their rules; the next evening plays under the new ones
// with the Bock queue the table carried; the feed says what changed.
func TestATableChangesFromItsNextEvening(t *testing.T) {
	e := newEnv(t)
	p := e.players("Anna", "Bernd", "Clara", "Dieter")
	table, first := e.doppelkopfEvening("Donnerstag", "2026-11-19", 2, p)
	path := fmt.Sprintf("/v1/tables/%d", table)
	tbl := e.must(200, "PATCH", path, e.admin, map[string]any{"stake_cents_per_point": "2", "options": map[string]any{"bock": false}})
	if tbl["stake_cents_per_point"] != "2" || tbl["rules"].(map[string]any)["bock"] != false {
		t.Fatalf("the table after the PATCH: stake %v, rules %v", tbl["stake_cents_per_point"], tbl["rules"])
	}
	sess := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d", first), e.admin, nil)
	terms := sess["terms"].(map[string]any)
	if terms["stake_cents_per_point"] != "1/2" || terms["rules"].(map[string]any)["bock"] != true {
		t.Errorf("the open evening's terms changed: %v", terms)
	}
	// Hand 3 of the open evening is still played with Bock at half a cent.
	e.must(201, "POST", path+"/hands", e.admin, map[string]any{"session_id": first, "number": 3,
		"facts": map[string]any{"game": "normal", "re": map[string]any{"players": []int64{p[0], p[2]}, "augen": 120}}})
	if h := e.must(200, "GET", path+"/hands/3", e.admin, nil); h["rules"].(map[string]any)["bock"] != true {
		t.Errorf("hand 3 was played under %v", h["rules"])
	}
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", first), e.admin, nil)
	st := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", first), e.admin, nil)
	if st["stake_cents_per_point"] != "1/2" {
		t.Errorf("the first evening settled at %v cents a point", st["stake_cents_per_point"])
	}
	second := e.must(201, "POST", path+"/sessions", e.admin, map[string]any{"date": "2026-11-26", "player_ids": p})
	if terms := second["terms"].(map[string]any); terms["stake_cents_per_point"] != "2" || terms["rules"].(map[string]any)["bock"] != false {
		t.Errorf("the next evening's terms: %v", terms)
	}

	other := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Freitag", "game": "doppelkopf"})
	if res := e.call("PATCH", path, e.admin, map[string]any{"name": "Freitag"}); res.status != 409 || res.json(t)["existing_id"] != other["id"] {
		t.Errorf("a taken name: %d %s", res.status, res.body)
	}
	if res := e.call("PATCH", path, e.admin, map[string]any{"options": map[string]any{"bock": "ja"}}); res.status != 422 {
		t.Errorf("an option of the wrong type: %d %s", res.status, res.body)
	}
	var changed []any
	for _, c := range e.must(200, "GET", "/v1/changes", e.admin, nil)["changes"].([]any) {
		if c := c.(map[string]any); c["kind"] == "table_updated" {
			changed = append(changed, c["data"].(map[string]any)["changed"])
		}
	}
	if fmt.Sprint(changed) != "[[options stake_cents_per_point]]" {
		t.Errorf("the feed's table changes: %v", changed)
	}
}
