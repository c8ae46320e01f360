package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// readCSV renders with write and parses the result as RFC 4180 CSV,
// returning its blocks (encoding/csv skips the empty separator lines, so
// blocks are found by their header rows) and the raw text.
func readCSV(t *testing.T, write func(*bytes.Buffer) error) ([][]string, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	text, ok := strings.CutPrefix(buf.String(), "\ufeff")
	if !ok {
		t.Fatal("CSV does not start with a byte order mark")
	}
	rd := csv.NewReader(strings.NewReader(text))
	rd.Comma = ';'
	rd.FieldsPerRecord = -1
	recs, err := rd.ReadAll()
	if err != nil {
		t.Fatalf("CSV does not parse: %v\n%s", err, buf.String())
	}
	return recs, buf.String()
}

// block returns the rows after the header row whose first cell is first,
// up to the next header named in stops (or the end).
func block(t *testing.T, recs [][]string, first string, stops ...string) [][]string {
	t.Helper()
	for i, r := range recs {
		if r[0] != first {
			continue
		}
		var out [][]string
		for _, row := range recs[i+1:] {
			for _, s := range stops {
				if row[0] == s {
					return out
				}
			}
			out = append(out, row)
		}
		return out
	}
	t.Fatalf("no block headed %q", first)
	return nil
}

// shown is a cell as a spreadsheet shows it: the text formula ="x"
// shows x.
func shown(cell string) string {
	if v, ok := strings.CutPrefix(cell, `="`); ok {
		return strings.TrimSuffix(v, `"`)
	}
	return cell
}

func shownRow(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = shown(c)
	}
	return out
}

func TestCSV(t *testing.T) {
	r := exampleReport()
	r.Hands[1].SatOut = []int64{doerte}
	r.Hands[3].Revision, r.Hands[3].Reason = 2, "Geber war Dörte"
	recs, raw := readCSV(t, func(b *bytes.Buffer) error { return CSV(b, r) })

	if !strings.Contains(raw, "\r\n\r\n") {
		t.Error("blocks are not separated by an empty CRLF line")
	}
	if got := strings.Join(recs[1], "|"); got != `Skatfreunde Köln-Süd & Co.|Tisch 1|Doppelkopf|="21.11.2026"|Fassung 1` {
		t.Errorf("evening row %q", got)
	}
	wantHeader := []string{"Nr", "Geber", "Spiel", "Fassung", "Anna", "Bernd", evilName, "Dörte", "Anna gesamt", "Bernd gesamt", evilName + " gesamt", "Dörte gesamt", "Hinweise"}
	if got := recs[2]; strings.Join(got, "|") != strings.Join(wantHeader, "|") {
		t.Fatalf("header = %q, want %q", got, wantHeader)
	}
	hands := block(t, recs, "Nr", "Spieler")
	if len(hands) != len(r.Hands) {
		t.Fatalf("%d hand rows, want %d", len(hands), len(r.Hands))
	}
	wantRunning := [][]string{
		{"14/3", "-7/2", "-7/6", "0"},
		{"8/3", "5/2", "-19/6", "-2"},
		{"11/3", "7/2", "-25/6", "-3"},
		{"1/6", "7", "-25/6", "-3"},
		{"19/6", "6", "-31/6", "-4"},
	}
	for k, row := range hands {
		if len(row) != len(wantHeader) {
			t.Fatalf("hand row %d has %d cells: %q", k+1, len(row), row)
		}
		if row[0] != strconv.Itoa(k+1) {
			t.Errorf("row %d: number %q", k+1, row[0])
		}
		if got := strings.Join(shownRow(row[8:12]), " "); got != strings.Join(wantRunning[k], " ") {
			t.Errorf("row %d: running totals %q, want %q", k+1, got, wantRunning[k])
		}
	}
	if got := strings.Join(hands[0][1:8], "|"); got != `Anna|Solo, Re gewinnt 187:53|1|="14/3"|="-7/2"|="-7/6"|0` {
		t.Errorf("first hand = %q", got)
	}
	if got := hands[1][7]; got != "–" {
		t.Errorf("Dörte sat out hand 2, her cell is %q, want –", got)
	}
	if got := hands[3][3] + " " + hands[3][12]; got != "2 Fassung 2: Geber war Dörte" {
		t.Errorf("the corrected hand 4 says %q", got)
	}

	money := block(t, recs, "Spieler", "Zahlung von")
	if len(money) != len(r.Settlement.Players) {
		t.Fatalf("%d money rows, want %d", len(money), len(r.Settlement.Players))
	}
	var netSum, wantSum int64
	for i, row := range money {
		p := r.Settlement.Players[i]
		if row[0] != p.Name || shown(row[1]) != p.Points.String() || row[2] != itoa(p.PointsCents) || row[6] != itoa(p.NetCents) {
			t.Errorf("money row %q for %+v", row, p)
		}
		n, err := strconv.ParseInt(row[6], 10, 64)
		if err != nil {
			t.Fatalf("net cents %q is not an integer", row[6])
		}
		netSum += n
		wantSum += p.NetCents
	}
	if got := strings.Join(money[3][2:8], "|"); got != "-2000|-20,00|-50|-0,50|-2050|-20,50" {
		t.Errorf("Dörte's cents and euros %q", got)
	}
	if netSum != wantSum || netSum != -r.Settlement.KittyCents {
		t.Errorf("net cents sum to %d, settlement says %d (kitty %d)", netSum, wantSum, r.Settlement.KittyCents)
	}

	transfers := block(t, recs, "Zahlung von", "Offene Schuld von")
	want := [][]string{
		{evilName, "Bernd", "2583", "25,83", "ja", `="21.11.2026"`},
		{"Dörte", "Bernd", "417", "4,17", "nein", ""},
		{"Dörte", "Anna", "1583", "15,83", "nein", ""},
		{"Dörte", "Kasse", "50", "0,50", "nein", ""},
	}
	if got, w := fmtRows(transfers), fmtRows(want); got != w {
		t.Errorf("transfers\n%s\nwant\n%s", got, w)
	}
	debts := block(t, recs, "Offene Schuld von")
	if got := fmtRows(debts); got != "Bernd|Anna|123456|1234,56|" {
		t.Errorf("open debts = %s", got)
	}
}

