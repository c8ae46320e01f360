package klaberjass

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

var (
	seated4 = []int64{1, 2, 3, 4}
	seated3 = []int64{1, 2, 3}
	seated2 = []int64{1, 2}
)

// play scores a hand that must be accepted.
func play(t testing.TB, seated []int64, rules, state json.RawMessage, facts string) score.Result {
	t.Helper()
	if rules == nil {
		rules = gamestest.MustRules(t, Engine{}, "", "")
	}
	return gamestest.MustScore(t, Engine{}, score.Hand{Seated: seated, Rules: rules, State: state, Facts: json.RawMessage(facts)})
}

func stateOf(t testing.TB, res score.Result) State {
	t.Helper()
	var st State
	if err := json.Unmarshal(res.State, &st); err != nil {
		t.Fatalf("state %s: %v", res.State, err)
	}
	return st
}

// die returns the die of the side made of exactly these players.
func die(t testing.TB, st State, players ...int64) int {
	t.Helper()
	for _, s := range st.Sides {
		if sameSet(s.Players, players) {
			return s.Die
		}
	}
	t.Fatalf("no side %v in state %+v", players, st.Sides)
	return -1
}

// line returns the value of the line with exactly this label.
func line(t testing.TB, res score.Result, label string) string {
	t.Helper()
	for _, l := range res.Lines {
		if l.Label == label {
			return string(l.Op) + " " + l.Value.String()
		}
	}
	t.Fatalf("no line %q in %+v", label, res.Lines)
	return ""
}

func hasLine(res score.Result, label string) bool {
	return slices.ContainsFunc(res.Lines, func(l score.Line) bool { return l.Label == label })
}

func assertZeroPoints(t testing.TB, res score.Result, want []int64) {
	t.Helper()
	var got []int64
	for _, p := range res.Points {
		if !p.Points.IsZero() {
			t.Errorf("player %d scored %s, Klaberjass scores 0", p.Player, p.Points)
		}
		got = append(got, p.Player)
	}
	if !slices.Equal(got, want) {
		t.Errorf("points list players %v, want %v", got, want)
	}
}

// Worked examples A and B of README.md, played in a row: A and C
// (players 1, 3) against B and D (players 2, 4).
func TestWorkedExamples(t *testing.T) {
	a := play(t, seated4, nil, nil, `{"dealer":4,"trump_player":1,"trump_suit":"herz",
		"melds":[{"player":1,"kind":"terz","suit":"herz","top":"koenig"}],
		"card_points":[{"player":1,"points":92},{"player":2,"points":60}],"last_trick":3}`)
	assertZeroPoints(t, a, seated4)
	checks := map[string]string{
		"Augen {{player:1}}/{{player:3}} (Trumpf)": "+ 92",
		"letzter Stich":                                    "+ 10",
		"Terz Herz bis König ({{player:1}})":               "+ 20",
		"Summe {{player:1}}/{{player:3}} (Trumpf)":         "= 122",
		"Summe {{player:2}}/{{player:4}}":                  "= 60",
		"Trumpf 122 gegen 60: Trumpf vorn":                 "= 62",
		"Würfel {{player:1}}/{{player:3}}: Trumpf gewinnt": "+ 1",
		"Würfelzug": "= 1",
		"Würfel {{player:1}}/{{player:3}} von 0 auf 1": "= 1",
	}
	for label, want := range checks {
		if got := line(t, a, label); got != want {
			t.Errorf("A: %s = %s, want %s", label, got, want)
		}
	}
	if !slices.Equal(a.Winners, []int64{1, 3}) {
		t.Errorf("A: winners %v, want [1 3]", a.Winners)
	}
	st := stateOf(t, a)
	if die(t, st, 1, 3) != 1 || die(t, st, 2, 4) != 0 {
		t.Errorf("A: dice %+v, want A/C 1, B/D 0", st.Sides)
	}

	b := play(t, seated4, nil, a.State, `{"dealer":1,"trump_player":2,"trump_suit":"pik","kontra":true,"bella":4,
		"card_points":[{"player":2,"points":70},{"player":1,"points":82}],"last_trick":1}`)
	checks = map[string]string{
		"Augen {{player:2}}/{{player:4}} (Trumpf)":          "+ 70",
		"Bella ({{player:4}})":                              "+ 20",
		"Summe {{player:2}}/{{player:4}} (Trumpf)":          "= 90",
		"Summe {{player:1}}/{{player:3}}":                   "= 92",
		"Trumpf 90 gegen 92: Trumpf verliert":               "= -2",
		"Würfel {{player:1}}/{{player:3}}: Trumpf verliert": "+ 2",
		"Kontra":    "x 2",
		"Würfelzug": "= 4",
		"Würfel {{player:1}}/{{player:3}} von 1 auf 5": "= 5",
	}
	for label, want := range checks {
		if got := line(t, b, label); got != want {
			t.Errorf("B: %s = %s, want %s", label, got, want)
		}
	}
	if !slices.Equal(b.Winners, []int64{1, 3}) {
		t.Errorf("B: winners %v, want [1 3]", b.Winners)
	}
	st = stateOf(t, b)
	if die(t, st, 1, 3) != 5 || die(t, st, 2, 4) != 0 || st.Hands != 2 || st.Match != 1 || len(b.Events) != 0 {
		t.Errorf("B: state %+v events %+v, want A/C 5, B/D 0 after 2 hands of match 1", st, b.Events)
	}
}

