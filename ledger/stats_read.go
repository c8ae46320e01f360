package ledger

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// The statistics' read side: the figures are assembled here from what the
// StatsStore reads (the rollups of settled sessions and the hand rows of
// open ones, which are rolled up on the spot).

// PlayerRecords are what a player's figures are assembled from.
type PlayerRecords struct {
	// Sessions are his rollups of settled sessions (Streak.Decided unset).
	Sessions []SessionRoll
	// Money is his net cents per settled session.
	Money map[int64]int64
	// Counters are his counts per game and key.
	Counters []GameCounter
	// Live are the hand rows of the open evenings he has a part in.
	Live []StatRow
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
}

// checkFilter validates the filter and that its table is the club's.
func (s *Service) checkFilter(ctx context.Context, a Actor, f StatsFilter) error {
	if err := f.Check(); err != nil {
		return err
	}
	if f.TableID != 0 {
		if _, err := s.Tables.FindTable(ctx, a.ClubID, f.TableID); err != nil {
			return err
		}
	}
	return nil
}

// playerName returns a player's name, ENOTFOUND for another club's.
func (s *Service) playerName(ctx context.Context, clubID, id int64) (string, error) {
	names, err := s.Stats.PlayerNames(ctx, clubID, []int64{id})
	if err != nil {
		return "", err
	}
	name, ok := names[id]
	if !ok {
		return "", Errorf(ENOTFOUND, "player %d not found", id)
	}
	return name, nil
}

