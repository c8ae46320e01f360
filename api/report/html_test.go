package report

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
)

// outDir is where rendered pages go: t.TempDir(), or the directory named
// by STICHBUCH_REPORT_DIR to keep them for a look or a screenshot.
func outDir(t *testing.T) string {
	if dir := os.Getenv("STICHBUCH_REPORT_DIR"); dir != "" {
		return dir
	}
	return t.TempDir()
}

// renderHTML renders a page and writes it to dir/name for a later
// screenshot, returning the text.
func renderHTML(t *testing.T, dir, name string, write func(*bytes.Buffer) error) string {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
	return buf.String()
}

var (
	polylineRE = regexp.MustCompile(`<polyline class="player-line" data-player="(\d+)"[^>]*\spoints="([^"]*)"`)
	tagRE      = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(/?)>`)
)

// checkSelfContained checks what every page promises: German, phone and
// A4 ready, no external asset, no script, balanced tags.
func checkSelfContained(t *testing.T, page string) {
	t.Helper()
	for _, want := range []string{`<!DOCTYPE html>`, `<html lang="de">`, `<meta charset="utf-8">`, `name="viewport"`, `@page`, `size: A4`, `overflow-x: auto`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	lower := strings.ToLower(page)
	for _, bad := range []string{"http://", "https://", "<link", "<script", "<img", "@import", "url(", "src=", "zgotmplz"} {
		if strings.Contains(lower, bad) {
			t.Errorf("page contains %q: it must load nothing, run no script and escape cleanly", bad)
		}
	}
	checkBalanced(t, page)
}

// checkBalanced checks that the page's elements nest properly, which is
// what a browser needs to build the tree we mean.
func checkBalanced(t *testing.T, page string) {
	t.Helper()
	void := map[string]bool{"meta": true, "br": true, "hr": true, "img": true, "input": true, "link": true, "col": true}
	var stack []string
	for _, m := range tagRE.FindAllStringSubmatch(page, -1) {
		closing, name, selfClosing := m[1] == "/", strings.ToLower(m[2]), m[3] == "/"
		switch {
		case name == "doctype" || void[name] || selfClosing:
		case closing:
			if len(stack) == 0 || stack[len(stack)-1] != name {
				t.Fatalf("</%s> closes %v", name, stack)
			}
			stack = stack[:len(stack)-1]
		default:
			stack = append(stack, name)
		}
	}
	if len(stack) != 0 {
		t.Errorf("unclosed elements %v", stack)
	}
}

func TestHTML(t *testing.T) {
	r := exampleReport()
	page := renderHTML(t, outDir(t), "report.html", func(b *bytes.Buffer) error { return HTML(b, r) })
	checkSelfContained(t, page)

	lines := polylineRE.FindAllStringSubmatch(page, -1)
	if n := strings.Count(page, `class="player-line"`); n != len(r.Players) || len(lines) != len(r.Players) {
		t.Fatalf("%d player-line elements (%d polylines), want one per player (%d)", n, len(lines), len(r.Players))
	}
	for i, m := range lines {
		if want := itoa(r.Players[i].ID); m[1] != want {
			t.Errorf("line %d is for player %s, want %s", i, m[1], want)
		}
		if pts := strings.Fields(m[2]); len(pts) != len(r.Hands)+1 {
			t.Errorf("line %d has %d points, want %d", i, len(pts), len(r.Hands)+1)
		}
		if !regexp.MustCompile(`^\d+,\d+( \d+,\d+)*$`).MatchString(m[2]) {
			t.Errorf("line %d has non-integer coordinates %q", i, m[2])
		}
	}
	if strings.Contains(page, "NaN") || strings.Contains(page, "Inf") {
		t.Error("page contains NaN or Inf")
	}

	for _, want := range []string{
		"21.11.2026", "Skatfreunde Köln-Süd &amp; Co.", "Tisch 1", "Doppelkopf",
		// money, German style
		"15,83 €", "30,00 €", "-25,83 €", "-20,50 €", "-0,50 €", "0,50 €", "1.234,56 €", "25,83 €", "4,17 €", "0,00 €",
		// points as mixed numbers
		"4 2/3", "-3 1/2", "-5 1/6", "3 1/6",
		// the Bock hand and the payout
		`<tr class="hand bock payout">`, `<span class="badge badge-bock" title="Bockspiel">B</span>`, "Schwarze Sau: Dörte zahlt 0,50 € in die Kasse",
		// transfers and kitty
		"Kasse", "bezahlt am 21.11.2026", "offen", "In die Kasse: 0,50 €",
		// the escaped name, in text and in the chart
		"Chris &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;",
		"Abrechnung Tisch 1 – 21.11.2026",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, `<tr class="hand`); n != len(r.Hands) {
		t.Errorf("%d hand rows, want %d", n, len(r.Hands))
	}
	if n := strings.Count(page, "badge-bock\""); n != 1 {
		t.Errorf("%d Bock badges, want 1", n)
	}
}