// Every comparison threshold on both sides: card points always split into
// an even difference, so a tie and a lead of 2 are the two sides.
func TestComparison(t *testing.T) {
	tests := []struct {
		name    string
		seated  []int64
		facts   string
		won     bool
		dice    map[int64]int // die of the side containing this player
		winners []int64
	}{
		{"4 players tie loses for trump", seated4,
			`{"dealer":4,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":81},{"player":2,"points":71}],"last_trick":2}`,
			false, map[int64]int{1: 0, 2: 2}, []int64{2, 4}},
		{"4 players trump ahead by 2 wins", seated4,
			`{"dealer":4,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":82},{"player":2,"points":70}],"last_trick":2}`,
			true, map[int64]int{1: 1, 2: 0}, []int64{1, 3}},
		{"4 players opponents ahead by 2", seated4,
			`{"dealer":1,"trump_player":2,"trump_suit":"kreuz","card_points":[{"player":4,"points":70},{"player":3,"points":82}],"last_trick":4}`,
			false, map[int64]int{1: 2, 2: 0}, []int64{1, 3}},
		{"2 players tie loses for trump", seated2,
			`{"dealer":2,"trump_player":1,"trump_suit":"karo","card_points":[{"player":1,"points":71},{"player":2,"points":81}],"bella":2,"last_trick":1,"melds":[{"player":1,"kind":"terz","suit":"pik","top":"9"}]}`,
			false, map[int64]int{1: 0, 2: 2}, []int64{2}},
		{"2 players trump ahead by 2 wins", seated2,
			`{"dealer":2,"trump_player":1,"trump_suit":"karo","card_points":[{"player":1,"points":72},{"player":2,"points":80}],"last_trick":1}`,
			true, map[int64]int{1: 1, 2: 0}, []int64{1}},
		{"3 players trump ahead of each by 2 wins", seated3,
			`{"dealer":3,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":56},{"player":2,"points":54},{"player":3,"points":42}],"last_trick":3}`,
			true, map[int64]int{1: 1, 2: 0, 3: 0}, []int64{1}},
		{"3 players tie with one opponent: each opponent moves", seated3,
			`{"dealer":3,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":56},{"player":2,"points":56},{"player":3,"points":40}],"last_trick":3}`,
			false, map[int64]int{1: 0, 2: 1, 3: 1}, []int64{2, 3}},
		{"3 players trump beats one, not the other", seated3,
			`{"dealer":1,"trump_player":2,"trump_suit":"pik","card_points":[{"player":1,"points":20},{"player":2,"points":60},{"player":3,"points":72}],"last_trick":2,"kontra":true}`,
			false, map[int64]int{1: 2, 2: 0, 3: 2}, []int64{1, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := play(t, tc.seated, nil, nil, tc.facts)
			assertZeroPoints(t, res, tc.seated)
			st := stateOf(t, res)
			for id, want := range tc.dice {
				if got := st.Sides[slices.IndexFunc(st.Sides, func(s SideState) bool { return slices.Contains(s.Players, id) })].Die; got != want {
					t.Errorf("die of player %d's side = %d, want %d", id, got, want)
				}
			}
			if !slices.Equal(res.Winners, tc.winners) {
				t.Errorf("winners %v, want %v", res.Winners, tc.winners)
			}
		})
	}
}

func TestComparisonLines(t *testing.T) {
	tie := play(t, seated4, nil, nil, `{"dealer":4,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":81},{"player":2,"points":71}],"last_trick":2}`)
	if got := line(t, tie, "Trumpf 81 gegen 81: Gleichstand, Trumpf verliert"); got != "= 0" {
		t.Errorf("tie line %s", got)
	}
	if got := line(t, tie, "Würfel {{player:2}}/{{player:4}}: Trumpf verliert"); got != "+ 2" {
		t.Errorf("tie move %s", got)
	}
	three := play(t, seated3, nil, nil, `{"dealer":1,"trump_player":2,"trump_suit":"pik","card_points":[{"player":1,"points":20},{"player":2,"points":60},{"player":3,"points":72}],"last_trick":2,"kontra":true}`)
	for label, want := range map[string]string{
		"Trumpf 70 gegen jeden Gegner (höchster 72): Trumpf verliert": "= -2",
		"Würfel je Gegner: Trumpf verliert":                           "+ 1",
		"Würfelzug":                                                   "= 2",
		"Würfel {{player:1}} von 0 auf 2":                             "= 2",
		"Würfel {{player:3}} von 0 auf 2":                             "= 2",
	} {
		if got := line(t, three, label); got != want {
			t.Errorf("%s = %s, want %s", label, got, want)
		}
	}
}

