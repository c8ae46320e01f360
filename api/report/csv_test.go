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
	rd := csv.NewReader(strings.NewReader(buf.String()))
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

func TestCSV(t *testing.T) {
	r := exampleReport()
	recs, raw := readCSV(t, func(b *bytes.Buffer) error { return CSV(b, r) })

	if !strings.Contains(raw, "\r\n\r\n") {
		t.Error("blocks are not separated by an empty CRLF line")
	}
	wantHeader := []string{"Nr", "Geber", "Spiel", "Anna", "Bernd", evilName, "Dörte", "Anna gesamt", "Bernd gesamt", evilName + " gesamt", "Dörte gesamt"}
	if got := recs[0]; strings.Join(got, "|") != strings.Join(wantHeader, "|") {
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
		if got := strings.Join(row[7:], " "); got != strings.Join(wantRunning[k], " ") {
			t.Errorf("row %d: running totals %q, want %q", k+1, got, wantRunning[k])
		}
	}
	if got := hands[0][1:7]; strings.Join(got, "|") != "Anna|Solo, Re gewinnt 187:53|14/3|-7/2|-7/6|0" {
		t.Errorf("first hand = %q", got)
	}

	money := block(t, recs, "Spieler", "Zahlung von")
	if len(money) != len(r.Settlement.Players) {
		t.Fatalf("%d money rows, want %d", len(money), len(r.Settlement.Players))
	}
	var netSum, wantSum int64
	for i, row := range money {
		p := r.Settlement.Players[i]
		want := []string{p.Name, p.Points.String(), itoa(p.PointsCents), itoa(p.PayoutCents), itoa(p.NetCents)}
		if strings.Join(row, "|") != strings.Join(want, "|") {
			t.Errorf("money row %q, want %q", row, want)
		}
		n, err := strconv.ParseInt(row[4], 10, 64)
		if err != nil {
			t.Fatalf("net cents %q is not an integer", row[4])
		}
		netSum += n
		wantSum += p.NetCents
	}
	if netSum != wantSum || netSum != -r.Settlement.KittyCents {
		t.Errorf("net cents sum to %d, settlement says %d (kitty %d)", netSum, wantSum, r.Settlement.KittyCents)
	}

	transfers := block(t, recs, "Zahlung von", "Offene Schuld von")
	want := [][]string{
		{evilName, "Bernd", "2583", "ja"},
		{"Dörte", "Bernd", "417", "nein"},
		{"Dörte", "Anna", "1583", "nein"},
		{"Dörte", "Kasse", "50", "nein"},
	}
	if got, w := fmtRows(transfers), fmtRows(want); got != w {
		t.Errorf("transfers\n%s\nwant\n%s", got, w)
	}
	debts := block(t, recs, "Offene Schuld von")
	if got := fmtRows(debts); got != "Bernd|Anna|123456|7" {
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
	if got := recs[0][3]; got != `'=HYPERLINK("x")` {
		t.Errorf("header cell %q, want it quoted as text", got)
	}
	money := block(t, recs, "Spieler", "Zahlung von")
	if money[0][0] != "'-Anna" || money[2][1] != "-31/6" || money[2][4] != "-2583" {
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
		if want := []string{p.Name, itoa(int64(p.Sessions)), itoa(int64(p.Hands)), itoa(p.NetCents)}; strings.Join(row, "|") != strings.Join(want, "|") {
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
	if got := strings.Join(tables, "\n"); got != "Tisch 1|Doppelkopf|12|50\nTisch 2|Schwarze Sau|13|75" {
		t.Errorf("tables:\n%s", got)
	}
	if got := recs[len(recs)-1]; len(got) != 1 || got[0] != "125" {
		t.Errorf("last row %q, want the kitty total 125", got)
	}
	var kittyRows int
	for _, rec := range recs {
		if len(rec) == 4 && (rec[0] == "Kasse" || rec[1] == "Kasse") {
			kittyRows++
		}
	}
	if kittyRows != 3 {
		t.Errorf("%d transfers with the kitty, want 3", kittyRows)
	}
}
