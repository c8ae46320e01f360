package ledger

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// The statistics' read side: each figure is assembled here from one read
// of the StatsStore: the rollups of the settled sessions in the filter
// and the hands of the live ones, rolled up on the spot by the same
// RollUpHands a settled session's were.

// StatsContext is what every figure's read brings besides its records:
// whether the filter's table is the club's, the club's players' names
// and the live sessions' hands.
type StatsContext struct {
	// TableFound is whether the filter's table (if any) is the club's.
	TableFound bool
	// Names are the club's players' names by id.
	Names Names
	// Guests are the club's players marked as guests (the leaderboard
	// leaves them out).
	Guests map[int64]bool
	// Live are the hands of the live sessions in the filter (open, or
	// closed without a settlement), as their current revisions, in
	// session and number order, with the sessions' dates.
	Live      []Hand
	LiveDates map[int64]string
}

// check refuses a filter whose table is not the club's, and a player of
// ids that is not.
func (c StatsContext) check(f StatsFilter, players ...int64) error {
	if f.TableID != 0 && !c.TableFound {
		return Errorf(ENOTFOUND, "table %d not found", f.TableID)
	}
	for _, id := range players {
		if _, ok := c.Names[id]; !ok {
			return Errorf(ENOTFOUND, "player %d not found", id)
		}
	}
	return nil
}

// live rolls up the live hands (only those of sessions where player has
// a row, when player is not 0).
func (c StatsContext) live(player int64) Rollup {
	hands := c.Live
	if player != 0 {
		in := map[int64]bool{}
		for _, h := range hands {
			if !h.Void && slices.ContainsFunc(StatsOf(h.Result), func(hs HandStat) bool { return hs.Player == player }) {
				in[h.SessionID] = true
			}
		}
		hands = slices.DeleteFunc(slices.Clone(hands), func(h Hand) bool { return !in[h.SessionID] })
	}
	return RollUpHands(hands, c.LiveDates)
}

// PlayerRecords are what a player's figures are assembled from.
type PlayerRecords struct {
	StatsContext
	// Sessions are his rollups of settled sessions (Streak.Decided unset).
	Sessions []SessionRoll
	// Money is his net cents per settled session.
	Money map[int64]int64
	// Counters are his counts per game and key.
	Counters []GameCounter
}

// PairRecords are what a player's partner table and head to head are
// assembled from: his pair rollups of settled sessions.
type PairRecords struct {
	StatsContext
	Pairs []PairRoll
}

// LeaderboardRecords are what a leaderboard is assembled from: every
// player's sums over the settled sessions, his money, and the games of
// the settled sessions with hands.
type LeaderboardRecords struct {
	StatsContext
	Sums  []PointSum
	Money map[int64]int64
	Games []string
	// Imported are each player's sums of the imported evenings (none
	// with a table in the filter: they are at no table of the club).
	Imported []PointSum
}

// SeriesRecords are what points series are assembled from: each player's
// sums per date over the settled sessions.
type SeriesRecords struct {
	StatsContext
	Sums []PointSum
	// Imported are the imported evenings' sums per player and date (none
	// with a table in the filter).
	Imported []PointSum
}

// GameCounter is a count of one key in one game.
type GameCounter struct {
	Game, Key string
	Count     int64
}

// PointSum is a player's points (of one denominator), hands, hands won
// and sessions played, of a period or of one date.
type PointSum struct {
	Player               int64
	Date                 string // only in a series
	Points               score.Points
	Hands, Won, Sessions int
	// Imported of Hands are from imported evenings (only in a series).
	Imported int
}

