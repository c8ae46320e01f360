package season

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger/score"
)

const dk = "doppelkopf"

func rec(player int64, date string, session int64, hands int, pts int64) Record {
	return Record{Player: player, Session: session, Table: session, Game: dk, Date: date, Hands: hands, Points: big.NewRat(pts, 1)}
}

func known(g string) bool { return g == dk || g == "skat" }

func compute(t *testing.T, r Rules, recs []Record) Table {
	t.Helper()
	if err := r.Check(known); err != nil {
		t.Fatalf("Check(%+v) = %v", r, err)
	}
	return Compute(r, recs, map[int64]string{1: "Anna", 2: "Bernd", 3: "Carla", 4: "Dieter", 5: "Eva"})
}

func row(t *testing.T, tb Table, p int64) Row {
	t.Helper()
	i := slices.IndexFunc(tb.Rows, func(r Row) bool { return r.Player == p })
	if i < 0 {
		t.Fatalf("player %d has no line", p)
	}
	return tb.Rows[i]
}

func wantRat(t *testing.T, what string, got Exact, want string) {
	t.Helper()
	if got.RatString() != want {
		t.Errorf("%s = %s, want %s", what, got.RatString(), want)
	}
}

// days returns n dates, one a week from start.
func days(start string, n int) []string {
	d, _ := time.Parse(time.DateOnly, start)
	out := make([]string, n)
	for i := range out {
		out[i] = d.AddDate(0, 0, 7*i).Format(time.DateOnly)
	}
	return out
}

// The Würzburg club: sum of points over the year, quarterly winners.
func TestSeasonSumWithQuarterlyWinners(t *testing.T) {
	r := Rules{Period: Period{Kind: PeriodYear, Year: 2026}, Games: []string{dk},
		Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Sum}, Missed: Missed{Kind: MissedIgnored}, Quarterly: true}
	recs := []Record{
		// Q1: Anna 30 + 10 = 40, Bernd −10 + 25 = 15, Carla −20 − 35 = −55
		rec(1, "2026-01-08", 1, 24, 30), rec(2, "2026-01-08", 1, 24, -10), rec(3, "2026-01-08", 1, 24, -20),
		rec(1, "2026-02-12", 2, 24, 10), rec(2, "2026-02-12", 2, 24, 25), rec(3, "2026-02-12", 2, 24, -35),
		// Q2: Bernd 50, Carla 20, Anna −70; Q4: Carla 5, Anna −5
		rec(1, "2026-04-09", 3, 24, -70), rec(2, "2026-04-09", 3, 24, 50), rec(3, "2026-04-09", 3, 24, 20),
		rec(1, "2026-11-19", 4, 24, -5), rec(3, "2026-11-19", 4, 24, 5),
		// outside the year and another game: not counted
		rec(1, "2025-12-31", 5, 24, 1000), {Player: 1, Session: 6, Game: "skat", Date: "2026-03-01", Hands: 10, Points: big.NewRat(500, 1)},
	}
	tb := compute(t, r, recs)
	// Year: Bernd 15 + 50 = 65, Carla −55 + 20 + 5 = −30, Anna 40 − 70 − 5 = −35.
	want := []struct {
		p     int64
		final string
		rank  int
	}{{2, "65", 1}, {3, "-30", 2}, {1, "-35", 3}}
	for i, w := range want {
		got := tb.Rows[i]
		if got.Player != w.p || got.Rank != w.rank {
			t.Errorf("row %d = player %d rank %d, want player %d rank %d", i, got.Player, got.Rank, w.p, w.rank)
		}
		wantRat(t, fmt.Sprintf("final of %d", w.p), got.Final, w.final)
	}
	if len(tb.Offered) != 4 {
		t.Errorf("offered = %v, want 4 evenings", tb.Offered)
	}
	if got := len(tb.Quarters); got != 3 {
		t.Fatalf("quarters = %d, want Q1, Q2, Q4", got)
	}
	winners := map[string]int64{"2026-Q1": 1, "2026-Q2": 2, "2026-Q4": 3}
	for _, q := range tb.Quarters {
		if q.Rows[0].Player != winners[q.Quarter] || q.Rows[0].Rank != 1 {
			t.Errorf("%s winner = %d, want %d", q.Quarter, q.Rows[0].Player, winners[q.Quarter])
		}
	}
	wantRat(t, "Q1 Anna", tb.Quarters[0].Rows[0].Score, "40")
}

