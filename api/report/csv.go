package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// CSV writes a session's report for German spreadsheets (Excel and
// LibreOffice in a German locale open it with a double click): UTF-8 with
// a byte order mark, semicolon separated, CRLF line ends, quoted as RFC
// 4180 says. Blocks are separated by an empty line, and each block starts
// with its own header row, whose first cell names the block:
//
//  1. the evening: "Verein", "Tisch", "Spiel", "Datum", "Abrechnung"
//     (the settlement's version, "vorläufig" while the evening is open);
//  2. the score sheet, one row per hand: "Nr", "Geber", "Spiel",
//     "Fassung", then each player's points of the hand (headed by the
//     name, "Anna"; "–" where he sat out) and each player's running
//     total ("Anna gesamt"), and last "Hinweise" (why the hand was
//     voided or corrected, its events);
//  3. the money, one row per player: "Spieler", "Punkte", then pairs of
//     cents and euros for the points' money, the payments from hands, the
//     net, what he paid, received and what is still open ("Netto Cent",
//     "Netto €" …), so a spreadsheet can sum either;
//  4. the transfers that settle the evening: "Zahlung von", "An", "Cent",
//     "€", "Bezahlt" ("ja"/"nein"), "bezahlt am", the kitty named "Kasse";
//  5. the open debts of earlier evenings: "Offene Schuld von", "An",
//     "Cent", "€", "vom" (the evening's date).
//
// Numbers are written as a German spreadsheet reads them: whole numbers
// as they are, euros with a decimal comma and no thousands separator
// ("1234,56"). Nothing is left for a spreadsheet to take for a date: an
// exact fraction of points ("14/3"), a date ("19.11.2026") and any text
// that looks like a number or a date are written as the text formula
// ="14/3", which Excel and LibreOffice show as written. Text cells that a
// spreadsheet would run as a formula (starting with =, +, -, @, tab or
// CR) get a leading apostrophe. CSV returns the first error writing to w.
func CSV(w io.Writer, r ledger.Report) error {
	cw := newCSV(w)
	n := reportNames(r)
	cw.Write([]string{"Verein", "Tisch", "Spiel", "Datum", "Abrechnung"})
	cw.Write([]string{text(r.Club.Name), text(r.Table.Name), text(gameName(reportGame(r))), date(reportDate(r)), text(csvVersion(r.Settlement))})
	cw.Write(nil)
	rows := reportSheet(r)
	cw.Write(sheetHeader(r.Players))
	for _, row := range rows {
		cw.Write(sheetRecord(row, n))
	}
	cw.Write(nil)
	writeMoneyCSV(cw, r.Settlement.Players, n)
	cw.Write(nil)
	writeTransfersCSV(cw, "Zahlung von", r.Settlement.Transfers, n, r.Club.TimeZone)
	cw.Write(nil)
	writeDebtsCSV(cw, r.OpenDebts, n)
	return flush(cw)
}

// EveningCSV writes a club evening's report like CSV: one block with a
// row per player ("Spieler", "Tische", "Spiele", "Netto Cent", "Netto
// €"), then per session a block naming the table ("Tisch", "Spiel",
// "Sitzung", "Kasse Cent", "Kasse €") followed by its transfers ("Zahlung
// von", "An", "Cent", "€", "Bezahlt", "bezahlt am"), and last the kitty's
// total of the evening ("Kasse gesamt Cent", "Kasse gesamt €"). It
// returns the first error writing to w.
func EveningCSV(w io.Writer, r ledger.EveningReport) error {
	cw := newCSV(w)
	n := eveningNames(r)
	cw.Write([]string{"Spieler", "Tische", "Spiele", "Netto Cent", "Netto €"})
	for _, p := range r.Players {
		cw.Write([]string{text(p.Name), itoa(int64(p.Sessions)), itoa(int64(p.Hands)), itoa(p.NetCents), euros(p.NetCents)})
	}
	for _, s := range r.Sessions {
		cw.Write(nil)
		cw.Write([]string{"Tisch", "Spiel", "Sitzung", "Kasse Cent", "Kasse €"})
		cw.Write([]string{text(s.Table.Name), text(gameName(s.Table.Game)), itoa(s.Session.ID), itoa(s.Settlement.KittyCents), euros(s.Settlement.KittyCents)})
		writeTransfersCSV(cw, "Zahlung von", s.Settlement.Transfers, n, r.Club.TimeZone)
	}
	cw.Write(nil)
	cw.Write([]string{"Kasse gesamt Cent", "Kasse gesamt €"})
	cw.Write([]string{itoa(r.KittyCents), euros(r.KittyCents)})
	return flush(cw)
}

// csvWriter remembers the first write error so the writers above can
// stay a plain list of rows.
type csvWriter struct {
	w   *csv.Writer
	err error
}

// bom is UTF-8's byte order mark: Excel reads a CSV file as UTF-8 only
// when it starts with one.
const bom = "\ufeff"

