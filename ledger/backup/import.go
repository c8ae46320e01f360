package backup

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
)

// ImportStore is the store Import loads a document into.
type ImportStore interface {
	// ChainKey is the installation's chain key, which the document's
	// hashes must verify with and the store's rows are chained with.
	ChainKey() chain.Key
	// ImportTx runs fn in one transaction: what fn loaded is committed
	// when it returns nil and rolled back, all of it, when it returns an
	// error.
	ImportTx(ctx context.Context, fn func(ImportTx) error) error
}

// ImportTx is what Import reads and writes in its transaction, in the
// order Import calls it. It keeps every id it is given.
type ImportTx interface {
	// LockClubs keeps new clubs out until the transaction ends and returns
	// the clubs the store already holds.
	LockClubs(ctx context.Context) (Present, error)
	// Write inserts a batch of checked rows in one round trip, in the
	// order of Batch's fields and each list in its order, the hands and
	// revisions with their links as given.
	Write(ctx context.Context, b *Batch) error
	// Complete rebuilds the running totals from the entries and each
	// table's chain head from its last hand, and moves the id sequences
	// past the imported ids.
	Complete(ctx context.Context, clubID int64) error
	// Stats is the club's statistics in the import's transaction, which
	// Import rebuilds from the hands and the latest settlement versions
	// (ledger.RebuildStats).
	Stats(clubID int64) ledger.StatsTx
	// AddKey stores a new API key of the club under the next free id.
	AddKey(ctx context.Context, clubID int64, k ledger.NewKey) (int64, error)
	// FirstBreach returns the first invariant verify checks that the
	// loaded ledger breaks, nil when it keeps them all; zeroSumGames are
	// the games whose hands must sum to zero.
	FirstBreach(ctx context.Context, zeroSumGames []string) (*Breach, error)
}

// Batch is a part of a document, checked, for the store to insert: every
// row a later one refers to comes in an earlier batch or an earlier field.
type Batch struct {
	Club        *Club
	Keys        []KeyRow
	Players     []Player
	Tables      []Table // with the rule set their preset and options resolve to
	Sessions    []Session
	Hands       []HandRow
	Settlements []SettlementRow
	Tournaments []Tournament
	Rounds      []RoundRow
	// The season's (season.go).
	SeasonRules      []SeasonRules
	OldListImports   []OldListImport
	ImportedEvenings []ImportedEvening
	KittyBookings    []KittyBooking
	Changes          []Change
	rows             int
}

// KeyRow is a key of the document as stored: revoked, with a role and a
// secret's hash nobody knows, so it names who recorded what and opens
// nothing.
type KeyRow struct {
	Key
	Role       ledger.Role
	SecretHash []byte
	RevokedAt  time.Time
}

// HandRow is a hand with its table's game and its session's rule set,
// its revisions in order and the entries its history makes, and the links
// of the hand and of each revision in the chain.
type HandRow struct {
	Hand
	Game          string
	Rules         json.RawMessage
	Revisions     []Revision
	Entries       []Entry
	Link          Link
	RevisionLinks []Link
}

// SettlementRow is a settlement version with the body the ledger computed
// and its transfers in order.
type SettlementRow struct {
	Settlement
	Transfers []Transfer
}

// Present is what a store holds before an import: how many clubs, and the
// one with the lowest id.
type Present struct {
	Clubs     int
	FirstID   int64
	FirstName string
}

// Breach is an invariant a loaded ledger breaks, with its first breach.
type Breach struct {
	Invariant string
	Detail    string
}

// Imported is what an import loaded.
type Imported struct {
	Summary
	// AdminKey is the secret of the restored club's new admin key: the
	// only key that opens it, shown once.
	AdminKey string
	// Rekeyed counts the hands and revisions a foreign import chained
	// anew with this installation's key.
	Rekeyed int
}

// ImportOptions are the operator's choices for an import.
type ImportOptions struct {
	// Foreign accepts hashes this installation's key cannot check (made
	// with another installation's key, or unkeyed ones of the trigger era)
	// and chains those hands and revisions, and every later one of their
	// tables, anew with this installation's key. The document's content is
	// still re-derived and checked as always; only its hashes are not.
	Foreign bool
}

// AdminKeyLabel labels the admin key an import mints.
const AdminKeyLabel = "admin key of the import"

// batchRows is how many rows Import hands the store at once.
const batchRows = 1000

