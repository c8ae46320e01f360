package doppelkopf

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

const bockState = `{"bock_games_left":4,"bock_rounds_queued":0}`

func TestWorkedExampleA(t *testing.T) {
	res := testHand{state: bockState, facts: `{"game":"normal",
		"re":{"players":[1,3],"augen":187,"announced":"keine90","fuchs_gefangen":1},
		"kontra":{"doppelkopf":1}}`}.mustScore(t)
	gamestest.WantPoints(t, res, four, map[int64]int64{1: 16, 3: 16, 2: -16, 4: -16})
	want := []string{"gewonnen", "keine 90", "keine 60", "keine 90 angesagt (Re)", "Re angesagt",
		"Fuchs gefangen (Re)", "Doppelkopf (Kontra)", "Bock", "Spielwert"}
	if got := labels(res); !slices.Equal(got, want) {
		t.Errorf("lines %v, want %v", got, want)
	}
	wantLine(t, res, "keine 90 angesagt (Re)", "+", 1)
	wantLine(t, res, "Re angesagt", "x", 2)
	wantLine(t, res, "Fuchs gefangen (Re)", "+", 1)
	wantLine(t, res, "Doppelkopf (Kontra)", "-", 1)
	wantLine(t, res, "Bock", "x", 2)
	wantLine(t, res, "Spielwert", "=", 16)
	if !sameIDs(res.Winners, []int64{1, 3}) {
		t.Errorf("winners %v, want [1 3]", res.Winners)
	}
	if _, ok := event(res, "bock_game"); !ok {
		t.Error("no bock_game event in a Bock game")
	}
	if _, ok := event(res, "bock_queued"); ok {
		t.Error("example A triggers no Bock round")
	}
	if st := decodeTestState(t, res); st.BockGamesLeft != 3 {
		t.Errorf("bock games left %d, want 3", st.BockGamesLeft)
	}
}

func TestWorkedExampleB(t *testing.T) {
	res := testHand{facts: `{"game":"normal",
		"re":{"players":[1,2],"augen":109,"announced":"re","karlchen":true},
		"kontra":{"announced":"kontra"}}`}.mustScore(t)
	gamestest.WantPoints(t, res, four, map[int64]int64{3: 7, 4: 7, 1: -7, 2: -7})
	want := []string{"gewonnen", "gegen die Alten", "Re angesagt", "Kontra angesagt", "Karlchen (Re)", "Spielwert"}
	if got := labels(res); !slices.Equal(got, want) {
		t.Errorf("lines %v, want %v", got, want)
	}
	wantLine(t, res, "Karlchen (Re)", "-", 1)
	wantLine(t, res, "Spielwert", "=", 7)
	e, ok := event(res, "bock_queued")
	if !ok || e.Amount != 1 {
		t.Fatalf("bock_queued %+v, want 1 round", e)
	}
	if _, ok := event(res, "bock_game"); ok {
		t.Error("not a Bock game")
	}
	noLine(t, res, "Bock")
	st := decodeTestState(t, res)
	if st.BockGamesLeft != 4 || st.BockRoundsQueued != 0 {
		t.Errorf("bock state %d left, %d queued; want the round started: 4, 0", st.BockGamesLeft, st.BockRoundsQueued)
	}
	if want := "{{player:2}} gibt; noch 4 Bockspiele"; st.Summary != want {
		t.Errorf("summary %q, want %q", st.Summary, want)
	}
}

// threshold is a normal game Re (1,3) against Kontra (2,4).
type threshold struct {
	re, kontra string // announcements
	augen      int    // Re's Augen
	winner     string // "re", "kontra", "none"
	value      int64  // points of each winner (or each Re player when none)
}

func TestThresholdsHouse(t *testing.T) {
	cases := []threshold{
		// no announcements: Re 121, Kontra 120
		{"", "", 121, "re", 1},
		{"", "", 120, "kontra", 2},
		{"", "", 119, "kontra", 2},
		// only Kontra announced: Re 120, Kontra 121
		{"", "kontra", 120, "re", 2},
		{"", "kontra", 119, "kontra", 4},
		// only Re announced
		{"re", "", 121, "re", 2},
		{"re", "", 120, "kontra", 4},
		{"re", "kontra", 121, "re", 4},
		{"re", "kontra", 120, "kontra", 8},
		// losers under 90 / 60 / 30 / schwarz
		{"", "", 151, "re", 2},
		{"", "", 150, "re", 1},
		{"", "", 149, "re", 1},
		{"", "", 89, "kontra", 3},
		{"", "", 90, "kontra", 2},
		{"", "", 91, "kontra", 2},
		{"", "", 180, "re", 2},
		{"", "", 181, "re", 3},
		{"", "", 210, "re", 3},
		{"", "", 211, "re", 4},
		{"", "", 29, "kontra", 5},
		{"", "", 30, "kontra", 4},
		{"", "", 31, "kontra", 4},
		{"", "", 232, "re", 4},
		{"", "", 240, "re", 5},
		{"", "", 0, "kontra", 6},
		// Re's own Absagen: 151 / 181 / 211 / all tricks; Kontra needs 90 / 60 / 30 / one trick
		{"keine90", "", 151, "re", 6},
		{"keine90", "", 150, "kontra", 6},
		{"keine60", "", 181, "re", 10},
		{"keine60", "", 180, "kontra", 8},
		{"keine30", "", 211, "re", 14},
		{"keine30", "", 210, "kontra", 10},
		{"schwarz", "", 240, "re", 18},
		{"schwarz", "", 232, "kontra", 12},
		// Kontra's Absagen: Re needs 90 / 60 / 30 / one trick
		{"", "keine90", 90, "re", 4},
		{"", "keine90", 89, "kontra", 8},
		{"re", "keine60", 60, "re", 12},
		{"re", "keine60", 59, "kontra", 24},
		{"", "keine30", 30, "re", 8},
		{"", "keine30", 29, "kontra", 16},
		{"", "schwarz", 8, "re", 10},
		{"", "schwarz", 0, "kontra", 20},
		// Kontra's own goal after its Absage: 151
		{"", "keine90", 90, "re", 4},
		{"", "keine90", 89, "kontra", 8},
		// Re's Absage with a plain Kontra: Kontra needs 90
		{"keine90", "kontra", 150, "kontra", 12},
		{"keine90", "kontra", 151, "re", 12},
		// both made Absagen
		{"keine90", "keine90", 151, "re", 16},
		{"keine90", "keine90", 89, "kontra", 20},
		{"keine90", "keine90", 150, "none", 0},
		{"keine90", "keine90", 120, "none", 0},
		{"keine90", "keine60", 181, "re", 24},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/%s/%d", c.re, c.kontra, c.augen)
		t.Run(name, func(t *testing.T) {
			checkThreshold(t, "house", c)
		})
	}
}

