package schwarzedame

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

var handOrder = []int64{nord, ost, sued, west}

func TestEngineIdentity(t *testing.T) {
	var e score.Engine = Engine{}
	if e.Name() != "schwarze_dame" || Name != "schwarze_dame" {
		t.Errorf("Name() = %q, want schwarze_dame", e.Name())
	}
	if !e.ZeroSum() {
		t.Error("ZeroSum() = false, want true")
	}
}

func TestWorkedExampleA(t *testing.T) {
	res := mustScore(t, exampleA())
	gamestest.WantPoints(t, res, handOrder, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13})
	wantLines(t, res,
		"1: 4 Stiche x 10 + 40", "1: Herz 2, Herz 5, Herz-König - 20", "1: Ergebnis = 20",
		"2: 3 Stiche x 10 + 30", "2: Herz-Ass, Pik-Dame - 40", "2: Ergebnis = -10",
		"3: 5 Stiche x 10 + 50", "3: Herz 3, Herz 4, Herz 6, Herz 7, Herz 8, Herz 9, Herz 10 - 47", "3: Ergebnis = 3",
		"4: 1 Stich x 10 + 10", "4: Herz-Bube, Herz-Dame - 23", "4: Ergebnis = -13",
	)
	if !slices.Equal(res.Winners, []int64{nord, sued}) {
		t.Errorf("winners %v, want [1 3] (the positive scores)", res.Winners)
	}
	if len(res.Events) != 0 {
		t.Errorf("events %v after the first of 8 hands, want none", res.Events)
	}
}

// TestDealerAndPlayers: the result names the dealer of the facts and the
// hand's four players in seating order; the fifth seated sits out.
func TestDealerAndPlayers(t *testing.T) {
	f := exampleA()
	f.Players[0], f.Players[3] = f.Players[3], f.Players[0]
	res := mustScore(t, f)
	if res.Dealer != west || !slices.Equal(res.Players, []int64{nord, ost, sued, west}) {
		t.Errorf("dealer %d, players %v; want %d, [%d %d %d %d]", res.Dealer, res.Players, west, nord, ost, sued, west)
	}
	if res = mustScore(t, exampleB()); res.Dealer != nord {
		t.Errorf("example B: dealer %d, want %d", res.Dealer, nord)
	}
}

func TestWorkedExampleB(t *testing.T) {
	res := mustScore(t, exampleB())
	gamestest.WantPoints(t, res, handOrder, map[int64]int64{nord: 0, ost: 0, sued: 0, west: 0})
	wantLines(t, res,
		"1: 13 Stiche x 10 + 130",
		"1: Herz 2, Herz 3, Herz 4, Herz 5, Herz 6, Herz 7, Herz 8, Herz 9, Herz 10, Herz-Bube, Herz-Dame, Herz-König, Herz-Ass, Pik-Dame - 130",
		"1: Ergebnis = 0",
		"2: 0 Stiche x 10 + 0", "2: keine Strafkarten - 0", "2: Ergebnis = 0",
		"3: 0 Stiche x 10 + 0", "3: keine Strafkarten - 0", "3: Ergebnis = 0",
		"4: 0 Stiche x 10 + 0", "4: keine Strafkarten - 0", "4: Ergebnis = 0",
	)
	if len(res.Winners) != 0 {
		t.Errorf("winners %v, want none (nobody scored above 0)", res.Winners)
	}
}

func TestPenaltyPointsInsteadOfCards(t *testing.T) {
	res := mustScore(t, penaltyA())
	gamestest.WantPoints(t, res, handOrder, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13})
	wantLines(t, res,
		"1: 4 Stiche x 10 + 40", "1: Strafpunkte - 20", "1: Ergebnis = 20",
		"2: 3 Stiche x 10 + 30", "2: Strafpunkte - 40", "2: Ergebnis = -10",
		"3: 5 Stiche x 10 + 50", "3: Strafpunkte - 47", "3: Ergebnis = 3",
		"4: 1 Stich x 10 + 10", "4: Strafpunkte - 23", "4: Ergebnis = -13",
	)

	// Penalty points need not be a possible card split, only add up to 130.
	f := penaltyA()
	f.Players[0].Penalty, f.Players[1].Penalty = pen(0), pen(60)
	res = mustScore(t, f)
	gamestest.WantPoints(t, res, handOrder, map[int64]int64{nord: 40, ost: -30, sued: 3, west: -13})

	// All 130 penalty points to the player with all the tricks.
	f = Facts{Dealer: ost, Players: []PlayerFacts{
		{Player: nord, Tricks: 13, Penalty: pen(130)},
		{Player: ost, Penalty: pen(0)},
		{Player: sued},
		{Player: west, Penalty: pen(0)},
	}}
	gamestest.WantPoints(t, mustScore(t, f), handOrder, map[int64]int64{nord: 0, ost: 0, sued: 0, west: 0})
}

