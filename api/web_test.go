package api_test

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/api/internal/cdp"
)

// webPhone is the app in a headless phone, logged in with the club's admin
// key, over a real HTTP server on the test's database.
type webPhone struct {
	*cdp.Page
	url  string
	shot string // a screenshot to take of the next record screen, previewed
}

func startWeb(t *testing.T) (*env, *cdp.Browser, *httptest.Server) {
	t.Helper()
	if cdp.Path() == "" {
		t.Skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	e := newEnv(t)
	srv := httptest.NewServer(e.server)
	t.Cleanup(srv.Close)
	// Cleanups run last first: the browser ends its event streams before
	// the server closes.
	return e, cdp.Start(t, ""), srv
}

// login opens the app on a new phone and pastes the key.
func login(b *cdp.Browser, url, key string) *webPhone { return loginOn(b.NewPage(), url, key) }

func loginOn(p *cdp.Page, url, key string) *webPhone {
	p.SlowPhone()
	p.Open(url + "/")
	p.TypeInto("the key field", `document.querySelector('input[type=password]')`, key)
	p.TapText("", "Anmelden")
	p.WaitFor("the tables", `document.querySelector('h1')?.textContent === 'Tische'`)
	return &webPhone{Page: p, url: url}
}

// hands counts the stored hands of the list on screen.
func (p *webPhone) hands() int {
	var n int
	p.Eval(`document.querySelectorAll('#sheet tbody tr').length`, &n)
	return n
}

// doko records one Doppelkopf hand by tapping: the game (its button's
// text, "" for Normalspiel), Re by the positions of the active players'
// buttons, the Augen on the pad; more taps what else the hand needs.
func (p *webPhone) doko(game string, re []int, augen string, more func()) {
	p.T().Helper()
	p.WaitFor("the list", `document.querySelector('#sheet')`)
	before := p.hands()
	p.Tap("Neues Spiel", `document.querySelector('#new-hand')`)
	p.WaitFor("the record screen", `document.querySelector('#save')`)
	if game != "" {
		p.TapText(`fieldset[data-field="facts.game"]`, game)
	}
	for _, i := range re {
		p.Tap("a Re name", fmt.Sprintf(`document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[%d]`, i))
	}
	for _, d := range augen {
		p.Tap("digit "+string(d), fmt.Sprintf(`document.querySelector('button[aria-label="Ziffer %c"]')`, d))
	}
	if more != nil {
		more()
	}
	p.WaitFor("the preview", `!navigator.onLine || document.querySelector('#preview').innerText.includes('+') && !document.querySelector('.has-problem')`)
	if p.shot != "" {
		p.Screenshot(p.shot)
		p.shot = ""
	}
	p.Tap("Speichern", `document.querySelector('#save')`)
	p.WaitFor("the hand in the list", fmt.Sprintf(`document.querySelectorAll('#sheet tbody tr').length === %d`, before+1))
}

// totals are the running totals under the list, by player id.
func (p *webPhone) totals() map[string]string {
	var out map[string]string
	p.Eval(`Object.fromEntries([...document.querySelectorAll('#sheet tfoot td[data-total]')].map((td) => [td.dataset.total, td.dataset.points]))`, &out)
	return out
}

// TestWebDoppelkopfEvening plays a whole evening of five by tapping: the
// admin creates the table, seats four members and a guest, records eight
// hands with a Herzstich's Bock round and a Damensolo, takes the last one
// back, corrects the first, closes the evening and marks a payment. What
// the screen shows equals the API's standings and settlement.
func TestWebDoppelkopfEvening(t *testing.T) {
	e, b, srv := startWeb(t)
	for _, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
		e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})
	}
	p := login(b, srv.URL, e.admin)

	p.TypeInto("the table's name", `document.querySelectorAll('form input')[0]`, "Montagsrunde")
	p.TapText("", "Tisch anlegen")
	p.WaitFor("the seating", `document.querySelector('#open-evening')`)
	for _, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
		p.TapText(`[aria-label="Spieler"]`, n)
	}
	p.TypeInto("the guest", `[...document.querySelectorAll('label')].find((l) => l.textContent.startsWith('Neuer Spieler')).nextElementSibling`, "Emil")
	p.TapText("", "Hinzufügen")
	p.WaitFor("the guest seated fifth", `[...document.querySelectorAll('#seating li')].map((li) => li.firstChild.textContent).join(',') === 'Anna,Bert,Clara,Dora,Emil' && document.querySelector('#seating li:last-child .guest')`)
	p.Screenshot("app-evening-start.png")
	p.Tap("Abend eröffnen", `document.querySelector('#open-evening')`)
	p.WaitFor("the next hand", `document.querySelector('#next')`)
	if got := p.Text("#next"); !strings.HasPrefix(got, "Anna gibt und setzt aus") {
		t.Errorf("before the first hand the app says %q, want the server's summary %q", got, "Anna gibt und setzt aus; …")
	}

	p.doko("", []int{0, 1}, "150", nil)
	p.doko("", []int{0, 2}, "130", func() {
		p.Tap("Herzstich", `[...document.querySelectorAll('[data-field="facts.herzstich"] input')][0]`)
	})
	if got := p.Text("#next"); !strings.Contains(got, "noch 5 Bockspiele") {
		t.Errorf("after a Herzstich the app says %q, want the 5 Bock games of the round", got)
	}
	p.doko("", []int{1, 2}, "100", nil)
	p.shot = "app-record.png"
	p.doko("Damensolo", []int{3}, "180", nil)
	p.doko("", []int{0, 3}, "121", nil)
	p.doko("", []int{1, 3}, "200", nil)
	p.doko("", []int{2, 3}, "90", nil)
	p.doko("", []int{0, 1}, "160", nil)
	var bock []int
	p.Eval(`[...document.querySelectorAll('#sheet tr.bock')].map((tr) => Number(tr.dataset.hand))`, &bock)
	// A solo uses no Bock game: the round of five is hands 3, 5, 6, 7, 8.
	if fmt.Sprint(bock) != "[3 5 6 7 8]" {
		t.Errorf("hands marked Bock: %v, want [3 5 6 7 8]", bock)
	}

	// Take hand 8 back, correct hand 1 (Re had 100, not 150).
	p.Tap("zurücknehmen", `document.querySelector('#sheet button.undo')`)
	p.WaitFor("hand 8 void", `document.querySelector('#sheet tr[data-hand="8"]')?.classList.contains('void')`)
	p.Tap("korrigieren 1", `document.querySelector('a[aria-label="Spiel 1 korrigieren"]')`)
	p.WaitFor("the correction screen", `document.querySelector('h1')?.textContent.startsWith('Spiel 1 korrigieren') && document.querySelector('#augen').textContent.includes('150')`)
	p.Tap("Augen löschen", `document.querySelector('button[aria-label="Augen löschen"]')`)
	for _, d := range "100" {
		p.Tap("digit", fmt.Sprintf(`document.querySelector('button[aria-label="Ziffer %c"]')`, d))
	}
	p.TypeInto("the reason", `[...document.querySelectorAll('label')].find((l) => l.textContent.startsWith('Grund')).nextElementSibling`, "Re hatte 100")
	p.WaitFor("the preview", `document.querySelector('#preview').innerText.includes('Kontra')`)
	p.Tap("Speichern", `document.querySelector('#save')`)
	p.WaitFor("hand 1 corrected", `document.querySelector('#sheet tr[data-hand="1"]')?.innerText.includes('Kontra')`)
	if !strings.Contains(p.Text(`#sheet tr[data-hand="1"] .mark`), "k") {
		t.Errorf("the corrected hand 1 carries no correction mark")
	}
	p.Screenshot("app-list.png")

	table := e.must(200, "GET", "/v1/tables", e.admin, nil)["tables"].([]any)[0].(map[string]any)
	session := int64(table["open_session_id"].(float64))
	h1 := e.must(200, "GET", fmt.Sprintf("/v1/tables/%v/hands/1", table["id"]), e.admin, nil)
	if h1["revision"].(float64) < 2 || h1["facts"].(map[string]any)["re"].(map[string]any)["augen"].(float64) != 100 {
		t.Errorf("hand 1 after the correction: %v", h1)
	}
	// Whoever sat a hand out shows "–" in its row, as on paper: the
	// dealer of five, Anna at hand 1.
	var out map[string]string
	p.Eval(`Object.fromEntries([...document.querySelectorAll('#sheet tr[data-hand="1"] td[data-player]')].map((td) => [td.dataset.player, td.querySelector('small').textContent]))`, &out)
	for id, cell := range out {
		sat := !slices.Contains(h1["player_ids"].([]any), any(mustFloat(id)))
		if sat != (cell == "–") {
			t.Errorf("hand 1, player %s (sat out %v): the row shows %q", id, sat, cell)
		}
	}
	standings := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/standings", session), e.admin, nil)["standings"].([]any)
	onScreen := p.totals()
	if len(onScreen) != 5 || len(standings) != 5 {
		t.Fatalf("totals on screen %v, standings %v", onScreen, standings)
	}
	for _, s := range standings {
		s := s.(map[string]any)
		id := strconv.Itoa(int(s["player_id"].(float64)))
		if onScreen[id] != s["points"] {
			t.Errorf("%s: %q on screen, the API's standings say %q", s["name"], onScreen[id], s["points"])
		}
	}

	// Close, settle, mark one payment.
	p.TapText("", "Abend beenden")
	p.WaitFor("the settlement", `document.querySelector('#settlement') && document.querySelector('#transfers')`)
	p.Screenshot("app-settlement.png")
	settlement := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", session), e.admin, nil)
	var cents map[string]string
	p.Eval(`Object.fromEntries([...document.querySelectorAll('#settlement tr[data-player]')].map((tr) => [tr.dataset.player, tr.querySelector('[data-cents]').dataset.cents]))`, &cents)
	for _, pl := range settlement["players"].([]any) {
		pl := pl.(map[string]any)
		id := strconv.Itoa(int(pl["player_id"].(float64)))
		if cents[id] != fmt.Sprint(pl["net_cents"]) {
			t.Errorf("%s: %s cents on screen, the settlement says %v", pl["name"], cents[id], pl["net_cents"])
		}
	}
	p.TapText("#transfers", "als bezahlt markieren")
	p.WaitFor("the payment marked", `document.querySelector('#transfers [data-state="paid"]')`)
	paid := 0
	for _, tr := range e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", session), e.admin, nil)["transfers"].([]any) {
		if tr.(map[string]any)["paid"] == true {
			paid++
		}
	}
	if paid != 1 {
		t.Errorf("%d transfers paid, want the 1 tapped", paid)
	}
	// The members' screen: the evening's four members on the leaderboard
	// (the guest Emil is left out), a player's statistics.
	p.Eval(`location.hash = '#/mitglieder'`, nil)
	p.WaitFor("the leaderboard", `document.querySelectorAll('#leaderboard tbody tr').length === 4 && ![...document.querySelectorAll('#leaderboard a')].some((a) => a.textContent === 'Emil')`)
	for _, pl := range e.must(200, "GET", "/v1/players?limit=200", e.admin, nil)["players"].([]any) {
		if pl := pl.(map[string]any); pl["name"] == "Emil" {
			p.Eval(fmt.Sprintf(`location.hash = '#/mitglieder/%v'`, pl["id"]), nil)
		}
	}
	p.WaitFor("Emil's statistics", `document.querySelector('h1')?.textContent === 'Emil' && document.querySelector('#player-stats tr')`)
	var emil struct {
		ID    string
		Hands string
	}
	p.Eval(`({id: location.hash.split('/').pop(), hands: [...document.querySelectorAll('#player-stats tr')].find((tr) => tr.querySelector('th').textContent === 'Spiele').querySelector('td').textContent})`, &emil)
	if stats := e.must(200, "GET", "/v1/stats/players/"+emil.ID, e.admin, nil); fmt.Sprint(stats["hands"]) != emil.Hands {
		t.Errorf("Emil's hands: %s on screen, %v in the statistics", emil.Hands, stats["hands"])
	}
	if errs := p.ConsoleErrors(); errs != "" {
		t.Errorf("uncaught exceptions in the app:\n%s", errs)
	}
}