func TestHTMLEmptyEvening(t *testing.T) {
	r := exampleReport()
	r.Hands = []ledger.ReportHand{}
	r.Standings = nil
	r.Settlement.Payouts = nil
	r.Settlement.Transfers = nil
	r.OpenDebts = nil
	page := renderHTML(t, outDir(t), "empty.html", func(b *bytes.Buffer) error { return HTML(b, r) })
	checkSelfContained(t, page)
	for _, want := range []string{"kein Verlauf", "noch kein Spiel", "Keine offenen Schulden", "Keine Zahlungen nötig"} {
		if !strings.Contains(page, want) {
			t.Errorf("empty page lacks %q", want)
		}
	}
	if strings.Contains(page, `class="player-line"`) || strings.Contains(page, "<svg") {
		t.Error("empty evening draws a chart")
	}
}

// TestHTMLNoPlayers renders a report with nothing in it at all.
func TestHTMLNoPlayers(t *testing.T) {
	var buf bytes.Buffer
	if err := HTML(&buf, ledger.Report{}); err != nil {
		t.Fatal(err)
	}
	checkSelfContained(t, buf.String())
}

// TestHTMLShortRunning checks hands whose running totals do not follow
// the seating are summed anew instead of failing.
func TestHTMLShortRunning(t *testing.T) {
	r := exampleReport()
	for k := range r.Hands {
		r.Hands[k].Running = nil
	}
	r.Hands[0].Points = r.Hands[0].Points[:2]
	var buf bytes.Buffer
	if err := HTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), `class="player-line"`); n != 4 {
		t.Errorf("%d lines, want 4", n)
	}
}

func TestEveningHTML(t *testing.T) {
	r := exampleEvening()
	page := renderHTML(t, outDir(t), "evening.html", func(b *bytes.Buffer) error { return EveningHTML(b, r) })
	checkSelfContained(t, page)
	for _, want := range []string{
		"Clubabend am <time>21.11.2026</time>", "Tisch 1", "Tisch 2", "Schwarze Sau", "Doppelkopf",
		"15,23 €", "-0,15 €", "Gast Emil", "In die Kasse: 1,25 €", "In die Kasse: 0,75 €", "vorläufig",
		"1/2 Cent je Punkt", "Jeder rechnet mit der Kasse ab", "Chris &lt;script&gt;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("evening page lacks %q", want)
		}
	}
	if n := strings.Count(page, `<section class="evening-table">`); n != 2 {
		t.Errorf("%d table blocks, want 2", n)
	}
}

func TestHTMLWriteError(t *testing.T) {
	if err := HTML(failWriter{}, exampleReport()); err == nil {
		t.Error("HTML to a failing writer returned no error")
	}
	if err := EveningHTML(failWriter{}, exampleEvening()); err == nil {
		t.Error("EveningHTML to a failing writer returned no error")
	}
}

func BenchmarkHTML(b *testing.B) {
	r := longReport(60)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := HTML(&buf, r); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

func BenchmarkCSV(b *testing.B) {
	r := longReport(60)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := CSV(&buf, r); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHTMLMarksWhatAHandWas reads the printed sheet of the five-player
// evening row by row: every hand names its dealer, the one who sat out
// shows "–" instead of 0, the corrected hand carries its revision and
// reason, the voided one its reason, and the money says which settlement
// version it is.
func TestHTMLMarksWhatAHandWas(t *testing.T) {
	r := eveningOfFive()
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	names := map[int64]string{}
	for _, p := range r.Players {
		names[p.ID] = p.Name
	}
	rowRE := regexp.MustCompile(`(?s)<tr class="hand[^"]*">\s*<th class="num nr" scope="row">(\d+)</th><td class="dealer">([^<]*)</td>(.*?)</tr>\s*(<tr class="notes">.*?</tr>)?`)
	rows := rowRE.FindAllStringSubmatch(page, -1)
	if len(rows) != len(r.Hands) {
		t.Fatalf("%d hand rows with a dealer cell, want %d", len(rows), len(r.Hands))
	}
	for i, m := range rows {
		h := r.Hands[i]
		if m[1] != itoa(int64(h.Number)) || m[2] != names[h.Dealer] {
			t.Errorf("row %d: hand %s dealt by %q, want hand %d dealt by %q", i, m[1], m[2], h.Number, names[h.Dealer])
		}
		if n := strings.Count(m[3], `<td class="num out">–</td>`); n != len(h.SatOut) {
			t.Errorf("hand %d: %d cells read –, want one per player who sat out (%d)", h.Number, n, len(h.SatOut))
		}
		notes := m[4]
		switch {
		case h.Void:
			if !strings.Contains(m[3], ">annulliert<") || !strings.Contains(notes, "annulliert: "+h.Reason) {
				t.Errorf("voided hand %d does not say it was voided and why (%q)", h.Number, h.Reason)
			}
		case h.Revision > 1:
			if !strings.Contains(m[3], "Korrektur, Fassung "+itoa(int64(h.Revision))) || !strings.Contains(notes, h.Reason) {
				t.Errorf("corrected hand %d lacks its revision %d or its reason %q", h.Number, h.Revision, h.Reason)
			}
		case strings.Contains(m[0], "Fassung") || strings.Contains(m[0], "annulliert"):
			t.Errorf("hand %d, neither corrected nor voided, is marked so", h.Number)
		}
	}
	if !strings.Contains(page, "Abrechnung Fassung 2") {
		t.Error("the money does not say it is settlement version 2")
	}
	if regexp.MustCompile(`Spieler \d`).MatchString(page) {
		t.Error("the page names a player by id")
	}
}