// Meld precedence in every tie-break. Card points 76/76 and the last trick
// to player 1 give the trump side (1/3, herz) 86 and 2/4 76 before melds.
func TestMeldPrecedence(t *testing.T) {
	tests := []struct {
		name     string
		dealer   int64
		melds    string
		bella    string
		sum13    int
		sum24    int
		bestLine string
	}{
		{"Halber beats two Terze", 4,
			`{"player":2,"kind":"halber","suit":"karo","top":"10"},{"player":1,"kind":"terz","suit":"pik","top":"ass"},{"player":1,"kind":"terz","suit":"kreuz","top":"ass"}`, "",
			86, 126, "höchste Meldung Halber Karo bis 10 ({{player:2}}): es zählen nur die Meldungen von {{player:2}}/{{player:4}}"},
		{"Halber beats a trump Terz to the Ass", 4,
			`{"player":3,"kind":"terz","suit":"herz","top":"ass"},{"player":4,"kind":"halber","suit":"kreuz","top":"10"}`, "",
			86, 126, "höchste Meldung Halber Kreuz bis 10 ({{player:4}}): es zählen nur die Meldungen von {{player:2}}/{{player:4}}"},
		{"higher top card wins", 4,
			`{"player":1,"kind":"terz","suit":"karo","top":"dame"},{"player":2,"kind":"terz","suit":"pik","top":"koenig"}`, "",
			86, 96, "höchste Meldung Terz Pik bis König ({{player:2}}): es zählen nur die Meldungen von {{player:2}}/{{player:4}}"},
		{"higher Halber wins", 4,
			`{"player":2,"kind":"halber","suit":"karo","top":"dame"},{"player":3,"kind":"halber","suit":"pik","top":"koenig"},{"player":4,"kind":"terz","suit":"kreuz","top":"ass"}`, "",
			136, 76, "höchste Meldung Halber Pik bis König ({{player:3}}): es zählen nur die Meldungen von {{player:1}}/{{player:3}}"},
		{"equal height: trump wins over the earlier seat", 4,
			`{"player":2,"kind":"terz","suit":"pik","top":"ass"},{"player":3,"kind":"terz","suit":"herz","top":"ass"},{"player":1,"kind":"terz","suit":"karo","top":"9"}`, "",
			126, 76, "höchste Meldung Terz Herz bis Ass ({{player:3}}): es zählen nur die Meldungen von {{player:1}}/{{player:3}}"},
		{"equal height, no trump: dealer 4, player 2 comes before 3", 4,
			`{"player":3,"kind":"terz","suit":"kreuz","top":"ass"},{"player":2,"kind":"terz","suit":"pik","top":"ass"}`, "",
			86, 96, "höchste Meldung Terz Pik bis Ass ({{player:2}}): es zählen nur die Meldungen von {{player:2}}/{{player:4}}"},
		{"equal height, no trump: dealer 2, player 3 comes first", 2,
			`{"player":3,"kind":"terz","suit":"kreuz","top":"ass"},{"player":2,"kind":"terz","suit":"pik","top":"ass"}`, "",
			106, 76, "höchste Meldung Terz Kreuz bis Ass ({{player:3}}): es zählen nur die Meldungen von {{player:1}}/{{player:3}}"},
		{"equal height, no trump: the dealer comes last", 1,
			`{"player":1,"kind":"terz","suit":"kreuz","top":"ass"},{"player":4,"kind":"terz","suit":"pik","top":"ass"}`, "",
			86, 96, "höchste Meldung Terz Pik bis Ass ({{player:4}}): es zählen nur die Meldungen von {{player:2}}/{{player:4}}"},
		{"Bella counts for the side whose melds lose", 4,
			`{"player":1,"kind":"halber","suit":"pik","top":"ass"}`, `,"bella":2`,
			136, 96, "höchste Meldung Halber Pik bis Ass ({{player:1}}): es zählen nur die Meldungen von {{player:1}}/{{player:3}}"},
		{"Bella's cards inside the declarer's own Terz", 4,
			`{"player":2,"kind":"terz","suit":"herz","top":"koenig"}`, `,"bella":2`,
			86, 116, "höchste Meldung Terz Herz bis König ({{player:2}}): es zählen nur die Meldungen von {{player:2}}/{{player:4}}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			facts := `{"dealer":` + itoa(tc.dealer) + `,"trump_player":1,"trump_suit":"herz","melds":[` + tc.melds + `]` + tc.bella +
				`,"card_points":[{"player":1,"points":76},{"player":2,"points":76}],"last_trick":1}`
			res := play(t, seated4, nil, nil, facts)
			if got := line(t, res, "Summe {{player:1}}/{{player:3}} (Trumpf)"); got != "= "+itoa(int64(tc.sum13)) {
				t.Errorf("1/3 total %s, want %d", got, tc.sum13)
			}
			if got := line(t, res, "Summe {{player:2}}/{{player:4}}"); got != "= "+itoa(int64(tc.sum24)) {
				t.Errorf("2/4 total %s, want %d", got, tc.sum24)
			}
			if !hasLine(res, tc.bestLine) {
				t.Errorf("missing %q in %+v", tc.bestLine, res.Lines)
			}
		})
	}
}

// With two or three players only the best meld's player counts; with four
// his partner's melds count too.
func TestMeldsCountPerPlayerWithThree(t *testing.T) {
	res := play(t, seated3, nil, nil, `{"dealer":3,"trump_player":1,"trump_suit":"herz",
		"melds":[{"player":1,"kind":"terz","suit":"kreuz","top":"ass"},{"player":2,"kind":"halber","suit":"pik","top":"10"},{"player":3,"kind":"terz","suit":"karo","top":"ass"},{"player":2,"kind":"terz","suit":"karo","top":"9"}],
		"card_points":[{"player":1,"points":60},{"player":2,"points":50},{"player":3,"points":42}],"last_trick":1}`)
	for label, want := range map[string]string{
		"höchste Meldung Halber Pik bis 10 ({{player:2}}): es zählen nur seine Meldungen": "= 70",
		"Summe {{player:1}} (Trumpf)": "= 70",
		"Summe {{player:2}}":          "= 120",
		"Summe {{player:3}}":          "= 42",
	} {
		if got := line(t, res, label); got != want {
			t.Errorf("%s = %s, want %s", label, got, want)
		}
	}
	if hasLine(res, "Terz Karo bis Ass ({{player:3}})") || hasLine(res, "Terz Kreuz bis Ass ({{player:1}})") {
		t.Errorf("melds of players 1 and 3 must not count: %+v", res.Lines)
	}
	if !slices.Equal(res.Winners, []int64{2, 3}) {
		t.Errorf("winners %v, want [2 3]", res.Winners)
	}
}

