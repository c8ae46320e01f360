// Package season owns a club's season (Jahreswertung): the rules it is
// ranked by, as data, and the season table computed from the players'
// evenings under them, with exact arithmetic (math/big.Rat) throughout.
// It imports only the standard library and the score leaf; the ledger
// reads the evenings and stores the rules.
package season

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Limits of a rule set: each a bound of openapi.yaml too.
const (
	MaxMonths     = 120 // a rolling window of at most ten years
	MaxPerHands   = 1000
	MaxPlaces     = 40
	MaxPlacePts   = 1000000
	MaxThresholds = 20
	MaxUnits      = 10000
	MaxFactor     = 1000
	MaxScore      = 1000000
	DefaultPer    = 24
)

// PeriodKind is how a season's dates are given.
type PeriodKind string

// Period kinds.
const (
	PeriodRange   PeriodKind = "range"   // From..To inclusive
	PeriodYear    PeriodKind = "year"    // the calendar year Year
	PeriodRolling PeriodKind = "rolling" // Months months ending at End, inclusive
)

// Period is the season's dates.
type Period struct {
	Kind   PeriodKind `json:"kind"`
	From   string     `json:"from,omitempty"`
	To     string     `json:"to,omitempty"`
	Year   int        `json:"year,omitempty"`
	Months int        `json:"months,omitempty"`
	End    string     `json:"end,omitempty"`
}

// UnitKind is what a player's evening scores.
type UnitKind string

// Unit kinds.
const (
	UnitPoints    UnitKind = "points"    // the evening's raw points
	UnitPerHands  UnitKind = "per_hands" // points × PerHands / hands
	UnitPlacement UnitKind = "placement" // Placement[place−1] at his table, ties sharing the mean
)

// Unit is a player's evening (all his hands of one date, across the
// club's tables) and how it scores.
type Unit struct {
	Kind      UnitKind `json:"kind"`
	PerHands  int      `json:"per_hands,omitempty"`
	Placement []int64  `json:"placement,omitempty"`
}

// AggregateKind is how the counted units add up.
type AggregateKind string

// Aggregates.
const (
	Sum     AggregateKind = "sum"
	Average AggregateKind = "average"
)

// Aggregate is how the units count: sum or average of the counted ones,
// after dropping the worst once per attendance threshold reached (DropAt)
// and then keeping only the best Best (0: all).
type Aggregate struct {
	Kind   AggregateKind `json:"kind"`
	Best   int           `json:"best,omitempty"`
	DropAt []int         `json:"drop_at,omitempty"`
}

// Eligibility is who is ranked: at least MinUnits evenings attended, at
// least MinSharePercent of the offered evenings attended, at most
// MaxMissed offered evenings missed (nil: no limit).
type Eligibility struct {
	MinUnits        int  `json:"min_units,omitempty"`
	MinSharePercent int  `json:"min_share_percent,omitempty"`
	MaxMissed       *int `json:"max_missed,omitempty"`
}

// MissedKind is what an offered evening a player missed counts.
type MissedKind string

// Missed evenings.
const (
	MissedIgnored MissedKind = "ignored" // not a unit
	MissedZero    MissedKind = "zero"    // a unit scoring 0
	MissedScore   MissedKind = "score"   // a unit scoring Score
	MissedPenalty MissedKind = "penalty" // not a unit; final = score − Factor × max(0, missed − Free)²
)

// Missed is what offered evenings a player did not attend count.
type Missed struct {
	Kind   MissedKind `json:"kind"`
	Score  string     `json:"score,omitempty"` // exact, e.g. "-5" or "1/2"
	Free   int        `json:"free,omitempty"`
	Factor int        `json:"factor,omitempty"` // default 1
}

// TieBreak is one criterion after the final score, in the order given.
type TieBreak string

// Tie-breaks; after the last one the players share the place.
const (
	ByEveningsWon TieBreak = "evenings_won" // more evenings won (Tagessieger)
	ByTotalPoints TieBreak = "total_points" // more raw points over the attended evenings
	ByUnits       TieBreak = "units"        // more evenings attended
)

