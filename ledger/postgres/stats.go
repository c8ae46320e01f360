package postgres

// Historical statistics. indexHand writes a hand's per-player rows
// (stat_hands) in the hand's transaction; the rollups per session
// (stat_sessions, stat_counters, stat_pairs) are written once, when the
// session's settlement is stored (indexSettlement), and rebuilt from
// stat_hands when a correction changes a settled session. An open
// evening's figures are read from its stat_hands rows (its session is in
// stat_open) and added to the rollups' by the queries below. So the
// rollups are never updated hand by hand, and their covering indexes stay
// compact for index-only scans.

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// handStat is one player's part of a hand: one stat_hands row.
type handStat struct {
	player   int64
	num, den int64
	outcome  int16 // 1 won, -1 lost, 0 nobody won or sat out
	present  bool  // in Result.Points (else only counted in Result.Stats)
	satOut   bool  // not playing: not present, or in none of Result.Parties
	party    int16 // index into Result.Parties, -1 for none
	keys     []string
	counts   []int64
}

// handStats extracts the players' parts of a hand from its result.
func handStats(res score.Result) []handStat {
	partyOf := map[int64]int16{}
	for i, party := range res.Parties {
		for _, id := range party {
			partyOf[id] = int16(i)
		}
	}
	out := make([]handStat, 0, len(res.Points))
	index := map[int64]int{}
	add := func(id int64, p score.Points) *handStat {
		hs := handStat{player: id, num: p.Num(), den: p.Den(), party: -1, present: true}
		if party, ok := partyOf[id]; ok {
			hs.party = party
		}
		hs.satOut = len(res.Parties) > 0 && hs.party < 0
		if !hs.satOut {
			switch {
			case slices.Contains(res.Winners, id):
				hs.outcome = 1
			case len(res.Winners) > 0:
				hs.outcome = -1
			}
		}
		index[id] = len(out)
		out = append(out, hs)
		return &out[len(out)-1]
	}
	for _, p := range res.Points {
		if _, ok := index[p.Player]; !ok {
			add(p.Player, p.Points)
		}
	}
	for _, st := range res.Stats {
		if st.Count == 0 {
			continue
		}
		var hs *handStat
		if i, ok := index[st.Player]; ok {
			hs = &out[i]
		} else {
			// A player counted but without points (the payer of a payout
			// who did not play the hand): his counters on a row of a hand
			// he did not play.
			hs = add(st.Player, score.Points{})
			hs.present, hs.satOut, hs.outcome = false, true, 0
		}
		if k := slices.Index(hs.keys, st.Key); k >= 0 {
			hs.counts[k] += st.Count
			continue
		}
		hs.keys = append(hs.keys, st.Key)
		hs.counts = append(hs.counts, st.Count)
	}
	return out
}

// indexHand adds the statistics of a stored hand: its stat_hands rows. It
// runs in the hand's transaction; date is the session's date. A hand of an
// open session marks the session open for the statistics (stat_open); a
// hand of a settled session (a correction) rebuilds the session's rollups.
// Indexing a hand twice fails (the primary key of stat_hands); a void hand
// (a correction annulled it) adds nothing.
func indexHand(ctx context.Context, tx pgx.Tx, clubID int64, h ledger.Hand, date string) error {
	live, err := writeStatHands(ctx, tx, clubID, h, date)
	if err != nil || live {
		return err
	}
	return rebuildSession(ctx, tx, clubID, h.SessionID)
}

// writeStatHands inserts hand h's stat_hands rows and, for an open
// session, its stat_open row. It reports whether the session's figures are
// read live (open, or listed in stat_open); if not, the caller owes the
// session's rollups a rebuild.
func writeStatHands(ctx context.Context, tx pgx.Tx, clubID int64, h ledger.Hand, date string) (bool, error) {
	b := &pgx.Batch{}
	live := queueStatHands(b, clubID, h, date)
	err := tx.SendBatch(ctx, b).Close()
	return *live, err
}

