// Package chain owns the ledger's keyed tamper-evidence chain: what of a
// hand or a revision is hashed, how, and with which key. Every hand carries
// an HMAC-SHA256, keyed with the installation's secret, over its content
// and the previous hand's hash of its table; every revision one over its
// content and the hash of the revision before it (the hand's, for revision
// 2). Without the key, nobody can compute a hash the chain accepts, so a
// document whose facts were changed and re-scored cannot be given hashes
// that verify.
//
// The key is configuration: a 32-byte secret kept outside the database and
// outside every export (see the README). A row records the key's id (the
// first 8 bytes of the key's SHA-256), so a verifier knows which key made
// it. Rows chained before keyed hashes existed keep the unkeyed SHA-256 the
// database's trigger computed, with no key id; the first keyed hand of a
// table chains to the last of them.
//
// What is hashed (the MAC's message) is a length-prefixed encoding: a
// domain tag ("stichbuch hand v1" or "stichbuch revision v1"), then each
// field as its length in bytes (8 bytes, big-endian) followed by its bytes,
// in the order of the fields of HandContent or RevisionContent and, last,
// the previous hash (empty when there is none). Integers are written in
// decimal, booleans as "true" or "false", times in UTC as
// 2006-01-02T15:04:05.000000Z (PostgreSQL keeps microseconds), texts as
// their UTF-8 bytes, and JSON values in their canonical form (Canonical).
package chain

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// KeySize is the size of a key the installation generates.
const KeySize = 32

// IDSize is the size of a key's id.
const IDSize = 8

// Key is an installation's chain key. Its zero value has no secret: it
// hashes nothing (Valid is false).
type Key struct {
	secret []byte
	id     []byte
}

// NewKey returns the key of secret, which must hold at least KeySize bytes.
func NewKey(secret []byte) (Key, error) {
	if len(secret) < KeySize {
		return Key{}, fmt.Errorf("a chain key needs at least %d bytes, this one has %d", KeySize, len(secret))
	}
	sum := sha256.Sum256(secret)
	return Key{secret: bytes.Clone(secret), id: sum[:IDSize]}, nil
}

// GenerateSecret returns KeySize random bytes for a new key.
func GenerateSecret() ([]byte, error) {
	secret := make([]byte, KeySize)
	_, err := rand.Read(secret)
	return secret, err
}

// Valid reports whether the key has a secret.
func (k Key) Valid() bool { return len(k.secret) > 0 }

// ID is the key's id, as rows record it.
func (k Key) ID() []byte { return k.id }

// IDHex is the key's id in hex, as documents carry it.
func (k Key) IDHex() string { return hex.EncodeToString(k.id) }

// HandContent is what a hand's hash covers besides the previous hash: the
// hand as stored. Rules, Facts, Result and StateAfter are JSON values (the
// result as the store keeps it, without the state).
type HandContent struct {
	ClubID, TableID, SessionID int64
	Number                     int
	Game                       string
	Rules, Facts, Result       json.RawMessage
	StateAfter                 json.RawMessage
	RecordedBy                 int64
	RecordedAt                 time.Time
}

// RevisionContent is what a revision's hash covers besides the previous
// hash: the revision as stored.
type RevisionContent struct {
	ClubID, HandID, TableID int64
	Number, Revision        int
	Facts, Result           json.RawMessage
	StateAfter              json.RawMessage
	Void                    bool
	Reason                  string
	CausedBy                int
	RecordedBy              int64
	RecordedAt              time.Time
}

// Hand returns the hash of a hand chained to prev (nil for a table's first
// hand). It fails only on a JSON value that is not JSON, or without a key.
func (k Key) Hand(c HandContent, prev []byte) ([]byte, error) {
	m := message{b: []byte("stichbuch hand v1")}
	m.int(c.ClubID)
	m.int(c.TableID)
	m.int(c.SessionID)
	m.int(int64(c.Number))
	m.text(c.Game)
	m.json(c.Rules)
	m.json(c.Facts)
	m.json(c.Result)
	m.json(c.StateAfter)
	m.int(c.RecordedBy)
	m.time(c.RecordedAt)
	m.field(prev)
	return k.mac(m)
}

// Revision returns the hash of a revision chained to prev (the hash of
// the revision before it, or the hand's for revision 2).
func (k Key) Revision(c RevisionContent, prev []byte) ([]byte, error) {
	m := message{b: []byte("stichbuch revision v1")}
	m.int(c.ClubID)
	m.int(c.HandID)
	m.int(c.TableID)
	m.int(int64(c.Number))
	m.int(int64(c.Revision))
	m.json(c.Facts)
	m.json(c.Result)
	m.json(c.StateAfter)
	m.text(strconv.FormatBool(c.Void))
	m.text(c.Reason)
	m.int(int64(c.CausedBy))
	m.int(c.RecordedBy)
	m.time(c.RecordedAt)
	m.field(prev)
	return k.mac(m)
}

