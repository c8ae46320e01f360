package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// A check is one invariant of the ledger: a query that returns a row
// describing the first breach, or no row when the ledger keeps it.
type check struct {
	name  string
	query string
	// zeroSum marks a query that takes the zero-sum games as $1.
	zeroSum bool
	// inGo, instead of query, checks by reading the rows in Go (the
	// hashes, and what only a hand's decoded result says): it returns the
	// first breach's detail, "" when there is none.
	inGo func(ctx context.Context, q pgx.Tx, key chain.Key) (string, error)
}

// firstBreach runs the checks in q (a transaction that sees one snapshot)
// and returns the first breach, nil when the ledger keeps every invariant.
func firstBreach(ctx context.Context, q pgx.Tx, key chain.Key, zeroSumGames []string, report func(invariant string)) (*Breach, error) {
	for _, c := range ledgerChecks() {
		detail, err := c.run(ctx, q, key, zeroSumGames)
		if err != nil {
			return nil, fmt.Errorf("checking %q: %w", c.name, err)
		}
		if detail != "" {
			return &Breach{Invariant: c.name, Detail: detail}, nil
		}
		if report != nil {
			report(c.name)
		}
	}
	return nil, nil
}

// run returns the detail of the check's first breach, "" when there is none.
func (c check) run(ctx context.Context, q pgx.Tx, key chain.Key, zeroSumGames []string) (string, error) {
	if c.inGo != nil {
		return c.inGo(ctx, q, key)
	}
	var args []any
	if c.zeroSum {
		args = append(args, zeroSumGames)
	}
	var detail string
	err := q.QueryRow(ctx, c.query, args...).Scan(&detail)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return detail, err
}

