package api_test

import (
	"encoding/csv"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/money"
)

// doppelkopfEvening creates four players and a Doppelkopf table at half a
// cent per point, opens a session on date and records n normal games.
func (e *env) doppelkopfEvening(table string, date string, n int, players []int64) (tableID, sessionID int64) {
	e.t.Helper()
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": table, "game": "doppelkopf", "stake_cents_per_point": "1/2"})
	tableID = int64(tbl["id"].(float64))
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", tableID), e.admin, map[string]any{"date": date, "player_ids": players})
	sessionID = int64(s["id"].(float64))
	for i := range n {
		e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", tableID), e.admin, map[string]any{"session_id": sessionID, "number": i + 1, "facts": doppelkopfFacts(i, players)})
	}
	return tableID, sessionID
}

// doppelkopfFacts are the facts of the evening's hand i (from 0): normal
// games, Re the players i and i+2 of the four, the Augen and announcements
// of a cycle of ten.
func doppelkopfFacts(i int, players []int64) map[string]any {
	augen := []int{187, 100, 121, 150, 60, 120, 205, 91, 130, 170}
	announced := []string{"none", "re", "none", "keine90", "none", "none", "re", "none", "none", "none"}
	re := []int64{players[i%4], players[(i+2)%4]}
	return map[string]any{"game": "normal", "re": map[string]any{"players": re, "augen": augen[i%len(augen)], "announced": announced[i%len(announced)]}}
}

func (e *env) players(names ...string) []int64 {
	e.t.Helper()
	var ids []int64
	for _, name := range names {
		p := e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": name})
		ids = append(ids, int64(p["id"].(float64)))
	}
	return ids
}

func TestFortyHandEveningReportsAgreeToTheCent(t *testing.T) {
	e := newEnv(t)
	players := e.players("Anna", "Bernd", "Clara", "Dieter")
	_, session := e.doppelkopfEvening("Doko", "2026-11-19", 40, players)

	// Provisional while open.
	st := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", session), e.admin, nil)
	if st["final"] != false || st["version"] != 0.0 {
		t.Errorf("open session's settlement: final %v version %v, want provisional", st["final"], st["version"])
	}
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", session), e.admin, nil)
	st = e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", session), e.admin, nil)
	if st["final"] != true || st["version"] != 1.0 {
		t.Fatalf("closed session's settlement: final %v version %v", st["final"], st["version"])
	}
	if rules, _ := st["rules"].(map[string]any); rules["preset"] != "house" || st["stake_cents_per_point"] != "1/2" {
		t.Errorf("the stored settlement lacks the rules or stake that produced it: %v %v", st["rules"], st["stake_cents_per_point"])
	}

	// JSON: the money follows the points at half a cent and sums to zero.
	report := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/report", session), e.admin, nil)
	if hands := report["hands"].([]any); len(hands) != 40 {
		t.Fatalf("report has %d hands, want 40", len(hands))
	}
	nets := map[string]int64{}
	var sum int64
	for _, p := range report["settlement"].(map[string]any)["players"].([]any) {
		pm := p.(map[string]any)
		net := int64(pm["net_cents"].(float64))
		nets[pm["name"].(string)] = net
		sum += net
	}
	if sum != 0 {
		t.Errorf("a Doppelkopf evening's money sums to %d cents, want 0", sum)
	}

	// CSV: the same nets, to the cent.
	res := e.call("GET", fmt.Sprintf("/v1/sessions/%d/report?format=csv", session), e.admin, nil)
	if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", res.status, res.header.Get("Content-Type"))
	}
	body, bom := strings.CutPrefix(string(res.body), "\ufeff")
	if !bom {
		t.Error("csv: no byte order mark, Excel would not read it as UTF-8")
	}
	r := csv.NewReader(strings.NewReader(body))
	r.Comma, r.FieldsPerRecord = ';', -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("csv does not parse: %v", err)
	}
	found := 0
	for _, row := range rows {
		if len(row) < 8 {
			continue
		}
		if want, ok := nets[row[0]]; ok { // the money block: "Netto Cent" is the seventh column
			if got, err := strconv.ParseInt(row[6], 10, 64); err == nil && got == want {
				found++
			}
		}
	}
	if found != 4 {
		t.Errorf("csv shows %d of 4 players' nets as in the JSON %v:\n%s", found, nets, res.body)
	}

	// HTML by Accept: every player's net in German money.
	res = e.call("GET", fmt.Sprintf("/v1/sessions/%d/report", session), e.admin, nil, "Accept", "text/html")
	if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/html") {
		t.Fatalf("html: %d %s", res.status, res.header.Get("Content-Type"))
	}
	page := string(res.body)
	for name, net := range nets {
		if !strings.Contains(page, money.FormatEUR(net)) {
			t.Errorf("html lacks %s's net %s", name, money.FormatEUR(net))
		}
	}
	if n := strings.Count(page, `class="player-line"`); n != 4 {
		t.Errorf("html chart has %d player lines, want 4", n)
	}

	// A closed evening takes no more hands.
	e.must(409, "POST", fmt.Sprintf("/v1/tables/%d/hands", int64(report["table"].(map[string]any)["id"].(float64))), e.admin,
		map[string]any{"session_id": session, "number": 41, "facts": map[string]any{"game": "schmeissen"}})
}

