package report

import (
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Players of the example evening; Chris's name must come out escaped.
const (
	anna   = int64(1)
	bernd  = int64(2)
	chris  = int64(3)
	doerte = int64(4)

	evilName = `Chris <script>alert("x")</script>`
)

func ptr(id int64) *int64 { return &id }

// exampleHand is one hand of the example with its points in seating order.
type exampleHand struct {
	dealer int64
	title  string
	points []score.Points
	bock   bool
	events []score.Event
}

// exampleReport is a 4-player, 5-hand Doppelkopf evening built by hand:
// fractional points (14/3, -7/2, -7/6), a Bock hand (3), a payout of
// 50 cents into the kitty (hand 3), transfers to players and one to the
// kitty, one of them paid, and an open debt of 1.234,56 € from session 7.
//
// Running totals after hand 5: Anna 19/6, Bernd 6, Chris -31/6, Dörte -4.
func exampleReport() ledger.Report {
	players := []ledger.Player{{ID: anna, Name: "Anna"}, {ID: bernd, Name: "Bernd"}, {ID: chris, Name: evilName}, {ID: doerte, Name: "Dörte"}}
	f, i := score.Frac, score.Int
	hands := []exampleHand{
		{dealer: anna, title: "Solo, Re gewinnt 187:53", points: []score.Points{f(14, 3), f(-7, 2), f(-7, 6), i(0)},
			events: []score.Event{{Type: "bock_queued", Text: "Bockrunde kommt"}}},
		{dealer: bernd, title: "Normalspiel", points: []score.Points{i(-2), i(6), i(-2), i(-2)}},
		{dealer: chris, title: "Hochzeit", points: []score.Points{i(1), i(1), i(-1), i(-1)}, bock: true,
			events: []score.Event{{Type: "bock_game", Text: "Bockspiel"}, {Type: "payout", Text: "Schwarze Sau: Dörte zahlt 0,50 € in die Kasse", Players: []int64{doerte}, Amount: 50}}},
		{dealer: doerte, title: "Armut", points: []score.Points{f(-7, 2), f(7, 2), i(0), i(0)}},
		{dealer: anna, title: "Normalspiel, Kontra gewinnt", points: []score.Points{i(3), i(-1), i(-1), i(-1)}},
	}
	r := ledger.Report{
		Club:    ledger.Club{ID: 1, Name: "Skatfreunde Köln-Süd & Co.", TimeZone: "Europe/Berlin"},
		Table:   ledger.Table{ID: 9, Name: "Tisch 1", Game: "doppelkopf", Stake: i(500), SettleMode: ledger.SettleTransfers},
		Session: ledger.Session{ID: 12, TableID: 9, Date: "2026-11-21", Seating: []int64{anna, bernd, chris, doerte}},
		Players: players,
		Standings: []ledger.Standing{
			{Player: anna, Name: "Anna", Points: f(19, 6), Hands: 5},
			{Player: bernd, Name: "Bernd", Points: i(6), Hands: 5},
			{Player: chris, Name: evilName, Points: f(-31, 6), Hands: 5},
			{Player: doerte, Name: "Dörte", Points: i(-4), Hands: 5},
		},
		OpenDebts: []ledger.Transfer{{ID: 3, SessionID: 7, From: ptr(bernd), To: ptr(anna), Cents: 123456}},
	}
	running := make([]score.Points, len(players))
	for k, h := range hands {
		for j, p := range h.points {
			running[j] = running[j].Add(p)
		}
		r.Hands = append(r.Hands, ledger.ReportHand{
			Number: k + 1, Dealer: h.dealer, Title: h.title, Points: h.points,
			Running: append([]score.Points(nil), running...), Bock: h.bock, Events: h.events,
		})
	}
	paidAt := time.Date(2026, 11, 21, 20, 30, 0, 0, time.UTC)
	r.Settlement = ledger.Settlement{
		SessionID: 12, TableID: 9, Version: 1, Final: true, Date: "2026-11-21", Game: "doppelkopf",
		Stake: i(500), Mode: ledger.SettleTransfers,
		Players: []ledger.PlayerMoney{
			{Player: anna, Name: "Anna", Points: f(19, 6), PointsCents: 1583, NetCents: 1583},
			{Player: bernd, Name: "Bernd", Points: i(6), PointsCents: 3000, NetCents: 3000},
			{Player: chris, Name: evilName, Points: f(-31, 6), PointsCents: -2583, NetCents: -2583},
			{Player: doerte, Name: "Dörte", Points: i(-4), PointsCents: -2000, PayoutCents: -50, NetCents: -2050},
		},
		Payouts: []ledger.Payout{{Hand: 3, Type: "payout", Text: "Schwarze Sau: Dörte zahlt 0,50 € in die Kasse", From: doerte, Cents: 50}},
		Transfers: []ledger.Transfer{
			{ID: 20, SessionID: 12, From: ptr(chris), To: ptr(bernd), Cents: 2583, Paid: true, PaidAt: &paidAt},
			{ID: 21, SessionID: 12, From: ptr(doerte), To: ptr(bernd), Cents: 417},
			{ID: 22, SessionID: 12, From: ptr(doerte), To: ptr(anna), Cents: 1583},
			{ID: 23, SessionID: 12, From: ptr(doerte), To: nil, Cents: 50},
		},
		KittyCents: 50,
	}
	return r
}

// exampleEvening joins the example session with a second table settled
// with the kitty, where Anna and a guest played 3 hands.
func exampleEvening() ledger.EveningReport {
	r := exampleReport()
	second := ledger.EveningTable{
		Table:   ledger.Table{ID: 10, Name: "Tisch 2", Game: "schwarze_sau", SettleMode: ledger.SettleKitty},
		Session: ledger.Session{ID: 13, TableID: 10, Date: "2026-11-21"},
		Settlement: ledger.Settlement{
			SessionID: 13, TableID: 10, Final: false, Date: "2026-11-21", Game: "schwarze_sau", Stake: score.Frac(1, 2), Mode: ledger.SettleKitty,
			Players: []ledger.PlayerMoney{
				{Player: anna, Name: "Anna", Points: score.Int(-120), PointsCents: -60, NetCents: -60},
				{Player: 5, Name: "Gast Emil", Points: score.Int(-30), PointsCents: -15, NetCents: -15},
			},
			Transfers: []ledger.Transfer{
				{SessionID: 13, From: ptr(anna), Cents: 60},
				{SessionID: 13, From: ptr(5), Cents: 15},
			},
			KittyCents: 75,
		},
	}
	return ledger.EveningReport{
		Club: r.Club, Date: "2026-11-21",
		Sessions: []ledger.EveningTable{{Table: r.Table, Session: r.Session, Settlement: r.Settlement}, second},
		Players: []ledger.EveningPlayer{
			{Player: anna, Name: "Anna", Sessions: 2, Hands: 8, NetCents: 1523},
			{Player: bernd, Name: "Bernd", Sessions: 1, Hands: 5, NetCents: 3000},
			{Player: chris, Name: evilName, Sessions: 1, Hands: 5, NetCents: -2583},
			{Player: doerte, Name: "Dörte", Sessions: 1, Hands: 5, NetCents: -2050},
			{Player: 5, Name: "Gast Emil", Sessions: 1, Hands: 3, NetCents: -15},
		},
		KittyCents: 125,
	}
}

// longReport is a 60-hand, 4-player evening for the benchmark, with
// thirds and halves so the totals stay fractional.
func longReport(hands int) ledger.Report {
	r := exampleReport()
	r.Hands = nil
	running := make([]score.Points, 4)
	for k := range hands {
		pts := []score.Points{score.Frac(int64(k%7)-3, 3), score.Frac(int64(k%5)-2, 2), score.Int(int64(k%3) - 1), score.Int(0)}
		pts[3] = score.Sum(pts[0], pts[1], pts[2]).Neg()
		for j, p := range pts {
			running[j] = running[j].Add(p)
		}
		r.Hands = append(r.Hands, ledger.ReportHand{
			Number: k + 1, Dealer: int64(k%4) + 1, Title: "Normalspiel", Points: pts,
			Running: append([]score.Points(nil), running...), Bock: k%9 == 0, Events: []score.Event{},
		})
	}
	return r
}

// eveningOfFive is a 20-hand Doppelkopf evening of five players, as the
// print test needs it: each hand's dealer sits out, every third hand
// notes a Bock round, hand 7 is corrected (revision 2) and hand 12
// voided, and the settlement is version 2 with payments made on version
// 1, one of them in full and one in part.
func eveningOfFive() ledger.Report {
	players := []ledger.Player{{ID: 1, Name: "Anna"}, {ID: 2, Name: "Bernd"}, {ID: 3, Name: "Clara"}, {ID: 4, Name: "Dieter"}, {ID: 5, Name: "Elisabeth-Charlotte"}}
	r := ledger.Report{
		Club:    ledger.Club{ID: 1, Name: "Doppelkopfrunde Zum Goldenen Anker", TimeZone: "Europe/Berlin"},
		Table:   ledger.Table{ID: 3, Name: "Donnerstagstisch", Game: "doppelkopf", Stake: score.Int(10), SettleMode: ledger.SettleTransfers},
		Session: ledger.Session{ID: 40, TableID: 3, Date: "2026-11-19", Seating: []int64{1, 2, 3, 4, 5}},
		Players: players,
	}
	running := make([]score.Points, 5)
	titles := []string{"Normalspiel, Re gewinnt 151:89", "Normalspiel, Kontra gewinnt 132:108", "Kreuz-Solo von Clara gewonnen", "Hochzeit, Re gewinnt 190:50", "Armut, Kontra gewinnt 121:119"}
	for k := range 20 {
		dealer := int64(k%5) + 1
		row := ledger.ReportHand{Number: k + 1, Dealer: dealer, Title: titles[k%5], Points: make([]score.Points, 5),
			SatOut: []int64{dealer}, Revision: 1, Events: []score.Event{}}
		active := []int{}
		for i := range 5 {
			if int64(i+1) != dealer {
				active = append(active, i)
			}
		}
		v := int64(k%4 + 1)
		row.Points[active[0]], row.Points[active[1]] = score.Int(v), score.Int(v)
		row.Points[active[2]], row.Points[active[3]] = score.Int(-v), score.Int(-v)
		if k%3 == 2 {
			row.Events = append(row.Events, score.Event{Type: score.EventBockQueued, Text: "1 Bockrunde ausgelöst: Re und Kontra gesagt, 120:120 gespielt, Karlchen gefangen", Amount: 1})
		}
		if k%3 == 0 && k > 0 {
			row.Bock = true
			row.Events = append(row.Events, score.Event{Type: score.EventBockGame, Text: "Bockspiel (x2); 3 Bockspiele in dieser Runde übrig"})
		}
		switch k + 1 {
		case 7:
			row.Revision, row.Reason = 2, "Geber war Bernd"
		case 12:
			row.Revision, row.Void, row.Reason, row.Title = 2, true, "falsch gegeben", "annulliert"
			row.Points = make([]score.Points, 5)
		}
		for i, p := range row.Points {
			running[i] = running[i].Add(p)
		}
		row.Running = append([]score.Points(nil), running...)
		r.Hands = append(r.Hands, row)
	}
	for i, p := range players {
		r.Standings = append(r.Standings, ledger.Standing{Player: p.ID, Name: p.Name, Points: running[i], Hands: 16})
	}
	r.Standings = ledger.SortStandings(r.Standings)
	st := ledger.Settlement{SessionID: 40, TableID: 3, Version: 2, Final: true, Date: "2026-11-19", Game: "doppelkopf",
		Stake: score.Int(10), Mode: ledger.SettleTransfers}
	for i, p := range players {
		cents := running[i].Num() * 10
		pm := ledger.PlayerMoney{Player: p.ID, Name: p.Name, Points: running[i], Hands: 16, PointsCents: cents, NetCents: cents,
			BetweenPlayersCents: cents, SettleCents: cents, OpenCents: cents}
		st.Players = append(st.Players, pm)
	}
	st.Players[0].PaidCents, st.Players[0].OpenCents = 200, st.Players[0].OpenCents+200
	st.Players[1].ReceivedCents, st.Players[1].OpenCents = 200, st.Players[1].OpenCents-200
	paidAt := time.Date(2026, 11, 19, 23, 10, 0, 0, time.UTC)
	st.Transfers = []ledger.Transfer{
		{ID: 81, SessionID: 40, From: ptr(3), To: ptr(2), Cents: 300, Paid: true, PaidAt: &paidAt, Version: 2, Current: true},
		{ID: 82, SessionID: 40, From: ptr(5), To: ptr(1), Cents: 150, Version: 2, Current: true},
		{ID: 83, SessionID: 40, From: ptr(4), To: ptr(1), Cents: 90, Version: 2, Current: true},
	}
	st.Payouts = []ledger.Payout{}
	r.Settlement = st
	r.OpenDebts = []ledger.Transfer{{ID: 12, SessionID: 31, From: ptr(4), To: ptr(2), Cents: 480, Date: "2026-11-05"}}
	return r
}
