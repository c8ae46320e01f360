package postgres

import (
	"bytes"
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// claim serializes the requests that carry the same Idempotency-Key (a
// transaction-scoped advisory lock) and returns the id of what an earlier
// request with that key created, or 0 when the key is new. A key reused
// with another request is EIDEMPOTENCY.
func claim(ctx context.Context, tx pgx.Tx, clubID int64, idem *ledger.Idempotency, kind string) (int64, error) {
	if idem == nil {
		return 0, nil
	}
	// One round trip: in a pipeline the lookup starts, with a snapshot of
	// its own, only once the lock is granted, so it sees what the request
	// that held the key committed.
	var hash []byte
	var storedKind string
	var ref int64
	found := false
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock(hashtextextended($1::bigint::text || ':' || $2, 0))`, clubID, idem.Key)
	b.Queue(`
		SELECT request_hash, kind, ref_id FROM idempotency_keys
		WHERE club_id = $1 AND key = $2`, clubID, idem.Key).QueryRow(func(row pgx.Row) error {
		err := row.Scan(&hash, &storedKind, &ref)
		if err == pgx.ErrNoRows {
			return nil
		}
		found = err == nil
		return err
	})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, err
	}
	if !found {
		return 0, nil
	}
	if storedKind != kind || !bytes.Equal(hash, idem.Hash) {
		return 0, &ledger.Error{Code: ledger.EIDEMPOTENCY, Message: "this Idempotency-Key was already used with a different request; use a new key for a new request"}
	}
	return ref, nil
}

// remember stores the key with what its request created, in the same
// transaction as the creation itself.
func remember(ctx context.Context, tx pgx.Tx, clubID int64, idem *ledger.Idempotency, kind string, ref int64) error {
	b := &pgx.Batch{}
	queueRemember(b, clubID, idem, kind, ref)
	if b.Len() == 0 {
		return nil
	}
	return tx.SendBatch(ctx, b).Close()
}

// queueRemember adds remember's statement to a batch.
func queueRemember(b *pgx.Batch, clubID int64, idem *ledger.Idempotency, kind string, ref int64) {
	if idem == nil {
		return
	}
	b.Queue(`
		INSERT INTO idempotency_keys (club_id, key, request_hash, kind, ref_id)
		VALUES ($1, $2, $3, $4, $5)`, clubID, idem.Key, idem.Hash, kind, ref)
}