func TestDebtsCarryOverAndTheKittyBalances(t *testing.T) {
	e := newEnv(t)
	players := e.players("Anna", "Bernd", "Clara", "Dieter")
	table, first := e.doppelkopfEvening("Doko", "2026-11-19", 8, players)
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", first), e.admin, nil)
	st := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", first), e.admin, nil)
	transfers := st["transfers"].([]any)
	if len(transfers) < 2 {
		t.Fatalf("expected at least two transfers, got %v", transfers)
	}
	paid := transfers[0].(map[string]any)
	paidID := int64(paid["id"].(float64))
	got := e.must(200, "POST", fmt.Sprintf("/v1/transfers/%d/paid", paidID), e.admin, nil)
	if got["paid"] != true {
		t.Errorf("transfer not paid: %v", got)
	}
	e.must(200, "POST", fmt.Sprintf("/v1/transfers/%d/paid", paidID), e.admin, nil) // again: harmless
	reader := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})["secret"].(string)
	e.must(403, "POST", fmt.Sprintf("/v1/transfers/%d/paid", paidID), reader, nil)

	// The next evening's report carries the unpaid ones, not the paid one.
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", table), e.admin, map[string]any{"date": "2026-11-26", "player_ids": players})
	second := int64(s["id"].(float64))
	report := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/report", second), reader, nil)
	debts := report["open_debts"].([]any)
	if len(debts) != len(transfers)-1 {
		t.Errorf("%d open debts carried over, want %d", len(debts), len(transfers)-1)
	}
	for _, d := range debts {
		if int64(d.(map[string]any)["id"].(float64)) == paidID {
			t.Error("a paid transfer is carried over as a debt")
		}
	}

	// The kitty: manual bookings are cash; this evening settled between
	// players owes the kitty nothing.
	e.must(201, "POST", "/v1/kitty/bookings", e.admin, map[string]any{"cents": -8000, "note": "Grillabend"})
	e.must(201, "POST", "/v1/kitty/bookings", e.admin, map[string]any{"cents": 2550, "note": "Spende"})
	e.must(422, "POST", "/v1/kitty/bookings", e.admin, map[string]any{"cents": 0, "note": "nichts"})
	e.must(403, "POST", "/v1/kitty/bookings", reader, map[string]any{"cents": 100, "note": "x"})
	kitty := e.must(200, "GET", "/v1/kitty", reader, nil)
	var sum int64
	for _, b := range kitty["cash"].([]any) {
		sum += int64(b.(map[string]any)["cents"].(float64))
	}
	if cash := int64(kitty["cash_cents"].(float64)); cash != sum || cash != -5450 {
		t.Errorf("kitty cash %d, movements sum %d, want both -5450", cash, sum)
	}
	if r, total := kitty["receivable_cents"].(float64), kitty["total_cents"].(float64); r != 0 || total != -5450 {
		t.Errorf("kitty receivable %v, total %v; want 0 and -5450", r, total)
	}

	// The club evening report joins the sessions of one date.
	evening := e.must(200, "GET", "/v1/reports/evening?date=2026-11-19", reader, nil)
	if n := len(evening["sessions"].([]any)); n != 1 {
		t.Errorf("evening report of the 19th has %d sessions, want 1", n)
	}
	e.must(422, "GET", "/v1/reports/evening?date=gestern", reader, nil)
	res := e.call("GET", "/v1/reports/evening?date=2026-11-19&format=html", reader, nil)
	if res.status != 200 || !strings.Contains(string(res.body), "Anna") {
		t.Errorf("evening html: %d", res.status)
	}
}

