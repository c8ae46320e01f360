package postgres

// The statistics' side tables, read, one round trip a figure: a settled
// session's figures from its rollups (index-only scans of their covering
// indexes), a live one's (stat_open) as its hands, which the ledger rolls
// up on the spot.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// filterSQL appends the filter's conditions on the columns date, game and
// table_id (of alias, e.g. "s.") to the query's WHERE, adding its args.
func filterSQL(f ledger.StatsFilter, alias string, args *[]any) string {
	var b strings.Builder
	add := func(cond string, v any) {
		*args = append(*args, v)
		fmt.Fprintf(&b, " AND %s%s $%d", alias, cond, len(*args))
	}
	if f.From != "" {
		add("date >=", f.From)
	}
	if f.To != "" {
		add("date <=", f.To)
	}
	if f.Game != "" {
		add("game =", f.Game)
	}
	if f.TableID != 0 {
		add("table_id =", f.TableID)
	}
	return b.String()
}

// queueContext queues the reads every figure brings besides its records,
// into *c: whether the filter's table is the club's, the club's players'
// names, and the live sessions in the filter (stat_open) with their hands'
// current revisions, which the ledger rolls up.
func queueContext(b *pgx.Batch, clubID int64, f ledger.StatsFilter, c *ledger.StatsContext) {
	c.Names, c.Guests, c.LiveDates = ledger.Names{}, map[int64]bool{}, map[int64]string{}
	if f.TableID != 0 {
		b.Queue(`SELECT EXISTS (SELECT 1 FROM tables WHERE club_id = $1 AND table_id = $2)`, clubID, f.TableID).
			QueryRow(func(row pgx.Row) error { return row.Scan(&c.TableFound) })
	}
	b.Queue(`SELECT player_id, name, guest FROM players WHERE club_id = $1`, clubID).Query(func(rows pgx.Rows) error {
		var id int64
		var name string
		var guest bool
		_, err := pgx.ForEachRow(rows, []any{&id, &name, &guest}, func() error {
			c.Names[id] = name
			if guest {
				c.Guests[id] = true
			}
			return nil
		})
		return err
	})
	args := []any{clubID}
	where := filterSQL(f, "o.", &args)
	b.Queue(`SELECT o.session_id, to_char(o.date, 'YYYY-MM-DD') FROM stat_open o WHERE o.club_id = $1`+where, args...).
		Query(func(rows pgx.Rows) error {
			var id int64
			var date string
			_, err := pgx.ForEachRow(rows, []any{&id, &date}, func() error { c.LiveDates[id] = date; return nil })
			return err
		})
	b.Queue(selectHand+`
		JOIN stat_open o ON o.club_id = h.club_id AND o.session_id = h.session_id
		WHERE o.club_id = $1`+where+`
		ORDER BY h.session_id, h.number, h.hand_id`, args...).Query(func(rows pgx.Rows) error {
		var err error
		c.Live, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) { return scanHand(r) })
		return err
	})
}

// PlayerRecords reads one player's session rollups, money and counters
// over the filter, in one round trip.
func (s *Store) PlayerRecords(ctx context.Context, clubID, playerID int64, f ledger.StatsFilter) (ledger.PlayerRecords, error) {
	rec := ledger.PlayerRecords{Money: map[int64]int64{}}
	b := &pgx.Batch{}
	queueContext(b, clubID, f, &rec.StatsContext)
	args := []any{clubID, playerID}
	where := `WHERE club_id = $1 AND player_id = $2` + filterSQL(f, "", &args)
	b.Queue(`
		SELECT session_id, table_id, game, to_char(date, 'YYYY-MM-DD'), hands, won, lost, sat_out, num, den,
		       win_first, loss_first, win_last, loss_last, win_best, loss_best
		FROM stat_sessions `+where+` ORDER BY date, session_id`, args...).Query(func(rows pgx.Rows) error {
		var r ledger.SessionRoll
		var num, den int64
		var st ledger.StreakSummary
		_, err := pgx.ForEachRow(rows, []any{&r.Session, &r.Table, &r.Game, &r.Date, &r.Hands, &r.Won, &r.Lost, &r.SatOut,
			&num, &den, &st.WinFirst, &st.LossFirst, &st.WinLast, &st.LossLast, &st.WinBest, &st.LossBest}, func() error {
			r.Player, r.Points, r.Streak = playerID, score.Frac(num, den), st
			rec.Sessions = append(rec.Sessions, r)
			return nil
		})
		return err
	})
	b.Queue(`SELECT session_id, net_cents FROM stat_money `+where, args...).Query(func(rows pgx.Rows) error {
		var id, net int64
		_, err := pgx.ForEachRow(rows, []any{&id, &net}, func() error { rec.Money[id] = net; return nil })
		return err
	})
	b.Queue(`SELECT game, key, sum(count)::bigint FROM stat_counters `+where+` GROUP BY game, key`, args...).Query(func(rows pgx.Rows) error {
		var c ledger.GameCounter
		_, err := pgx.ForEachRow(rows, []any{&c.Game, &c.Key, &c.Count}, func() error { rec.Counters = append(rec.Counters, c); return nil })
		return err
	})
	return rec, mapError(send(ctx, s.pool, b))
}

