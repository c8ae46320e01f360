package saukopf

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// exampleA is worked example A of README.md.
const exampleA = `{"variant":"vierer","players":[1,2,3,4],"dealer":4,"bid":70,"spieler":1,"contract":"sauerei","called_sau":"eichel","mitspieler":3,"augen":85,"tricks":5,"laufende":{"holder":2,"count":1},"huftritte":1,"saukopf":{"trumped_by":1,"herz_sau_of":4},"hauer":2}`

// exampleB is worked example B of README.md.
const exampleB = `{"variant":"vierer","players":[1,2,3,4],"dealer":1,"bid":61,"spieler":2,"contract":"keiler","trump_suit":"eichel","augen":95,"tricks":6,"laufende":{"holder":2,"count":5}}`

func TestWorkedExamples(t *testing.T) {
	t.Run("A Sauerei", func(t *testing.T) {
		res := mustScore(t, exampleA, "")
		gamestest.WantPoints(t, res, nil, map[int64]string{1: "12", 2: "-12", 3: "12", 4: "-12"})
		wantLines(t, res, "Spiel + 5", "ohne 1 + 1", "Saukopf + 1", "Hauer - 1", "je Verlierer = 6",
			"Bolzenschuss x 2", "je Verlierer = 12", "Schüssel 24 / 2 Gewinner = 12")
		noLine(t, res, "Schneider")
		if !slices.Equal(res.Winners, []int64{1, 3}) {
			t.Errorf("winners %v, want [1 3]", res.Winners)
		}
	})
	t.Run("B Keiler", func(t *testing.T) {
		res := mustScore(t, exampleB, "")
		gamestest.WantPoints(t, res, nil, map[int64]string{1: "-5", 2: "15", 3: "-5", 4: "-5"})
		wantLines(t, res, "Spiel + 5", "mit 5: Glücksschwein - 1", "Schneider + 1", "je Verlierer = 5",
			"Schüssel 15 / 1 Gewinner = 15")
		noLine(t, res, "Bolzenschuss")
		if !slices.Equal(res.Winners, []int64{2}) {
			t.Errorf("winners %v, want [2]", res.Winners)
		}
	})
}