func checkThreshold(t *testing.T, preset string, c threshold) {
	t.Helper()
	facts := fmt.Sprintf(`{"game":"normal","re":{"players":[1,3],"augen":%d,"announced":%q},"kontra":{"announced":%q}}`,
		c.augen, c.re, c.kontra)
	res := testHand{preset: preset, facts: facts}.mustScore(t)
	var want map[int64]int64
	switch c.winner {
	case "re":
		want = map[int64]int64{1: c.value, 3: c.value, 2: -c.value, 4: -c.value}
		if !sameIDs(res.Winners, []int64{1, 3}) {
			t.Errorf("winners %v, want Re [1 3]", res.Winners)
		}
	case "kontra":
		want = map[int64]int64{2: c.value, 4: c.value, 1: -c.value, 3: -c.value}
		if !sameIDs(res.Winners, []int64{2, 4}) {
			t.Errorf("winners %v, want Kontra [2 4]", res.Winners)
		}
	default:
		want = map[int64]int64{1: c.value, 3: c.value, 2: -c.value, 4: -c.value}
		if len(res.Winners) != 0 {
			t.Errorf("winners %v, want none", res.Winners)
		}
	}
	gamestest.WantPoints(t, res, four, want)
}

func TestNoWinnerScoresSpecialPoints(t *testing.T) {
	res := testHand{facts: `{"game":"normal",
		"re":{"players":[1,3],"augen":120,"announced":"keine90","fuchs_gefangen":2},
		"kontra":{"announced":"keine90","karlchen":true}}`, state: bockState}.mustScore(t)
	// d = 2 - 1 = 1, Bock x2 = 2
	gamestest.WantPoints(t, res, four, map[int64]int64{1: 2, 3: 2, 2: -2, 4: -2})
	wantLine(t, res, "keine Partei erreicht ihr Ziel", "=", 0)
	wantLine(t, res, "Fuchs gefangen (Re)", "+", 2)
	wantLine(t, res, "Karlchen (Kontra)", "-", 1)
	wantLine(t, res, "Bock", "x", 2)
	wantLine(t, res, "Spielwert für Re", "=", 2)
	if len(res.Winners) != 0 {
		t.Errorf("winners %v, want none", res.Winners)
	}
	e, _ := event(res, "bock_queued")
	if e.Amount != 2 { // Re and Kontra announced, 120:120; no "Kontra lost"
		t.Errorf("bock rounds queued %d, want 2", e.Amount)
	}
}

func TestSpecialPointsTurnValueNegative(t *testing.T) {
	res := testHand{facts: `{"game":"normal",
		"re":{"players":[1,3],"augen":121,"announced":"re"},
		"kontra":{"doppelkopf":2,"fuchs_gefangen":1}}`}.mustScore(t)
	// 1, x2 = 2, - 2 Doppelköpfe - 1 Fuchs = -1: Re won but pays
	wantLine(t, res, "Re angesagt", "x", 2)
	wantLine(t, res, "Doppelkopf (Kontra)", "-", 2)
	wantLine(t, res, "Fuchs gefangen (Kontra)", "-", 1)
	wantLine(t, res, "Spielwert", "=", -1)
	gamestest.WantPoints(t, res, four, map[int64]int64{1: -1, 3: -1, 2: 1, 4: 1})
	if !sameIDs(res.Winners, []int64{1, 3}) {
		t.Errorf("winners %v, want Re [1 3] (they won the game)", res.Winners)
	}
}