// The Skat club's Spielordnung: average per list, evenings not played
// count as 0, at least a minimum of lists.
func TestSeasonAverageMissedAsZeroWithMinimum(t *testing.T) {
	r := Rules{Period: Period{Kind: PeriodRange, From: "2026-01-01", To: "2026-06-30"}, Games: []string{dk},
		Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Average}, Missed: Missed{Kind: MissedZero},
		Eligibility: Eligibility{MinUnits: 3}}
	d := days("2026-01-08", 4)
	recs := []Record{
		// Anna plays all four: 10, 20, 30, 40 → 100/4 = 25.
		rec(1, d[0], 1, 20, 10), rec(1, d[1], 2, 20, 20), rec(1, d[2], 3, 20, 30), rec(1, d[3], 4, 20, 40),
		// Bernd plays three: 60, 30, 30, one missed as 0 → 120/4 = 30.
		rec(2, d[0], 1, 20, 60), rec(2, d[1], 2, 20, 30), rec(2, d[2], 3, 20, 30),
		// Carla plays two: 100, 100 → 200/4 = 50, but below the minimum of 3.
		rec(3, d[0], 1, 20, 100), rec(3, d[3], 4, 20, 100),
	}
	tb := compute(t, r, recs)
	b, a, c := row(t, tb, 2), row(t, tb, 1), row(t, tb, 3)
	wantRat(t, "Bernd", b.Final, "30")
	wantRat(t, "Anna", a.Final, "25")
	wantRat(t, "Carla", c.Final, "50")
	if b.Rank != 1 || a.Rank != 2 || c.Rank != 0 || c.Eligible || !slices.Equal(c.NotEligible, []string{"min_units"}) {
		t.Errorf("ranks Bernd %d Anna %d Carla %d (eligible %v %v), want 1, 2, unranked for min_units", b.Rank, a.Rank, c.Rank, c.Eligible, c.NotEligible)
	}
	if b.Counted != 4 || b.Missed != 1 {
		t.Errorf("Bernd counted %d missed %d, want 4 and 1", b.Counted, b.Missed)
	}
	missed := b.Evenings[3]
	if !missed.Missed || !missed.Counted || missed.Reason != MissedCounted || missed.Date != d[3] {
		t.Errorf("Bernd's missed evening = %+v, want counted as 0", missed)
	}
	// The same with a stated score of −5 for a missed evening: Bernd (120 − 5)/4 = 115/4.
	r.Missed = Missed{Kind: MissedScore, Score: "-5"}
	wantRat(t, "Bernd with −5", row(t, compute(t, r, recs), 2).Final, "115/4")
}

// At least 25 series; from the 30th on every fifth further series drops
// the current worst, at most five (30, 35, 40, 45, 50).
func TestSeasonDroppedResultsAtThresholds(t *testing.T) {
	r := Rules{Period: Period{Kind: PeriodYear, Year: 2026}, Games: []string{dk},
		Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Sum, DropAt: []int{30, 35, 40, 45, 50}},
		Missed: Missed{Kind: MissedIgnored}, Eligibility: Eligibility{MinUnits: 25}}
	d := days("2026-01-01", 52)
	var recs []Record
	// Player p attends the first n[p] evenings, scoring 1, 2, … n.
	n := map[int64]int{1: 52, 2: 34, 3: 29, 4: 24, 5: 45}
	for p, k := range n {
		for i := range k {
			recs = append(recs, rec(p, d[i], int64(i+1), 24, int64(i+1)))
		}
	}
	tb := compute(t, r, recs)
	want := []struct {
		p               int64
		dropped, counts int
		final           string
		eligible        bool
	}{
		{1, 5, 47, "1363", true}, // 52·53/2 = 1378 − (1+2+3+4+5) = 1363
		{5, 4, 41, "1025", true}, // 45·46/2 = 1035 − (1+2+3+4) = 1025
		{2, 1, 33, "594", true},  // 34·35/2 = 595 − 1
		{3, 0, 29, "435", true},  // 29·30/2, no drop below 30
		{4, 0, 24, "300", false}, // 24·25/2, fewer than 25 series
	}
	for i, w := range want {
		got := tb.Rows[i]
		if got.Player != w.p || got.Dropped != w.dropped || got.Counted != w.counts || got.Eligible != w.eligible {
			t.Errorf("row %d: player %d dropped %d counted %d eligible %v, want %+v", i, got.Player, got.Dropped, got.Counted, got.Eligible, w)
		}
		wantRat(t, fmt.Sprintf("final of %d", w.p), got.Final, w.final)
	}
	// The dropped are the worst: player 2's first evening (1 point).
	if e := row(t, tb, 2).Evenings[0]; e.Reason != DroppedWorst || e.Counted {
		t.Errorf("player 2's worst evening = %+v, want dropped", e)
	}
}

