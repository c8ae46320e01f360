// Package report renders stichbuch's end-of-evening reports for people:
// a CSV file for spreadsheets and a printable, self-contained HTML page,
// for one session (ledger.Report) and for a club's whole evening
// (ledger.EveningReport).
//
// Everything is German by default: money as "1.234,56 €", dates as
// "21.11.2026", points on the page as mixed numbers ("4 2/3"). The HTML
// pages load no external asset (the CSS is inline, the chart an inline
// SVG), escape every text through html/template, print on A4 and scroll
// the score sheet sideways on a phone. Chart coordinates are computed with
// exact integer and rational arithmetic only.
package report

import (
	"slices"
	"strconv"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// names resolves player IDs to display names.
type names map[int64]string

// reportNames collects every name a session report knows: the seating,
// the settlement and the standings, the seating winning.
func reportNames(r ledger.Report) names {
	n := make(names, len(r.Players))
	for _, s := range r.Standings {
		n.add(s.Player, s.Name)
	}
	for _, p := range r.Settlement.Players {
		n.add(p.Player, p.Name)
	}
	for _, p := range r.Players {
		n.add(p.ID, p.Name)
	}
	return n
}

// eveningNames collects every name an evening report knows.
func eveningNames(r ledger.EveningReport) names {
	n := make(names, len(r.Players))
	for _, s := range r.Sessions {
		for _, p := range s.Settlement.Players {
			n.add(p.Player, p.Name)
		}
	}
	for _, p := range r.Players {
		n.add(p.Player, p.Name)
	}
	return n
}

// add records a non-empty name, replacing an earlier one.
func (n names) add(id int64, name string) {
	if name != "" {
		n[id] = name
	}
}

// of is a player's name, or "Spieler 12" for an ID without one.
func (n names) of(id int64) string {
	if name, ok := n[id]; ok {
		return name
	}
	return "Spieler " + strconv.FormatInt(id, 10)
}

// party is a transfer side's name: the player's, or "Kasse" for nil.
func (n names) party(id *int64) string {
	if id == nil {
		return kitty
	}
	return n.of(*id)
}

// dealer is the name of a hand's dealer, "" where the game names none.
func (n names) dealer(id int64) string {
	if id == 0 {
		return ""
	}
	return n.of(id)
}

// sheetRow is one hand of the score sheet with exactly one points value
// and one running total per seated player (for a scored sheet the
// running total is the evening's progress), who sat the hand out, and
// each player's sheet figure (nil for none).
type sheetRow struct {
	hand    ledger.ReportHand
	points  []score.Points
	running []score.Points
	satOut  []bool
	figures []*score.Figure
}

// sheet normalizes the hands to the seating: missing points count as 0,
// and running totals that do not follow the seating are summed anew from
// the points, so every row has len(players) values of each.
func sheet(players int, hands []ledger.ReportHand) []sheetRow {
	rows := make([]sheetRow, len(hands))
	total := make([]score.Points, players)
	for k, h := range hands {
		row := sheetRow{hand: h, points: fit(h.Points, players), satOut: make([]bool, players), figures: make([]*score.Figure, players)}
		for i, p := range row.points {
			total[i] = total[i].Add(p)
		}
		row.running = h.Running
		if len(h.Running) != players {
			row.running = append([]score.Points(nil), total...)
		}
		rows[k] = row
	}
	return rows
}

// reportSheet is the report's score sheet: the rows of sheet with who
// sat out and the players' figures, and for a scored sheet (Klaberjass)
// the evening's progress as the running totals, so the chart follows
// matches and dice instead of points that are all 0.
func reportSheet(r ledger.Report) []sheetRow {
	rows := sheet(len(r.Players), r.Hands)
	scored := r.Sheet != nil && r.Sheet.Scored
	for k := range rows {
		row := &rows[k]
		for i, p := range r.Players {
			row.satOut[i] = slices.Contains(row.hand.SatOut, p.ID)
			for j := range row.hand.Figures {
				if row.hand.Figures[j].Player == p.ID {
					row.figures[i] = &row.hand.Figures[j]
				}
			}
		}
		if scored {
			row.running = fit(row.hand.Progress, len(r.Players))
		}
	}
	return rows
}

// fit returns ps with exactly n values, padding with zeros or cutting.
func fit(ps []score.Points, n int) []score.Points {
	if len(ps) == n {
		return ps
	}
	out := make([]score.Points, n)
	copy(out, ps)
	return out
}

// finalTotals is each seated player's total after the last hand (all
// zero for an evening without hands).
func finalTotals(players int, rows []sheetRow) []score.Points {
	if len(rows) == 0 {
		return make([]score.Points, players)
	}
	return rows[len(rows)-1].running
}

// reportDate is the session's date, or the settlement's if the session
// carries none.
func reportDate(r ledger.Report) string {
	if r.Session.Date != "" {
		return r.Session.Date
	}
	return r.Settlement.Date
}

// reportGame is the table's game, or the settlement's if the table
// carries none.
func reportGame(r ledger.Report) string {
	if r.Table.Game != "" {
		return r.Table.Game
	}
	return r.Settlement.Game
}