func TestSolos(t *testing.T) {
	cases := []struct {
		name    string
		options string
		facts   string
		want    map[int64]int64
		lines   map[string]int64
		absent  []string
	}{
		{"Damensolo won", "", `{"game":"damensolo","re":{"players":[2],"augen":121}}`,
			map[int64]int64{2: 3, 1: -1, 3: -1, 4: -1}, map[string]int64{"Spielwert": 1}, []string{"gegen die Alten", "Solo verloren"}},
		{"Damensolo lost: gegen die Alten and Solo verloren", "", `{"game":"damensolo","re":{"players":[2],"augen":100}}`,
			map[int64]int64{2: -9, 1: 3, 3: 3, 4: 3}, map[string]int64{"gegen die Alten": 1, "Solo verloren": 1, "Spielwert": 3}, nil},
		{"lost solo without gegen die Alten", `{"gegen_die_alten_in_solo":false}`, `{"game":"damensolo","re":{"players":[2],"augen":100}}`,
			map[int64]int64{2: -6, 1: 2, 3: 2, 4: 2}, map[string]int64{"Solo verloren": 1, "Spielwert": 2}, []string{"gegen die Alten"}},
		{"lost solo without Solo verloren", `{"solo_verloren":false}`, `{"game":"bubensolo","re":{"players":[2],"augen":100}}`,
			map[int64]int64{2: -6, 1: 2, 3: 2, 4: 2}, map[string]int64{"gegen die Alten": 1}, []string{"Solo verloren"}},
		{"Farbsolo with announcements", "", `{"game":"farbsolo","suit":"herz","re":{"players":[4],"augen":190,"announced":"keine90"},"kontra":{"announced":"kontra"}}`,
			map[int64]int64{4: 48, 1: -16, 2: -16, 3: -16}, map[string]int64{"keine 90 angesagt (Re)": 1, "Spielwert": 16}, nil},
		{"Hochzeit without partner is a solo", "", `{"game":"hochzeit","re":{"players":[1],"augen":130}}`,
			map[int64]int64{1: 3, 2: -1, 3: -1, 4: -1}, map[string]int64{"Spielwert": 1}, nil},
		{"stille Hochzeit lost", "", `{"game":"stille_hochzeit","re":{"players":[3],"augen":119}}`,
			map[int64]int64{3: -9, 1: 3, 2: 3, 4: 3}, map[string]int64{"Solo verloren": 1}, nil},
		{"special points in a solo when switched on", `{"sonderpunkte_in_solo":true}`, `{"game":"farbsolo","suit":"karo","re":{"players":[1],"augen":140,"fuchs_gefangen":1},"kontra":{"doppelkopf":2}}`,
			map[int64]int64{1: 0, 2: 0, 3: 0, 4: 0}, map[string]int64{"Spielwert": 0}, nil},
		{"Köhler", "", `{"game":"koehler","re":{"players":[1],"augen":240}}`,
			map[int64]int64{1: 15, 2: -5, 3: -5, 4: -5}, map[string]int64{"schwarz": 1}, nil},
		{"Fleischloser", "", `{"game":"fleischloser","re":{"players":[1],"augen":160}}`,
			map[int64]int64{1: 6, 2: -2, 3: -2, 4: -2}, map[string]int64{"keine 90": 1}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testHand{options: c.options, state: bockState, facts: c.facts}.mustScore(t)
			gamestest.WantPoints(t, res, four, c.want)
			for label, v := range c.lines {
				wantLine(t, res, label, lineOp(label), v)
			}
			for _, label := range c.absent {
				noLine(t, res, label)
			}
			noLine(t, res, "Bock")
			if st := decodeTestState(t, res); st.BockGamesLeft != 4 {
				t.Errorf("a solo used up a Bock game: %d left, want 4", st.BockGamesLeft)
			}
			if _, ok := event(res, "bock_game"); ok {
				t.Error("a solo is not a Bock game")
			}
		})
	}
}

func lineOp(label string) score.Op {
	if label == "Spielwert" {
		return "="
	}
	return "+"
}

func TestSoloTriggersBock(t *testing.T) {
	res := testHand{facts: `{"game":"farbsolo","suit":"pik","herzstich":true,
		"re":{"players":[1],"augen":150,"announced":"re"},"kontra":{"announced":"kontra"}}`}.mustScore(t)
	e, ok := event(res, "bock_queued")
	// Herzstich, Kontra announced and lost, Re and Kontra announced
	if !ok || e.Amount != 3 {
		t.Fatalf("bock_queued %+v, want 3 rounds", e)
	}
	st := decodeTestState(t, res)
	if st.BockGamesLeft != 4 || st.BockRoundsQueued != 2 {
		t.Errorf("bock state %d left, %d queued; want 4, 2", st.BockGamesLeft, st.BockRoundsQueued)
	}
	if want := "{{player:2}} gibt; noch 4 Bockspiele, 2 Bockrunden warten; Soli an diesem Abend: {{player:1}} 1"; st.Summary != want {
		t.Errorf("summary %q, want %q", st.Summary, want)
	}
}

func TestVerworfen(t *testing.T) {
	cases := []struct {
		name    string
		preset  string
		facts   string
		want    map[int64]int64
		winners []int64
	}{
		// Re (1,3) 130 but 1 revoked: Kontra wins 1 + gegen die Alten, x2 = 4; 1 pays 8 alone
		{"normal, Re revokes", "house", `{"game":"normal","verworfen_by":1,"re":{"players":[1,3],"augen":130,"announced":"re"}}`,
			map[int64]int64{1: -8, 3: 0, 2: 4, 4: 4}, []int64{2, 4}},
		// Kontra player 2 revokes, Re 100: Re wins 1
		{"normal, Kontra revokes", "house", `{"game":"normal","verworfen_by":2,"re":{"players":[1,3],"augen":100}}`,
			map[int64]int64{1: 1, 3: 1, 2: -2, 4: 0}, []int64{1, 3}},
		// solo opponent 2 revokes: the soloist wins 1 x3, 2 pays all
		{"solo, opponent revokes", "house", `{"game":"damensolo","verworfen_by":2,"re":{"players":[1],"augen":100}}`,
			map[int64]int64{1: 3, 2: -3, 3: 0, 4: 0}, []int64{1}},
		// soloist revokes with 150: lost solo 1 + gegen die Alten + Solo verloren
		{"solo, soloist revokes", "house", `{"game":"damensolo","verworfen_by":1,"re":{"players":[1],"augen":150}}`,
			map[int64]int64{1: -9, 2: 3, 3: 3, 4: 3}, []int64{2, 3, 4}},
		// ddv: the revoker's party loses as a party: 1 + gegen die Kreuz-Damen
		{"ddv, Re revokes", "ddv", `{"game":"normal","verworfen_by":1,"re":{"players":[1,3],"augen":130}}`,
			map[int64]int64{1: -2, 3: -2, 2: 2, 4: 2}, []int64{2, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testHand{preset: c.preset, facts: c.facts}.mustScore(t)
			gamestest.WantPoints(t, res, four, c.want)
			if !sameIDs(res.Winners, c.winners) {
				t.Errorf("winners %v, want %v", res.Winners, c.winners)
			}
			if _, ok := event(res, "verworfen"); !ok {
				t.Error("no verworfen event")
			}
		})
	}
}

