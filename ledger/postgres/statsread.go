package postgres

// The statistics' side tables, read: a settled session's figures from its
// rollups (index-only scans of their covering indexes), an open evening's
// (stat_open) from its hands' results, which the ledger rolls up on the
// spot.

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

// queueLive queues the read of the open evenings' hands in the filter and
// puts their statistics rows into *into (only the evenings where player
// has a row, when player is not 0): the hands' current revisions, read and
// rolled into rows here, as a settled session's are when it is rolled up.
func queueLive(b *pgx.Batch, clubID, player int64, f ledger.StatsFilter, into *[]ledger.StatRow) {
	args := []any{clubID}
	where := filterSQL(f, "o.", &args)
	dates := map[int64]string{}
	b.Queue(`SELECT o.session_id, to_char(o.date, 'YYYY-MM-DD') FROM stat_open o WHERE o.club_id = $1`+where, args...).
		Query(func(rows pgx.Rows) error {
			var id int64
			var date string
			_, err := pgx.ForEachRow(rows, []any{&id, &date}, func() error { dates[id] = date; return nil })
			return err
		})
	b.Queue(selectHand+`
		JOIN stat_open o ON o.club_id = h.club_id AND o.session_id = h.session_id
		WHERE o.club_id = $1`+where+`
		ORDER BY h.session_id, h.number, h.hand_id`, args...).Query(func(rows pgx.Rows) error {
		hands, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) { return scanHand(r) })
		if err != nil {
			return err
		}
		*into = statRowsOf(hands, dates)
		if player != 0 {
			*into = withPlayer(*into, player)
		}
		return nil
	})
}

// withPlayer keeps the rows of the sessions where player has a row.
func withPlayer(rows []ledger.StatRow, player int64) []ledger.StatRow {
	in := map[int64]bool{}
	for _, r := range rows {
		if r.Player == player {
			in[r.Session] = true
		}
	}
	return slices.DeleteFunc(rows, func(r ledger.StatRow) bool { return !in[r.Session] })
}