// The average minus (missed − 16)², nobody ranked who missed more than 50
// of 75 offered.
func TestSeasonQuadraticPenaltyAndMaxMissed(t *testing.T) {
	maxMissed := 50
	r := Rules{Period: Period{Kind: PeriodRange, From: "2025-01-01", To: "2027-12-31"}, Games: []string{dk},
		Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Average},
		Missed:      Missed{Kind: MissedPenalty, Free: 16},
		Eligibility: Eligibility{MaxMissed: &maxMissed}}
	d := days("2025-01-02", 75)
	var recs []Record
	for i := range 75 {
		recs = append(recs, rec(1, d[i], int64(i+1), 24, 10)) // Anna: all 75, average 10, no penalty
		if i < 65 {
			recs = append(recs, rec(2, d[i], int64(i+1), 24, 40)) // Bernd: missed 10 ≤ 16: 40
		}
		if i < 50 {
			recs = append(recs, rec(3, d[i], int64(i+1), 24, 100)) // Carla: missed 25: 100 − 9² = 19
		}
		if i < 25 {
			recs = append(recs, rec(4, d[i], int64(i+1), 24, 500)) // Dieter: missed 50: 500 − 34² = −656, still ranked
		}
		if i < 24 {
			recs = append(recs, rec(5, d[i], int64(i+1), 24, 900)) // Eva: missed 51 > 50: not ranked
		}
	}
	tb := compute(t, r, recs)
	want := []struct {
		p              int64
		penalty, final string
		rank           int
	}{{2, "0", "40", 1}, {3, "81", "19", 2}, {1, "0", "10", 3}, {4, "1156", "-656", 4}, {5, "1225", "-325", 0}}
	for i, w := range want {
		got := tb.Rows[i]
		if got.Player != w.p || got.Rank != w.rank {
			t.Errorf("row %d = player %d rank %d, want %d rank %d", i, got.Player, got.Rank, w.p, w.rank)
		}
		wantRat(t, fmt.Sprintf("penalty of %d", w.p), got.Penalty, w.penalty)
		wantRat(t, fmt.Sprintf("final of %d", w.p), got.Final, w.final)
	}
	if e := row(t, tb, 5); !slices.Equal(e.NotEligible, []string{"max_missed"}) || e.Evenings[74].Reason != InPenalty {
		t.Errorf("Eva: not eligible %v, last evening %+v; want max_missed and a missed evening in the penalty", e.NotEligible, e.Evenings[74])
	}
}

// The DDV's ranking list: 24 months ending at a date, at least 36 rounds,
// by the average per round.
func TestSeasonRollingWindowWithMinimum(t *testing.T) {
	r := Rules{Period: Period{Kind: PeriodRolling, Months: 24, End: "2026-11-30"}, Games: []string{dk},
		Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Average}, Missed: Missed{Kind: MissedIgnored},
		Eligibility: Eligibility{MinUnits: 36}}
	if from, to := r.Period.Dates(); from != "2024-12-01" || to != "2026-11-30" {
		t.Fatalf("window = %s..%s, want 2024-12-01..2026-11-30", from, to)
	}
	d := days("2024-12-01", 40) // 2024-12-01 … 2025-08-31
	var recs []Record
	for i := range 36 {
		recs = append(recs, rec(1, d[i], int64(i+1), 24, int64(i%2*10))) // Anna: 36 rounds, 0 and 10: average 5
	}
	for i := range 35 {
		recs = append(recs, rec(2, d[i], int64(i+1), 24, 50)) // Bernd: 35 in the window…
	}
	recs = append(recs, rec(2, "2024-11-30", 99, 24, 50), rec(2, "2026-12-01", 98, 24, 50)) // …and one on each side of it
	tb := compute(t, r, recs)
	a, b := row(t, tb, 1), row(t, tb, 2)
	wantRat(t, "Anna", a.Final, "5")
	if a.Rank != 1 || !a.Eligible || a.Attended != 36 {
		t.Errorf("Anna rank %d eligible %v attended %d, want 1, true, 36", a.Rank, a.Eligible, a.Attended)
	}
	if b.Eligible || b.Attended != 35 || b.Rank != 0 {
		t.Errorf("Bernd eligible %v attended %d rank %d, want 35 rounds in the window, not ranked", b.Eligible, b.Attended, b.Rank)
	}
}