// dokoEvening is a Doppelkopf table with four players seated.
func dokoEvening(e *env) (table, session int64) {
	var seating []int64
	for _, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
		seating = append(seating, int64(e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})["id"].(float64)))
	}
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Freitag", "game": "doppelkopf", "stake_cents_per_point": "5"})
	table = int64(tbl["id"].(float64))
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", table), e.admin, map[string]any{"player_ids": seating})
	return table, int64(s["id"].(float64))
}

// TestWebOfflineHands records three hands on a phone without a
// connection (and a fourth the rules refuse): they wait in the outbox,
// shown as pending; back online they are sent in one batch and stored
// exactly once in order, a second phone shows them live without a reload,
// and the refused hand stays on screen with its problem.
func TestWebOfflineHands(t *testing.T) {
	e, b, srv := startWeb(t)
	table, _ := dokoEvening(e)
	a := login(b, srv.URL, e.admin)
	other := login(b, srv.URL, e.admin)
	for _, p := range []*webPhone{a, other} {
		p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
		p.WaitFor("the live list", `document.querySelector('[data-live="on"]') && document.querySelector('#sheet')`)
	}

	a.Offline(true)
	a.WaitFor("the phone offline", `!navigator.onLine && document.querySelector('#net').textContent === 'offline'`)
	a.doko("", []int{0, 1}, "150", nil)
	a.doko("", []int{0, 2}, "100", nil)
	a.doko("", []int{1, 2}, "200", nil)
	a.doko("", []int{0, 3}, "5", nil) // 5 Augen: no 40-card deck allows it
	var pending int
	a.Eval(`document.querySelectorAll('#sheet tr.pending').length`, &pending)
	if pending != 4 || e.count("hands") != 0 || other.hands() != 0 {
		t.Fatalf("offline: %d hands pending on screen, %d stored, %d on the other phone; want 4, 0, 0", pending, e.count("hands"), other.hands())
	}

	a.Offline(false)
	a.WaitFor("three hands stored, the fourth refused", `document.querySelectorAll('#sheet tr[data-hand]').length === 3 && document.querySelectorAll('#sheet tr.refused').length === 1 && !document.querySelector('#sheet tr.pending')`)
	other.WaitFor("the three hands live on the other phone", `document.querySelectorAll('#sheet tr[data-hand]').length === 3`)
	if got := a.Text("#sheet tr.refused"); !strings.Contains(got, "abgelehnt") || !strings.Contains(got, "ändern") || strings.Contains(got, "facts.") {
		t.Errorf("the refused hand shows %q, want it refused with what to do, no field path", got)
	}
	// Offline and online again: the outbox sends nothing twice.
	a.Offline(true)
	a.WaitFor("offline", `!navigator.onLine`)
	a.Offline(false)
	a.WaitFor("online", `navigator.onLine`)
	a.Eval(`new Promise((r) => setTimeout(r, 300))`, nil)
	if n := e.count("hands"); n != 3 {
		t.Errorf("%d hands stored, want each of the 3 exactly once", n)
	}
	hands := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d/hands", table), e.admin, nil)["hands"].([]any)
	for i, augen := range []float64{150, 100, 200} {
		h := hands[i].(map[string]any)
		if h["number"].(float64) != float64(i+1) || h["facts"].(map[string]any)["re"].(map[string]any)["augen"] != augen {
			t.Errorf("hand %d: number %v with %v Augen, want %d with %v", i+1, h["number"], h["facts"].(map[string]any)["re"].(map[string]any)["augen"], i+1, augen)
		}
	}
}

