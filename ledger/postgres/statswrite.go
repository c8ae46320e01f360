package postgres

// The statistics' side tables, written: a settled session's rollups
// (stat_sessions, stat_counters, stat_pairs), computed from its hands, and
// its money (stat_money), when its settlement is stored. An open evening is
// listed in stat_open from its first hand (AppendHand) and read live from
// its hands. What the rollups hold is computed by the ledger (StatsOf,
// RollUp); migrations 4, 16 and 18 explain the tables.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// rebuildSession replaces a session's rollups with those of its rows.
func rebuildSession(ctx context.Context, t *tx, sessionID int64) error {
	rows, err := t.SessionStatRows(ctx, sessionID)
	if err != nil {
		return err
	}
	return t.ReplaceRollup(ctx, sessionID, ledger.RollUp(rows))
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

// indexSettlement replaces a session's money rows with settlement st's
// and, when the session is closed, rolls up its hands.
func indexSettlement(ctx context.Context, t *tx, st ledger.Settlement) error {
	var closed bool
	b := &pgx.Batch{}
	queueStatMoney(b, t.club, st)
	b.Queue(`SELECT coalesce((SELECT closed_at IS NOT NULL FROM sessions WHERE club_id = $1 AND session_id = $2), false)`,
		t.club, st.SessionID).QueryRow(func(row pgx.Row) error { return row.Scan(&closed) })
	if err := send(ctx, t, b); err != nil || !closed {
		return err // an open session's hands stay live until it closes
	}
	return rebuildSession(ctx, t, st.SessionID)
}

// SessionStatRows returns a session's statistics rows in hand order,
// computed from its hands' current revisions (ledger.StatsOf): the
// statistics keep no rows per hand.
func (t *tx) SessionStatRows(ctx context.Context, sessionID int64) ([]ledger.StatRow, error) {
	var date string
	err := t.QueryRow(ctx, `SELECT to_char(date, 'YYYY-MM-DD') FROM sessions WHERE club_id = $1 AND session_id = $2`,
		t.club, sessionID).Scan(&date)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	rows, err := t.Query(ctx, selectHand+` WHERE h.club_id = $1 AND h.session_id = $2 ORDER BY h.number, h.hand_id`, t.club, sessionID)
	if err != nil {
		return nil, err
	}
	hands, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) { return scanHand(r) })
	if err != nil {
		return nil, err
	}
	return statRowsOf(hands, map[int64]string{sessionID: date}), nil
}

// statRowsOf are the statistics rows of hands (in their order, each
// hand's by player) with their sessions' dates; a void hand has none.
func statRowsOf(hands []ledger.Hand, dates map[int64]string) []ledger.StatRow {
	var out []ledger.StatRow
	for _, h := range hands {
		if h.Void {
			continue
		}
		stats := ledger.StatsOf(h.Result)
		slices.SortFunc(stats, func(a, b ledger.HandStat) int { return cmp.Compare(a.Player, b.Player) })
		for _, hs := range stats {
			out = append(out, ledger.StatRow{Hand: h.ID, Session: h.SessionID, Table: h.TableID, Game: h.Game,
				Date: dates[h.SessionID], Number: h.Number, HandStat: hs})
		}
	}
	return out
}

// ReplaceRollup replaces a session's rollups with r and takes it off
// stat_open: its figures are read from the rollups from now on.
func (t *tx) ReplaceRollup(ctx context.Context, sessionID int64, r ledger.Rollup) error {
	b := &pgx.Batch{}
	for _, table := range []string{"stat_sessions", "stat_counters", "stat_pairs", "stat_open"} {
		b.Queue(`DELETE FROM `+table+` WHERE club_id = $1 AND session_id = $2`, t.club, sessionID)
	}
	queueSessionRolls(b, t.club, sessionID, r.Sessions)
	queueCounterRolls(b, t.club, sessionID, r.Counters)
	queuePairRolls(b, t.club, sessionID, r.Pairs)
	return send(ctx, t, b)
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

// RebuildStats recomputes a club's statistics from its hands (their
// current revisions) and its sessions' latest settlements, in one
// transaction: for hands recorded before the statistics existed, and for
// an import.
func (s *Store) RebuildStats(ctx context.Context, clubID int64) error {
	return s.tx(ctx, func(t pgx.Tx) error { return rebuildStats(ctx, &tx{Tx: t, club: clubID}) })
}

func rebuildStats(ctx context.Context, t *tx) error {
	b := &pgx.Batch{}
	for _, table := range []string{"stat_open", "stat_sessions", "stat_counters", "stat_pairs", "stat_money"} {
		b.Queue(`DELETE FROM `+table+` WHERE club_id = $1`, t.club)
	}
	// The sessions with hands and no settlement yet are read live; the
	// rollups of the settled ones are built below, from their hands and
	// latest settlements.
	b.Queue(`
		INSERT INTO stat_open (club_id, session_id, table_id, game, date)
		SELECT s.club_id, s.session_id, s.table_id, t.game, s.date
		FROM sessions s JOIN tables t USING (club_id, table_id)
		WHERE s.club_id = $1 AND EXISTS (SELECT 1 FROM hands h WHERE h.club_id = s.club_id AND h.session_id = s.session_id)
		  AND (s.closed_at IS NULL OR NOT EXISTS (SELECT 1 FROM settlements x WHERE x.club_id = s.club_id AND x.session_id = s.session_id))`,
		t.club)
	if err := send(ctx, t, b); err != nil {
		return err
	}
	const page = 1000
	// The latest settlement versions in pages of sessions, too.
	var session int64
	for {
		rows, err := t.Query(ctx, `
			SELECT DISTINCT ON (session_id) session_id, body FROM settlements WHERE club_id = $1 AND session_id > $2
			ORDER BY session_id, version DESC LIMIT $3`, t.club, session, page)
		if err != nil {
			return err
		}
		var bodies [][]byte
		var body []byte
		if _, err := pgx.ForEachRow(rows, []any{&session, &body}, func() error {
			bodies = append(bodies, body)
			return nil
		}); err != nil {
			return err
		}
		for _, body := range bodies {
			st, err := ledger.ParseSettlementBody(body)
			if err != nil {
				return fmt.Errorf("a settlement is unreadable: %w", err)
			}
			if err := indexSettlement(ctx, t, st); err != nil {
				return err
			}
		}
		if len(bodies) < page {
			break
		}
	}
	return nil
}