// PlayerStats returns a player's figures over the filter.
func (s *Service) PlayerStats(ctx context.Context, a Actor, playerID int64, f StatsFilter) (PlayerStats, error) {
	ps := PlayerStats{Player: playerID, Filter: f, Points: score.Int(0), PointsPerHand: score.Int(0), Games: []GameStats{}}
	if err := f.Check(); err != nil {
		return ps, err
	}
	rec, err := s.Stats.PlayerRecords(ctx, a.ClubID, playerID, f)
	if err != nil {
		return ps, wrap(err, "reading player %d's statistics", playerID)
	}
	if err := rec.check(f, playerID); err != nil {
		return ps, err
	}
	ps.Name = rec.Names[playerID]
	sessions, counters := rec.Sessions, rec.Counters
	live := rec.live(playerID)
	for _, r := range live.Sessions {
		if r.Player == playerID {
			sessions = append(sessions, r)
		}
	}
	for _, c := range live.Counters {
		if c.Player == playerID {
			counters = append(counters, GameCounter{Game: c.Game, Key: c.Key, Count: c.Count})
		}
	}
	slices.SortStableFunc(sessions, func(x, y SessionRoll) int {
		return cmp.Or(strings.Compare(x.Date, y.Date), cmp.Compare(x.Session, y.Session))
	})
	ps.addSessions(sessions, rec.Money)
	ps.addCounters(counters)
	for _, net := range rec.Money {
		ps.Money.Sessions++
		ps.Money.NetCents += net
		if net > 0 {
			ps.Money.WonCents += net
		} else {
			ps.Money.LostCents -= net
		}
	}
	return ps, nil
}

// addSessions adds up a player's sessions in time order.
func (ps *PlayerStats) addSessions(sessions []SessionRoll, money map[int64]int64) {
	var streak StreakSummary
	for _, r := range sessions {
		r.Streak.Decided = r.Won + r.Lost
		ps.Hands += r.Hands
		ps.HandsWon += r.Won
		ps.HandsLost += r.Lost
		ps.HandsSatOut += r.SatOut
		ps.Points = ps.Points.Add(r.Points)
		streak = streak.Then(r.Streak)
		g := ps.game(r.Game)
		g.Hands += r.Hands
		g.HandsWon += r.Won
		g.Points = g.Points.Add(r.Points)
		if r.Hands == 0 {
			continue
		}
		ps.Sessions++
		g.Sessions++
		ev := Evening{SessionID: r.Session, TableID: r.Table, Game: r.Game, Date: r.Date, Hands: r.Hands, HandsWon: r.Won, Points: r.Points}
		if net, ok := money[r.Session]; ok {
			ev.NetCents = &net
		}
		if ps.BestEvening == nil || r.Points.Cmp(ps.BestEvening.Points) > 0 {
			best := ev
			ps.BestEvening = &best
		}
		if ps.WorstEvening == nil || r.Points.Cmp(ps.WorstEvening.Points) < 0 {
			worst := ev
			ps.WorstEvening = &worst
		}
	}
	for i := range ps.Games {
		g := &ps.Games[i]
		g.WinRatePermille = PermilleOf(g.HandsWon, g.Hands)
	}
	ps.WinRatePermille = PermilleOf(ps.HandsWon, ps.Hands)
	ps.PointsPerHand = PerHand(ps.Points, ps.Hands)
	ps.LongestWinningStreak, ps.LongestLosingStreak = streak.WinBest, streak.LossBest
}

// addCounters adds the counters to their games.
func (ps *PlayerStats) addCounters(counters []GameCounter) {
	for _, c := range counters {
		ps.game(c.Game).Counters[c.Key] += c.Count
	}
}

// game returns the player's figures of a game, adding them in order.
func (ps *PlayerStats) game(name string) *GameStats {
	i, found := slices.BinarySearchFunc(ps.Games, name, func(g GameStats, name string) int { return strings.Compare(g.Game, name) })
	if !found {
		ps.Games = slices.Insert(ps.Games, i, GameStats{Game: name, Points: score.Int(0), Counters: map[string]int64{}})
	}
	return &ps.Games[i]
}

// pairs reads player's pair rollups (with other, when not 0) over the
// filter, the live sessions' included; a filter's table that is not the
// club's is refused, the players are the caller's to check.
func (s *Service) pairs(ctx context.Context, clubID, player, other int64, f StatsFilter) ([]PairRoll, StatsContext, error) {
	if err := f.Check(); err != nil {
		return nil, StatsContext{}, err
	}
	rec, err := s.Stats.PairRecords(ctx, clubID, player, other, f)
	if err != nil {
		return nil, StatsContext{}, wrap(err, "reading player %d's pairs", player)
	}
	if err := rec.check(f); err != nil {
		return nil, StatsContext{}, err
	}
	pairs := rec.Pairs
	for _, p := range rec.live(player).Pairs {
		if p.Player == player && (other == 0 || p.Other == other) {
			pairs = append(pairs, p)
		}
	}
	return pairs, rec.StatsContext, nil
}

