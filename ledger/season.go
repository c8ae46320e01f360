package ledger

import (
	"context"
	"encoding/json"
	"math/big"
	"regexp"
	"slices"
	"time"

	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/season"
)

// The club's season (Jahreswertung): its rules are data (ledger/season),
// stored per club by name and version, append-only; a season table is
// computed under one version from the evenings of its period: the
// rollups of the settled sessions, the live sessions' hands and the
// imported evenings of the old lists.

// SeasonNamePattern is a season's name: it stands in the URL.
var SeasonNamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// MaxSeasonVersions bounds a season's versions (the column's CHECK).
const MaxSeasonVersions = 10000

// SeasonRules is one version of a club's named season rules.
type SeasonRules struct {
	Name      string       `json:"name"`
	Version   int          `json:"version"`
	Rules     season.Rules `json:"rules"`
	CreatedAt time.Time    `json:"created_at"`
}

// NewSeasonRules asks for a season's rules: a new name, or the next
// version of an existing one.
type NewSeasonRules struct {
	Name  string       `json:"name"`
	Rules season.Rules `json:"rules"`
}

// Validate refuses a name that is not a season's and rules that Check
// refuses, naming the field ("rules." and the rule's field).
func (n NewSeasonRules) Validate() error {
	if !SeasonNamePattern.MatchString(n.Name) {
		return Invalid("name", "must be 1 to 40 lower-case letters, digits and dashes, beginning with a letter or digit")
	}
	known := func(g string) bool { return slices.Contains(games.Names(), g) }
	if err := n.Rules.Check(known); err != nil {
		e := AsError(err)
		return Invalid("rules."+e.Field, "%s", e.Rule)
	}
	return nil
}

// SeasonFilter is what a season table reads: the dates of its period and
// its games.
type SeasonFilter struct {
	From, To string
	Games    []string
}

// SeasonRecords are what a season table is computed from.
type SeasonRecords struct {
	StatsContext
	// Sessions are the players' rollups of the settled sessions.
	Sessions []SessionRoll
	// Imported are the imported evenings' lines.
	Imported []ImportedLine
}

// ImportedLine is one player's line of an imported evening (the old
// lists): points and hands, no facts.
type ImportedLine struct {
	Evening int64 // the imported evening's id
	Player  int64
	Game    string
	Date    string
	Hands   int
	Points  *big.Rat
}

// SeasonStore holds the clubs' season rules and reads a season's records.
type SeasonStore interface {
	// AppendSeasonRules stores the next version of the named rules (1 for
	// a new name) unless the latest version has the same rules, and
	// returns the version that holds them (created false: it existed).
	AppendSeasonRules(ctx context.Context, clubID int64, name string, rules json.RawMessage) (r SeasonRules, created bool, err error)
	// FindSeasonRules returns a version of the named rules (0: the latest).
	FindSeasonRules(ctx context.Context, clubID int64, name string, version int) (SeasonRules, error)
	// ListSeasonRules returns every season's latest version, by name.
	ListSeasonRules(ctx context.Context, clubID int64) ([]SeasonRules, error)
	// SeasonRecords reads the evenings of the period.
	SeasonRecords(ctx context.Context, clubID int64, f SeasonFilter) (SeasonRecords, error)
}

// CreateSeasonRules stores a new version of a season's rules; the same
// rules as the latest version store nothing and answer that version.
func (s *Service) CreateSeasonRules(ctx context.Context, a Actor, n NewSeasonRules) (SeasonRules, bool, error) {
	if err := n.Validate(); err != nil {
		return SeasonRules{}, false, err
	}
	raw, err := json.Marshal(n.Rules)
	if err != nil {
		return SeasonRules{}, false, wrap(err, "CreateSeasonRules: marshal")
	}
	r, created, err := s.Seasons.AppendSeasonRules(ctx, a.ClubID, n.Name, raw)
	if err != nil {
		return r, false, wrap(err, "CreateSeasonRules: AppendSeasonRules")
	}
	return r, created, nil
}

// ListSeasonRules returns every season's latest rules.
func (s *Service) ListSeasonRules(ctx context.Context, a Actor) ([]SeasonRules, error) {
	out, err := s.Seasons.ListSeasonRules(ctx, a.ClubID)
	if err != nil {
		return nil, wrap(err, "ListSeasonRules")
	}
	return out, nil
}

// SeasonTable is a season's table under one version of its rules.
type SeasonTable struct {
	Name    string       `json:"name"`
	Version int          `json:"version"`
	Rules   season.Rules `json:"rules"`
	From    string       `json:"from"`
	To      string       `json:"to"`
	// Offered are the dates the club played (an evening offered).
	Offered []string `json:"offered"`
	// ImportedEvenings counts the offered dates with imported evenings.
	ImportedEvenings int                     `json:"imported_evenings"`
	Rows             []season.Row            `json:"rows"`
	EveningWinners   []season.EveningWinners `json:"evening_winners"`
	Quarters         []season.Quarter        `json:"quarters"`
	// Rounding states the one rounding: figures are exact here.
	Rounding string `json:"rounding"`
}

// SeasonRounding is what every season table says about rounding.
const SeasonRounding = "exact rationals; the printed table and the CSV round to two decimals, halves away from zero"