// Evening winners across the club's tables of 16, 20 and 24 hands, per 24
// hands; a player at two tables of the date counts with all his hands.
func TestSeasonEveningWinnersPer24Hands(t *testing.T) {
	r := Rules{Period: Period{Kind: PeriodYear, Year: 2026}, Games: []string{dk},
		Unit: Unit{Kind: UnitPerHands}, Aggregate: Aggregate{Kind: Sum}, Missed: Missed{Kind: MissedIgnored},
		TieBreaks: []TieBreak{ByEveningsWon}}
	const day = "2026-11-19"
	recs := []Record{
		rec(1, day, 1, 16, 40), // Anna, 16 hands: 40 · 24/16 = 60
		rec(2, day, 2, 20, 45), // Bernd, 20 hands: 45 · 24/20 = 54
		rec(3, day, 3, 24, 58), // Carla, 24 hands: 58 (the most raw points)
		// Dieter: 8 hands at table 1 and 12 at table 2: (20 + 29) · 24/20 = 58.8
		rec(4, day, 1, 8, 20), rec(4, day, 2, 12, 29),
	}
	tb := compute(t, r, recs)
	if len(tb.Winners) != 1 || tb.Winners[0].Tables != 3 || len(tb.Winners[0].Winners) != 1 {
		t.Fatalf("winners = %+v, want one winner of 3 tables", tb.Winners)
	}
	w := tb.Winners[0].Winners[0]
	if w.Player != 1 {
		t.Errorf("Tagessieger = %d, want Anna (60 per 24 hands)", w.Player)
	}
	wantRat(t, "Anna per 24", w.PerHands, "60")
	wantRat(t, "Dieter's unit", row(t, tb, 4).Score, "294/5")
	if a := row(t, tb, 1); a.EveningsWon != 1 || !a.Evenings[0].Won || a.Rank != 1 {
		t.Errorf("Anna evenings won %d, rank %d, want 1 and 1", a.EveningsWon, a.Rank)
	}
	// A tie per 24 hands: both win.
	recs = append(recs, rec(5, day, 3, 12, 30)) // Eva: 30 · 24/12 = 60
	tb = compute(t, r, recs)
	if got := tb.Winners[0].Winners; len(got) != 2 || got[0].Player != 1 || got[1].Player != 5 {
		t.Errorf("tied winners = %+v, want Anna and Eva", got)
	}
}

// Placement points at the table, ties sharing the mean of their places'
// points, exactly.
func TestSeasonPlacementTiesShareTheMean(t *testing.T) {
	r := Rules{Period: Period{Kind: PeriodYear, Year: 2026}, Games: []string{dk},
		Unit: Unit{Kind: UnitPlacement, Placement: []int64{10, 7, 5, 2}}, Aggregate: Aggregate{Kind: Sum}, Missed: Missed{Kind: MissedIgnored}}
	const day = "2026-03-05"
	recs := []Record{
		// A table of five: Anna 30 (10), Bernd and Carla 20 ((7+5)/2 = 6 each),
		// Dieter and Eva −35 ((2+0)/2 = 1 each: the fifth place has no points).
		rec(1, day, 1, 24, 30), rec(2, day, 1, 24, 20), rec(3, day, 1, 24, 20), rec(4, day, 1, 24, -35), rec(5, day, 1, 24, -35),
	}
	tb := compute(t, r, recs)
	for p, want := range map[int64]string{1: "10", 2: "6", 3: "6", 4: "1", 5: "1"} {
		wantRat(t, fmt.Sprintf("placement of %d", p), row(t, tb, p).Final, want)
	}
	// Three tied for the places 2–4: (7 + 5 + 2)/3 = 14/3.
	recs = []Record{rec(1, day, 1, 24, 30), rec(2, day, 1, 24, 0), rec(3, day, 1, 24, 0), rec(4, day, 1, 24, 0)}
	wantRat(t, "three tied", row(t, compute(t, r, recs), 2).Final, "14/3")
}