// PartnerStats returns a player's partner table: every player he played a
// hand with, most hands as partners first.
func (s *Service) PartnerStats(ctx context.Context, a Actor, playerID int64, f StatsFilter) (Partners, error) {
	out := Partners{Player: playerID, Filter: f, Partners: []Partner{}}
	pairs, sc, err := s.pairs(ctx, a.ClubID, playerID, 0, f)
	if err == nil {
		err = sc.check(StatsFilter{}, playerID)
	}
	if err != nil {
		return out, err
	}
	names := sc.Names
	out.Name = names[playerID]
	byOther := map[int64]*Partner{}
	for _, p := range pairs {
		x := byOther[p.Other]
		if x == nil {
			x = &Partner{Player: p.Other}
			byOther[p.Other] = x
		}
		x.Hands += p.Hands
		x.PartnerHands += p.Partner
		x.PartnerWon += p.PartnerWon
		x.PartnerLost += p.PartnerLost
		x.AgainstHands += p.Against
		x.WonAgainst += p.WonAgainst
		x.LostAgainst += p.LostAgainst
	}
	for _, x := range byOther {
		x.Name = names[x.Player]
		x.PartnerWinRatePermille = PermilleOf(x.PartnerWon, x.PartnerHands)
		out.Partners = append(out.Partners, *x)
	}
	slices.SortFunc(out.Partners, func(x, y Partner) int {
		return cmp.Or(cmp.Compare(y.PartnerHands, x.PartnerHands), cmp.Compare(y.Hands, x.Hands),
			strings.Compare(x.Name, y.Name), cmp.Compare(x.Player, y.Player))
	})
	return out, nil
}

// HeadToHead compares two players over the hands both played.
func (s *Service) HeadToHead(ctx context.Context, a Actor, playerID, otherID int64, f StatsFilter) (HeadToHead, error) {
	h := HeadToHead{Player: playerID, Other: otherID, Filter: f, Points: score.Int(0), OtherPoints: score.Int(0)}
	pairs, sc, err := s.pairs(ctx, a.ClubID, playerID, otherID, f)
	if err != nil {
		return h, err
	}
	if playerID == otherID {
		return h, Invalid("otherID", "must be another player than %d", playerID)
	}
	if err := sc.check(StatsFilter{}, playerID, otherID); err != nil {
		return h, err
	}
	h.Name, h.OtherName = sc.Names[playerID], sc.Names[otherID]
	for _, p := range pairs {
		h.Sessions++
		h.Hands += p.Hands
		h.Partner.Hands += p.Partner
		h.Partner.Won += p.PartnerWon
		h.Partner.Lost += p.PartnerLost
		h.Against.Hands += p.Against
		h.Against.Won += p.WonAgainst
		h.Against.Lost += p.LostAgainst
		h.Points = h.Points.Add(p.Points)
		h.OtherPoints = h.OtherPoints.Add(p.OtherPoints)
	}
	return h, nil
}