func TestMixedCardsAndPenalty(t *testing.T) {
	f := exampleA()
	f.Players[1] = PlayerFacts{Player: ost, Tricks: 3, Penalty: pen(40)}
	f.Players[3] = PlayerFacts{Player: west, Tricks: 1, Penalty: pen(23)}
	res := mustScore(t, f)
	gamestest.WantPoints(t, res, handOrder, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13})
	wantLines(t, res,
		"1: 4 Stiche x 10 + 40", "1: Herz 2, Herz 5, Herz-König - 20", "1: Ergebnis = 20",
		"2: 3 Stiche x 10 + 30", "2: Strafpunkte - 40", "2: Ergebnis = -10",
		"3: 5 Stiche x 10 + 50", "3: Herz 3, Herz 4, Herz 6, Herz 7, Herz 8, Herz 9, Herz 10 - 47", "3: Ergebnis = 3",
		"4: 1 Stich x 10 + 10", "4: Strafpunkte - 23", "4: Ergebnis = -13",
	)

	// Mixed: the card givers need not name every card, the sum decides.
	f = Facts{Dealer: nord, Players: []PlayerFacts{
		{Player: nord, Tricks: 6, PikDame: true},
		{Player: ost, Tricks: 7, Penalty: pen(104)},
		{Player: sued},
		{Player: west},
	}}
	gamestest.WantPoints(t, mustScore(t, f), handOrder, map[int64]int64{nord: 34, ost: -34, sued: 0, west: 0})

	// Mixed, but the sum is off by one.
	f.Players[1].Penalty = pen(103)
	if v := asViolation(t, second(scoreFacts(t, f))); v != nil && v.Field != "facts.players[].penalty" {
		t.Errorf("mixed sum 129: field %q, want facts.players[].penalty", v.Field)
	}
}

func second(_ score.Result, err error) error { return err }

func TestAcceptedEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		f    func() Facts
		want map[int64]int64
	}{
		{"all tricks to one player, cards elsewhere", func() Facts {
			return Facts{Dealer: sued, Players: []PlayerFacts{
				{Player: nord, Tricks: 13, Hearts: []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, PikDame: true},
				{Player: ost}, {Player: sued}, {Player: west},
			}}
		}, map[int64]int64{nord: 0, ost: 0, sued: 0, west: 0}},
		{"0 tricks with explicit penalty 0", func() Facts {
			f := penaltyA()
			f.Players[0].Tricks = 5
			f.Players[3] = PlayerFacts{Player: west, Penalty: pen(0)}
			f.Players[2].Penalty = pen(70)
			return f
		}, map[int64]int64{nord: 30, ost: -10, sued: -20, west: 0}},
		{"0 tricks with no cards at all", func() Facts {
			f := exampleA()
			f.Players[0] = PlayerFacts{Player: nord, Tricks: 5, Hearts: []int{2, 5, 13, 11, 12}}
			f.Players[3] = PlayerFacts{Player: west}
			return f
		}, map[int64]int64{nord: 7, ost: -10, sued: 3, west: 0}},
		{"Pik-Dame alone on one trick", func() Facts {
			return Facts{Dealer: nord, Players: []PlayerFacts{
				{Player: nord, Tricks: 1, PikDame: true},
				{Player: ost, Tricks: 12, Hearts: []int{14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2}},
				{Player: sued}, {Player: west},
			}}
		}, map[int64]int64{nord: -16, ost: 16, sued: 0, west: 0}},
		{"dealer may be any of the four", func() Facts {
			f := exampleA()
			f.Dealer = sued
			return f
		}, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gamestest.WantPoints(t, mustScore(t, tt.f()), handOrder, tt.want)
		})
	}
}

