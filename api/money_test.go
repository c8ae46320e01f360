package api_test

// Money after a correction: payments are facts, settlements are versions.
// Three evenings are closed, partly paid and then corrected by an admin;
// the new settlement version must settle what is still open, counting
// every payment made, refunds included.

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// settled is a closed session's settlement as the API shows it.
type settled struct {
	version   int
	kitty     int64 // kitty_cents
	kittyOpen int64
	players   map[int64]playerMoney
	transfers []transfer
}

type playerMoney struct{ settle, paid, received, open int64 }

type transfer struct {
	id       int64
	from, to int64 // 0 is the kitty
	cents    int64
	paid     bool
}

func (g *gameTable) money() settled {
	g.t.Helper()
	st := g.e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", g.session), g.e.admin, nil)
	m := settled{version: int(st["version"].(float64)), kitty: int64(st["kitty_cents"].(float64)),
		kittyOpen: int64(st["kitty_open_cents"].(float64)), players: map[int64]playerMoney{}}
	for _, p := range st["players"].([]any) {
		x := p.(map[string]any)
		m.players[int64(x["player_id"].(float64))] = playerMoney{
			settle: int64(x["settle_cents"].(float64)), paid: int64(x["paid_cents"].(float64)),
			received: int64(x["received_cents"].(float64)), open: int64(x["open_cents"].(float64))}
	}
	for _, t := range st["transfers"].([]any) {
		m.transfers = append(m.transfers, transferOf(t.(map[string]any)))
	}
	return m
}

func transferOf(x map[string]any) transfer {
	id := func(v any) int64 {
		if v == nil {
			return 0
		}
		return int64(v.(float64))
	}
	return transfer{id: id(x["id"]), from: id(x["from_player_id"]), to: id(x["to_player_id"]), cents: int64(x["cents"].(float64)), paid: x["paid"] == true}
}

// settles checks what a settlement version promises the treasurer: every
// player's open amount is what he settles plus what he paid minus what he
// received, the current transfers move exactly the open amounts, and all
// open amounts, the kitty's included, add up to zero.
func (m settled) settles(t *testing.T) {
	t.Helper()
	moved := map[int64]int64{}
	var kitty int64
	for _, tr := range m.transfers {
		if tr.paid {
			continue
		}
		moved[tr.from] -= tr.cents
		moved[tr.to] += tr.cents
	}
	var sum int64
	for id, p := range m.players {
		if p.open != p.settle+p.paid-p.received {
			t.Errorf("player %d: open %d, but settles %d, paid %d, received %d", id, p.open, p.settle, p.paid, p.received)
		}
		if moved[id] != p.open {
			t.Errorf("player %d: open %d, but the unpaid transfers give him %d", id, p.open, moved[id])
		}
		sum += p.open
	}
	kitty = moved[0]
	if kitty != m.kittyOpen {
		t.Errorf("the kitty is still owed %d, but the unpaid transfers give it %d", m.kittyOpen, kitty)
	}
	if sum+m.kittyOpen != 0 {
		t.Errorf("the players' open amounts sum to %d, the kitty's is %d: not 0 together", sum, m.kittyOpen)
	}
}

func (g *gameTable) pay(id int64) {
	g.t.Helper()
	got := g.e.must(200, "POST", fmt.Sprintf("/v1/transfers/%d/paid", id), g.e.admin, nil)
	if got["paid"] != true || got["current"] != true {
		g.t.Errorf("transfer %d after paying: %v", id, got)
	}
}

// correctAsAdmin corrects hand n of the closed evening with facts (void
// when facts is "").
func (g *gameTable) correctAsAdmin(n int, facts string) {
	g.t.Helper()
	rev := g.hand(n)["revision"]
	body := map[string]any{"reason": "nachgezählt"}
	if facts == "" {
		body["void"] = true
	} else {
		body["facts"] = g.facts(facts)
	}
	g.correct(n, fmt.Sprint(rev), body, 201)
}

func (g *gameTable) verify() {
	g.t.Helper()
	if err := postgres.Verify(context.Background(), g.e.pool, pgtest.ChainKey, ledger.ZeroSumGames(), nil); err != nil {
		g.t.Errorf("verify: %v", err)
	}
}