// queueStatHands adds writeStatHands' statements to a batch, so a caller
// can send them in the same round trip as its own. Once the batch has run,
// the returned flag tells whether the session's figures are read live.
func queueStatHands(b *pgx.Batch, clubID int64, h ledger.Hand, date string) *bool {
	live := new(bool)
	*live = true
	if h.Void {
		return live
	}
	stats := handStats(h.Result)
	if len(stats) == 0 {
		return live
	}
	n := len(stats)
	players, nums, dens := make([]int64, n), make([]int64, n), make([]int64, n)
	outcomes, parties := make([]int16, n), make([]int16, n)
	presents, satOuts := make([]bool, n), make([]bool, n)
	var ckPlayers, ckCounts []int64
	var ckKeys []string
	for i, hs := range stats {
		players[i], nums[i], dens[i] = hs.player, hs.num, hs.den
		outcomes[i], parties[i], presents[i], satOuts[i] = hs.outcome, hs.party, hs.present, hs.satOut
		for k, key := range hs.keys {
			ckPlayers, ckKeys, ckCounts = append(ckPlayers, hs.player), append(ckKeys, key), append(ckCounts, hs.counts[k])
		}
	}
	b.Queue(`
		INSERT INTO stat_hands (club_id, hand_id, player_id, session_id, table_id, game, date, number,
		                        num, den, outcome, present, sat_out, party, stat_keys, stat_counts)
		SELECT $1, $2, r.player, $3, $4, $5, $6::date, $7, r.num, r.den, r.outcome, r.present, r.sat_out, nullif(r.party, -1),
		       coalesce(k.keys, '{}'), coalesce(k.counts, '{}')
		FROM unnest($8::bigint[], $9::bigint[], $10::bigint[], $11::smallint[], $12::boolean[], $13::boolean[], $14::smallint[])
		     AS r(player, num, den, outcome, present, sat_out, party)
		LEFT JOIN LATERAL (
		    SELECT array_agg(s.key ORDER BY s.ord) AS keys, array_agg(s.count ORDER BY s.ord) AS counts
		    FROM unnest($15::bigint[], $16::text[], $17::bigint[]) WITH ORDINALITY AS s(player, key, count, ord)
		    WHERE s.player = r.player) k ON true`,
		clubID, h.ID, h.SessionID, h.TableID, h.Game, date, h.Number,
		players, nums, dens, outcomes, presents, satOuts, parties, ckPlayers, ckKeys, ckCounts)
	b.Queue(`
		WITH s AS (
		    SELECT closed_at IS NULL AS open FROM sessions WHERE club_id = $1 AND session_id = $2
		), o AS (
		    INSERT INTO stat_open (club_id, session_id, table_id, game, date)
		    SELECT $1, $2, $3, $4, $5::date FROM s WHERE s.open
		    ON CONFLICT DO NOTHING
		)
		SELECT coalesce((SELECT open FROM s), false)
		    OR EXISTS (SELECT 1 FROM stat_open WHERE club_id = $1 AND session_id = $2)`,
		clubID, h.SessionID, h.TableID, h.Game, date).QueryRow(func(row pgx.Row) error { return row.Scan(live) })
	return live
}

// unindexHand removes exactly what indexHand added for hand h: its
// stat_hands rows (as stored, whatever h's result says now), the session's
// stat_open row when no other hand of it is left, and, for a settled
// session, its contribution to the rollups (rebuilt from the hands left).
// A hand never indexed is a no-op.
func unindexHand(ctx context.Context, tx pgx.Tx, clubID int64, h ledger.Hand) error {
	var session int64
	err := tx.QueryRow(ctx, `
		WITH d AS (DELETE FROM stat_hands WHERE club_id = $1 AND hand_id = $2 RETURNING session_id)
		SELECT coalesce(max(session_id), 0) FROM d`, clubID, h.ID).Scan(&session)
	if err != nil || session == 0 {
		return err
	}
	var open, listed, left bool
	err = tx.QueryRow(ctx, `
		SELECT coalesce((SELECT closed_at IS NULL FROM sessions WHERE club_id = $1 AND session_id = $2), false),
		       EXISTS (SELECT 1 FROM stat_open WHERE club_id = $1 AND session_id = $2),
		       EXISTS (SELECT 1 FROM stat_hands WHERE club_id = $1 AND session_id = $2)`, clubID, session).Scan(&open, &listed, &left)
	switch {
	case err != nil:
		return err
	case open || listed:
		if !left {
			_, err = tx.Exec(ctx, `DELETE FROM stat_open WHERE club_id = $1 AND session_id = $2`, clubID, session)
		}
		return err
	}
	return rebuildSession(ctx, tx, clubID, session)
}

// indexSettlement replaces a session's money rows with settlement st (the
// latest version, as it is stored) and rolls up the session's hands.
func indexSettlement(ctx context.Context, tx pgx.Tx, clubID int64, st ledger.Settlement) error {
	n := len(st.Players)
	players, pointsCents, payoutCents, netCents := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for i, p := range st.Players {
		players[i], pointsCents[i], payoutCents[i], netCents[i] = p.Player, p.PointsCents, p.PayoutCents, p.NetCents
	}
	var closed bool
	b := &pgx.Batch{}
	b.Queue(`DELETE FROM stat_money WHERE club_id = $1 AND session_id = $2`, clubID, st.SessionID)
	b.Queue(`
		INSERT INTO stat_money (club_id, session_id, player_id, table_id, game, date, version, points_cents, payout_cents, net_cents)
		SELECT $1, $2, m.player, $3, $4, $5::date, $6, m.points, m.payout, m.net
		FROM unnest($7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[]) AS m(player, points, payout, net)`,
		clubID, st.SessionID, st.TableID, st.Game, st.Date, st.Version, players, pointsCents, payoutCents, netCents)
	b.Queue(`SELECT coalesce((SELECT closed_at IS NOT NULL FROM sessions WHERE club_id = $1 AND session_id = $2), false)`,
		clubID, st.SessionID).QueryRow(func(row pgx.Row) error { return row.Scan(&closed) })
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	if !closed {
		return nil // an open session's hands stay live until it closes
	}
	if err := rebuildSession(ctx, tx, clubID, st.SessionID); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `DELETE FROM stat_open WHERE club_id = $1 AND session_id = $2`, clubID, st.SessionID)
	return err
}

