package season

import (
	"cmp"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Record is one player's hands at one table on one date (a session's
// figures, or an imported evening's), the input of a season table.
type Record struct {
	Player   int64
	Session  int64 // the table's evening; imported evenings have their own
	Table    int64
	Game     string
	Date     string // YYYY-MM-DD
	Hands    int
	Points   *big.Rat
	Imported bool
}

// Exact is an exact rational, written in JSON as the string "n" or "n/d".
type Exact struct{ *big.Rat }

func exact(r *big.Rat) Exact { return Exact{new(big.Rat).Set(r)} }

// MarshalJSON writes the exact form.
func (e Exact) MarshalJSON() ([]byte, error) {
	if e.Rat == nil {
		return []byte(`"0"`), nil
	}
	return []byte(strconv.Quote(e.RatString())), nil
}

// Display is the number rounded to two decimals, halves away from zero,
// with a decimal comma: the one rounding of a season, for people.
func (e Exact) Display() string {
	if e.Rat == nil {
		return "0,00"
	}
	s := e.FloatString(2) // rounds halves away from zero
	return strings.Replace(s, ".", ",", 1)
}

// Reason says why an evening counted or not.
type Reason string

// Reasons of a contribution.
const (
	Counted       Reason = "counted"
	DroppedWorst  Reason = "dropped_worst"   // dropped at an attendance threshold
	NotAmongBest  Reason = "not_among_best"  // outside the best k
	NotAUnit      Reason = "missed_ignored"  // missed, not a unit
	InPenalty     Reason = "missed_penalty"  // missed, counted in the penalty
	MissedCounted Reason = "missed_counted"  // missed, a unit of 0 or the stated score, counted
	MissedDropped Reason = "missed_dropped"  // missed unit, dropped as a worst result
	MissedNotBest Reason = "missed_not_best" // missed unit, outside the best k
)

// Contribution is one offered evening in a player's line.
type Contribution struct {
	Date     string `json:"date"`
	Missed   bool   `json:"missed"`
	Imported bool   `json:"imported"`
	Hands    int    `json:"hands"`
	Points   Exact  `json:"points"` // raw points of the evening (0 when missed)
	Score    Exact  `json:"score"`  // the unit's score (its stated score when missed)
	Counted  bool   `json:"counted"`
	Reason   Reason `json:"reason"`
	Won      bool   `json:"won"` // evening winner (Tagessieger)
}

// Row is a player's season line.
type Row struct {
	Rank        int            `json:"rank"` // 0: not ranked (not eligible)
	Shared      bool           `json:"shared"`
	Player      int64          `json:"player_id"`
	Name        string         `json:"name"`
	Attended    int            `json:"attended"`
	Missed      int            `json:"missed"`
	Counted     int            `json:"counted"`
	Dropped     int            `json:"dropped"`
	Imported    int            `json:"imported"` // attended evenings that were imported
	Hands       int            `json:"hands"`
	Total       Exact          `json:"total_points"`
	EveningsWon int            `json:"evenings_won"`
	Score       Exact          `json:"score"`
	Penalty     Exact          `json:"penalty"`
	Final       Exact          `json:"final"`
	Eligible    bool           `json:"eligible"`
	NotEligible []string       `json:"not_eligible"` // the rules not met: min_units, min_share, max_missed
	Evenings    []Contribution `json:"evenings"`
	// counted units' scores, kept for the what-if
	sum   *big.Rat
	units int
}

// Winner is one evening winner (Tagessieger).
type Winner struct {
	Player   int64  `json:"player_id"`
	Name     string `json:"name"`
	Hands    int    `json:"hands"`
	Points   Exact  `json:"points"`
	PerHands Exact  `json:"per_hands"` // points × per / hands
}

// EveningWinners are the winners of one offered date across the club's tables.
type EveningWinners struct {
	Date    string   `json:"date"`
	Per     int64    `json:"per"`
	Tables  int      `json:"tables"`
	Winners []Winner `json:"winners"`
}

// QuarterRow is a player's line in a quarter.
type QuarterRow struct {
	Rank   int    `json:"rank"`
	Player int64  `json:"player_id"`
	Name   string `json:"name"`
	Units  int    `json:"units"`
	Score  Exact  `json:"score"`
}

// Quarter is a quarterly sub-table: the attended evenings of a calendar
// quarter, by the season's unit and aggregate (sum or average), without
// drops, eligibility or penalty.
type Quarter struct {
	Quarter string       `json:"quarter"` // 2026-Q1
	From    string       `json:"from"`
	To      string       `json:"to"`
	Rows    []QuarterRow `json:"rows"`
}

// Table is a season table.
type Table struct {
	From, To string
	Offered  []string
	Rows     []Row
	Winners  []EveningWinners
	Quarters []Quarter
	// ImportedEvenings counts the offered dates with imported evenings.
	ImportedEvenings int
}

type unitKey struct {
	player int64
	date   string
}

type unit struct {
	date     string
	hands    int
	points   *big.Rat
	score    *big.Rat
	imported bool
	missed   bool
	won      bool
	reason   Reason
}

// In reports whether a record is of the season's dates and games.
func (r Rules) In(rec Record) bool {
	from, to := r.Period.Dates()
	return rec.Date >= from && rec.Date <= to && slices.Contains(r.Games, rec.Game)
}

// Compute is the season table of the records under the rules (which
// Check accepted); names are the players' names by id. An evening is
// offered when any record of the season's games has that date.
func Compute(r Rules, recs []Record, names map[int64]string) Table {
	from, to := r.Period.Dates()
	t := Table{From: from, To: to, Rows: []Row{}, Winners: []EveningWinners{}, Quarters: []Quarter{}}
	ev := evenings(r, recs)
	t.Offered, t.ImportedEvenings = ev.offered, ev.importedDates
	units := ev.units
	t.Winners = eveningWinners(r, ev.in, units, names, t.Offered)
	won := map[int64]int{}
	for _, ew := range t.Winners {
		for _, w := range ew.Winners {
			won[w.Player]++
			units[unitKey{w.Player, ew.Date}].won = true
		}
	}
	for p, us := range ev.byPlayer() {
		t.Rows = append(t.Rows, line(r, p, names[p], us, t.Offered, won[p]))
	}
	rank(r, t.Rows)
	if r.Quarterly {
		t.Quarters = quarters(r, units, names, t.Offered)
	}
	return t
}

// seasonEvenings are a season's records as units: the records in its
// dates and games, the offered dates in order, each player's evening
// with its score.
type seasonEvenings struct {
	in            []Record
	offered       []string
	importedDates int
	units         map[unitKey]*unit
}

// evenings scores each player's evenings of the season.
func evenings(r Rules, recs []Record) seasonEvenings {
	var ev seasonEvenings
	offered := map[string]bool{}
	importedDates := map[string]bool{}
	from, to := r.Period.Dates()
	for _, rec := range recs {
		if rec.Date < from || rec.Date > to || rec.Hands <= 0 || !slices.Contains(r.Games, rec.Game) {
			continue
		}
		ev.in = append(ev.in, rec)
		offered[rec.Date] = true
		if rec.Imported {
			importedDates[rec.Date] = true
		}
	}
	ev.importedDates = len(importedDates)
	for d := range offered {
		ev.offered = append(ev.offered, d)
	}
	slices.Sort(ev.offered)
	ev.units = map[unitKey]*unit{}
	for _, rec := range ev.in {
		k := unitKey{rec.Player, rec.Date}
		u := ev.units[k]
		if u == nil {
			u = &unit{date: rec.Date, points: new(big.Rat), score: new(big.Rat)}
			ev.units[k] = u
		}
		u.hands += rec.Hands
		u.points.Add(u.points, rec.Points)
		u.imported = u.imported || rec.Imported
	}
	placement := placementPoints(r.Unit, ev.in)
	for k, u := range ev.units {
		switch r.Unit.Kind {
		case UnitPoints:
			u.score.Set(u.points)
		case UnitPerHands:
			u.score.Mul(u.points, big.NewRat(r.Unit.per(), int64(u.hands)))
		case UnitPlacement:
			u.score.Set(placement[k])
		}
	}
	return ev
}

// byPlayer is each player's units.
func (ev seasonEvenings) byPlayer() map[int64][]*unit {
	out := map[int64][]*unit{}
	for k, u := range ev.units {
		out[k.player] = append(out[k.player], u)
	}
	return out
}

// placementPoints is each player's placement points per date: at each
// table's evening (session) the players are ranked by points, tied
// players share the mean of their places' points (places beyond the list
// score 0), and a player at two tables of one date has both.
func placementPoints(u Unit, in []Record) map[unitKey]*big.Rat {
	out := map[unitKey]*big.Rat{}
	if u.Kind != UnitPlacement {
		return out
	}
	bySession := map[int64][]Record{}
	for _, rec := range in {
		bySession[rec.Session] = append(bySession[rec.Session], rec)
	}
	placePts := func(i int) *big.Rat {
		if i < len(u.Placement) {
			return new(big.Rat).SetInt64(u.Placement[i])
		}
		return new(big.Rat)
	}
	for _, recs := range bySession {
		slices.SortFunc(recs, func(a, b Record) int { return b.Points.Cmp(a.Points) })
		for i := 0; i < len(recs); {
			j := i + 1
			for j < len(recs) && recs[j].Points.Cmp(recs[i].Points) == 0 {
				j++
			}
			share := new(big.Rat)
			for p := i; p < j; p++ {
				share.Add(share, placePts(p))
			}
			share.Quo(share, big.NewRat(int64(j-i), 1))
			for p := i; p < j; p++ {
				k := unitKey{recs[p].Player, recs[p].Date}
				if out[k] == nil {
					out[k] = new(big.Rat)
				}
				out[k].Add(out[k], share)
			}
			i = j
		}
	}
	return out
}

// eveningWinners are each offered date's winners: the players with the
// most points per WinnerPerHands hands over all their hands of the date,
// across tables; tied players all win.
func eveningWinners(r Rules, in []Record, units map[unitKey]*unit, names map[int64]string, offered []string) []EveningWinners {
	per := r.winnerPer()
	tables := map[string]map[int64]bool{}
	players := map[string][]int64{}
	for _, rec := range in {
		if tables[rec.Date] == nil {
			tables[rec.Date] = map[int64]bool{}
		}
		tables[rec.Date][rec.Session] = true
		if !slices.Contains(players[rec.Date], rec.Player) {
			players[rec.Date] = append(players[rec.Date], rec.Player)
		}
	}
	out := []EveningWinners{}
	for _, d := range offered {
		ew := EveningWinners{Date: d, Per: per, Tables: len(tables[d]), Winners: []Winner{}}
		var best *big.Rat
		for _, p := range players[d] {
			u := units[unitKey{p, d}]
			v := new(big.Rat).Mul(u.points, big.NewRat(per, int64(u.hands)))
			c := 1
			if best != nil {
				c = v.Cmp(best)
			}
			if c < 0 {
				continue
			}
			if c > 0 {
				best, ew.Winners = v, ew.Winners[:0]
			}
			ew.Winners = append(ew.Winners, Winner{Player: p, Name: names[p], Hands: u.hands, Points: exact(u.points), PerHands: exact(v)})
		}
		slices.SortFunc(ew.Winners, func(a, b Winner) int { return cmp.Compare(a.Player, b.Player) })
		out = append(out, ew)
	}
	return out
}

// line is a player's season line from his attended units.
func line(r Rules, p int64, name string, attended []*unit, offered []string, won int) Row {
	row := Row{Player: p, Name: name, Attended: len(attended), EveningsWon: won, NotEligible: []string{}}
	total := new(big.Rat)
	at := map[string]bool{}
	for _, u := range attended {
		at[u.date] = true
		total.Add(total, u.points)
		row.Hands += u.hands
		if u.imported {
			row.Imported++
		}
	}
	row.Total = exact(total)
	row.Missed = len(offered) - len(attended)
	all := slices.Clone(attended)
	// Missed evenings that are no unit are only listed: one contribution
	// each, their zero figures shared (a club's year has thousands).
	var missedOut []Contribution
	stated, _ := parseScore(r.Missed.Score)
	for _, d := range offered {
		if at[d] {
			continue
		}
		switch r.Missed.Kind {
		case MissedZero:
			all = append(all, &unit{date: d, missed: true, points: new(big.Rat), score: new(big.Rat)})
		case MissedScore:
			all = append(all, &unit{date: d, missed: true, points: new(big.Rat), score: stated})
		case MissedPenalty:
			missedOut = append(missedOut, Contribution{Date: d, Missed: true, Reason: InPenalty})
		default:
			missedOut = append(missedOut, Contribution{Date: d, Missed: true, Reason: NotAUnit})
		}
	}
	// The worst first: lowest score, then the earlier evening.
	slices.SortFunc(all, func(a, b *unit) int {
		if c := a.score.Cmp(b.score); c != 0 {
			return c
		}
		return strings.Compare(a.date, b.date)
	})
	drops := 0
	for _, th := range r.Aggregate.DropAt {
		if row.Attended >= th {
			drops++
		}
	}
	drops = min(drops, len(all))
	for _, u := range all[:drops] {
		u.reason = DroppedWorst
		if u.missed {
			u.reason = MissedDropped
		}
	}
	rest := all[drops:]
	if r.Aggregate.Best > 0 && len(rest) > r.Aggregate.Best {
		for _, u := range rest[:len(rest)-r.Aggregate.Best] {
			u.reason = NotAmongBest
			if u.missed {
				u.reason = MissedNotBest
			}
		}
		rest = rest[len(rest)-r.Aggregate.Best:]
	}
	sum := new(big.Rat)
	for _, u := range rest {
		u.reason = Counted
		if u.missed {
			u.reason = MissedCounted
		}
		sum.Add(sum, u.score)
	}
	row.Counted, row.Dropped = len(rest), drops
	row.sum, row.units = sum, len(rest)
	scoreV := new(big.Rat).Set(sum)
	if r.Aggregate.Kind == Average && len(rest) > 0 {
		scoreV.Quo(sum, big.NewRat(int64(len(rest)), 1))
	}
	penalty := new(big.Rat)
	if r.Missed.Kind == MissedPenalty {
		over := int64(max(0, row.Missed-r.Missed.Free))
		penalty.SetInt64(r.Missed.factor() * over * over)
	}
	row.Score, row.Penalty = exact(scoreV), exact(penalty)
	row.Final = exact(new(big.Rat).Sub(scoreV, penalty))
	e := r.Eligibility
	if row.Attended < e.MinUnits {
		row.NotEligible = append(row.NotEligible, "min_units")
	}
	if row.Attended*100 < e.MinSharePercent*len(offered) {
		row.NotEligible = append(row.NotEligible, "min_share")
	}
	if e.MaxMissed != nil && row.Missed > *e.MaxMissed {
		row.NotEligible = append(row.NotEligible, "max_missed")
	}
	row.Eligible = len(row.NotEligible) == 0
	row.Evenings = make([]Contribution, 0, len(all)+len(missedOut))
	for _, u := range all {
		row.Evenings = append(row.Evenings, Contribution{
			Date: u.date, Missed: u.missed, Imported: u.imported, Hands: u.hands, Points: Exact{u.points},
			Score: Exact{u.score}, Counted: u.reason == Counted || u.reason == MissedCounted, Reason: u.reason, Won: u.won,
		})
	}
	row.Evenings = append(row.Evenings, missedOut...)
	slices.SortFunc(row.Evenings, func(a, b Contribution) int { return strings.Compare(a.Date, b.Date) })
	return row
}

// compareRows orders two lines: the eligible first, then the higher
// final, then the tie-breaks in order; 0 is a shared place.
func compareRows(r Rules, a, b Row) int {
	if a.Eligible != b.Eligible {
		if a.Eligible {
			return -1
		}
		return 1
	}
	if c := b.Final.Cmp(a.Final.Rat); c != 0 {
		return c
	}
	for _, tb := range r.TieBreaks {
		var c int
		switch tb {
		case ByEveningsWon:
			c = cmp.Compare(b.EveningsWon, a.EveningsWon)
		case ByTotalPoints:
			c = b.Total.Cmp(a.Total.Rat)
		case ByUnits:
			c = cmp.Compare(b.Attended, a.Attended)
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// rank sorts the lines and gives the eligible their places (shared
// places the same number, the next place skipping them).
func rank(r Rules, rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		if c := compareRows(r, a, b); c != 0 {
			return c
		}
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Player, b.Player))
	})
	for i := range rows {
		if !rows[i].Eligible {
			continue
		}
		rows[i].Rank = i + 1
		if i > 0 && rows[i-1].Eligible && compareRows(r, rows[i-1], rows[i]) == 0 {
			rows[i].Rank = rows[i-1].Rank
			rows[i].Shared, rows[i-1].Shared = true, true
		}
	}
}