// TestContracts plays every contract won and lost by player 1.
func TestContracts(t *testing.T) {
	tests := []struct {
		name  string
		facts string
		want  map[int64]string
		lines []string
	}{
		{"Mastschwein won", solo(`"bid":61,"contract":"mastschwein"`, 0, 0, ""),
			map[int64]string{1: "18", 2: "-6", 3: "-6", 4: "-6"},
			[]string{"Spiel + 5", "Schwarz + 1", "Schüssel 18 / 1 Gewinner = 18"}},
		{"Mastschwein lost", solo(`"bid":61,"contract":"mastschwein"`, 20, 2, `{"holder":2,"count":3}`),
			map[int64]string{1: "-5", 2: "5/3", 3: "5/3", 4: "5/3"},
			[]string{"Spiel + 5", "je Verlierer = 5", "Schüssel 5 / 3 Gewinner = 5/3"}},
		{"Mastschwein lost schwarz", solo(`"bid":61,"contract":"mastschwein"`, 120, 8, ""),
			map[int64]string{1: "-6", 2: "2", 3: "2", 4: "2"},
			[]string{"Schwarz + 1", "Schüssel 6 / 3 Gewinner = 2"}},
		{"Sauerei won", sauerei("61", 70, 4, `{"holder":1,"count":2}`, ""),
			map[int64]string{1: "5", 2: "-5", 3: "5", 4: "-5"},
			[]string{"mit 2 + 0", "Schüssel 10 / 2 Gewinner = 5"}},
		{"Sauerei lost", sauerei("61", 60, 4, `{"holder":1,"count":2}`, ""),
			map[int64]string{1: "-7", 2: "7", 3: "-7", 4: "7"},
			[]string{"ohne 2 + 2", "Schüssel 14 / 2 Gewinner = 7"}},
		{"Unreine Sauerei won", solo(`"bid":61,"contract":"sauerei","called_sau":"gras","unrein":true`, 80, 5, `{"holder":2,"count":1}`),
			map[int64]string{1: "18", 2: "-6", 3: "-6", 4: "-6"},
			[]string{"ohne 1 + 1", "Schüssel 18 / 1 Gewinner = 18"}},
		{"Unreine Sauerei lost", solo(`"bid":61,"contract":"sauerei","called_sau":"gras","unrein":true`, 50, 3, `{"holder":2,"count":1}`),
			map[int64]string{1: "-10", 2: "10/3", 3: "10/3", 4: "10/3"},
			[]string{"mit 1 + 0", "je Verlierer = 5", "Bolzenschuss (Unreine Sauerei verloren) x 2", "je Verlierer = 10", "Schüssel 10 / 3 Gewinner = 10/3"}},
		{"Keiler won", keiler("61", 70, 5, `{"holder":2,"count":1}`),
			map[int64]string{1: "18", 2: "-6", 3: "-6", 4: "-6"},
			[]string{"ohne 1 + 1"}},
		{"Keiler lost", keiler("61", 55, 4, `{"holder":2,"count":1}`),
			map[int64]string{1: "-5", 2: "5/3", 3: "5/3", 4: "5/3"},
			[]string{"mit 1 + 0"}},
		{"Eber won", solo(`"bid":61,"contract":"eber"`, 61, 4, `{"holder":1,"count":4}`),
			map[int64]string{1: "12", 2: "-4", 3: "-4", 4: "-4"},
			[]string{"mit 4: Glücksschwein - 1", "je Verlierer = 4"}},
		{"Eber lost", solo(`"bid":61,"contract":"eber"`, 60, 4, `{"holder":1,"count":4}`),
			map[int64]string{1: "-9", 2: "3", 3: "3", 4: "3"},
			[]string{"ohne 4 + 4", "je Verlierer = 9", "Schüssel 9 / 3 Gewinner = 3"}},
		{"Wutz won", solo(`"bid":61,"contract":"wutz"`, 75, 5, `{"holder":2,"count":3}`),
			map[int64]string{1: "24", 2: "-8", 3: "-8", 4: "-8"},
			[]string{"ohne 3 + 3"}},
		{"Wutz lost", solo(`"bid":61,"contract":"wutz"`, 40, 3, `{"holder":2,"count":3}`),
			map[int64]string{1: "-5", 2: "5/3", 3: "5/3", 4: "5/3"},
			[]string{"mit 3 + 0"}},
		{"Ferkelparade won", solo(`"bid":61,"contract":"ferkelparade"`, 100, 7, `{"holder":1,"count":6}`),
			map[int64]string{1: "15", 2: "-5", 3: "-5", 4: "-5"},
			[]string{"mit 6: Glücksschwein - 1", "Schneider + 1", "je Verlierer = 5"}},
		{"Ferkelparade lost", solo(`"bid":61,"contract":"ferkelparade"`, 30, 2, `{"holder":1,"count":6}`),
			map[int64]string{1: "-12", 2: "4", 3: "4", 4: "4"},
			[]string{"ohne 6 + 6", "Schneider + 1", "je Verlierer = 12"}},
		{"Knorpel won", solo(`"bid":61,"contract":"knorpel","knorpel_card":"gras_ober","knorpel_holder":3`, 61, 3, ""),
			map[int64]string{1: "18", 2: "-6", 3: "-6", 4: "-6"},
			[]string{"ohne 1 + 1"}},
		{"Knorpel lost", solo(`"bid":61,"contract":"knorpel","knorpel_card":"herz_7","knorpel_holder":3`, 60, 3, `{"holder":3,"count":1}`),
			map[int64]string{1: "-5", 2: "5/3", 3: "5/3", 4: "5/3"},
			[]string{"mit 1 + 0"}},
		{"Schwarte won", solo(`"bid":61,"contract":"schwarte"`, 120, 8, ""),
			map[int64]string{1: "18", 2: "-6", 3: "-6", 4: "-6"},
			[]string{"Schwarz + 1", "je Verlierer = 6"}},
		{"Schwarte lost", solo(`"bid":61,"contract":"schwarte"`, 110, 7, ""),
			map[int64]string{1: "-5", 2: "5/3", 3: "5/3", 4: "5/3"},
			[]string{"je Verlierer = 5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustScore(t, tc.facts, "")
			gamestest.WantPoints(t, res, nil, tc.want)
			wantLines(t, res, tc.lines...)
			won := strings.HasSuffix(tc.name, "won")
			if got := slices.Contains(res.Winners, 1); got != won {
				t.Errorf("player 1 among winners %v: %v, want %v", res.Winners, got, won)
			}
			if !strings.HasSuffix(res.Lines[0].Label, map[bool]string{true: "gewonnen", false: "verloren"}[won]) {
				t.Errorf("headline %q does not state the outcome", res.Lines[0].Label)
			}
		})
	}
}

// TestNoExtrasInMastschweinSchwarte: Laufende and Schneider never count in
// Mastschwein and Schwarte.
func TestNoExtrasInMastschweinSchwarte(t *testing.T) {
	res := mustScore(t, solo(`"bid":61,"contract":"mastschwein"`, 10, 1, `{"holder":2,"count":5}`), "")
	noLine(t, res, "ohne")
	noLine(t, res, "mit")
	noLine(t, res, "Schneider")
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "-5", 2: "5/3", 3: "5/3", 4: "5/3"})

	res = mustScore(t, solo(`"bid":61,"contract":"schwarte"`, 20, 2, ""), "")
	noLine(t, res, "Schneider")
	noLine(t, res, "Schwarz")
}