// TestPointsInSeatingOrder: points follow the session's seating, not the
// order of the facts, and players who sit out get no entry.
func TestPointsInSeatingOrder(t *testing.T) {
	f := exampleA()
	slices.Reverse(f.Players)
	order := []int64{sued, bank, west, nord, ost}
	res, err := Engine{}.Score(score.Hand{Seated: order, Rules: gamestest.MustRules(t, Engine{}, "", ""), Facts: factsJSON(t, f)})
	if err != nil {
		t.Fatal(err)
	}
	gamestest.WantPoints(t, res, []int64{sued, west, nord, ost}, map[int64]int64{nord: 20, ost: -10, sued: 3, west: -13})
}

func TestInvalidHands(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(f *Facts)
		field  string
		rule   string // a part of the rule
	}{
		{"3 players", func(f *Facts) { f.Players = f.Players[:3] }, "facts.players", "exactly 4 players, got 3"},
		{"5 players", func(f *Facts) { f.Players = append(f.Players, PlayerFacts{Player: bank}) }, "facts.players", "exactly 4 players, got 5"},
		{"no players", func(f *Facts) { f.Players = nil }, "facts.players", "got 0"},
		{"player not seated", func(f *Facts) { f.Players[2].Player = 99 }, "facts.players[2].player", "not seated"},
		{"player twice", func(f *Facts) { f.Players[3].Player = nord }, "facts.players[3].player", "named twice"},
		{"dealer not a player of the hand", func(f *Facts) { f.Dealer = bank }, "facts.dealer", "not one of the hand's players"},
		{"dealer not seated", func(f *Facts) { f.Dealer = 99 }, "facts.dealer", "not one of the hand's players"},
		{"tricks add up to 12", func(f *Facts) { f.Players[0].Tricks = 3 }, "facts.players[].tricks", "add up to 12, need 13"},
		{"tricks add up to 14", func(f *Facts) { f.Players[0].Tricks = 5 }, "facts.players[].tricks", "add up to 14, need 13"},
		{"negative tricks", func(f *Facts) { f.Players[3].Tricks = -1; f.Players[0].Tricks = 6 }, "facts.players[3].tricks", "between 0 and 13, got -1"},
		{"14 tricks for one player", func(f *Facts) { f.Players[0].Tricks = 14 }, "facts.players[0].tricks", "between 0 and 13, got 14"},
		{"a heart twice across players", func(f *Facts) { f.Players[3].Hearts = []int{11, 12, 2} }, "facts.players[3].hearts[2]", "Herz 2 was taken twice"},
		{"a heart twice in one hand", func(f *Facts) { f.Players[0].Hearts = []int{2, 5, 5, 13} }, "facts.players[0].hearts[2]", "Herz 5 was taken twice"},
		{"a heart missing", func(f *Facts) { f.Players[2].Hearts = []int{3, 4, 6, 7, 8, 9} }, "facts.players[].hearts", "Herz 10 was taken by nobody"},
		{"Herz-Ass missing", func(f *Facts) { f.Players[1].Hearts = nil }, "facts.players[].hearts", "Herz-Ass was taken by nobody"},
		{"Pik-Dame twice", func(f *Facts) { f.Players[3].PikDame = true }, "facts.players[3].pik_dame", "taken twice"},
		{"Pik-Dame missing", func(f *Facts) { f.Players[1].PikDame = false }, "facts.players[].pik_dame", "taken by nobody"},
		{"hearts rank 1", func(f *Facts) { f.Players[0].Hearts = []int{1, 2, 5, 13} }, "facts.players[0].hearts[0]", "got 1"},
		{"hearts rank 15", func(f *Facts) { f.Players[3].Hearts = []int{11, 12, 15} }, "facts.players[3].hearts[2]", "got 15"},
		{"hearts rank 0", func(f *Facts) { f.Players[1].Hearts = []int{0} }, "facts.players[1].hearts[0]", "got 0"},
		{"penalty with cards", func(f *Facts) { f.Players[0].Penalty = pen(20) }, "facts.players[0].penalty", "not both"},
		{"penalty with Pik-Dame", func(f *Facts) { f.Players[1].Hearts = nil; f.Players[1].Penalty = pen(14) }, "facts.players[1].penalty", "not both"},
		{"penalty cards but no trick", func(f *Facts) { f.Players[3].Tricks = 0; f.Players[0].Tricks = 5 }, "facts.players[3].tricks", "at least one trick"},
		{"Pik-Dame but no trick", func(f *Facts) {
			f.Players[1].Tricks = 0
			f.Players[0].Tricks = 7
		}, "facts.players[1].tricks", "at least one trick"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := exampleA()
			tt.mutate(&f)
			v := asViolation(t, second(scoreFacts(t, f)))
			if v == nil {
				return
			}
			if v.Field != tt.field {
				t.Errorf("field %q (rule %q), want %q", v.Field, v.Rule, tt.field)
			}
			if !strings.Contains(v.Rule, tt.rule) {
				t.Errorf("rule %q, want it to contain %q", v.Rule, tt.rule)
			}
		})
	}
}

