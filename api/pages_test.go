package api_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// walk follows a list's Link headers from path with limit=2 and returns
// every item of every page, by its key. A full page must link the next and
// name it in next_after; a page that is not full links nothing.
func (e *env) walk(path, items, key string) []any {
	e.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	next := path + sep + "limit=2"
	var seen []any
	for pages := 0; next != ""; pages++ {
		if pages > 50 {
			e.t.Fatalf("%s: more than 50 pages", path)
		}
		res := e.call("GET", next, e.admin, nil)
		if res.status != 200 {
			e.t.Fatalf("GET %s: %d %s", next, res.status, res.body)
		}
		body := res.json(e.t)
		page, ok := body[items].([]any)
		if !ok {
			e.t.Fatalf("GET %s: %q is no array: %s", next, items, res.body)
		}
		for _, it := range page {
			seen = append(seen, it.(map[string]any)[key])
		}
		link := res.header.Get("Link")
		next = strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`)
		if len(page) == 2 && (link == "" || next == link) {
			e.t.Fatalf("GET %s: a full page without a Link: %q", next, link)
		}
		if len(page) < 2 && link != "" {
			e.t.Fatalf("GET %s: a page of %d links %q", next, len(page), link)
		}
		if len(page) == 2 && items != "changes" && !strings.Contains(next, fmt.Sprintf("after=%v", body["next_after"])) {
			e.t.Errorf("GET %s: Link %q does not name next_after %v", next, link, body["next_after"])
		}
	}
	return seen
}

// all reads a list in one page of up to 200 items.
func (e *env) all(path, items, key string) []any {
	e.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var out []any
	for _, it := range e.must(200, "GET", path+sep+"limit=200", e.admin, nil)[items].([]any) {
		out = append(out, it.(map[string]any)[key])
	}
	return out
}

// TestEveryListIsWalkedThroughItsLinks: each list, read two items a page
// through its Link headers, gives every item exactly once, in the order of
// the whole list.
func TestEveryListIsWalkedThroughItsLinks(t *testing.T) {
	e := newEnv(t)
	players := e.players("Erika", "Anna", "Dieter", "Bernd", "Clara")
	tableID, sessionID := e.doppelkopfEvening("Zweiter Tisch", "2026-11-19", 5, players[:4])
	_, other := e.doppelkopfEvening("Dritter Tisch", "2026-11-20", 3, players[1:])
	for _, id := range []int64{sessionID, other} {
		e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", id), e.admin, nil)
	}
	for _, date := range []string{"2026-11-26", "2026-12-03"} {
		s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", tableID), e.admin, map[string]any{"date": date, "player_ids": players[1:]})
		// An evening is listed once a hand was played in it.
		n := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d", tableID), e.admin, nil)["hands"].(float64)
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", tableID), e.admin, map[string]any{"session_id": s["id"], "number": n + 1,
			"facts": map[string]any{"game": "normal", "re": map[string]any{"players": players[1:3], "augen": 150}}})
		e.must(200, "POST", fmt.Sprintf("/v1/sessions/%v/close", s["id"]), e.admin, nil)
	}
	for _, name := range []string{"Mittwoch", "Erster Tisch"} {
		e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": name, "game": "saukopf"})
	}
	for i := range 3 {
		e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader", "label": fmt.Sprintf("Tablet %d", i)})
		e.must(201, "POST", "/v1/kitty/bookings", e.admin, map[string]any{"cents": 500 * (i + 1), "note": "Grillabend"})
	}
	var ddv []int64
	for i := range 2 {
		tb := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": fmt.Sprintf("Turniertisch %d", i), "game": "doppelkopf",
			"preset": "ddv", "options": map[string]any{"turnier": true}})
		ddv = append(ddv, int64(tb["id"].(float64)))
	}
	for i := range 3 {
		e.must(201, "POST", "/v1/tournaments", e.admin, map[string]any{"name": fmt.Sprintf("Turnier %d", i), "date": "2026-11-19",
			"hands_per_round": 6, "table_ids": ddv})
	}

	lists := []struct{ path, items, key string }{
		{"/v1/players", "players", "name"},
		{"/v1/tables", "tables", "name"},
		{"/v1/keys", "keys", "id"},
		{"/v1/tournaments", "tournaments", "id"},
		{"/v1/kitty/bookings", "bookings", "id"},
		{"/v1/transfers", "transfers", "id"},
		{fmt.Sprintf("/v1/tables/%d/hands", tableID), "hands", "number"},
		{fmt.Sprintf("/v1/tables/%d/sessions", tableID), "sessions", "id"},
		{"/v1/sessions", "sessions", "id"},
		{"/v1/changes", "changes", "seq"},
	}
	for _, l := range lists {
		whole := e.all(l.path, l.items, l.key)
		if len(whole) < 3 {
			t.Errorf("%s: %d items, the test wants at least 3 for pages of 2", l.path, len(whole))
			continue
		}
		if got := e.walk(l.path, l.items, l.key); !reflect.DeepEqual(got, whole) {
			t.Errorf("%s: walking the links gave %v, want %v", l.path, got, whole)
		}
	}
	names := e.walk("/v1/players", "players", "name")
	if want := []any{"Anna", "Bernd", "Clara", "Dieter", "Erika"}; !reflect.DeepEqual(names, want) {
		t.Errorf("players by name: %v, want %v", names, want)
	}
	tournaments := e.walk("/v1/tournaments", "tournaments", "id")
	if tournaments[0].(float64) < tournaments[len(tournaments)-1].(float64) {
		t.Errorf("tournaments are not newest first: %v", tournaments)
	}
}
