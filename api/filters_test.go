package api_test

import (
	"fmt"
	"reflect"
	"testing"
)

// TestListFiltersFilter: the filters the README promises for the lists
// that no other test narrows by: a table's hands by session_id (a session
// of another table or of none is 404, never the table's every hand), and a
// table's sessions by from, to and open. (The club's sessions, transfers,
// the Spielliste and the statistics have their filters tested beside
// them: TestSessionsAreListedAndLinked, TestOpenDebtsAreFoundByPlayerAndDate,
// TestTournamentEveningThroughTheAPI, TestTheLeaderboardRanksOneGame.)
func TestListFiltersFilter(t *testing.T) {
	e := newEnv(t)
	players := e.players("Anna", "Bernd", "Clara", "Dieter")
	table, first := e.doppelkopfEvening("Stammtisch", "2026-11-19", 3, players)
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", first), e.admin, nil)
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", table), e.admin, map[string]any{"date": "2026-11-26", "player_ids": players})
	second := int64(s["id"].(float64))
	for i := range 2 {
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", table), e.admin,
			map[string]any{"session_id": second, "number": 4 + i, "facts": doppelkopfFacts(i, players)})
	}
	_, elsewhere := e.doppelkopfEvening("Nebentisch", "2026-11-26", 1, players)

	list := func(path, items, key string) []float64 {
		t.Helper()
		var out []float64
		for _, it := range e.must(200, "GET", path, e.admin, nil)[items].([]any) {
			out = append(out, it.(map[string]any)[key].(float64))
		}
		return out
	}
	hands := fmt.Sprintf("/v1/tables/%d/hands", table)
	sessions := fmt.Sprintf("/v1/tables/%d/sessions", table)
	for _, c := range []struct {
		path, items, key string
		want             []float64
	}{
		{hands, "hands", "number", []float64{1, 2, 3, 4, 5}},
		{hands + fmt.Sprintf("?session_id=%d", first), "hands", "number", []float64{1, 2, 3}},
		{hands + fmt.Sprintf("?session_id=%d", second), "hands", "number", []float64{4, 5}},
		{hands + fmt.Sprintf("?session_id=%d&after=4", second), "hands", "number", []float64{5}},
		{sessions + "?open=true", "sessions", "id", []float64{float64(second)}},
		{sessions + "?open=false", "sessions", "id", []float64{float64(first)}},
		{sessions + "?from=2026-11-20", "sessions", "id", []float64{float64(second)}},
		{sessions + "?to=2026-11-19", "sessions", "id", []float64{float64(first)}},
	} {
		if got := list(c.path, c.items, c.key); !reflect.DeepEqual(got, c.want) {
			t.Errorf("GET %s: %v, want %v", c.path, got, c.want)
		}
	}
	for _, session := range []int64{elsewhere, 999999} {
		path := hands + fmt.Sprintf("?session_id=%d", session)
		if res := e.call("GET", path, e.admin, nil); res.status != 404 {
			t.Errorf("GET %s (not a session of the table): %d %s, want 404", path, res.status, res.body)
		}
	}
}