// ledgerChecks are the ledger's invariants, in the order Verify tries them,
// for one run. $1 is the list of zero-sum games.
func ledgerChecks() []check {
	attendance := &attendanceChecks{}
	return []check{
		{name: "every entry names a player of the club", query: `
		SELECT format('hand %s, revision %s: its entry names player %s, who is not of club %s', e.hand_id, e.revision, e.player_id, e.club_id)
		FROM entries e
		WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.club_id = e.club_id AND p.player_id = e.player_id)
		LIMIT 1`},
		{name: "every hand's entries are the points of its result", inGo: verifyEntries},
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
		{name: "every table_totals row counts the hands played and sat out", inGo: attendance.of("table_totals", "table_id")},
		{name: "every session_totals row counts the hands played and sat out", inGo: attendance.of("session_totals", "session_id")},
		{name: "hand numbers of every table run 1, 2, 3 … without a gap", query: `
		SELECT format('table %s has %s hands numbered up to %s and counts %s', t.table_id, coalesce(h.n, 0), coalesce(h.top, 0), t.hands)
		FROM tables t
		LEFT JOIN (SELECT club_id, table_id, count(*) AS n, max(number) AS top FROM hands GROUP BY club_id, table_id) h
		       USING (club_id, table_id)
		WHERE coalesce(h.n, 0) <> t.hands OR coalesce(h.top, 0) <> t.hands
		LIMIT 1`},
		{name: "every club's change feed runs 1, 2, 3 … up to its head without a gap", query: `
		SELECT format('club %s has %s changes numbered %s to %s, its head is %s', c.club_id, coalesce(x.n, 0), coalesce(x.low, 0), coalesce(x.top, 0), c.change_seq)
		FROM clubs c
		LEFT JOIN (SELECT club_id, count(*) AS n, min(seq) AS low, max(seq) AS top FROM changes GROUP BY club_id) x USING (club_id)
		WHERE coalesce(x.n, 0) <> c.change_seq OR coalesce(x.top, 0) <> c.change_seq OR coalesce(x.low, 1) <> 1
		LIMIT 1`},
		{name: "every revision chains to the one before it", inGo: verifyRevisionChain},
		{name: "the tamper-evidence chain is intact", inGo: verifyHandChain},
		{name: "the rows of the trigger era are the ones sealed", inGo: verifySeals},
		{name: "every table's chain head is its last hand's hash", query: `
		SELECT format('table %s: its chain head is not the hash of its last hand %s', t.table_id, t.hands)
		FROM tables t
		LEFT JOIN hands h ON h.club_id = t.club_id AND h.table_id = t.table_id AND h.number = t.hands
		WHERE t.last_hash IS DISTINCT FROM h.hash
		LIMIT 1`},
		// What a player settles in the current version (settle_cents; in a body
		// written before it existed, the net, or only its minus at a
		// losers_to_kitty table) is what he was paid minus what he paid, on any
		// version's transfers, plus what the current version's unpaid transfers
		// still give him.
		{name: "every import of old lists holds the evenings it announces, each with a line", query: `
		SELECT format('import %s announces %s evenings and holds %s; %s of them without a line', i.import_id, i.evenings, count(v.evening_id),
		              count(v.evening_id) FILTER (WHERE NOT EXISTS (SELECT 1 FROM imported_lines l WHERE l.club_id = v.club_id AND l.evening_id = v.evening_id)))
		FROM imports i LEFT JOIN imported_evenings v ON v.club_id = i.club_id AND v.import_id = i.import_id
		GROUP BY i.club_id, i.import_id, i.evenings
		HAVING count(v.evening_id) <> i.evenings
		    OR bool_or(NOT EXISTS (SELECT 1 FROM imported_lines l WHERE l.club_id = v.club_id AND l.evening_id = v.evening_id))
		LIMIT 1`},
		{name: "every imported line's points are in lowest terms", query: `
		SELECT format('imported evening %s, player %s: %s/%s is not in lowest terms', l.evening_id, l.player_id, l.num, l.den)
		FROM imported_lines l WHERE gcd(l.num, l.den) <> 1 LIMIT 1`},
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
			LEFT JOIN standing_payments pay ON pay.club_id = t.club_id AND pay.transfer_id = t.transfer_id
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
}

// Breach is a broken invariant of the ledger.
type Breach struct {
	Invariant string
	Detail    string
}

func (b *Breach) Error() string { return b.Invariant + ": " + b.Detail }

// Verify checks every invariant of the ledger in one snapshot and returns
// the first breach as a *Breach, or nil when the ledger is whole.
// zeroSumGames are the games whose hands must sum to zero; key is the
// installation's chain key, which every keyed hash must verify with.
// report, if not nil, hears each invariant as it passes.
func Verify(ctx context.Context, pool *pgxpool.Pool, key chain.Key, zeroSumGames []string, report func(invariant string)) error {
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	b, err := firstBreach(ctx, tx, key, zeroSumGames, report)
	if err != nil || b == nil {
		return err
	}
	return b
}

// verifyHandChain checks every table's chain of hands, streaming them in
// table and number order (memory does not grow with the ledger): each
// hand's prev_hash is the previous hand's hash (none for hand 1); a keyed
// hand's hash is the HMAC of its content with this installation's key; a
// hand of the trigger era (no key id) has the SHA-256 hand_digest computes,
// and comes before every keyed hand of its table.
func verifyHandChain(ctx context.Context, q pgx.Tx, key chain.Key) (string, error) {
	rows, err := q.Query(ctx, `
		SELECT h.club_id, h.table_id, h.session_id, h.number, h.game, coalesce(h.rules, s.rules), h.facts, h.result, h.state_after,
		       h.body, h.recorded_by, h.recorded_at, h.prev_hash, h.hash, h.chain_key,
		       CASE WHEN h.chain_key IS NULL THEN h.hash IS DISTINCT FROM hand_digest(h) ELSE false END
		FROM hands h JOIN sessions s ON s.club_id = h.club_id AND s.session_id = h.session_id
		ORDER BY h.club_id, h.table_id, h.number`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var c chain.HandContent
	var prevHash, hash, keyID, head []byte
	var legacyWrong, keyedBefore bool
	var club, table int64 = -1, -1
	for rows.Next() {
		var t handTexts
		if err := rows.Scan(&c.ClubID, &c.TableID, &c.SessionID, &c.Number, &c.Game, &c.Rules, &t.facts, &t.result, &t.state,
			&t.body, &c.RecordedBy, &c.RecordedAt, &prevHash, &hash, &keyID, &legacyWrong); err != nil {
			return "", err
		}
		if c.ClubID != club || c.TableID != table {
			club, table, head, keyedBefore = c.ClubID, c.TableID, nil, false
		}
		what := fmt.Sprintf("table %d, hand %d: ", c.TableID, c.Number)
		if err := t.unpack(); err != nil {
			return what + "its body does not unpack", nil
		}
		c.Facts, c.Result, c.StateAfter = t.facts, t.result, t.state
		if !bytes.Equal(prevHash, head) {
			return what + "it does not chain to the previous hand's hash", nil
		}
		if detail := checkLink(keyID, hash, legacyWrong, keyedBefore, key, func() ([]byte, error) { return key.Hand(c, prevHash) }); detail != "" {
			return what + detail, nil
		}
		head, keyedBefore = hash, keyedBefore || keyID != nil
	}
	return "", rows.Err()
}

// verifyRevisionChain checks every hand's chain of revisions, streamed in
// hand and revision order: revision 2 chains to the hand's hash, each later
// one to the revision before it; hashes as verifyHandChain checks them.
func verifyRevisionChain(ctx context.Context, q pgx.Tx, key chain.Key) (string, error) {
	rows, err := q.Query(ctx, `
		SELECT r.club_id, r.hand_id, r.table_id, r.number, r.revision, r.facts, r.result, r.state_after, r.void, r.reason,
		       r.caused_by, r.recorded_by, r.recorded_at, r.prev_hash, r.hash, r.chain_key,
		       CASE WHEN r.chain_key IS NULL THEN r.hash IS DISTINCT FROM revision_digest(r) ELSE false END, h.hash
		FROM hand_revisions r JOIN hands h ON h.club_id = r.club_id AND h.hand_id = r.hand_id
		ORDER BY r.club_id, r.hand_id, r.revision`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var c chain.RevisionContent
	var prevHash, hash, keyID, handHash, head []byte
	var legacyWrong, keyedBefore bool
	var club, hand int64 = -1, -1
	last := 0
	for rows.Next() {
		if err := rows.Scan(&c.ClubID, &c.HandID, &c.TableID, &c.Number, &c.Revision, &c.Facts, &c.Result, &c.StateAfter, &c.Void, &c.Reason,
			&c.CausedBy, &c.RecordedBy, &c.RecordedAt, &prevHash, &hash, &keyID, &legacyWrong, &handHash); err != nil {
			return "", err
		}
		if c.ClubID != club || c.HandID != hand {
			club, hand, last, head, keyedBefore = c.ClubID, c.HandID, 1, handHash, false
		}
		what := fmt.Sprintf("table %d, hand %d, revision %d: ", c.TableID, c.Number, c.Revision)
		if c.Revision != last+1 || !bytes.Equal(prevHash, head) {
			return what + "it does not chain to the revision before it", nil
		}
		if detail := checkLink(keyID, hash, legacyWrong, keyedBefore, key, func() ([]byte, error) { return key.Revision(c, prevHash) }); detail != "" {
			return what + detail, nil
		}
		last, head, keyedBefore = c.Revision, hash, keyedBefore || keyID != nil
	}
	return "", rows.Err()
}

// checkLink checks one row's hash: keyed with this installation's key and
// matching the MAC of its content, or of the trigger era (no key id), with
// the digest the database computes, and then before every keyed row of
// its chain. It returns what is wrong, "" when nothing is.
func checkLink(keyID, hash []byte, legacyWrong, keyedBefore bool, key chain.Key, mac func() ([]byte, error)) string {
	if keyID == nil {
		switch {
		case keyedBefore:
			return "it has no keyed hash, but a row before it has one"
		case legacyWrong:
			return "its content does not match its hash"
		}
		return ""
	}
	if !bytes.Equal(keyID, key.ID()) {
		return fmt.Sprintf("its hash was made with another chain key (id %x), not this installation's (id %x)", keyID, key.ID())
	}
	want, err := mac()
	if err != nil {
		return fmt.Sprintf("its content cannot be hashed: %v", err)
	}
	if !chain.Equal(want, hash) {
		return "its content does not match its hash"
	}
	return ""
}

// verifyEntries checks that every hand's entries, summed per player over
// its revisions, are the points of its current revision's result (read in
// Go: a packed hand's result is not readable in SQL), streaming the
// hands.
func verifyEntries(ctx context.Context, q pgx.Tx, _ chain.Key) (string, error) {
	rows, err := q.Query(ctx, `
		WITH e AS (
			SELECT club_id, hand_id, array_agg(player_id ORDER BY player_id) AS players,
			       array_agg(total[1] ORDER BY player_id) AS nums, array_agg(total[2] ORDER BY player_id) AS dens
			FROM (SELECT club_id, hand_id, player_id, rat_sum(num, den) AS total
			      FROM entries GROUP BY club_id, hand_id, player_id) s
			GROUP BY club_id, hand_id
		)
		SELECT coalesce(h.hand_id, e.hand_id), coalesce(rev.result, h.result), CASE WHEN rev.result IS NULL THEN h.body END,
		       coalesce(e.players, '{}'), coalesce(e.nums, '{}'), coalesce(e.dens, '{}')
		FROM hands h
		LEFT JOIN LATERAL (SELECT result FROM hand_revisions r WHERE r.club_id = h.club_id AND r.hand_id = h.hand_id
		                   ORDER BY r.revision DESC LIMIT 1) rev ON true
		FULL JOIN e ON e.club_id = h.club_id AND e.hand_id = h.hand_id`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	for rows.Next() {
		var hand int64
		var t handTexts
		var players, nums, dens []int64
		if err := rows.Scan(&hand, &t.result, &t.body, &players, &nums, &dens); err != nil {
			return "", err
		}
		if err := t.unpack(); err != nil {
			return fmt.Sprintf("hand %d: its body does not unpack", hand), nil
		}
		entries := map[int64]score.Points{}
		for i, p := range players {
			entries[p] = score.Frac(nums[i], dens[i])
		}
		var points []score.PlayerPoints
		if t.result != nil {
			res, err := decodeResult(t.result)
			if err != nil {
				return fmt.Sprintf("hand %d: %v", hand, err), nil
			}
			points = res.Points
		}
		if detail := entriesBreach(hand, points, entries); detail != "" {
			return detail, nil
		}
	}
	return "", rows.Err()
}

// entriesBreach compares a hand's points with its entries' sums by player.
func entriesBreach(hand int64, points []score.PlayerPoints, entries map[int64]score.Points) string {
	breach := func(player int64, result, entries string) string {
		return fmt.Sprintf("hand %d, player %d: the result says %s, the entries say %s", hand, player, result, entries)
	}
	seen := map[int64]bool{}
	for _, p := range points {
		seen[p.Player] = true
		e, ok := entries[p.Player]
		switch {
		case !ok:
			return breach(p.Player, p.Points.String(), "nothing")
		case e.Cmp(p.Points) != 0:
			return breach(p.Player, p.Points.String(), e.String())
		}
	}
	for player, e := range entries {
		if !seen[player] {
			return breach(player, "nothing", e.String())
		}
	}
	return ""
}
