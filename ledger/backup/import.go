package backup

import (
	"context"
	"fmt"
	"strings"

	"github.com/stichbuch/stichbuch/ledger"
)

// ImportStore is the store Import loads a document into.
type ImportStore interface {
	// ImportTx runs fn in one transaction: what fn loaded is committed
	// when it returns nil and rolled back, all of it, when it returns an
	// error.
	ImportTx(ctx context.Context, fn func(ImportTx) error) error
}

// ImportTx is what Import reads and writes in its transaction, in the
// order Import calls it. It keeps every id of the document.
type ImportTx interface {
	// LockClubs keeps new clubs out until the transaction ends and returns
	// the clubs the store already holds.
	LockClubs(ctx context.Context) (Present, error)
	// InsertLedger inserts the club with its keys and players, the tables
	// (with their hand count and state) and sessions, then the hands in
	// table and number order, each hand's revisions in order and each
	// hand's entries (by hand id), and returns the hash the store computed
	// for every hand and revision as it chained it to the one before.
	InsertLedger(ctx context.Context, d *Document, entries map[int64][]Entry) (Hashes, error)
	// Complete inserts the settlements, transfers, payments, kitty bookings
	// and the change feed as they were, rebuilds the running totals from
	// the entries and the statistics from the hands and settlements, and
	// moves the id sequences past the imported ids.
	Complete(ctx context.Context, d *Document) error
	// FirstBreach returns the first invariant verify checks that the
	// loaded ledger breaks, nil when it keeps them all; zeroSumGames are
	// the games whose hands must sum to zero.
	FirstBreach(ctx context.Context, zeroSumGames []string) (*Breach, error)
}

// Present is what a store holds before an import: how many clubs, and the
// one with the lowest id.
type Present struct {
	Clubs     int
	FirstID   int64
	FirstName string
}

// Hashes are the tamper-evidence hashes (hex) a store computed for the
// hands and revisions it loaded, by hand id and by revision id.
type Hashes struct {
	Hands     map[int64]string
	Revisions map[int64]string
}

// Breach is an invariant a loaded ledger breaks, with its first breach.
type Breach struct {
	Invariant string
	Detail    string
}

// Import loads a document into an empty store in one transaction, or
// refuses it and stores nothing.
//
// Before touching the store it checks the document (Check) and re-scores
// every hand (Rescore). It refuses a store that holds any club
// (ECONFLICT). It loads the history rows as they were, so the store
// recomputes every chained hash, and refuses the document when one differs
// from the exported hash. It loads the rest, has the store rebuild what is
// derived, and refuses the ledger when it breaks an invariant verify
// checks; otherwise the transaction commits.
func Import(ctx context.Context, store ImportStore, d *Document) error {
	if err := d.Check(); err != nil {
		return err
	}
	if err := d.Rescore(); err != nil {
		return err
	}
	entries, err := d.entries()
	if err != nil {
		return err
	}
	return store.ImportTx(ctx, func(tx ImportTx) error {
		present, err := tx.LockClubs(ctx)
		if err != nil {
			return err
		}
		if present.Clubs > 0 {
			return ledger.Errorf(ledger.ECONFLICT,
				"the database is not empty: it holds %d club(s), among them %d %s; import loads a club only into an empty database",
				present.Clubs, present.FirstID, quoteLiteral(present.FirstName))
		}
		hashes, err := tx.InsertLedger(ctx, d, entries)
		if err != nil {
			return err
		}
		if err := d.compareHashes(hashes); err != nil {
			return err
		}
		if err := tx.Complete(ctx, d); err != nil {
			return err
		}
		breach, err := tx.FirstBreach(ctx, ledger.ZeroSumGames())
		if err != nil {
			return err
		}
		if breach != nil {
			return ledger.Errorf(ledger.EINVALID, "the imported ledger breaks %q: %s", breach.Invariant, breach.Detail)
		}
		return nil
	})
}

// entries returns every hand's entries by hand id.
func (d *Document) entries() (map[int64][]Entry, error) {
	out := make(map[int64][]Entry, len(d.Hands))
	for _, h := range d.Hands {
		e, err := h.Entries()
		if err != nil {
			return nil, ledger.Errorf(ledger.EINVALID, "%v", err)
		}
		out[h.ID] = e
	}
	return out, nil
}

// compareHashes refuses the document when a hash the store computed
// differs from the exported one, naming the first such hand (all hands
// first, in order, then their revisions).
func (d *Document) compareHashes(computed Hashes) error {
	mismatch := func(what, got, want string) error {
		return ledger.Errorf(ledger.EINVALID,
			"%s: the database computes the hash %s, the document says %s; its content, its recording time or an earlier hand or revision was changed",
			what, got, want)
	}
	for _, h := range d.Hands {
		got, ok := computed.Hands[h.ID]
		if !ok {
			return fmt.Errorf("the store computed no hash for table %d, hand %d", h.TableID, h.Number)
		}
		if got != h.Hash {
			return mismatch(fmt.Sprintf("table %d, hand %d", h.TableID, h.Number), got, h.Hash)
		}
	}
	for _, h := range d.Hands {
		for _, r := range h.Revisions {
			got, ok := computed.Revisions[r.ID]
			if !ok {
				return fmt.Errorf("the store computed no hash for table %d, hand %d, revision %d", h.TableID, h.Number, r.Revision)
			}
			if got != r.Hash {
				return mismatch(fmt.Sprintf("table %d, hand %d, revision %d", h.TableID, h.Number, r.Revision), got, r.Hash)
			}
		}
	}
	return nil
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