// PairRecords reads the pair rollups of player (with other, when not 0)
// over the filter, in one round trip.
func (s *Store) PairRecords(ctx context.Context, clubID, player, other int64, f ledger.StatsFilter) (ledger.PairRecords, error) {
	var rec ledger.PairRecords
	b := &pgx.Batch{}
	queueContext(b, clubID, f, &rec.StatsContext)
	args := []any{clubID, player}
	where := `WHERE club_id = $1 AND player_id = $2`
	if other != 0 {
		args = append(args, other)
		where += ` AND other_id = $3`
	}
	where += filterSQL(f, "", &args)
	b.Queue(`
		SELECT session_id, other_id, hands, partner_hands, partner_won, partner_lost, against_hands, won_against, lost_against,
		       num, den, other_num, other_den
		FROM stat_pairs `+where, args...).Query(func(rows pgx.Rows) error {
		var p ledger.PairRoll
		var num, den, onum, oden int64
		_, err := pgx.ForEachRow(rows, []any{&p.Session, &p.Other, &p.Hands, &p.Partner, &p.PartnerWon, &p.PartnerLost, &p.Against,
			&p.WonAgainst, &p.LostAgainst, &num, &den, &onum, &oden}, func() error {
			p.Player, p.Points, p.OtherPoints = player, score.Frac(num, den), score.Frac(onum, oden)
			rec.Pairs = append(rec.Pairs, p)
			return nil
		})
		return err
	})
	return rec, mapError(send(ctx, s.pool, b))
}

