// Package ledger is stichbuch's domain: clubs, API keys, players, tables,
// sessions, hands and their entries, money and statistics, and the
// use-cases that keep them (Service). It owns every rule: the write flows
// run here against small store ports (ports.go); the adapters translate
// and never decide. It knows the games through their registry and never
// imports a database or HTTP library; adapters live in subpackages
// (postgres, memory) and in api. DESIGN.md beside this file says why.
//
// Tournament evenings (tournament.go) are Doppelkopf as DDV clubs play it:
// rounds of a fixed number of games at several tables, the Pflichtsolo
// owed per round and its Vorführung, the Spielliste and the ranking, by
// the TSR paragraphs the doppelkopf package documentation quotes.
package ledger

import (
	"encoding/json"
	"time"

	"github.com/stichbuch/stichbuch/ledger/score"
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
	// TableID limits the key to one table of the club (scope.go); nil:
	// the whole club.
	TableID *int64 `json:"table_id,omitempty"`
}

// Player is a club member or guest. A retired player stays in the
// history but is seated at no new evening.
type Player struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Retired   bool      `json:"retired"`
	CreatedAt time.Time `json:"created_at"`
}

// Table is a standing group playing one game under one rule set, with the
// game state that carries across hands and evenings.
type Table struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Game   string `json:"game"`
	Preset string `json:"preset"`
	// Options are the overrides as given; Rules the resolved rule set.
	Options json.RawMessage `json:"options"`
	Rules   json.RawMessage `json:"rules"`
	// Stake is the money per point in cents, exact (half a cent is common).
	Stake score.Points `json:"stake_cents_per_point"`
	// SettleMode is how the evening's money changes hands.
	SettleMode SettleMode `json:"settle_mode"`
	// MatchLossCents is what each loser of a Klaberjass match pays.
	MatchLossCents int64 `json:"match_loss_cents"`
	Hands          int   `json:"hands"`
	// State is what the last hand left (a new table's is its NextHand).
	State json.RawMessage `json:"state"`
	// OpenSessionID is the session hands are recorded in now, if any.
	OpenSessionID *int64 `json:"open_session_id"`
	// NextHand is the state as the next hand will find it (the engine's
	// preview): with the open session's seating and date when there is
	// one. Filled by the service's reads.
	NextHand  json.RawMessage `json:"next_hand,omitempty"`
	CreatedAt time.Time       `json:"created_at"`
	// Version counts the writes that change what the next hand is scored
	// from; recording a hand expects the version it was decided from.
	Version int64 `json:"-"`
	// ChainHead is the hash of the table's last hand, read with Version:
	// what the store chains the next hand to. The flows hand it back to
	// the store unread.
	ChainHead []byte `json:"-"`
}

// NewTable is a table to create.
type NewTable struct {
	Name           string
	Game           string
	Preset         string
	Options        json.RawMessage
	Stake          score.Points
	SettleMode     SettleMode
	MatchLossCents int64
}

// Session is one evening at a table.
type Session struct {
	ID       int64      `json:"id"`
	TableID  int64      `json:"table_id"`
	Date     string     `json:"date"` // YYYY-MM-DD in the club's time zone
	Seating  []int64    `json:"player_ids"`
	OpenedAt time.Time  `json:"opened_at"`
	ClosedAt *time.Time `json:"closed_at,omitempty"`
	// NextHand is, while the session is open, the table's state as its
	// next hand will find it. Filled by the service's reads.
	NextHand json.RawMessage `json:"next_hand,omitempty"`
	// Terms are the table's settings the evening is played and settled
	// under, fixed when it opens.
	Terms Terms `json:"terms"`
}

// Terms are a table's settings for an evening: the resolved rule set its
// hands are scored under, the stake, the settle-up mode and what each
// loser of a Klaberjass match pays.
type Terms struct {
	Rules          json.RawMessage `json:"rules"`
	Stake          score.Points    `json:"stake_cents_per_point"`
	SettleMode     SettleMode      `json:"settle_mode"`
	MatchLossCents int64           `json:"match_loss_cents"`
}

// Terms are the table's current settings: those of its next evening.
func (t Table) Terms() Terms {
	return Terms{Rules: t.Rules, Stake: t.Stake, SettleMode: t.SettleMode, MatchLossCents: t.MatchLossCents}
}

// Under returns the table as an evening played under terms sees it: its
// rule set, stake, settle mode and match price are the terms', whatever
// the table's current settings are.
func (t Table) Under(terms Terms) Table {
	t.Rules, t.Stake, t.SettleMode, t.MatchLossCents = terms.Rules, terms.Stake, terms.SettleMode, terms.MatchLossCents
	return t
}