// --- rollups ---------------------------------------------------------------------

// handRow is one stat_hands row with the place of its hand.
type handRow struct {
	hand, session, table int64
	game, date           string
	number               int
	handStat
}

// handRowColumns are the stat_hands columns scanHandRow reads, of alias h.
const handRowColumns = `h.hand_id, h.session_id, h.table_id, h.game, to_char(h.date, 'YYYY-MM-DD'), h.number,
	h.player_id, h.num, h.den, h.outcome, h.present, h.sat_out, coalesce(h.party, -1), h.stat_keys, h.stat_counts`

func scanHandRow(r pgx.CollectableRow) (handRow, error) {
	var h handRow
	err := r.Scan(&h.hand, &h.session, &h.table, &h.game, &h.date, &h.number,
		&h.player, &h.num, &h.den, &h.outcome, &h.present, &h.satOut, &h.party, &h.keys, &h.counts)
	return h, err
}

// sessionRoll is one player's rollup of one session (a stat_sessions row).
type sessionRoll struct {
	session, table, player int64
	game, date             string
	hands, won, lost       int
	satOut                 int
	points                 score.Points
	streak                 ledger.StreakSummary
}

// counterRoll is one player's count of one key in one session.
type counterRoll struct {
	session, table, player int64
	game, date, key        string
	count                  int64
}

// pairRoll is a pair's rollup of one session, from player's side.
type pairRoll struct {
	session, table, player, other int64
	game, date                    string
	hands, partner, partnerWon    int
	partnerLost, against          int
	wonAgainst, lostAgainst       int
	points, otherPoints           score.Points
}

// rollup is the rollups of some sessions.
type rollup struct {
	sessions []sessionRoll
	counters []counterRoll
	pairs    []pairRoll
}

// rollUp computes the rollups of hand rows given in session and hand order.
func rollUp(rows []handRow) rollup {
	type pk struct{ session, player, other int64 }
	type ck struct {
		session, player int64
		key             string
	}
	sessions := map[pk]*sessionRoll{}
	counters := map[ck]*counterRoll{}
	pairs := map[pk]*pairRoll{}
	var out rollup
	for start := 0; start < len(rows); {
		end := start + 1
		for end < len(rows) && rows[end].hand == rows[start].hand {
			end++
		}
		hand := rows[start:end]
		for _, x := range hand {
			s := sessions[pk{x.session, x.player, 0}]
			if s == nil {
				s = &sessionRoll{session: x.session, table: x.table, player: x.player, game: x.game, date: x.date}
				sessions[pk{x.session, x.player, 0}] = s
			}
			switch {
			case !x.satOut:
				s.hands++
			case x.present:
				s.satOut++
			}
			s.points = s.points.Add(score.Frac(x.num, x.den))
			switch x.outcome {
			case 1:
				s.won++
			case -1:
				s.lost++
			}
			s.streak = s.streak.Then(ledger.StreakOf([]int{int(x.outcome)}))
			for k, key := range x.keys {
				c := counters[ck{x.session, x.player, key}]
				if c == nil {
					c = &counterRoll{session: x.session, table: x.table, player: x.player, game: x.game, date: x.date, key: key}
					counters[ck{x.session, x.player, key}] = c
				}
				c.count += x.counts[k]
			}
			if x.satOut {
				continue
			}
			for _, y := range hand {
				if y.satOut || y.player == x.player {
					continue
				}
				p := pairs[pk{x.session, x.player, y.player}]
				if p == nil {
					p = &pairRoll{session: x.session, table: x.table, player: x.player, other: y.player, game: x.game, date: x.date}
					pairs[pk{x.session, x.player, y.player}] = p
				}
				p.hands++
				p.points = p.points.Add(score.Frac(x.num, x.den))
				p.otherPoints = p.otherPoints.Add(score.Frac(y.num, y.den))
				switch {
				case x.party >= 0 && x.party == y.party:
					p.partner++
					if x.outcome == 1 && y.outcome == 1 {
						p.partnerWon++
					}
					if x.outcome == -1 && y.outcome == -1 {
						p.partnerLost++
					}
				default:
					p.against++
					if x.outcome == 1 && y.outcome != 1 {
						p.wonAgainst++
					}
					if y.outcome == 1 && x.outcome != 1 {
						p.lostAgainst++
					}
				}
			}
		}
		start = end
	}
	for _, s := range sessions {
		out.sessions = append(out.sessions, *s)
	}
	for _, c := range counters {
		out.counters = append(out.counters, *c)
	}
	for _, p := range pairs {
		out.pairs = append(out.pairs, *p)
	}
	slices.SortFunc(out.sessions, func(a, b sessionRoll) int {
		return cmp.Or(strings.Compare(a.date, b.date), cmp.Compare(a.session, b.session), cmp.Compare(a.player, b.player))
	})
	slices.SortFunc(out.counters, func(a, b counterRoll) int {
		return cmp.Or(cmp.Compare(a.session, b.session), cmp.Compare(a.player, b.player), strings.Compare(a.key, b.key))
	})
	slices.SortFunc(out.pairs, func(a, b pairRoll) int {
		return cmp.Or(cmp.Compare(a.session, b.session), cmp.Compare(a.player, b.player), cmp.Compare(a.other, b.other))
	})
	return out
}