// Rules is a season's rule set.
type Rules struct {
	Period Period `json:"period"`
	// Games are the games whose evenings count: one, or an explicit mix.
	Games       []string    `json:"games"`
	Unit        Unit        `json:"unit"`
	Aggregate   Aggregate   `json:"aggregate"`
	Eligibility Eligibility `json:"eligibility"`
	Missed      Missed      `json:"missed"`
	TieBreaks   []TieBreak  `json:"tie_breaks,omitempty"`
	// WinnerPerHands compares the evening's players per this many hands
	// for the evening winner (0: 24).
	WinnerPerHands int `json:"winner_per_hands,omitempty"`
	// Quarterly adds the quarters' sub-tables.
	Quarterly bool `json:"quarterly,omitempty"`
}

// ParseDate reads a date YYYY-MM-DD, naming field when it is not one.
func ParseDate(field, s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return t, score.Invalid(field, "must be a date YYYY-MM-DD")
	}
	return t, nil
}

// Dates returns the period's first and last date, inclusive.
func (p Period) Dates() (from, to string) {
	switch p.Kind {
	case PeriodYear:
		return fmt.Sprintf("%04d-01-01", p.Year), fmt.Sprintf("%04d-12-31", p.Year)
	case PeriodRolling:
		end, _ := time.Parse(time.DateOnly, p.End)
		start := end.AddDate(0, -p.Months, 1)
		return start.Format(time.DateOnly), p.End
	}
	return p.From, p.To
}

// Check refuses a period that is not one, naming the field.
func (p Period) Check() error {
	switch p.Kind {
	case PeriodRange:
		if _, err := ParseDate("period.from", p.From); err != nil {
			return err
		}
		if _, err := ParseDate("period.to", p.To); err != nil {
			return err
		}
		if p.To < p.From {
			return score.Invalid("period.to", "must not be before period.from (%s)", p.From)
		}
	case PeriodYear:
		if p.Year < 1900 || p.Year > 2999 {
			return score.Invalid("period.year", "must be a year from 1900 to 2999")
		}
	case PeriodRolling:
		if p.Months < 1 || p.Months > MaxMonths {
			return score.Invalid("period.months", "must be 1 to %d months", MaxMonths)
		}
		if _, err := ParseDate("period.end", p.End); err != nil {
			return err
		}
	default:
		return score.Invalid("period.kind", "must be range, year or rolling")
	}
	return nil
}

// Check refuses rules that are not a season's, naming the first field
// broken. known reports whether a game is one of stichbuch's.
func (r Rules) Check(known func(game string) bool) error {
	if err := r.Period.Check(); err != nil {
		return err
	}
	if len(r.Games) == 0 {
		return score.Invalid("games", "must name at least one game")
	}
	seen := map[string]bool{}
	for i, g := range r.Games {
		field := fmt.Sprintf("games[%d]", i)
		if !known(g) {
			return score.Invalid(field, "must be a game of stichbuch")
		}
		if seen[g] {
			return score.Invalid(field, "must not repeat a game")
		}
		seen[g] = true
	}
	if err := r.Unit.check(); err != nil {
		return err
	}
	if err := r.Aggregate.check(); err != nil {
		return err
	}
	e := r.Eligibility
	if e.MinUnits < 0 || e.MinUnits > MaxUnits {
		return score.Invalid("eligibility.min_units", "must be 0 to %d", MaxUnits)
	}
	if e.MinSharePercent < 0 || e.MinSharePercent > 100 {
		return score.Invalid("eligibility.min_share_percent", "must be 0 to 100")
	}
	if e.MaxMissed != nil && (*e.MaxMissed < 0 || *e.MaxMissed > MaxUnits) {
		return score.Invalid("eligibility.max_missed", "must be 0 to %d", MaxUnits)
	}
	if err := r.Missed.check(); err != nil {
		return err
	}
	seenTB := map[TieBreak]bool{}
	for i, tb := range r.TieBreaks {
		field := fmt.Sprintf("tie_breaks[%d]", i)
		if tb != ByEveningsWon && tb != ByTotalPoints && tb != ByUnits {
			return score.Invalid(field, "must be evenings_won, total_points or units")
		}
		if seenTB[tb] {
			return score.Invalid(field, "must not repeat a tie-break")
		}
		seenTB[tb] = true
	}
	if r.WinnerPerHands < 0 || r.WinnerPerHands > MaxPerHands {
		return score.Invalid("winner_per_hands", "must be 0 (24) to %d", MaxPerHands)
	}
	return nil
}

