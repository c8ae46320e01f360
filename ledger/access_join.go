package ledger

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Join codes invite a phone to one table. An admin makes a code for a
// table and a role; the phone exchanges it, once, for a key limited to
// that table (access_scope.go). The code travels in a link (and its QR code),
// which stays in a browser's history: it is therefore good for one
// redeem and a short while only, and stored only as its SHA-256.

// How long a join code is good for.
const (
	MinJoinTTL     = 60    // seconds
	MaxJoinTTL     = 86400 // seconds: a day
	DefaultJoinTTL = 900   // seconds
)

// joinPrefix starts every join code: "sbj_<club>_<random>", the club to
// find the code without a cross-club lookup, the random part 256 bits in
// URL-safe base64 (43 characters).
const joinPrefix = "sbj_"

// Join is a join code as the ledger keeps it (never the code itself).
type Join struct {
	ID        int64
	ClubID    int64
	TableID   int64
	Role      Role
	CreatedAt time.Time
	ExpiresAt time.Time
}

// StoredJoin is a join code with what became of it.
type StoredJoin struct {
	Join
	RedeemedAt *time.Time
}

// NewJoin is a join code to make: for which table, which role and how
// long (TTLSeconds 0 is DefaultJoinTTL).
type NewJoin struct {
	TableID    int64
	Role       Role
	TTLSeconds int
}

// Validate fills in the default lifetime and refuses a role other than
// scorer or reader (an admin key is never handed out by a link) and a
// lifetime outside MinJoinTTL..MaxJoinTTL.
func (j *NewJoin) Validate() error {
	if j.Role != RoleScorer && j.Role != RoleReader {
		return Invalid("role", "must be scorer or reader, got %q", j.Role)
	}
	if j.TTLSeconds == 0 {
		j.TTLSeconds = DefaultJoinTTL
	}
	if j.TTLSeconds < MinJoinTTL || j.TTLSeconds > MaxJoinTTL {
		return Invalid("ttl_seconds", "must be %d to %d seconds, got %d", MinJoinTTL, MaxJoinTTL, j.TTLSeconds)
	}
	return nil
}

// NewJoinRecord is a join code to store: the code only as its hash.
type NewJoinRecord struct {
	TableID   int64
	Role      Role
	Hash      []byte
	CreatedBy int64
	CreatedAt time.Time
	ExpiresAt time.Time
}

// joinCode makes a new code of the club and the hash that is stored.
func joinCode(clubID int64) (code string, hash []byte, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, err
	}
	code = fmt.Sprintf("%s%d_%s", joinPrefix, clubID, base64.RawURLEncoding.EncodeToString(b))
	return code, hashJoinCode(code), nil
}

func hashJoinCode(code string) []byte {
	sum := sha256.Sum256([]byte(code))
	return sum[:]
}

// joinClub returns the club a code names; ok is false for a string that
// is not a join code's shape.
func joinClub(code string) (clubID int64, ok bool) {
	rest, found := strings.CutPrefix(code, joinPrefix)
	if !found {
		return 0, false
	}
	club, random, found := strings.Cut(rest, "_")
	if !found || len(random) != 43 {
		return 0, false
	}
	id, err := strconv.ParseInt(club, 10, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}

// CreateJoin makes a one-time join code for a table of the actor's club,
// returning the code (shown once). ENOTFOUND for a table the club does
// not have.
func (s *Service) CreateJoin(ctx context.Context, a Actor, nj NewJoin) (Join, string, error) {
	if err := nj.Validate(); err != nil {
		return Join{}, "", err
	}
	code, hash, err := joinCode(a.ClubID)
	if err != nil {
		return Join{}, "", err
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	var j Join
	err = s.inTx(ctx, a.ClubID, func(tx Tx) error {
		if _, err := tx.Table(ctx, nj.TableID); err != nil {
			return wrap(err, "CreateJoin: Table")
		}
		j, err = tx.InsertJoin(ctx, NewJoinRecord{TableID: nj.TableID, Role: nj.Role, Hash: hash, CreatedBy: a.KeyID,
			CreatedAt: now, ExpiresAt: now.Add(time.Duration(nj.TTLSeconds) * time.Second)})
		return err
	})
	if err != nil {
		return Join{}, "", err
	}
	return j, code, nil
}

// RedeemJoin exchanges a join code for a new key limited to the code's
// table, with the code's role, returning the key and its secret (shown
// once). A code is good for one redeem before it expires: of concurrent
// redeems exactly one wins. A used, expired, unknown or malformed code is
// ENOTFOUND alike, so an answer never tells which.
func (s *Service) RedeemJoin(ctx context.Context, code string) (APIKey, string, error) {
	gone := Errorf(ENOTFOUND, "join code not found: unknown, already used or expired").
		WithHint("Diese Einladung gilt nicht (mehr): sie ist unbekannt, schon benutzt oder abgelaufen. Bitte lass dir am Tisch eine neue geben.")
	clubID, ok := joinClub(code)
	if !ok {
		return APIKey{}, "", gone
	}
	var k APIKey
	var random string
	err := s.inTx(ctx, clubID, func(tx Tx) error {
		j, err := tx.LockJoin(ctx, hashJoinCode(code))
		if ErrorCode(err) == ENOTFOUND {
			return gone
		}
		if err != nil {
			return err
		}
		now := s.now()
		if j.RedeemedAt != nil || !now.Before(j.ExpiresAt) {
			return gone
		}
		nk, r, err := newKey(j.Role, fmt.Sprintf("Einladung %d an Tisch %d", j.ID, j.TableID))
		if err != nil {
			return err
		}
		nk.TableID = &j.TableID
		random = r
		if k, err = tx.InsertKey(ctx, nk); err != nil {
			return wrap(err, "RedeemJoin: InsertKey")
		}
		return tx.RedeemJoin(ctx, j.ID, k.ID, now)
	})
	if err != nil {
		return APIKey{}, "", err
	}
	s.keysChanged(clubID)
	return k, keyToken(k, random), nil
}
