package report

import (
	"cmp"
	"embed"
	"html/template"
	"io"
	"slices"
	"strconv"

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
	// ShowPoints is false where the game keeps no points (a scored sheet:
	// Klaberjass); Second heads each player's second column: the running
	// total "Stand", or the sheet's figure ("Würfel", "Stand").
	ShowPoints bool
	Second     string
	// Span is the number of columns the notes row spans after the number.
	Span      int
	Summary   string
	Rows      []rowView
	Totals    []cellView
	Ranking   rankingView
	Money     moneyTable
	Version   string
	Payouts   []payoutView
	Transfers []transferView
	Kitty     string
	OpenDebts []transferView
	Chart     chart
}

// rowView is one hand of the score sheet.
type rowView struct {
	Number int
	Dealer string
	Title  string
	Bock   bool
	Payout bool
	Void   bool
	// Revision marks a corrected hand: "Korrektur, Fassung 2".
	Revision string
	Notes    []string
	Cells    []cellView // per player: points and running total or figure
}

// cellView is one player's points of a hand and total (or figure) after
// it; a player who sat the hand out shows "–" for his points.
type cellView struct {
	Points, Running       string
	PointsNeg, RunningNeg bool
	SatOut                bool
}

// moneyTable is the money per player with its sums and how it settles.
type moneyTable struct {
	Stake string
	Mode  string
	Rows  []moneyView
	Sum   moneyView
}

// moneyView is one player's money, formatted: what the evening gives him
// and what of it is paid, received and still open.
type moneyView struct {
	Name, Points, PointsEUR, PayoutEUR, NetEUR string
	Paid, Received, Open                       string
	NetNeg, OpenNeg                            bool
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
	Date     string
}

// newReportView formats a session report for the page.
func newReportView(r ledger.Report) reportView {
	n := reportNames(r)
	rows := reportSheet(r)
	scored := r.Sheet != nil && r.Sheet.Scored
	v := reportView{
		Club: r.Club.Name, Table: r.Table.Name, Game: gameName(reportGame(r)), Date: formatDate(reportDate(r)),
		Provisional: !r.Settlement.Final, ShowPoints: !scored, Second: "Stand",
		Rows:      handRows(rows, r.Settlement.Payouts, n, !scored),
		Totals:    totalCells(r, rows),
		Ranking:   ranking(r, n),
		Money:     money(r.Settlement, n),
		Version:   versionText(r.Settlement),
		Payouts:   payoutViews(r.Settlement.Payouts, n),
		Transfers: transferViews(r.Settlement.Transfers, n, r.Club.TimeZone),
		Kitty:     kittyText(r.Settlement.KittyCents),
		OpenDebts: transferViews(r.OpenDebts, n, r.Club.TimeZone),
		Chart:     buildChart(r.Players, rows),
	}
	if r.Sheet != nil {
		v.Second, v.Summary = r.Sheet.Heading, r.Sheet.Summary
	}
	if scored {
		v.Chart.Caption = "Verlauf des Abends: 6 je gewonnene Partie plus Würfel"
	}
	for _, p := range r.Players {
		v.Players = append(v.Players, p.Name)
	}
	v.Span = 2 + len(r.Players)
	if !scored {
		v.Span += len(r.Players)
	}
	return v
}

// handRows formats the score sheet's rows: each hand's events, the
// sheet's notes and why it was last revised go to its notes; the hands
// that moved money are marked as payouts.
func handRows(rows []sheetRow, payouts []ledger.Payout, n names, points bool) []rowView {
	paid := make(map[int]bool, len(payouts))
	for _, p := range payouts {
		paid[p.Hand] = true
	}
	out := make([]rowView, len(rows))
	for k, row := range rows {
		h := row.hand
		v := rowView{
			Number: h.Number, Dealer: n.dealer(h.Dealer), Title: h.Title, Void: h.Void,
			Bock: h.Bock, Payout: paid[h.Number], Notes: notes(h),
			Cells: cells(row, points),
		}
		if h.Revision > 1 && !h.Void {
			v.Revision = "Korrektur, Fassung " + strconv.Itoa(h.Revision)
		}
		out[k] = v
	}
	return out
}

// notes are what a hand's row says below it: why it was voided or last
// corrected, its events' texts and the sheet's notes, empty ones left
// out.
func notes(h ledger.ReportHand) []string {
	var out []string
	switch {
	case h.Void && h.Reason != "":
		out = append(out, "annulliert: "+h.Reason)
	case h.Revision > 1 && h.Reason != "":
		out = append(out, "Fassung "+strconv.Itoa(h.Revision)+": "+h.Reason)
	}
	for _, ev := range h.Events {
		if ev.Text != "" {
			out = append(out, ev.Text)
		}
	}
	for _, note := range h.Notes {
		if note != "" {
			out = append(out, note)
		}
	}
	return out
}

// cells pairs each player's points with the running total, or with his
// figure where the sheet has figures; a player who sat out shows "–".
func cells(row sheetRow, points bool) []cellView {
	out := make([]cellView, len(row.points))
	for i := range row.points {
		c := cellView{SatOut: row.satOut[i]}
		if points {
			c.Points, c.PointsNeg = formatPoints(row.points[i]), row.points[i].Sign() < 0
		}
		c.Running, c.RunningNeg = formatPoints(row.running[i]), row.running[i].Sign() < 0
		if f := row.figures[i]; f != nil {
			c.Running, c.RunningNeg = figureText(*f), f.Value.Sign() < 0
		} else if figuresShown(row) {
			c.Running, c.RunningNeg = "", false
		}
		if c.SatOut {
			c.Points, c.PointsNeg = "–", false
			if figuresShown(row) && row.figures[i] == nil {
				c.Running = "–"
			}
		}
		out[i] = c
	}
	return out
}

