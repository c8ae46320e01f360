package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A check is one invariant of the ledger: a query that returns a row
// describing the first breach, or no row when the ledger keeps it.
type check struct {
	name  string
	query string
	// zeroSum marks a query that takes the zero-sum games as $1.
	zeroSum bool
}

// checks are the ledger's invariants, in the order Verify tries them. $1 is
// the list of zero-sum games.
var checks = []check{
	{name: "every entry belongs to a hand", query: `
		SELECT format('entry %s names hand %s, which does not exist', e.entry_id, e.hand_id)
		FROM entries e
		WHERE NOT EXISTS (SELECT 1 FROM hands h WHERE h.club_id = e.club_id AND h.hand_id = e.hand_id)
		LIMIT 1`},
	{name: "every hand's entries are the points of its result", query: `
		WITH r AS (
			SELECT h.club_id, h.hand_id, (p->>'player')::bigint AS player, p->>'points' AS points
			FROM hands h
			LEFT JOIN LATERAL (SELECT result FROM hand_revisions r WHERE r.club_id = h.club_id AND r.hand_id = h.hand_id
			                   ORDER BY r.revision DESC LIMIT 1) rev ON true,
			     jsonb_array_elements(coalesce(rev.result, h.result)->'points') p
		), e AS (
			SELECT club_id, hand_id, player, CASE WHEN t[2] = 1 THEN t[1]::text ELSE t[1] || '/' || t[2] END AS points
			FROM (SELECT club_id, hand_id, player_id AS player, rat_sum(num, den) AS t
			      FROM entries GROUP BY club_id, hand_id, player_id) s
		)
		SELECT format('hand %s, player %s: the result says %s, the entries say %s',
		              coalesce(r.hand_id, e.hand_id), coalesce(r.player, e.player),
		              coalesce(r.points, 'nothing'), coalesce(e.points, 'nothing'))
		FROM r FULL JOIN e USING (club_id, hand_id, player)
		WHERE r.points IS DISTINCT FROM e.points
		LIMIT 1`},
	{name: "every zero-sum hand sums to zero", query: `
		SELECT format('hand %s (%s, table %s, number %s) sums to %s/%s, not 0',
		              h.hand_id, h.game, h.table_id, h.number, s.total[1], s.total[2])
		FROM hands h
		JOIN LATERAL (SELECT rat_sum(e.num, e.den) AS total FROM entries e
		              WHERE e.club_id = h.club_id AND e.hand_id = h.hand_id) s ON true
		WHERE h.game = ANY($1) AND s.total[1] <> 0
		LIMIT 1`, zeroSum: true},
	{name: "every table total equals the sum of its entries", query: `
		WITH sums AS (
			SELECT club_id, table_id, player_id, rat_sum(num, den) AS total, count(DISTINCT hand_id) AS n
			FROM entries GROUP BY club_id, table_id, player_id
		)
		SELECT format('table %s, player %s: the total says %s/%s over %s hands, the entries sum to %s/%s over %s',
		              coalesce(t.table_id, s.table_id), coalesce(t.player_id, s.player_id),
		              t.num, t.den, t.hands, s.total[1], s.total[2], s.n)
		FROM table_totals t FULL JOIN sums s USING (club_id, table_id, player_id)
		WHERE t.num IS DISTINCT FROM s.total[1] OR t.den IS DISTINCT FROM s.total[2] OR t.hands IS DISTINCT FROM s.n
		LIMIT 1`},
	{name: "every session total equals the sum of its entries", query: `
		WITH sums AS (
			SELECT club_id, session_id, player_id, rat_sum(num, den) AS total, count(DISTINCT hand_id) AS n
			FROM entries GROUP BY club_id, session_id, player_id
		)
		SELECT format('session %s, player %s: the total says %s/%s over %s hands, the entries sum to %s/%s over %s',
		              coalesce(t.session_id, s.session_id), coalesce(t.player_id, s.player_id),
		              t.num, t.den, t.hands, s.total[1], s.total[2], s.n)
		FROM session_totals t FULL JOIN sums s USING (club_id, session_id, player_id)
		WHERE t.num IS DISTINCT FROM s.total[1] OR t.den IS DISTINCT FROM s.total[2] OR t.hands IS DISTINCT FROM s.n
		LIMIT 1`},
	attendanceCheck("table_totals", "table_id"),
	attendanceCheck("session_totals", "session_id"),
	{name: "hand numbers of every table run 1, 2, 3 … without a gap", query: `
		SELECT format('table %s has %s hands numbered up to %s and counts %s', t.table_id, coalesce(h.n, 0), coalesce(h.top, 0), t.hands)
		FROM tables t
		LEFT JOIN (SELECT club_id, table_id, count(*) AS n, max(number) AS top FROM hands GROUP BY club_id, table_id) h
		       USING (club_id, table_id)
		WHERE coalesce(h.n, 0) <> t.hands OR coalesce(h.top, 0) <> t.hands
		LIMIT 1`},
	{name: "every revision chains to the one before it", query: `
		SELECT format('table %s, hand %s, revision %s: %s', r.table_id, r.number, r.revision,
		              CASE WHEN r.hash IS DISTINCT FROM revision_digest(r) THEN 'its content does not match its hash'
		                   ELSE 'it does not chain to the revision before it' END)
		FROM hand_revisions r
		JOIN hands h ON h.club_id = r.club_id AND h.hand_id = r.hand_id
		LEFT JOIN hand_revisions p ON p.club_id = r.club_id AND p.hand_id = r.hand_id AND p.revision = r.revision - 1
		WHERE r.hash IS DISTINCT FROM revision_digest(r)
		   OR r.prev_hash IS DISTINCT FROM (CASE WHEN r.revision = 2 THEN h.hash ELSE p.hash END)
		LIMIT 1`},
	{name: "the tamper-evidence chain is intact", query: `
		SELECT format('table %s, hand %s: %s', h.table_id, h.number,
		              CASE WHEN h.hash IS DISTINCT FROM hand_digest(h) THEN 'its content does not match its hash'
		                   ELSE 'it does not chain to the previous hand''s hash' END)
		FROM hands h
		LEFT JOIN hands p ON p.club_id = h.club_id AND p.table_id = h.table_id AND p.number = h.number - 1
		WHERE h.hash IS DISTINCT FROM hand_digest(h) OR h.prev_hash IS DISTINCT FROM p.hash
		LIMIT 1`},
	// What a player settles in the current version (settle_cents; in a body
	// written before it existed, the net, or only its minus at a
	// losers_to_kitty table) is what he was paid minus what he paid, on any
	// version's transfers, plus what the current version's unpaid transfers
	// still give him.
	{name: "payments and open transfers settle every current settlement", query: `
		WITH cur AS (
			SELECT DISTINCT ON (club_id, session_id) club_id, session_id, settlement_id, version, body
			FROM settlements ORDER BY club_id, session_id, version DESC
		), due AS (
			SELECT c.club_id, c.session_id, c.version, (p->>'player')::bigint AS player,
			       coalesce((p->>'settle_cents')::bigint,
			                CASE WHEN c.body->>'settle_mode' = 'losers_to_kitty' THEN least((p->>'net_cents')::bigint, 0)
			                     ELSE (p->>'net_cents')::bigint END) AS settle
			FROM cur c, jsonb_array_elements(c.body->'players') p
		), moved AS (
			SELECT t.club_id, t.session_id, x.player,
			       sum(CASE WHEN x.player = t.to_player THEN t.cents ELSE -t.cents END) AS cents
			FROM transfers t
			LEFT JOIN transfer_payments pay ON pay.club_id = t.club_id AND pay.transfer_id = t.transfer_id
			JOIN cur c ON c.club_id = t.club_id AND c.session_id = t.session_id
			CROSS JOIN LATERAL (VALUES (t.from_player), (t.to_player)) x(player)
			WHERE x.player IS NOT NULL AND (pay.transfer_id IS NOT NULL OR t.settlement_id = c.settlement_id)
			GROUP BY t.club_id, t.session_id, x.player
		)
		SELECT format('session %s, settlement version %s, player %s: settles %s cents, but payments and open transfers give %s',
		              d.session_id, d.version, d.player, d.settle, coalesce(m.cents, 0))
		FROM due d LEFT JOIN moved m USING (club_id, session_id, player)
		WHERE d.settle <> coalesce(m.cents, 0)
		LIMIT 1`},
}

// Breach is a broken invariant of the ledger.
type Breach struct {
	Invariant string
	Detail    string
}

func (b *Breach) Error() string { return b.Invariant + ": " + b.Detail }

// Verify checks every invariant of the ledger and returns the first
// breach as a *Breach, or nil when the ledger is whole. zeroSumGames are the
// games whose hands must sum to zero. report, if not nil, hears each
// invariant as it passes.
func Verify(ctx context.Context, pool *pgxpool.Pool, zeroSumGames []string, report func(invariant string)) error {
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	for _, c := range checks {
		var detail string
		var args []any
		if c.zeroSum {
			args = append(args, zeroSumGames)
		}
		err := tx.QueryRow(ctx, c.query, args...).Scan(&detail)
		if err == pgx.ErrNoRows {
			if report != nil {
				report(c.name)
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("checking %q: %w", c.name, err)
		}
		return &Breach{Invariant: c.name, Detail: detail}
	}
	return nil
}