func TestDDV(t *testing.T) {
	cases := []struct {
		name    string
		options string
		facts   string
		want    map[int64]int64
		lines   map[string]int64
	}{
		{"Re and Kontra announced, 120:120", "", `{"game":"normal","re":{"players":[1,3],"augen":120,"announced":"re"},"kontra":{"announced":"kontra"}}`,
			map[int64]int64{2: 6, 4: 6, 1: -6, 3: -6}, map[string]int64{"gewonnen": 1, "Re angesagt": 2, "Kontra angesagt": 2, "gegen die Kreuz-Damen": 1}},
		{"Re wins with keine 90", "", `{"game":"normal","re":{"players":[1,3],"augen":151,"announced":"keine90"}}`,
			map[int64]int64{1: 5, 3: 5, 2: -5, 4: -5}, map[string]int64{"keine 90": 1, "Re angesagt": 2, "keine 90 angesagt (Re)": 1}},
		{"120 against keine 90", "", `{"game":"normal","re":{"players":[1,3],"augen":120},"kontra":{"announced":"keine90"}}`,
			map[int64]int64{1: 5, 3: 5, 2: -5, 4: -5}, map[string]int64{"Kontra angesagt": 2, "keine 90 angesagt (Kontra)": 1, "120 gegen keine 90 (Re)": 1}},
		{"60 and 30 against schwarz", "", `{"game":"normal","re":{"players":[1,3],"augen":175,"announced":"schwarz"}}`,
			// Kontra wins (one trick): 1 + Re 2 + 4 Absagen + 60 gegen keine 30 + 30 gegen schwarz + gegen die Kreuz-Damen = 10
			map[int64]int64{2: 10, 4: 10, 1: -10, 3: -10}, map[string]int64{"60 gegen keine 30 (Kontra)": 1, "30 gegen schwarz (Kontra)": 1}},
		{"no winner: reached against Absage and special points", "", `{"game":"normal","re":{"players":[1,3],"augen":130,"announced":"keine90","fuchs_gefangen":1},"kontra":{"announced":"keine90","doppelkopf":1}}`,
			map[int64]int64{1: 1, 3: 1, 2: -1, 4: -1}, map[string]int64{"120 gegen keine 90 (Re)": 1, "Fuchs gefangen (Re)": 1}},
		{"Kontra wins with special points", "", `{"game":"normal","re":{"players":[1,3],"augen":90},"kontra":{"fuchs_gefangen":1}}`,
			map[int64]int64{2: 3, 4: 3, 1: -3, 3: -3}, map[string]int64{"gegen die Kreuz-Damen": 1, "Fuchs gefangen (Kontra)": 1}},
		{"solo without special points, won x3", "", `{"game":"damensolo","re":{"players":[1],"augen":200,"announced":"re"}}`,
			map[int64]int64{1: 15, 2: -5, 3: -5, 4: -5}, map[string]int64{"keine 60": 1, "Re angesagt": 2}},
		{"solo lost: no gegen die Alten, no Solo verloren", "", `{"game":"damensolo","re":{"players":[1],"augen":100}}`,
			map[int64]int64{1: -3, 2: 1, 3: 1, 4: 1}, map[string]int64{"gewonnen": 1}},
		{"Bock switched on", `{"bock":true}`, `{"game":"normal","re":{"players":[1,3],"augen":121}}`,
			map[int64]int64{1: 2, 3: 2, 2: -2, 4: -2}, map[string]int64{"gewonnen": 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testHand{preset: "ddv", options: c.options, state: bockState, facts: c.facts}.mustScore(t)
			gamestest.WantPoints(t, res, four, c.want)
			for label, v := range c.lines {
				wantLine(t, res, label, "+", v)
			}
			noLine(t, res, "gegen die Alten")
			noLine(t, res, "Solo verloren")
		})
	}
}

func TestDDVWithoutBockLeavesStateAlone(t *testing.T) {
	res := testHand{preset: "ddv", state: bockState, facts: `{"game":"normal","herzstich":true,
		"re":{"players":[1,3],"augen":120,"announced":"re"},"kontra":{"announced":"kontra"}}`}.mustScore(t)
	noLine(t, res, "Bock")
	if _, ok := event(res, "bock_queued"); ok {
		t.Error("ddv without Bock queued a round")
	}
	st := decodeTestState(t, res)
	if st.BockGamesLeft != 4 || st.BockRoundsQueued != 0 {
		t.Errorf("bock state %d/%d, want untouched 4/0", st.BockGamesLeft, st.BockRoundsQueued)
	}
}

func TestBockTriggers(t *testing.T) {
	facts := `{"game":"normal","herzstich":true,"re":{"players":[1,3],"augen":120,"announced":"re"},"kontra":{"announced":"kontra"}}`
	cases := []struct {
		options string
		rounds  int64
		left    int
		queued  int
	}{
		{"", 3, 4, 2}, // Herzstich, Re and Kontra announced, 120:120
		{`{"bock_triggers":"one"}`, 1, 4, 0},
		{`{"bock_round_length":2}`, 3, 2, 2},
		{`{"bock":false}`, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.options, func(t *testing.T) {
			res := testHand{options: c.options, facts: facts}.mustScore(t)
			e, _ := event(res, "bock_queued")
			if e.Amount != c.rounds {
				t.Errorf("rounds queued %d, want %d", e.Amount, c.rounds)
			}
			st := decodeTestState(t, res)
			if st.BockGamesLeft != c.left || st.BockRoundsQueued != c.queued {
				t.Errorf("bock state %d left, %d queued; want %d, %d", st.BockGamesLeft, st.BockRoundsQueued, c.left, c.queued)
			}
		})
	}
}

func TestBockTriggerKontraLost(t *testing.T) {
	res := testHand{facts: `{"game":"normal","re":{"players":[1,3],"augen":130},"kontra":{"announced":"kontra"}}`}.mustScore(t)
	if e, _ := event(res, "bock_queued"); e.Amount != 1 {
		t.Errorf("Kontra announced and lost: %d rounds, want 1", e.Amount)
	}
	res = testHand{facts: `{"game":"normal","re":{"players":[1,3],"augen":110},"kontra":{"announced":"kontra"}}`}.mustScore(t)
	if _, ok := event(res, "bock_queued"); ok {
		t.Error("Kontra announced and won: no Bock round")
	}
}