func TestInvalidPenalties(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(f *Facts)
		field  string
		rule   string
	}{
		{"penalty sum 129", func(f *Facts) { f.Players[3].Penalty = pen(22) }, "facts.players[].penalty", "add up to 129, need 130"},
		{"penalty sum 131", func(f *Facts) { f.Players[3].Penalty = pen(24) }, "facts.players[].penalty", "add up to 131, need 130"},
		{"penalty sum 0", func(f *Facts) {
			for i := range f.Players {
				f.Players[i].Penalty = pen(0)
			}
		}, "facts.players[].penalty", "add up to 0"},
		{"negative penalty", func(f *Facts) { f.Players[2].Penalty = pen(-1) }, "facts.players[2].penalty", "between 0 and 130, got -1"},
		{"penalty 131", func(f *Facts) { f.Players[0].Penalty = pen(131) }, "facts.players[0].penalty", "between 0 and 130, got 131"},
		{"penalty points but no trick", func(f *Facts) {
			f.Players[3].Tricks = 0
			f.Players[0].Tricks = 5
		}, "facts.players[3].tricks", "at least one trick"},
		{"penalty points twice over", func(f *Facts) {
			f.Players[0].Penalty = pen(130)
			f.Players[1].Penalty = pen(130)
		}, "facts.players[].penalty", "add up to 330"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := penaltyA()
			tt.mutate(&f)
			v := asViolation(t, second(scoreFacts(t, f)))
			if v == nil {
				return
			}
			if v.Field != tt.field {
				t.Errorf("field %q (rule %q), want %q", v.Field, v.Rule, tt.field)
			}
			if !strings.Contains(v.Rule, tt.rule) {
				t.Errorf("rule %q, want it to contain %q", v.Rule, tt.rule)
			}
		})
	}
}

// TestInvalidFactsJSON: malformed facts are Violations naming the field.
func TestInvalidFactsJSON(t *testing.T) {
	a := string(factsJSON(t, exampleA()))
	tests := []struct{ name, facts, field string }{
		{"empty", ``, "facts"},
		{"not JSON", `{players}`, "facts"},
		{"array", `[]`, "facts"},
		{"unknown top-level field", strings.Replace(a, `{"dealer"`, `{"trump":"pik","dealer"`, 1), "facts.trump"},
		{"dealer as string", strings.Replace(a, `"dealer":4`, `"dealer":"4"`, 1), "facts.dealer"},
		{"players as object", `{"dealer":1,"players":{}}`, "facts.players"},
		{"trailing value", a + ` {}`, "facts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Engine{}.Score(score.Hand{Seated: seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), Facts: json.RawMessage(tt.facts)})
			if v := asViolation(t, err); v != nil && v.Field != tt.field {
				t.Errorf("field %q (rule %q), want %q", v.Field, v.Rule, tt.field)
			}
		})
	}
	// A nested type error names the players array and the field.
	bad := strings.Replace(a, `"tricks":4`, `"tricks":"4"`, 1)
	_, err := Engine{}.Score(score.Hand{Seated: seated, Rules: gamestest.MustRules(t, Engine{}, "", ""), Facts: json.RawMessage(bad)})
	if v := asViolation(t, err); v != nil && (!strings.HasPrefix(v.Field, "facts.players") || !strings.HasSuffix(v.Field, "tricks")) {
		t.Errorf("tricks as string: field %q, want facts.players…tricks", v.Field)
	}
}

