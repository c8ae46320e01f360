package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestWebOfflineRound: a phone at a Doppelkopf table of five goes offline
// for three hands. Each hand's form names the dealer and presses the four
// players the server sent ahead (next_hand.ahead; one of the five sits out
// in turn), so the real four can be chosen. Back online the first is
// stored; the second, refused (Augen no deck allows), opens in the form
// with the server's German hint at the Augen, is fixed and sent again; the
// third waited behind it. All three are stored once, with the dealers and
// players the server sent ahead, and the list never shows two rows with
// one number.
func TestWebOfflineRound(t *testing.T) {
	e, b, srv := startWeb(t)
	names := map[int64]string{}
	var seating []int64
	for _, n := range []string{"Anna", "Bert", "Clara", "Dora", "Emil"} {
		id := int64(e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})["id"].(float64))
		seating = append(seating, id)
		names[id] = n
	}
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Fünfer", "game": "doppelkopf", "stake_cents_per_point": "5"})
	table := int64(tbl["id"].(float64))
	e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", table), e.admin, map[string]any{"player_ids": seating})
	next, _ := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d", table), e.admin, nil)["next_hand"].(map[string]any)
	raw, ok := next["ahead"].([]any)
	if !ok || len(raw) < 3 {
		t.Fatal("the server sends no next_hand.ahead for three hands")
	}
	type seats struct {
		Dealer  int64
		Players []int64
	}
	var ahead []seats
	for _, a := range raw[:3] {
		a := a.(map[string]any)
		s := seats{Dealer: int64(a["dealer_id"].(float64))}
		for _, id := range a["player_ids"].([]any) {
			s.Players = append(s.Players, int64(id.(float64)))
		}
		ahead = append(ahead, s)
	}

	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	p.WaitFor("the live list", `document.querySelector('[data-live="on"]') && document.querySelector('#sheet')`)
	p.Offline(true)
	p.WaitFor("offline", `!navigator.onLine`)
	for k, augen := range []string{"150", "5", "130"} {
		p.doko("", []int{0, 1}, augen, func() {
			if got := p.Text("form .next"); !strings.HasPrefix(got, names[ahead[k].Dealer]+" gibt") {
				t.Errorf("offline hand %d: the form says %q, want %s dealing", k+1, got, names[ahead[k].Dealer])
			}
			var pressed []int64
			p.Eval(`[...document.querySelectorAll('fieldset[data-field="facts.players"] button[aria-pressed=true]')].map((b) => Number(b.dataset.player))`, &pressed)
			if fmt.Sprint(pressed) != fmt.Sprint(ahead[k].Players) {
				t.Errorf("offline hand %d: the four pressed %v, the server sent %v ahead", k+1, pressed, ahead[k].Players)
			}
		})
	}
	if n := e.count("hands"); n != 0 {
		t.Fatalf("%d hands stored while offline", n)
	}
	p.Screenshot("offline-round.png")

	p.Offline(false)
	p.WaitFor("the first stored, the second refused, the third waiting", `document.querySelectorAll('#sheet tr[data-hand]').length === 1 && document.querySelectorAll('#sheet tr.refused').length === 1 && document.querySelectorAll('#sheet tr.pending').length === 1`)
	p.Tap("ändern", `document.querySelector('#sheet tr.refused button.fix')`)
	p.WaitFor("the hint at the Augen", `document.querySelector('fieldset.has-problem[data-field="facts.re.augen"] .problem')`)
	hint := p.Text(`fieldset[data-field="facts.re.augen"] .problem`)
	p.shotAt(`fieldset[data-field="facts.re.augen"]`, "german-refusal.png")
	for _, bad := range []string{"facts.", "player", "got", "must", "^"} {
		if strings.Contains(hint, bad) {
			t.Errorf("the refusal reads %q (contains %q), want the server's German hint", hint, bad)
		}
	}
	p.Tap("Augen löschen", `document.querySelector('button[aria-label="Augen löschen"]')`)
	for _, d := range "100" {
		p.Tap("digit", fmt.Sprintf(`document.querySelector('button[aria-label="Ziffer %c"]')`, d))
	}
	p.Tap("Speichern", `document.querySelector('#save')`)
	p.WaitFor("all three stored", `document.querySelectorAll('#sheet tr[data-hand]').length === 3 && !document.querySelector('#sheet tr.pending, #sheet tr.refused')`)
	var numbers []int
	p.Eval(`[...document.querySelectorAll('#sheet tbody tr')].map((tr) => Number(tr.dataset.no))`, &numbers)
	if fmt.Sprint(numbers) != "[1 2 3]" {
		t.Errorf("the list's numbers %v, want [1 2 3]", numbers)
	}
	if n := e.count("hands"); n != 3 {
		t.Fatalf("%d hands stored, want 3", n)
	}
	hands := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d/hands", table), e.admin, nil)["hands"].([]any)
	for i, h := range hands {
		h := h.(map[string]any)
		var played []int64
		for _, id := range h["player_ids"].([]any) {
			played = append(played, int64(id.(float64)))
		}
		if int64(h["dealer_id"].(float64)) != ahead[i].Dealer || !slices.Equal(played, ahead[i].Players) {
			t.Errorf("hand %d: dealt by %v, played by %v; the server sent %d and %v ahead", i+1, h["dealer_id"], played, ahead[i].Dealer, ahead[i].Players)
		}
	}
	if augen := hands[1].(map[string]any)["facts"].(map[string]any)["re"].(map[string]any)["augen"]; augen != float64(100) {
		t.Errorf("the fixed hand has %v Augen, want 100", augen)
	}
}
