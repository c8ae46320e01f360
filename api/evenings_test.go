package api_test

import (
	"fmt"
	"slices"
	"testing"
)

// TestHandsPerEveningCorrectedAndLastSeating: hands are numbered per
// evening for the list (session_number from 1 each evening, the ledger's
// number running on), a corrected hand says so, an evening opened and
// closed with nothing played is not listed, and the table offers the last
// evening's seating for the next.
func TestHandsPerEveningCorrectedAndLastSeating(t *testing.T) {
	g := newGameTable(t, "doppelkopf", "", 5)
	const hand = `{"game":"normal","re":{"players":[P2,P3],"augen":150}}`
	if _, ok := g.table()["last_seating_ids"]; ok {
		t.Errorf("a table without a hand has a last_seating_ids")
	}
	g.open("2026-03-12", 1, 2, 3, 4)
	g.record(`{"game":"normal","re":{"players":[P2,P3],"augen":150}}`)
	g.record(`{"game":"normal","re":{"players":[P1,P3],"augen":150}}`)
	first := g.session
	g.close()
	g.open("2026-03-19", 5, 4, 3, 2)
	empty := g.session
	g.close()
	g.open("2026-03-26", 5, 3, 2, 1)
	g.record(hand)
	h := g.hand(3)
	if h["number"] != 3.0 || h["session_number"] != 1.0 || h["corrected"] != false {
		t.Errorf("the evening's first hand: number %v, session_number %v, corrected %v; want 3, 1, false", h["number"], h["session_number"], h["corrected"])
	}
	if h := g.hand(2); h["session_number"] != 2.0 {
		t.Errorf("the first evening's second hand has session_number %v", h["session_number"])
	}
	g.correct(3, "1", map[string]any{"facts": g.facts(`{"game":"normal","re":{"players":[P2,P3],"augen":110}}`), "reason": "Augen vertauscht"}, 201)
	list := g.e.must(200, "GET", g.handsPath(), g.e.admin, nil)["hands"].([]any)
	var got []string
	for _, x := range list {
		h := x.(map[string]any)
		got = append(got, fmt.Sprintf("%v/%v/%v", h["number"], h["session_number"], h["corrected"]))
	}
	if want := []string{"1/1/false", "2/2/false", "3/1/true"}; !slices.Equal(got, want) {
		t.Errorf("hands number/session_number/corrected %v, want %v", got, want)
	}
	sessions := g.e.must(200, "GET", fmt.Sprintf("/v1/tables/%d/sessions", g.id), g.e.admin, nil)["sessions"].([]any)
	var listed []float64
	for _, s := range sessions {
		listed = append(listed, s.(map[string]any)["id"].(float64))
	}
	if slices.Contains(listed, float64(empty)) || !slices.Contains(listed, float64(first)) || !slices.Contains(listed, float64(g.session)) {
		t.Errorf("sessions listed %v; want %d and %d, not the empty evening %d", listed, first, g.session, empty)
	}
	g.e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d", empty), g.e.admin, nil)
	if got, want := ids(g.table()["last_seating_ids"]), g.seats(5, 3, 2, 1); !slices.Equal(got, want) {
		t.Errorf("last_seating_ids %v, want the last evening's %v", got, want)
	}
}