func TestBockQueueWhileRoundRuns(t *testing.T) {
	res := testHand{state: `{"bock_games_left":2,"bock_rounds_queued":0}`,
		facts: `{"game":"normal","herzstich":true,"re":{"players":[1,3],"augen":121}}`}.mustScore(t)
	wantLine(t, res, "Bock", "x", 2)
	gamestest.WantPoints(t, res, four, map[int64]int64{1: 2, 3: 2, 2: -2, 4: -2})
	st := decodeTestState(t, res)
	if st.BockGamesLeft != 1 || st.BockRoundsQueued != 1 {
		t.Errorf("bock state %d/%d, want 1 left, 1 queued (no x4)", st.BockGamesLeft, st.BockRoundsQueued)
	}
	if want := "{{player:2}} gibt; noch 1 Bockspiel, 1 Bockrunde wartet"; st.Summary != want {
		t.Errorf("summary %q, want %q", st.Summary, want)
	}
}

func TestRedeal(t *testing.T) {
	for _, game := range []string{GameSchmeissen, GameArmutNichtGenommen} {
		t.Run(game, func(t *testing.T) {
			res := testHand{state: `{"next_dealer":3,"bock_games_left":2}`, facts: `{"game":"` + game + `"}`}.mustScore(t)
			gamestest.WantPoints(t, res, four, map[int64]int64{})
			if len(res.Winners) != 0 {
				t.Errorf("winners %v, want none", res.Winners)
			}
			st := decodeTestState(t, res)
			if st.NextDealer == nil || *st.NextDealer != 3 {
				t.Errorf("next dealer %v, want 3 again", st.NextDealer)
			}
			if st.BockGamesLeft != 2 {
				t.Errorf("a redeal used up a Bock game: %d left", st.BockGamesLeft)
			}
			if st.Games != 0 {
				t.Errorf("a redeal counted as a game: %d", st.Games)
			}
			if _, ok := event(res, "redeal"); !ok {
				t.Error("no redeal event")
			}
		})
	}
}

func TestArmutAndHochzeitWithPartner(t *testing.T) {
	for _, game := range []string{GameArmut, GameHochzeit} {
		res := testHand{facts: `{"game":"` + game + `","re":{"players":[2,3],"augen":100,"fuchs_gefangen":1}}`}.mustScore(t)
		// Kontra wins 1 + gegen die Alten = 2, - Re's Fuchs = 1
		gamestest.WantPoints(t, res, four, map[int64]int64{1: 1, 4: 1, 2: -1, 3: -1})
	}
}

func TestSeating(t *testing.T) {
	cases := []struct {
		name      string
		seated    []int64
		state     string
		facts     string
		active    []int64
		nextDeal  int64
		nextOut   []int64
		sittingOK bool
	}{
		{"five: the dealer sits out", []int64{1, 2, 3, 4, 5}, "", `{"game":"normal","re":{"players":[2,3],"augen":130}}`,
			[]int64{2, 3, 4, 5}, 2, []int64{2}, true},
		{"six: dealer and the player to his right", []int64{1, 2, 3, 4, 5, 6}, `{"next_dealer":3}`, `{"game":"normal","re":{"players":[4,5],"augen":130}}`,
			[]int64{4, 5, 6, 1}, 4, []int64{4, 3}, true},
		{"seven", []int64{1, 2, 3, 4, 5, 6, 7}, `{"next_dealer":7}`, `{"game":"normal","re":{"players":[1,2],"augen":130}}`,
			[]int64{1, 2, 3, 4}, 1, []int64{1, 6, 7}, true},
		{"next dealer not seated: first seated deals", []int64{5, 6, 7, 8, 9}, `{"next_dealer":3}`, `{"game":"normal","re":{"players":[6,7],"augen":130}}`,
			[]int64{6, 7, 8, 9}, 6, []int64{6}, true},
		{"hand names its players and dealer", []int64{1, 2, 3, 4, 5}, "", `{"game":"normal","dealer":4,"players":[5,1,2,3],"re":{"players":[5,1],"augen":130}}`,
			[]int64{1, 2, 3, 5}, 5, []int64{5}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testHand{seated: c.seated, state: c.state, facts: c.facts}.mustScore(t)
			want := map[int64]int64{}
			for _, id := range c.active {
				want[id] = 1 // Re 130 wins 1; Re are the first two named
			}
			var f Facts
			if err := json.Unmarshal([]byte(c.facts), &f); err != nil {
				t.Fatal(err)
			}
			for _, id := range c.active {
				if !slices.Contains(f.Re.Players, id) {
					want[id] = -1
				}
			}
			gamestest.WantPoints(t, res, c.seated, want)
			st := decodeTestState(t, res)
			if st.NextDealer == nil || *st.NextDealer != c.nextDeal {
				t.Errorf("next dealer %v, want %d", st.NextDealer, c.nextDeal)
			}
			got := slices.Clone(st.NextSittingOut)
			slices.Sort(got)
			wantOut := slices.Clone(c.nextOut)
			slices.Sort(wantOut)
			if !slices.Equal(got, wantOut) {
				t.Errorf("next sitting out %v, want %v", st.NextSittingOut, c.nextOut)
			}
			if len(st.NextPlayers) != 4 {
				t.Errorf("next players %v, want 4", st.NextPlayers)
			}
		})
	}
}