// seasonOf reads the named season's rules (version 0: the latest) and
// its records, and computes its table.
func (s *Service) seasonOf(ctx context.Context, a Actor, name string, version int) (SeasonRules, SeasonRecords, season.Table, error) {
	var sr SeasonRules
	var rec SeasonRecords
	if !SeasonNamePattern.MatchString(name) {
		return sr, rec, season.Table{}, Invalid("name", "must be a season's name")
	}
	if version < 0 || version > MaxSeasonVersions {
		return sr, rec, season.Table{}, Invalid("version", "must be 1 to %d", MaxSeasonVersions)
	}
	sr, err := s.Seasons.FindSeasonRules(ctx, a.ClubID, name, version)
	if ErrorCode(err) == ENOTFOUND {
		return sr, rec, season.Table{}, Errorf(ENOTFOUND, "no season %q (version %d)", name, version)
	}
	if err != nil {
		return sr, rec, season.Table{}, wrap(err, "season: FindSeasonRules")
	}
	from, to := sr.Rules.Period.Dates()
	rec, err = s.Seasons.SeasonRecords(ctx, a.ClubID, SeasonFilter{From: from, To: to, Games: sr.Rules.Games})
	if err != nil {
		return sr, rec, season.Table{}, wrap(err, "season: SeasonRecords")
	}
	return sr, rec, season.Compute(sr.Rules, SeasonInput(rec), rec.Names), nil
}

// SeasonTable computes the named season's table under version (0: the latest).
func (s *Service) SeasonTable(ctx context.Context, a Actor, name string, version int) (SeasonTable, error) {
	st := SeasonTable{Name: name, Rounding: SeasonRounding}
	sr, _, t, err := s.seasonOf(ctx, a, name, version)
	if err != nil {
		return st, err
	}
	st.Version, st.Rules, st.From, st.To = sr.Version, sr.Rules, t.From, t.To
	st.Offered, st.ImportedEvenings, st.Rows, st.EveningWinners, st.Quarters = t.Offered, t.ImportedEvenings, t.Rows, t.Winners, t.Quarters
	if st.Offered == nil {
		st.Offered = []string{}
	}
	return st, nil
}

// withoutNonUnits is the table with each line's evenings cut to those
// that are units (attended, or missed and counted as a score): a missed
// evening that is no unit is in the line's missed count, and listed in
// the player's line. A club of 100 members and 200 evenings would
// otherwise answer 20,000 missed evenings.
func (st SeasonTable) withoutNonUnits() SeasonTable {
	rows := make([]season.Row, len(st.Rows))
	for i, r := range st.Rows {
		r.Evenings = slices.DeleteFunc(slices.Clone(r.Evenings), func(c season.Contribution) bool {
			return c.Reason == season.NotAUnit || c.Reason == season.InPenalty
		})
		rows[i] = r
	}
	st.Rows = rows
	return st
}

// SeasonTableForAll is the season table as the table endpoint answers
// it: the lines' evenings without the missed ones that are no unit.
func (s *Service) SeasonTableForAll(ctx context.Context, a Actor, name string, version int) (SeasonTable, error) {
	st, err := s.SeasonTable(ctx, a, name, version)
	if err != nil {
		return st, err
	}
	return st.withoutNonUnits(), nil
}

// SeasonChartLeaders is how many leaders the chart follows.
const SeasonChartLeaders = 6

// SeasonCourse is the course of the season's leaders, evening by evening.
type SeasonCourse struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
	season.Course
}

// SeasonCourse computes the leaders' course through the named season.
func (s *Service) SeasonCourse(ctx context.Context, a Actor, name string, version int) (SeasonCourse, error) {
	sr, rec, t, err := s.seasonOf(ctx, a, name, version)
	if err != nil {
		return SeasonCourse{}, err
	}
	return SeasonCourse{Name: name, Version: sr.Version,
		Course: season.CourseOf(sr.Rules, SeasonInput(rec), rec.Names, t, SeasonChartLeaders)}, nil
}

// SeasonInput is the season's records as the season package takes them:
// a settled session's rollups, a live session's hands rolled up on the
// spot, an imported evening's lines.
func SeasonInput(rec SeasonRecords) []season.Record {
	var out []season.Record
	add := func(r SessionRoll) {
		out = append(out, season.Record{Player: r.Player, Session: r.Session, Table: r.Table, Game: r.Game, Date: r.Date,
			Hands: r.Hands, Points: big.NewRat(r.Points.Num(), r.Points.Den())})
	}
	for _, r := range rec.Sessions {
		add(r)
	}
	for _, r := range rec.live(0).Sessions {
		add(r)
	}
	for _, l := range rec.Imported {
		// An imported evening is one table's evening of its own.
		out = append(out, season.Record{Player: l.Player, Session: -l.Evening, Game: l.Game, Date: l.Date,
			Hands: l.Hands, Points: l.Points, Imported: true})
	}
	return out
}

// SeasonLine is a player's line of a season, with the what-if.
type SeasonLine struct {
	Name    string         `json:"name"`
	Version int            `json:"version"`
	Row     season.Row     `json:"line"`
	WhatIf  *season.WhatIf `json:"what_if,omitempty"`
}

// SeasonPlayer returns a player's line; remaining > 0 adds what he needs
// on that many remaining evenings to pass the leader.
func (s *Service) SeasonPlayer(ctx context.Context, a Actor, name string, version int, player int64, remaining int) (SeasonLine, error) {
	if remaining < 0 || remaining > season.MaxUnits {
		return SeasonLine{}, Invalid("remaining", "must be 0 to %d evenings", season.MaxUnits)
	}
	st, err := s.SeasonTable(ctx, a, name, version)
	if err != nil {
		return SeasonLine{}, err
	}
	i := slices.IndexFunc(st.Rows, func(r season.Row) bool { return r.Player == player })
	if i < 0 {
		return SeasonLine{}, Errorf(ENOTFOUND, "player %d has no evening in season %q", player, name)
	}
	line := SeasonLine{Name: st.Name, Version: st.Version, Row: st.Rows[i]}
	if remaining > 0 {
		w := season.WhatIfOf(st.Rules, st.Rows, player, remaining)
		line.WhatIf = &w
	}
	return line, nil
}