// TestSchneiderBoundaries checks Schneider on both sides of its exact
// boundary, for the Spieler winning and losing.
func TestSchneiderBoundaries(t *testing.T) {
	tests := []struct {
		bid       string
		augen     int
		tricks    int
		won       bool
		schneider bool
	}{
		// bid 61: Nichtspieler need 60, Spieler need 61.
		{"61", 91, 6, true, true},
		{"61", 90, 6, true, false},
		{"61", 30, 2, false, true},
		{"61", 31, 2, false, false},
		// bid 70: Nichtspieler need 51.
		{"70", 95, 6, true, true},
		{"70", 94, 6, true, false},
		{"70", 34, 2, false, true},
		{"70", 35, 2, false, false},
		// bid 75: Nichtspieler need 46.
		{"75", 98, 6, true, true},
		{"75", 97, 6, true, false},
		{"75", 37, 2, false, true},
		{"75", 38, 2, false, false},
		// bid 120: Nichtspieler need 1, so a won 120 always is Schneider.
		{"120", 120, 7, true, true},
		{"120", 59, 4, false, true},
		{"120", 60, 4, false, false},
		// schwarz: Nichtspieler need one trick, the Spieler 120.
		{`"schwarz"`, 120, 8, true, true},
		{`"schwarz"`, 59, 7, false, true},
		{`"schwarz"`, 60, 7, false, false},
		{`"schwarz"`, 110, 7, false, false},
		{"61", 0, 0, false, true},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("bid %s augen %d", tc.bid, tc.augen)
		t.Run(name, func(t *testing.T) {
			res := mustScore(t, keiler(tc.bid, tc.augen, tc.tricks, `{"holder":1,"count":1}`), "")
			if got := slices.Contains(res.Winners, 1); got != tc.won {
				t.Fatalf("Spieler won %v, want %v", got, tc.won)
			}
			if got := hasLine(res, "Schneider"); got != tc.schneider {
				t.Errorf("Schneider %v, want %v", got, tc.schneider)
			}
		})
	}
}

// TestSchwarzBid: the Spieler party wins a schwarz bid only with every
// trick, and then has Schwarz and Schneider.
func TestSchwarzBid(t *testing.T) {
	res := mustScore(t, keiler(`"schwarz"`, 120, 8, `{"holder":1,"count":2}`), "")
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "21", 2: "-7", 3: "-7", 4: "-7"})
	wantLines(t, res, "mit 2 + 0", "Schneider + 1", "Schwarz + 1", "je Verlierer = 7")

	res = mustScore(t, keiler(`"schwarz"`, 118, 7, `{"holder":1,"count":2}`), "")
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "-7", 2: "7/3", 3: "7/3", 4: "7/3"})
	wantLines(t, res, "ohne 2 + 2", "je Verlierer = 7")
	noLine(t, res, "Schneider")
}

func TestLaufende(t *testing.T) {
	for n := 1; n <= 4; n++ {
		t.Run(fmt.Sprintf("ohne %d", n), func(t *testing.T) {
			res := mustScore(t, keiler("61", 70, 5, fmt.Sprintf(`{"holder":2,"count":%d}`, n)), "")
			amount := 5 + n
			wantLines(t, res, fmt.Sprintf("ohne %d + %d", n, n), fmt.Sprintf("je Verlierer = %d", amount))
			gamestest.WantPoints(t, res, nil, map[int64]string{1: fmt.Sprint(3 * amount), 2: fmt.Sprint(-amount), 3: fmt.Sprint(-amount), 4: fmt.Sprint(-amount)})
		})
		t.Run(fmt.Sprintf("mit %d", n), func(t *testing.T) {
			res := mustScore(t, keiler("61", 70, 5, fmt.Sprintf(`{"holder":1,"count":%d}`, n)), "")
			amount, label := 5, fmt.Sprintf("mit %d + 0", n)
			if n >= 4 {
				amount, label = 4, fmt.Sprintf("mit %d: Glücksschwein - 1", n)
			}
			wantLines(t, res, label, fmt.Sprintf("je Verlierer = %d", amount))
			gamestest.WantPoints(t, res, nil, map[int64]string{1: fmt.Sprint(3 * amount), 2: fmt.Sprint(-amount), 3: fmt.Sprint(-amount), 4: fmt.Sprint(-amount)})
		})
	}
}