// AfterHand is the table as a stored hand leaves it: the hand's number as
// its count, the hand's state, the hand's hash as the chain's head, and
// the next version. Every store applies it to the table's row in the
// hand's transaction (the postgres store in SQL), and the hand path keeps
// it as the table's snapshot (handLanes).
func (t Table) AfterHand(h Hand) Table {
	t.Hands, t.State, t.ChainHead, t.Version = h.Number, h.Result.State, h.Hash, t.Version+1
	return t
}

// Open reports whether hands may still be recorded in the session.
func (s Session) Open() bool { return s.ClosedAt == nil }

// Hand is the immutable record of one hand: its facts, the rule set it was
// scored under, the result, and the table's state after it.
type Hand struct {
	ID         int64           `json:"id"`
	TableID    int64           `json:"table_id"`
	SessionID  int64           `json:"session_id"`
	Number     int             `json:"number"`
	Game       string          `json:"game"`
	Rules      json.RawMessage `json:"rules"`
	Facts      json.RawMessage `json:"facts"`
	Result     score.Result    `json:"result"`
	RecordedBy int64           `json:"recorded_by_key_id"`
	RecordedAt time.Time       `json:"recorded_at"`
	// Revision is the hand's current revision: 1 as recorded, more after
	// corrections (the facts and result above are the current ones).
	Revision int  `json:"revision"`
	Void     bool `json:"void"`
	// Reason is the reason given with the current revision (why the hand
	// was corrected or voided, or which correction re-scored it); empty as
	// recorded.
	Reason string `json:"reason,omitempty"`
	// Hash is the tamper-evidence hash of the current revision, what the
	// store chains the hand's next revision to; the flows hand it back to
	// the store unread.
	Hash []byte `json:"-"`
}

// MarshalJSON adds to the hand's fields who dealt it and who played it
// (the result's, as the engine resolved them when the facts left them
// out).
func (h Hand) MarshalJSON() ([]byte, error) {
	type plain Hand
	return json.Marshal(struct {
		plain
		Dealer  int64   `json:"dealer_id,omitempty"`
		Players []int64 `json:"player_ids,omitempty"`
	}{plain(h), h.Result.Dealer, h.Result.Players})
}

// NewHand is a hand to record.
type NewHand struct {
	TableID   int64
	SessionID int64
	// Number is the number the client expects the hand to get; another
	// hand recorded first makes it a conflict instead of a duplicate.
	Number int
	Facts  json.RawMessage
	// ClientID is the id an offline outbox gave the hand (optional). When
	// set it is the hand's idempotency key, whatever Idempotency-Key came
	// with it: the outbox retries under it.
	ClientID string
}

// Standing is one player's total at a table or in a session.
type Standing struct {
	Player int64        `json:"player_id"`
	Name   string       `json:"name"`
	Points score.Points `json:"points"`
	// Hands counts the hands he played, SatOut those he sat out (a redeal
	// and a voided hand count for neither).
	Hands  int `json:"hands"`
	SatOut int `json:"sat_out"`
	// Entries counts the hands with an entry of his, whatever they were:
	// what a settlement reports as his hands.
	Entries int `json:"-"`
}

// Idempotency makes a write safe to retry: the same key and request hash
// replay the first result, the same key with another hash is refused.
type Idempotency struct {
	Key  string
	Hash []byte
	// Field names where the key came from in a refusal; "" is the
	// Idempotency-Key header.
	Field string
}

// MaxIdempotencyKeyLen bounds an Idempotency-Key, in bytes: the keys are a
// primary key's text, whose index entries PostgreSQL limits.
const MaxIdempotencyKeyLen = 200

// Actor is who makes a request: the club and the API key, and the one
// table the key is limited to (0: the whole club).
type Actor struct {
	ClubID  int64
	KeyID   int64
	Role    Role
	TableID int64
}

// Page asks for a slice of a list: items after a cursor (the id of the
// last item seen, 0 for the first page), at most Limit (0: every item).
type Page struct {
	After int64
	Limit int
}

// MaxPageLimit is the most items one page of a list holds.
const MaxPageLimit = 1000

// Check refuses a negative cursor and a limit beyond 0..MaxPageLimit.
func (p Page) Check() error {
	if p.After < 0 {
		return Invalid("after", "must be 0 or the id of an item seen, got %d", p.After)
	}
	if p.Limit < 0 || p.Limit > MaxPageLimit {
		return Invalid("limit", "must be from 1 to %d, got %d", MaxPageLimit, p.Limit)
	}
	return nil
}
