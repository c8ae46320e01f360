package report

import (
	"fmt"
	"html/template"
	"io"
	"math/big"
	"strconv"
	"strings"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/season"
)

// The season table (Jahreswertung) as CSV for German spreadsheets, as a
// printable HTML page (one A4 page for 40 members) and the leaders'
// course as an SVG chart. Figures are exact in the ledger; here they are
// rounded to two decimals, halves away from zero, once, and the page says
// so.

// SeasonCSV writes the season table like the evening report (UTF-8 with
// a byte order mark, ';', CRLF): a block naming the season ("Wertung",
// "Fassung", "von", "bis", "Abende"), then one row per player: "Platz"
// ("" when not ranked, "3 (geteilt)" for a shared place), "Spieler",
// "Abende", "Gezählt", "Gestrichen", "Gefehlt", "Importiert", "Tagessiege",
// "Punkte gesamt", "Wertung", "Abzug", "Ergebnis" (decimal comma, two
// decimals), "Ergebnis exakt" (the exact fraction as text), "Gewertet"
// ("ja"/"nein", with the rule not met).
func SeasonCSV(w io.Writer, st ledger.SeasonTable) error {
	cw := newCSV(w)
	cw.Write([]string{"Wertung", "Fassung", "von", "bis", "Abende"})
	cw.Write([]string{text(st.Name), itoa(int64(st.Version)), date(st.From), date(st.To), itoa(int64(len(st.Offered)))})
	cw.Write(nil)
	cw.Write([]string{"Platz", "Spieler", "Abende", "Gezählt", "Gestrichen", "Gefehlt", "Importiert", "Tagessiege",
		"Punkte gesamt", "Wertung", "Abzug", "Ergebnis", "Ergebnis exakt", "Gewertet"})
	for _, r := range st.Rows {
		cw.Write([]string{placeOf(r), text(r.Name), itoa(int64(r.Attended)), itoa(int64(r.Counted)), itoa(int64(r.Dropped)),
			itoa(int64(r.Missed)), itoa(int64(r.Imported)), itoa(int64(r.EveningsWon)),
			r.Total.Display(), r.Score.Display(), r.Penalty.Display(), r.Final.Display(), asText(r.Final.RatString()), eligibleText(r)})
	}
	return flush(cw)
}

func placeOf(r season.Row) string {
	switch {
	case r.Rank == 0:
		return ""
	case r.Shared:
		return strconv.Itoa(r.Rank) + " (geteilt)"
	}
	return strconv.Itoa(r.Rank)
}

// notEligibleText is the German reason a player is not ranked.
var notEligibleText = map[string]string{
	"min_units":  "zu wenige Abende",
	"min_share":  "zu geringe Teilnahme",
	"max_missed": "zu viele Fehlabende",
}

func eligibleText(r season.Row) string {
	if r.Eligible {
		return "ja"
	}
	var why []string
	for _, n := range r.NotEligible {
		why = append(why, notEligibleText[n])
	}
	return "nein: " + strings.Join(why, ", ")
}

// seasonView is what season.html.tmpl shows.
type seasonView struct {
	Club, Name, Period, Rules, Rounding string
	Version, Evenings, Imported         int
	Rows                                []seasonRowView
	Winners                             []string
	Quarters                            []string
	Chart                               template.HTML
}

type seasonRowView struct {
	Place, Name, Total, Score, Penalty, Final, Why string
	Attended, Counted, Dropped, Missed, Won        int
	Neg                                            bool
}

// SeasonHTML writes the season table as one printable, self-contained
// HTML page in German: the season, its period and rules in a sentence,
// one line per player (place, name, evenings, counted, dropped, missed,
// evenings won, points, score, penalty, final), the quarters' winners
// and the leaders' course. 40 members print on one A4 page.
func SeasonHTML(w io.Writer, club string, st ledger.SeasonTable, course ledger.SeasonCourse) error {
	v := seasonView{Club: club, Name: st.Name, Version: st.Version, Evenings: len(st.Offered), Imported: st.ImportedEvenings,
		Period: formatDate(st.From) + " bis " + formatDate(st.To), Rules: rulesText(st.Rules),
		Rounding: "Alle Werte sind exakt gerechnet und hier auf zwei Nachkommastellen gerundet (ab 5 aufgerundet)."}
	for _, r := range st.Rows {
		rv := seasonRowView{Place: placeOf(r), Name: r.Name, Total: r.Total.Display(), Score: r.Score.Display(),
			Penalty: r.Penalty.Display(), Final: r.Final.Display(), Attended: r.Attended, Counted: r.Counted,
			Dropped: r.Dropped, Missed: r.Missed, Won: r.EveningsWon, Neg: r.Final.Sign() < 0}
		if rv.Place != "" {
			rv.Place += "."
		}
		if !r.Eligible {
			rv.Why = eligibleText(r)
		}
		v.Rows = append(v.Rows, rv)
	}
	for _, q := range st.Quarters {
		var names []string
		for _, r := range q.Rows {
			if r.Rank == 1 {
				names = append(names, r.Name)
			}
		}
		v.Quarters = append(v.Quarters, fmt.Sprintf("%s. Quartal %s: %s", q.Quarter[6:], q.Quarter[:4], strings.Join(names, ", ")))
	}
	var b strings.Builder
	if err := SeasonSVG(&b, course); err != nil {
		return err
	}
	v.Chart = template.HTML(b.String()) // built from escaped parts by SeasonSVG
	return pages.ExecuteTemplate(w, "season.html.tmpl", v)
}

