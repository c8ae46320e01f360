// Package backup is the stichbuch export document, the backup of a club's
// whole ledger, and the flows that write and read it: Export streams a
// club from the store into a document, Import streams a document into an
// empty store. The flows decide (the order of the records, every field's
// validity, that every hand re-scores and every settlement version
// re-computes, that every hash and invariant holds); the store behind
// ExportStore and ImportStore only reads and writes, in pages.
//
// # The document
//
// A document is NDJSON: one JSON object per line, each holding one record
// under its kind's name, in a fixed order (Record lists it). Neither side
// ever holds the club whole: the exporter walks the store's cursors, the
// importer checks each record as it comes and keeps only the table and
// the evening it is in. A document that ends before its end record is
// truncated and refused.
//
// # What an import trusts
//
// Nothing it can re-derive. Every name, note, time zone, stake, rule set
// and booking passes the API's own validation; a table's rule set is the
// one its preset and options resolve to; a session's terms (ledger.Terms,
// fixed when it opened) keep the ledger's limits and their rule set is one
// its table's game resolves (ledger.CheckTerms); every hand re-scores
// under its session's rule set; every settlement version and its
// transfers re-compute, with its session's stake, settle mode and match
// price, from the re-scored hands and the payments made before it; every
// hand's and revision's hash of the tamper-evidence chain verifies with
// the installation's chain key (ledger/chain), unless the operator imports
// the document as foreign, which chains it anew. A tournament passes the API's own validation,
// over tables of the document that play by the TSR, and each of its
// rounds names a session per table, at that table, on the tournament's
// date, in no other round, seated as a round is. Payments are facts the
// document reports (which transfer was paid, when, with which key); every
// settlement version after them must account for them. The change feed is checked for its order,
// its kinds, the shape of each kind's data and what it names. What fails
// is refused, naming the line, hand or session, and nothing is stored.
//
// API keys cannot be verified from a document (a role or a revocation is
// just a word in it), so they are not restored: the document carries only
// the keys its records name as their recorder (id, label, creation time;
// no role, no secret's hash), the import stores them revoked, as history,
// and mints one new admin key, whose secret it returns once.
package backup

import (
	"encoding/json"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Format marks a stichbuch export document on its first line. An importer
// refuses any other marker; a change of the document's shape gets a new
// one. stichbuch-export/1 (one indented JSON object, with the keys' roles
// and secrets' hashes) is no longer read: restore it with the release that
// wrote it and export it again.
const Format = "stichbuch-export/2"

// Record is one line of a document: exactly one of its fields is set. The
// lines come in this order:
//
//	format                                      the marker, first
//	club                                        one
//	player …                                    by id
//	table                                       by id, each followed by
//	  session                                   its sessions by id, each followed by
//	    hand, revision …                        its hands by number, each followed by its revisions
//	    settlement, transfer …                  its settlement versions, each followed by its transfers
//	tournament                                  by id, each followed by
//	  tournament_round …                        its rounds by number
//	season_rules …                              by name and version
//	old_list_import                             by id, each followed by
//	  imported_evening …                        its evenings by id
//	kitty_booking …                             by id
//	change …                                    by seq
//	end                                         the number of records before it
//
// An api_key line comes right before the first line that names the key
// as its recorder. Every list is ordered and every time is in UTC, so two
// exports of the same ledger are byte for byte the same.
type Record struct {
	Format     string           `json:"format,omitempty"`
	Club       *Club            `json:"club,omitempty"`
	Key        *Key             `json:"api_key,omitempty"`
	Player     *Player          `json:"player,omitempty"`
	Table      *Table           `json:"table,omitempty"`
	Session    *Session         `json:"session,omitempty"`
	Hand       *Hand            `json:"hand,omitempty"`
	Revision   *Revision        `json:"revision,omitempty"`
	Settlement *Settlement      `json:"settlement,omitempty"`
	Transfer   *Transfer        `json:"transfer,omitempty"`
	Tournament *Tournament      `json:"tournament,omitempty"`
	Round      *TournamentRound `json:"tournament_round,omitempty"`
	// The season's (season.go).
	SeasonRules     *SeasonRules     `json:"season_rules,omitempty"`
	OldListImport   *OldListImport   `json:"old_list_import,omitempty"`
	ImportedEvening *ImportedEvening `json:"imported_evening,omitempty"`
	KittyBooking    *KittyBooking    `json:"kitty_booking,omitempty"`
	Change          *Change          `json:"change,omitempty"`
	End             *End             `json:"end,omitempty"`
}

// Club is the club of a document.
type Club struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	TimeZone  string    `json:"time_zone"`
	CreatedAt time.Time `json:"created_at"`
	// ChangeSeq is the number of the club's last change in its feed.
	ChangeSeq int64 `json:"change_seq"`
}

// Key is an API key some record names as its recorder: only what the
// history needs. Its role, revocation and secret's hash are left out: an
// import could not verify them, and does not restore keys.
type Key struct {
	ID        int64     `json:"id"`
	Label     string    `json:"label"`
	CreatedAt time.Time `json:"created_at"`
}

