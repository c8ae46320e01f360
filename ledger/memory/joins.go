package memory

import (
	"bytes"
	"context"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
)

// InsertJoin stores a new join code of the club (its hash).
func (t *tx) InsertJoin(_ context.Context, j ledger.NewJoinRecord) (ledger.Join, error) {
	if tb, ok := t.d.tables[j.TableID]; !ok || tb.club != t.club {
		return ledger.Join{}, notFound("table %d", j.TableID)
	}
	out := ledger.Join{ID: t.next(), ClubID: t.club, TableID: j.TableID, Role: j.Role, CreatedAt: j.CreatedAt, ExpiresAt: j.ExpiresAt}
	put(t, t.d.joins, out.ID, joinRow{StoredJoin: ledger.StoredJoin{Join: out}, hash: j.Hash})
	return out, nil
}

// LockJoin returns the club's join code with the hash; the store's lock
// already serializes every transaction.
func (t *tx) LockJoin(_ context.Context, hash []byte) (ledger.StoredJoin, error) {
	for _, j := range t.d.joins {
		if j.ClubID == t.club && bytes.Equal(j.hash, hash) {
			return j.StoredJoin, nil
		}
	}
	return ledger.StoredJoin{}, notFound("join code")
}

// RedeemJoin marks a join code redeemed for a key.
func (t *tx) RedeemJoin(_ context.Context, joinID, keyID int64, at time.Time) error {
	j, ok := t.d.joins[joinID]
	if !ok || j.ClubID != t.club {
		return notFound("join code %d", joinID)
	}
	j.RedeemedAt, j.keyID = &at, keyID
	put(t, t.d.joins, joinID, j)
	return nil
}