// newCSV returns a writer for German spreadsheets: the byte order mark,
// then semicolons and CRLF.
func newCSV(w io.Writer) *csvWriter {
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	cw.UseCRLF = true
	_, err := io.WriteString(w, bom)
	return &csvWriter{w: cw, err: err}
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
	h := make([]string, 0, 5+2*len(players))
	h = append(h, "Nr", "Geber", "Spiel", "Fassung")
	for _, p := range players {
		h = append(h, text(p.Name))
	}
	for _, p := range players {
		h = append(h, text(p.Name+" gesamt"))
	}
	return append(h, "Hinweise")
}

// sheetRecord is one hand's row of the score sheet.
func sheetRecord(row sheetRow, n names) []string {
	h := row.hand
	rec := make([]string, 0, 5+2*len(row.points))
	rec = append(rec, strconv.Itoa(h.Number), text(n.dealer(h.Dealer)), text(h.Title), strconv.Itoa(max(h.Revision, 1)))
	for i, p := range row.points {
		if row.satOut[i] {
			rec = append(rec, "–")
			continue
		}
		rec = append(rec, exact(p))
	}
	for _, p := range row.running {
		rec = append(rec, exact(p))
	}
	return append(rec, text(strings.Join(notes(h), " · ")))
}

// exact writes points exactly: a whole number as a number, a fraction
// as the text "14/3" (="14/3", so no spreadsheet takes it for a date).
func exact(p score.Points) string {
	if p.IsInt() {
		return p.String()
	}
	return asText(p.String())
}

// writeMoneyCSV writes the money block, one row per player.
func writeMoneyCSV(cw *csvWriter, players []ledger.PlayerMoney, n names) {
	cw.Write([]string{"Spieler", "Punkte", "Punkte Cent", "Punkte €", "aus Spielen Cent", "aus Spielen €", "Netto Cent", "Netto €",
		"bezahlt Cent", "bezahlt €", "erhalten Cent", "erhalten €", "offen Cent", "offen €"})
	for _, p := range players {
		name := p.Name
		if name == "" {
			name = n.of(p.Player)
		}
		rec := []string{text(name), exact(p.Points)}
		for _, c := range []int64{p.PointsCents, p.PayoutCents, p.NetCents, p.PaidCents, p.ReceivedCents, p.OpenCents} {
			rec = append(rec, itoa(c), euros(c))
		}
		cw.Write(rec)
	}
}

// writeTransfersCSV writes a block of transfers under a header whose
// first cell is first.
func writeTransfersCSV(cw *csvWriter, first string, ts []ledger.Transfer, n names, zone string) {
	cw.Write([]string{first, "An", "Cent", "€", "Bezahlt", "bezahlt am"})
	for _, t := range ts {
		cw.Write([]string{text(n.party(t.From)), text(n.party(t.To)), itoa(t.Cents), euros(t.Cents), yesNo(t.Paid), asText(formatPaidAt(t.PaidAt, zone))})
	}
}

// writeDebtsCSV writes the open debts of earlier evenings.
func writeDebtsCSV(cw *csvWriter, ts []ledger.Transfer, n names) {
	cw.Write([]string{"Offene Schuld von", "An", "Cent", "€", "vom"})
	for _, t := range ts {
		cw.Write([]string{text(n.party(t.From)), text(n.party(t.To)), itoa(t.Cents), euros(t.Cents), date(t.Date)})
	}
}

// csvVersion names the settlement's version in a word or two.
func csvVersion(st ledger.Settlement) string {
	if !st.Final || st.Version == 0 {
		return "vorläufig"
	}
	return "Fassung " + strconv.Itoa(st.Version)
}

// itoa writes an integer in decimal.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// euros writes cents as a German spreadsheet reads a number of euros:
// a decimal comma, no thousands separator: -123456 -> "-1234,56".
func euros(cents int64) string {
	neg, u := absUint(cents)
	s := strconv.FormatUint(u/100, 10) + "," + strconv.FormatUint(u%100/10, 10) + strconv.FormatUint(u%10, 10)
	if neg {
		return "-" + s
	}
	return s
}

// date writes a YYYY-MM-DD date as the text "19.11.2026" ("" for none).
func date(iso string) string { return asText(formatDate(iso)) }

// asText writes a value a spreadsheet would read as a number or a date
// as the text formula ="…", which shows it as written; "" stays empty.
func asText(s string) string {
	if s == "" {
		return ""
	}
	return `="` + s + `"`
}

// text makes a free-text cell safe to open in a spreadsheet: a value that
// would start a formula gets a leading apostrophe, and one a spreadsheet
// would read as a number or a date ("1/2", "3.4.", "12,5") is written as
// text (asText).
func text(s string) string {
	switch {
	case s == "":
		return s
	case looksLikeValue(s):
		return asText(s)
	case strings.ContainsRune("=+-@\t\r", rune(s[0])):
		return "'" + s
	}
	return s
}

// looksLikeValue reports whether s is made of digits and the marks of
// numbers, fractions, dates and times only, with a digit: what a
// spreadsheet might convert.
func looksLikeValue(s string) bool {
	digit := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case strings.ContainsRune(" ./:,-+%€", r):
		default:
			return false
		}
	}
	return digit
}