// TestDealerAndPlayers: the result names who dealt, also when the facts
// leave the dealer to the table's state, and the four who played, in
// seating order, without those sitting out.
func TestDealerAndPlayers(t *testing.T) {
	cases := []struct {
		name    string
		seated  []int64
		state   string
		facts   string
		dealer  int64
		players []int64
	}{
		{"five, the state's dealer sits out", []int64{1, 2, 3, 4, 5}, `{"next_dealer":3}`, `{"game":"normal","re":{"players":[4,5],"augen":130}}`,
			3, []int64{1, 2, 4, 5}},
		{"five, no state: the first seated deals", []int64{1, 2, 3, 4, 5}, "", `{"game":"normal","re":{"players":[2,3],"augen":130}}`,
			1, []int64{2, 3, 4, 5}},
		{"five, the facts name dealer and players", []int64{1, 2, 3, 4, 5}, `{"next_dealer":2}`, `{"game":"normal","dealer":4,"players":[5,1,2,3],"re":{"players":[5,1],"augen":130}}`,
			4, []int64{1, 2, 3, 5}},
		{"six, the state's dealer and the player to his right sit out", []int64{1, 2, 3, 4, 5, 6}, `{"next_dealer":3}`, `{"game":"normal","re":{"players":[4,5],"augen":130}}`,
			3, []int64{1, 4, 5, 6}},
		{"four, the dealer plays", four, `{"next_dealer":2}`, `{"game":"damensolo","re":{"players":[2],"augen":130}}`,
			2, []int64{1, 2, 3, 4}},
		{"a redeal at five", []int64{1, 2, 3, 4, 5}, `{"next_dealer":5}`, `{"game":"schmeissen"}`,
			5, []int64{1, 2, 3, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testHand{seated: c.seated, state: c.state, facts: c.facts}.mustScore(t)
			if res.Dealer != c.dealer || !slices.Equal(res.Players, c.players) {
				t.Errorf("dealer %d, players %v; want %d, %v", res.Dealer, res.Players, c.dealer, c.players)
			}
		})
	}
}

func TestSolosPerSession(t *testing.T) {
	state := `{"session":7,"solos":{"1":2,"3":1}}`
	res := testHand{session: 7, state: state, facts: `{"game":"damensolo","re":{"players":[1],"augen":130}}`}.mustScore(t)
	st := decodeTestState(t, res)
	if st.Solos[1] != 3 || st.Solos[3] != 1 {
		t.Errorf("solos %v, want 1:3 3:1", st.Solos)
	}
	res = testHand{session: 8, state: state, facts: `{"game":"bubensolo","re":{"players":[2],"augen":130}}`}.mustScore(t)
	st = decodeTestState(t, res)
	if len(st.Solos) != 1 || st.Solos[2] != 1 || st.Session != 8 || st.Games != 1 {
		t.Errorf("new session: solos %v session %d games %d, want only 2:1, session 8, 1 game", st.Solos, st.Session, st.Games)
	}
	res = testHand{session: 7, state: state, facts: `{"game":"stille_hochzeit","re":{"players":[2],"augen":130}}`}.mustScore(t)
	if st = decodeTestState(t, res); st.Solos[2] != 0 {
		t.Errorf("a stille Hochzeit counted as an announced solo: %v", st.Solos)
	}
}

func TestRules(t *testing.T) {
	var house Rules
	if err := json.Unmarshal(gamestest.MustRules(t, Engine{}, "", ""), &house); err != nil {
		t.Fatal(err)
	}
	if house != Presets["house"] {
		t.Errorf("default rules %+v, want the house preset", house)
	}
	var ddv Rules
	if err := json.Unmarshal(gamestest.MustRules(t, Engine{}, "ddv", `{"bock":true,"bock_round_length":5,"bock_triggers":"one"}`), &ddv); err != nil {
		t.Fatal(err)
	}
	if !ddv.Bock || ddv.BockRoundLength != 5 || ddv.BockTriggers != "one" || ddv.Valuation != ValuationDDV || ddv.Armut {
		t.Errorf("ddv with overrides: %+v", ddv)
	}
	bad := []struct{ preset, options, field string }{
		{"skat", "", "preset"},
		{"house", `{"sonderpunkte":true}`, "options.sonderpunkte"},
		{"house", `{"valuation":"ddv"}`, "options.valuation"},
		{"house", `{"bock_triggers":"two"}`, "options.bock_triggers"},
		{"house", `{"bock_round_length":-1}`, "options.bock_round_length"},
		{"house", `{"bock_round_length":101}`, "options.bock_round_length"},
		{"house", `{"bock":"yes"}`, "options.bock"},
	}
	for _, b := range bad {
		_, err := Engine{}.Rules(b.preset, json.RawMessage(b.options))
		gamestest.WantViolation(t, err, b.field)
	}
}

func TestBadRulesAndSeating(t *testing.T) {
	facts := json.RawMessage(`{"game":"normal","re":{"players":[1,3],"augen":130}}`)
	cases := []struct {
		rules  string
		seated []int64
		field  string
	}{
		{`{"valuation":"skat","bock_triggers":"each"}`, four, "rules.valuation"},
		{`[]`, four, "rules"},
		{string(gamestest.MustRules(t, Engine{}, "", "")), []int64{1, 2, 3}, "seated"},
		{string(gamestest.MustRules(t, Engine{}, "", "")), []int64{1, 2, 3, 4, 5, 6, 7, 8}, "seated"},
		{string(gamestest.MustRules(t, Engine{}, "", "")), []int64{1, 2, 3, 2}, "seated[3]"},
	}
	for _, c := range cases {
		_, err := Engine{}.Score(scoreHand(c.seated, c.rules, facts))
		gamestest.WantViolation(t, err, c.field)
	}
}