// Player is a player of the club; a retired one stays in the history.
type Player struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Retired   bool      `json:"retired"`
	Guest     bool      `json:"guest,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// Table is a table with its rule set, stake, and its hand count and state
// after its last hand (both must follow from the hands).
type Table struct {
	ID             int64           `json:"id"`
	Name           string          `json:"name"`
	Game           string          `json:"game"`
	Preset         string          `json:"preset"`
	Options        json.RawMessage `json:"options"`
	Rules          json.RawMessage `json:"rules"`
	Stake          score.Points    `json:"stake_cents_per_point"`
	SettleMode     string          `json:"settle_mode"`
	MatchLossCents int64           `json:"match_loss_cents"`
	Hands          int             `json:"hands"`
	State          json.RawMessage `json:"state"`
	CreatedAt      time.Time       `json:"created_at"`
}

// Session is an evening at a table with its seating order and the terms
// it is played and settled under, fixed when it opened: its hands
// re-score under its rule set and its settlement versions re-compute with
// its stake, settle mode and match price, whatever its table's settings
// are now.
type Session struct {
	ID       int64      `json:"id"`
	TableID  int64      `json:"table_id"`
	Date     string     `json:"date"`
	Seating  []int64    `json:"seating"`
	OpenedAt time.Time  `json:"opened_at"`
	ClosedAt *time.Time `json:"closed_at"`
	Terms    Terms      `json:"terms"`
}

// Terms are a session's terms (ledger.Terms): the resolved rule set, the
// stake, the settle mode and what each loser of a Klaberjass match pays.
type Terms struct {
	Rules          json.RawMessage `json:"rules"`
	Stake          score.Points    `json:"stake_cents_per_point"`
	SettleMode     string          `json:"settle_mode"`
	MatchLossCents int64           `json:"match_loss_cents"`
}

// ledger returns the terms as the ledger has them.
func (t Terms) ledger() ledger.Terms {
	return ledger.Terms{Rules: t.Rules, Stake: t.Stake, SettleMode: ledger.SettleMode(t.SettleMode), MatchLossCents: t.MatchLossCents}
}

// Hand is a hand as recorded (its revision 1): the facts, the result
// (points, lines, events, winners …), the table's state after it, who
// recorded it when, and its tamper-evidence hash (hex) with the id of the
// chain key that made it (hex; none for a hash of the trigger era, an
// unkeyed SHA-256). An import verifies the hash with its installation's
// key (see ledger/chain); a hash of another key, or none, it accepts only
// as foreign. Its game is its table's, its rule set its session's. The
// revisions corrections appended follow it.
type Hand struct {
	ID         int64           `json:"id"`
	TableID    int64           `json:"table_id"`
	SessionID  int64           `json:"session_id"`
	Number     int             `json:"number"`
	Facts      json.RawMessage `json:"facts"`
	Result     json.RawMessage `json:"result"`
	StateAfter json.RawMessage `json:"state_after"`
	RecordedBy int64           `json:"recorded_by"`
	RecordedAt time.Time       `json:"recorded_at"`
	Hash       string          `json:"hash"`
	ChainKey   string          `json:"chain_key,omitempty"`
}

// Revision is a revision of a hand a correction appended: new facts (or
// the hand voided) scored anew, with its own hash chained to the revision
// before it. The last one is the hand's current version.
type Revision struct {
	ID         int64           `json:"id"`
	HandID     int64           `json:"hand_id"`
	Revision   int             `json:"revision"`
	Facts      json.RawMessage `json:"facts"`
	Result     json.RawMessage `json:"result"`
	StateAfter json.RawMessage `json:"state_after"`
	Void       bool            `json:"void"`
	Reason     string          `json:"reason"`
	CausedBy   int             `json:"caused_by"`
	RecordedBy int64           `json:"recorded_by"`
	RecordedAt time.Time       `json:"recorded_at"`
	Hash       string          `json:"hash"`
	ChainKey   string          `json:"chain_key,omitempty"`
}

// Settlement is one stored version of a session's settlement; its body is
// the ledger.Settlement as stored (ledger.SettlementBody).
type Settlement struct {
	ID        int64           `json:"id"`
	SessionID int64           `json:"session_id"`
	Version   int             `json:"version"`
	Body      json.RawMessage `json:"body"`
	CreatedAt time.Time       `json:"created_at"`
}

// Transfer is a transfer of a settlement version; a nil From or To is the
// kitty. Payment is set once it was marked paid.
type Transfer struct {
	ID           int64    `json:"id"`
	SettlementID int64    `json:"settlement_id"`
	From         *int64   `json:"from"`
	To           *int64   `json:"to"`
	Cents        int64    `json:"cents"`
	Payment      *Payment `json:"payment"`
}

// Payment records that a transfer was paid, and with which key.
type Payment struct {
	PaidAt     time.Time `json:"paid_at"`
	RecordedBy int64     `json:"recorded_by"`
}

// KittyBooking is one booking of the club's kitty.
type KittyBooking struct {
	ID         int64     `json:"id"`
	Cents      int64     `json:"cents"`
	Kind       string    `json:"kind"`
	Note       string    `json:"note"`
	SessionID  *int64    `json:"session_id"`
	RecordedBy int64     `json:"recorded_by"`
	CreatedAt  time.Time `json:"created_at"`
}

// Change is one entry of the club's change feed.
type Change struct {
	Seq       int64           `json:"seq"`
	Kind      string          `json:"kind"`
	TableID   *int64          `json:"table_id"`
	SessionID *int64          `json:"session_id"`
	Number    *int            `json:"number"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"created_at"`
}

// End closes a document: the number of records between the format line
// and it. A document without it is truncated.
type End struct {
	Records int64 `json:"records"`
}

// Summary counts what a document holds.
type Summary struct {
	Club          Club
	Players       int
	Tables        int
	Sessions      int
	Hands         int
	Revisions     int
	Settlements   int
	Tournaments   int
	KittyBookings int
	// ImportedEvenings are the old lists' evenings (season.go).
	ImportedEvenings int
}