// TestLaufendeFromWinnersSide: the same cards are "mit" for one party and
// "ohne" for the other, depending on who wins.
func TestLaufendeFromWinnersSide(t *testing.T) {
	lost := mustScore(t, sauerei("61", 55, 3, `{"holder":2,"count":3}`, ""), "")
	wantLines(t, lost, "mit 3 + 0")
	won := mustScore(t, sauerei("61", 65, 5, `{"holder":2,"count":3}`, ""), "")
	wantLines(t, won, "ohne 3 + 3")
}

func TestAmSpiess(t *testing.T) {
	facts := solo(`"bid":61,"contract":"keiler","trump_suit":"gras","am_spiess":true`, 70, 5, `{"holder":3,"count":2}`)
	res := mustScore(t, facts, "")
	wantLines(t, res, "ohne 2 am Spieß + 2")
	if !strings.Contains(res.Lines[0].Label, "Gras-Keiler am Spieß") {
		t.Errorf("headline %q does not say am Spieß", res.Lines[0].Label)
	}
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "21", 2: "-7", 3: "-7", 4: "-7"})
}

func TestSaukopfAndHauer(t *testing.T) {
	const mit1 = `{"holder":1,"count":1}`
	tests := []struct {
		name   string
		facts  string
		line   string
		amount int
	}{
		{"Saukopf for winners", sauerei("61", 70, 5, mit1, `"saukopf":{"trumped_by":1,"herz_sau_of":2}`), "Saukopf + 1", 6},
		{"Saukopf against winners", sauerei("61", 70, 5, mit1, `"saukopf":{"trumped_by":2,"herz_sau_of":3}`), "Saukopf - 1", 4},
		{"Hauer for winners", sauerei("61", 70, 5, mit1, `"hauer":3`), "Hauer + 1", 6},
		{"Hauer against winners", sauerei("61", 70, 5, mit1, `"hauer":4`), "Hauer - 1", 4},
		{"Saukopf for the winning Nichtspieler", sauerei("61", 50, 3, `{"holder":2,"count":1}`, `"saukopf":{"trumped_by":4,"herz_sau_of":1}`), "Saukopf + 1", 6},
		{"Hauer against the winning Nichtspieler", sauerei("61", 50, 3, `{"holder":2,"count":1}`, `"hauer":3`), "Hauer - 1", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustScore(t, tc.facts, "")
			wantLines(t, res, tc.line, fmt.Sprintf("je Verlierer = %d", tc.amount))
			a := fmt.Sprint(tc.amount)
			winners := map[int64]string{1: a, 2: "-" + a, 3: a, 4: "-" + a}
			if !slices.Contains(res.Winners, 1) {
				winners = map[int64]string{1: "-" + a, 2: a, 3: "-" + a, 4: a}
			}
			gamestest.WantPoints(t, res, nil, winners)
		})
	}
	t.Run("both against winners in an Unreine Sauerei", func(t *testing.T) {
		facts := solo(`"bid":61,"contract":"sauerei","called_sau":"schellen","unrein":true,"saukopf":{"trumped_by":3,"herz_sau_of":1},"hauer":4`,
			80, 5, `{"holder":1,"count":1}`)
		res := mustScore(t, facts, "")
		wantLines(t, res, "Saukopf - 1", "Hauer - 1", "je Verlierer = 3")
		gamestest.WantPoints(t, res, nil, map[int64]string{1: "9", 2: "-3", 3: "-3", 4: "-3"})
	})
}

// TestBolzenschuss combines Huftritte with the automatic Bolzenschuss.
func TestBolzenschuss(t *testing.T) {
	facts := solo(`"bid":61,"contract":"sauerei","called_sau":"gras","unrein":true,"huftritte":2`, 50, 3, `{"holder":2,"count":1}`)
	res := mustScore(t, facts, "")
	wantLines(t, res, "je Verlierer = 5", "Bolzenschuss x 2", "Bolzenschuss x 2",
		"Bolzenschuss (Unreine Sauerei verloren) x 2", "je Verlierer = 40", "Schüssel 40 / 3 Gewinner = 40/3")
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "-40", 2: "40/3", 3: "40/3", 4: "40/3"})

	// Won, the unreine Sauerei has no automatic Bolzenschuss.
	facts = solo(`"bid":61,"contract":"sauerei","called_sau":"gras","unrein":true,"huftritte":1`, 70, 5, `{"holder":2,"count":1}`)
	res = mustScore(t, facts, "")
	noLine(t, res, "Bolzenschuss (")
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "36", 2: "-12", 3: "-12", 4: "-12"})
}

