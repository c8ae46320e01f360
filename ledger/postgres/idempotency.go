package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// Claim serializes the requests that carry the same Idempotency-Key (a
// transaction-scoped advisory lock) and returns what an earlier request
// with that key stored. One round trip: in a pipeline the lookup starts,
// with a snapshot of its own, only once the lock is granted, so it sees
// what the request that held the key committed.
func (t *tx) Claim(ctx context.Context, key string) (ledger.Claimed, error) {
	var c ledger.Claimed
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock(hashtextextended($1::bigint::text || ':' || $2, 0))`, t.club, key)
	b.Queue(`
		SELECT request_hash, kind, ref_id FROM idempotency_keys
		WHERE club_id = $1 AND key = $2`, t.club, key).QueryRow(func(row pgx.Row) error { return scanClaim(row, &c) })
	return c, send(ctx, t, b)
}

// scanClaim reads an idempotency_keys row (request_hash, kind, ref_id);
// no row leaves c not found.
func scanClaim(row pgx.Row, c *ledger.Claimed) error {
	var kind string
	err := row.Scan(&c.Hash, &kind, &c.Ref)
	if err == pgx.ErrNoRows {
		return nil
	}
	c.Found, c.Kind = err == nil, ledger.Kind(kind)
	return err
}

// Remember stores the key with what its request created, in the same
// transaction as the creation itself.
func (t *tx) Remember(ctx context.Context, idem *ledger.Idempotency, kind ledger.Kind, ref int64) error {
	b := &pgx.Batch{}
	queueRemember(b, t.club, idem, kind, ref)
	return send(ctx, t, b)
}

// queueRemember adds Remember's statement to a batch.
func queueRemember(b *pgx.Batch, clubID int64, idem *ledger.Idempotency, kind ledger.Kind, ref int64) {
	if idem == nil {
		return
	}
	b.Queue(`
		INSERT INTO idempotency_keys (club_id, key, request_hash, kind, ref_id)
		VALUES ($1, $2, $3, $4, $5)`, clubID, idem.Key, idem.Hash, string(kind), ref)
}