func (u Unit) check() error {
	switch u.Kind {
	case UnitPoints:
	case UnitPerHands:
		if u.PerHands < 0 || u.PerHands > MaxPerHands {
			return score.Invalid("unit.per_hands", "must be 0 (24) to %d hands", MaxPerHands)
		}
	case UnitPlacement:
		if len(u.Placement) == 0 || len(u.Placement) > MaxPlaces {
			return score.Invalid("unit.placement", "must list 1 to %d places' points", MaxPlaces)
		}
		for i, p := range u.Placement {
			if p < -MaxPlacePts || p > MaxPlacePts {
				return score.Invalid(fmt.Sprintf("unit.placement[%d]", i), "must be -%d to %d", MaxPlacePts, MaxPlacePts)
			}
		}
	default:
		return score.Invalid("unit.kind", "must be points, per_hands or placement")
	}
	if u.Kind != UnitPlacement && len(u.Placement) > 0 {
		return score.Invalid("unit.placement", "is only for the unit placement")
	}
	return nil
}

func (a Aggregate) check() error {
	if a.Kind != Sum && a.Kind != Average {
		return score.Invalid("aggregate.kind", "must be sum or average")
	}
	if a.Best < 0 || a.Best > MaxUnits {
		return score.Invalid("aggregate.best", "must be 0 (all) to %d", MaxUnits)
	}
	if len(a.DropAt) > MaxThresholds {
		return score.Invalid("aggregate.drop_at", "must list at most %d thresholds", MaxThresholds)
	}
	for i, t := range a.DropAt {
		field := fmt.Sprintf("aggregate.drop_at[%d]", i)
		if t < 1 || t > MaxUnits {
			return score.Invalid(field, "must be 1 to %d evenings", MaxUnits)
		}
		if i > 0 && t <= a.DropAt[i-1] {
			return score.Invalid(field, "must be greater than the threshold before it (%d)", a.DropAt[i-1])
		}
	}
	return nil
}

func (m Missed) check() error {
	switch m.Kind {
	case MissedIgnored, MissedZero:
	case MissedScore:
		if _, err := parseScore(m.Score); err != nil {
			return err
		}
	case MissedPenalty:
		if m.Free < 0 || m.Free > MaxUnits {
			return score.Invalid("missed.free", "must be 0 to %d", MaxUnits)
		}
		if m.Factor < 0 || m.Factor > MaxFactor {
			return score.Invalid("missed.factor", "must be 0 (1) to %d", MaxFactor)
		}
	default:
		return score.Invalid("missed.kind", "must be ignored, zero, score or penalty")
	}
	if m.Kind != MissedScore && m.Score != "" {
		return score.Invalid("missed.score", "is only for the kind score")
	}
	if m.Kind != MissedPenalty && (m.Free != 0 || m.Factor != 0) {
		return score.Invalid("missed.free", "is only for the kind penalty")
	}
	return nil
}

// parseScore reads a stated score "n" or "n/d" within ±MaxScore.
func parseScore(s string) (*big.Rat, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok || strings.ContainsAny(s, ".eE ") || len(s) > 32 {
		return nil, score.Invalid("missed.score", "must be an exact number like -5 or 1/2")
	}
	lim := big.NewRat(MaxScore, 1)
	if r.Cmp(lim) > 0 || r.Cmp(new(big.Rat).Neg(lim)) < 0 {
		return nil, score.Invalid("missed.score", "must be within ±%d", MaxScore)
	}
	return r, nil
}

func (u Unit) per() int64 {
	if u.PerHands == 0 {
		return DefaultPer
	}
	return int64(u.PerHands)
}

func (r Rules) winnerPer() int64 {
	if r.WinnerPerHands == 0 {
		return DefaultPer
	}
	return int64(r.WinnerPerHands)
}

func (m Missed) factor() int64 {
	if m.Factor == 0 {
		return 1
	}
	return int64(m.Factor)
}