// PlayerStats returns a player's figures over the filter.
func (s *Service) PlayerStats(ctx context.Context, a Actor, playerID int64, f StatsFilter) (PlayerStats, error) {
	ps := PlayerStats{Player: playerID, Filter: f, Points: score.Int(0), PointsPerHand: score.Int(0), Games: []GameStats{}}
	if err := s.checkFilter(ctx, a, f); err != nil {
		return ps, err
	}
	var err error
	if ps.Name, err = s.playerName(ctx, a.ClubID, playerID); err != nil {
		return ps, err
	}
	rec, err := s.Stats.PlayerRecords(ctx, a.ClubID, playerID, f)
	if err != nil {
		return ps, err
	}
	sessions, counters := rec.Sessions, rec.Counters
	live := RollUp(rec.Live)
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
// filter, the open evenings' included.
func (s *Service) pairs(ctx context.Context, clubID, player, other int64, f StatsFilter) ([]PairRoll, error) {
	pairs, live, err := s.Stats.PairRecords(ctx, clubID, player, other, f)
	if err != nil {
		return nil, err
	}
	for _, p := range RollUp(live).Pairs {
		if p.Player == player && (other == 0 || p.Other == other) {
			pairs = append(pairs, p)
		}
	}
	return pairs, nil
}

// PartnerStats returns a player's partner table: every player he played a
// hand with, most hands as partners first.
func (s *Service) PartnerStats(ctx context.Context, a Actor, playerID int64, f StatsFilter) (Partners, error) {
	out := Partners{Player: playerID, Filter: f, Partners: []Partner{}}
	if err := s.checkFilter(ctx, a, f); err != nil {
		return out, err
	}
	var err error
	if out.Name, err = s.playerName(ctx, a.ClubID, playerID); err != nil {
		return out, err
	}
	pairs, err := s.pairs(ctx, a.ClubID, playerID, 0, f)
	if err != nil {
		return out, err
	}
	byOther := map[int64]*Partner{}
	var ids []int64
	for _, p := range pairs {
		x := byOther[p.Other]
		if x == nil {
			x = &Partner{Player: p.Other}
			byOther[p.Other] = x
			ids = append(ids, p.Other)
		}
		x.Hands += p.Hands
		x.PartnerHands += p.Partner
		x.PartnerWon += p.PartnerWon
		x.PartnerLost += p.PartnerLost
		x.AgainstHands += p.Against
		x.WonAgainst += p.WonAgainst
		x.LostAgainst += p.LostAgainst
	}
	names, err := s.Stats.PlayerNames(ctx, a.ClubID, ids)
	if err != nil {
		return out, err
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
	if err := s.checkFilter(ctx, a, f); err != nil {
		return h, err
	}
	if playerID == otherID {
		return h, Invalid("otherID", "must be another player than %d", playerID)
	}
	var err error
	if h.Name, err = s.playerName(ctx, a.ClubID, playerID); err != nil {
		return h, err
	}
	if h.OtherName, err = s.playerName(ctx, a.ClubID, otherID); err != nil {
		return h, err
	}
	pairs, err := s.pairs(ctx, a.ClubID, playerID, otherID, f)
	if err != nil {
		return h, err
	}
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

// LeaderboardQuery asks for a leaderboard: the players over Filter ranked
// By one order, those with fewer than MinHands hands left out, at most
// Limit of them (0: all). Points of different games are added together
// only when Mix says so.
type LeaderboardQuery struct {
	By       LeaderboardOrder
	Filter   StatsFilter
	MinHands int
	Limit    int
	Mix      bool
}

// Leaderboard ranks the club's players over the filter by one order, in
// one game: a filter without a game whose period holds more than one game
// is refused naming game, unless the query mixes them.
func (s *Service) Leaderboard(ctx context.Context, a Actor, q LeaderboardQuery) (Leaderboard, error) {
	by, f, minHands, limit := q.By, q.Filter, q.MinHands, q.Limit
	lb := Leaderboard{By: by, Filter: f, MinHands: minHands, Mix: q.Mix, Entries: []LeaderboardEntry{}}
	if err := by.Validate(); err != nil {
		return lb, err
	}
	if err := s.checkFilter(ctx, a, f); err != nil {
		return lb, err
	}
	if err := s.oneGame(ctx, a, q); err != nil {
		return lb, err
	}
	sums, money, live, err := s.Stats.LeaderboardRecords(ctx, a.ClubID, f)
	if err != nil {
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
	for _, sum := range sums {
		e := entry(sum.Player)
		e.Points, e.Hands, e.HandsWon, e.Sessions = e.Points.Add(sum.Points), e.Hands+sum.Hands, e.HandsWon+sum.Won, e.Sessions+sum.Sessions
	}
	for id, net := range money {
		entry(id).NetCents = net
	}
	for _, r := range RollUp(live).Sessions {
		e := entry(r.Player)
		e.Points, e.Hands, e.HandsWon = e.Points.Add(r.Points), e.Hands+r.Hands, e.HandsWon+r.Won
		if r.Hands > 0 {
			e.Sessions++
		}
	}
	ids := make([]int64, 0, len(entries))
	for id := range entries {
		ids = append(ids, id)
	}
	names, err := s.Stats.PlayerNames(ctx, a.ClubID, ids)
	if err != nil {
		return lb, err
	}
	for _, e := range entries {
		if e.Hands < minHands {
			continue
		}
		e.Name = names[e.Player]
		e.WinRatePermille = PermilleOf(e.HandsWon, e.Hands)
		e.PointsPerHand = PerHand(e.Points, e.Hands)
		lb.Entries = append(lb.Entries, *e)
	}
	SortLeaderboard(by, lb.Entries)
	if limit > 0 && len(lb.Entries) > limit {
		lb.Entries = lb.Entries[:limit]
	}
	return lb, nil
}

// oneGame refuses a leaderboard that would add up points of different
// games without being asked to mix them: points of one game say nothing
// about points of another.
func (s *Service) oneGame(ctx context.Context, a Actor, q LeaderboardQuery) error {
	if q.Mix || q.Filter.Game != "" {
		return nil
	}
	games, err := s.Stats.GamesIn(ctx, a.ClubID, q.Filter)
	if err != nil || len(games) <= 1 {
		return err
	}
	return Invalid("game", "the period holds %d games (%s) whose points do not add up: pass game to rank one of them, or mix=true to add them together",
		len(games), strings.Join(games, ", "))
}

// PointsSeries returns each player's points by session date with the
// running total, for the given players (all the club's players with hands
// in the filter when none are given).
func (s *Service) PointsSeries(ctx context.Context, a Actor, players []int64, f StatsFilter) ([]Series, error) {
	if err := s.checkFilter(ctx, a, f); err != nil {
		return nil, err
	}
	for _, id := range players {
		if _, err := s.playerName(ctx, a.ClubID, id); err != nil {
			return nil, err
		}
	}
	sums, live, err := s.Stats.SeriesRecords(ctx, a.ClubID, players, f)
	if err != nil {
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
		d.Points, d.Hands = d.Points.Add(sum.Points), d.Hands+sum.Hands
	}
	for _, sum := range sums {
		add(sum)
	}
	for _, r := range RollUp(live).Sessions {
		add(PointSum{Player: r.Player, Date: r.Date, Points: r.Points, Hands: r.Hands})
	}
	ids := make([]int64, 0, len(days))
	for id := range days {
		ids = append(ids, id)
	}
	names, err := s.Stats.PlayerNames(ctx, a.ClubID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Series, 0, len(days))
	for id, byDate := range days {
		out = append(out, seriesOf(id, names[id], byDate))
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
		sr.Points = append(sr.Points, SeriesPoint{Date: date, Hands: d.Hands, Points: d.Points, Cumulative: cum})
	}
	return sr
}