// TestWebRefusedHand: a hand the rules refuse shows the problem next to
// the input it names and stores nothing; fixed, it is stored.
//
// The table has an earlier evening: the list shows this one's hands only.
func TestWebRefusedHand(t *testing.T) {
	e, b, srv := startWeb(t)
	table, old := dokoEvening(e)
	for n := 1; n <= 2; n++ {
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", table), e.admin, map[string]any{"session_id": old, "number": n,
			"facts": map[string]any{"game": "normal", "re": map[string]any{"players": []int{1, 2}, "augen": 130}}})
	}
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", old), e.admin, nil)
	e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", table), e.admin, map[string]any{"player_ids": []int{1, 2, 3, 4}})
	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d/neu'`, table), nil)
	p.WaitFor("the record screen", `document.querySelector('#save')`)
	p.Tap("Anna", `document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[0]`)
	p.Tap("Bert", `document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[1]`)
	p.Tap("5", `document.querySelector('button[aria-label="Ziffer 5"]')`)
	p.Tap("Speichern", `document.querySelector('#save')`)
	p.WaitFor("the problem next to the Augen", `document.querySelector('fieldset.has-problem[data-field="facts.re.augen"] .problem')`)
	var marked int
	p.Eval(`document.querySelectorAll('.has-problem').length`, &marked)
	if marked != 1 || e.count("hands") != 2 {
		t.Fatalf("%d inputs marked, %d hands stored; want 1 and the earlier evening's 2", marked, e.count("hands"))
	}
	p.Tap("C", `document.querySelector('button[aria-label="Augen löschen"]')`)
	for _, d := range "150" {
		p.Tap("digit", fmt.Sprintf(`document.querySelector('button[aria-label="Ziffer %c"]')`, d))
	}
	p.WaitFor("the problem gone", `!document.querySelector('.has-problem') && document.querySelector('#preview').innerText.includes('+')`)
	// The preview shows the server's breakdown, line by line.
	p.WaitFor("the breakdown", `[...document.querySelectorAll('#preview .lines li')].some((li) => li.textContent.includes('gewonnen'))`)
	p.Tap("Speichern", `document.querySelector('#save')`)
	// The evening's first hand is number 1 on screen, 3 in the ledger.
	p.WaitFor("the hand in the list", `document.querySelectorAll('#sheet tr[data-hand]').length === 1 && document.querySelector('#sheet tr[data-hand="3"]')?.dataset.no === '1' && document.querySelector('#sheet tr[data-hand="3"] td').textContent.startsWith('1')`)
	if n := e.count("hands"); n != 3 {
		t.Errorf("%d hands stored, want the 2 of the earlier evening and 1", n)
	}
}