func fmtRows(rows [][]string) string {
	var lines []string
	for _, r := range rows {
		lines = append(lines, strings.Join(r, "|"))
	}
	return strings.Join(lines, "\n")
}

func TestCSVEmptyEvening(t *testing.T) {
	r := exampleReport()
	r.Hands = nil
	recs, _ := readCSV(t, func(b *bytes.Buffer) error { return CSV(b, r) })
	if hands := block(t, recs, "Nr", "Spieler"); len(hands) != 0 {
		t.Errorf("hand rows of an empty evening: %q", hands)
	}
}

// TestCSVFormulas checks that a name a spreadsheet would run as a
// formula is written as text, while negative numbers stay numbers.
func TestCSVFormulas(t *testing.T) {
	r := exampleReport()
	r.Players[0].Name = "=HYPERLINK(\"x\")"
	r.Settlement.Players[0].Name = "-Anna"
	recs, _ := readCSV(t, func(b *bytes.Buffer) error { return CSV(b, r) })
	if got := block(t, recs, "Verein", "Nr")[0][0]; got != "Skatfreunde Köln-Süd & Co." {
		t.Errorf("club %q", got)
	}
	if got := recs[2][4]; got != `'=HYPERLINK("x")` {
		t.Errorf("header cell %q, want it quoted as text", got)
	}
	money := block(t, recs, "Spieler", "Zahlung von")
	if money[0][0] != "'-Anna" || money[2][1] != `="-31/6"` || money[2][6] != "-2583" {
		t.Errorf("money rows %q", money)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

var errWrite = errors.New("disk full")

func TestCSVWriteError(t *testing.T) {
	if err := CSV(failWriter{}, exampleReport()); err == nil {
		t.Error("CSV to a failing writer returned no error")
	}
	if err := EveningCSV(failWriter{}, exampleEvening()); err == nil {
		t.Error("EveningCSV to a failing writer returned no error")
	}
}

func TestEveningCSV(t *testing.T) {
	r := exampleEvening()
	recs, _ := readCSV(t, func(b *bytes.Buffer) error { return EveningCSV(b, r) })
	players := block(t, recs, "Spieler", "Tisch")
	var net int64
	for i, row := range players {
		p := r.Players[i]
		if want := []string{p.Name, itoa(int64(p.Sessions)), itoa(int64(p.Hands)), itoa(p.NetCents), euros(p.NetCents)}; strings.Join(row, "|") != strings.Join(want, "|") {
			t.Errorf("player row %q, want %q", row, want)
		}
		n, _ := strconv.ParseInt(row[3], 10, 64)
		net += n
	}
	if net != -r.KittyCents {
		t.Errorf("players' net sums to %d, want minus the kitty %d", net, -r.KittyCents)
	}
	var tables []string
	for i, rec := range recs {
		if rec[0] == "Tisch" {
			tables = append(tables, strings.Join(recs[i+1], "|"))
		}
	}
	if got := strings.Join(tables, "\n"); got != "Tisch 1|Doppelkopf|12|50|0,50\nTisch 2|Schwarze Sau|13|75|0,75" {
		t.Errorf("tables:\n%s", got)
	}
	if got := recs[len(recs)-1]; len(got) != 2 || got[0] != "125" || got[1] != "1,25" {
		t.Errorf("last row %q, want the kitty total 125", got)
	}
	var kittyRows int
	for _, rec := range recs {
		if len(rec) == 6 && (rec[0] == "Kasse" || rec[1] == "Kasse") {
			kittyRows++
		}
	}
	if kittyRows != 3 {
		t.Errorf("%d transfers with the kitty, want 3", kittyRows)
	}
}
