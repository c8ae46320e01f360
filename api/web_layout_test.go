package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestWebListLayout: the evening's list of five at 390 and 360 px wide, with
// a corrected hand, a hand taken back and the invitation's link open: the
// page never scrolls sideways, no control or name is clipped (each box
// lies within its cell and shows its whole text), the Stand row's totals
// share one font and line, and no "null" reaches the screen.
func TestWebListLayout(t *testing.T) {
	e, b, srv := startWeb(t)
	var seating []int64
	for _, n := range []string{"Bernadette", "Dieter", "Clara", "Dora", "Emil"} {
		seating = append(seating, int64(e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})["id"].(float64)))
	}
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Montagsrunde", "game": "doppelkopf", "stake_cents_per_point": "5"})
	table := int64(tbl["id"].(float64))
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", table), e.admin, map[string]any{"player_ids": seating})
	session := int64(s["id"].(float64))
	for n := 1; n <= 6; n++ {
		next := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d", table), e.admin, nil)["next_hand"].(map[string]any)["next_players"].([]any)
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", table), e.admin, map[string]any{"session_id": session, "number": n,
			"facts": map[string]any{"game": "normal", "re": map[string]any{"players": next[:2], "augen": 100 + 10*n, "announced": "re"}}})
	}
	h1, _ := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d/hands/1", table), e.admin, nil)["facts"].(map[string]any)
	h1["re"].(map[string]any)["augen"] = 200
	res := e.call("GET", fmt.Sprintf("/v1/tables/%d/hands/1", table), e.admin, nil)
	e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands/1/corrections", table), e.admin, map[string]any{"facts": h1, "reason": "Re hatte 200"}, "If-Match", res.header.Get("ETag"))
	e.must(200, "POST", fmt.Sprintf("/v1/tables/%d/hands/6/undo", table), e.admin, nil)

	p := login(b, srv.URL, e.admin)
	for _, width := range []int{390, 360} {
		p.Viewport(width, 844, 1, true)
		p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
		p.Eval(`location.reload()`, nil)
		p.WaitFor("the list", `document.querySelectorAll('#sheet tr[data-hand]').length === 6 && document.querySelector('#sheet button.undo')`)
		p.Tap("Handy einladen", `document.querySelector('#invite')`)
		p.WaitFor("the link", `document.querySelector('#join-link')`)
		if width == 390 {
			p.Screenshot("list-390.png")
		}
		var got struct {
			Page, Width float64
			Clipped     []string
			Fonts       []string
			Tops        []float64
			Text        string
		}
		p.Eval(`(() => {
			const within = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
			const clipped = [];
			for (const el of document.querySelectorAll('#view button, #view a, #view input, #view select, #sheet td small, #sheet th')) {
				const cell = el.closest('td, th') || el.parentElement;
				const r = el.getBoundingClientRect();
				if (!r.width) continue;
				const name = (el.textContent || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 30);
				if (cell !== el && !within(r, cell.getBoundingClientRect())) clipped.push('outside its cell: ' + name);
				if (el.scrollWidth > el.clientWidth + 1) clipped.push('text cut: ' + name);
				if (!el.closest('#sheet') && r.right > innerWidth + 1) clipped.push('beyond the screen: ' + name);
			}
			const totals = [...document.querySelectorAll('#sheet tfoot td[data-total]')];
			return {page: document.documentElement.scrollWidth, width: innerWidth, clipped,
				fonts: totals.map((td) => getComputedStyle(td).fontSize), tops: totals.map((td) => td.getBoundingClientRect().top),
				text: document.body.innerText};
		})()`, &got)
		if got.Page > float64(width) || got.Width > float64(width) {
			t.Errorf("%d px: the page is %.0f px wide (viewport %.0f): it scrolls sideways", width, got.Page, got.Width)
		}
		for _, c := range got.Clipped {
			t.Errorf("%d px: %s", width, c)
		}
		for i := range got.Fonts {
			if got.Fonts[i] != got.Fonts[0] || got.Tops[i] != got.Tops[0] {
				t.Errorf("%d px: the Stand row's totals in fonts %v at tops %v, want one font on one line", width, got.Fonts, got.Tops)
				break
			}
		}
		if strings.Contains(got.Text, "null") || strings.Contains(got.Text, "undefined") {
			t.Errorf("%d px: the page shows null or undefined:\n%s", width, got.Text)
		}
	}
}
