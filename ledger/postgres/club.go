package postgres

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// An API key's secret reads "sb_<club>_<key>_<random>": the ids find the
// row without a cross-club index, the random part is compared by hash.
const keyPrefix = "sb_"

// CreateClub creates a club and its first admin key.
func (s *Store) CreateClub(ctx context.Context, name, timeZone string) (ledger.Club, string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 200 {
		return ledger.Club{}, "", ledger.Invalid("name", "a club's name has 1 to 200 characters")
	}
	if timeZone == "" {
		timeZone = "Europe/Berlin"
	}
	if _, err := time.LoadLocation(timeZone); err != nil {
		return ledger.Club{}, "", ledger.Invalid("time_zone", "unknown time zone %q (use an IANA name like Europe/Berlin)", timeZone)
	}
	var club ledger.Club
	var secret string
	err := s.tx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
			INSERT INTO clubs (name, time_zone) VALUES ($1, $2)
			RETURNING club_id, name, time_zone, created_at`, name, timeZone).
			Scan(&club.ID, &club.Name, &club.TimeZone, &club.CreatedAt)
		if err != nil {
			return err
		}
		_, secret, err = createKey(ctx, tx, club.ID, ledger.RoleAdmin, "first admin key")
		return err
	})
	return club, secret, err
}

// FindClub returns the actor's club.
func (s *Store) FindClub(ctx context.Context, a ledger.Actor) (ledger.Club, error) {
	var c ledger.Club
	err := s.pool.QueryRow(ctx, `SELECT club_id, name, time_zone, created_at FROM clubs WHERE club_id = $1`, a.ClubID).
		Scan(&c.ID, &c.Name, &c.TimeZone, &c.CreatedAt)
	return c, notFound(err, "club %d", a.ClubID)
}

// CreateKey issues a new API key of the actor's club.
func (s *Store) CreateKey(ctx context.Context, a ledger.Actor, role ledger.Role, label string) (ledger.APIKey, string, error) {
	if !role.Valid() {
		return ledger.APIKey{}, "", ledger.Invalid("role", "must be admin, scorer or reader, got %q", role)
	}
	if label != "" {
		if err := ledger.CheckName("label", label, 100); err != nil {
			return ledger.APIKey{}, "", err
		}
	}
	var key ledger.APIKey
	var secret string
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var err error
		key, secret, err = createKey(ctx, tx, a.ClubID, role, label)
		return err
	})
	return key, secret, err
}

func createKey(ctx context.Context, tx pgx.Tx, clubID int64, role ledger.Role, label string) (ledger.APIKey, string, error) {
	random := make([]byte, 32)
	if _, err := rand.Read(random); err != nil {
		return ledger.APIKey{}, "", err
	}
	secret := base64.RawURLEncoding.EncodeToString(random)
	hash := sha256.Sum256([]byte(secret))
	k := ledger.APIKey{ClubID: clubID, Role: role, Label: label}
	err := tx.QueryRow(ctx, `
		INSERT INTO api_keys (club_id, role, label, secret_hash) VALUES ($1, $2, $3, $4)
		RETURNING key_id, created_at`, clubID, string(role), label, hash[:]).Scan(&k.ID, &k.CreatedAt)
	if err != nil {
		return ledger.APIKey{}, "", err
	}
	return k, fmt.Sprintf("%s%d_%d_%s", keyPrefix, clubID, k.ID, secret), nil
}

// Authenticate resolves a key's secret to its actor, comparing the hash in
// constant time. Unknown, malformed and revoked keys are EUNAUTHORIZED alike.
func (s *Store) Authenticate(ctx context.Context, token string) (ledger.Actor, error) {
	unauthorized := ledger.Errorf(ledger.EUNAUTHORIZED, "missing, unknown or revoked API key")
	clubID, keyID, secret, ok := parseKey(token)
	if !ok {
		return ledger.Actor{}, unauthorized
	}
	var role string
	var stored []byte
	err := s.pool.QueryRow(ctx, `
		SELECT role, secret_hash FROM api_keys
		WHERE club_id = $1 AND key_id = $2 AND revoked_at IS NULL`, clubID, keyID).Scan(&role, &stored)
	if err == pgx.ErrNoRows {
		return ledger.Actor{}, unauthorized
	}
	if err != nil {
		return ledger.Actor{}, mapError(err)
	}
	hash := sha256.Sum256([]byte(secret))
	if subtle.ConstantTimeCompare(hash[:], stored) != 1 {
		return ledger.Actor{}, unauthorized
	}
	return ledger.Actor{ClubID: clubID, KeyID: keyID, Role: ledger.Role(role)}, nil
}

func parseKey(token string) (clubID, keyID int64, secret string, ok bool) {
	rest, found := strings.CutPrefix(token, keyPrefix)
	if !found {
		return 0, 0, "", false
	}
	parts := strings.SplitN(rest, "_", 3)
	if len(parts) != 3 || len(parts[2]) != 43 {
		return 0, 0, "", false
	}
	club, err1 := strconv.ParseInt(parts[0], 10, 64)
	key, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || club <= 0 || key <= 0 {
		return 0, 0, "", false
	}
	return club, key, parts[2], true
}

// ListKeys returns the club's keys, revoked ones included, oldest first.
func (s *Store) ListKeys(ctx context.Context, a ledger.Actor) ([]ledger.APIKey, error) {
	rows, err := s.pool.Query(ctx, selectKey+` WHERE club_id = $1 ORDER BY key_id`, a.ClubID)
	if err != nil {
		return nil, mapError(err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.APIKey, error) {
		var k ledger.APIKey
		return k, scanKey(r, &k)
	})
	return keys, mapError(err)
}

// RevokeKey revokes a key of the club at once; revoking it again changes
// nothing.
func (s *Store) RevokeKey(ctx context.Context, a ledger.Actor, keyID int64) (ledger.APIKey, error) {
	var k ledger.APIKey
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var err error
		k, err = revokeKey(ctx, tx, a.ClubID, keyID)
		return err
	})
	return k, err
}

// RotateKey revokes a key and issues its successor with the same role and
// label, returning the new secret.
func (s *Store) RotateKey(ctx context.Context, a ledger.Actor, keyID int64) (ledger.APIKey, string, error) {
	var k ledger.APIKey
	var secret string
	err := s.tx(ctx, func(tx pgx.Tx) error {
		old, err := revokeKey(ctx, tx, a.ClubID, keyID)
		if err != nil {
			return err
		}
		k, secret, err = createKey(ctx, tx, a.ClubID, old.Role, old.Label)
		return err
	})
	return k, secret, err
}

func revokeKey(ctx context.Context, tx pgx.Tx, clubID, keyID int64) (ledger.APIKey, error) {
	var k ledger.APIKey
	err := scanKey(tx.QueryRow(ctx, `
		UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
		WHERE club_id = $1 AND key_id = $2
		RETURNING club_id, key_id, role, label, created_at, revoked_at`, clubID, keyID), &k)
	return k, notFound(err, "API key %d", keyID)
}

const selectKey = `SELECT club_id, key_id, role, label, created_at, revoked_at FROM api_keys`

func scanKey(row pgx.Row, k *ledger.APIKey) error {
	var role string
	err := row.Scan(&k.ClubID, &k.ID, &role, &k.Label, &k.CreatedAt, &k.RevokedAt)
	k.Role = ledger.Role(role)
	return err
}
