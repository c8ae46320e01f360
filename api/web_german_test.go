package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestWebGermanRefusal: each game's most common mistake, saved, shows the
// server's German hint at the input it names – no field path, no player
// id, no English rule – and nothing is stored. A half-typed Doppelkopf
// hand (a solo tapped, its soloist chosen, no Augen yet) shows no problem
// at all, and the Augen pad takes no more than 240.
func TestWebGermanRefusal(t *testing.T) {
	e, b, srv := startWeb(t)
	var seating []int64
	for _, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
		seating = append(seating, int64(e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})["id"].(float64)))
	}
	probe := e.call("POST", "/v1/games/doppelkopf/score", e.admin, map[string]any{"player_ids": seating, "facts": map[string]any{"game": "normal", "re": map[string]any{"players": seating[:2], "augen": 5}}})
	if !strings.Contains(string(probe.body), `"hint"`) {
		t.Fatal("the server's problems carry no hint")
	}
	p := login(b, srv.URL, e.admin)
	cases := []struct {
		game, at string // at: the data-field the hint must stand at
		fill     func()
	}{
		{"doppelkopf", "facts.re.augen", func() {
			p.Tap("Anna", `document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[0]`)
			p.Tap("Bert", `document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[1]`)
			p.Tap("5", `document.querySelector('button[aria-label="Ziffer 5"]')`)
		}},
		{"klaberjass", "facts.card_points", func() {
			p.fill("Augen Anna/Clara", "92")
			// One side's Augen typed, the other's not yet: nothing judged.
			settle(p)
			var marked int
			p.Eval(`document.querySelectorAll('.has-problem').length`, &marked)
			if marked != 0 {
				t.Errorf("klaberjass: with one side's Augen typed %d inputs are marked, want none yet", marked)
			}
			p.fill("Augen Bert/Dora", "100")
		}},
		{"schwarze_dame", "facts.players", func() {
			for i, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
				p.fill("Stiche "+n, []string{"4", "3", "5", "3"}[i])
				p.fill("Strafpunkte "+n, []string{"20", "40", "50", "20"}[i])
			}
		}},
		{"schwarze_sau", "facts.players", func() {
			for i, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
				p.fill("Augen "+n, []string{"52", "40", "28", "10"}[i])
				p.fill("Stiche "+n, []string{"4", "3", "3", "0"}[i])
			}
		}},
		{"saukopf", "facts.augen", func() {
			p.choose("Mitspieler", "Clara")
			p.fill("Reizwert", "70")
			p.fill("Augen der Spieler-Partei", "130")
			p.fill("Stiche der Spieler-Partei", "5")
		}},
	}
	for i, c := range cases {
		tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": fmt.Sprintf("Tisch %d", i), "game": c.game, "stake_cents_per_point": "1"})
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%v/sessions", tbl["id"]), e.admin, map[string]any{"player_ids": seating})
		p.Eval(fmt.Sprintf(`location.hash = '#/t/%v/neu'`, tbl["id"]), nil)
		p.WaitFor(c.game+"'s record screen", `document.querySelector('#save')`)
		if c.game == "doppelkopf" {
			halfway(t, p)
		}
		c.fill()
		p.Tap("Speichern", `document.querySelector('#save')`)
		p.WaitFor(c.game+"'s refusal", `document.querySelector('.has-problem .problem') || document.querySelector('#problem').textContent`)
		var shown struct {
			At    []string
			Texts []string
		}
		p.Eval(`({at: [...document.querySelectorAll('.has-problem')].map((el) => el.dataset.field),
			texts: [...document.querySelectorAll('.problem')].map((el) => el.textContent).filter(Boolean)})`, &shown)
		t.Logf("%s: at %v: %q", c.game, shown.At, shown.Texts)
		found := false
		for _, f := range shown.At {
			found = found || f == c.at || strings.HasPrefix(f, c.at+"[") || strings.HasPrefix(f, c.at+".")
		}
		if !found {
			t.Errorf("%s: the refusal stands at %v, want at %s (texts %q)", c.game, shown.At, c.at, shown.Texts)
		}
		for _, text := range shown.Texts {
			for _, bad := range []string{"facts.", "player", "got ", "must", "need ", "regular expression", "^"} {
				if strings.Contains(text, bad) {
					t.Errorf("%s: the refusal reads %q (contains %q)", c.game, text, bad)
				}
			}
		}
		if n := e.count("hands"); n != 0 {
			t.Errorf("%s: %d hands stored", c.game, n)
		}
		p.Tap("Abbrechen", `document.querySelector('#cancel')`)
		p.WaitFor("the list", `document.querySelector('#sheet')`)
	}
}

// halfway taps a Damensolo and its soloist without Augen: no problem is
// shown, however long the preview takes; the pad refuses a 250.
func halfway(t *testing.T, p *webPhone) {
	t.Helper()
	p.TapText(`fieldset[data-field="facts.game"]`, "Damensolo")
	p.Tap("the soloist", `document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[0]`)
	settle(p)
	var shown struct {
		Marked  int
		Preview string
	}
	p.Eval(`({marked: document.querySelectorAll('.has-problem').length, preview: document.querySelector('#preview').innerText})`, &shown)
	if shown.Marked != 0 || strings.Contains(shown.Preview, "got") {
		t.Errorf("half-typed: %d inputs marked, the preview says %q; want nothing judged yet", shown.Marked, shown.Preview)
	}
	for _, d := range "250" {
		p.Tap("digit", fmt.Sprintf(`document.querySelector('button[aria-label="Ziffer %c"]')`, d))
	}
	if got := p.Text("#augen"); !strings.Contains(got, "25") || strings.Contains(got, "250") {
		t.Errorf("after 2, 5, 0 the pad shows %q, want 25 (250 is more than the deck holds)", got)
	}
	p.Tap("Augen löschen", `document.querySelector('button[aria-label="Augen löschen"]')`)
	p.TapText(`fieldset[data-field="facts.game"]`, "Normalspiel")
	p.Tap("no soloist", `document.querySelector('fieldset[data-field="facts.re.players"] button[aria-pressed=true]')`)
	p.WaitFor("a Normalspiel without Re", `!document.querySelector('fieldset[data-field="facts.re.players"] button[aria-pressed=true]') && document.querySelector('#augen').textContent.includes('–')`)
	settle(p)
}

// TestWebAccessGerman: a wrong key and a truncated invitation link are
// refused in German, saying what to do – no English, no pattern.
func TestWebAccessGerman(t *testing.T) {
	_, b, srv := startWeb(t)
	p := &webPhone{Page: b.NewPage(), url: srv.URL}
	p.SlowPhone()
	p.Open(srv.URL + "/")
	p.TypeInto("the key field", `document.querySelector('input[type=password]')`, "sb_falsch")
	p.TapText("", "Anmelden")
	p.WaitFor("the refusal", `document.querySelector('form .problem')?.textContent`)
	login := p.Text("form .problem")
	p.Open(srv.URL + "/?join=abc")
	p.WaitFor("the refused invitation", `document.querySelector('h1')?.textContent === 'Einladung' && document.querySelector('.problem')?.textContent`)
	join := p.Text(".problem")
	t.Logf("wrong key: %q; truncated link: %q", login, join)
	for _, text := range []string{login, join} {
		for _, bad := range []string{"API key", "missing", "join code", "not found", "regular expression", "^", "string"} {
			if strings.Contains(text, bad) {
				t.Errorf("the refusal reads %q (contains %q)", text, bad)
			}
		}
	}
}