// rebuildSession replaces a session's rollups with those of its stat_hands
// rows.
func rebuildSession(ctx context.Context, tx pgx.Tx, clubID, sessionID int64) error {
	rows, err := tx.Query(ctx, `SELECT `+handRowColumns+` FROM stat_hands h
		WHERE h.club_id = $1 AND h.session_id = $2 ORDER BY h.number, h.hand_id, h.player_id`, clubID, sessionID)
	if err != nil {
		return err
	}
	hands, err := pgx.CollectRows(rows, scanHandRow)
	if err != nil {
		return err
	}
	r := rollUp(hands)
	b := &pgx.Batch{}
	for _, table := range []string{"stat_sessions", "stat_counters", "stat_pairs"} {
		b.Queue(`DELETE FROM `+table+` WHERE club_id = $1 AND session_id = $2`, clubID, sessionID)
	}
	if len(r.sessions) > 0 {
		n := len(r.sessions)
		players, tables, nums, dens := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		games, dates := make([]string, n), make([]string, n)
		cols := make([][]int32, 10)
		for i := range cols {
			cols[i] = make([]int32, n)
		}
		for i, s := range r.sessions {
			players[i], tables[i], games[i], dates[i] = s.player, s.table, s.game, s.date
			nums[i], dens[i] = s.points.Num(), s.points.Den()
			for k, v := range []int{s.hands, s.won, s.lost, s.satOut, s.streak.WinFirst, s.streak.LossFirst,
				s.streak.WinLast, s.streak.LossLast, s.streak.WinBest, s.streak.LossBest} {
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
	if len(r.counters) > 0 {
		n := len(r.counters)
		players, tables, counts := make([]int64, n), make([]int64, n), make([]int64, n)
		games, dates, keys := make([]string, n), make([]string, n), make([]string, n)
		for i, c := range r.counters {
			players[i], tables[i], counts[i], games[i], dates[i], keys[i] = c.player, c.table, c.count, c.game, c.date, c.key
		}
		b.Queue(`
			INSERT INTO stat_counters (club_id, session_id, player_id, key, table_id, game, date, count)
			SELECT $1, $2, c.player, c.key, c.table_id, c.game, c.date::date, c.count
			FROM unnest($3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::bigint[])
			     AS c(player, key, table_id, game, date, count)`,
			clubID, sessionID, players, keys, tables, games, dates, counts)
	}
	if len(r.pairs) > 0 {
		n := len(r.pairs)
		players, others, tables := make([]int64, n), make([]int64, n), make([]int64, n)
		nums, dens, onums, odens := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		games, dates := make([]string, n), make([]string, n)
		cols := make([][]int32, 7)
		for i := range cols {
			cols[i] = make([]int32, n)
		}
		for i, p := range r.pairs {
			players[i], others[i], tables[i], games[i], dates[i] = p.player, p.other, p.table, p.game, p.date
			nums[i], dens[i], onums[i], odens[i] = p.points.Num(), p.points.Den(), p.otherPoints.Num(), p.otherPoints.Den()
			for k, v := range []int{p.hands, p.partner, p.partnerWon, p.partnerLost, p.against, p.wonAgainst, p.lostAgainst} {
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
	return tx.SendBatch(ctx, b).Close()
}

// RebuildStats recomputes a club's statistics from its hands (their
// current revisions) and its sessions' latest settlements, in one
// transaction: for hands recorded before the statistics existed.
func (s *Store) RebuildStats(ctx context.Context, clubID int64) error {
	return s.tx(ctx, func(tx pgx.Tx) error { return rebuildStats(ctx, tx, clubID) })
}

func rebuildStats(ctx context.Context, tx pgx.Tx, clubID int64) error {
	for _, table := range []string{"stat_hands", "stat_open", "stat_sessions", "stat_counters", "stat_pairs", "stat_money"} {
		if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE club_id = $1`, clubID); err != nil {
			return err
		}
	}
	rows, err := tx.Query(ctx, `SELECT session_id, to_char(date, 'YYYY-MM-DD') FROM sessions WHERE club_id = $1`, clubID)
	if err != nil {
		return err
	}
	dates := map[int64]string{}
	var id int64
	var date string
	if _, err := pgx.ForEachRow(rows, []any{&id, &date}, func() error { dates[id] = date; return nil }); err != nil {
		return err
	}
	// Hands in pages of hand ids, so a big club is never held in memory.
	const page = 1000
	var after int64
	for {
		rows, err := tx.Query(ctx, selectHand+` WHERE h.club_id = $1 AND h.hand_id > $2 ORDER BY h.hand_id LIMIT $3`, clubID, after, page)
		if err != nil {
			return err
		}
		hands, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) { return scanHand(r) })
		if err != nil {
			return err
		}
		for _, h := range hands {
			// The rollups of settled sessions are built once, below, from
			// their latest settlements, not again for every hand.
			if _, err := writeStatHands(ctx, tx, clubID, h, dates[h.SessionID]); err != nil {
				return fmt.Errorf("statistics of hand %d: %w", h.ID, err)
			}
		}
		if len(hands) < page {
			break
		}
		after = hands[len(hands)-1].ID
	}
	rows, err = tx.Query(ctx, `
		SELECT DISTINCT ON (session_id) body FROM settlements WHERE club_id = $1
		ORDER BY session_id, version DESC`, clubID)
	if err != nil {
		return err
	}
	bodies, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return err
	}
	for _, body := range bodies {
		var st ledger.Settlement
		if err := json.Unmarshal(body, &st); err != nil {
			return fmt.Errorf("a settlement is unreadable: %w", err)
		}
		if err := indexSettlement(ctx, tx, clubID, st); err != nil {
			return err
		}
	}
	return nil
}

// --- queries -------------------------------------------------------------------

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

// queueLive queues the read of the open evenings' hands in the filter
// (only those where player has a row, when player is not 0) and rolls
// them up into *into.
func queueLive(b *pgx.Batch, clubID, player int64, f ledger.StatsFilter, into *rollup) {
	args := []any{clubID}
	where := filterSQL(f, "o.", &args)
	if player != 0 {
		args = append(args, player)
		where += fmt.Sprintf(` AND EXISTS (SELECT 1 FROM stat_hands p
			WHERE p.club_id = o.club_id AND p.session_id = o.session_id AND p.player_id = $%d)`, len(args))
	}
	b.Queue(`SELECT `+handRowColumns+`
		FROM stat_open o JOIN stat_hands h ON h.club_id = o.club_id AND h.session_id = o.session_id
		WHERE o.club_id = $1`+where+`
		ORDER BY h.session_id, h.number, h.hand_id, h.player_id`, args...).Query(func(rows pgx.Rows) error {
		hands, err := pgx.CollectRows(rows, scanHandRow)
		*into = rollUp(hands)
		return err
	})
}

// checkStatsFilter validates the filter and that its table is the club's.
func (s *Store) checkStatsFilter(ctx context.Context, a ledger.Actor, f ledger.StatsFilter) error {
	if err := f.Check(); err != nil {
		return err
	}
	if f.TableID != 0 {
		if _, err := s.FindTable(ctx, a, f.TableID); err != nil {
			return err
		}
	}
	return nil
}

// playerName returns a player's name, ENOTFOUND for another club's.
func (s *Store) playerName(ctx context.Context, clubID, id int64) (string, error) {
	var name string
	err := s.pool.QueryRow(ctx, `SELECT name FROM players WHERE club_id = $1 AND player_id = $2`, clubID, id).Scan(&name)
	return name, notFound(err, "player %d", id)
}

// playerNames returns the names of players of the club.
func (s *Store) playerNames(ctx context.Context, clubID int64, ids []int64) (map[int64]string, error) {
	names := map[int64]string{}
	if len(ids) == 0 {
		return names, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT player_id, name FROM players WHERE club_id = $1 AND player_id = ANY($2)`, clubID, ids)
	if err != nil {
		return nil, err
	}
	var id int64
	var name string
	_, err = pgx.ForEachRow(rows, []any{&id, &name}, func() error { names[id] = name; return nil })
	return names, err
}

// PlayerStats returns a player's figures over the filter.
func (s *Store) PlayerStats(ctx context.Context, a ledger.Actor, playerID int64, f ledger.StatsFilter) (ledger.PlayerStats, error) {
	ps := ledger.PlayerStats{Player: playerID, Filter: f, Points: score.Int(0), PointsPerHand: score.Int(0), Games: []ledger.GameStats{}}
	if err := s.checkStatsFilter(ctx, a, f); err != nil {
		return ps, err
	}
	var err error
	if ps.Name, err = s.playerName(ctx, a.ClubID, playerID); err != nil {
		return ps, err
	}
	args := []any{a.ClubID, playerID}
	where := `WHERE club_id = $1 AND player_id = $2` + filterSQL(f, "", &args)
	var sessions []sessionRoll
	var live rollup
	money := map[int64]int64{}
	counters := map[string]map[string]int64{}
	count := func(game, key string, n int64) {
		if counters[game] == nil {
			counters[game] = map[string]int64{}
		}
		counters[game][key] += n
	}
	b := &pgx.Batch{}
	b.Queue(`
		SELECT session_id, table_id, game, to_char(date, 'YYYY-MM-DD'), hands, won, lost, sat_out, num, den,
		       win_first, loss_first, win_last, loss_last, win_best, loss_best
		FROM stat_sessions `+where+` ORDER BY date, session_id`, args...).Query(func(rows pgx.Rows) error {
		var r sessionRoll
		var num, den int64
		var st ledger.StreakSummary
		_, err := pgx.ForEachRow(rows, []any{&r.session, &r.table, &r.game, &r.date, &r.hands, &r.won, &r.lost, &r.satOut,
			&num, &den, &st.WinFirst, &st.LossFirst, &st.WinLast, &st.LossLast, &st.WinBest, &st.LossBest}, func() error {
			r.points, r.streak = score.Frac(num, den), st
			r.streak.Decided = r.won + r.lost
			sessions = append(sessions, r)
			return nil
		})
		return err
	})
	b.Queue(`SELECT session_id, net_cents FROM stat_money `+where, args...).Query(func(rows pgx.Rows) error {
		var id, net int64
		_, err := pgx.ForEachRow(rows, []any{&id, &net}, func() error { money[id] = net; return nil })
		return err
	})
	b.Queue(`SELECT game, key, sum(count)::bigint FROM stat_counters `+where+` GROUP BY game, key`, args...).Query(func(rows pgx.Rows) error {
		var game, key string
		var n int64
		_, err := pgx.ForEachRow(rows, []any{&game, &key, &n}, func() error { count(game, key, n); return nil })
		return err
	})
	queueLive(b, a.ClubID, playerID, f, &live)
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return ps, mapError(err)
	}
	for _, r := range live.sessions {
		if r.player == playerID {
			sessions = append(sessions, r)
		}
	}
	for _, c := range live.counters {
		if c.player == playerID {
			count(c.game, c.key, c.count)
		}
	}
	slices.SortStableFunc(sessions, func(x, y sessionRoll) int {
		return cmp.Or(strings.Compare(x.date, y.date), cmp.Compare(x.session, y.session))
	})

	games := map[string]*ledger.GameStats{}
	game := func(name string) *ledger.GameStats {
		if games[name] == nil {
			games[name] = &ledger.GameStats{Game: name, Points: score.Int(0), Counters: map[string]int64{}}
		}
		return games[name]
	}
	var streak ledger.StreakSummary
	for _, r := range sessions {
		ps.Hands += r.hands
		ps.HandsWon += r.won
		ps.HandsLost += r.lost
		ps.HandsSatOut += r.satOut
		ps.Points = ps.Points.Add(r.points)
		streak = streak.Then(r.streak)
		g := game(r.game)
		g.Hands += r.hands
		g.HandsWon += r.won
		g.Points = g.Points.Add(r.points)
		if r.hands == 0 {
			continue
		}
		ps.Sessions++
		g.Sessions++
		ev := ledger.Evening{SessionID: r.session, TableID: r.table, Game: r.game, Date: r.date, Hands: r.hands, HandsWon: r.won, Points: r.points}
		if net, ok := money[r.session]; ok {
			ev.NetCents = &net
		}
		if ps.BestEvening == nil || r.points.Cmp(ps.BestEvening.Points) > 0 {
			best := ev
			ps.BestEvening = &best
		}
		if ps.WorstEvening == nil || r.points.Cmp(ps.WorstEvening.Points) < 0 {
			worst := ev
			ps.WorstEvening = &worst
		}
	}
	for name, c := range counters {
		game(name).Counters = c
	}
	for _, g := range games {
		g.WinRatePermille = ledger.PermilleOf(g.HandsWon, g.Hands)
		ps.Games = append(ps.Games, *g)
	}
	slices.SortFunc(ps.Games, func(x, y ledger.GameStats) int { return strings.Compare(x.Game, y.Game) })
	ps.WinRatePermille = ledger.PermilleOf(ps.HandsWon, ps.Hands)
	ps.PointsPerHand = ledger.PerHand(ps.Points, ps.Hands)
	ps.LongestWinningStreak, ps.LongestLosingStreak = streak.WinBest, streak.LossBest
	for _, net := range money {
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

// pairsOf reads the rollups and the open evenings' pairs of player (with
// other, when other is not 0) over the filter.
func (s *Store) pairsOf(ctx context.Context, clubID, player, other int64, f ledger.StatsFilter) ([]pairRoll, error) {
	args := []any{clubID, player}
	where := `WHERE club_id = $1 AND player_id = $2`
	if other != 0 {
		args = append(args, other)
		where += ` AND other_id = $3`
	}
	where += filterSQL(f, "", &args)
	var pairs []pairRoll
	var live rollup
	b := &pgx.Batch{}
	b.Queue(`
		SELECT session_id, other_id, hands, partner_hands, partner_won, partner_lost, against_hands, won_against, lost_against,
		       num, den, other_num, other_den
		FROM stat_pairs `+where, args...).Query(func(rows pgx.Rows) error {
		var p pairRoll
		var num, den, onum, oden int64
		_, err := pgx.ForEachRow(rows, []any{&p.session, &p.other, &p.hands, &p.partner, &p.partnerWon, &p.partnerLost, &p.against,
			&p.wonAgainst, &p.lostAgainst, &num, &den, &onum, &oden}, func() error {
			p.player, p.points, p.otherPoints = player, score.Frac(num, den), score.Frac(onum, oden)
			pairs = append(pairs, p)
			return nil
		})
		return err
	})
	queueLive(b, clubID, player, f, &live)
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, err
	}
	for _, p := range live.pairs {
		if p.player == player && (other == 0 || p.other == other) {
			pairs = append(pairs, p)
		}
	}
	return pairs, nil
}

// PartnerStats returns a player's partner table: every player he played a
// hand with, most hands as partners first.
func (s *Store) PartnerStats(ctx context.Context, a ledger.Actor, playerID int64, f ledger.StatsFilter) (ledger.Partners, error) {
	out := ledger.Partners{Player: playerID, Filter: f, Partners: []ledger.Partner{}}
	if err := s.checkStatsFilter(ctx, a, f); err != nil {
		return out, err
	}
	var err error
	if out.Name, err = s.playerName(ctx, a.ClubID, playerID); err != nil {
		return out, err
	}
	pairs, err := s.pairsOf(ctx, a.ClubID, playerID, 0, f)
	if err != nil {
		return out, mapError(err)
	}
	byOther := map[int64]*ledger.Partner{}
	var ids []int64
	for _, p := range pairs {
		x := byOther[p.other]
		if x == nil {
			x = &ledger.Partner{Player: p.other}
			byOther[p.other] = x
			ids = append(ids, p.other)
		}
		x.Hands += p.hands
		x.PartnerHands += p.partner
		x.PartnerWon += p.partnerWon
		x.PartnerLost += p.partnerLost
		x.AgainstHands += p.against
		x.WonAgainst += p.wonAgainst
		x.LostAgainst += p.lostAgainst
	}
	names, err := s.playerNames(ctx, a.ClubID, ids)
	if err != nil {
		return out, mapError(err)
	}
	for _, x := range byOther {
		x.Name = names[x.Player]
		x.PartnerWinRatePermille = ledger.PermilleOf(x.PartnerWon, x.PartnerHands)
		out.Partners = append(out.Partners, *x)
	}
	slices.SortFunc(out.Partners, func(x, y ledger.Partner) int {
		return cmp.Or(cmp.Compare(y.PartnerHands, x.PartnerHands), cmp.Compare(y.Hands, x.Hands),
			strings.Compare(x.Name, y.Name), cmp.Compare(x.Player, y.Player))
	})
	return out, nil
}

// HeadToHead compares two players over the hands both played.
func (s *Store) HeadToHead(ctx context.Context, a ledger.Actor, playerID, otherID int64, f ledger.StatsFilter) (ledger.HeadToHead, error) {
	h := ledger.HeadToHead{Player: playerID, Other: otherID, Filter: f, Points: score.Int(0), OtherPoints: score.Int(0)}
	if err := s.checkStatsFilter(ctx, a, f); err != nil {
		return h, err
	}
	if playerID == otherID {
		return h, ledger.Invalid("otherID", "must be another player than %d", playerID)
	}
	var err error
	if h.Name, err = s.playerName(ctx, a.ClubID, playerID); err != nil {
		return h, err
	}
	if h.OtherName, err = s.playerName(ctx, a.ClubID, otherID); err != nil {
		return h, err
	}
	pairs, err := s.pairsOf(ctx, a.ClubID, playerID, otherID, f)
	if err != nil {
		return h, mapError(err)
	}
	for _, p := range pairs {
		h.Sessions++
		h.Hands += p.hands
		h.Partner.Hands += p.partner
		h.Partner.Won += p.partnerWon
		h.Partner.Lost += p.partnerLost
		h.Against.Hands += p.against
		h.Against.Won += p.wonAgainst
		h.Against.Lost += p.lostAgainst
		h.Points = h.Points.Add(p.points)
		h.OtherPoints = h.OtherPoints.Add(p.otherPoints)
	}
	return h, nil
}

// Leaderboard ranks the club's players over the filter by one order.
// minHands leaves out players with fewer hands played; limit cuts the list.
func (s *Store) Leaderboard(ctx context.Context, a ledger.Actor, by string, f ledger.StatsFilter, minHands, limit int) (ledger.Leaderboard, error) {
	lb := ledger.Leaderboard{By: by, Filter: f, MinHands: minHands, Entries: []ledger.LeaderboardEntry{}}
	if !slices.Contains(ledger.LeaderboardOrders, by) {
		return lb, ledger.Invalid("by", "must be one of %s, got %q", strings.Join(ledger.LeaderboardOrders, ", "), by)
	}
	if err := s.checkStatsFilter(ctx, a, f); err != nil {
		return lb, err
	}
	entries := map[int64]*ledger.LeaderboardEntry{}
	entry := func(id int64) *ledger.LeaderboardEntry {
		e := entries[id]
		if e == nil {
			e = &ledger.LeaderboardEntry{Player: id, Points: score.Int(0), PointsPerHand: score.Int(0)}
			entries[id] = e
		}
		return e
	}
	pointsArgs := []any{a.ClubID}
	pointsWhere := filterSQL(f, "", &pointsArgs)
	moneyArgs := []any{a.ClubID}
	moneyWhere := filterSQL(f, "", &moneyArgs)
	var live rollup
	b := &pgx.Batch{}
	// Numerators are summed per denominator in SQL; the few sums per
	// player are added exactly here.
	b.Queue(`
		SELECT player_id, den, sum(num)::bigint, sum(hands)::int, sum(won)::int, (count(*) FILTER (WHERE hands > 0))::int
		FROM stat_sessions WHERE club_id = $1`+pointsWhere+`
		GROUP BY player_id, den`, pointsArgs...).Query(func(rows pgx.Rows) error {
		var id, den, num int64
		var hands, won, sessions int
		_, err := pgx.ForEachRow(rows, []any{&id, &den, &num, &hands, &won, &sessions}, func() error {
			e := entry(id)
			e.Points, e.Hands, e.HandsWon, e.Sessions = e.Points.Add(score.Frac(num, den)), e.Hands+hands, e.HandsWon+won, e.Sessions+sessions
			return nil
		})
		return err
	})
	b.Queue(`SELECT player_id, sum(net_cents)::bigint FROM stat_money WHERE club_id = $1`+moneyWhere+` GROUP BY player_id`,
		moneyArgs...).Query(func(rows pgx.Rows) error {
		var id, net int64
		_, err := pgx.ForEachRow(rows, []any{&id, &net}, func() error { entry(id).NetCents = net; return nil })
		return err
	})
	queueLive(b, a.ClubID, 0, f, &live)
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return lb, mapError(err)
	}
	for _, r := range live.sessions {
		e := entry(r.player)
		e.Points, e.Hands, e.HandsWon = e.Points.Add(r.points), e.Hands+r.hands, e.HandsWon+r.won
		if r.hands > 0 {
			e.Sessions++
		}
	}
	ids := make([]int64, 0, len(entries))
	for id := range entries {
		ids = append(ids, id)
	}
	names, err := s.playerNames(ctx, a.ClubID, ids)
	if err != nil {
		return lb, mapError(err)
	}
	for _, e := range entries {
		if e.Hands < minHands {
			continue
		}
		e.Name = names[e.Player]
		e.WinRatePermille = ledger.PermilleOf(e.HandsWon, e.Hands)
		e.PointsPerHand = ledger.PerHand(e.Points, e.Hands)
		lb.Entries = append(lb.Entries, *e)
	}
	ledger.SortLeaderboard(by, lb.Entries)
	if limit > 0 && len(lb.Entries) > limit {
		lb.Entries = lb.Entries[:limit]
	}
	return lb, nil
}

// PointsSeries returns each player's points by session date with the
// running total, for the given players (all the club's players with hands
// in the filter when none are given).
func (s *Store) PointsSeries(ctx context.Context, a ledger.Actor, players []int64, f ledger.StatsFilter) ([]ledger.Series, error) {
	if err := s.checkStatsFilter(ctx, a, f); err != nil {
		return nil, err
	}
	for _, id := range players {
		if _, err := s.playerName(ctx, a.ClubID, id); err != nil {
			return nil, err
		}
	}
	type day struct {
		points score.Points
		hands  int
	}
	days := map[int64]map[string]*day{}
	add := func(player int64, date string, pts score.Points, hands int) {
		if len(players) > 0 && !slices.Contains(players, player) {
			return
		}
		if days[player] == nil {
			days[player] = map[string]*day{}
		}
		d := days[player][date]
		if d == nil {
			d = &day{}
			days[player][date] = d
		}
		d.points, d.hands = d.points.Add(pts), d.hands+hands
	}
	for _, id := range players {
		days[id] = map[string]*day{}
	}
	args := []any{a.ClubID}
	where := ""
	if len(players) > 0 {
		args = append(args, players)
		where = fmt.Sprintf(" AND player_id = ANY($%d)", len(args))
	}
	where += filterSQL(f, "", &args)
	var live rollup
	b := &pgx.Batch{}
	b.Queue(`
		SELECT player_id, to_char(date, 'YYYY-MM-DD'), den, sum(num)::bigint, sum(hands)::int
		FROM stat_sessions WHERE club_id = $1`+where+`
		GROUP BY player_id, date, den`, args...).Query(func(rows pgx.Rows) error {
		var id, den, num int64
		var date string
		var hands int
		_, err := pgx.ForEachRow(rows, []any{&id, &date, &den, &num, &hands}, func() error {
			add(id, date, score.Frac(num, den), hands)
			return nil
		})
		return err
	})
	queueLive(b, a.ClubID, 0, f, &live)
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, mapError(err)
	}
	for _, r := range live.sessions {
		add(r.player, r.date, r.points, r.hands)
	}
	ids := make([]int64, 0, len(days))
	for id := range days {
		ids = append(ids, id)
	}
	names, err := s.playerNames(ctx, a.ClubID, ids)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]ledger.Series, 0, len(days))
	for id, byDate := range days {
		sr := ledger.Series{Player: id, Name: names[id], Points: []ledger.SeriesPoint{}}
		dates := make([]string, 0, len(byDate))
		for date := range byDate {
			dates = append(dates, date)
		}
		slices.Sort(dates)
		var cum score.Points
		for _, date := range dates {
			d := byDate[date]
			cum = cum.Add(d.points)
			sr.Points = append(sr.Points, ledger.SeriesPoint{Date: date, Hands: d.hands, Points: d.points, Cumulative: cum})
		}
		out = append(out, sr)
	}
	slices.SortFunc(out, func(x, y ledger.Series) int {
		return cmp.Or(strings.Compare(x.Name, y.Name), cmp.Compare(x.Player, y.Player))
	})
	return out, nil
}