// LeaderboardRecords reads every player's sums over the filter (per player
// and denominator: numerators are summed in SQL, the few sums per player
// added exactly by the ledger), their money, and the games of the settled
// sessions with hands, in one round trip.
func (s *Store) LeaderboardRecords(ctx context.Context, clubID int64, f ledger.StatsFilter) (ledger.LeaderboardRecords, error) {
	rec := ledger.LeaderboardRecords{Money: map[int64]int64{}}
	b := &pgx.Batch{}
	queueContext(b, clubID, f, &rec.StatsContext)
	args := []any{clubID}
	where := filterSQL(f, "", &args)
	b.Queue(`
		SELECT player_id, den, sum(num)::bigint, sum(hands)::int, sum(won)::int, (count(*) FILTER (WHERE hands > 0))::int
		FROM stat_sessions WHERE club_id = $1`+where+`
		GROUP BY player_id, den`, args...).Query(func(rows pgx.Rows) error {
		var sum ledger.PointSum
		var num, den int64
		_, err := pgx.ForEachRow(rows, []any{&sum.Player, &den, &num, &sum.Hands, &sum.Won, &sum.Sessions}, func() error {
			sum.Points = score.Frac(num, den)
			rec.Sums = append(rec.Sums, sum)
			return nil
		})
		return err
	})
	b.Queue(`SELECT player_id, sum(net_cents)::bigint FROM stat_money WHERE club_id = $1`+where+` GROUP BY player_id`,
		args...).Query(func(rows pgx.Rows) error {
		var id, net int64
		_, err := pgx.ForEachRow(rows, []any{&id, &net}, func() error { rec.Money[id] = net; return nil })
		return err
	})
	b.Queue(`SELECT DISTINCT game FROM stat_sessions WHERE club_id = $1 AND hands > 0`+where+` ORDER BY game`, args...).
		Query(func(rows pgx.Rows) error {
			var err error
			rec.Games, err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
	if f.TableID == 0 {
		queueImportedSums(b, clubID, f, &rec)
	}
	return rec, mapError(send(ctx, s.pool, b))
}

// SeriesRecords reads each player's points per date and denominator (of
// players, or of everyone when empty), in one round trip.
func (s *Store) SeriesRecords(ctx context.Context, clubID int64, players []int64, f ledger.StatsFilter) (ledger.SeriesRecords, error) {
	var rec ledger.SeriesRecords
	b := &pgx.Batch{}
	queueContext(b, clubID, f, &rec.StatsContext)
	args := []any{clubID}
	where := ""
	if len(players) > 0 {
		args = append(args, players)
		where = fmt.Sprintf(" AND player_id = ANY($%d)", len(args))
	}
	where += filterSQL(f, "", &args)
	b.Queue(`
		SELECT player_id, to_char(date, 'YYYY-MM-DD'), den, sum(num)::bigint, sum(hands)::int
		FROM stat_sessions WHERE club_id = $1`+where+`
		GROUP BY player_id, date, den`, args...).Query(func(rows pgx.Rows) error {
		var sum ledger.PointSum
		var num, den int64
		_, err := pgx.ForEachRow(rows, []any{&sum.Player, &sum.Date, &den, &num, &sum.Hands}, func() error {
			sum.Points = score.Frac(num, den)
			rec.Sums = append(rec.Sums, sum)
			return nil
		})
		return err
	})
	if f.TableID == 0 {
		iargs := []any{clubID}
		iwhere := ""
		if len(players) > 0 {
			iargs = append(iargs, players)
			iwhere = fmt.Sprintf(" AND l.player_id = ANY($%d)", len(iargs))
		}
		iwhere += filterSQL(f, "v.", &iargs)
		b.Queue(`
			SELECT l.player_id, to_char(v.date, 'YYYY-MM-DD'), l.den, sum(l.num)::bigint, sum(l.hands)::int
			FROM imported_evenings v JOIN imported_lines l USING (club_id, evening_id)
			WHERE v.club_id = $1`+iwhere+`
			GROUP BY l.player_id, v.date, l.den`, iargs...).Query(func(rows pgx.Rows) error {
			var sum ledger.PointSum
			var num, den int64
			_, err := pgx.ForEachRow(rows, []any{&sum.Player, &sum.Date, &den, &num, &sum.Hands}, func() error {
				sum.Points = score.Frac(num, den)
				rec.Imported = append(rec.Imported, sum)
				return nil
			})
			return err
		})
	}
	return rec, mapError(send(ctx, s.pool, b))
}

// queueImportedSums queues the imported evenings' sums per player and
// denominator over the filter's dates and game, and their games.
func queueImportedSums(b *pgx.Batch, clubID int64, f ledger.StatsFilter, rec *ledger.LeaderboardRecords) {
	args := []any{clubID}
	where := filterSQL(f, "v.", &args)
	b.Queue(`
		SELECT l.player_id, l.den, sum(l.num)::bigint, sum(l.hands)::int, count(*)::int
		FROM imported_evenings v JOIN imported_lines l USING (club_id, evening_id)
		WHERE v.club_id = $1`+where+`
		GROUP BY l.player_id, l.den`, args...).Query(func(rows pgx.Rows) error {
		var sum ledger.PointSum
		var num, den int64
		_, err := pgx.ForEachRow(rows, []any{&sum.Player, &den, &num, &sum.Hands, &sum.Sessions}, func() error {
			sum.Points = score.Frac(num, den)
			rec.Imported = append(rec.Imported, sum)
			return nil
		})
		return err
	})
	b.Queue(`SELECT DISTINCT v.game FROM imported_evenings v WHERE v.club_id = $1`+where, args...).Query(func(rows pgx.Rows) error {
		games, err := pgx.CollectRows(rows, pgx.RowTo[string])
		for _, g := range games {
			if !slices.Contains(rec.Games, g) {
				rec.Games = append(rec.Games, g)
			}
		}
		return err
	})
}
