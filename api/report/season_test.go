package report

import (
	"bytes"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api/internal/cdp"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/season"
)

// seasonOfForty is a club's year: 40 members with long names, 48
// Thursdays at up to ten tables, ranked by the penalty rule with
// dropped results and quarters.
func seasonOfForty() (ledger.SeasonTable, ledger.SeasonCourse) {
	maxMissed := 20
	rules := season.Rules{Period: season.Period{Kind: season.PeriodYear, Year: 2026}, Games: []string{"doppelkopf"},
		Unit: season.Unit{Kind: season.UnitPerHands}, Aggregate: season.Aggregate{Kind: season.Average, DropAt: []int{30, 35, 40}},
		Eligibility: season.Eligibility{MinUnits: 12, MaxMissed: &maxMissed}, Missed: season.Missed{Kind: season.MissedPenalty, Free: 16},
		TieBreaks: []season.TieBreak{season.ByEveningsWon, season.ByTotalPoints}, Quarterly: true}
	names := map[int64]string{}
	var recs []season.Record
	d := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for p := int64(1); p <= 40; p++ {
		names[p] = fmt.Sprintf("Maximilian-Alexander von Spielerhausen %d", p)
	}
	for week := range 48 {
		date := d.AddDate(0, 0, 7*week).Format(time.DateOnly)
		for p := int64(1); p <= 40; p++ {
			if (int64(week)+p)%(2+p%5) == 0 {
				continue // missed
			}
			recs = append(recs, season.Record{Player: p, Session: int64(week*10) + p%10, Game: "doppelkopf", Date: date,
				Hands: 16 + int(p%9), Points: big.NewRat((p*int64(week+3))%97-40, 3)})
		}
	}
	t := season.Compute(rules, recs, names)
	st := ledger.SeasonTable{Name: "jahreswertung-2026", Version: 3, Rules: rules, From: t.From, To: t.To, Offered: t.Offered,
		Rows: t.Rows, EveningWinners: t.Winners, Quarters: t.Quarters, Rounding: ledger.SeasonRounding}
	return st, ledger.SeasonCourse{Name: st.Name, Version: 3, Course: season.CourseOf(rules, recs, names, t, ledger.SeasonChartLeaders)}
}

// TestPrintedSeasonFitsOneA4Page prints the season table of 40 members
// to PDF in headless Chromium, as the club prints it for the notice
// board: one A4 page, table and chart. The PDF is kept as an artifact.
func TestPrintedSeasonFitsOneA4Page(t *testing.T) {
	bin := cdp.Path()
	if bin == "" {
		t.Skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	dir := artifactDir(t)
	st, course := seasonOfForty()
	if len(st.Rows) != 40 {
		t.Fatalf("%d lines, want 40", len(st.Rows))
	}
	page := writePage(t, dir, "season-40.html", func(b *bytes.Buffer) error { return SeasonHTML(b, "Doko-Club Eichel e. V.", st, course) })
	pdf := filepath.Join(dir, "season-40.pdf")
	os.Remove(pdf)
	chromium(t, bin, "--no-pdf-header-footer", "--print-to-pdf="+pdf, "file://"+page)
	raw, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatalf("no PDF: %v", err)
	}
	if n := pdfPages(t, raw); n != 1 {
		t.Errorf("the season of 40 members prints on %d A4 pages, want 1", n)
	}
}

// The page shows every member once, the rules in words, the rounding,
// the quarters' winners and one chart line per leader; the CSV has a line
// per member with the exact final beside the rounded one.
func TestSeasonPageAndCSV(t *testing.T) {
	st, course := seasonOfForty()
	var page, csv bytes.Buffer
	if err := SeasonHTML(&page, "Doko-Club <Eichel>", st, course); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	for _, want := range []string{"Doko-Club &lt;Eichel&gt;", "Punkte je 24 Spiele; Durchschnitt; Streichergebnis ab 30, 35, 40 Abenden; Abzug 1 × (Fehlabende − 16)²",
		"auf zwei Nachkommastellen gerundet", "Quartalssieger: 1. Quartal 2026", "zu viele Fehlabende"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(html, `class="leader-line"`); n != ledger.SeasonChartLeaders {
		t.Errorf("%d chart lines, want %d", n, ledger.SeasonChartLeaders)
	}
	if err := SeasonCSV(&csv, st); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\r\n")
	if len(lines) != 4+40 {
		t.Fatalf("CSV has %d lines, want 4 + 40", len(lines))
	}
	first := st.Rows[0]
	want := fmt.Sprintf("1;%s;%d;", first.Name, first.Attended)
	if !strings.HasPrefix(lines[4], want) || !strings.Contains(lines[4], `"=""`+first.Final.RatString()+`"""`) || !strings.Contains(lines[4], first.Final.Display()) {
		t.Errorf("CSV's first line = %q, want %q… with %s and %s", lines[4], want, first.Final.Display(), first.Final.RatString())
	}
}