// Import is ImportWith without options: every hash must verify with the
// installation's key.
func Import(ctx context.Context, store ImportStore, r io.Reader) (Imported, error) {
	return ImportWith(ctx, store, r, ImportOptions{})
}

// ImportWith loads the document r holds into an empty store in one
// transaction, reading it a line at a time, or refuses it and stores
// nothing.
//
// It refuses a store that holds any club (ECONFLICT). It checks every
// record as it comes, with the API's own validation, checks every hand's
// and revision's hash with the installation's chain key (refusing one of
// another key, or none, unless opts.Foreign), re-scores every hand in
// table order and re-computes every settlement version (see the package
// documentation); it hands the store a batch at a time. Then it has the
// store rebuild what is derived, mints the club's new admin key, and
// refuses the ledger when it breaks an invariant verify checks; otherwise
// the transaction commits.
func ImportWith(ctx context.Context, store ImportStore, r io.Reader, opts ImportOptions) (Imported, error) {
	var out Imported
	err := store.ImportTx(ctx, func(tx ImportTx) error {
		present, err := tx.LockClubs(ctx)
		if err != nil {
			return err
		}
		if present.Clubs > 0 {
			return ledger.Errorf(ledger.ECONFLICT,
				"the database is not empty: it holds %d club(s), among them %d %s; import loads a club only into an empty database",
				present.Clubs, present.FirstID, quoteLiteral(present.FirstName))
		}
		im := &importer{tx: tx, now: time.Now().UTC().Truncate(time.Microsecond), keys: map[int64]bool{},
			players: map[int64]string{}, playerNames: map[string]bool{}, tables: map[int64]tableRef{},
			tableNames: map[string]bool{}, sessions: map[int64]sessionRef{}, tournaments: map[int64]*tournamentRun{},
			chainKey: store.ChainKey(), foreign: opts.Foreign}
		if err := im.read(ctx, NewReader(r)); err != nil {
			return err
		}
		if err := tx.Complete(ctx, im.club.ID); err != nil {
			return fmt.Errorf("completing the import of club %d: %w", im.club.ID, err)
		}
		if err := ledger.RebuildStats(ctx, tx.Stats(im.club.ID)); err != nil {
			return fmt.Errorf("rebuilding the statistics of club %d: %w", im.club.ID, err)
		}
		key, secret, err := ledger.MintKey(ledger.RoleAdmin, AdminKeyLabel)
		if err != nil {
			return err
		}
		id, err := tx.AddKey(ctx, im.club.ID, key)
		if err != nil {
			return err
		}
		breach, err := tx.FirstBreach(ctx, ledger.ZeroSumGames())
		if err != nil {
			return err
		}
		if breach != nil {
			return ledger.Errorf(ledger.EINVALID, "the imported ledger breaks %q: %s", breach.Invariant, breach.Detail)
		}
		out = Imported{Summary: im.summary, AdminKey: ledger.KeyToken(im.club.ID, id, secret), Rekeyed: im.rekeyed}
		return nil
	})
	if err != nil {
		return Imported{}, err
	}
	return out, nil
}

// read takes the document's records one by one, handing the store a batch
// whenever one is full.
func (im *importer) read(ctx context.Context, rd *Reader) error {
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		im.line = rd.Line()
		if err := im.take(rec); err != nil {
			return err
		}
		if im.batch.rows >= batchRows {
			if err := im.flush(ctx); err != nil {
				return err
			}
		}
	}
	if im.club.ID == 0 {
		return ledger.Invalid("club", "the document holds no club")
	}
	if err := im.closeTable(); err != nil {
		return err
	}
	if im.stage == stageSeasons {
		if err := im.closeOldListImport(); err != nil {
			return err
		}
	}
	return im.flush(ctx)
}

// flush hands the batch to the store.
func (im *importer) flush(ctx context.Context) error {
	b := im.batch
	im.batch = Batch{}
	err := im.tx.Write(ctx, &b)
	if ledger.ErrorCode(err) == ledger.ECONFLICT {
		return ledger.Errorf(ledger.EINVALID, "the document lists an id twice, before line %d: %v", im.line+1, err)
	}
	return err
}

// quoteLiteral quotes s as an SQL string literal, as PostgreSQL's
// quote_literal does: the way the refusal of a non-empty database has
// always named the first club.
func quoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		q = "E" + strings.ReplaceAll(q, `\`, `\\`)
	}
	return q
}