// fill types into the input a label (or aria-label) names.
func (p *webPhone) fill(label, text string) {
	p.T().Helper()
	p.TypeInto(label, fmt.Sprintf(`document.querySelector('input[aria-label=%q]') || [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === %q)?.control`, label, label), text)
}

// choose picks an option of the select a label names (a phone's native
// picker is no part of the page, so the choice is set as the picker would).
func (p *webPhone) choose(label, optionText string) {
	p.T().Helper()
	expr := fmt.Sprintf(`(document.querySelector('select[aria-label=%q]') || [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === %q)?.control)`, label, label)
	p.WaitFor(label, expr)
	var ok bool
	p.Eval(fmt.Sprintf(`(() => { const s = %s; const o = [...s.options].find((o) => o.text === %q); if (!o) return false; s.value = o.value; s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, expr, optionText), &ok)
	if !ok {
		t := p.T()
		t.Fatalf("%s has no option %q", label, optionText)
	}
}

// TestWebOtherGames records one hand of each other game through its
// screen; the list shows the points the API stored.
func TestWebOtherGames(t *testing.T) {
	e, b, srv := startWeb(t)
	var seating []int64
	for _, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
		seating = append(seating, int64(e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})["id"].(float64)))
	}
	p := login(b, srv.URL, e.admin)
	id := func(i int) string { return fmt.Sprint(seating[i]) }
	games := []struct {
		game  string
		seats int // the first seats of the four seated, 0 for all
		fill  func()
		want  map[string]string // facts the screen must have stored, printed
	}{
		{"schwarze_dame", 0, func() {
			for i, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
				p.fill("Stiche "+n, []string{"4", "3", "5", "1"}[i])
				p.fill("Strafpunkte "+n, []string{"20", "40", "50", "20"}[i])
			}
		}, nil},
		{"schwarze_sau", 0, func() {
			// Dora deals: the doublings below go round from Bert.
			p.choose("Geber", "Dora")
			for i, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
				p.fill("Augen "+n, []string{"52", "40", "28", "0"}[i])
				p.fill("Stiche "+n, []string{"4", "3", "3", "0"}[i])
			}
			p.Tap("Pik-Dame Anna", `document.querySelector('input[aria-label="Pik-Dame Anna"]')`)
			p.choose("Kontra von", "Bert")
			p.choose("Re von", "Clara")
			p.choose("Sub von", "Dora")
			p.WaitFor("Hirsch after Sub", `[...document.querySelectorAll('label')].some((l) => l.textContent.trim() === 'Hirsch von')`)
		}, map[string]string{"doublings": fmt.Sprintf("[map[call:Kontra player:%s] map[call:Re player:%s] map[call:Sub player:%s]]", id(1), id(2), id(3))}},
		{"schwarze_sau", 3, func() {
			for i, n := range []string{"Anna", "Bert", "Clara"} {
				p.fill("Augen "+n, []string{"50", "40", "20"}[i])
				p.fill("Stiche "+n, []string{"4", "3", "2"}[i])
			}
			p.fill("Augen Stock", "10")
			p.fill("Stiche Stock", "1")
			p.Tap("Pik-Dame Stock", `document.querySelector('input[aria-label="Pik-Dame Stock"]')`)
			p.choose("Verstoß von", "Bert")
		}, map[string]string{"stock": "map[card_points:10 pik_dame:true tricks:1]", "verstoss_by": id(1)}},
		{"klaberjass", 0, func() {
			p.fill("Augen Anna/Clara", "92")
			p.fill("Augen Bert/Dora", "60")
			p.choose("Letzter Stich", "Clara")
			// Two melds, the second removed again; a Terz in Pik up to the König.
			for range 2 {
				p.TapText("", "Meldung hinzufügen")
			}
			p.WaitFor("two melds", `document.querySelectorAll('.meld').length === 2`)
			p.Tap("Meldung 2 entfernen", `document.querySelector('button[aria-label="Meldung 2 entfernen"]')`)
			p.WaitFor("one meld", `document.querySelectorAll('.meld').length === 1`)
			p.choose("Meldung 1: Spieler", "Anna")
			p.choose("Meldung 1: Art", "Terz (20)")
			p.choose("Meldung 1: Farbe", "Pik")
			p.choose("Meldung 1: bis", "König")
			p.choose("Bella (König und Dame Trumpf)", "Clara")
			p.Tap("Kontra", `[...document.querySelectorAll('label.check')].find((l) => l.textContent.trim() === 'Kontra')?.control`)
			p.WaitFor("Re after Kontra", `[...document.querySelectorAll('label.check')].some((l) => l.textContent.trim() === 'Re')`)
		}, map[string]string{
			"melds":  fmt.Sprintf("[map[kind:terz player:%s suit:pik top:koenig]]", id(0)),
			"bella":  id(2),
			"kontra": "true",
		}},
		{"saukopf", 0, func() {
			p.choose("Mitspieler", "Clara")
			p.fill("Reizwert", "70")
			p.fill("Augen der Spieler-Partei", "85")
			p.fill("Stiche der Spieler-Partei", "5")
			p.choose("Höchster Trumpf bei", "Bert")
			p.fill("Huftritte", "1")
			p.choose("Herz-Sau gestochen von", "Anna")
			p.choose("Herz-Sau von", "Dora")
			p.choose("Hauer (letzter Stich mit dem Eichel-Unter)", "Bert")
		}, map[string]string{"huftritte": "1", "hauer": id(1), "saukopf": fmt.Sprintf("map[herz_sau_of:%s trumped_by:%s]", id(3), id(0))}},
		{"saukopf", 0, func() {
			// A Dreihaxer at a table of four, Dora dealing: the three after
			// her play; Anna sits out instead, Dora plays.
			p.choose("Geber", "Dora")
			p.choose("Variante", "Dreihaxer (3 Spieler)")
			who := `fieldset[data-field="facts.players"]`
			p.WaitFor("three pressed", fmt.Sprintf(`document.querySelectorAll('%s button[aria-pressed=true]').length === 3`, who))
			p.Tap("Anna sits out", fmt.Sprintf(`document.querySelector('%s button[data-player="%s"]')`, who, id(0)))
			p.Tap("Dora plays", fmt.Sprintf(`document.querySelector('%s button[data-player="%s"]:not([disabled])')`, who, id(3)))
			p.choose("Spiel", "Eber")
			p.choose("Spieler", "Clara")
			p.choose("Trog", "ohne Trog")
			p.fill("Augen der offenen Karten", "10")
			p.fill("Reizwert", "70")
			p.fill("Augen der Spieler-Partei", "75")
			p.fill("Stiche der Spieler-Partei", "6")
			p.choose("Höchster Trumpf bei", "Clara")
			p.fill("Laufende", "2")
		}, map[string]string{"variant": "dreihaxer", "players": fmt.Sprint([]any{seating[1], seating[2], seating[3]}), "trog": "ohne", "open_augen": "10", "contract": "eber"}},
		{"saukopf", 0, func() {
			p.choose("Spiel", "Wilde Sauerei (niemand hat gereizt)")
			for i, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
				p.fill("Augen "+n, []string{"40", "30", "30", "20"}[i])
				p.fill("Stiche "+n, []string{"3", "2", "2", "1"}[i])
			}
			p.choose("Höchster Trumpf bei", "Bert")
		}, map[string]string{"per_player": fmt.Sprintf("[map[augen:40 player:%s tricks:3] map[augen:30 player:%s tricks:2] map[augen:30 player:%s tricks:2] map[augen:20 player:%s tricks:1]]", id(0), id(1), id(2), id(3))}},
	}
	for i, g := range games {
		seats := seating
		if g.seats > 0 {
			seats = seating[:g.seats]
		}
		tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": fmt.Sprintf("Tisch %d %s", i, g.game), "game": g.game, "stake_cents_per_point": "1"})
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%v/sessions", tbl["id"]), e.admin, map[string]any{"player_ids": seats})
		p.Eval(fmt.Sprintf(`location.hash = '#/t/%v/neu'`, tbl["id"]), nil)
		p.WaitFor(g.game+"'s record screen", `document.querySelector('#save')`)
		g.fill()
		p.WaitFor(g.game+"'s preview", `document.querySelector('#preview strong')?.textContent && !document.querySelector('.has-problem')`)
		p.Tap("Speichern", `document.querySelector('#save')`)
		p.WaitFor(g.game+"'s hand in the list", `document.querySelectorAll('#sheet tr[data-hand]').length === 1`)
		if g.game == "klaberjass" {
			// The dice stand in the list, as the server's sheet has them.
			p.WaitFor("the dice in the list", `document.querySelector('#sheet small.figure')?.textContent.includes('Würfel')`)
		}
		hand := e.must(200, "GET", fmt.Sprintf("/v1/tables/%v/hands/1", tbl["id"]), e.admin, nil)
		onScreen := p.totals()
		for _, pt := range hand["result"].(map[string]any)["points"].([]any) {
			pt := pt.(map[string]any)
			id := strconv.Itoa(int(pt["player"].(float64)))
			if onScreen[id] != pt["points"] {
				t.Errorf("%s: player %s has %q on screen, %q stored", g.game, id, onScreen[id], pt["points"])
			}
		}
		// The facts the screen made are stored as given, and the stored
		// result is what the score endpoint gives for the same facts.
		facts := hand["facts"].(map[string]any)
		for k, v := range g.want {
			if got := fmt.Sprint(facts[k]); got != v {
				t.Errorf("%s: stored facts.%s = %s, want %s", g.game, k, got, v)
			}
		}
		score := e.must(200, "POST", "/v1/games/"+g.game+"/score", e.admin, map[string]any{"player_ids": seats, "facts": facts})
		for _, k := range []string{"points", "lines"} {
			if got, want := fmt.Sprint(hand["result"].(map[string]any)[k]), fmt.Sprint(score[k]); got != want {
				t.Errorf("%s: stored %s %s, the score endpoint gives %s", g.game, k, got, want)
			}
		}
		if g.game == "schwarze_dame" && onScreen[strconv.Itoa(int(seating[0]))] != "20" {
			t.Errorf("schwarze_dame: Anna has %q, want 20 (4 tricks, 20 penalty points)", onScreen[strconv.Itoa(int(seating[0]))])
		}
	}
}

// TestWebLiveLatency records 20 hands on one phone and measures, on the
// same clock, the time from the tap on "Speichern" to the hand's row on a
// second phone that follows the table live, and logs the median (a
// figure to report, not a limit the test holds).
//
// The second phone then sleeps: its stream is cut and it stays offline
// while a hand is recorded; awake, it resumes with Last-Event-ID and shows
// the hand it missed.
func TestWebLiveLatency(t *testing.T) {
	e, b, srv := startWeb(t)
	table, _ := dokoEvening(e)
	a := login(b, srv.URL, e.admin)
	other := login(b, srv.URL, e.admin)
	for _, p := range []*webPhone{a, other} {
		p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
		p.WaitFor("the live list", `document.querySelector('[data-live="on"]') && document.querySelector('#sheet')`)
	}
	other.Eval(`window.arrived = {}; new MutationObserver(() => {
		const n = document.querySelectorAll('#sheet tr[data-hand]').length;
		if (!(n in window.arrived)) window.arrived[n] = Date.now();
	}).observe(document.querySelector('main'), {childList: true, subtree: true})`, nil)
	const hands = 20
	var ms []float64
	for n := 1; n <= hands; n++ {
		a.doko("", []int{0, 1 + n%3}, strconv.Itoa(100+n), func() {
			a.Eval(`document.querySelector('#save').addEventListener('click', () => { window.tappedAt = Date.now(); }, {capture: true, once: true})`, nil)
		})
		other.WaitFor(fmt.Sprintf("hand %d on the second phone", n), fmt.Sprintf(`window.arrived[%d]`, n))
		var tapped, arrived float64
		a.Eval(`window.tappedAt`, &tapped)
		other.Eval(fmt.Sprintf(`window.arrived[%d]`, n), &arrived)
		ms = append(ms, arrived-tapped)
	}
	slices.Sort(ms)
	median := (ms[hands/2-1] + ms[hands/2]) / 2
	t.Logf("tap on Speichern to the row on the second phone, %d hands: median %.0f ms, min %.0f, max %.0f", hands, median, ms[0], ms[hands-1])
	// Measured and reported, never asserted as a timing: only that every
	// hand arrived after its tap.
	if ms[0] <= 0 {
		t.Errorf("a hand arrived on the second phone %.0f ms after its tap, before it", ms[0])
	}

	other.Offline(true)
	srv.CloseClientConnections()
	other.WaitFor("the stream lost", `document.querySelector('[data-live="off"]')`)
	a.doko("", []int{0, 1}, "130", nil)
	other.Offline(false)
	other.WaitFor("the hand missed while asleep", fmt.Sprintf(`document.querySelectorAll('#sheet tr[data-hand]').length === %d`, hands+1))
}

// TestWebJoin: the admin's phone shows "Handy einladen" with the QR code
// and link of a join code; a phone without a key opens the link, the app
// drops ?join= from the address at once, redeems the code, keeps the key
// and shows the table.
func TestWebJoin(t *testing.T) {
	e, b, srv := startWeb(t)
	table, _ := dokoEvening(e)
	admin := login(b, srv.URL, e.admin)
	admin.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	admin.Tap("Handy einladen", `document.querySelector('#invite')`)
	admin.WaitFor("the QR code and link", `document.querySelector('.qr svg') && document.querySelector('#join-link')`)
	var link string
	admin.Eval(`document.querySelector('#join-link').href`, &link)
	if !strings.Contains(link, "/?join=") {
		t.Fatalf("the invitation links to %q", link)
	}
	guest := &webPhone{Page: b.NewPage(), url: srv.URL}
	guest.SlowPhone()
	guest.Open(link)
	guest.WaitFor("the table", `document.querySelector('#sheet')`)
	var state struct {
		Search, Key string
	}
	guest.Eval(`({search: location.search, key: localStorage.getItem('stichbuch.key') || ''})`, &state)
	if state.Search != "" || state.Key == "" {
		t.Errorf("after joining: location.search %q, key kept %v; want no ?join and a key", state.Search, state.Key != "")
	}
}

// TestWebFirstClub: on a fresh service the app creates the club from the
// setup link serve prints, drops ?setup= from the address, shows the admin
// key once and goes on as the club's admin.
func TestWebFirstClub(t *testing.T) {
	if cdp.Path() == "" {
		t.Skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	e := newEnv(t)
	fresh, err := api.New(e.store, slog.New(slog.DiscardHandler), api.Config{SetupToken: "0123abcd"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fresh)
	t.Cleanup(srv.Close)
	p := &webPhone{Page: cdp.Start(t, "").NewPage(), url: srv.URL}
	p.SlowPhone()
	p.Open(srv.URL + "/?setup=0123abcd")
	p.fill("Name des Clubs", "Skatclub Eichel")
	p.TapText("", "Club anlegen")
	p.WaitFor("the admin key", `document.querySelector('#admin-key')?.textContent.startsWith('sb_')`)
	var search string
	p.Eval(`location.search`, &search)
	if search != "" {
		t.Errorf("the address still says %q", search)
	}
	p.TapText("", "Weiter zu den Tischen")
	p.WaitFor("the admin's tables", `document.querySelector('h1')?.textContent === 'Tische' && [...document.querySelectorAll('button')].some((b) => b.textContent === 'Tisch anlegen')`)
	if n := e.count("clubs"); n != 2 {
		t.Errorf("%d clubs, want the test's and the new one", n)
	}
}

// TestWebNarrowLargeText: at 360 px with text at 150 %, the table screen
// and the record screen fit the width (only the list scrolls, inside its
// frame), and every control keeps a visible label or name.
func TestWebNarrowLargeText(t *testing.T) {
	e, b, srv := startWeb(t)
	table, _ := dokoEvening(e)
	p := login(b, srv.URL, e.admin)
	narrowLargeText(p)
	for _, screen := range []string{"", "/neu"} {
		p.Eval(fmt.Sprintf(`location.hash = '#/t/%d%s'`, table, screen), nil)
		p.WaitFor("the screen", `document.querySelector('#sheet') || document.querySelector('#save')`)
		checkFits(t, p, fmt.Sprintf("#/t/%d%s", table, screen))
	}
}

// TestWebOfflineShell: once the app has run, it opens without the server:
// the service worker serves the shell from its cache and the app shows
// the table's list as it last saw it.
func TestWebOfflineShell(t *testing.T) {
	e, b, srv := startWeb(t)
	table, session := dokoEvening(e)
	e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", table), e.admin, map[string]any{"session_id": session, "number": 1,
		"facts": map[string]any{"game": "normal", "re": map[string]any{"players": []int{1, 2}, "augen": 130}}})
	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	p.WaitFor("the list", `document.querySelectorAll('#sheet tr[data-hand]').length === 1`)
	p.Eval(`navigator.serviceWorker.ready.then(() => true)`, nil)
	p.WaitFor("the shell cached and the page controlled", `navigator.serviceWorker.controller`)
	var cached int
	p.Eval(`caches.open('der-tisch-v1').then((c) => c.keys()).then((k) => k.length)`, &cached)
	if cached < 8 {
		t.Fatalf("the service worker cached %d files of the shell", cached)
	}

	// The server goes away: no new connection is accepted.
	srv.Listener.Close()
	srv.CloseClientConnections()
	p.Reload()
	p.WaitFor("the list without the server", `document.querySelectorAll('#sheet tr[data-hand]').length === 1 && document.querySelector('#next').textContent.includes('gibt')`)
}

// mustFloat reads a player id from the page as the API's JSON number.
func mustFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return f
}

// TestWebDoppelkopfFiveSeated: with five seated the four who play default
// to the table's next players; the scorer taps who really played (one of
// the four sits out instead), records a revoke and a Schweinchen, and the
// stored hand names those four and scores as the score endpoint does.
func TestWebDoppelkopfFiveSeated(t *testing.T) {
	e, b, srv := startWeb(t)
	var seating []int64
	names := map[int64]string{}
	for _, n := range []string{"Anna", "Bert", "Clara", "Dora", "Emil"} {
		id := int64(e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})["id"].(float64))
		seating = append(seating, id)
		names[id] = n
	}
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Fünfer", "game": "doppelkopf", "stake_cents_per_point": "5"})
	table := int64(tbl["id"].(float64))
	e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", table), e.admin, map[string]any{"player_ids": seating})
	var usual []int64
	for _, id := range e.must(200, "GET", fmt.Sprintf("/v1/tables/%d", table), e.admin, nil)["next_hand"].(map[string]any)["next_players"].([]any) {
		usual = append(usual, int64(id.(float64)))
	}
	var out int64 // the one the table expects to sit out
	for _, id := range seating {
		if !slices.Contains(usual, id) {
			out = id
		}
	}
	// The first of the usual four sits out instead.
	played := append([]int64{}, usual[1:]...)
	played = append(played, out)
	slices.SortFunc(played, func(a, b int64) int { return slices.Index(seating, a) - slices.Index(seating, b) })

	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	p.doko("", nil, "", func() {
		who := `fieldset[data-field="facts.players"]`
		p.WaitFor("the four usual players pressed", fmt.Sprintf(`document.querySelectorAll('%s button[aria-pressed=true]').length === 4`, who))
		p.WaitFor(names[out]+" not tappable while four play", fmt.Sprintf(`document.querySelector('%s button[data-player="%d"]').disabled`, who, out))
		p.Tap(names[usual[0]]+" sits out", fmt.Sprintf(`document.querySelector('%s button[data-player="%d"]')`, who, usual[0]))
		p.Tap(names[out]+" plays", fmt.Sprintf(`document.querySelector('%s button[data-player="%d"]:not([disabled])')`, who, out))
		p.WaitFor("the Re buttons of the four who play", fmt.Sprintf(`[...document.querySelectorAll('fieldset[data-field="facts.re.players"] button')].map((b) => b.dataset.player).join() === %q`, fmt.Sprint(played[0], ",", played[1], ",", played[2], ",", played[3])))
		p.Tap("Re "+names[played[0]], `document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[0]`)
		p.Tap("Re "+names[played[2]], `document.querySelectorAll('fieldset[data-field="facts.re.players"] button')[2]`)
		for _, d := range "130" {
			p.Tap("digit "+string(d), fmt.Sprintf(`document.querySelector('button[aria-label="Ziffer %c"]')`, d))
		}
		p.choose("Verworfen (falsch bedient)", names[played[0]])
		p.choose("Schweinchen angesagt", names[played[1]])
	})
	hand := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d/hands/1", table), e.admin, nil)
	facts := hand["facts"].(map[string]any)
	for k, want := range map[string]string{
		"players":      fmt.Sprint(played),
		"verworfen_by": fmt.Sprint(played[0]),
		"schweinchen":  fmt.Sprint(played[1]),
	} {
		if got := fmt.Sprint(facts[k]); got != want {
			t.Errorf("stored facts.%s = %s, want %s", k, got, want)
		}
	}
	result := hand["result"].(map[string]any)
	if _, ok := facts["dealer"]; !ok {
		facts["dealer"] = result["dealer"]
	}
	score := e.must(200, "POST", "/v1/games/doppelkopf/score", e.admin, map[string]any{"player_ids": seating, "facts": facts})
	for _, k := range []string{"points", "lines"} {
		if got, want := fmt.Sprint(result[k]), fmt.Sprint(score[k]); got != want {
			t.Errorf("stored %s %s, the score endpoint gives %s", k, got, want)
		}
	}
	onScreen := p.totals()
	for _, pt := range result["points"].([]any) {
		pt := pt.(map[string]any)
		id := strconv.Itoa(int(pt["player"].(float64)))
		if onScreen[id] != pt["points"] {
			t.Errorf("player %s has %q on screen, %q stored", id, onScreen[id], pt["points"])
		}
	}
}

// TestWebRecordScreensNarrow opens every game's record screen on a 360 px
// phone with large text, with the inputs that appear on demand shown (a
// meld, Re after Kontra, the doublings, the Stock, "Wer spielt?", the
// Wilde Sauerei): nothing overflows and every control has a name.
func TestWebRecordScreensNarrow(t *testing.T) {
	e, b, srv := startWeb(t)
	var seating []int64
	for _, n := range []string{"Anna", "Bert", "Clara", "Dora", "Emil"} {
		seating = append(seating, int64(e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})["id"].(float64)))
	}
	p := login(b, srv.URL, e.admin)
	narrowLargeText(p)
	screens := []struct {
		game  string
		seats int
		open  func()
	}{
		{"doppelkopf", 5, func() {
			p.WaitFor("Wer spielt?", `document.querySelector('fieldset[data-field="facts.players"]')`)
		}},
		{"klaberjass", 4, func() {
			p.TapText("", "Meldung hinzufügen")
			p.WaitFor("a meld", `document.querySelector('.meld')`)
			p.Tap("Kontra", `[...document.querySelectorAll('label.check')].find((l) => l.textContent.trim() === 'Kontra')?.control`)
			p.WaitFor("Re", `[...document.querySelectorAll('label.check')].some((l) => l.textContent.trim() === 'Re')`)
		}},
		{"schwarze_sau", 3, func() {
			p.choose("Kontra von", "Anna")
			p.WaitFor("Re von", `[...document.querySelectorAll('label')].some((l) => l.textContent.trim() === 'Re von')`)
		}},
		{"saukopf", 5, func() {
			p.choose("Spiel", "Wilde Sauerei (niemand hat gereizt)")
			p.WaitFor("the Wilde Sauerei", `document.querySelector('[data-field="facts.per_player"]') && document.querySelector('fieldset[data-field="facts.players"]')`)
		}},
		{"saukopf", 3, func() {
			p.choose("Trog", "ohne Trog")
			p.WaitFor("the open cards", `[...document.querySelectorAll('label')].some((l) => l.textContent.trim() === 'Augen der offenen Karten')`)
		}},
	}
	for i, s := range screens {
		tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": fmt.Sprintf("Schmal %d", i), "game": s.game, "stake_cents_per_point": "1"})
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%v/sessions", tbl["id"]), e.admin, map[string]any{"player_ids": seating[:s.seats]})
		p.Eval(fmt.Sprintf(`location.hash = '#/t/%v/neu'`, tbl["id"]), nil)
		p.WaitFor(s.game+"'s record screen", `document.querySelector('#save')`)
		s.open()
		checkFits(t, p, fmt.Sprintf("%s with %d seated", s.game, s.seats))
		if s := p.ConsoleErrors(); s != "" {
			t.Errorf("console errors: %s", s)
		}
	}
}

// TestWebKlaberjassMeldProblem: a meld the rules refuse (the same cards
// declared twice) is marked at that meld's row, and removing it clears
// the problem.
func TestWebKlaberjassMeldProblem(t *testing.T) {
	e, b, srv := startWeb(t)
	var seating []int64
	for _, n := range []string{"Anna", "Bert", "Clara", "Dora"} {
		seating = append(seating, int64(e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": n})["id"].(float64)))
	}
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Jass", "game": "klaberjass", "stake_cents_per_point": "1"})
	e.must(201, "POST", fmt.Sprintf("/v1/tables/%v/sessions", tbl["id"]), e.admin, map[string]any{"player_ids": seating})
	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%v/neu'`, tbl["id"]), nil)
	p.WaitFor("the record screen", `document.querySelector('#save')`)
	p.fill("Augen Anna/Clara", "92")
	p.fill("Augen Bert/Dora", "60")
	for _, m := range []string{"Meldung 1", "Meldung 2"} {
		p.TapText("", "Meldung hinzufügen")
		p.choose(m+": Farbe", "Pik")
		p.choose(m+": bis", "König")
	}
	p.WaitFor("the second meld marked", `document.querySelector('.meld[data-field="facts.melds[1]"].has-problem .problem')`)
	if p.Text(`.meld[data-field="facts.melds[0]"] .problem`) != "" {
		t.Errorf("the first meld is marked too")
	}
	p.Tap("Meldung 2 entfernen", `document.querySelector('button[aria-label="Meldung 2 entfernen"]')`)
	p.WaitFor("the preview without a problem", `document.querySelector('#preview strong')?.textContent && !document.querySelector('.has-problem')`)
}

// narrowLargeText makes p a 360 px phone with its text at 150 %.
func narrowLargeText(p *webPhone) {
	p.Viewport(360, 740, 1, true)
	p.Eval(`document.documentElement.style.fontSize = '150%'`, nil)
}

// checkFits fails the test when the screen p shows (what) is wider than
// the phone's 360 px or has a control without a label or name. A phone's
// browser widens its layout viewport (and innerWidth) to what overflows,
// so both are held to the screen's width.
func checkFits(t *testing.T, p *webPhone, what string) {
	t.Helper()
	var fit struct {
		Width, Page float64
		Unnamed     []string
	}
	p.Eval(`({width: innerWidth, page: document.documentElement.scrollWidth,
		unnamed: [...document.querySelectorAll('button, input, select, a')].filter((el) =>
			!(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.textContent.trim()).map((el) => el.outerHTML.slice(0, 80))})`, &fit)
	if fit.Page > 360 || fit.Width > 360 {
		t.Errorf("%s is %.0f px wide (viewport %.0f) on a 360 px screen", what, fit.Page, fit.Width)
	}
	if len(fit.Unnamed) > 0 {
		t.Errorf("%s: controls without a name: %v", what, fit.Unnamed)
	}
}
