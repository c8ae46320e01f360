// Package backup is the stichbuch export document, the backup of a club's
// whole ledger, and the flows that write and read it: Export reads a club
// from the store as a Document, Import loads a Document into an empty
// store. The flows decide (the document hangs together, every hand
// re-scores, the store is empty, every hash and invariant holds); the store
// behind ExportStore and ImportStore only reads and writes.
package backup

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Format marks a stichbuch export document. An importer refuses a
// document with any other marker; a change of the document's shape gets a
// new one.
const Format = "stichbuch-export/1"

// Document is one club's whole ledger as one document: the backup of the
// embedded database and the way to move a club to another server.
//
// It holds the club, its API keys (the SHA-256 of each secret, never a
// secret, so a restored database accepts the same keys), players, tables,
// sessions, every hand with every stored column and every revision a
// correction appended, every settlement version, the transfers with their
// payments, the kitty's bookings and the club's change feed. Every list is
// ordered by id (hands by table and number, revisions by number, changes by
// seq) and every time is in UTC, so two exports of the same ledger are byte
// for byte the same.
//
// Left out, because they are derived or disposable: the entries and the
// running totals (rebuilt from the hands' and revisions' results on
// import), the prev_hash columns (the hash of the hand or revision before),
// and the idempotency keys (a request retried across an export and import
// is not recognized as a retry, and may be stored twice).
type Document struct {
	Format        string         `json:"format"`
	Club          Club           `json:"club"`
	APIKeys       []Key          `json:"api_keys"`
	Players       []Player       `json:"players"`
	Tables        []Table        `json:"tables"`
	Sessions      []Session      `json:"sessions"`
	Hands         []Hand         `json:"hands"`
	Settlements   []Settlement   `json:"settlements"`
	Transfers     []Transfer     `json:"transfers"`
	KittyBookings []KittyBooking `json:"kitty_bookings"`
	Changes       []Change       `json:"changes"`
	// Tournaments are the tournament evenings (tournament.go); absent in a
	// document written before they existed.
	Tournaments []Tournament `json:"tournaments"`
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

// Key is an API key: the hex SHA-256 of its secret, never the secret.
type Key struct {
	ID           int64       `json:"id"`
	Role         ledger.Role `json:"role"`
	Label        string      `json:"label"`
	SecretSHA256 string      `json:"secret_sha256"`
	CreatedAt    time.Time   `json:"created_at"`
	RevokedAt    *time.Time  `json:"revoked_at"`
}

// Player is a player of the club.
type Player struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
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

// Session is an evening at a table with its seating order.
type Session struct {
	ID       int64      `json:"id"`
	TableID  int64      `json:"table_id"`
	Date     string     `json:"date"`
	Seating  []int64    `json:"seating"`
	OpenedAt time.Time  `json:"opened_at"`
	ClosedAt *time.Time `json:"closed_at"`
}

// Hand is a hand as recorded (its revision 1): the facts, the rule set it
// was scored under, the result (points, lines, events, winners …), the
// table's state after it, who recorded it when, and its tamper-evidence
// hash (hex), which the importing database must compute to the same value.
// The revisions corrections appended follow it, oldest first; the last one
// is the hand's current version.
type Hand struct {
	ID         int64           `json:"id"`
	TableID    int64           `json:"table_id"`
	SessionID  int64           `json:"session_id"`
	Number     int             `json:"number"`
	Game       string          `json:"game"`
	Rules      json.RawMessage `json:"rules"`
	Facts      json.RawMessage `json:"facts"`
	Result     json.RawMessage `json:"result"`
	StateAfter json.RawMessage `json:"state_after"`
	RecordedBy int64           `json:"recorded_by"`
	RecordedAt time.Time       `json:"recorded_at"`
	Hash       string          `json:"hash"`
	Revisions  []Revision      `json:"revisions"`
}

// Revision is a revision of a hand a correction appended: new facts (or
// the hand voided) scored anew, with its own hash chained to the revision
// before it.
type Revision struct {
	ID         int64           `json:"id"`
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
}

// Settlement is one stored version of a session's settlement.
type Settlement struct {
	ID        int64           `json:"id"`
	SessionID int64           `json:"session_id"`
	Version   int             `json:"version"`
	Body      json.RawMessage `json:"body"`
	CreatedAt time.Time       `json:"created_at"`
}

// Transfer is a transfer of a settlement; a nil From or To is the kitty.
// Payment is set once it was marked paid.
type Transfer struct {
	ID           int64    `json:"id"`
	SettlementID int64    `json:"settlement_id"`
	SessionID    int64    `json:"session_id"`
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

// Encode writes the document as indented JSON with a final newline. The
// same document always gives the same bytes.
func (d *Document) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// Decode reads an export document, refusing another format marker,
// unknown fields and trailing data, and checks that it hangs together
// (Check). It does not re-score the hands; Rescore does.
func Decode(r io.Reader) (*Document, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var head struct {
		Format *string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, ledger.Invalid("document", "is not a JSON object: %v", err)
	}
	if head.Format == nil {
		return nil, ledger.Invalid("format", "missing: this is not a stichbuch export (want %q)", Format)
	}
	if *head.Format != Format {
		return nil, ledger.Invalid("format", "is %q; this stichbuch reads %q only", *head.Format, Format)
	}
	var d Document
	if err := score.DecodeStrict("", data, &d); err != nil {
		return nil, ledger.AsError(err)
	}
	if err := d.Check(); err != nil {
		return nil, err
	}
	return &d, nil
}

// handVersion is one version of a hand: revision 1 (the hand as recorded)
// or a later revision.
type handVersion struct {
	revision   int
	facts      json.RawMessage
	result     json.RawMessage
	stateAfter json.RawMessage
	void       bool
}

// versions returns the hand's versions, revision 1 first.
func (h Hand) versions() []handVersion {
	out := []handVersion{{revision: 1, facts: h.Facts, result: h.Result, stateAfter: h.StateAfter}}
	for _, r := range h.Revisions {
		out = append(out, handVersion{revision: r.Revision, facts: r.Facts, result: r.Result, stateAfter: r.StateAfter, void: r.Void})
	}
	return out
}

func storedPoints(raw json.RawMessage) ([]score.PlayerPoints, error) {
	var r struct {
		Points []score.PlayerPoints `json:"points"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("result unreadable: %w", err)
	}
	return r.Points, nil
}

// Entry is one entry a hand's history makes: revision 1's points, and for
// each later revision the difference to the revision before.
type Entry struct {
	Revision int
	Player   int64
	Points   score.Points
}

// Entries returns the entries the store keeps for the hand: one per player
// of the hand as recorded, then per revision one per player whose points
// changed, carrying the difference (as a correction appends them).
func (h Hand) Entries() ([]Entry, error) {
	var out []Entry
	var previous score.Result
	for _, v := range h.versions() {
		points, err := storedPoints(v.result)
		if err != nil {
			return nil, fmt.Errorf("table %d, hand %d, revision %d: %w", h.TableID, h.Number, v.revision, err)
		}
		next := score.Result{Points: points}
		diffs := points
		if v.revision > 1 {
			diffs = ledger.PointDiffs(previous, next)
		}
		for _, p := range diffs {
			out = append(out, Entry{Revision: v.revision, Player: p.Player, Points: p.Points})
		}
		previous = next
	}
	return out, nil
}