func TestKittyModeSettlesEveryoneWithTheKitty(t *testing.T) {
	e := newEnv(t)
	players := e.players("Anna", "Bernd", "Clara", "Dieter")
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Kasse", "game": "doppelkopf", "stake_cents_per_point": "10", "settle_mode": "losers_to_kitty"})
	if tbl["settle_mode"] != "losers_to_kitty" {
		t.Fatalf("settle mode %v", tbl["settle_mode"])
	}
	e.must(422, "POST", "/v1/tables", e.admin, map[string]any{"name": "X", "game": "doppelkopf", "settle_mode": "irgendwie"})
	id := int64(tbl["id"].(float64))
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", id), e.admin, map[string]any{"date": "2026-11-19", "player_ids": players})
	session := int64(s["id"].(float64))
	// Re (Anna, Clara) wins 187:53, keine 90: value 3, x10 cents.
	e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", id), e.admin, map[string]any{"session_id": session, "number": 1,
		"facts": map[string]any{"game": "normal", "re": map[string]any{"players": []int64{players[0], players[2]}, "augen": 187}}})
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", session), e.admin, nil)
	st := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", session), e.admin, nil)
	for _, tr := range st["transfers"].([]any) {
		m := tr.(map[string]any)
		if m["to_player_id"] != nil {
			t.Errorf("losers_to_kitty pays someone other than the kitty: %v", m)
		}
	}
	if k := st["kitty_cents"].(float64); k != 60 {
		t.Errorf("kitty gets %v cents, want 60 (two losers x 3 points x 10 cents)", k)
	}
	// Nobody has paid yet: the kitty is owed 60 cents and holds nothing;
	// once one loser pays, 30 are cash and 30 still owed.
	kittyIs := func(cash, receivable float64) {
		t.Helper()
		k := e.must(200, "GET", "/v1/kitty", e.admin, nil)
		if k["cash_cents"] != cash || k["receivable_cents"] != receivable || k["total_cents"] != cash+receivable {
			t.Errorf("kitty cash %v, receivable %v, total %v; want %v, %v, %v", k["cash_cents"], k["receivable_cents"], k["total_cents"], cash, receivable, cash+receivable)
		}
	}
	kittyIs(0, 60)
	first := st["transfers"].([]any)[0].(map[string]any)
	e.must(200, "POST", fmt.Sprintf("/v1/transfers/%v/paid", first["id"]), e.admin, nil)
	kittyIs(30, 30)
}

// BenchmarkSessionReport60Hands measures building a 60-hand evening's
// report through the API: reading the hands, settling, rendering.
func BenchmarkSessionReport60Hands(b *testing.B) {
	e := newEnv(b)
	players := e.players("Anna", "Bernd", "Clara", "Dieter")
	_, session := e.doppelkopfEvening("Doko", "2026-11-19", 60, players)
	for _, format := range []string{"json", "csv", "html"} {
		b.Run(format, func(b *testing.B) {
			path := fmt.Sprintf("/v1/sessions/%d/report?format=%s", session, format)
			e.call("GET", path, e.admin, nil) // once through the contract check
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("GET", path, nil)
				req.Header.Set("Authorization", "Bearer "+e.admin)
				rec := httptest.NewRecorder()
				e.server.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}
