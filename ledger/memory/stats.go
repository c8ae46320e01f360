package memory

import (
	"cmp"
	"context"
	"slices"

	"github.com/stichbuch/stichbuch/ledger"
)

var _ ledger.StatsTx = (*tx)(nil)

// sessionHands returns a session's hands in order.
func (d *data) sessionHands(clubID, sessionID int64) []ledger.Hand {
	var out []ledger.Hand
	for _, h := range d.hands {
		if h.club == clubID && h.SessionID == sessionID {
			out = append(out, h.Hand)
		}
	}
	slices.SortFunc(out, func(a, b ledger.Hand) int { return cmp.Or(cmp.Compare(a.Number, b.Number), cmp.Compare(a.ID, b.ID)) })
	return out
}

// StatSession reads a session, its hands and its latest settlement.
func (t *tx) StatSession(_ context.Context, sessionID int64) (ledger.StatSession, error) {
	s, ok := t.d.sessions[sessionID]
	if !ok || s.club != t.club {
		return ledger.StatSession{}, notFound("session %d", sessionID)
	}
	ss := ledger.StatSession{Session: s.Session, Hands: t.d.sessionHands(t.club, sessionID)}
	if row, ok := t.d.latestSettlement(t.club, sessionID); ok {
		st := row.Settlement
		ss.Settlement = &st
	}
	return ss, nil
}

// StoreRollup replaces a session's rollups and money and takes it off the
// live list.
func (t *tx) StoreRollup(_ context.Context, r ledger.SessionRollup) error {
	put(t, t.d.rollups, r.SessionID, r.Rollup)
	put(t, t.d.statMoney, r.SessionID, r.Money)
	del(t, t.d.statOpen, r.SessionID)
	return nil
}

// MarkLive lists a session among those read live.
func (t *tx) MarkLive(_ context.Context, sessionID int64) error {
	put(t, t.d.statOpen, sessionID, true)
	return nil
}

// ClearStats removes the club's statistics.
func (t *tx) ClearStats(context.Context) error {
	for id, s := range t.d.sessions {
		if s.club == t.club {
			del(t, t.d.statOpen, id)
			del(t, t.d.rollups, id)
			del(t, t.d.statMoney, id)
		}
	}
	return nil
}

// StatSessions returns the club's sessions with hands or a settlement
// after `after`, in order.
func (t *tx) StatSessions(_ context.Context, after int64, limit int) ([]int64, error) {
	var ids []int64
	for id, s := range t.d.sessions {
		if s.club != t.club || id <= after {
			continue
		}
		if _, settled := t.d.latestSettlement(t.club, id); settled || len(t.d.sessionHands(t.club, id)) > 0 {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids[:min(len(ids), limit)], nil
}

// in reports whether a session of the club lies in the filter.
func (d *data) in(clubID, sessionID int64, f ledger.StatsFilter) bool {
	s, ok := d.sessions[sessionID]
	if !ok || s.club != clubID {
		return false
	}
	game := d.tables[s.TableID].Game
	return (f.From == "" || s.Date >= f.From) && (f.To == "" || s.Date <= f.To) &&
		(f.Game == "" || game == f.Game) && (f.TableID == 0 || s.TableID == f.TableID)
}

// context reads what every figure's read brings: whether the filter's
// table is the club's, the club's names and the live sessions' hands.
func (d *data) context(clubID int64, f ledger.StatsFilter) ledger.StatsContext {
	c := ledger.StatsContext{Names: ledger.Names{}, Guests: map[int64]bool{}, LiveDates: map[int64]string{}}
	if tb, ok := d.tables[f.TableID]; ok && tb.club == clubID {
		c.TableFound = true
	}
	for id, p := range d.players {
		if p.club == clubID {
			c.Names[id] = p.Name
			if p.Guest {
				c.Guests[id] = true
			}
		}
	}
	var ids []int64
	for id := range d.statOpen {
		if d.in(clubID, id, f) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		c.Live = append(c.Live, d.sessionHands(clubID, id)...)
		c.LiveDates[id] = d.sessions[id].Date
	}
	return c
}

// settled calls fn with every settled session's rollup in the filter.
func (d *data) settled(clubID int64, f ledger.StatsFilter, fn func(ledger.Rollup)) {
	for id, r := range d.rollups {
		if d.in(clubID, id, f) {
			fn(r)
		}
	}
}

// PlayerRecords reads one player's rollups, money and counters.
func (s *Store) PlayerRecords(_ context.Context, clubID, playerID int64, f ledger.StatsFilter) (ledger.PlayerRecords, error) {
	return read(s, func(d *data) (ledger.PlayerRecords, error) {
		rec := ledger.PlayerRecords{StatsContext: d.context(clubID, f), Money: d.money(clubID, playerID, f)}
		counts := map[[2]string]int64{}
		d.settled(clubID, f, func(r ledger.Rollup) {
			for _, x := range r.Sessions {
				if x.Player == playerID {
					rec.Sessions = append(rec.Sessions, x)
				}
			}
			for _, c := range r.Counters {
				if c.Player == playerID {
					counts[[2]string{c.Game, c.Key}] += c.Count
				}
			}
		})
		for k, n := range counts {
			rec.Counters = append(rec.Counters, ledger.GameCounter{Game: k[0], Key: k[1], Count: n})
		}
		slices.SortFunc(rec.Sessions, func(a, b ledger.SessionRoll) int {
			return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.Session, b.Session))
		})
		return rec, nil
	})
}

