package api_test

import (
	"fmt"
	"slices"
	"testing"
)

// TestAGuestPlaysButIsNotRanked: a player added as a guest plays and is
// scored like anyone, and the leaderboard leaves him out until he is
// marked a member.
func TestAGuestPlaysButIsNotRanked(t *testing.T) {
	g := newGameTable(t, "doppelkopf", "", 4)
	guest := g.e.must(201, "POST", "/v1/players", g.e.admin, map[string]any{"name": "Gast Frieda", "guest": true})
	if guest["guest"] != true {
		t.Fatalf("added as a guest: %v", guest)
	}
	id := int64(guest["id"].(float64))
	g.players = append(g.players, id)
	seats := []int64{g.p(1), g.p(2), g.p(3), id}
	s := g.e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", g.id), g.e.admin, map[string]any{"date": "2026-03-12", "player_ids": seats})
	g.e.must(201, "POST", g.handsPath(), g.e.admin, map[string]any{"session_id": s["id"], "number": 1,
		"facts": map[string]any{"game": "normal", "re": map[string]any{"players": []int64{g.p(1), id}, "augen": 150}}})
	ranked := func() []int64 {
		var out []int64
		for _, x := range g.e.must(200, "GET", "/v1/stats/leaderboard?game=doppelkopf&min_hands=0", g.e.admin, nil)["entries"].([]any) {
			out = append(out, int64(x.(map[string]any)["player_id"].(float64)))
		}
		return out
	}
	if r := ranked(); slices.Contains(r, id) || !slices.Contains(r, g.p(1)) {
		t.Errorf("leaderboard %v: want the members, not the guest %d", r, id)
	}
	if p := g.e.must(200, "PATCH", fmt.Sprintf("/v1/players/%d", id), g.e.admin, map[string]any{"guest": false}); p["guest"] != false {
		t.Errorf("marked a member: %v", p)
	}
	if r := ranked(); !slices.Contains(r, id) {
		t.Errorf("leaderboard %v: the new member %d is not ranked", r, id)
	}
}
