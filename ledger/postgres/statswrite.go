package postgres

// The statistics' side tables, written: a settled session's rollups
// (stat_sessions, stat_counters, stat_pairs) and money (stat_money), and
// the list of sessions read live from their hands (stat_open; AppendHand
// lists a new hand's session). What they hold and when is the ledger's
// rule (ledger.RollUpSession, ledger.RebuildStats); migrations 4, 16 and
// 18 explain the tables.

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

var _ ledger.StatsTx = (*tx)(nil)

// StatSession reads a session, its hands as their current revisions and
// its latest settlement, in one round trip.
func (t *tx) StatSession(ctx context.Context, sessionID int64) (ledger.StatSession, error) {
	var ss ledger.StatSession
	var found bool
	var body []byte
	b := &pgx.Batch{}
	b.Queue(selectSession+` WHERE s.club_id = $1 AND s.session_id = $2`, t.club, sessionID).QueryRow(func(row pgx.Row) error {
		err := scanSession(row, &ss.Session)
		found = err == nil
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	b.Queue(selectHand+` WHERE h.club_id = $1 AND h.session_id = $2 ORDER BY h.number, h.hand_id`, t.club, sessionID).
		Query(func(rows pgx.Rows) error {
			var err error
			ss.Hands, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) { return scanHand(r) })
			return err
		})
	b.Queue(`SELECT body FROM settlements WHERE club_id = $1 AND session_id = $2 ORDER BY version DESC LIMIT 1`, t.club, sessionID).
		Query(func(rows pgx.Rows) error {
			_, err := pgx.ForEachRow(rows, []any{&body}, func() error { return nil })
			return err
		})
	if err := send(ctx, t, b); err != nil {
		return ss, where(err, "reading session %d for its statistics", sessionID)
	}
	if !found {
		return ss, ledger.Errorf(ledger.ENOTFOUND, "session %d not found", sessionID)
	}
	if body != nil {
		st, err := ledger.ParseSettlementBody(body)
		if err != nil {
			return ss, fmt.Errorf("session %d's latest settlement is unreadable: %w", sessionID, err)
		}
		ss.Settlement = &st
	}
	return ss, nil
}

// StoreRollup replaces a settled session's rollups and money rows and
// takes it off stat_open, in one round trip.
func (t *tx) StoreRollup(ctx context.Context, r ledger.SessionRollup) error {
	b := &pgx.Batch{}
	for _, table := range []string{"stat_sessions", "stat_counters", "stat_pairs", "stat_open"} {
		b.Queue(`DELETE FROM `+table+` WHERE club_id = $1 AND session_id = $2`, t.club, r.SessionID)
	}
	queueSessionRolls(b, t.club, r.SessionID, r.Rollup.Sessions)
	queueCounterRolls(b, t.club, r.SessionID, r.Rollup.Counters)
	queuePairRolls(b, t.club, r.SessionID, r.Rollup.Pairs)
	queueStatMoney(b, t.club, r.Money)
	return where(send(ctx, t, b), "storing the rollups of session %d", r.SessionID)
}

// MarkLive lists a session in stat_open.
func (t *tx) MarkLive(ctx context.Context, sessionID int64) error {
	_, err := t.Exec(ctx, `
		INSERT INTO stat_open (club_id, session_id, table_id, game, date)
		SELECT s.club_id, s.session_id, s.table_id, tb.game, s.date
		FROM sessions s JOIN tables tb USING (club_id, table_id)
		WHERE s.club_id = $1 AND s.session_id = $2
		ON CONFLICT DO NOTHING`, t.club, sessionID)
	return err
}

// ClearStats removes every statistics row of the club.
func (t *tx) ClearStats(ctx context.Context) error {
	b := &pgx.Batch{}
	for _, table := range []string{"stat_open", "stat_sessions", "stat_counters", "stat_pairs", "stat_money"} {
		b.Queue(`DELETE FROM `+table+` WHERE club_id = $1`, t.club)
	}
	return where(send(ctx, t, b), "clearing club %d's statistics", t.club)
}