func TestInvalidFacts(t *testing.T) {
	cases := []struct {
		name    string
		preset  string
		options string
		seated  []int64
		facts   string
		field   string
	}{
		{"not JSON", "", "", nil, `{"game":`, "facts"},
		{"trailing data", "", "", nil, `{"game":"schmeissen"} {}`, "facts"},
		{"unknown field", "", "", nil, `{"game":"normal","ramsch":true}`, "facts.ramsch"},
		{"unknown game", "", "", nil, `{"game":"ramsch"}`, "facts.game"},
		{"no game", "", "", nil, `{}`, "facts.game"},
		{"Farbsolo without suit", "", "", nil, `{"game":"farbsolo","re":{"players":[1],"augen":130}}`, "facts.suit"},
		{"suit outside a Farbsolo", "", "", nil, `{"game":"normal","suit":"herz","re":{"players":[1,2],"augen":130}}`, "facts.suit"},
		{"three players", "", "", []int64{1, 2, 3, 4, 5}, `{"game":"normal","players":[1,2,3],"re":{"players":[1,2],"augen":130}}`, "facts.players"},
		{"player not seated", "", "", nil, `{"game":"normal","players":[1,2,3,9],"re":{"players":[1,2],"augen":130}}`, "facts.players[3]"},
		{"player twice", "", "", []int64{1, 2, 3, 4, 5}, `{"game":"normal","players":[1,1,3,4],"re":{"players":[1,3],"augen":130}}`, "facts.players[1]"},
		{"dealer not seated", "", "", nil, `{"game":"normal","dealer":9,"re":{"players":[1,2],"augen":130}}`, "facts.dealer"},
		{"redeal with parties", "", "", nil, `{"game":"schmeissen","re":{"players":[1,2],"augen":130}}`, "facts.re"},
		{"redeal with Herzstich", "", "", nil, `{"game":"armut_nicht_genommen","herzstich":true}`, "facts.herzstich"},
		{"Schmeißen switched off", "ddv", "", nil, `{"game":"schmeissen"}`, "facts.game"},
		{"Armut switched off", "ddv", "", nil, `{"game":"armut","re":{"players":[1,2],"augen":130}}`, "facts.game"},
		{"no Re party", "", "", nil, `{"game":"normal"}`, "facts.re"},
		{"normal game with one Re player", "", "", nil, `{"game":"normal","re":{"players":[1],"augen":130}}`, "facts.re.players"},
		{"solo with two Re players", "", "", nil, `{"game":"damensolo","re":{"players":[1,2],"augen":130}}`, "facts.re.players"},
		{"Hochzeit with three", "", "", nil, `{"game":"hochzeit","re":{"players":[1,2,3],"augen":130}}`, "facts.re.players"},
		{"Re player sits out", "", "", []int64{1, 2, 3, 4, 5}, `{"game":"normal","re":{"players":[2,1],"augen":130}}`, "facts.re.players[1]"},
		{"Re player twice", "", "", nil, `{"game":"normal","re":{"players":[2,2],"augen":130}}`, "facts.re.players[1]"},
		{"Kontra player in Re", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":130},"kontra":{"players":[1,3]}}`, "facts.kontra.players[0]"},
		{"Kontra of three in a normal game", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":130},"kontra":{"players":[3,4,1]}}`, "facts.kontra.players"},
		{"no Augen", "", "", nil, `{"game":"normal","re":{"players":[1,2]}}`, "facts.re.augen"},
		{"Augen 241", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":241}}`, "facts.re.augen"},
		{"Augen -1", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":-1}}`, "facts.re.augen"},
		{"Augen 7", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":7}}`, "facts.re.augen"},
		{"Augen 233", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":233}}`, "facts.re.augen"},
		{"Augen huge", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":99999999999999999999}}`, "facts.re.augen"},
		{"Augen not 240", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":130},"kontra":{"augen":100}}`, "facts.kontra.augen"},
		{"Kontra Augen huge", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":130},"kontra":{"augen":9223372036854775807}}`, "facts.kontra.augen"},
		{"Re with Augen took no trick", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":130,"took_trick":false}}`, "facts.re.took_trick"},
		{"Kontra without Augen took a trick", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":240},"kontra":{"took_trick":true}}`, "facts.kontra.took_trick"},
		{"Re says kontra", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":130,"announced":"kontra"}}`, "facts.re.announced"},
		{"Kontra says re", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":130},"kontra":{"announced":"re"}}`, "facts.kontra.announced"},
		{"unknown level", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":130,"announced":"keine 90"}}`, "facts.re.announced"},
		{"special points in a solo", "", "", nil, `{"game":"damensolo","re":{"players":[1],"augen":130,"doppelkopf":1}}`, "facts.re.doppelkopf"},
		{"special points in a ddv solo", "ddv", "", nil, `{"game":"farbsolo","suit":"karo","re":{"players":[1],"augen":130},"kontra":{"karlchen":true}}`, "facts.kontra.karlchen"},
		{"negative Doppelkopf", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":130,"doppelkopf":-1}}`, "facts.re.doppelkopf"},
		{"Doppelköpfe beyond the Augen", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":79,"doppelkopf":2}}`, "facts.re.doppelkopf"},
		{"Doppelköpfe fit exactly", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":80,"doppelkopf":2},"kontra":{"doppelkopf":5}}`, "facts.kontra.doppelkopf"},
		{"five Doppelköpfe in total", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":160,"doppelkopf":3},"kontra":{"doppelkopf":2}}`, "facts.kontra.doppelkopf"},
		{"three Füchse for one party", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":160,"fuchs_gefangen":3}}`, "facts.re.fuchs_gefangen"},
		{"three Füchse in total", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":160,"fuchs_gefangen":1},"kontra":{"fuchs_gefangen":2}}`, "facts.kontra.fuchs_gefangen"},
		{"Schweinchen: the Schwein is not caught", "", "", nil, `{"game":"normal","schweinchen":3,"re":{"players":[1,2],"augen":160,"fuchs_gefangen":2}}`, "facts.re.fuchs_gefangen"},
		{"Fuchs without a trick", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":240},"kontra":{"fuchs_gefangen":1}}`, "facts.kontra.fuchs_gefangen"},
		{"two Karlchen", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":160,"karlchen":true},"kontra":{"karlchen":true}}`, "facts.kontra.karlchen"},
		{"Karlchen without a trick", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":0,"karlchen":true}}`, "facts.re.karlchen"},
		{"Fuchs in a Damensolo", "", `{"sonderpunkte_in_solo":true}`, nil, `{"game":"damensolo","re":{"players":[1],"augen":130,"fuchs_gefangen":1}}`, "facts.re.fuchs_gefangen"},
		{"Karlchen in a Fleischloser", "", `{"sonderpunkte_in_solo":true}`, nil, `{"game":"fleischloser","re":{"players":[1],"augen":130,"karlchen":true}}`, "facts.re.karlchen"},
		{"Herzstich in a Herz-Solo", "", "", nil, `{"game":"farbsolo","suit":"herz","herzstich":true,"re":{"players":[1],"augen":130}}`, "facts.herzstich"},
		{"revoker sits out", "", "", []int64{1, 2, 3, 4, 5}, `{"game":"normal","verworfen_by":1,"re":{"players":[2,3],"augen":130}}`, "facts.verworfen_by"},
		{"Schweinchen switched off", "ddv", "", nil, `{"game":"normal","schweinchen":1,"re":{"players":[1,2],"augen":130}}`, "facts.schweinchen"},
		{"Schweinchen in a Damensolo", "", "", nil, `{"game":"damensolo","schweinchen":1,"re":{"players":[1],"augen":130}}`, "facts.schweinchen"},
		{"Schweinchen player not in the hand", "", "", nil, `{"game":"normal","schweinchen":9,"re":{"players":[1,2],"augen":130}}`, "facts.schweinchen"},
		{"Augen as a string", "", "", nil, `{"game":"normal","re":{"players":[1,2],"augen":"130"}}`, "facts.re.augen"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := testHand{preset: c.preset, options: c.options, seated: c.seated, facts: c.facts}.score(t)
			gamestest.WantViolation(t, err, c.field)
		})
	}
}

func TestValidEdgesAccepted(t *testing.T) {
	cases := []string{
		`{"game":"normal","re":{"players":[1,2],"augen":8,"took_trick":true}}`,
		`{"game":"normal","re":{"players":[1,2],"augen":232},"kontra":{"took_trick":true,"augen":8}}`,
		`{"game":"normal","re":{"players":[1,2],"augen":240},"kontra":{"took_trick":false,"players":[4,3]}}`,
		`{"game":"normal","re":{"players":[1,2],"augen":160,"doppelkopf":4}}`,
		`{"game":"normal","schweinchen":1,"re":{"players":[1,2],"augen":160,"fuchs_gefangen":1}}`,
		`{"game":"farbsolo","suit":"karo","schweinchen":1,"re":{"players":[1],"augen":160}}`,
		`{"game":"farbsolo","suit":"kreuz","herzstich":true,"re":{"players":[1],"augen":160}}`,
	}
	for _, facts := range cases {
		testHand{facts: facts}.mustScore(t)
	}
}

func TestTitle(t *testing.T) {
	cases := []struct {
		name, preset, state, facts, want string
	}{
		{"worked example A", "", bockState, `{"game":"normal",
			"re":{"players":[1,3],"augen":187,"announced":"keine90","fuchs_gefangen":1},
			"kontra":{"doppelkopf":1}}`, "Normalspiel, Re gewinnt 187:53"},
		{"worked example B: Kontra's Augen first", "", "", `{"game":"normal",
			"re":{"players":[1,2],"augen":109,"announced":"re","karlchen":true},
			"kontra":{"announced":"kontra"}}`, "Normalspiel, Kontra gewinnt 131:109"},
		{"Spaltarsch", "", "", `{"game":"normal","re":{"players":[1,2],"augen":120}}`, "Normalspiel, Kontra gewinnt 120:120"},
		{"Hochzeit with partner", "", "", `{"game":"hochzeit","re":{"players":[1,4],"augen":150}}`, "Hochzeit, Re gewinnt 150:90"},
		{"Armut", "", "", `{"game":"armut","re":{"players":[2,3],"augen":100}}`, "Armut, Kontra gewinnt 140:100"},
		{"nobody won", "", "", `{"game":"normal","re":{"players":[1,3],"augen":140,"announced":"keine90"},
			"kontra":{"announced":"keine90"}}`, "Normalspiel, kein Sieger, Re 140:100"},
		{"Farbsolo lost", "", "", `{"game":"farbsolo","suit":"kreuz","re":{"players":[3],"augen":98}}`, "Kreuz-Solo von {{player:3}} verloren"},
		{"Karo-Solo won", "", "", `{"game":"farbsolo","suit":"karo","re":{"players":[1],"augen":160}}`, "Karo-Solo von {{player:1}} gewonnen"},
		{"Damensolo won", "", "", `{"game":"damensolo","re":{"players":[2],"augen":121}}`, "Damensolo von {{player:2}} gewonnen"},
		{"Köhler lost", "", "", `{"game":"koehler","re":{"players":[4],"augen":100}}`, "Köhler von {{player:4}} verloren"},
		{"Hochzeit without partner", "", "", `{"game":"hochzeit","re":{"players":[1],"augen":130}}`, "Hochzeit-Solo von {{player:1}} gewonnen"},
		{"stille Hochzeit lost", "", "", `{"game":"stille_hochzeit","re":{"players":[3],"augen":119}}`, "Stille Hochzeit von {{player:3}} verloren"},
		{"solo, nobody won", "", "", `{"game":"fleischloser","re":{"players":[2],"augen":140,"announced":"keine90"},
			"kontra":{"announced":"keine90"}}`, "Fleischloser von {{player:2}}, kein Sieger"},
		{"normal, Re revokes", "", "", `{"game":"normal","verworfen_by":1,"re":{"players":[1,3],"augen":130,"announced":"re"}}`,
			"Normalspiel, Kontra gewinnt, {{player:1}} verworfen"},
		{"solo, opponent revokes", "", "", `{"game":"damensolo","verworfen_by":2,"re":{"players":[1],"augen":100}}`,
			"Damensolo von {{player:1}} gewonnen, {{player:2}} verworfen"},
		{"Schmeißen", "", "", `{"game":"schmeissen"}`, "Schmeißen – neu gegeben"},
		{"Armut nicht genommen", "", "", `{"game":"armut_nicht_genommen"}`, "Armut nicht genommen – neu gegeben"},
		{"ddv preset", "ddv", "", `{"game":"normal","re":{"players":[1,3],"augen":187}}`, "Normalspiel, Re gewinnt 187:53"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testHand{preset: c.preset, state: c.state, facts: c.facts}.mustScore(t)
			if res.Title != c.want {
				t.Errorf("title %q, want %q", res.Title, c.want)
			}
			if n := len([]rune(res.Title)); n > 60 {
				t.Errorf("title %q has %d characters, want at most 60", res.Title, n)
			}
		})
	}
}
