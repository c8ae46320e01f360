package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// CSV writes a session's report for spreadsheets as RFC 4180 CSV: comma
// separated, CRLF line ends, UTF-8 without a byte order mark. Blocks are
// separated by an empty line, and each block starts with its own header
// row, whose first cell names the block:
//
//  1. the score sheet, one row per hand: "Nr", "Geber", "Spiel", then
//     each player's points of the hand (headed by the name, "Anna") and
//     each player's running total ("Anna gesamt"), points in the exact
//     form "14/3";
//  2. the money, one row per player: "Spieler", "Punkte" (exact),
//     "Punkte Cent", "Auszahlungen Cent", "Netto Cent", the money as plain
//     integers of cents so a spreadsheet can sum them;
//  3. the transfers that settle the evening: "Zahlung von", "An", "Cent",
//     "Bezahlt" ("ja"/"nein"), the kitty named "Kasse";
//  4. the open debts of earlier evenings: "Offene Schuld von", "An",
//     "Cent", "Sitzung" (the session the debt comes from).
//
// Text cells that a spreadsheet would run as a formula (starting with =,
// +, -, @, tab or CR) get a leading apostrophe; numbers are left alone.
// CSV returns the first error writing to w.
func CSV(w io.Writer, r ledger.Report) error {
	cw := newCSV(w)
	n := reportNames(r)
	rows := sheet(len(r.Players), r.Hands)
	cw.Write(sheetHeader(r.Players))
	for _, row := range rows {
		cw.Write(sheetRecord(row, n))
	}
	cw.Write(nil)
	writeMoneyCSV(cw, r.Settlement.Players, n)
	cw.Write(nil)
	writeTransfersCSV(cw, "Zahlung von", r.Settlement.Transfers, n)
	cw.Write(nil)
	writeDebtsCSV(cw, r.OpenDebts, n)
	return flush(cw)
}

// EveningCSV writes a club evening's report as RFC 4180 CSV (like CSV):
// one block with a row per player ("Spieler", "Tische", "Spiele",
// "Netto Cent"), then per session a block naming the table ("Tisch",
// "Spiel", "Sitzung", "Kasse Cent") followed by its transfers
// ("Zahlung von", "An", "Cent", "Bezahlt"), and last the kitty's total of
// the evening ("Kasse gesamt Cent"). It returns the first error writing
// to w.
func EveningCSV(w io.Writer, r ledger.EveningReport) error {
	cw := newCSV(w)
	n := eveningNames(r)
	cw.Write([]string{"Spieler", "Tische", "Spiele", "Netto Cent"})
	for _, p := range r.Players {
		cw.Write([]string{text(p.Name), itoa(int64(p.Sessions)), itoa(int64(p.Hands)), itoa(p.NetCents)})
	}
	for _, s := range r.Sessions {
		cw.Write(nil)
		cw.Write([]string{"Tisch", "Spiel", "Sitzung", "Kasse Cent"})
		cw.Write([]string{text(s.Table.Name), text(gameName(s.Table.Game)), itoa(s.Session.ID), itoa(s.Settlement.KittyCents)})
		writeTransfersCSV(cw, "Zahlung von", s.Settlement.Transfers, n)
	}
	cw.Write(nil)
	cw.Write([]string{"Kasse gesamt Cent"})
	cw.Write([]string{itoa(r.KittyCents)})
	return flush(cw)
}

// csvWriter remembers the first write error so the writers above can
// stay a plain list of rows.
type csvWriter struct {
	w   *csv.Writer
	err error
}

// newCSV returns an RFC 4180 writer: comma, CRLF.
func newCSV(w io.Writer) *csvWriter {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	return &csvWriter{w: cw}
}

// Write writes one record; a nil record is an empty line.
func (c *csvWriter) Write(record []string) {
	if c.err == nil {
		c.err = c.w.Write(record)
	}
}

// flush flushes the writer and returns its first error.
func flush(c *csvWriter) error {
	c.w.Flush()
	if c.err != nil {
		return c.err
	}
	return c.w.Error()
}

// sheetHeader names the score sheet's columns.
func sheetHeader(players []ledger.Player) []string {
	h := make([]string, 0, 3+2*len(players))
	h = append(h, "Nr", "Geber", "Spiel")
	for _, p := range players {
		h = append(h, text(p.Name))
	}
	for _, p := range players {
		h = append(h, text(p.Name+" gesamt"))
	}
	return h
}

// sheetRecord is one hand's row of the score sheet.
func sheetRecord(row sheetRow, n names) []string {
	rec := make([]string, 0, 3+2*len(row.points))
	rec = append(rec, strconv.Itoa(row.hand.Number), text(n.dealer(row.hand.Dealer)), text(row.hand.Title))
	rec = appendExact(rec, row.points)
	return appendExact(rec, row.running)
}

// appendExact appends points in their exact form ("14/3").
func appendExact(rec []string, ps []score.Points) []string {
	for _, p := range ps {
		rec = append(rec, p.String())
	}
	return rec
}

// writeMoneyCSV writes the money block, one row per player.
func writeMoneyCSV(cw *csvWriter, players []ledger.PlayerMoney, n names) {
	cw.Write([]string{"Spieler", "Punkte", "Punkte Cent", "Auszahlungen Cent", "Netto Cent"})
	for _, p := range players {
		name := p.Name
		if name == "" {
			name = n.of(p.Player)
		}
		cw.Write([]string{text(name), p.Points.String(), itoa(p.PointsCents), itoa(p.PayoutCents), itoa(p.NetCents)})
	}
}

// writeTransfersCSV writes a block of transfers under a header whose
// first cell is first.
func writeTransfersCSV(cw *csvWriter, first string, ts []ledger.Transfer, n names) {
	cw.Write([]string{first, "An", "Cent", "Bezahlt"})
	for _, t := range ts {
		cw.Write([]string{text(n.party(t.From)), text(n.party(t.To)), itoa(t.Cents), yesNo(t.Paid)})
	}
}

// writeDebtsCSV writes the open debts of earlier evenings.
func writeDebtsCSV(cw *csvWriter, ts []ledger.Transfer, n names) {
	cw.Write([]string{"Offene Schuld von", "An", "Cent", "Sitzung"})
	for _, t := range ts {
		cw.Write([]string{text(n.party(t.From)), text(n.party(t.To)), itoa(t.Cents), itoa(t.SessionID)})
	}
}

// itoa writes an integer in decimal.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// text makes a free-text cell safe to open in a spreadsheet: a value
// that would start a formula gets a leading apostrophe.
func text(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