// StatSessions returns the ids of the club's sessions with hands or a
// settlement after `after`, in order, at most limit.
func (t *tx) StatSessions(ctx context.Context, after int64, limit int) ([]int64, error) {
	rows, err := t.Query(ctx, `
		SELECT s.session_id FROM sessions s
		WHERE s.club_id = $1 AND s.session_id > $2
		  AND (EXISTS (SELECT 1 FROM hands h WHERE h.club_id = s.club_id AND h.session_id = s.session_id)
		    OR EXISTS (SELECT 1 FROM settlements x WHERE x.club_id = s.club_id AND x.session_id = s.session_id))
		ORDER BY s.session_id LIMIT $3`, t.club, after, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// queueStatMoney queues the replacement of a session's money rows by
// settlement st's.
func queueStatMoney(b *pgx.Batch, clubID int64, st ledger.Settlement) {
	n := len(st.Players)
	players, pointsCents, payoutCents, netCents := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for i, p := range st.Players {
		players[i], pointsCents[i], payoutCents[i], netCents[i] = p.Player, p.PointsCents, p.PayoutCents, p.NetCents
	}
	b.Queue(`DELETE FROM stat_money WHERE club_id = $1 AND session_id = $2`, clubID, st.SessionID)
	b.Queue(`
		INSERT INTO stat_money (club_id, session_id, player_id, table_id, game, date, version, points_cents, payout_cents, net_cents)
		SELECT $1, $2, m.player, $3, $4, $5::date, $6, m.points, m.payout, m.net
		FROM unnest($7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[]) AS m(player, points, payout, net)`,
		clubID, st.SessionID, st.TableID, st.Game, st.Date, st.Version, players, pointsCents, payoutCents, netCents)
}

func queueSessionRolls(b *pgx.Batch, clubID, sessionID int64, rolls []ledger.SessionRoll) {
	n := len(rolls)
	if n == 0 {
		return
	}
	players, tables, nums, dens := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	games, dates := make([]string, n), make([]string, n)
	cols := make([][]int32, 10)
	for i := range cols {
		cols[i] = make([]int32, n)
	}
	for i, s := range rolls {
		players[i], tables[i], games[i], dates[i] = s.Player, s.Table, s.Game, s.Date
		nums[i], dens[i] = s.Points.Num(), s.Points.Den()
		for k, v := range []int{s.Hands, s.Won, s.Lost, s.SatOut, s.Streak.WinFirst, s.Streak.LossFirst,
			s.Streak.WinLast, s.Streak.LossLast, s.Streak.WinBest, s.Streak.LossBest} {
			cols[k][i] = int32(v)
		}
	}
	b.Queue(`
		INSERT INTO stat_sessions (club_id, session_id, player_id, table_id, game, date, hands, won, lost, sat_out, num, den,
		                           win_first, loss_first, win_last, loss_last, win_best, loss_best)
		SELECT $1, $2, r.player, r.table_id, r.game, r.date::date, r.hands, r.won, r.lost, r.sat_out, r.num, r.den,
		       r.wf, r.lf, r.wl, r.ll, r.wb, r.lb
		FROM unnest($3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::bigint[], $8::bigint[],
		            $9::int[], $10::int[], $11::int[], $12::int[], $13::int[], $14::int[], $15::int[], $16::int[], $17::int[], $18::int[])
		     AS r(player, table_id, game, date, num, den, hands, won, lost, sat_out, wf, lf, wl, ll, wb, lb)`,
		clubID, sessionID, players, tables, games, dates, nums, dens,
		cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7], cols[8], cols[9])
}

func queueCounterRolls(b *pgx.Batch, clubID, sessionID int64, rolls []ledger.CounterRoll) {
	n := len(rolls)
	if n == 0 {
		return
	}
	players, tables, counts := make([]int64, n), make([]int64, n), make([]int64, n)
	games, dates, keys := make([]string, n), make([]string, n), make([]string, n)
	for i, c := range rolls {
		players[i], tables[i], counts[i], games[i], dates[i], keys[i] = c.Player, c.Table, c.Count, c.Game, c.Date, c.Key
	}
	b.Queue(`
		INSERT INTO stat_counters (club_id, session_id, player_id, key, table_id, game, date, count)
		SELECT $1, $2, c.player, c.key, c.table_id, c.game, c.date::date, c.count
		FROM unnest($3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::bigint[])
		     AS c(player, key, table_id, game, date, count)`,
		clubID, sessionID, players, keys, tables, games, dates, counts)
}

func queuePairRolls(b *pgx.Batch, clubID, sessionID int64, rolls []ledger.PairRoll) {
	n := len(rolls)
	if n == 0 {
		return
	}
	players, others, tables := make([]int64, n), make([]int64, n), make([]int64, n)
	nums, dens, onums, odens := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	games, dates := make([]string, n), make([]string, n)
	cols := make([][]int32, 7)
	for i := range cols {
		cols[i] = make([]int32, n)
	}
	for i, p := range rolls {
		players[i], others[i], tables[i], games[i], dates[i] = p.Player, p.Other, p.Table, p.Game, p.Date
		nums[i], dens[i], onums[i], odens[i] = p.Points.Num(), p.Points.Den(), p.OtherPoints.Num(), p.OtherPoints.Den()
		for k, v := range []int{p.Hands, p.Partner, p.PartnerWon, p.PartnerLost, p.Against, p.WonAgainst, p.LostAgainst} {
			cols[k][i] = int32(v)
		}
	}
	b.Queue(`
		INSERT INTO stat_pairs (club_id, session_id, player_id, other_id, table_id, game, date, hands,
		                        partner_hands, partner_won, partner_lost, against_hands, won_against, lost_against,
		                        num, den, other_num, other_den)
		SELECT $1, $2, p.player, p.other, p.table_id, p.game, p.date::date, p.hands, p.partner, p.partner_won, p.partner_lost,
		       p.against, p.won_against, p.lost_against, p.num, p.den, p.onum, p.oden
		FROM unnest($3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[],
		            $8::int[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[], $14::int[],
		            $15::bigint[], $16::bigint[], $17::bigint[], $18::bigint[])
		     AS p(player, other, table_id, game, date, hands, partner, partner_won, partner_lost, against, won_against, lost_against,
		          num, den, onum, oden)`,
		clubID, sessionID, players, others, tables, games, dates,
		cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], nums, dens, onums, odens)
}