func TestStallgeruch(t *testing.T) {
	t.Run("won", func(t *testing.T) {
		res := mustScore(t, sauerei("75", 80, 5, `{"holder":1,"count":1}`, `"stallgeruch":true`), "")
		gamestest.WantPoints(t, res, nil, map[int64]string{1: "8", 2: "-5", 3: "2", 4: "-5"})
		wantLines(t, res, "Schüssel 10 / 2 Gewinner = 5",
			"Stallgeruch: Stallgeruchsentschädigung + 3", "Stallgeruch: Stallgeruchsentschädigung - 3")
		if !slices.Equal(res.Winners, []int64{1, 3}) {
			t.Errorf("winners %v, want [1 3]", res.Winners)
		}
	})
	t.Run("lost", func(t *testing.T) {
		res := mustScore(t, sauerei("75", 74, 4, `{"holder":1,"count":1}`, `"stallgeruch":true,"huftritte":1`), "")
		// ohne 1: 6 per loser, doubled 12; Stallgeruch is never doubled.
		gamestest.WantPoints(t, res, nil, map[int64]string{1: "-15", 2: "12", 3: "-9", 4: "12"})
		wantLines(t, res, "je Verlierer = 12", "Stallgeruch: Rauborstigkeitsentschädigung + 3")
		for _, l := range res.Lines {
			if strings.HasPrefix(l.Label, "Stallgeruch") {
				payee := map[score.Op]int64{"+": 3, "-": 1}[l.Op]
				if l.Player != payee {
					t.Errorf("line %q concerns player %d, want %d", gamestest.LineText(l), l.Player, payee)
				}
			}
		}
	})
	t.Run("schwarz bid is rauborstig", func(t *testing.T) {
		res := mustScore(t, sauerei(`"schwarz"`, 120, 8, `{"holder":1,"count":1}`, `"stallgeruch":true`), "")
		gamestest.WantPoints(t, res, nil, map[int64]string{1: "10", 2: "-7", 3: "4", 4: "-7"})
	})
}

// TestLostSoloOptions: a lost solo under both options.
func TestLostSoloOptions(t *testing.T) {
	facts := gamestest.Seat(gamestest.LostKeiler, 1, 2, 3, 4)
	res := mustScore(t, facts, "")
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "-14", 2: "14/3", 3: "14/3", 4: "14/3"})
	wantLines(t, res, "ohne 2 + 2", "je Verlierer = 7", "Bolzenschuss x 2", "je Verlierer = 14", "Schüssel 14 / 3 Gewinner = 14/3")

	res = mustScore(t, facts, `{"verlorenes_solo":"jeder_einzeln"}`)
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "-42", 2: "14", 3: "14", 4: "14"})
	wantLines(t, res, "jeder einzeln: 14 an jeden der 3 Gewinner = 14")

	// jeder_einzeln changes nothing when the Spieler wins or in a Sauerei.
	won := mustScore(t, keiler("61", 70, 5, `{"holder":2,"count":1}`), `{"verlorenes_solo":"jeder_einzeln"}`)
	gamestest.WantPoints(t, won, nil, map[int64]string{1: "18", 2: "-6", 3: "-6", 4: "-6"})
	team := mustScore(t, sauerei("61", 60, 4, `{"holder":1,"count":2}`, ""), `{"verlorenes_solo":"jeder_einzeln"}`)
	gamestest.WantPoints(t, team, nil, map[int64]string{1: "-7", 2: "7", 3: "-7", 4: "7"})
}