// Tie-breaks in the order given, then a shared place.
func TestSeasonTieBreaksInOrder(t *testing.T) {
	d := days("2026-01-08", 3)
	// Anna and Bernd both end on 30 points. Anna: 3 evenings, 1 won,
	// total raw 30; Bernd: 2 evenings, 2 won. Carla scores the rest.
	recs := []Record{
		rec(1, d[0], 1, 24, 10), rec(2, d[0], 1, 24, 15), rec(3, d[0], 1, 24, -25),
		rec(1, d[1], 2, 24, 5), rec(2, d[1], 2, 24, 15), rec(3, d[1], 2, 24, -20),
		rec(1, d[2], 3, 24, 15), rec(3, d[2], 3, 24, -15),
	}
	base := Rules{Period: Period{Kind: PeriodYear, Year: 2026}, Games: []string{dk},
		Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Sum}, Missed: Missed{Kind: MissedIgnored}}
	cases := []struct {
		tb    []TieBreak
		first int64
		rank2 int
	}{
		{[]TieBreak{ByEveningsWon, ByUnits}, 2, 2}, // Bernd won 2 evenings, Anna 1
		{[]TieBreak{ByUnits, ByEveningsWon}, 1, 2}, // Anna played 3 evenings, Bernd 2
		{[]TieBreak{ByTotalPoints}, 0, 1},          // both 30 raw points: shared first place
		{nil, 0, 1},                                // no tie-breaks: shared
	}
	for _, c := range cases {
		r := base
		r.TieBreaks = c.tb
		tb := compute(t, r, recs)
		if tb.Rows[1].Rank != c.rank2 || (c.first != 0 && tb.Rows[0].Player != c.first) {
			t.Errorf("tie-breaks %v: first %d, second's rank %d; want first %d, second's rank %d", c.tb, tb.Rows[0].Player, tb.Rows[1].Rank, c.first, c.rank2)
		}
		if c.rank2 == 1 && (!tb.Rows[0].Shared || !tb.Rows[1].Shared) {
			t.Errorf("tie-breaks %v: the place is not marked shared", c.tb)
		}
	}
}

// Best k of n: only the best k evenings count.
func TestSeasonBestKOfN(t *testing.T) {
	r := Rules{Period: Period{Kind: PeriodYear, Year: 2026}, Games: []string{dk},
		Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Average, Best: 3}, Missed: Missed{Kind: MissedIgnored}}
	d := days("2026-01-08", 5)
	var recs []Record
	for i, p := range []int64{-10, 40, 20, 30, 0} {
		recs = append(recs, rec(1, d[i], int64(i+1), 24, p))
	}
	a := row(t, compute(t, r, recs), 1)
	wantRat(t, "best 3 of 5", a.Final, "30") // (40 + 20 + 30)/3
	if a.Counted != 3 || a.Evenings[0].Reason != NotAmongBest || a.Evenings[4].Reason != NotAmongBest || a.Evenings[1].Reason != Counted {
		t.Errorf("counted %d, evenings %+v", a.Counted, a.Evenings)
	}
}