// TestAPaymentSurvivesACorrection: a Doppelkopf evening between players;
// one transfer is paid, then an admin corrects the last hand. The paid
// transfer stays paid (and cannot be paid again as part of the new
// version), the old version's unpaid transfers can no longer be paid, and
// the new version asks each player only for what is still open.
func TestAPaymentSurvivesACorrection(t *testing.T) {
	g := newGameTableWith(t, "doppelkopf", "", map[string]any{"stake_cents_per_point": "5"}, 4)
	g.open("2026-03-12", 1, 2, 3, 4)
	for _, facts := range gamestest.BockEvening {
		g.record(facts)
	}
	g.close()
	v1 := g.money()
	v1.settles(t)
	if len(v1.transfers) < 2 {
		t.Fatalf("version 1 has %d transfers", len(v1.transfers))
	}
	paid, unpaid := v1.transfers[0], v1.transfers[1]
	g.pay(paid.id)

	// Hand 12, the lost Kreuz-Solo of P3, was won (140 Augen).
	g.correctAsAdmin(12, `{"game":"farbsolo","suit":"kreuz","re":{"players":[P3],"augen":140}}`)
	v2 := g.money()
	if v2.version != 2 {
		t.Fatalf("after the correction the settlement is at version %d", v2.version)
	}
	v2.settles(t)
	if p := v2.players[paid.from]; p.paid != paid.cents {
		t.Errorf("the payer's payment of %d is credited as %d", paid.cents, p.paid)
	}
	if p := v2.players[paid.to]; p.received != paid.cents {
		t.Errorf("the payee's receipt of %d is credited as %d", paid.cents, p.received)
	}
	for _, tr := range v2.transfers {
		if tr.paid || tr.id == paid.id {
			t.Errorf("version 2 lists a paid transfer: %+v", tr)
		}
	}

	// The replaced version's unpaid transfer cannot be paid; its paid one
	// stays paid, listed with the payments.
	res := g.e.call("POST", fmt.Sprintf("/v1/transfers/%d/paid", unpaid.id), g.e.admin, nil)
	if res.status != 409 || res.json(t)["current_version"] != 2.0 {
		t.Errorf("paying a replaced transfer: %d %s, want 409 naming version 2", res.status, res.body)
	}
	g.e.must(200, "POST", fmt.Sprintf("/v1/transfers/%d/paid", paid.id), g.e.admin, nil) // again: harmless
	list := g.e.must(200, "GET", fmt.Sprintf("/v1/transfers?status=paid&session_id=%d", g.session), g.e.admin, nil)["transfers"].([]any)
	if len(list) != 1 || transferOf(list[0].(map[string]any)).id != paid.id || list[0].(map[string]any)["current"] != false {
		t.Errorf("the paid transfers: %v, want the one of version 1, not current", list)
	}
	open := g.e.must(200, "GET", fmt.Sprintf("/v1/transfers?status=open&session_id=%d", g.session), g.e.admin, nil)["transfers"].([]any)
	if len(open) != len(v2.transfers) {
		t.Errorf("%d open transfers listed, version 2 has %d", len(open), len(v2.transfers))
	}

	// Paying every open transfer settles the evening.
	for _, tr := range v2.transfers {
		g.pay(tr.id)
	}
	done := g.money()
	done.settles(t)
	for id, p := range done.players {
		if p.open != 0 {
			t.Errorf("player %d still has %d open after every transfer is paid", id, p.open)
		}
	}
	g.verify()
}

// TestARefundFromTheKitty: at Schwarze Sau every minus goes to the kitty.
// A player pays his minus; a correction halves his loss. The new version
// pays the difference back to him from the kitty, and the kitty's cash and
// receivable follow.
func TestARefundFromTheKitty(t *testing.T) {
	g := newGameTableWith(t, "schwarze_sau", "", map[string]any{"stake_cents_per_point": "1"}, 4)
	g.open("2025-03-09", 1, 2, 3, 4)
	for _, facts := range gamestest.SchwarzeSauMarch9 {
		g.record(facts)
	}
	g.close()
	v1 := g.money()
	v1.settles(t)
	// P2 lost 200 (hand 2) and 120 (the Durchmarsch): he pays 320 cents.
	var his transfer
	for _, tr := range v1.transfers {
		if tr.from == g.p(2) {
			his = tr
		}
	}
	if his.to != 0 || his.cents != 320 {
		t.Fatalf("P2's transfer %+v, want 320 cents into the kitty", his)
	}
	g.pay(his.id)
	kitty := g.e.must(200, "GET", "/v1/kitty", g.e.admin, nil)
	if kitty["cash_cents"] != 320.0 || kitty["total_cents"] != float64(v1.kitty) {
		t.Errorf("the kitty after P2 paid: cash %v, total %v; want 320, %d", kitty["cash_cents"], kitty["total_cents"], v1.kitty)
	}

	// Hand 2 voided: P2 owed only the 120 of the Durchmarsch.
	g.correctAsAdmin(2, "")
	v2 := g.money()
	v2.settles(t)
	var refund []transfer
	for _, tr := range v2.transfers {
		if tr.to == g.p(2) || tr.from == g.p(2) {
			refund = append(refund, tr)
		}
	}
	if len(refund) != 1 || refund[0].from != 0 || refund[0].cents != 200 {
		t.Errorf("P2's transfers in version 2: %+v, want 200 back from the kitty", refund)
	}
	kitty = g.e.must(200, "GET", "/v1/kitty", g.e.admin, nil)
	if kitty["cash_cents"] != 320.0 || kitty["total_cents"] != float64(v2.kitty) || kitty["receivable_cents"] != float64(v2.kitty-320) {
		t.Errorf("the kitty after the correction: cash %v, receivable %v, total %v; want 320, %d, %d",
			kitty["cash_cents"], kitty["receivable_cents"], kitty["total_cents"], v2.kitty-320, v2.kitty)
	}
	g.verify()
}