func TestDiePassingSixWithRe(t *testing.T) {
	state := json.RawMessage(`{"match":3,"hands":4,"sides":[{"players":[1,3],"die":5,"matches_won":1},{"players":[2,4],"die":3,"matches_won":0}],"matches_won":{"1":1,"3":1}}`)
	res := play(t, seated4, nil, state, `{"dealer":4,"trump_player":1,"trump_suit":"herz","kontra":true,"re":true,
		"card_points":[{"player":1,"points":100},{"player":2,"points":52}],"last_trick":1}`)
	for label, want := range map[string]string{
		"Kontra":    "x 2",
		"Re":        "x 2",
		"Würfelzug": "= 4",
		"Würfel {{player:1}}/{{player:3}}: 5 + 4 erreicht 6, Partie gewonnen": "= 6",
	} {
		if got := line(t, res, label); got != want {
			t.Errorf("%s = %s, want %s", label, got, want)
		}
	}
	wantEvents := []score.Event{
		{Type: "match_won", Players: []int64{1, 3}, Amount: 1},
		{Type: "match_lost", Players: []int64{2, 4}, Amount: 1},
	}
	assertEvents(t, res.Events, wantEvents)
	st := stateOf(t, res)
	if st.Match != 4 || st.Hands != 0 || die(t, st, 1, 3) != 0 || die(t, st, 2, 4) != 0 {
		t.Errorf("state after the win %+v: want match 4, no hands, dice 0", st)
	}
	if st.MatchesWon[1] != 2 || st.MatchesWon[3] != 2 || st.MatchesWon[2] != 0 || st.Sides[0].MatchesWon != 2 {
		t.Errorf("matches won %v / %+v", st.MatchesWon, st.Sides)
	}
	if !slices.Equal(st.LastWinners, []int64{1, 3}) || !strings.Contains(st.Summary, "Partie 3 gewonnen von {{player:1}}/{{player:3}}") {
		t.Errorf("last winners %v, summary %q", st.LastWinners, st.Summary)
	}
}

