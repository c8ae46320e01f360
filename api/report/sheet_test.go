package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// klaberjassReport is a 3-hand Klaberjass evening of four: every hand
// scores 0, the dice move, and hand 3 wins Bernd and Dörte a match.
func klaberjassReport() ledger.Report {
	r := exampleReport()
	r.Players[2].Name = "Chris"
	r.Table.Game, r.Settlement.Game = "klaberjass", "klaberjass"
	zero := []score.Points{{}, {}, {}, {}}
	dice := [][]int64{{1, 0, 1, 0}, {1, 2, 1, 2}, {0, 6, 0, 6}}
	progress := [][]int64{{1, 0, 1, 0}, {1, 2, 1, 2}, {0, 6, 0, 6}}
	r.Hands = nil
	for k := range dice {
		row := ledger.ReportHand{Number: k + 1, Dealer: int64(k + 1), Title: "Trumpf Herz", Points: zero, Running: zero, Revision: 1, SatOut: []int64{}}
		for i, p := range r.Players {
			f := score.Figure{Player: p.ID, Value: score.Int(dice[k][i]), Progress: score.Int(progress[k][i])}
			if dice[k][i] == 6 {
				f.Text = "6, Partie"
			}
			row.Figures = append(row.Figures, f)
			row.Progress = append(row.Progress, score.Int(progress[k][i]))
		}
		r.Hands = append(r.Hands, row)
	}
	r.Sheet = &ledger.ReportSheet{Heading: "Würfel", Scored: true, Progress: r.Hands[2].Progress, Matches: []int{0, 1, 0, 1}}
	return r
}

// TestHTMLKlaberjassShowsTheDice: a scored sheet shows each player's die
// instead of points that are all 0, and ranks by matches and dice.
func TestHTMLKlaberjassShowsTheDice(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, klaberjassReport()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<th class="num">Würfel</th>`, "6, Partie", "<th class=\"num\">Partien</th>", "1 Partie"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "Pkt.") {
		t.Error("a Klaberjass sheet shows point columns")
	}
	stand := page[strings.Index(page, `<section id="stand"`):]
	if b, d, a := strings.Index(stand, "Bernd"), strings.Index(stand, "Dörte"), strings.Index(stand, "Anna"); b > a || d > a || !strings.Contains(stand, "<td class=\"num\">1.</td><td>Bernd</td>") {
		t.Errorf("standings do not rank the match winners first:\n%s", stand[:min(len(stand), 900)])
	}
}

// TestHTMLSchwarzeSauMoney: money that all goes to the kitty says so, a
// payout paid is a payment from a hand, and the "Stand" is the tally.
func TestHTMLSchwarzeSauMoney(t *testing.T) {
	r := exampleReport()
	r.Table.Game = "schwarze_sau"
	for i := range r.Settlement.Players {
		p := &r.Settlement.Players[i]
		p.WithKittyCents, p.BetweenPlayersCents = p.NetCents, 0
	}
	r.Hands[2].Figures = []score.Figure{{Player: anna, Value: score.Int(0), Text: "0"}}
	r.Hands[2].Notes = []string{"Auszahlung: alle Stände beginnen wieder bei 0"}
	r.Sheet = &ledger.ReportSheet{Heading: "Stand", Summary: "Minuspunkte bis zur Grenze 1521 (1500 + 21.)"}
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"Alles wird mit der Kasse abgerechnet", "Zahlungen aus Spielen", "Minuspunkte bis zur Grenze 1521", "alle Stände beginnen wieder bei 0"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"Spieler zahlen einander", "Auszahlungen"} {
		if strings.Contains(page, bad) {
			t.Errorf("page says %q", bad)
		}
	}
}
