package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/api/web"
)

// recordHands stores n Doppelkopf hands of the open session through the
// API (Re Anna and Bert with the given Augen).
func recordHands(e *env, table, session int64, augen ...int) {
	for i, a := range augen {
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", table), e.admin, map[string]any{"session_id": session, "number": i + 1,
			"facts": map[string]any{"game": "normal", "re": map[string]any{"players": []int{1, 2}, "augen": a}}})
	}
}

// shotAt leaves a PNG of the viewport with the element a selector finds
// in its middle in $STICHBUCH_ARTIFACTS, when set.
func (p *webPhone) shotAt(selector, name string) {
	p.T().Helper()
	p.Eval(fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: 'center'})`, selector), nil)
	data := p.Capture()
	if dir := os.Getenv("STICHBUCH_ARTIFACTS"); dir != "" {
		_ = os.MkdirAll(dir, 0o755)
		_ = os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
}

// settle lets the page's work in flight end: a stale answer that would
// repaint a screen the user has left arrives within it on the slow phone.
func settle(p *webPhone) { p.Eval(`new Promise((r) => setTimeout(r, 2500))`, nil) }

// TestWebLeftScreenStaysLeft: a screen the user has left is never
// repainted by work it started. Taking the last hand back and, before the
// answer, opening the correction of hand 1 and typing into it: the answer
// and the list's refresh after it land while the correction screen is
// shown, and the correction screen stays with what was typed (the race of
// issue 28, seen in CI under load).
func TestWebLeftScreenStaysLeft(t *testing.T) {
	e, b, srv := startWeb(t)
	table, session := dokoEvening(e)
	recordHands(e, table, session, 150, 130)
	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	p.WaitFor("the list", `document.querySelectorAll('#sheet tr[data-hand]').length === 2 && document.querySelector('[data-live="on"]')`)
	p.Tap("zurücknehmen", `document.querySelector('#sheet button.undo')`)
	p.Tap("korrigieren 1", `document.querySelector('a[aria-label="Spiel 1 korrigieren"]')`)
	p.WaitFor("the correction screen", `document.querySelector('h1')?.textContent.startsWith('Spiel 1 korrigieren') && document.querySelector('#augen')?.textContent.includes('150')`)
	p.Tap("Augen löschen", `document.querySelector('button[aria-label="Augen löschen"]')`)
	for _, d := range "100" {
		p.Tap("digit", fmt.Sprintf(`document.querySelector('button[aria-label="Ziffer %c"]')`, d))
	}
	p.WaitFor("100 typed", `document.querySelector('#augen').textContent.includes('100')`)
	settle(p)
	var shown struct{ H1, Augen string }
	p.Eval(`({h1: document.querySelector('h1')?.textContent || '', augen: document.querySelector('#augen')?.textContent || ''})`, &shown)
	if !strings.HasPrefix(shown.H1, "Spiel 1 korrigieren") || !strings.Contains(shown.Augen, "100") {
		t.Errorf("after the answers landed the page shows %q with Augen %q; want the correction screen with the 100 typed", shown.H1, shown.Augen)
	}
	if n := e.count("hands"); n != 2 {
		t.Errorf("%d hands stored, want 2", n)
	}
}

// TestWebShellListsEveryFile: the service worker's shell names every file
// of the app, so each lazily loaded screen and game opens offline.
func TestWebShellListsEveryFile(t *testing.T) {
	sw, _, ok := web.File("sw.js")
	if !ok {
		t.Fatal("the app has no sw.js")
	}
	for _, name := range web.Names() {
		want := "'/app/" + name + "'"
		switch name {
		case "sw.js":
			continue
		case "index.html":
			want = "'/'"
		case "manifest.webmanifest":
			want = "'/manifest.webmanifest'"
		}
		if !strings.Contains(string(sw), want) {
			t.Errorf("sw.js's shell leaves out %s (%s)", name, want)
		}
	}
}

// TestWebShowsTheServersSheet: the app shows the server's texts and
// figures and composes none of its own. The phone's fetch is wrapped so
// the server's answers carry texts and totals no rule of the app could
// make (a running total that is not the sum of the points, a title, a
// summary, a Bock mark on a hand without Bock, a standing); each shows on
// screen as sent.
func TestWebShowsTheServersSheet(t *testing.T) {
	e, b, srv := startWeb(t)
	table, session := dokoEvening(e)
	recordHands(e, table, session, 150, 130)
	page := b.NewPage()
	page.Call("Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": `(() => {
		const real = window.fetch.bind(window);
		window.fetch = async (input, init) => {
			const res = await real(input, init);
			const url = String(input);
			const report = /\/v1\/sessions\/\d+\/report$/.test(url), tableURL = /\/v1\/tables\/\d+$/.test(url);
			if (!res.ok || !report && !tableURL) return res;
			const data = await res.json();
			if (report) {
				data.hands[0].title = 'Vom Server: Zaubertext';
				data.hands[0].running[0] = '4711/3';
				data.hands[1].bock = true;
				data.standings[0].points = '-815/2';
			} else {
				data.next_hand.summary = 'Vom Server: Gundula gibt';
			}
			return new Response(JSON.stringify(data), {status: res.status, headers: res.headers});
		};
	})()`}, nil)
	p := loginOn(page, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	p.WaitFor("the list", `document.querySelectorAll('#sheet tr[data-hand]').length === 2`)
	var got struct {
		Next, Title, Running, Total string
		Bock                        []int
	}
	p.Eval(`({next: document.querySelector('#next').textContent,
		title: document.querySelector('#sheet tr[data-hand="1"] td:nth-child(2)').firstChild.textContent,
		running: document.querySelector('#sheet tr[data-hand="1"] td[data-player]').firstChild.textContent,
		total: document.querySelector('#sheet tfoot td[data-total]').textContent,
		bock: [...document.querySelectorAll('#sheet tr.bock')].map((tr) => Number(tr.dataset.hand))})`, &got)
	want := []string{"Vom Server: Gundula gibt", "Vom Server: Zaubertext", "4711/3", "−815/2"}
	for i, g := range []string{got.Next, got.Title, got.Running, got.Total} {
		if g != want[i] {
			t.Errorf("on screen %q, the server sent %q", g, want[i])
		}
	}
	if fmt.Sprint(got.Bock) != "[2]" {
		t.Errorf("hands marked Bock %v, the server marked [2]", got.Bock)
	}
}

// TestWebNoPointArithmetic: the app's modules carry no arithmetic on
// points – no rational numbers (BigInt) but in reading the stake the
// admin types, no adding up of a hand's points – so every figure a player
// sees is the server's (TestWebShowsTheServersSheet checks it on screen).
func TestWebNoPointArithmetic(t *testing.T) {
	forbidden := regexp.MustCompile(`BigInt|export function add\b|\.points\s*[-+*/]|[-+*/]\s*\w+\.points\b|running\s*[-+*/]`)
	for _, name := range web.Names() {
		if !strings.HasSuffix(name, ".js") {
			continue
		}
		body, _, _ := web.File(name)
		src := string(body)
		if name == "screen-tables.js" {
			// The stake as typed ("0,5", "½") in the contract's exact form.
			src = strings.Replace(src, src[strings.Index(src, "export function stake("):strings.Index(src, "// The options the form offers")], "", 1)
		}
		for _, m := range forbidden.FindAllString(src, -1) {
			t.Errorf("%s computes on points: %q", name, m)
		}
	}
}