func TestDreihaxer(t *testing.T) {
	const mitTrog, ohneTrog = `"trog":"mit"`, `"trog":"ohne","open_augen":10`
	tests := []struct {
		name    string
		facts   string
		options string
		want    map[int64]string
		lines   []string
	}{
		{"mit Trog won", threeHand(mitTrog, "61", 70, 6, `{"holder":1,"count":3}`), "",
			map[int64]string{1: "10", 2: "-5", 3: "-5"},
			[]string{"mit 3 + 0", "Schüssel 10 / 1 Gewinner = 10"}},
		{"mit Trog lost", threeHand(mitTrog, "61", 55, 5, `{"holder":1,"count":3}`), "",
			map[int64]string{1: "-16", 2: "8", 3: "8"},
			[]string{"ohne 3 + 3", "je Verlierer = 8", "Bolzenschuss (Dreihaxer mit Trog verloren) x 2", "je Verlierer = 16", "Schüssel 16 / 2 Gewinner = 8"}},
		{"mit Trog lost with Huftritt", threeHand(mitTrog, "61", 55, 5, `{"holder":2,"count":1},"huftritte":1`), "",
			map[int64]string{1: "-20", 2: "10", 3: "10"},
			[]string{"mit 1 + 0", "Bolzenschuss x 2", "Bolzenschuss (Dreihaxer mit Trog verloren) x 2", "je Verlierer = 20"}},
		{"ohne Trog won", threeHand(ohneTrog, "61", 61, 5, `{"holder":1,"count":2}`), "",
			map[int64]string{1: "10", 2: "-5", 3: "-5"},
			[]string{"Schüssel 10 / 1 Gewinner = 10"}},
		{"ohne Trog won Schneider", threeHand(ohneTrog, "61", 86, 7, `{"holder":1,"count":2}`), "",
			map[int64]string{1: "12", 2: "-6", 3: "-6"},
			[]string{"Schneider + 1"}},
		{"ohne Trog lost", gamestest.Seat(gamestest.LostDreihaxer, 1, 2, 3), "",
			map[int64]string{1: "-5", 2: "5/2", 3: "5/2"},
			[]string{"Schüssel 5 / 2 Gewinner = 5/2"}},
		{"ohne Trog lost jeder einzeln", gamestest.Seat(gamestest.LostDreihaxer, 1, 2, 3), `{"verlorenes_solo":"jeder_einzeln"}`,
			map[int64]string{1: "-10", 2: "5", 3: "5"},
			[]string{"jeder einzeln: 5 an jeden der 2 Gewinner = 5"}},
		{"Mastschwein mit Trog is lost", `{"variant":"dreihaxer","players":[1,2,3],"dealer":3,"trog":"mit","bid":61,"spieler":1,"contract":"mastschwein","augen":0,"tricks":1}`, "",
			map[int64]string{1: "-10", 2: "5", 3: "5"},
			[]string{"Bolzenschuss (Dreihaxer mit Trog verloren) x 2"}},
		{"Schwarte mit Trog won", `{"variant":"dreihaxer","players":[1,2,3],"dealer":3,"trog":"mit","bid":61,"spieler":1,"contract":"schwarte","augen":120,"tricks":11}`, "",
			map[int64]string{1: "12", 2: "-6", 3: "-6"},
			[]string{"Schwarz + 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustScore(t, tc.facts, tc.options)
			gamestest.WantPoints(t, res, nil, tc.want)
			wantLines(t, res, tc.lines...)
			if !strings.HasPrefix(res.Lines[0].Label, "Dreihaxer") {
				t.Errorf("headline %q does not name the Dreihaxer", res.Lines[0].Label)
			}
		})
	}
	t.Run("ohne Trog schwarz bid needs the Augen in play", func(t *testing.T) {
		// 110 Augen in play: the losing Spieler is Schneider below 55.
		res := mustScore(t, threeHand(ohneTrog, `"schwarz"`, 54, 9, `{"holder":1,"count":2}`), "")
		gamestest.WantPoints(t, res, nil, map[int64]string{1: "-8", 2: "4", 3: "4"})
		wantLines(t, res, "ohne 2 + 2", "Schneider + 1", "je Verlierer = 8")
		res = mustScore(t, threeHand(ohneTrog, `"schwarz"`, 55, 9, `{"holder":1,"count":2}`), "")
		noLine(t, res, "Schneider")
	})
	t.Run("ohne Trog Schneider boundary", func(t *testing.T) {
		// 10 open Augen: 110 in play, the Nichtspieler need 50.
		res := mustScore(t, threeHand(ohneTrog, "61", 85, 7, `{"holder":1,"count":2}`), "")
		noLine(t, res, "Schneider")
	})
}

