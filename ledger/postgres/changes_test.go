package postgres_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// TestAHandDoesNotWaitForAnotherWritersCommit: while another write flow
// of the club has recorded its change and not yet committed, a hand of the
// table still commits (it is in the database before that flow ends), and
// RecordHand answers only once its change is in the feed, numbered after
// the other flow's, with no gap.
func TestAHandDoesNotWaitForAnotherWritersCommit(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	store := postgres.New(f.pool, pgtest.ChainKey)
	held, release, flowDone := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		flowDone <- store.InTx(ctx, f.actor.ClubID, func(tx ledger.Tx) error {
			if err := tx.RecordChange(ctx, ledger.NewChange{Kind: ledger.ChangeTableUpdated, TableID: &f.table.ID,
				Data: map[string]any{"changed": []string{"name"}}}); err != nil {
				return err
			}
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	recorded := make(chan error, 1)
	go func() {
		_, _, err := f.record(t, 1, nil)
		recorded <- err
	}()
	committed := false
	for deadline := time.Now().Add(20 * time.Second); !committed && time.Now().Before(deadline); {
		must(t, f.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM hands WHERE club_id = $1)`, f.actor.ClubID).Scan(&committed))
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-recorded:
		t.Fatalf("RecordHand answered (%v) before the hand's change could be numbered", err)
	default:
	}
	close(release)
	if !committed {
		t.Fatal("the hand waited for the other flow's commit: it was not in the database while that flow was open")
	}
	must(t, <-flowDone)
	must(t, <-recorded)
	changes, err := f.store.Changes(ctx, f.actor, 0, 100, 0)
	must(t, err)
	n := len(changes)
	for i, c := range changes {
		if c.Seq != int64(i+1) {
			t.Fatalf("change %d has number %d: the feed has a gap", i+1, c.Seq)
		}
	}
	if n < 2 || changes[n-2].Kind != ledger.ChangeTableUpdated || changes[n-1].Kind != ledger.ChangeHandRecorded {
		t.Fatalf("the feed ends %v, want the other flow's change, then the hand's", changes)
	}
	head, err := store.ChangeHead(ctx, f.actor.ClubID)
	must(t, err)
	if head != int64(n) {
		t.Errorf("the club's head is %d, the feed holds %d changes", head, n)
	}
	assertCount(t, f.pool, "change_queue", 0)
}

// TestAQueuedChangeLeftBehindIsNumbered: a writer that committed a queued
// change and ended before numbering it leaves it out of the feed; the
// numbering of serve (and every export) puts it in, next after the head.
func TestAQueuedChangeLeftBehindIsNumbered(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	store := postgres.New(f.pool, pgtest.ChainKey)
	head, err := store.ChangeHead(ctx, f.actor.ClubID)
	must(t, err)
	queueAChange(t, f)
	if list, err := f.store.Changes(ctx, f.actor, head, 10, 0); err != nil || len(list) != 0 {
		t.Fatalf("a queued change is in the feed before it is numbered: %v %v", list, err)
	}
	must(t, store.NumberQueuedChanges(ctx))
	list, err := f.store.Changes(ctx, f.actor, head, 10, 0)
	must(t, err)
	if len(list) != 1 || list[0].Seq != head+1 || list[0].Kind != ledger.ChangeTableUpdated {
		t.Fatalf("after numbering the feed after %d holds %v, want the queued change as %d", head, list, head+1)
	}
	assertCount(t, f.pool, "change_queue", 0)
	// The next hand's change follows it.
	_, _, err = f.record(t, 1, nil)
	must(t, err)
	list, err = f.store.Changes(ctx, f.actor, head+1, 10, 0)
	must(t, err)
	if len(list) != 1 || list[0].Seq != head+2 || list[0].Kind != ledger.ChangeHandRecorded {
		t.Fatalf("the hand's change is %v, want number %d", list, head+2)
	}
}

// snapshotOnly exports without numbering the queue first.
type snapshotOnly struct{ *postgres.Store }

func (s snapshotOnly) ExportTx(ctx context.Context, clubID int64, fn func(backup.ExportTx) error) error {
	return s.ExportSnapshot(ctx, clubID, fn)
}

// TestAnExportCarriesAQueuedChange: a change committed but not yet
// numbered when the export's snapshot is taken goes into the document as
// the change it becomes, next after the head, and the document's head
// counts it; the numberer then gives it that number in the feed too.
func TestAnExportCarriesAQueuedChange(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	store := postgres.New(f.pool, pgtest.ChainKey)
	head, err := store.ChangeHead(ctx, f.actor.ClubID)
	must(t, err)
	queueAChange(t, f)
	var doc bytes.Buffer
	_, err = backup.Export(ctx, snapshotOnly{store}, f.actor.ClubID, &doc)
	must(t, err)
	var club backup.Club
	var last backup.Change
	for _, r := range records(t, doc.Bytes()) {
		if r.Club != nil {
			club = *r.Club
		}
		if r.Change != nil {
			last = *r.Change
		}
	}
	if club.ChangeSeq != head+1 || last.Seq != head+1 || last.Kind != string(ledger.ChangeTableUpdated) {
		t.Fatalf("the document's head is %d and its last change %d (%s), want the queued change as %d", club.ChangeSeq, last.Seq, last.Kind, head+1)
	}
	must(t, store.NumberQueuedChanges(ctx))
	list, err := f.store.Changes(ctx, f.actor, head, 10, 0)
	must(t, err)
	if len(list) != 1 || list[0].Seq != head+1 {
		t.Errorf("the feed numbered the queued change %v, the document %d", list, head+1)
	}
}

// queueAChange leaves a committed, unnumbered change of the fixture's
// table in the queue, as a writer that ended before numbering it does.
func queueAChange(t *testing.T, f fixture) {
	t.Helper()
	_, err := f.pool.Exec(context.Background(), `
		INSERT INTO change_queue (club_id, kind, table_id, data) VALUES ($1, 'table_updated', $2, '{"changed": ["name"]}')`,
		f.actor.ClubID, f.table.ID)
	must(t, err)
}
