package memory

import (
	"cmp"
	"context"
	"slices"

	"github.com/stichbuch/stichbuch/ledger"
)

// sessionRows returns a session's statistics rows in hand order.
func (d *data) sessionRows(sessionID int64) []ledger.StatRow {
	var out []ledger.StatRow
	for _, rows := range d.statRows {
		if len(rows) > 0 && rows[0].Session == sessionID {
			out = append(out, rows...)
		}
	}
	slices.SortFunc(out, func(a, b ledger.StatRow) int {
		return cmp.Or(cmp.Compare(a.Number, b.Number), cmp.Compare(a.Hand, b.Hand), cmp.Compare(a.Player, b.Player))
	})
	return out
}

// SessionStatRows returns a session's rows in hand order.
func (t *tx) SessionStatRows(_ context.Context, sessionID int64) ([]ledger.StatRow, error) {
	return t.d.sessionRows(sessionID), nil
}

// ReplaceRollup replaces a session's rollups and takes it off the live list.
func (t *tx) ReplaceRollup(_ context.Context, sessionID int64, r ledger.Rollup) error {
	put(t, t.d.rollups, sessionID, r)
	del(t, t.d.statOpen, sessionID)
	return nil
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

// live returns the open evenings' rows in the filter (of those where
// player has a row, when not 0).
func (d *data) live(clubID, player int64, f ledger.StatsFilter) []ledger.StatRow {
	var ids []int64
	for id := range d.statOpen {
		if d.in(clubID, id, f) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var out []ledger.StatRow
	for _, id := range ids {
		rows := d.sessionRows(id)
		if player == 0 || slices.ContainsFunc(rows, func(r ledger.StatRow) bool { return r.Player == player }) {
			out = append(out, rows...)
		}
	}
	return out
}

// settled calls fn with every settled session's rollup in the filter.
func (d *data) settled(clubID int64, f ledger.StatsFilter, fn func(ledger.Rollup)) {
	for id, r := range d.rollups {
		if d.in(clubID, id, f) {
			fn(r)
		}
	}
}

// PlayerNames returns the names of those of ids who are players of the club.
func (s *Store) PlayerNames(_ context.Context, clubID int64, ids []int64) (map[int64]string, error) {
	return read(s, func(d *data) (map[int64]string, error) {
		names := map[int64]string{}
		for _, id := range ids {
			if p, ok := d.players[id]; ok && p.club == clubID {
				names[id] = p.Name
			}
		}
		return names, nil
	})
}

// PlayerRecords reads one player's rollups, money, counters and live rows.
func (s *Store) PlayerRecords(_ context.Context, clubID, playerID int64, f ledger.StatsFilter) (ledger.PlayerRecords, error) {
	return read(s, func(d *data) (ledger.PlayerRecords, error) {
		rec := ledger.PlayerRecords{Money: d.money(clubID, playerID, f), Live: d.live(clubID, playerID, f)}
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

// PairRecords reads a player's pair rollups and the live rows.
func (s *Store) PairRecords(_ context.Context, clubID, player, other int64, f ledger.StatsFilter) ([]ledger.PairRoll, []ledger.StatRow, error) {
	type result struct {
		pairs []ledger.PairRoll
		live  []ledger.StatRow
	}
	r, err := read(s, func(d *data) (result, error) {
		var out result
		d.settled(clubID, f, func(r ledger.Rollup) {
			for _, p := range r.Pairs {
				if p.Player == player && (other == 0 || p.Other == other) {
					out.pairs = append(out.pairs, p)
				}
			}
		})
		out.live = d.live(clubID, player, f)
		return out, nil
	})
	return r.pairs, r.live, err
}

// LeaderboardRecords reads every player's sums, money and the live rows.
func (s *Store) LeaderboardRecords(_ context.Context, clubID int64, f ledger.StatsFilter) ([]ledger.PointSum, map[int64]int64, []ledger.StatRow, error) {
	type result struct {
		sums  []ledger.PointSum
		money map[int64]int64
		live  []ledger.StatRow
	}
	r, err := read(s, func(d *data) (result, error) {
		out := result{money: map[int64]int64{}, live: d.live(clubID, 0, f)}
		d.settled(clubID, f, func(r ledger.Rollup) {
			for _, x := range r.Sessions {
				sum := ledger.PointSum{Player: x.Player, Points: x.Points, Hands: x.Hands, Won: x.Won}
				if x.Hands > 0 {
					sum.Sessions = 1
				}
				out.sums = append(out.sums, sum)
			}
		})
		for id, st := range d.statMoney {
			if d.in(clubID, id, f) {
				for _, p := range st.Players {
					out.money[p.Player] += p.NetCents
				}
			}
		}
		return out, nil
	})
	return r.sums, r.money, r.live, err
}

// GamesIn returns the games of the settled and open sessions in the filter
// that have hands, by name.
func (s *Store) GamesIn(_ context.Context, clubID int64, f ledger.StatsFilter) ([]string, error) {
	return read(s, func(d *data) ([]string, error) {
		var games []string
		d.settled(clubID, f, func(r ledger.Rollup) {
			for _, x := range r.Sessions {
				if x.Hands > 0 {
					games = append(games, x.Game)
				}
			}
		})
		for _, r := range d.live(clubID, 0, f) {
			games = append(games, r.Game)
		}
		slices.Sort(games)
		return slices.Compact(games), nil
	})
}

// SeriesRecords reads the players' points per date and the live rows.
func (s *Store) SeriesRecords(_ context.Context, clubID int64, players []int64, f ledger.StatsFilter) ([]ledger.PointSum, []ledger.StatRow, error) {
	type result struct {
		sums []ledger.PointSum
		live []ledger.StatRow
	}
	r, err := read(s, func(d *data) (result, error) {
		out := result{live: d.live(clubID, 0, f)}
		d.settled(clubID, f, func(r ledger.Rollup) {
			for _, x := range r.Sessions {
				if len(players) == 0 || slices.Contains(players, x.Player) {
					out.sums = append(out.sums, ledger.PointSum{Player: x.Player, Date: x.Date, Points: x.Points, Hands: x.Hands})
				}
			}
		})
		return out, nil
	})
	return r.sums, r.live, err
}
