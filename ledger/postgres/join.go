package postgres

import (
	"context"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
)

// InsertJoin stores a new join code of the club (its hash).
func (t *tx) InsertJoin(ctx context.Context, j ledger.NewJoinRecord) (ledger.Join, error) {
	out := ledger.Join{ClubID: t.club, TableID: j.TableID, Role: j.Role, CreatedAt: j.CreatedAt, ExpiresAt: j.ExpiresAt}
	err := t.QueryRow(ctx, `
		INSERT INTO join_codes (club_id, table_id, role, code_hash, created_by, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING join_id`,
		t.club, j.TableID, string(j.Role), j.Hash, j.CreatedBy, j.CreatedAt, j.ExpiresAt).Scan(&out.ID)
	return out, err
}

// LockJoin returns the club's join code with the hash and locks its row.
func (t *tx) LockJoin(ctx context.Context, hash []byte) (ledger.StoredJoin, error) {
	j := ledger.StoredJoin{Join: ledger.Join{ClubID: t.club}}
	var role string
	err := t.QueryRow(ctx, `
		SELECT join_id, table_id, role, created_at, expires_at, redeemed_at FROM join_codes
		WHERE club_id = $1 AND code_hash = $2 FOR UPDATE`, t.club, hash).
		Scan(&j.ID, &j.TableID, &role, &j.CreatedAt, &j.ExpiresAt, &j.RedeemedAt)
	j.Role = ledger.Role(role)
	return j, notFound(err, "join code")
}

// RedeemJoin marks a join code redeemed for a key.
func (t *tx) RedeemJoin(ctx context.Context, joinID, keyID int64, at time.Time) error {
	_, err := t.Exec(ctx, `UPDATE join_codes SET redeemed_at = $3, key_id = $4 WHERE club_id = $1 AND join_id = $2`,
		t.club, joinID, at, keyID)
	return err
}