// Rules that are not a season's are refused, naming the field.
func TestSeasonRulesRefused(t *testing.T) {
	good := func() Rules {
		return Rules{Period: Period{Kind: PeriodYear, Year: 2026}, Games: []string{dk},
			Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Sum}, Missed: Missed{Kind: MissedIgnored}}
	}
	if err := good().Check(known); err != nil {
		t.Fatalf("good rules refused: %v", err)
	}
	neg := -1
	cases := map[string]func(*Rules){
		"period.kind":                   func(r *Rules) { r.Period.Kind = "season" },
		"period.year":                   func(r *Rules) { r.Period.Year = 20260 },
		"period.to":                     func(r *Rules) { r.Period = Period{Kind: PeriodRange, From: "2026-02-01", To: "2026-01-01"} },
		"period.months":                 func(r *Rules) { r.Period = Period{Kind: PeriodRolling, Months: 0, End: "2026-01-01"} },
		"period.end":                    func(r *Rules) { r.Period = Period{Kind: PeriodRolling, Months: 24, End: "2026-13-01"} },
		"games":                         func(r *Rules) { r.Games = nil },
		"games[1]":                      func(r *Rules) { r.Games = []string{dk, "poker"} },
		"unit.kind":                     func(r *Rules) { r.Unit.Kind = "hands" },
		"unit.placement":                func(r *Rules) { r.Unit = Unit{Kind: UnitPlacement} },
		"unit.per_hands":                func(r *Rules) { r.Unit = Unit{Kind: UnitPerHands, PerHands: -3} },
		"aggregate.kind":                func(r *Rules) { r.Aggregate.Kind = "median" },
		"aggregate.drop_at[1]":          func(r *Rules) { r.Aggregate.DropAt = []int{30, 30} },
		"eligibility.min_share_percent": func(r *Rules) { r.Eligibility.MinSharePercent = 101 },
		"eligibility.max_missed":        func(r *Rules) { r.Eligibility.MaxMissed = &neg },
		"missed.kind":                   func(r *Rules) { r.Missed.Kind = "double" },
		"missed.score":                  func(r *Rules) { r.Missed = Missed{Kind: MissedScore, Score: "1.5"} },
		"missed.free":                   func(r *Rules) { r.Missed = Missed{Kind: MissedPenalty, Free: -1} },
		"tie_breaks[1]":                 func(r *Rules) { r.TieBreaks = []TieBreak{ByUnits, ByUnits} },
	}
	for field, bad := range cases {
		r := good()
		bad(&r)
		err := r.Check(known)
		var v *score.Violation
		if !errors.As(err, &v) || v.Field != field {
			t.Errorf("%s: Check = %v, want a violation of %s", field, err, field)
		}
	}
}

// The what-if: what a player needs on each remaining evening.
func TestSeasonWhatIf(t *testing.T) {
	d := days("2026-01-08", 2)
	recs := []Record{
		rec(1, d[0], 1, 24, 50), rec(2, d[0], 1, 24, 10),
		rec(1, d[1], 2, 24, 30), rec(2, d[1], 2, 24, 20),
	}
	r := Rules{Period: Period{Kind: PeriodYear, Year: 2026}, Games: []string{dk},
		Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Sum}, Missed: Missed{Kind: MissedIgnored}}
	// Sum: Anna 80, Bernd 30; on 4 evenings Bernd needs more than (80 − 30)/4 = 25/2 each.
	w := WhatIfOf(r, compute(t, r, recs).Rows, 2, 4)
	if w.Leader != 1 {
		t.Fatalf("leader = %d, want Anna", w.Leader)
	}
	wantRat(t, "sum: per evening", w.PerEvening, "25/2")
	// Average: Anna 40, Bernd 15 over 2; (40·(2 + 4) − 30)/4 = 105/2.
	r.Aggregate.Kind = Average
	wantRat(t, "average: per evening", WhatIfOf(r, compute(t, r, recs).Rows, 2, 4).PerEvening, "105/2")
}

// The leaders' course: each leader's final after each offered evening,
// the missed ones counted as the rules say.
func TestSeasonCourse(t *testing.T) {
	d := days("2026-01-08", 3)
	recs := []Record{
		rec(1, d[0], 1, 24, 10), rec(2, d[0], 1, 24, -10),
		rec(2, d[1], 2, 24, 30), rec(3, d[1], 2, 24, -30),
		rec(1, d[2], 3, 24, 5), rec(2, d[2], 3, 24, -5),
	}
	r := Rules{Period: Period{Kind: PeriodYear, Year: 2026}, Games: []string{dk},
		Unit: Unit{Kind: UnitPoints}, Aggregate: Aggregate{Kind: Average}, Missed: Missed{Kind: MissedZero}}
	tb := compute(t, r, recs)
	c := CourseOf(r, recs, map[int64]string{}, tb, 2)
	// Anna: 10/1, (10 + 0)/2, (10 + 0 + 5)/3; Bernd: −10, (−10 + 30)/2, (−10 + 30 − 5)/3.
	want := map[int64][]string{1: {"10", "5", "5"}, 2: {"-10", "10", "5"}}
	for _, line := range c.Players {
		var got []string
		for _, f := range line.Finals {
			got = append(got, f.RatString())
		}
		if fmt.Sprint(got) != fmt.Sprint(want[line.Player]) {
			t.Errorf("course of %d = %v, want %v", line.Player, got, want[line.Player])
		}
	}
}