func TestWildeSauerei(t *testing.T) {
	t.Run("clear win", func(t *testing.T) {
		res := mustScore(t, wild(`"laufende":{"holder":2,"count":2},"saukopf":{"trumped_by":1,"herz_sau_of":4}`,
			"1:55/3", "2:35/2", "3:10/1", "4:20/2"), "")
		gamestest.WantPoints(t, res, nil, map[int64]string{1: "8", 2: "-8", 3: "8", 4: "-8"})
		wantLines(t, res, "ohne 2 + 2", "Saukopf + 1", "je Verlierer = 8", "Schüssel 16 / 2 Gewinner = 8")
		if !slices.Equal(res.Winners, []int64{1, 3}) {
			t.Errorf("winners %v, want [1 3]", res.Winners)
		}
		if !strings.HasPrefix(res.Lines[0].Label, "Wilde Sauerei (Spieler {{player:1}}, Mitspieler {{player:3}})") {
			t.Errorf("headline %q", res.Lines[0].Label)
		}
	})
	t.Run("60 Augen lose", func(t *testing.T) {
		res := mustScore(t, wild(`"laufende":{"holder":2,"count":1}`, "1:50/3", "2:40/2", "3:10/1", "4:20/2"), "")
		gamestest.WantPoints(t, res, nil, map[int64]string{1: "-5", 2: "5", 3: "-5", 4: "5"})
		wantLines(t, res, "mit 1 + 0")
		if !slices.Equal(res.Winners, []int64{2, 4}) {
			t.Errorf("winners %v, want [2 4]", res.Winners)
		}
	})
	for name, takes := range map[string][]string{
		"meisten":     {"1:40/3", "2:40/3", "3:10/1", "4:30/1"},
		"wenigsten":   {"1:50/3", "2:30/2", "3:20/2", "4:20/1"},
		"all equal":   {"1:30/2", "2:30/2", "3:30/2", "4:30/2"},
		"fewest ties": {"1:70/4", "2:50/2", "3:0/1", "4:0/1"},
	} {
		t.Run("tie "+name, func(t *testing.T) {
			res := mustScore(t, wild(`"laufende":{"holder":2,"count":3},"hauer":1`, takes...), "")
			gamestest.WantPoints(t, res, nil, map[int64]string{1: "0", 2: "0", 3: "0", 4: "0"})
			if len(res.Winners) != 0 {
				t.Errorf("winners %v, want none", res.Winners)
			}
			if len(res.Lines) != 1 || !strings.Contains(res.Lines[0].Label, "kein Schlachtfest") {
				t.Errorf("lines %v, want one line saying kein Schlachtfest", res.Lines)
			}
		})
	}
	t.Run("tie reason", func(t *testing.T) {
		res := mustScore(t, wild(`"laufende":{"holder":2,"count":3}`, "1:50/3", "2:30/2", "3:20/2", "4:20/1"), "")
		if !strings.Contains(res.Lines[0].Label, "Gleichstand bei den wenigsten Augen (20)") {
			t.Errorf("label %q", res.Lines[0].Label)
		}
	})
}

// TestSeating: a seated player who sits out is left out; points follow the
// seating order, not the facts' order.
func TestSeating(t *testing.T) {
	facts := `{"variant":"vierer","players":[5,1,2,3],"dealer":4,"bid":61,"spieler":2,"contract":"eber","augen":70,"tricks":5,"laufende":{"holder":2,"count":1}}`
	res, err := Engine{}.Score(score.Hand{Seated: []int64{4, 3, 2, 1, 5}, Rules: gamestest.MustRules(t, Engine{}, "", ""), Facts: json.RawMessage(facts)})
	if err != nil {
		t.Fatal(err)
	}
	var order []int64
	for _, pp := range res.Points {
		order = append(order, pp.Player)
	}
	if !slices.Equal(order, []int64{3, 2, 1, 5}) {
		t.Errorf("points order %v, want [3 2 1 5]", order)
	}
	if !slices.Equal(res.Winners, []int64{2}) {
		t.Errorf("winners %v, want [2]", res.Winners)
	}
	gamestest.WantPoints(t, res, nil, map[int64]string{1: "-5", 2: "15", 3: "-5", 5: "-5"})
}

// TestDealerAndPlayers: the result names the dealer of the facts, also one
// sitting out, and the hand's players in seating order.
func TestDealerAndPlayers(t *testing.T) {
	cases := []struct {
		name    string
		seated  []int64
		facts   string
		dealer  int64
		players []int64
	}{
		{"the dealer plays", seated, keiler("61", 70, 5, `{"holder":2,"count":1}`), 4, []int64{1, 2, 3, 4}},
		{"the dealer sits out, players named out of seating order", []int64{4, 3, 2, 1, 5},
			`{"variant":"vierer","players":[5,1,2,3],"dealer":4,"bid":61,"spieler":2,"contract":"eber","augen":70,"tricks":5,"laufende":{"holder":2,"count":1}}`,
			4, []int64{3, 2, 1, 5}},
		{"a Dreihaxer", seated, threeHand(`"trog":"mit"`, "61", 70, 6, `{"holder":1,"count":3}`), 3, []int64{1, 2, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := gamestest.MustScore(t, Engine{}, score.Hand{Seated: c.seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), Facts: json.RawMessage(c.facts)})
			if res.Dealer != c.dealer || !slices.Equal(res.Players, c.players) {
				t.Errorf("dealer %d, players %v; want %d, %v", res.Dealer, res.Players, c.dealer, c.players)
			}
		})
	}
}

func TestState(t *testing.T) {
	for _, prev := range []string{"", "null", "{}", `{"summary":"Letztes Spiel: x"}`} {
		res, err := Engine{}.Score(score.Hand{Seated: seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), State: json.RawMessage(prev), Facts: json.RawMessage(exampleA)})
		if err != nil {
			t.Fatalf("state %q: %v", prev, err)
		}
		var st State
		if err := json.Unmarshal(res.State, &st); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(st.Summary, "Sauerei mit der Eichel-Sau") || !strings.Contains(st.Summary, "gewonnen, je Verlierer 12") {
			t.Errorf("summary %q", st.Summary)
		}
	}
	_, err := Engine{}.Score(score.Hand{Seated: seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), State: json.RawMessage(`[1`), Facts: json.RawMessage(exampleA)})
	if err == nil {
		t.Error("unreadable state accepted")
	}
}