func assertEvents(t testing.TB, got, want []score.Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("events %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Type != want[i].Type || !slices.Equal(got[i].Players, want[i].Players) || got[i].Amount != want[i].Amount || got[i].Text == "" {
			t.Errorf("event %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A die on 5 reaches 6 with a move of 1; a die on 4 stays below.
func TestDieThreshold(t *testing.T) {
	facts := `{"dealer":2,"trump_player":1,"trump_suit":"pik","card_points":[{"player":1,"points":100},{"player":2,"points":52}],"last_trick":1}`
	on5 := play(t, seated2, nil, json.RawMessage(`{"match":1,"hands":5,"sides":[{"players":[1],"die":5},{"players":[2],"die":5}]}`), facts)
	if len(on5.Events) != 2 || on5.Events[0].Type != "match_won" || !slices.Equal(on5.Events[0].Players, []int64{1}) {
		t.Errorf("die 5 + 1: events %+v, want player 1 wins", on5.Events)
	}
	on4 := play(t, seated2, nil, json.RawMessage(`{"match":1,"hands":5,"sides":[{"players":[1],"die":4},{"players":[2],"die":5}]}`), facts)
	st := stateOf(t, on4)
	if len(on4.Events) != 0 || die(t, st, 1) != 5 || die(t, st, 2) != 5 {
		t.Errorf("die 4 + 1: events %+v, dice %+v; want no event, 5 and 5", on4.Events, st.Sides)
	}
}

func TestThreePlayersShareMatch(t *testing.T) {
	facts := `{"dealer":3,"trump_player":1,"trump_suit":"karo","card_points":[{"player":1,"points":40},{"player":2,"points":56},{"player":3,"points":56}],"last_trick":2}`
	both := play(t, seated3, nil, json.RawMessage(`{"match":2,"hands":7,"sides":[{"players":[1],"die":3},{"players":[2],"die":5},{"players":[3],"die":5}]}`), facts)
	assertEvents(t, both.Events, []score.Event{
		{Type: "match_won", Players: []int64{2, 3}, Amount: 1},
		{Type: "match_lost", Players: []int64{1}, Amount: 1},
	})
	if !strings.Contains(both.Events[0].Text, "gewinnen gemeinsam") {
		t.Errorf("shared win text %q", both.Events[0].Text)
	}
	st := stateOf(t, both)
	if st.MatchesWon[2] != 1 || st.MatchesWon[3] != 1 || st.MatchesWon[1] != 0 || st.Match != 3 {
		t.Errorf("state %+v", st)
	}
	for _, s := range st.Sides {
		if s.Die != 0 {
			t.Errorf("die of %v = %d after the match, want 0", s.Players, s.Die)
		}
	}

	one := play(t, seated3, nil, json.RawMessage(`{"match":2,"hands":7,"sides":[{"players":[1],"die":3},{"players":[2],"die":5},{"players":[3],"die":4}]}`), facts)
	assertEvents(t, one.Events, []score.Event{
		{Type: "match_won", Players: []int64{2}, Amount: 1},
		{Type: "match_lost", Players: []int64{1, 3}, Amount: 1},
	})
	if got := line(t, one, "Würfel {{player:3}} von 4 auf 5"); got != "= 5" {
		t.Errorf("player 3's die line %s", got)
	}
	if die(t, stateOf(t, one), 3) != 0 {
		t.Error("every die restarts at 0 when a match is won")
	}
}

func TestOrgi(t *testing.T) {
	orgi := gamestest.MustRules(t, Engine{}, "", `{"orgi":true}`)
	facts := `{"dealer":2,"trump_player":1,"trump_suit":"pik","orgi":true,"kontra":true,"re":true,"card_points":[{"player":1,"points":60},{"player":2,"points":92}],"last_trick":2}`
	res := play(t, seated2, orgi, nil, facts)
	if got := line(t, res, "Orgi (Trumpf von der offenen Karte)"); got != "x 2" {
		t.Errorf("orgi line %s", got)
	}
	if got := line(t, res, "Würfelzug"); got != "= 16" {
		t.Errorf("2 x Kontra x Re x Orgi = %s, want 16", got)
	}
	if len(res.Events) != 2 || !slices.Equal(res.Events[0].Players, []int64{2}) {
		t.Errorf("a move of 16 wins the match: %+v", res.Events)
	}
	plain := play(t, seated2, orgi, nil, `{"dealer":2,"trump_player":1,"trump_suit":"pik","card_points":[{"player":1,"points":92},{"player":2,"points":60}],"last_trick":2}`)
	if got := line(t, plain, "Würfelzug"); got != "= 1" || hasLine(plain, "Orgi (Trumpf von der offenen Karte)") {
		t.Errorf("a hand without orgi moves 1, got %s", got)
	}
	_, err := Engine{}.Score(score.Hand{Seated: seated2, Rules: gamestest.MustRules(t, Engine{}, "", ""), Facts: json.RawMessage(facts)})
	gamestest.WantViolation(t, err, "facts.orgi")
}

func TestDealerRules(t *testing.T) {
	win2 := `{"dealer":1,"trump_player":2,"trump_suit":"pik","card_points":[{"player":1,"points":52},{"player":2,"points":100}],"last_trick":2}`
	lose4 := `{"dealer":1,"trump_player":2,"trump_suit":"pik","card_points":[{"player":1,"points":100},{"player":2,"points":52}],"last_trick":1}`
	tests := []struct {
		name      string
		overrides string
		seated    []int64
		facts     string
		want      int64
	}{
		{"auto, 2 players: the winner deals", "", seated2, win2, 2},
		{"auto, 2 players: the winning dealer deals again", "", seated2, strings.Replace(win2, `"dealer":1`, `"dealer":2`, 1), 2},
		{"rotate, 2 players", `{"dealer_rule":"rotate"}`, seated2, strings.Replace(win2, `"dealer":1`, `"dealer":2`, 1), 1},
		{"auto, 4 players rotates", "", seated4, lose4, 2},
		{"auto, 4 players rotates from the last seat", "", seated4, strings.Replace(lose4, `"dealer":1`, `"dealer":4`, 1), 1},
		{"winner_deals, 4 players: first winner after the dealer", `{"dealer_rule":"winner_deals"}`, seated4, lose4, 3},
		{"winner_deals, 4 players: the dealer's team wins, partner first", `{"dealer_rule":"winner_deals"}`, seated4, strings.Replace(lose4, `"dealer":1`, `"dealer":3`, 1), 1},
		{"auto, 3 players rotates", "", seated3, `{"dealer":3,"trump_player":1,"trump_suit":"pik","card_points":[{"player":1,"points":100},{"player":2,"points":52},{"player":3,"points":0}],"last_trick":1}`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := play(t, tc.seated, gamestest.MustRules(t, Engine{}, "", tc.overrides), nil, tc.facts)
			if st := stateOf(t, res); st.NextDealer != tc.want {
				t.Errorf("next dealer %d, want %d", st.NextDealer, tc.want)
			}
		})
	}
}

// Other partners in the middle of a match abandon it; the new match starts
// from 0 and the first match's dice are gone.
func TestAbandonedMatch(t *testing.T) {
	first := play(t, seated4, nil, nil, `{"dealer":4,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":92},{"player":2,"points":60}],"last_trick":1}`)
	swapped := play(t, seated4, nil, first.State, `{"players":[1,2,4,3],"dealer":4,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":92},{"player":2,"points":60}],"last_trick":1}`)
	assertEvents(t, swapped.Events, []score.Event{{Type: "match_abandoned", Players: []int64{1, 3, 2, 4}}})
	st := stateOf(t, swapped)
	if st.Match != 2 || st.Hands != 1 || die(t, st, 1, 4) != 1 || die(t, st, 2, 3) != 0 || len(st.Sides) != 2 {
		t.Errorf("state %+v: want match 2, 1 hand, 1/4 on 1, 2/3 on 0", st)
	}
	// Same sides listed in another order continue the match.
	cont := play(t, seated4, nil, swapped.State, `{"players":[2,1,3,4],"dealer":4,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":92},{"player":2,"points":60}],"last_trick":1}`)
	if len(cont.Events) != 0 || die(t, stateOf(t, cont), 1, 4) != 2 {
		t.Errorf("same sides must continue: events %+v state %s", cont.Events, cont.State)
	}
	// Two of three players going on alone start a new match of two sides.
	three := play(t, seated3, nil, nil, `{"dealer":3,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":100},{"player":2,"points":52},{"player":3,"points":0}],"last_trick":1}`)
	two := play(t, seated3, nil, three.State, `{"players":[1,2],"dealer":2,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":100},{"player":2,"points":52}],"last_trick":1}`)
	assertEvents(t, two.Events, []score.Event{{Type: "match_abandoned", Players: []int64{1, 2, 3}}})
	if st := stateOf(t, two); len(st.Sides) != 2 || die(t, st, 1) != 1 || st.Match != 2 {
		t.Errorf("state after going on with two: %+v", st)
	}
}

// Five at the table: the hand names its four; the fifth sits out and is
// not listed. The facts' order makes 2/4 and 3/5 the teams.
func TestSittingOut(t *testing.T) {
	seated := []int64{5, 1, 2, 3, 4}
	res := play(t, seated, nil, nil, `{"players":[2,3,4,5],"dealer":5,"trump_player":3,"trump_suit":"karo","card_points":[{"player":2,"points":60},{"player":5,"points":92}],"last_trick":3}`)
	assertZeroPoints(t, res, []int64{5, 2, 3, 4})
	if !slices.Equal(res.Winners, []int64{5, 3}) {
		t.Errorf("winners %v, want [5 3] in seating order", res.Winners)
	}
	if got := line(t, res, "Summe {{player:3}}/{{player:5}} (Trumpf)"); got != "= 102" {
		t.Errorf("3/5 total %s", got)
	}
	_, err := Engine{}.Score(score.Hand{Seated: seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), Facts: json.RawMessage(`{"dealer":5,"trump_player":3,"trump_suit":"karo","card_points":[{"player":2,"points":60},{"player":5,"points":92}],"last_trick":3}`)})
	gamestest.WantViolation(t, err, "facts.players")
}

// TestDealerAndPlayers: the result names the dealer of the facts and the
// hand's players in the session's seating order, like its points.
func TestDealerAndPlayers(t *testing.T) {
	res := play(t, []int64{5, 1, 2, 3, 4}, nil, nil, `{"players":[2,3,4,5],"dealer":5,"trump_player":3,"trump_suit":"karo","card_points":[{"player":2,"points":60},{"player":5,"points":92}],"last_trick":3}`)
	if res.Dealer != 5 || !slices.Equal(res.Players, []int64{5, 2, 3, 4}) {
		t.Errorf("dealer %d, players %v; want 5, [5 2 3 4]", res.Dealer, res.Players)
	}
	res = play(t, seated2, nil, nil, `{"dealer":2,"trump_player":1,"trump_suit":"pik","card_points":[{"player":1,"points":100},{"player":2,"points":52}],"last_trick":1}`)
	if res.Dealer != 2 || !slices.Equal(res.Players, seated2) {
		t.Errorf("two players: dealer %d, players %v; want 2, %v", res.Dealer, res.Players, seated2)
	}
}

func TestInvalidHands(t *testing.T) {
	const cp = `"card_points":[{"player":1,"points":76},{"player":2,"points":76}],"last_trick":1`
	tests := []struct {
		name   string
		seated []int64
		facts  string
		field  string
	}{
		{"not JSON", seated4, `{`, "facts"},
		{"unknown field", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz",` + cp + `,"schneider":true}`, "facts.schneider"},
		{"card points as text", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":"76"}],"last_trick":1}`, "facts.card_points[0].points"},
		{"one player", seated4, `{"players":[1],"dealer":1,"trump_player":1,"trump_suit":"herz",` + cp + `}`, "facts.players"},
		{"five players", []int64{1, 2, 3, 4, 5}, `{"players":[1,2,3,4,5],"dealer":1,"trump_player":1,"trump_suit":"herz",` + cp + `}`, "facts.players"},
		{"player not seated", seated4, `{"players":[1,9],"dealer":1,"trump_player":1,"trump_suit":"herz",` + cp + `}`, "facts.players[1]"},
		{"player twice", seated4, `{"players":[1,2,1],"dealer":1,"trump_player":1,"trump_suit":"herz",` + cp + `}`, "facts.players[2]"},
		{"dealer not in the hand", seated4, `{"players":[1,2],"dealer":3,"trump_player":1,"trump_suit":"herz",` + cp + `}`, "facts.dealer"},
		{"trump player not in the hand", seated4, `{"dealer":1,"trump_player":7,"trump_suit":"herz",` + cp + `}`, "facts.trump_player"},
		{"trump player missing", seated4, `{"dealer":1,"trump_suit":"herz",` + cp + `}`, "facts.trump_player"},
		{"trump suit unknown", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"eichel",` + cp + `}`, "facts.trump_suit"},
		{"meld player not in the hand", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":6,"kind":"terz","suit":"pik","top":"ass"}],` + cp + `}`, "facts.melds[0].player"},
		{"meld kind unknown", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"quart","suit":"pik","top":"ass"}],` + cp + `}`, "facts.melds[0].kind"},
		{"meld suit unknown", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"terz","suit":"gruen","top":"ass"}],` + cp + `}`, "facts.melds[0].suit"},
		{"meld top unknown", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"terz","suit":"pik","top":"könig"}],` + cp + `}`, "facts.melds[0].top"},
		{"Terz to the 8", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"terz","suit":"pik","top":"8"}],` + cp + `}`, "facts.melds[0].top"},
		{"Halber to the 9", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"halber","suit":"pik","top":"9"}],` + cp + `}`, "facts.melds[0].top"},
		{"same card in two players' melds", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"terz","suit":"pik","top":"ass"},{"player":2,"kind":"terz","suit":"pik","top":"dame"}],` + cp + `}`, "facts.melds[1]"},
		{"overlapping melds of one player", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"halber","suit":"pik","top":"ass"},{"player":1,"kind":"terz","suit":"pik","top":"dame"}],` + cp + `}`, "facts.melds[1]"},
		{"3 Terze in a hand of 8", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"terz","suit":"pik","top":"ass"},{"player":1,"kind":"terz","suit":"kreuz","top":"ass"},{"player":1,"kind":"terz","suit":"karo","top":"ass"}],` + cp + `}`, "facts.melds[2]"},
		{"4 Terze with two players", seated2, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"terz","suit":"pik","top":"ass"},{"player":1,"kind":"terz","suit":"kreuz","top":"ass"},{"player":1,"kind":"terz","suit":"karo","top":"ass"},{"player":1,"kind":"terz","suit":"pik","top":"10"}],` + cp + `}`, "facts.melds[3]"},
		{"Halber + 2 Terze + Halber with two players", seated2, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[{"player":1,"kind":"halber","suit":"pik","top":"ass"},{"player":1,"kind":"terz","suit":"kreuz","top":"ass"},{"player":1,"kind":"terz","suit":"karo","top":"ass"},{"player":1,"kind":"halber","suit":"herz","top":"ass"}],` + cp + `}`, "facts.melds[3]"},
		{"too many melds", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","melds":[` + strings.Repeat(`{"player":1,"kind":"terz","suit":"pik","top":"ass"},`, 20) + `{"player":1,"kind":"terz","suit":"pik","top":"ass"}],` + cp + `}`, "facts.melds"},
		{"Bella declarer not in the hand", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","bella":8,` + cp + `}`, "facts.bella"},
		{"Bella while another holds the trump Dame", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","bella":2,"melds":[{"player":3,"kind":"terz","suit":"herz","top":"dame"}],` + cp + `}`, "facts.bella"},
		{"Bella while another holds the trump König", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","bella":2,"melds":[{"player":4,"kind":"terz","suit":"herz","top":"koenig"}],` + cp + `}`, "facts.bella"},
		{"card points missing", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","last_trick":1}`, "facts.card_points"},
		{"card points for one side only", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":152}],"last_trick":1}`, "facts.card_points"},
		{"card points per player with four", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":50},{"player":2,"points":50},{"player":3,"points":26},{"player":4,"points":26}],"last_trick":1}`, "facts.card_points"},
		{"card points twice for a team", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":76},{"player":3,"points":76}],"last_trick":1}`, "facts.card_points[1].player"},
		{"card points of a stranger", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":76},{"player":5,"points":76}],"last_trick":1}`, "facts.card_points[1].player"},
		{"card points add up to 150", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":76},{"player":2,"points":74}],"last_trick":1}`, "facts.card_points"},
		{"card points add up to 154", seated3, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":76},{"player":2,"points":74},{"player":3,"points":4}],"last_trick":1}`, "facts.card_points"},
		{"card points negative", seated2, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":-2},{"player":2,"points":154}],"last_trick":1}`, "facts.card_points[0].points"},
		{"card points above 152", seated2, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":153},{"player":2,"points":-1}],"last_trick":1}`, "facts.card_points[0].points"},
		{"huge card points", seated2, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":9223372036854775807},{"player":2,"points":2}],"last_trick":1}`, "facts.card_points[0].points"},
		{"exactly 1 card point", seated2, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":151},{"player":2,"points":1}],"last_trick":1}`, "facts.card_points[1].points"},
		{"last trick by a stranger", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":76},{"player":2,"points":76}],"last_trick":9}`, "facts.last_trick"},
		{"Re without Kontra", seated4, `{"dealer":1,"trump_player":1,"trump_suit":"herz","re":true,` + cp + `}`, "facts.re"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Engine{}.Score(score.Hand{Seated: tc.seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), Facts: json.RawMessage(tc.facts)})
			gamestest.WantViolation(t, err, tc.field)
		})
	}
}

func TestScoreRefusesForeignRules(t *testing.T) {
	facts := json.RawMessage(`{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":76},{"player":2,"points":76}],"last_trick":1}`)
	for _, r := range []string{``, `null`, `{"preset":"standard","dealer_rule":"sometimes"}`, `{"hands_per_match":8}`} {
		_, err := Engine{}.Score(score.Hand{Seated: seated4, Rules: json.RawMessage(r), Facts: facts})
		gamestest.WantViolation(t, err, "rules")
	}
}

func TestCorruptStateIsAnError(t *testing.T) {
	facts := json.RawMessage(`{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":76},{"player":2,"points":76}],"last_trick":1}`)
	for _, st := range []string{`[1]`, `{"sides":[{"players":[1,3],"die":6}]}`, `{"sides":[{"players":[1,3],"die":-1}]}`} {
		_, err := Engine{}.Score(score.Hand{Seated: seated4, Rules: gamestest.MustRules(t, Engine{}, "", ""), State: json.RawMessage(st), Facts: facts})
		var v *score.Violation
		if err == nil || errors.As(err, &v) {
			t.Errorf("state %s: error %v, want a non-violation error", st, err)
		}
	}
}

func TestInitialStates(t *testing.T) {
	facts := `{"dealer":1,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":90},{"player":2,"points":62}],"last_trick":1}`
	for _, raw := range []string{"", "null", "{}"} {
		st := stateOf(t, play(t, seated4, nil, json.RawMessage(raw), facts))
		if st.Match != 1 || st.Hands != 1 || die(t, st, 1, 3) != 1 || st.Summary == "" {
			t.Errorf("state from %q: %+v", raw, st)
		}
	}
}

func TestRules(t *testing.T) {
	var r Rules
	if err := json.Unmarshal(gamestest.MustRules(t, Engine{}, "", ""), &r); err != nil || r != (Rules{Preset: "standard", Orgi: false, DealerRule: DealerAuto}) {
		t.Errorf("default rules %+v (%v)", r, err)
	}
	if err := json.Unmarshal(gamestest.MustRules(t, Engine{}, "", `{"orgi":true,"dealer_rule":"winner_deals"}`), &r); err != nil || !r.Orgi || r.DealerRule != DealerWinnerDeals {
		t.Errorf("overridden rules %+v (%v)", r, err)
	}
	bad := []struct{ preset, overrides, field string }{
		{"turnier", ``, "preset"},
		{"", `{"bock":true}`, "options.bock"},
		{"", `{"dealer_rule":"loser_deals"}`, "options.dealer_rule"},
		{"", `{"orgi":"yes"}`, "options.orgi"},
	}
	for _, b := range bad {
		_, err := Engine{}.Rules(b.preset, json.RawMessage(b.overrides))
		gamestest.WantViolation(t, err, b.field)
	}
	if (Engine{}).Name() != "klaberjass" || !(Engine{}).ZeroSum() {
		t.Error("name or zero-sum flag")
	}
}

// The deck's card values (trump 20 14 11 10 4 3 0 0, three plain suits of
// 11 10 4 3 2 0 0 0) can be split among three sides in every way except
// those giving a side exactly 1 point. The validator must accept exactly
// the splits the deck allows.
func TestCardPointSplitsMatchTheDeck(t *testing.T) {
	values := []int{20, 14, 11, 10, 4, 3, 0, 0}
	for range 3 {
		values = append(values, 11, 10, 4, 3, 2, 0, 0, 0)
	}
	var reach [cardPointsTotal + 1][cardPointsTotal + 1]bool
	reach[0][0] = true
	total := 0
	for _, v := range values {
		total += v
		for a := total; a >= 0; a-- {
			for b := total - a; b >= 0; b-- {
				if (a >= v && reach[a-v][b]) || (b >= v && reach[a][b-v]) {
					reach[a][b] = true
				}
			}
		}
	}
	if total != cardPointsTotal {
		t.Fatalf("deck totals %d", total)
	}
	g := &game{players: seated3, sides: makeSides(seated3)}
	for a := 0; a <= cardPointsTotal; a++ {
		for b := 0; a+b <= cardPointsTotal; b++ {
			err := g.addCardPoints([]SidePoints{{1, a}, {2, b}, {3, cardPointsTotal - a - b}})
			if (err == nil) != reach[a][b] {
				t.Fatalf("split %d/%d/%d: deck allows %v, validator says %v", a, b, cardPointsTotal-a-b, reach[a][b], err)
			}
		}
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestTitle(t *testing.T) {
	orgi := gamestest.MustRules(t, Engine{}, "", `{"orgi":true}`)
	tests := []struct {
		name   string
		seated []int64
		rules  json.RawMessage
		facts  string
		want   string
	}{
		{"worked example A: trump team wins", seated4, nil, `{"dealer":4,"trump_player":1,"trump_suit":"herz",
			"melds":[{"player":1,"kind":"terz","suit":"herz","top":"koenig"}],
			"card_points":[{"player":1,"points":92},{"player":2,"points":60}],"last_trick":3}`,
			"Trumpf Herz, {{player:1}}/{{player:3}} gewinnen"},
		{"worked example B: opponents win against Kontra", seated4, nil, `{"dealer":1,"trump_player":2,"trump_suit":"pik","kontra":true,"bella":4,
			"card_points":[{"player":2,"points":70},{"player":1,"points":82}],"last_trick":1}`,
			"Trumpf Pik, {{player:1}}/{{player:3}} gewinnen, Kontra"},
		{"2 players: trump player wins", seated2, nil,
			`{"dealer":2,"trump_player":1,"trump_suit":"karo","card_points":[{"player":1,"points":72},{"player":2,"points":80}],"last_trick":1}`,
			"Trumpf Karo, {{player:1}} gewinnt"},
		{"3 players: both opponents win", seated3, nil,
			`{"dealer":1,"trump_player":2,"trump_suit":"kreuz","card_points":[{"player":1,"points":20},{"player":2,"points":60},{"player":3,"points":72}],"last_trick":2,"kontra":true}`,
			"Trumpf Kreuz, {{player:1}} und {{player:3}} gewinnen, Kontra"},
		{"Re and Orgi", seated2, orgi,
			`{"dealer":2,"trump_player":1,"trump_suit":"pik","orgi":true,"kontra":true,"re":true,"card_points":[{"player":1,"points":60},{"player":2,"points":92}],"last_trick":2}`,
			"Trumpf Pik, {{player:2}} gewinnt, Re, Orgi"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := play(t, tc.seated, tc.rules, nil, tc.facts)
			if res.Title != tc.want {
				t.Errorf("title %q, want %q", res.Title, tc.want)
			}
			if n := len([]rune(res.Title)); n > 60 {
				t.Errorf("title %q has %d characters, want at most 60", res.Title, n)
			}
		})
	}
}