// PlayerNames returns the names of those of ids who are players of the club.
func (s *Store) PlayerNames(ctx context.Context, clubID int64, ids []int64) (map[int64]string, error) {
	names := map[int64]string{}
	if len(ids) == 0 {
		return names, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT player_id, name FROM players WHERE club_id = $1 AND player_id = ANY($2)`, clubID, ids)
	if err != nil {
		return nil, mapError(err)
	}
	var id int64
	var name string
	_, err = pgx.ForEachRow(rows, []any{&id, &name}, func() error { names[id] = name; return nil })
	return names, mapError(err)
}

// PlayerRecords reads one player's session rollups, money and counters
// over the filter, and the open evenings' rows he has a part in, in one
// round trip.
func (s *Store) PlayerRecords(ctx context.Context, clubID, playerID int64, f ledger.StatsFilter) (ledger.PlayerRecords, error) {
	rec := ledger.PlayerRecords{Money: map[int64]int64{}}
	args := []any{clubID, playerID}
	where := `WHERE club_id = $1 AND player_id = $2` + filterSQL(f, "", &args)
	b := &pgx.Batch{}
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
	queueLive(b, clubID, playerID, f, &rec.Live)
	return rec, mapError(send(ctx, s.pool, b))
}

// PairRecords reads the pair rollups of player (with other, when not 0)
// over the filter, and the open evenings' rows he has a part in.
func (s *Store) PairRecords(ctx context.Context, clubID, player, other int64, f ledger.StatsFilter) ([]ledger.PairRoll, []ledger.StatRow, error) {
	args := []any{clubID, player}
	where := `WHERE club_id = $1 AND player_id = $2`
	if other != 0 {
		args = append(args, other)
		where += ` AND other_id = $3`
	}
	where += filterSQL(f, "", &args)
	var pairs []ledger.PairRoll
	var live []ledger.StatRow
	b := &pgx.Batch{}
	b.Queue(`
		SELECT session_id, other_id, hands, partner_hands, partner_won, partner_lost, against_hands, won_against, lost_against,
		       num, den, other_num, other_den
		FROM stat_pairs `+where, args...).Query(func(rows pgx.Rows) error {
		var p ledger.PairRoll
		var num, den, onum, oden int64
		_, err := pgx.ForEachRow(rows, []any{&p.Session, &p.Other, &p.Hands, &p.Partner, &p.PartnerWon, &p.PartnerLost, &p.Against,
			&p.WonAgainst, &p.LostAgainst, &num, &den, &onum, &oden}, func() error {
			p.Player, p.Points, p.OtherPoints = player, score.Frac(num, den), score.Frac(onum, oden)
			pairs = append(pairs, p)
			return nil
		})
		return err
	})
	queueLive(b, clubID, player, f, &live)
	return pairs, live, mapError(send(ctx, s.pool, b))
}

// LeaderboardRecords reads every player's sums over the filter (per player
// and denominator: numerators are summed in SQL, the few sums per player
// added exactly by the ledger), their money, and the open evenings' rows.
func (s *Store) LeaderboardRecords(ctx context.Context, clubID int64, f ledger.StatsFilter) ([]ledger.PointSum, map[int64]int64, []ledger.StatRow, error) {
	var sums []ledger.PointSum
	money := map[int64]int64{}
	var live []ledger.StatRow
	pointsArgs := []any{clubID}
	pointsWhere := filterSQL(f, "", &pointsArgs)
	moneyArgs := []any{clubID}
	moneyWhere := filterSQL(f, "", &moneyArgs)
	b := &pgx.Batch{}
	b.Queue(`
		SELECT player_id, den, sum(num)::bigint, sum(hands)::int, sum(won)::int, (count(*) FILTER (WHERE hands > 0))::int
		FROM stat_sessions WHERE club_id = $1`+pointsWhere+`
		GROUP BY player_id, den`, pointsArgs...).Query(func(rows pgx.Rows) error {
		var sum ledger.PointSum
		var num, den int64
		_, err := pgx.ForEachRow(rows, []any{&sum.Player, &den, &num, &sum.Hands, &sum.Won, &sum.Sessions}, func() error {
			sum.Points = score.Frac(num, den)
			sums = append(sums, sum)
			return nil
		})
		return err
	})
	b.Queue(`SELECT player_id, sum(net_cents)::bigint FROM stat_money WHERE club_id = $1`+moneyWhere+` GROUP BY player_id`,
		moneyArgs...).Query(func(rows pgx.Rows) error {
		var id, net int64
		_, err := pgx.ForEachRow(rows, []any{&id, &net}, func() error { money[id] = net; return nil })
		return err
	})
	queueLive(b, clubID, 0, f, &live)
	return sums, money, live, mapError(send(ctx, s.pool, b))
}

// GamesIn returns the games of the settled and open sessions in the
// filter that have hands, by name.
func (s *Store) GamesIn(ctx context.Context, clubID int64, f ledger.StatsFilter) ([]string, error) {
	args := []any{clubID}
	settled := filterSQL(f, "", &args)
	var games []string
	var live []ledger.StatRow
	b := &pgx.Batch{}
	b.Queue(`SELECT DISTINCT game FROM stat_sessions WHERE club_id = $1 AND hands > 0`+settled, args...).
		Query(func(rows pgx.Rows) error {
			var err error
			games, err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
	queueLive(b, clubID, 0, f, &live)
	if err := send(ctx, s.pool, b); err != nil {
		return nil, mapError(err)
	}
	for _, r := range live {
		games = append(games, r.Game)
	}
	slices.Sort(games)
	return slices.Compact(games), nil
}

// SeriesRecords reads each player's points per date and denominator (of
// players, or of everyone when empty), and the open evenings' rows.
func (s *Store) SeriesRecords(ctx context.Context, clubID int64, players []int64, f ledger.StatsFilter) ([]ledger.PointSum, []ledger.StatRow, error) {
	args := []any{clubID}
	where := ""
	if len(players) > 0 {
		args = append(args, players)
		where = fmt.Sprintf(" AND player_id = ANY($%d)", len(args))
	}
	where += filterSQL(f, "", &args)
	var sums []ledger.PointSum
	var live []ledger.StatRow
	b := &pgx.Batch{}
	b.Queue(`
		SELECT player_id, to_char(date, 'YYYY-MM-DD'), den, sum(num)::bigint, sum(hands)::int
		FROM stat_sessions WHERE club_id = $1`+where+`
		GROUP BY player_id, date, den`, args...).Query(func(rows pgx.Rows) error {
		var sum ledger.PointSum
		var num, den int64
		_, err := pgx.ForEachRow(rows, []any{&sum.Player, &sum.Date, &den, &num, &sum.Hands}, func() error {
			sum.Points = score.Frac(num, den)
			sums = append(sums, sum)
			return nil
		})
		return err
	})
	queueLive(b, clubID, 0, f, &live)
	return sums, live, mapError(send(ctx, s.pool, b))
}
