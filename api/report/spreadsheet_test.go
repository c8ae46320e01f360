package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sheetCell is a cell as a spreadsheet read it: its type ("float",
// "date", "string", … or "" for an empty cell), its value for numbers
// and dates, and the text it shows.
type sheetCell struct {
	Type, Value, Text string
}

// soffice converts a CSV file with LibreOffice's Calc in a locale
// (1031: German, Germany; 2057: English, United Kingdom) to a flat ODS
// document and returns its first sheet's cells. The import asks Calc to
// detect special numbers (dates, times, fractions), as Excel always does,
// so what survives it survives a double click in either.
func soffice(t *testing.T, bin, csvPath string, locale int) [][]sheetCell {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	out := t.TempDir()
	// CSV import options: separator ';' (59), text delimiter '"' (34),
	// UTF-8 (76), from line 1, standard column types, the locale, quoted
	// fields as text false, detect special numbers true.
	filter := "CSV:59,34,76,1,," + strconv.Itoa(locale) + ",false,true"
	cmd := exec.CommandContext(ctx, bin, "--headless", "--norestore", "-env:UserInstallation=file://"+t.TempDir(),
		"--infilter="+filter, "--convert-to", "fods", "--outdir", out, csvPath)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, stderr.String())
	}
	name := strings.TrimSuffix(filepath.Base(csvPath), ".csv") + ".fods"
	f, err := os.Open(filepath.Join(out, name))
	if err != nil {
		t.Fatalf("soffice wrote no %s: %v\n%s", name, err, stderr.String())
	}
	defer f.Close()
	return readFODS(t, f)
}

// readFODS reads the first table of a flat ODS document.
func readFODS(t *testing.T, r io.Reader) [][]sheetCell {
	t.Helper()
	dec := xml.NewDecoder(r)
	var rows [][]sheetCell
	var cell *sheetCell
	tables := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return rows
		}
		if err != nil {
			t.Fatalf("reading the spreadsheet: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			switch el.Name.Local {
			case "table":
				tables++
			case "table-row":
				if tables == 1 {
					rows = append(rows, nil)
				}
			case "table-cell":
				if tables != 1 || len(rows) == 0 {
					continue
				}
				c, repeat := sheetCell{}, 1
				for _, a := range el.Attr {
					switch a.Name.Local {
					case "value-type":
						c.Type = a.Value
					case "value", "date-value":
						c.Value = a.Value
					case "number-columns-repeated":
						repeat, _ = strconv.Atoi(a.Value)
					}
				}
				for range min(repeat, 64) {
					rows[len(rows)-1] = append(rows[len(rows)-1], c)
				}
				cell = &rows[len(rows)-1][len(rows[len(rows)-1])-1]
			}
		case xml.CharData:
			if cell != nil {
				text := string(el)
				if strings.Contains(text, "\n") { // the document's indentation
					text = strings.TrimSpace(text)
				}
				cell.Text += text
			}
		case xml.EndElement:
			if el.Name.Local == "table-cell" {
				cell = nil
			}
		}
	}
}

var (
	wholeRE = regexp.MustCompile(`^-?[0-9]+$`)
	euroRE  = regexp.MustCompile(`^-?[0-9]+,[0-9]{2}$`)
)

// TestCSVInGermanSpreadsheet opens the report's CSV in LibreOffice Calc
// in a German locale and reads every cell back: whole numbers and euros
// are numbers of the same value, exact fractions, dates and texts are
// texts showing exactly what was written. A second import in a locale
// that reads "14/3" as a date (en-GB, like German Excel) checks that no
// fraction or date turns into one there either.
func TestCSVInGermanSpreadsheet(t *testing.T) {
	bin, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("LibreOffice is not installed (apt-get install --no-install-recommends libreoffice-calc-nogui); .ci/run installs it")
	}
	r := exampleReport()
	r.Hands[1].SatOut = []int64{doerte}
	r.Hands[2].Reason, r.Hands[2].Revision = "1.12.", 2
	r.OpenDebts[0].Date = "2026-11-05"
	var b bytes.Buffer
	if err := CSV(&b, r); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(artifactDir(t), "abrechnung.csv")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rd := csv.NewReader(strings.NewReader(strings.TrimPrefix(b.String(), "\ufeff")))
	rd.Comma, rd.FieldsPerRecord = ';', -1
	written, err := rd.ReadAll()
	if err != nil {
		t.Fatal(err)
	}

	read := soffice(t, bin, path, 1031)
	checked := map[string]int{}
	row := 0
	for _, rec := range written {
		for row < len(read) && allEmpty(read[row]) { // the blocks' empty lines
			row++
		}
		if row >= len(read) {
			t.Fatalf("the spreadsheet has %d rows, the CSV more", len(read))
		}
		for col, w := range rec {
			var got sheetCell
			if col < len(read[row]) {
				got = read[row][col]
			}
			checked[checkCell(t, row, col, w, got)]++
		}
		row++
	}
	t.Logf("cells read back as written: %v", checked)
	for _, kind := range []string{"whole number", "euros", "fraction", "date", "text"} {
		if checked[kind] == 0 {
			t.Errorf("the CSV has no %s cell: the test proves nothing about them", kind)
		}
	}

	// Where "14/3" or "21.11." would be a date, the texts stay texts.
	for _, cells := range soffice(t, bin, path, 2057) {
		for _, c := range cells {
			if c.Type == "date" || c.Type == "time" {
				t.Errorf("in an en-GB spreadsheet a cell became a %s: %q (%s)", c.Type, c.Text, c.Value)
			}
		}
	}
}

func allEmpty(cells []sheetCell) bool {
	for _, c := range cells {
		if c.Type != "" || c.Text != "" {
			return false
		}
	}
	return true
}

// checkCell compares a written CSV cell with what the spreadsheet read,
// and says what kind of cell it was.
func checkCell(t *testing.T, row, col int, w string, got sheetCell) string {
	t.Helper()
	fail := func(kind string) string {
		t.Errorf("row %d, column %d: wrote %q (%s), the spreadsheet read %s %q (value %q)", row+1, col+1, w, kind, got.Type, got.Text, got.Value)
		return kind
	}
	switch {
	case w == "":
		if got.Type != "" || got.Text != "" {
			return fail("empty")
		}
		return "empty"
	case wholeRE.MatchString(w):
		if got.Type != "float" || got.Value != w {
			return fail("whole number")
		}
		return "whole number"
	case euroRE.MatchString(w):
		if got.Type != "float" || decimalCents(got.Value) != decimalCents(strings.Replace(w, ",", ".", 1)) {
			return fail("euros")
		}
		return "euros"
	case strings.HasPrefix(w, `="`):
		text := strings.TrimSuffix(strings.TrimPrefix(w, `="`), `"`)
		kind := "fraction"
		if strings.Count(text, ".") == 2 {
			kind = "date"
		}
		if got.Type != "string" || got.Text != text {
			return fail(kind)
		}
		return kind
	}
	if got.Type != "string" || got.Text != w {
		return fail("text")
	}
	return "text"
}

// decimalCents reads a decimal number of euros ("-20.5", "15.83", "0")
// as cents, exactly; "" for anything else.
func decimalCents(v string) string {
	whole, frac, _ := strings.Cut(v, ".")
	if len(frac) > 2 || !wholeRE.MatchString(whole) {
		return ""
	}
	frac += strings.Repeat("0", 2-len(frac))
	return whole + frac
}
