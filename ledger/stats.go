package ledger

import (
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Historical statistics. Every figure is read from side tables filled when
// a hand is written (and when a settlement is stored), never from the
// hands' JSON. The definitions:
//
//   - A hand is played by a player who has points in it and is not sitting
//     out (a Doppelkopf table of five or more: the players outside the
//     hand's parties). Sessions are the sessions with at least one hand
//     played; an evening is one session (one evening at one table).
//   - A hand is won by the players in its result's Winners, as each game
//     defines them (Doppelkopf and Saukopf: the winning party; Schwarze Sau:
//     everyone but the loser; Klaberjass: the winning side; Schwarze Dame: a
//     positive score). It is lost by the other players of a hand that has
//     winners. A hand without winners (a redeal, a tied Wilde Sauerei, a
//     Doppelkopf hand where neither party reached its goal) is played but
//     neither won nor lost; a redeal has no parties, so at a Doppelkopf
//     table of five or more it counts as played for those sitting out too.
//   - Counters are the engines' Result.Stats by key (each engine documents
//     its keys under "Statistics keys"), summed per game; a player counted
//     in a hand he did not play (the payer of a Schwarze Sau payout, a
//     Schwarze Dame match winner) has the count without a hand.
//   - The win rate is hands won / hands played, given exactly as the two
//     counts and as WinRatePermille, rounded to the nearest per mille
//     (halves up); rankings compare the exact fractions.
//   - Streaks run over a player's played hands in time order (session date,
//     then session, then hand number); a hand nobody won neither extends
//     nor breaks a streak, a hand sat out is not a hand of the player.
//   - Money is each session's latest settlement version: net cents per
//     player (points in cents plus payouts). Money won is the sum of the
//     sessions closed with a plus, money lost the sum of the minus
//     sessions (a positive number).
//   - Points are exact; points per hand is points / hands played, exact.

// StatsFilter narrows statistics to a period, a game and a table; every
// field is optional ("" or 0 for all).
type StatsFilter struct {
	From    string `json:"from,omitempty"` // first date, YYYY-MM-DD, inclusive
	To      string `json:"to,omitempty"`   // last date, inclusive
	Game    string `json:"game,omitempty"`
	TableID int64  `json:"table_id,omitempty"`
}

// Check validates the filter's dates and game.
func (f StatsFilter) Check() error {
	if f.From != "" {
		if _, err := ParseDate("from", f.From); err != nil {
			return err
		}
	}
	if f.To != "" {
		if _, err := ParseDate("to", f.To); err != nil {
			return err
		}
	}
	if f.From != "" && f.To != "" && f.From > f.To {
		return Invalid("to", "must not be before from (%s)", f.From)
	}
	if f.Game != "" {
		if _, err := Engine("game", f.Game); err != nil {
			return err
		}
	}
	if f.TableID < 0 {
		return Invalid("table_id", "must be a positive table id")
	}
	return nil
}

// PlayerStats is one player's figures over the filter.
type PlayerStats struct {
	Player          int64        `json:"player_id"`
	Name            string       `json:"name"`
	Filter          StatsFilter  `json:"filter"`
	Sessions        int          `json:"sessions"`
	Hands           int          `json:"hands"`
	HandsWon        int          `json:"hands_won"`
	HandsLost       int          `json:"hands_lost"`
	HandsSatOut     int          `json:"hands_sat_out"`
	WinRatePermille int          `json:"win_rate_permille"`
	Points          score.Points `json:"points"`
	PointsPerHand   score.Points `json:"points_per_hand"`
	Money           MoneyStats   `json:"money"`
	BestEvening     *Evening     `json:"best_evening"`
	WorstEvening    *Evening     `json:"worst_evening"`
	// LongestWinningStreak and LongestLosingStreak are in hands.
	LongestWinningStreak int `json:"longest_winning_streak"`
	LongestLosingStreak  int `json:"longest_losing_streak"`
	// Games breaks the figures down by game, with each game's counters.
	Games []GameStats `json:"games"`
}

// MoneyStats is a player's money over the filter, in cents.
type MoneyStats struct {
	Sessions  int   `json:"sessions"` // settled sessions
	WonCents  int64 `json:"won_cents"`
	LostCents int64 `json:"lost_cents"`
	NetCents  int64 `json:"net_cents"`
}

// Evening is one session of a player: the best or worst by points.
type Evening struct {
	SessionID int64        `json:"session_id"`
	TableID   int64        `json:"table_id"`
	Game      string       `json:"game"`
	Date      string       `json:"date"`
	Hands     int          `json:"hands"`
	HandsWon  int          `json:"hands_won"`
	Points    score.Points `json:"points"`
	// NetCents is the session's money, nil until it is settled.
	NetCents *int64 `json:"net_cents"`
}

// GameStats is a player's figures in one game, with the game's counters
// (the keys its engine documents under "Statistics keys").
type GameStats struct {
	Game            string           `json:"game"`
	Sessions        int              `json:"sessions"`
	Hands           int              `json:"hands"`
	HandsWon        int              `json:"hands_won"`
	WinRatePermille int              `json:"win_rate_permille"`
	Points          score.Points     `json:"points"`
	Counters        map[string]int64 `json:"counters"`
}

// Partner is how a player fared with and against another player.
type Partner struct {
	Player int64  `json:"player_id"`
	Name   string `json:"name"`
	// Hands both played at the same table.
	Hands int `json:"hands"`
	// PartnerHands in the same party: PartnerWon of them won together,
	// PartnerLost lost together (the rest nobody won).
	PartnerHands           int `json:"partner_hands"`
	PartnerWon             int `json:"partner_won"`
	PartnerLost            int `json:"partner_lost"`
	PartnerWinRatePermille int `json:"partner_win_rate_permille"`
	// AgainstHands in different parties (every hand of a game without
	// parties); WonAgainst: the player won and the other did not;
	// LostAgainst: the other won and the player did not.
	AgainstHands int `json:"against_hands"`
	WonAgainst   int `json:"won_against"`
	LostAgainst  int `json:"lost_against"`
}

// Partners is a player's partner table.
type Partners struct {
	Player   int64       `json:"player_id"`
	Name     string      `json:"name"`
	Filter   StatsFilter `json:"filter"`
	Partners []Partner   `json:"partners"`
}

// HeadToHead compares two players over the hands both played.
type HeadToHead struct {
	Player      int64        `json:"player_id"`
	Name        string       `json:"name"`
	Other       int64        `json:"other_player_id"`
	OtherName   string       `json:"other_name"`
	Filter      StatsFilter  `json:"filter"`
	Sessions    int          `json:"sessions"`
	Hands       int          `json:"hands"`
	Partner     PairRecord   `json:"as_partners"`
	Against     PairRecord   `json:"as_opponents"`
	Points      score.Points `json:"points"`       // the player's, in these hands
	OtherPoints score.Points `json:"other_points"` // the other's, in these hands
}

// PairRecord is a pair's hands in one relation: as partners, Won is won
// together and Lost lost together; as opponents, Won is won by the player
// (and not the other) and Lost won by the other (and not the player).
type PairRecord struct {
	Hands int `json:"hands"`
	Won   int `json:"won"`
	Lost  int `json:"lost"`
}

// LeaderboardOrder is what a leaderboard ranks by.
type LeaderboardOrder string

// Leaderboard orders.
const (
	ByPoints        LeaderboardOrder = "points"
	ByPointsPerHand LeaderboardOrder = "points_per_hand"
	ByMoney         LeaderboardOrder = "money"
	ByWinRate       LeaderboardOrder = "win_rate"
)

// LeaderboardOrders lists the orders of a leaderboard.
var LeaderboardOrders = []LeaderboardOrder{ByPoints, ByPointsPerHand, ByMoney, ByWinRate}

// Validate refuses an unknown order, naming the field "by".
func (o LeaderboardOrder) Validate() error {
	if slices.Contains(LeaderboardOrders, o) {
		return nil
	}
	names := make([]string, len(LeaderboardOrders))
	for i, x := range LeaderboardOrders {
		names[i] = string(x)
	}
	return Invalid("by", "must be one of %s, got %q", strings.Join(names, ", "), o)
}

// LeaderboardQuery asks for a leaderboard: the players over Filter ranked
// By one order, those with fewer than MinHands hands left out, at most
// Limit of them. Points of different games are added together only when
// Mix says so. What is left out takes the defaults (resolve).
type LeaderboardQuery struct {
	By       LeaderboardOrder // "": ByPoints
	Filter   StatsFilter
	MinHands *int // nil: DefaultRatioMinHands for the ratio orders, else 0
	Limit    int  // 0: DefaultLeaderboardLimit
	Mix      bool
}

// The leaderboard's defaults and bounds.
const (
	// DefaultRatioMinHands is min_hands of the ratio orders (points per
	// hand, win rate), which need some hands to mean anything.
	DefaultRatioMinHands = 20
	// DefaultLeaderboardLimit is how many entries a leaderboard lists
	// unless asked.
	DefaultLeaderboardLimit = 50
)

// resolve fills in the defaults and refuses an unknown order, a negative
// min_hands or limit and a filter that is not valid: the one place a
// leaderboard's defaults and checks are kept.
func (q LeaderboardQuery) resolve() (LeaderboardQuery, error) {
	if q.By == "" {
		q.By = ByPoints
	}
	if q.MinHands == nil {
		n := 0
		if q.By == ByPointsPerHand || q.By == ByWinRate {
			n = DefaultRatioMinHands
		}
		q.MinHands = &n
	}
	if q.Limit == 0 {
		q.Limit = DefaultLeaderboardLimit
	}
	if err := q.By.Validate(); err != nil {
		return q, err
	}
	if *q.MinHands < 0 {
		return q, Invalid("min_hands", "must be 0 or more, got %d", *q.MinHands)
	}
	if q.Limit < 1 {
		return q, Invalid("limit", "must be 1 or more, got %d", q.Limit)
	}
	return q, q.Filter.Check()
}

// oneGame refuses a leaderboard that would add up points of different
// games without being asked to mix them: points of one game say nothing
// about points of another. games are the settled sessions' games, live
// the live sessions' rollup.
func (q LeaderboardQuery) oneGame(games []string, live Rollup) error {
	if q.Mix || q.Filter.Game != "" {
		return nil
	}
	for _, r := range live.Sessions {
		games = append(games, r.Game)
	}
	slices.Sort(games)
	games = slices.Compact(games)
	if len(games) <= 1 {
		return nil
	}
	return Invalid("game", "the period holds %d games (%s) whose points do not add up: pass game to rank one of them, or mix=true to add them together",
		len(games), strings.Join(games, ", "))
}

// Leaderboard ranks a club's players over the filter.
type Leaderboard struct {
	By       LeaderboardOrder   `json:"by"`
	Filter   StatsFilter        `json:"filter"`
	MinHands int                `json:"min_hands"`
	Mix      bool               `json:"mix"` // the points of different games added together
	Entries  []LeaderboardEntry `json:"entries"`
	// ImportedHands are the hands of the entries from the old lists
	// (imported evenings: points and hands, no facts).
	ImportedHands int `json:"imported_hands"`
}

// LeaderboardEntry is one player's line of a leaderboard. Rank is shared by
// equal values (1, 2, 2, 4).
type LeaderboardEntry struct {
	Rank            int          `json:"rank"`
	Player          int64        `json:"player_id"`
	Name            string       `json:"name"`
	Sessions        int          `json:"sessions"`
	Hands           int          `json:"hands"`
	HandsWon        int          `json:"hands_won"`
	WinRatePermille int          `json:"win_rate_permille"`
	Points          score.Points `json:"points"`
	PointsPerHand   score.Points `json:"points_per_hand"`
	NetCents        int64        `json:"net_cents"`
	// ImportedHands of Hands are from the old lists: they count in the
	// points, the points per hand and the sessions, not in the win rate,
	// which is over the hands with facts.
	ImportedHands int `json:"imported_hands"`
}

// Series is one player's points by session date, for charts.
type Series struct {
	Player int64         `json:"player_id"`
	Name   string        `json:"name"`
	Points []SeriesPoint `json:"points"`
}

// SeriesPoint is one date of a series: the date's points and hands (all of
// the player's sessions that date) and the running total since the start of
// the filter.
type SeriesPoint struct {
	Date       string       `json:"date"`
	Hands      int          `json:"hands"`
	Points     score.Points `json:"points"`
	Cumulative score.Points `json:"cumulative"`
	// ImportedHands of Hands are from imported evenings (the old lists).
	ImportedHands int `json:"imported_hands"`
}

// PermilleOf returns won/played in per mille, rounded half up; 0 without
// hands.
func PermilleOf(won, played int) int {
	if played <= 0 {
		return 0
	}
	return (2000*won + played) / (2 * played)
}

// PerHand returns points / hands exactly; 0 without hands.
func PerHand(points score.Points, hands int) score.Points {
	if hands <= 0 {
		return score.Points{}
	}
	return points.DivInt(int64(hands))
}

// StreakSummary summarizes a run of decided hands (won or lost) for the
// longest streaks: the wins and losses it starts with and ends with, and
// its longest. Summaries of consecutive runs combine with Then.
type StreakSummary struct {
	Decided   int
	WinFirst  int
	LossFirst int
	WinLast   int
	LossLast  int
	WinBest   int
	LossBest  int
}

// Then returns the summary of s followed by t.
func (s StreakSummary) Then(t StreakSummary) StreakSummary {
	if s.Decided == 0 {
		return t
	}
	if t.Decided == 0 {
		return s
	}
	out := StreakSummary{
		Decided:   s.Decided + t.Decided,
		WinFirst:  s.WinFirst,
		LossFirst: s.LossFirst,
		WinLast:   t.WinLast,
		LossLast:  t.LossLast,
		WinBest:   max(s.WinBest, t.WinBest, s.WinLast+t.WinFirst),
		LossBest:  max(s.LossBest, t.LossBest, s.LossLast+t.LossFirst),
	}
	if s.WinFirst == s.Decided {
		out.WinFirst = s.Decided + t.WinFirst
	}
	if s.LossFirst == s.Decided {
		out.LossFirst = s.Decided + t.LossFirst
	}
	if t.WinLast == t.Decided {
		out.WinLast = t.Decided + s.WinLast
	}
	if t.LossLast == t.Decided {
		out.LossLast = t.Decided + s.LossLast
	}
	return out
}

// StreakOf summarizes outcomes in order (1 won, -1 lost, 0 neither, which
// is skipped).
func StreakOf(outcomes []int) StreakSummary {
	var s StreakSummary
	for _, o := range outcomes {
		switch o {
		case 1:
			s = s.Then(StreakSummary{Decided: 1, WinFirst: 1, WinLast: 1, WinBest: 1})
		case -1:
			s = s.Then(StreakSummary{Decided: 1, LossFirst: 1, LossLast: 1, LossBest: 1})
		}
	}
	return s
}

// SortLeaderboard orders entries by the leaderboard's order (exactly),
// then by name, and ranks them.
func SortLeaderboard(by LeaderboardOrder, entries []LeaderboardEntry) {
	value := func(x, y LeaderboardEntry) int {
		switch by {
		case ByPointsPerHand:
			return y.PointsPerHand.Cmp(x.PointsPerHand)
		case ByMoney:
			return cmpInt64(y.NetCents, x.NetCents)
		case ByWinRate:
			// y.won/y.hands vs x.won/x.hands by cross-multiplication, over
			// the hands with facts (not the imported ones).
			return cmpInt64(int64(y.HandsWon)*int64(x.Hands-x.ImportedHands), int64(x.HandsWon)*int64(y.Hands-y.ImportedHands))
		}
		return y.Points.Cmp(x.Points)
	}
	slices.SortStableFunc(entries, func(x, y LeaderboardEntry) int {
		if c := value(x, y); c != 0 {
			return c
		}
		if c := strings.Compare(x.Name, y.Name); c != 0 {
			return c
		}
		return cmpInt64(x.Player, y.Player)
	})
	for i := range entries {
		if i > 0 && value(entries[i-1], entries[i]) == 0 {
			entries[i].Rank = entries[i-1].Rank
		} else {
			entries[i].Rank = i + 1
		}
	}
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
