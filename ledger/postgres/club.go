package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// CreateClub stores a new club with its first key, in one transaction.
func (s *Store) CreateClub(ctx context.Context, c ledger.NewClub, first ledger.NewKey) (ledger.Club, ledger.APIKey, error) {
	var club ledger.Club
	var key ledger.APIKey
	err := s.tx(ctx, func(t pgx.Tx) error {
		err := t.QueryRow(ctx, `
			INSERT INTO clubs (name, time_zone) VALUES ($1, $2)
			RETURNING club_id, name, time_zone, created_at`, c.Name, c.TimeZone).
			Scan(&club.ID, &club.Name, &club.TimeZone, &club.CreatedAt)
		if err != nil {
			return err
		}
		key, err = (&tx{Tx: t, club: club.ID}).InsertKey(ctx, first)
		return err
	})
	return club, key, err
}

// FindClub returns a club.
func (s *Store) FindClub(ctx context.Context, clubID int64) (ledger.Club, error) {
	return findClub(ctx, s.pool, clubID)
}

// FindClub returns the transaction's club.
func (t *tx) FindClub(ctx context.Context) (ledger.Club, error) { return findClub(ctx, t, t.club) }

func findClub(ctx context.Context, q queryer, clubID int64) (ledger.Club, error) {
	var c ledger.Club
	err := q.QueryRow(ctx, `SELECT club_id, name, time_zone, created_at FROM clubs WHERE club_id = $1`, clubID).
		Scan(&c.ID, &c.Name, &c.TimeZone, &c.CreatedAt)
	return c, notFound(err, "club %d", clubID)
}

// FindKey returns a key with its secret's hash.
func (s *Store) FindKey(ctx context.Context, clubID, keyID int64) (ledger.StoredKey, error) {
	var k ledger.StoredKey
	var role string
	err := s.pool.QueryRow(ctx, `
		SELECT club_id, key_id, role, label, created_at, revoked_at, table_id, secret_hash FROM api_keys
		WHERE club_id = $1 AND key_id = $2`, clubID, keyID).
		Scan(&k.ClubID, &k.ID, &role, &k.Label, &k.CreatedAt, &k.RevokedAt, &k.TableID, &k.Hash)
	k.Role = ledger.Role(role)
	return k, notFound(err, "API key %d", keyID)
}

// ListKeys returns a page of the club's keys, revoked ones included,
// oldest first.
func (s *Store) ListKeys(ctx context.Context, clubID int64, p ledger.Page) ([]ledger.APIKey, error) {
	rows, err := s.pool.Query(ctx, selectKey+` WHERE club_id = $1 AND key_id > $2 ORDER BY key_id LIMIT nullif($3, 0)`,
		clubID, p.After, p.Limit)
	if err != nil {
		return nil, mapError(err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.APIKey, error) {
		var k ledger.APIKey
		return k, scanKey(r, &k)
	})
	return keys, mapError(err)
}

// LockKeys returns the club's keys and locks their rows until the
// transaction ends.
func (t *tx) LockKeys(ctx context.Context) ([]ledger.APIKey, error) {
	rows, err := t.Query(ctx, selectKey+` WHERE club_id = $1 ORDER BY key_id FOR UPDATE`, t.club)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.APIKey, error) {
		var k ledger.APIKey
		return k, scanKey(r, &k)
	})
}

// InsertKey stores a new key of the club.
func (t *tx) InsertKey(ctx context.Context, nk ledger.NewKey) (ledger.APIKey, error) {
	k := ledger.APIKey{ClubID: t.club, Role: nk.Role, Label: nk.Label, TableID: nk.TableID}
	err := t.QueryRow(ctx, `
		INSERT INTO api_keys (club_id, role, label, secret_hash, table_id) VALUES ($1, $2, $3, $4, $5)
		RETURNING key_id, created_at`, t.club, string(nk.Role), nk.Label, nk.Hash, nk.TableID).Scan(&k.ID, &k.CreatedAt)
	return k, err
}

// RevokeKey marks a key revoked at `at`, unless it already is, and tells
// every instance's Listener when the transaction commits (NOTIFY
// stichbuch_keys, "club:key"), so their key caches forget it.
func (t *tx) RevokeKey(ctx context.Context, keyID int64, at time.Time) (ledger.APIKey, error) {
	var k ledger.APIKey
	err := scanKey(t.QueryRow(ctx, `
		UPDATE api_keys SET revoked_at = coalesce(revoked_at, $3)
		WHERE club_id = $1 AND key_id = $2
		RETURNING club_id, key_id, role, label, created_at, revoked_at, table_id`, t.club, keyID, at), &k)
	if err != nil {
		return k, notFound(err, "API key %d", keyID)
	}
	_, err = t.Exec(ctx, `SELECT pg_notify('`+keysChannel+`', $1::bigint::text || ':' || $2::bigint::text)`, t.club, keyID)
	return k, err
}

const selectKey = `SELECT club_id, key_id, role, label, created_at, revoked_at, table_id FROM api_keys`

func scanKey(row pgx.Row, k *ledger.APIKey) error {
	var role string
	err := row.Scan(&k.ClubID, &k.ID, &role, &k.Label, &k.CreatedAt, &k.RevokedAt, &k.TableID)
	k.Role = ledger.Role(role)
	return err
}