// Seal returns the seal of a club's rows of the trigger era: how many
// hands and revisions there are and digest, the SHA-256 over their hashes
// (LegacyDigest). With the seal stored, a row can no longer be added to
// them, changed or passed off as one of them unnoticed.
func (k Key) Seal(clubID, hands, revisions int64, digest []byte) ([]byte, error) {
	m := message{b: []byte("stichbuch seal v1")}
	m.int(clubID)
	m.int(hands)
	m.int(revisions)
	m.field(digest)
	return k.mac(m)
}

// LegacyDigest is the running digest of a club's rows of the trigger era
// a seal covers: the hashes of its hands by hand id, then those of its
// revisions by revision id, each length-prefixed.
type LegacyDigest struct {
	h                hash.Hash
	Hands, Revisions int64
}

// NewLegacyDigest starts a digest.
func NewLegacyDigest() *LegacyDigest { return &LegacyDigest{h: sha256.New()} }

// Hand adds the next hand's hash.
func (d *LegacyDigest) Hand(sum []byte) { d.add(sum); d.Hands++ }

// Revision adds the next revision's hash (after every hand's).
func (d *LegacyDigest) Revision(sum []byte) { d.add(sum); d.Revisions++ }

func (d *LegacyDigest) add(sum []byte) {
	d.h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(sum))))
	d.h.Write(sum)
}

// Sum is the digest.
func (d *LegacyDigest) Sum() []byte { return d.h.Sum(nil) }

func (k Key) mac(m message) ([]byte, error) {
	if m.err != nil {
		return nil, m.err
	}
	if !k.Valid() {
		return nil, errors.New("no chain key configured")
	}
	h := hmac.New(sha256.New, k.secret)
	h.Write(m.b)
	return h.Sum(nil), nil
}

// Equal reports whether two hashes are equal, in constant time.
func Equal(a, b []byte) bool { return hmac.Equal(a, b) }

// message is a MAC's message under construction: length-prefixed fields.
type message struct {
	b   []byte
	err error
}

func (m *message) field(p []byte) {
	m.b = binary.BigEndian.AppendUint64(m.b, uint64(len(p)))
	m.b = append(m.b, p...)
}

func (m *message) int(n int64)   { m.field(strconv.AppendInt(nil, n, 10)) }
func (m *message) text(s string) { m.field([]byte(s)) }

func (m *message) time(t time.Time) {
	m.field([]byte(t.UTC().Format("2006-01-02T15:04:05.000000Z")))
}

func (m *message) json(raw json.RawMessage) {
	c, err := Canonical(raw)
	if err != nil && m.err == nil {
		m.err = err
	}
	m.field(c)
}

// Canonical returns the canonical form of a JSON value, the same for every
// text of it PostgreSQL's jsonb or Go's encoder may write: objects with
// their keys in byte order (the last of a repeated key wins, as in jsonb),
// no whitespace, strings quoted with only '"', '\\' and the characters below
// U+0020 escaped (those as \u00XX), and numbers by their exact value: an
// integer in decimal, any other number as its exact fraction num/den in
// lowest terms (so 1.50, 1.5 and 15e-1 are all "3/2"). An empty value is
// the empty string (a column that holds nothing).
func Canonical(raw json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	p := parser{in: raw}
	out, err := p.value(make([]byte, 0, len(raw)), 0)
	if err != nil {
		return nil, err
	}
	if p.space(); p.pos != len(p.in) {
		return nil, errors.New("chain: a JSON value followed by more")
	}
	return out, nil
}

// maxExponent bounds the exponent of a number Canonical reads exactly, so
// a hostile one cannot make it compute a huge power of ten; a larger one is
// kept as written. It lies beyond what PostgreSQL's numeric holds (131072
// digits before the point, 16383 after), so every number a jsonb column
// can hold is read by its value. (No ledger value comes near: facts are
// decoded into integers before anything is stored.)
const maxExponent = 1 << 18

// canonicalNumber writes a JSON number by its exact value.
func canonicalNumber(s string) (string, error) {
	if !strings.ContainsAny(s, ".eE") { // an integer, as JSON writes one
		if s == "-0" {
			return "0", nil
		}
		return s, nil
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || exp > maxExponent || exp < -maxExponent {
			return s, nil
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return "", fmt.Errorf("chain: %q is not a number", s)
	}
	return r.RatString(), nil
}