// rulesText says the season's rules in one German sentence.
func rulesText(r season.Rules) string {
	var parts []string
	switch r.Unit.Kind {
	case season.UnitPoints:
		parts = append(parts, "Punkte je Abend")
	case season.UnitPerHands:
		parts = append(parts, fmt.Sprintf("Punkte je %d Spiele", or(r.Unit.PerHands, season.DefaultPer)))
	case season.UnitPlacement:
		var pts []string
		for _, p := range r.Unit.Placement {
			pts = append(pts, strconv.FormatInt(p, 10))
		}
		parts = append(parts, "Platzpunkte am Tisch ("+strings.Join(pts, ", ")+")")
	}
	if r.Aggregate.Kind == season.Average {
		parts = append(parts, "Durchschnitt")
	} else {
		parts = append(parts, "Summe")
	}
	if r.Aggregate.Best > 0 {
		parts = append(parts, fmt.Sprintf("die besten %d Abende", r.Aggregate.Best))
	}
	if len(r.Aggregate.DropAt) > 0 {
		var th []string
		for _, t := range r.Aggregate.DropAt {
			th = append(th, strconv.Itoa(t))
		}
		parts = append(parts, "Streichergebnis ab "+strings.Join(th, ", ")+" Abenden")
	}
	switch r.Missed.Kind {
	case season.MissedZero:
		parts = append(parts, "Fehlabende zählen 0")
	case season.MissedScore:
		parts = append(parts, "Fehlabende zählen "+r.Missed.Score)
	case season.MissedPenalty:
		parts = append(parts, fmt.Sprintf("Abzug %d × (Fehlabende − %d)²", or(r.Missed.Factor, 1), r.Missed.Free))
	}
	if n := r.Eligibility.MinUnits; n > 0 {
		parts = append(parts, fmt.Sprintf("gewertet ab %d Abenden", n))
	}
	if n := r.Eligibility.MinSharePercent; n > 0 {
		parts = append(parts, fmt.Sprintf("gewertet ab %d %% Teilnahme", n))
	}
	if m := r.Eligibility.MaxMissed; m != nil {
		parts = append(parts, fmt.Sprintf("höchstens %d Fehlabende", *m))
	}
	return strings.Join(parts, "; ") + "."
}

// SeasonSVG writes the leaders' course as a self-contained SVG line
// chart: one polyline class="leader-line" data-player="<id>" per leader,
// the x axis the offered evenings, the y axis the final after each.
// Positions are whole pixels from the exact finals (cut to the pixel).
func SeasonSVG(w io.Writer, c ledger.SeasonCourse) error {
	const width, height, left, right, top, bottom = 720, 260, 56, 150, 12, 28
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="season-chart" viewBox="0 0 %d %d" role="img" aria-label="Verlauf der Führenden">`, width, height)
	if len(c.Dates) == 0 || len(c.Players) == 0 {
		b.WriteString(`<text x="20" y="40">Noch kein Abend in dieser Wertung.</text></svg>`)
		_, err := io.WriteString(w, b.String())
		return err
	}
	lo, hi := new(big.Rat), new(big.Rat)
	for _, p := range c.Players {
		for _, f := range p.Finals {
			if f.Rat == nil {
				continue
			}
			if f.Cmp(lo) < 0 {
				lo.Set(f.Rat)
			}
			if f.Cmp(hi) > 0 {
				hi.Set(f.Rat)
			}
		}
	}
	if lo.Cmp(hi) == 0 {
		hi.Add(hi, big.NewRat(1, 1))
	}
	span := new(big.Rat).Sub(hi, lo)
	plotW, plotH := int64(width-left-right), int64(height-top-bottom)
	y := func(v *big.Rat) int64 {
		if v == nil {
			v = new(big.Rat)
		}
		r := new(big.Rat).Sub(hi, v)
		r.Mul(r, big.NewRat(plotH, 1)).Quo(r, span)
		// Whole pixels, cut toward zero (r is not negative: v ≤ hi).
		return int64(top) + new(big.Int).Quo(r.Num(), r.Denom()).Int64()
	}
	x := func(i int) int64 {
		if len(c.Dates) == 1 {
			return int64(left)
		}
		return int64(left) + int64(i)*plotW/int64(len(c.Dates)-1)
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999"/>`, left, y(new(big.Rat)), left+int(plotW), y(new(big.Rat)))
	fmt.Fprintf(&b, `<text x="4" y="%d" font-size="11">%s</text><text x="4" y="%d" font-size="11">%s</text>`,
		top+10, template.HTMLEscapeString(season.Exact{Rat: hi}.Display()), top+int(plotH), template.HTMLEscapeString(season.Exact{Rat: lo}.Display()))
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11">%s</text><text x="%d" y="%d" font-size="11" text-anchor="end">%s</text>`,
		left, height-8, formatDate(c.Dates[0]), left+int(plotW), height-8, formatDate(c.Dates[len(c.Dates)-1]))
	for i, p := range c.Players {
		var pts []string
		for k, f := range p.Finals {
			pts = append(pts, fmt.Sprintf("%d,%d", x(k), y(f.Rat)))
		}
		fmt.Fprintf(&b, `<polyline class="leader-line" data-player="%d" fill="none" stroke="%s" stroke-width="2" stroke-dasharray="%s" points="%s"/>`,
			p.Player, colorOf(i), dashOf(i), strings.Join(pts, " "))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" fill="%s">%s</text>`, left+int(plotW)+8, top+14+16*i, colorOf(i),
			template.HTMLEscapeString(shorten(p.Name, 18)))
	}
	b.WriteString(`</svg>`)
	_, err := io.WriteString(w, b.String())
	return err
}

// or returns v, or fallback when v is 0.
func or(v, fallback int) int {
	if v == 0 {
		return fallback
	}
	return v
}
