package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestWebLastSeating: the next evening's seating starts as the last one,
// in its order.
func TestWebLastSeating(t *testing.T) {
	e, b, srv := startWeb(t)
	table, session := dokoEvening(e)
	recordHands(e, table, session, 150)
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", session), e.admin, nil)
	last, ok := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d", table), e.admin, nil)["last_seating_ids"].([]any)
	if !ok {
		t.Fatal("the table has no last_seating_ids")
	}
	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	p.WaitFor("the seating", `document.querySelector('#open-evening')`)
	var names []string
	for _, id := range last {
		names = append(names, e.must(200, "GET", fmt.Sprintf("/v1/players/%v", id), e.admin, nil)["name"].(string))
	}
	if got := strings.Join(strings.Fields(p.Text("#seating")), ","); got != strings.Join(names, ",") {
		t.Errorf("the seating starts as %q, the last evening's was %q", got, strings.Join(names, ","))
	}
}

// TestWebGuest: a player added "als Gast" is stored as a guest and marked
// in the seating.
func TestWebGuest(t *testing.T) {
	e, b, srv := startWeb(t)
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Gäste", "game": "doppelkopf", "stake_cents_per_point": "1"})
	if res := e.call("POST", "/v1/players", e.admin, map[string]any{"name": "Probe", "guest": true}); res.status != 201 || !strings.Contains(string(res.body), `"guest":true`) {
		t.Fatal("the server keeps no guest flag on players")
	}
	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%v'`, tbl["id"]), nil)
	p.TypeInto("the guest", `[...document.querySelectorAll('label')].find((l) => l.textContent.startsWith('Neuer Spieler')).control`, "Emil")
	p.TapText("", "Hinzufügen")
	p.WaitFor("Emil seated as a guest", `[...document.querySelectorAll('#seating li')].some((li) => li.textContent.includes('Emil') && li.querySelector('.guest'))`)
	found := false
	for _, pl := range e.must(200, "GET", "/v1/players?limit=200", e.admin, nil)["players"].([]any) {
		if pl := pl.(map[string]any); pl["name"] == "Emil" {
			found = pl["guest"] == true
		}
	}
	if !found {
		t.Errorf("Emil is not stored as a guest")
	}
}

// TestWebPaymentUndo: a payment marked by mistake is taken back from the
// settlement screen; paid and open read differently (state vs action).
func TestWebPaymentUndo(t *testing.T) {
	e, b, srv := startWeb(t)
	table, session := dokoEvening(e)
	recordHands(e, table, session, 150, 100)
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", session), e.admin, nil)
	if res := e.call("POST", "/v1/transfers/999999/unpaid", e.admin, nil); res.status == 404 && !strings.Contains(string(res.body), "transfer") || res.status == 405 {
		t.Fatal("the server has no POST /v1/transfers/{id}/unpaid")
	}
	p := login(b, srv.URL, e.admin)
	p.Eval(fmt.Sprintf(`location.hash = '#/s/%d'`, session), nil)
	p.WaitFor("the transfers", `document.querySelector('#transfers [data-state="open"]')`)
	p.TapText("#transfers", "als bezahlt markieren")
	p.WaitFor("paid", `document.querySelector('#transfers [data-state="paid"]')`)
	p.TapText("#transfers", "zurücknehmen")
	p.WaitFor("open again", `!document.querySelector('#transfers [data-state="paid"]') && document.querySelector('#transfers button.pay')`)
	for _, tr := range e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", session), e.admin, nil)["transfers"].([]any) {
		if tr.(map[string]any)["paid"] == true {
			t.Errorf("a transfer is still paid after the undo: %v", tr)
		}
	}
	// The report at a stable address a browser opens without the key.
	var links struct{ HTML, CSV string }
	p.Eval(`({html: document.querySelector('a#report')?.href || '', csv: document.querySelector('a#report-csv')?.href || ''})`, &links)
	if !strings.Contains(links.HTML, "/v1/report-links/") || !strings.Contains(links.CSV, "format=csv") {
		t.Fatalf("the settlement links the report at %q and %q, want its stable addresses", links.HTML, links.CSV)
	}
	for _, u := range []string{links.HTML, links.CSV} {
		res, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("GET %s without a key: %d", u, res.StatusCode)
		}
	}
}