// money returns a player's net cents per settled session in the filter.
func (d *data) money(clubID, playerID int64, f ledger.StatsFilter) map[int64]int64 {
	out := map[int64]int64{}
	for id, st := range d.statMoney {
		if !d.in(clubID, id, f) {
			continue
		}
		for _, p := range st.Players {
			if p.Player == playerID {
				out[id] = p.NetCents
			}
		}
	}
	return out
}

// PairRecords reads a player's pair rollups.
func (s *Store) PairRecords(_ context.Context, clubID, player, other int64, f ledger.StatsFilter) (ledger.PairRecords, error) {
	return read(s, func(d *data) (ledger.PairRecords, error) {
		rec := ledger.PairRecords{StatsContext: d.context(clubID, f)}
		d.settled(clubID, f, func(r ledger.Rollup) {
			for _, p := range r.Pairs {
				if p.Player == player && (other == 0 || p.Other == other) {
					rec.Pairs = append(rec.Pairs, p)
				}
			}
		})
		return rec, nil
	})
}

// LeaderboardRecords reads every player's sums and money and the settled
// sessions' games.
func (s *Store) LeaderboardRecords(_ context.Context, clubID int64, f ledger.StatsFilter) (ledger.LeaderboardRecords, error) {
	return read(s, func(d *data) (ledger.LeaderboardRecords, error) {
		rec := ledger.LeaderboardRecords{StatsContext: d.context(clubID, f), Money: map[int64]int64{}}
		d.settled(clubID, f, func(r ledger.Rollup) {
			for _, x := range r.Sessions {
				sum := ledger.PointSum{Player: x.Player, Points: x.Points, Hands: x.Hands, Won: x.Won}
				if x.Hands > 0 {
					sum.Sessions = 1
					rec.Games = append(rec.Games, x.Game)
				}
				rec.Sums = append(rec.Sums, sum)
			}
		})
		for id, st := range d.statMoney {
			if d.in(clubID, id, f) {
				for _, p := range st.Players {
					rec.Money[p.Player] += p.NetCents
				}
			}
		}
		slices.Sort(rec.Games)
		rec.Games = slices.Compact(rec.Games)
		return rec, nil
	})
}

// SeriesRecords reads the players' points per date.
func (s *Store) SeriesRecords(_ context.Context, clubID int64, players []int64, f ledger.StatsFilter) (ledger.SeriesRecords, error) {
	return read(s, func(d *data) (ledger.SeriesRecords, error) {
		rec := ledger.SeriesRecords{StatsContext: d.context(clubID, f)}
		d.settled(clubID, f, func(r ledger.Rollup) {
			for _, x := range r.Sessions {
				if len(players) == 0 || slices.Contains(players, x.Player) {
					rec.Sums = append(rec.Sums, ledger.PointSum{Player: x.Player, Date: x.Date, Points: x.Points, Hands: x.Hands})
				}
			}
		})
		return rec, nil
	})
}