// quarterOf is the calendar quarter of a date: "2026-Q1".
func quarterOf(date string) string {
	m, _ := strconv.Atoi(date[5:7])
	return date[:4] + "-Q" + strconv.Itoa((m+2)/3)
}

// quarters are the quarterly sub-tables of the attended evenings.
func quarters(r Rules, units map[unitKey]*unit, names map[int64]string, offered []string) []Quarter {
	out := []Quarter{}
	index := map[string]int{}
	for _, d := range offered {
		q := quarterOf(d)
		if _, ok := index[q]; !ok {
			index[q] = len(out)
			out = append(out, Quarter{Quarter: q, From: d})
		}
		out[index[q]].To = d
	}
	type acc struct {
		sum *big.Rat
		n   int
	}
	per := make([]map[int64]*acc, len(out))
	for i := range per {
		per[i] = map[int64]*acc{}
	}
	for k, u := range units {
		m := per[index[quarterOf(k.date)]]
		a := m[k.player]
		if a == nil {
			a = &acc{sum: new(big.Rat)}
			m[k.player] = a
		}
		a.sum.Add(a.sum, u.score)
		a.n++
	}
	for i := range out {
		rows := []QuarterRow{}
		for p, a := range per[i] {
			v := new(big.Rat).Set(a.sum)
			if r.Aggregate.Kind == Average {
				v.Quo(v, big.NewRat(int64(a.n), 1))
			}
			rows = append(rows, QuarterRow{Player: p, Name: names[p], Units: a.n, Score: exact(v)})
		}
		slices.SortFunc(rows, func(a, b QuarterRow) int {
			return cmp.Or(b.Score.Cmp(a.Score.Rat), strings.Compare(a.Name, b.Name), cmp.Compare(a.Player, b.Player))
		})
		for j := range rows {
			rows[j].Rank = j + 1
			if j > 0 && rows[j].Score.Cmp(rows[j-1].Score.Rat) == 0 {
				rows[j].Rank = rows[j-1].Rank
			}
		}
		out[i].Rows = rows
	}
	return out
}
