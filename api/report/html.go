package report

import (
	"cmp"
	"embed"
	"html/template"
	"io"
	"slices"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

//go:embed templates/*.tmpl
var templateFiles embed.FS

// pages holds the parsed templates: "report.html.tmpl", "evening.html.tmpl"
// and the shared "style" and "chart" definitions.
var pages = template.Must(template.New("").ParseFS(templateFiles, "templates/*.tmpl"))

// HTML writes a session's report as one printable, self-contained HTML
// page in German: the title (club, table, game, date as 21.11.2026), the
// score sheet like the paper list (Bock hands badged "B" and classed
// "bock", events and payouts noted with their text), the standings, the
// money per player, the payouts, the transfers or kitty lines with paid or
// open, the open debts of earlier evenings and an inline SVG chart with one
// polyline class="player-line" data-player="<id>" per player. Every text
// is HTML-escaped. An evening without hands still renders, its chart
// saying there is nothing to draw. On error, w may hold part of the page.
func HTML(w io.Writer, r ledger.Report) error {
	return pages.ExecuteTemplate(w, "report.html.tmpl", newReportView(r))
}

// EveningHTML writes a club evening's report as one printable,
// self-contained HTML page: per player the tables, hands and net money of
// the evening, then one block per table with its money and transfers, and
// the kitty's total. Every text is HTML-escaped. On error, w may hold part
// of the page.
func EveningHTML(w io.Writer, r ledger.EveningReport) error {
	return pages.ExecuteTemplate(w, "evening.html.tmpl", newEveningView(r))
}

// reportView is everything report.html.tmpl shows, formatted.
type reportView struct {
	Club, Table, Game, Date string
	Provisional             bool
	Players                 []string
	Rows                    []rowView
	Totals                  []cellView
	Standings               []standingView
	Money                   moneyTable
	Payouts                 []payoutView
	Transfers               []transferView
	Kitty                   string
	OpenDebts               []transferView
	Chart                   chart
}

// rowView is one hand of the score sheet.
type rowView struct {
	Number int
	Dealer string
	Title  string
	Bock   bool
	Payout bool
	Notes  []string
	Cells  []cellView // per player: points and running total
}

// cellView is one player's points of a hand and total after it.
type cellView struct {
	Points, Running       string
	PointsNeg, RunningNeg bool
}

// standingView is one line of the standings.
type standingView struct {
	Rank   int
	Name   string
	Points string
	Neg    bool
	Hands  int
}

// moneyTable is the money per player with its sums and how it settles.
type moneyTable struct {
	Stake string
	Mode  string
	Rows  []moneyView
	Sum   moneyView
}

// moneyView is one player's money, formatted.
type moneyView struct {
	Name, Points, PointsEUR, PayoutEUR, NetEUR string
	NetNeg                                     bool
}

// payoutView is one payout of a hand.
type payoutView struct {
	Hand     int
	Text     string
	From, To string
	Amount   string
}

// transferView is one transfer, formatted.
type transferView struct {
	From, To string
	Amount   string
	Paid     bool
	PaidAt   string
	Session  int64
}

// newReportView formats a session report for the page.
func newReportView(r ledger.Report) reportView {
	n := reportNames(r)
	rows := sheet(len(r.Players), r.Hands)
	v := reportView{
		Club: r.Club.Name, Table: r.Table.Name, Game: gameName(reportGame(r)), Date: formatDate(reportDate(r)),
		Provisional: !r.Settlement.Final,
		Rows:        handRows(rows, r.Settlement.Payouts, n),
		Totals:      totalCells(finalTotals(len(r.Players), rows)),
		Standings:   standings(r.Standings, n),
		Money:       money(r.Settlement, n),
		Payouts:     payoutViews(r.Settlement.Payouts, n),
		Transfers:   transferViews(r.Settlement.Transfers, n, r.Club.TimeZone),
		Kitty:       kittyText(r.Settlement.KittyCents),
		OpenDebts:   transferViews(r.OpenDebts, n, r.Club.TimeZone),
		Chart:       buildChart(r.Players, rows),
	}
	for _, p := range r.Players {
		v.Players = append(v.Players, p.Name)
	}
	return v
}

// handRows formats the score sheet's rows, noting each hand's events and
// marking the hands that moved money as payouts.
func handRows(rows []sheetRow, payouts []ledger.Payout, n names) []rowView {
	paid := make(map[int]bool, len(payouts))
	for _, p := range payouts {
		paid[p.Hand] = true
	}
	out := make([]rowView, len(rows))
	for k, row := range rows {
		h := row.hand
		out[k] = rowView{
			Number: h.Number, Dealer: n.dealer(h.Dealer), Title: h.Title,
			Bock: h.Bock, Payout: paid[h.Number], Notes: notes(h.Events),
			Cells: cells(row.points, row.running),
		}
	}
	return out
}

// notes are the texts of a hand's events, empty ones left out.
func notes(events []score.Event) []string {
	var out []string
	for _, ev := range events {
		if ev.Text != "" {
			out = append(out, ev.Text)
		}
	}
	return out
}

// cells pairs each player's points with the running total.
func cells(points, running []score.Points) []cellView {
	out := make([]cellView, len(points))
	for i := range points {
		out[i] = cellView{
			Points: formatPoints(points[i]), PointsNeg: points[i].Sign() < 0,
			Running: formatPoints(running[i]), RunningNeg: running[i].Sign() < 0,
		}
	}
	return out
}

// totalCells formats the final totals as the running totals of cells.
func totalCells(totals []score.Points) []cellView {
	out := make([]cellView, len(totals))
	for i, t := range totals {
		out[i] = cellView{Running: formatPoints(t), RunningNeg: t.Sign() < 0}
	}
	return out
}

// standings ranks the players by points, best first; equal points share
// a rank, and ties keep the given order.
func standings(ss []ledger.Standing, n names) []standingView {
	sorted := slices.Clone(ss)
	slices.SortStableFunc(sorted, func(a, b ledger.Standing) int { return b.Points.Cmp(a.Points) })
	out := make([]standingView, len(sorted))
	for i, s := range sorted {
		rank := i + 1
		if i > 0 && s.Points.Cmp(sorted[i-1].Points) == 0 {
			rank = out[i-1].Rank
		}
		name := cmp.Or(s.Name, n.of(s.Player))
		out[i] = standingView{Rank: rank, Name: name, Points: formatPoints(s.Points), Neg: s.Points.Sign() < 0, Hands: s.Hands}
	}
	return out
}

// money formats the money per player with a sum row.
func money(st ledger.Settlement, n names) moneyTable {
	t := moneyTable{Stake: formatPoints(st.Stake) + " Cent je Punkt", Mode: modeName(st.Mode)}
	var points score.Points
	var pointsCents, payoutCents, netCents int64
	for _, p := range st.Players {
		t.Rows = append(t.Rows, moneyRow(cmp.Or(p.Name, n.of(p.Player)), p.Points, p.PointsCents, p.PayoutCents, p.NetCents))
		points = points.Add(p.Points)
		pointsCents += p.PointsCents
		payoutCents += p.PayoutCents
		netCents += p.NetCents
	}
	t.Sum = moneyRow("Summe", points, pointsCents, payoutCents, netCents)
	return t
}

// moneyRow formats one line of the money table.
func moneyRow(name string, points score.Points, pointsCents, payoutCents, netCents int64) moneyView {
	return moneyView{
		Name: name, Points: formatPoints(points), PointsEUR: formatEUR(pointsCents),
		PayoutEUR: formatEUR(payoutCents), NetEUR: formatEUR(netCents), NetNeg: netCents < 0,
	}
}

// payoutViews formats the payouts of the evening's hands.
func payoutViews(ps []ledger.Payout, n names) []payoutView {
	out := make([]payoutView, len(ps))
	for i, p := range ps {
		out[i] = payoutView{Hand: p.Hand, Text: p.Text, From: n.of(p.From), To: n.party(p.To), Amount: formatEUR(p.Cents)}
	}
	return out
}

// transferViews formats transfers, naming the kitty "Kasse".
func transferViews(ts []ledger.Transfer, n names, zone string) []transferView {
	out := make([]transferView, len(ts))
	for i, t := range ts {
		out[i] = transferView{
			From: n.party(t.From), To: n.party(t.To), Amount: formatEUR(t.Cents),
			Paid: t.Paid, PaidAt: formatPaidAt(t.PaidAt, zone), Session: t.SessionID,
		}
	}
	return out
}

// kittyText says what the evening does to the club's kitty.
func kittyText(cents int64) string {
	switch {
	case cents > 0:
		return "In die Kasse: " + formatEUR(cents)
	case cents < 0:
		return "Aus der Kasse: " + formatEUR(-cents)
	}
	return "Die Kasse bleibt unberührt."
}

// eveningView is everything evening.html.tmpl shows, formatted.
type eveningView struct {
	Club, Date string
	Players    []eveningPlayerView
	NetSum     string
	Tables     []eveningTableView
	Kitty      string
}

// eveningPlayerView is one player's evening over all tables.
type eveningPlayerView struct {
	Name            string
	Sessions, Hands int
	Net             string
	Neg             bool
}

// eveningTableView is one session of the evening.
type eveningTableView struct {
	Table, Game string
	Session     int64
	Provisional bool
	Money       moneyTable
	Transfers   []transferView
	Kitty       string
}

// newEveningView formats an evening report for the page.
func newEveningView(r ledger.EveningReport) eveningView {
	n := eveningNames(r)
	v := eveningView{Club: r.Club.Name, Date: formatDate(r.Date), Kitty: kittyText(r.KittyCents)}
	var net int64
	for _, p := range r.Players {
		v.Players = append(v.Players, eveningPlayerView{
			Name: cmp.Or(p.Name, n.of(p.Player)), Sessions: p.Sessions, Hands: p.Hands,
			Net: formatEUR(p.NetCents), Neg: p.NetCents < 0,
		})
		net += p.NetCents
	}
	v.NetSum = formatEUR(net)
	for _, s := range r.Sessions {
		v.Tables = append(v.Tables, eveningTableView{
			Table: s.Table.Name, Game: gameName(cmp.Or(s.Table.Game, s.Settlement.Game)), Session: s.Session.ID,
			Provisional: !s.Settlement.Final, Money: money(s.Settlement, n),
			Transfers: transferViews(s.Settlement.Transfers, n, r.Club.TimeZone), Kitty: kittyText(s.Settlement.KittyCents),
		})
	}
	return v
}