// TestWhatWasPaidIsNotAskedAgain: a player who paid all he owed is asked
// for nothing more when a correction leaves his money as it was.
func TestWhatWasPaidIsNotAskedAgain(t *testing.T) {
	g := newGameTableWith(t, "doppelkopf", "", map[string]any{"stake_cents_per_point": "5"}, 4)
	g.open("2026-03-12", 1, 2, 3, 4)
	for _, facts := range gamestest.BockEvening {
		g.record(facts)
	}
	g.close()
	v1 := g.money()
	payer := v1.transfers[0].from
	for _, tr := range v1.transfers {
		if tr.from == payer {
			g.pay(tr.id)
		}
	}
	// Hand 1 with 140 Augen instead of 150 scores the same.
	g.correctAsAdmin(1, `{"game":"normal","re":{"players":[P1,P2],"augen":140}}`)
	v2 := g.money()
	if v2.version != 2 {
		t.Fatalf("the settlement is at version %d, want 2", v2.version)
	}
	v2.settles(t)
	if p := v2.players[payer]; p.open != 0 {
		t.Errorf("the payer is still asked for %d after paying everything", p.open)
	}
	for _, tr := range v2.transfers {
		if tr.from == payer || tr.to == payer {
			t.Errorf("version 2 has a transfer of the payer who settled: %+v", tr)
		}
	}
	bal := g.e.must(200, "GET", fmt.Sprintf("/v1/players/%d/balance", payer), g.e.admin, nil)
	if bal["owes_cents"] != 0.0 || bal["paid_cents"] == 0.0 || len(bal["open"].([]any)) != 0 {
		t.Errorf("the payer's balance: %v", bal)
	}
	g.verify()
}

// TestOpenDebtsAreFoundByPlayerAndDate lists the club's transfers over two
// evenings on two dates: by player (from or to him), by the sessions'
// dates, and page by page, every filter giving exactly the transfers it
// names.
func TestOpenDebtsAreFoundByPlayerAndDate(t *testing.T) {
	g := newGameTableWith(t, "doppelkopf", "", map[string]any{"stake_cents_per_point": "5"}, 4)
	sessions := map[string]int64{}
	for _, date := range []string{"2026-03-12", "2026-03-19"} {
		g.open(date, 1, 2, 3, 4)
		for _, facts := range gamestest.BockEvening {
			g.record(facts)
		}
		g.close()
		sessions[date] = g.session
	}
	list := func(query string) []transfer {
		t.Helper()
		var out []transfer
		for _, x := range g.e.must(200, "GET", "/v1/transfers?"+query, g.e.admin, nil)["transfers"].([]any) {
			out = append(out, transferOf(x.(map[string]any)))
		}
		return out
	}
	all := list("status=open")
	if len(all) < 4 {
		t.Fatalf("%d open transfers over two evenings, want at least 4", len(all))
	}
	for _, p := range g.players {
		mine := list(fmt.Sprintf("status=open&player_id=%d", p))
		var want []transfer
		for _, tr := range all {
			if tr.from == p || tr.to == p {
				want = append(want, tr)
			}
		}
		if !sameTransfers(mine, want) {
			t.Errorf("player %d's transfers: %v, want %v", p, mine, want)
		}
	}
	first := list("status=open&from=2026-03-12&to=2026-03-18")
	second := list("status=open&from=2026-03-13")
	if len(first) == 0 || len(second) == 0 || len(first)+len(second) != len(all) {
		t.Errorf("by date: %d on the 12th, %d from the 13th, %d in all", len(first), len(second), len(all))
	}
	bySession := list(fmt.Sprintf("status=open&session_id=%d", sessions["2026-03-12"]))
	if !sameTransfers(first, bySession) {
		t.Errorf("the 12th's transfers by date %v and by session %v differ", first, bySession)
	}
	var paged []transfer
	for after := int64(0); ; {
		page := list(fmt.Sprintf("status=open&limit=1&after=%d", after))
		if len(page) == 0 {
			break
		}
		if len(page) != 1 {
			t.Fatalf("limit=1 gave %d transfers", len(page))
		}
		paged = append(paged, page[0])
		after = page[0].id
	}
	if !sameTransfers(paged, all) {
		t.Errorf("page by page: %v, all at once: %v", paged, all)
	}
}

// sameTransfers reports whether a and b hold the same transfers in the
// same order.
func sameTransfers(a, b []transfer) bool {
	return slices.Equal(a, b)
}
