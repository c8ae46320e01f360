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
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1::bigint::text || ':' || $2, 0))`, clubID, idem.Key); err != nil {
		return 0, err
	}
	var hash []byte
	var storedKind string
	var ref int64
	err := tx.QueryRow(ctx, `
		SELECT request_hash, kind, ref_id FROM idempotency_keys
		WHERE club_id = $1 AND key = $2`, clubID, idem.Key).Scan(&hash, &storedKind, &ref)
	if err == pgx.ErrNoRows {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if storedKind != kind || !bytes.Equal(hash, idem.Hash) {
		return 0, &ledger.Error{Code: ledger.EIDEMPOTENCY, Message: "this Idempotency-Key was already used with a different request; use a new key for a new request"}
	}
	return ref, nil
}

// remember stores the key with what its request created, in the same
// transaction as the creation itself.
func remember(ctx context.Context, tx pgx.Tx, clubID int64, idem *ledger.Idempotency, kind string, ref int64) error {
	if idem == nil {
		return nil
	}
	_, err := tx.Exec(ctx, `
		INSERT INTO idempotency_keys (club_id, key, request_hash, kind, ref_id)
		VALUES ($1, $2, $3, $4, $5)`, clubID, idem.Key, idem.Hash, kind, ref)
	return err
}
