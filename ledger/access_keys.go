package ledger

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
)

// Role is what an API key may do. Each role includes the ones below it.
type Role string

// The roles, from most to least powerful.
const (
	RoleAdmin  Role = "admin"  // everything, including keys and closed sessions
	RoleScorer Role = "scorer" // record hands, open and close sessions
	RoleReader Role = "reader" // read only
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r.rank() > 0 }

// Includes reports whether r may do what need may do.
func (r Role) Includes(need Role) bool { return r.rank() >= need.rank() && need.rank() > 0 }

func (r Role) rank() int {
	switch r {
	case RoleAdmin:
		return 3
	case RoleScorer:
		return 2
	case RoleReader:
		return 1
	}
	return 0
}

// Club is the tenant: everything else belongs to exactly one club.
type Club struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	TimeZone  string    `json:"time_zone"`
	CreatedAt time.Time `json:"created_at"`
}

// APIKey is a club's key as the ledger sees it; the secret itself is shown
// once at creation and stored only as a hash.
type APIKey struct {
	ClubID    int64      `json:"club_id"`
	ID        int64      `json:"id"`
	Role      Role       `json:"role"`
	Label     string     `json:"label"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	// TableID limits the key to one table of the club (access_scope.go); nil:
	// the whole club.
	TableID *int64 `json:"table_id,omitempty"`
}

// Limits of the names people give things.
const (
	MaxClubNameLen   = 200 // characters
	MaxPlayerNameLen = 100
	MaxTableNameLen  = 100
	MaxKeyLabelLen   = 100
	MaxReasonLen     = 500
	MaxNoteLen       = 200
)

// DefaultTimeZone is a club's time zone unless it names another.
const DefaultTimeZone = "Europe/Berlin"

// NewClub is a club to create.
type NewClub struct {
	Name     string
	TimeZone string // an IANA name; "" is DefaultTimeZone
}

// Validate trims the name, fills in the default time zone and refuses an
// empty or overlong name and an unknown time zone.
func (c *NewClub) Validate() error {
	var err error
	if c.Name, err = TrimName("name", c.Name, MaxClubNameLen); err != nil {
		return err
	}
	if c.TimeZone == "" {
		c.TimeZone = DefaultTimeZone
	}
	if _, err := time.LoadLocation(c.TimeZone); err != nil {
		return Invalid("time_zone", "unknown time zone %q (use an IANA name like Europe/Berlin)", c.TimeZone)
	}
	return nil
}

// An API key's secret reads "sb_<club>_<key>_<random>": the ids find the
// row without a cross-club index, the random part is compared by hash.
const keyPrefix = "sb_"

// keySecret is a new key's random part and the hash that is stored.
func keySecret() (random string, hash []byte, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, err
	}
	random = base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(random))
	return random, sum[:], nil
}

// keyToken is the whole secret a client sends.
func keyToken(k APIKey, random string) string {
	return KeyToken(k.ClubID, k.ID, random)
}

// KeyToken is the whole secret a client sends for key keyID of club
// clubID, whose random part MintKey made.
func KeyToken(clubID, keyID int64, random string) string {
	return fmt.Sprintf("%s%d_%d_%s", keyPrefix, clubID, keyID, random)
}

// parseKey splits a token into its club, key and random part.
func parseKey(token string) (clubID, keyID int64, random string, ok bool) {
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

// KeyOf returns the club and key a token names, without checking its
// secret: what limits failed attempts per key before any lookup. ok is
// false for a token that is not a key's shape.
func KeyOf(token string) (clubID, keyID int64, ok bool) {
	clubID, keyID, _, ok = parseKey(token)
	return clubID, keyID, ok
}

// newKey checks a key's role and label and makes its secret.
func newKey(role Role, label string) (NewKey, string, error) {
	if !role.Valid() {
		return NewKey{}, "", Invalid("role", "must be admin, scorer or reader, got %q", role)
	}
	if err := CheckKeyLabel(label); err != nil {
		return NewKey{}, "", err
	}
	random, hash, err := keySecret()
	return NewKey{Role: role, Label: label, Hash: hash}, random, err
}

// CheckKeyLabel refuses an overlong or control-character label; a key
// may have none.
func CheckKeyLabel(label string) error {
	if label == "" {
		return nil
	}
	return CheckName("label", label, MaxKeyLabelLen)
}

// MintKey checks a new key's role and label and makes its secret: the key
// to store (the secret only as its hash) and the secret's random part,
// which KeyToken turns into the token shown once when the key has its id.
// The flows here mint their keys themselves; an import mints the restored
// club's new admin key with it.
func MintKey(role Role, label string) (NewKey, string, error) {
	return newKey(role, label)
}

// CreateClub creates a club and its first admin key, returning the key's
// secret (shown once).
func (s *Service) CreateClub(ctx context.Context, c NewClub) (Club, string, error) {
	if err := c.Validate(); err != nil {
		return Club{}, "", err
	}
	k, random, err := newKey(RoleAdmin, "first admin key")
	if err != nil {
		return Club{}, "", err
	}
	club, key, err := s.Clubs.CreateClub(ctx, c, k)
	if err != nil {
		return Club{}, "", wrap(err, "CreateClub: CreateClub")
	}
	return club, keyToken(key, random), nil
}

// Authenticate resolves an API key's secret to its actor, comparing the
// hash in constant time on every call. Unknown, malformed and revoked keys
// are EUNAUTHORIZED alike. The key is read from the store unless the key
// cache (access_keycache.go) holds it: a key revoked through this instance
// is refused from the next call on, one revoked through another from the
// moment this instance's KeyNotifier hears of it.
func (s *Service) Authenticate(ctx context.Context, token string) (Actor, error) {
	unauthorized := Errorf(EUNAUTHORIZED, "missing, unknown or revoked API key").
		WithHint("Dieses Gerät ist nicht (mehr) angemeldet: sein Zugang fehlt oder wurde zurückgezogen. Bitte lass dir am Tisch eine neue Einladung geben.")
	clubID, keyID, random, ok := parseKey(token)
	if !ok {
		return Actor{}, unauthorized
	}
	k, cached := s.keyCache.find(clubID, keyID)
	var ticket keyTicket
	if !cached {
		ticket = s.keyCache.ticket()
		var err error
		k, err = s.Clubs.FindKey(ctx, clubID, keyID)
		if ErrorCode(err) == ENOTFOUND {
			return Actor{}, unauthorized
		}
		if err != nil {
			return Actor{}, err
		}
	}
	sum := sha256.Sum256([]byte(random))
	if subtle.ConstantTimeCompare(sum[:], k.Hash) != 1 {
		return Actor{}, unauthorized
	}
	if !cached {
		s.keyCache.put(ticket, k) // only a key whose secret was presented
	}
	if k.RevokedAt != nil {
		return Actor{}, unauthorized
	}
	a := Actor{ClubID: clubID, KeyID: keyID, Role: k.Role}
	if k.TableID != nil {
		a.TableID = *k.TableID
	}
	return a, nil
}

// FindClub returns the actor's club.
func (s *Service) FindClub(ctx context.Context, a Actor) (Club, error) {
	return s.Clubs.FindClub(ctx, a.ClubID)
}

// CreateKey issues a new key of the actor's club, returning its secret.
func (s *Service) CreateKey(ctx context.Context, a Actor, role Role, label string) (APIKey, string, error) {
	nk, random, err := newKey(role, label)
	if err != nil {
		return APIKey{}, "", err
	}
	var k APIKey
	err = s.inTx(ctx, a.ClubID, func(tx Tx) error {
		k, err = tx.InsertKey(ctx, nk)
		return err
	})
	s.keysChanged(a.ClubID)
	return k, keyToken(k, random), err
}

// RevokeKey revokes a key of the club at once; revoking it again changes
// nothing. The club's last active admin key is not revoked (ECONFLICT):
// without it nobody could manage the club's keys through the API.
func (s *Service) RevokeKey(ctx context.Context, a Actor, keyID int64) (APIKey, error) {
	var k APIKey
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		old, err := keyToChange(ctx, tx, keyID, false)
		if err != nil || old.RevokedAt != nil {
			k = old
			return err
		}
		k, err = tx.RevokeKey(ctx, keyID, s.now())
		return err
	})
	s.keysChanged(a.ClubID)
	return k, err
}

// RotateKey revokes a key and issues its successor with the same role,
// label and table, returning the new secret. A revoked key has no successor, and the
// club's last active admin key is not rotated (both ECONFLICT): its
// successor's secret is shown once, and a lost answer would lock the club
// out.
func (s *Service) RotateKey(ctx context.Context, a Actor, keyID int64) (APIKey, string, error) {
	var k APIKey
	var random string
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		old, err := keyToChange(ctx, tx, keyID, true)
		if err != nil {
			return err
		}
		if _, err := tx.RevokeKey(ctx, keyID, s.now()); err != nil {
			return wrap(err, "RotateKey: RevokeKey")
		}
		nk, r, err := newKey(old.Role, old.Label)
		if err != nil {
			return err
		}
		nk.TableID = old.TableID
		random = r
		k, err = tx.InsertKey(ctx, nk)
		return err
	})
	s.keysChanged(a.ClubID)
	if err != nil {
		return APIKey{}, "", err
	}
	return k, keyToken(k, random), nil
}

// keyToChange locks the club's keys and returns the one to revoke or
// rotate, refusing what would leave the club without an active admin key
// and, for a rotation, a key that is already revoked.
func keyToChange(ctx context.Context, tx KeyTx, keyID int64, rotate bool) (APIKey, error) {
	keys, err := tx.LockKeys(ctx)
	if err != nil {
		return APIKey{}, wrap(err, "keyToChange: LockKeys")
	}
	var target *APIKey
	admins := 0
	for i, k := range keys {
		if k.ID == keyID {
			target = &keys[i]
		}
		if k.Role == RoleAdmin && k.RevokedAt == nil {
			admins++
		}
	}
	switch {
	case target == nil:
		return APIKey{}, Errorf(ENOTFOUND, "API key %d not found", keyID)
	case target.RevokedAt != nil && rotate:
		return APIKey{}, Errorf(ECONFLICT, "API key %d is revoked; a revoked key gets no successor: create a new key instead", keyID)
	case target.RevokedAt != nil:
		return *target, nil
	case target.Role == RoleAdmin && admins == 1:
		return APIKey{}, Errorf(ECONFLICT, "API key %d is the club's last active admin key; create another admin key first", keyID)
	}
	return *target, nil
}

// FindKey returns one of the club's keys, revoked or not; ENOTFOUND for
// a key of another club.
func (s *Service) FindKey(ctx context.Context, a Actor, id int64) (APIKey, error) {
	keys, err := s.Clubs.ListKeys(ctx, a.ClubID, Page{})
	if err != nil {
		return APIKey{}, wrap(err, "FindKey: ListKeys")
	}
	for _, k := range keys {
		if k.ID == id {
			return k, nil
		}
	}
	return APIKey{}, Errorf(ENOTFOUND, "no API key %d in this club", id)
}

// ListKeys returns a page of the club's keys, revoked ones included,
// oldest first: those after the key p.After.
func (s *Service) ListKeys(ctx context.Context, a Actor, p Page) ([]APIKey, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	list, err := s.Clubs.ListKeys(ctx, a.ClubID, p)
	if list == nil {
		list = []APIKey{}
	}
	return list, err
}