// figuresShown reports whether the row shows the sheet's figures in
// place of the running totals.
func figuresShown(row sheetRow) bool { return row.hand.Figures != nil }

// figureText is how a sheet figure shows: its text, or its value.
func figureText(f score.Figure) string {
	if f.Text != "" {
		return f.Text
	}
	return formatPoints(f.Value)
}

// totalCells is the sheet's last line: each player's points of the
// evening, and below a scored sheet's figures the matches he won.
func totalCells(r ledger.Report, rows []sheetRow) []cellView {
	totals := finalTotals(len(r.Players), sheet(len(r.Players), r.Hands))
	out := make([]cellView, len(totals))
	for i, t := range totals {
		out[i] = cellView{Points: formatPoints(t), PointsNeg: t.Sign() < 0}
		if r.Sheet == nil {
			out[i].Running, out[i].RunningNeg = out[i].Points, out[i].PointsNeg
			out[i].Points, out[i].PointsNeg = "", false
		}
		if r.Sheet != nil && r.Sheet.Scored && i < len(r.Sheet.Matches) {
			out[i].Running = plural(r.Sheet.Matches[i], "Partie", "Partien")
		}
	}
	_ = rows
	return out
}

// plural is "1 Partie", "2 Partien".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// versionText names the settlement's version: provisional while the
// evening is open, "Fassung 2 (nach einer Korrektur)" after a correction.
func versionText(st ledger.Settlement) string {
	switch {
	case !st.Final || st.Version == 0:
		return "vorläufig: der Abend ist noch offen"
	case st.Version == 1:
		return "Fassung 1"
	}
	return "Fassung " + strconv.Itoa(st.Version) + " (nach einer Korrektur; was schon bezahlt ist, zählt)"
}

// rankingView is the standings: by points, or for a scored sheet by the
// matches and dice of the evening.
type rankingView struct {
	Scored bool
	Second string // the sheet's figure heading, for a scored sheet
	Rows   []standingView
}

// standingView is one line of the standings; Points is the matches won
// for a scored sheet, Figure the player's last figure.
type standingView struct {
	Rank   int
	Name   string
	Points string
	Figure string
	Neg    bool
	Hands  int
}

// ranking ranks the players: by points, best first, or for a scored
// sheet by the evening's progress (matches, then dice); equal values
// share a rank, and ties keep the given order.
func ranking(r ledger.Report, n names) rankingView {
	if r.Sheet == nil || !r.Sheet.Scored {
		return rankingView{Rows: standings(r.Standings, n)}
	}
	v := rankingView{Scored: true, Second: r.Sheet.Heading}
	order := make([]int, len(r.Players))
	for i := range order {
		order[i] = i
	}
	progress := fit(r.Sheet.Progress, len(r.Players))
	slices.SortStableFunc(order, func(a, b int) int { return progress[b].Cmp(progress[a]) })
	hands := map[int64]int{}
	for _, s := range r.Standings {
		hands[s.Player] = s.Hands
	}
	rows := reportSheet(r)
	for k, i := range order {
		p := r.Players[i]
		line := standingView{Rank: k + 1, Name: cmp.Or(p.Name, n.of(p.ID)), Hands: hands[p.ID]}
		if k > 0 && progress[i].Cmp(progress[order[k-1]]) == 0 {
			line.Rank = v.Rows[k-1].Rank
		}
		if i < len(r.Sheet.Matches) {
			line.Points = strconv.Itoa(r.Sheet.Matches[i])
		}
		if len(rows) > 0 {
			if f := rows[len(rows)-1].figures[i]; f != nil {
				line.Figure = formatPoints(f.Value)
			}
		}
		v.Rows = append(v.Rows, line)
	}
	return v
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
	t := moneyTable{Stake: formatPoints(st.Stake) + " Cent je Punkt", Mode: modeText(st)}
	var sum ledger.PlayerMoney
	for _, p := range st.Players {
		t.Rows = append(t.Rows, moneyRow(cmp.Or(p.Name, n.of(p.Player)), p))
		sum.Points = sum.Points.Add(p.Points)
		sum.PointsCents += p.PointsCents
		sum.PayoutCents += p.PayoutCents
		sum.NetCents += p.NetCents
		sum.PaidCents += p.PaidCents
		sum.ReceivedCents += p.ReceivedCents
		sum.OpenCents += p.OpenCents
	}
	t.Sum = moneyRow("Summe", sum)
	return t
}

// moneyRow formats one line of the money table.
func moneyRow(name string, p ledger.PlayerMoney) moneyView {
	return moneyView{
		Name: name, Points: formatPoints(p.Points), PointsEUR: formatEUR(p.PointsCents),
		PayoutEUR: formatEUR(p.PayoutCents), NetEUR: formatEUR(p.NetCents), NetNeg: p.NetCents < 0,
		Paid: formatEUR(p.PaidCents), Received: formatEUR(p.ReceivedCents),
		Open: formatEUR(p.OpenCents), OpenNeg: p.OpenCents < 0,
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
			Paid: t.Paid, PaidAt: formatPaidAt(t.PaidAt, zone), Session: t.SessionID, Date: formatDate(t.Date),
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
