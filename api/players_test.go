package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestARenamedPlayerIsNamedEverywhere: a typo in a name is fixed with a
// PATCH; the hands' texts and the standings read the new name, a taken
// name is refused naming its holder, and the feed keeps the old one.
func TestARenamedPlayerIsNamedEverywhere(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))
	anna := fmt.Sprintf("/v1/players/%d", ev.players[0])
	if p := e.must(200, "PATCH", anna, e.admin, map[string]any{"name": "  Anne  "}); p["name"] != "Anne" {
		t.Errorf("renamed: %v", p)
	}
	h := e.must(200, "GET", ev.hands()+"/1", e.admin, nil)
	if title := h["result"].(map[string]any)["title"].(string); !strings.Contains(title, "Anne") || strings.Contains(title, "Anna") {
		t.Errorf("the hand's title after the rename: %q", title)
	}
	st := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/standings", ev.session), e.admin, nil)["standings"].([]any)
	if name := st[0].(map[string]any)["name"]; name != "Anne" {
		t.Errorf("the standings name %v", name)
	}
	res := e.call("PATCH", anna, e.admin, map[string]any{"name": "Bernd"})
	if res.status != 409 || res.json(t)["existing_id"] != float64(ev.players[1]) {
		t.Errorf("a taken name: %d %s", res.status, res.body)
	}
	if p := e.must(200, "PATCH", anna, e.admin, map[string]any{}); p["name"] != "Anne" {
		t.Errorf("an empty patch changed the player: %v", p)
	}
	changes := e.must(200, "GET", "/v1/changes", e.admin, nil)["changes"].([]any)
	var renames []map[string]any
	for _, c := range changes {
		if c := c.(map[string]any); c["kind"] == "player_updated" {
			renames = append(renames, c["data"].(map[string]any))
		}
	}
	if len(renames) != 1 || renames[0]["was"] != "Anna" || renames[0]["name"] != "Anne" {
		t.Errorf("the feed's renames: %v", renames)
	}
	if res := e.call("PATCH", "/v1/players/999999", e.admin, map[string]any{"name": "X"}); res.status != 404 {
		t.Errorf("an unknown player: %d", res.status)
	}
}

// TestARetiredPlayerIsSeatedNoMore: only an admin retires a player; he
// then cannot be seated at a new evening until he is brought back, and
// his history stays.
func TestARetiredPlayerIsSeatedNoMore(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", ev.session), e.admin, nil)
	dieter := fmt.Sprintf("/v1/players/%d", ev.players[3])
	scorer := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "scorer"})["secret"].(string)
	if res := e.call("PATCH", dieter, scorer, map[string]any{"retired": true}); res.status != 403 || res.json(t)["field"] != "retired" {
		t.Errorf("a scorer retiring a player: %d %s", res.status, res.body)
	}
	if p := e.must(200, "PATCH", dieter, e.admin, map[string]any{"retired": true}); p["retired"] != true {
		t.Errorf("retired: %v", p)
	}
	sessions := fmt.Sprintf("/v1/tables/%d/sessions", ev.table)
	res := e.call("POST", sessions, e.admin, map[string]any{"date": "2026-11-26", "player_ids": ev.players})
	if res.status != 422 || res.json(t)["field"] != "player_ids" {
		t.Errorf("seating a retired player: %d %s", res.status, res.body)
	}
	st := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/standings", ev.session), e.admin, nil)["standings"].([]any)
	if len(st) != 4 {
		t.Errorf("the retired player's evening lost its standings: %v", st)
	}
	e.must(200, "PATCH", dieter, e.admin, map[string]any{"retired": false})
	e.must(201, "POST", sessions, e.admin, map[string]any{"date": "2026-11-26", "player_ids": ev.players})
}