func TestRules(t *testing.T) {
	raw, err := Engine{}.Rules("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != `{"preset":"standard","verlorenes_solo":"schuessel"}` {
		t.Errorf("default rules %s", raw)
	}
	raw, err = Engine{}.Rules("standard", json.RawMessage(`{"verlorenes_solo":"jeder_einzeln"}`))
	if err != nil || string(raw) != `{"preset":"standard","verlorenes_solo":"jeder_einzeln"}` {
		t.Errorf("override: %s, %v", raw, err)
	}
	_, err = Engine{}.Rules("turnier", nil)
	gamestest.WantViolation(t, err, "preset")
	_, err = Engine{}.Rules("", json.RawMessage(`{"verlorenes_solo":"halb"}`))
	gamestest.WantViolation(t, err, "options.verlorenes_solo")
	_, err = Engine{}.Rules("", json.RawMessage(`{"bock":true}`))
	gamestest.WantViolation(t, err, "options.bock")

	_, err = Engine{}.Score(score.Hand{Seated: seated, Rules: json.RawMessage(`{"preset":"standard"}`), Facts: json.RawMessage(exampleA)})
	gamestest.WantViolation(t, err, "rules")
	if (Engine{}).Name() != "saukopf" || !(Engine{}).ZeroSum() {
		t.Error("name or zero-sum wrong")
	}
}

func TestTitle(t *testing.T) {
	cases := []struct{ name, facts, want string }{
		{"worked example A", exampleA, "Sauerei auf 70 gewonnen"},
		{"worked example B", exampleB, "Eichel-Keiler auf 61 gewonnen"},
		{"Sauerei lost", sauerei("75", 74, 4, `{"holder":1,"count":1}`, `"stallgeruch":true`), "Sauerei auf 75 verloren"},
		{"Unreine Sauerei lost", solo(`"bid":61,"contract":"sauerei","called_sau":"gras","unrein":true,"huftritte":2`, 50, 3, `{"holder":2,"count":1}`),
			"Unreine Sauerei auf 61 verloren"},
		{"schwarz bid", keiler(`"schwarz"`, 120, 8, `{"holder":1,"count":2}`), "Gras-Keiler auf schwarz gewonnen"},
		{"am Spieß", solo(`"bid":61,"contract":"ferkelparade","am_spiess":true`, 30, 2, `{"holder":1,"count":6}`),
			"Ferkelparade am Spieß auf 61 verloren"},
		{"Knorpel", solo(`"bid":61,"contract":"knorpel","knorpel_card":"gras_ober","knorpel_holder":3`, 61, 3, ""), "Knorpel auf 61 gewonnen"},
		{"Mastschwein without bid", solo(`"bid":61,"contract":"mastschwein"`, 20, 2, `{"holder":2,"count":3}`), "Mastschwein verloren"},
		{"Schwarte without bid", solo(`"bid":61,"contract":"schwarte"`, 120, 8, ""), "Schwarte gewonnen"},
		{"Dreihaxer mit Trog", threeHand(`"trog":"mit"`, "61", 55, 5, `{"holder":1,"count":3}`), "Dreihaxer mit Trog: Eichel-Keiler auf 61 verloren"},
		{"Dreihaxer ohne Trog", threeHand(`"trog":"ohne","open_augen":10`, "61", 85, 7, `{"holder":1,"count":2}`),
			"Dreihaxer ohne Trog: Eichel-Keiler auf 61 gewonnen"},
		{"Wilde Sauerei won", wild(`"laufende":{"holder":2,"count":2}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"),
			"Wilde Sauerei von {{player:1}}/{{player:3}} gewonnen"},
		{"Wilde Sauerei lost", wild(`"laufende":{"holder":2,"count":1}`, "1:50/3", "2:40/2", "3:10/1", "4:20/2"),
			"Wilde Sauerei von {{player:1}}/{{player:3}} verloren"},
		{"Wilde Sauerei tie", wild(`"laufende":{"holder":2,"count":3}`, "1:40/3", "2:40/3", "3:10/1", "4:30/1"),
			"Wilde Sauerei: Gleichstand, kein Schlachtfest"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := mustScore(t, c.facts, "")
			if res.Title != c.want {
				t.Errorf("title %q, want %q", res.Title, c.want)
			}
			if n := len([]rune(res.Title)); n > 60 {
				t.Errorf("title %q has %d characters, want at most 60", res.Title, n)
			}
		})
	}
}