func TestInvalidRulesInHand(t *testing.T) {
	for _, rules := range []string{``, `null`, `{}`, `{"preset":"standard","hands_per_match":0}`, `[1]`, `{"hands_per_match":"8"}`} {
		_, err := Engine{}.Score(score.Hand{Seated: seated, Rules: json.RawMessage(rules), Facts: factsJSON(t, exampleA())})
		if v := asViolation(t, err); v != nil && v.Field != "rules" {
			t.Errorf("rules %s: field %q, want rules", rules, v.Field)
		}
	}
}

// randomHand deals a random valid hand: tricks split among the four,
// every penalty card to a player with a trick, and each player either
// naming the cards or giving the points (all cards, all points or mixed).
func randomHand(r *rand.Rand) (Facts, map[int64]int64) {
	var tricks [4]int
	for range 13 {
		tricks[r.IntN(4)]++
	}
	var withTricks []int
	for i, n := range tricks {
		if n > 0 {
			withTricks = append(withTricks, i)
		}
	}
	var hearts [4][]int
	var pik [4]bool
	var penalty [4]int
	for rank := 2; rank <= 14; rank++ {
		i := withTricks[r.IntN(len(withTricks))]
		hearts[i] = append(hearts[i], rank)
		penalty[i] += rank
	}
	i := withTricks[r.IntN(len(withTricks))]
	pik[i] = true
	penalty[i] += 26

	mode := r.IntN(3) // 0 cards, 1 points, 2 mixed
	f := Facts{Dealer: handOrder[r.IntN(4)]}
	want := map[int64]int64{}
	for i, id := range handOrder {
		p := PlayerFacts{Player: id, Tricks: tricks[i]}
		if mode == 1 || (mode == 2 && r.IntN(2) == 0) {
			p.Penalty = pen(penalty[i])
		} else {
			p.Hearts, p.PikDame = hearts[i], pik[i]
			r.Shuffle(len(p.Hearts), func(a, b int) { p.Hearts[a], p.Hearts[b] = p.Hearts[b], p.Hearts[a] })
		}
		f.Players = append(f.Players, p)
		want[id] = int64(10*tricks[i] - penalty[i])
	}
	r.Shuffle(4, func(a, b int) { f.Players[a], f.Players[b] = f.Players[b], f.Players[a] })
	return f, want
}

// TestZeroSumSweep scores many random valid hands: every one is accepted,
// each player gets 10 x tricks - penalty, and the hand sums to exactly 0.
func TestZeroSumSweep(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rules := gamestest.MustRules(t, Engine{}, "", "")
	for n := range 3000 {
		f, want := randomHand(r)
		res, err := Engine{}.Score(score.Hand{Seated: seated, Rules: rules, Facts: factsJSON(t, f)})
		if err != nil {
			t.Fatalf("hand %d %s refused: %v", n, factsJSON(t, f), err)
		}
		gamestest.WantPoints(t, res, handOrder, want)
		if t.Failed() {
			t.Fatalf("hand %d: %s", n, factsJSON(t, f))
		}
		for _, w := range res.Winners {
			if want[w] <= 0 {
				t.Fatalf("hand %d: winner %d scored %d", n, w, want[w])
			}
		}
		positives := 0
		for _, v := range want {
			if v > 0 {
				positives++
			}
		}
		if len(res.Winners) != positives {
			t.Fatalf("hand %d: winners %v, want the %d positive scores", n, res.Winners, positives)
		}
	}
}

// TestScoreIsPureAndConcurrent scores the same hands from many goroutines:
// identical results every time, no race.
func TestScoreIsPureAndConcurrent(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", `{"hands_per_match":1}`)
	state := json.RawMessage(`{"match":4,"hands_played":0,"balance":{},"matches_won":{"1":2}}`)
	hand := score.Hand{Seated: seated, Rules: rules, State: state, Facts: factsJSON(t, exampleA())}
	first, err := Engine{}.Score(hand)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(first)
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for range 16 {
		wg.Go(func() {
			for range 50 {
				res, err := Engine{}.Score(hand)
				if err != nil {
					errs <- err.Error()
					return
				}
				if got, _ := json.Marshal(res); string(got) != string(want) {
					errs <- string(got)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent score differs: %s\nwant %s", e, want)
	}
	if string(hand.State) != `{"match":4,"hands_played":0,"balance":{},"matches_won":{"1":2}}` {
		t.Errorf("Score modified the input state: %s", hand.State)
	}
}
