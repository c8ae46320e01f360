package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// asked reports whether the page asked a question containing text since
// it had asked `before` questions.
func (p *webPhone) asked(before int, text string) bool {
	for _, d := range p.Dialogs()[before:] {
		if strings.Contains(d, text) {
			return true
		}
	}
	return false
}

// TestWebDraftSurvives: a half-entered hand survives a reload; Back asks
// before leaving and keeps the draft for the next "Neues Spiel"; Abbrechen
// asks and throws it away.
func TestWebDraftSurvives(t *testing.T) {
	e, b, srv := startWeb(t)
	table, _ := dokoEvening(e)
	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	p.Tap("Neues Spiel", `document.querySelector('#new-hand')`)
	p.WaitFor("the record screen", `document.querySelector('#save')`)
	p.Tap("Anna", `document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[0]`)
	p.Tap("Clara", `document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[2]`)
	for _, d := range "123" {
		p.Tap("digit", fmt.Sprintf(`document.querySelector('button[aria-label="Ziffer %c"]')`, d))
	}
	entered := `document.querySelector('#augen')?.textContent.includes('123') && [...document.querySelectorAll('fieldset[data-field="facts.re.players"] button[aria-pressed=true]')].map((b) => b.textContent).join() === 'Anna,Clara'`
	p.WaitFor("the entry", entered)

	p.Reload()
	p.WaitFor("the entry after a reload", entered)

	asked := len(p.Dialogs())
	p.Eval(`history.back()`, nil)
	p.WaitFor("the list", `document.querySelector('#sheet')`)
	if !p.asked(asked, "noch nicht gespeichert") {
		t.Errorf("Back left the half-entered hand without asking (dialogs %q)", p.Dialogs())
	}
	p.Tap("Neues Spiel", `document.querySelector('#new-hand')`)
	p.WaitFor("the draft again", entered)

	asked = len(p.Dialogs())
	p.Tap("Abbrechen", `document.querySelector('#cancel')`)
	p.WaitFor("the list", `document.querySelector('#sheet')`)
	if !p.asked(asked, "verwerfen") {
		t.Errorf("Abbrechen threw the entry away without asking (dialogs %q)", p.Dialogs())
	}
	p.Tap("Neues Spiel", `document.querySelector('#new-hand')`)
	p.WaitFor("an empty form", `document.querySelector('#augen')?.textContent.includes('–') && !document.querySelector('fieldset[data-field="facts.re.players"] button[aria-pressed=true]')`)
	if n := e.count("hands"); n != 0 {
		t.Errorf("%d hands stored", n)
	}
}

// TestWebUndoConfirmed: zurücknehmen asks first; the hand taken back can
// be restored while it is the evening's last, and counts again.
func TestWebUndoConfirmed(t *testing.T) {
	e, b, srv := startWeb(t)
	table, session := dokoEvening(e)
	recordHands(e, table, session, 150, 130)
	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	p.WaitFor("the list", `document.querySelectorAll('#sheet tr[data-hand]').length === 2`)
	asked := len(p.Dialogs())
	p.Tap("zurücknehmen", `document.querySelector('#sheet button.undo')`)
	p.WaitFor("hand 2 void", `document.querySelector('#sheet tr[data-hand="2"]')?.classList.contains('void')`)
	if !p.asked(asked, "zurücknehmen?") {
		t.Errorf("zurücknehmen acted without asking (dialogs %q)", p.Dialogs())
	}
	p.Tap("wiederherstellen", `document.querySelector('#redo')`)
	p.WaitFor("hand 2 back", `document.querySelector('#sheet tr[data-hand="2"]') && !document.querySelector('#sheet tr[data-hand="2"]').classList.contains('void') && !document.querySelector('#redo')`)
	h2 := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d/hands/2", table), e.admin, nil)
	if h2["void"] == true || h2["facts"].(map[string]any)["re"].(map[string]any)["augen"] != float64(130) {
		t.Errorf("hand 2 after the redo: void %v, facts %v; want it counting with its 130 Augen", h2["void"], h2["facts"])
	}
}