// Leaderboard ranks the club's players over the query's filter by one
// order, in one game: a filter without a game whose period holds more
// than one game is refused naming game, unless the query mixes them.
func (s *Service) Leaderboard(ctx context.Context, a Actor, q LeaderboardQuery) (Leaderboard, error) {
	q, err := q.resolve()
	lb := Leaderboard{By: q.By, Filter: q.Filter, MinHands: *q.MinHands, Mix: q.Mix, Entries: []LeaderboardEntry{}}
	if err != nil {
		return lb, err
	}
	rec, err := s.Stats.LeaderboardRecords(ctx, a.ClubID, q.Filter)
	if err != nil {
		return lb, wrap(err, "reading the leaderboard's records")
	}
	if err := rec.check(q.Filter); err != nil {
		return lb, err
	}
	live := rec.live(0)
	if err := q.oneGame(rec.Games, live); err != nil {
		return lb, err
	}
	entries := map[int64]*LeaderboardEntry{}
	entry := func(id int64) *LeaderboardEntry {
		e := entries[id]
		if e == nil {
			e = &LeaderboardEntry{Player: id, Points: score.Int(0), PointsPerHand: score.Int(0)}
			entries[id] = e
		}
		return e
	}
	for _, sum := range rec.Sums {
		e := entry(sum.Player)
		e.Points, e.Hands, e.HandsWon, e.Sessions = e.Points.Add(sum.Points), e.Hands+sum.Hands, e.HandsWon+sum.Won, e.Sessions+sum.Sessions
	}
	for id, net := range rec.Money {
		entry(id).NetCents = net
	}
	for _, r := range live.Sessions {
		e := entry(r.Player)
		e.Points, e.Hands, e.HandsWon = e.Points.Add(r.Points), e.Hands+r.Hands, e.HandsWon+r.Won
		if r.Hands > 0 {
			e.Sessions++
		}
	}
	for _, sum := range rec.Imported {
		e := entry(sum.Player)
		e.Points, e.Hands, e.Sessions, e.ImportedHands = e.Points.Add(sum.Points), e.Hands+sum.Hands, e.Sessions+sum.Sessions, e.ImportedHands+sum.Hands
	}
	for _, e := range entries {
		if e.Hands < *q.MinHands || rec.Guests[e.Player] {
			continue // a guest is not ranked among the club's players
		}
		e.Name = rec.Names[e.Player]
		e.WinRatePermille = PermilleOf(e.HandsWon, e.Hands-e.ImportedHands)
		lb.ImportedHands += e.ImportedHands
		e.PointsPerHand = PerHand(e.Points, e.Hands)
		lb.Entries = append(lb.Entries, *e)
	}
	SortLeaderboard(q.By, lb.Entries)
	if len(lb.Entries) > q.Limit {
		lb.Entries = lb.Entries[:q.Limit]
	}
	return lb, nil
}

// PointsSeries returns each player's points by session date with the
// running total, for the given players (all the club's players with hands
// in the filter when none are given).
func (s *Service) PointsSeries(ctx context.Context, a Actor, players []int64, f StatsFilter) ([]Series, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	rec, err := s.Stats.SeriesRecords(ctx, a.ClubID, players, f)
	if err != nil {
		return nil, wrap(err, "reading the series' records")
	}
	if err := rec.check(f, players...); err != nil {
		return nil, err
	}
	days := map[int64]map[string]*PointSum{}
	for _, id := range players {
		days[id] = map[string]*PointSum{}
	}
	add := func(sum PointSum) {
		if len(players) > 0 && !slices.Contains(players, sum.Player) {
			return
		}
		if days[sum.Player] == nil {
			days[sum.Player] = map[string]*PointSum{}
		}
		d := days[sum.Player][sum.Date]
		if d == nil {
			d = &PointSum{}
			days[sum.Player][sum.Date] = d
		}
		d.Points, d.Hands, d.Imported = d.Points.Add(sum.Points), d.Hands+sum.Hands, d.Imported+sum.Imported
	}
	for _, sum := range rec.Sums {
		add(sum)
	}
	for _, r := range rec.live(0).Sessions {
		add(PointSum{Player: r.Player, Date: r.Date, Points: r.Points, Hands: r.Hands})
	}
	for _, sum := range rec.Imported {
		sum.Imported = sum.Hands
		add(sum)
	}
	out := make([]Series, 0, len(days))
	for id, byDate := range days {
		out = append(out, seriesOf(id, rec.Names[id], byDate))
	}
	slices.SortFunc(out, func(x, y Series) int {
		return cmp.Or(strings.Compare(x.Name, y.Name), cmp.Compare(x.Player, y.Player))
	})
	return out, nil
}

// seriesOf is one player's series from his sums by date.
func seriesOf(id int64, name string, byDate map[string]*PointSum) Series {
	sr := Series{Player: id, Name: name, Points: []SeriesPoint{}}
	dates := make([]string, 0, len(byDate))
	for date := range byDate {
		dates = append(dates, date)
	}
	slices.Sort(dates)
	var cum score.Points
	for _, date := range dates {
		d := byDate[date]
		cum = cum.Add(d.Points)
		sr.Points = append(sr.Points, SeriesPoint{Date: date, Hands: d.Hands, ImportedHands: d.Imported, Points: d.Points, Cumulative: cum})
	}
	return sr
}
