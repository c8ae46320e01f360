package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// TestChangesNameReferencesWithID: the change feed stores its data as it
// was first written (references named "seating", "tournament", "booking",
// "tables[].table"), and the API sends it with every reference named _id:
// a change stored before the rename reads like one stored after it.
func TestChangesNameReferencesWithID(t *testing.T) {
	ta := newTurnierAPI(t)
	e := ta.e
	if res := ta.open("ABCD", "EFGH"); res.status != 201 {
		t.Fatalf("opening a round: %d %s", res.status, res.body)
	}
	booking := e.must(201, "POST", "/v1/kitty/bookings", e.admin, map[string]any{"cents": 500, "note": "Spende"})

	// What the database holds keeps the names it was written with.
	stored := map[string]map[string]any{}
	rows, err := e.pool.Query(context.Background(), `SELECT kind, data FROM changes ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var kind string
		var data []byte
		if err := rows.Scan(&kind, &data); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		stored[kind] = m
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for kind, key := range map[string]string{"session_opened": "seating", "tournament_created": "tournament", "tournament_round_opened": "tables", "kitty_booking": "booking"} {
		if _, ok := stored[kind][key]; !ok {
			t.Errorf("the stored %s change has no %q: %v", kind, key, stored[kind])
		}
	}
	if table := stored["tournament_round_opened"]["tables"].([]any)[0].(map[string]any); table["table"] == nil || table["session"] == nil {
		t.Errorf("the stored round names its tables %v", table)
	}

	// What the API sends names them _id.
	got := map[string]map[string]any{}
	for _, c := range e.must(200, "GET", "/v1/changes", e.admin, nil)["changes"].([]any) {
		c := c.(map[string]any)
		got[c["kind"].(string)] = c["data"].(map[string]any)
	}
	for kind, keys := range map[string][]string{
		"session_opened":          {"date", "player_ids", "tournament_id", "round"},
		"tournament_created":      {"tournament_id", "name", "date", "hands_per_round"},
		"tournament_round_opened": {"tournament_id", "round", "tables"},
		"kitty_booking":           {"booking_id", "cents"},
	} {
		var have []string
		for k := range got[kind] {
			have = append(have, k)
		}
		slices.Sort(have)
		slices.Sort(keys)
		if !slices.Equal(have, keys) {
			t.Errorf("%s sends %v, want %v", kind, have, keys)
		}
	}
	if got["tournament_created"]["tournament_id"] != float64(ta.id) || got["kitty_booking"]["booking_id"] != booking["id"] {
		t.Errorf("the references are not the ids: %v, %v", got["tournament_created"], got["kitty_booking"])
	}
	seats := fmt.Sprint(ta.seats("EFGH"))
	if ids := fmt.Sprint(got["session_opened"]["player_ids"]); ids != fmt.Sprint(toAny(ta.seats("EFGH"))) {
		t.Errorf("the last session opened seats %s, want %s", ids, seats)
	}
	for i, rt := range got["tournament_round_opened"]["tables"].([]any) {
		rt := rt.(map[string]any)
		if len(rt) != 2 || rt["table_id"] != float64(ta.tables[i]) || rt["session_id"] != float64(ta.sess[i]) {
			t.Errorf("the round's table %d is sent as %v", i, rt)
		}
	}
}

// TestProblemsNameReferencesWithID: a problem's members that reference
// another resource end in _id as the answers' do.
func TestProblemsNameReferencesWithID(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	p := e.must(409, "POST", fmt.Sprintf("/v1/tables/%d/sessions", ev.table), e.admin, map[string]any{"player_ids": ev.players})
	if p["open_session_id"] != float64(ev.session) || p["open_session"] != nil {
		t.Errorf("a second session: %v, want open_session_id %d", p, ev.session)
	}
	e.must(200, "PATCH", fmt.Sprintf("/v1/players/%d", ev.players[3]), e.admin, map[string]any{"retired": true})
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", ev.session), e.admin, nil)
	p = e.must(422, "POST", fmt.Sprintf("/v1/tables/%d/sessions", ev.table), e.admin, map[string]any{"player_ids": ev.players})
	if fmt.Sprint(p["retired_player_ids"]) != fmt.Sprint(toAny(ev.players[3:])) || p["field"] != "player_ids" || p["retired"] != nil {
		t.Errorf("seating a retired player: %v", p)
	}
}

// toAny is ids as JSON decodes them.
func toAny(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = float64(id)
	}
	return out
}
