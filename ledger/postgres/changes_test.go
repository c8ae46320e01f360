package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// TestAHandDoesNotWaitForAnotherWritersFlow: while another write flow of
// the club is open (it has kept a change for its end), a hand of the table
// commits and RecordHand answers with the hand's change in the feed; the
// flow's change is numbered next when it commits, with no gap.
func TestAHandDoesNotWaitForAnotherWritersFlow(t *testing.T) {
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
	select {
	case err := <-recorded:
		must(t, err)
	case <-time.After(20 * time.Second):
		close(release)
		t.Fatal("the hand waited for the other flow: RecordHand did not answer while that flow was open")
	}
	head, err := store.ChangeHead(ctx, f.actor.ClubID)
	must(t, err)
	changes, err := f.store.Changes(ctx, f.actor, 0, 100, 0)
	must(t, err)
	if n := len(changes); n == 0 || changes[n-1].Kind != ledger.ChangeHandRecorded || changes[n-1].Seq != head {
		t.Fatalf("when RecordHand answered the feed ended %v with head %d, want the hand's change as the head", changes, head)
	}
	close(release)
	must(t, <-flowDone)
	changes, err = f.store.Changes(ctx, f.actor, 0, 100, 0)
	must(t, err)
	assertGapFree(t, changes)
	if n := len(changes); changes[n-1].Kind != ledger.ChangeTableUpdated || changes[n-1].Seq != head+1 {
		t.Fatalf("the flow's change is %v, want number %d after the hand's", changes[n-1], head+1)
	}
}

// TestAHandAndItsChangeCommitTogether: hands of four tables of a club
// written at once, with a reader taking snapshots meanwhile: in every
// snapshot every hand has its change in the feed, and the feed runs 1 ..
// head without a gap. (Until migration 21 a change could be committed
// queued and numbered in a second transaction, so a snapshot in between
// held hands whose changes were not yet in the feed.)
func TestAHandAndItsChangeCommitTogether(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	const tables, hands = 4, 15
	type place struct{ table, session int64 }
	places := []place{{f.table.ID, f.session.ID}}
	for i := 1; i < tables; i++ {
		tb, _, err := f.store.CreateTable(ctx, f.actor, ledger.NewTable{Name: fmt.Sprint("Tisch ", i+1), Game: "schwarze_dame"}, nil)
		must(t, err)
		s, _, err := f.store.OpenSession(ctx, f.actor, tb.ID, "2026-11-19", f.players, nil)
		must(t, err)
		places = append(places, place{tb.ID, s.ID})
	}
	var writers sync.WaitGroup
	errs := make(chan error, tables)
	for _, p := range places {
		writers.Go(func() {
			for n := 1; n <= hands; n++ {
				if _, _, err := f.record2(t, p.table, p.session, n); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { writers.Wait(); close(done) }()
	snapshots := 0
	for watching := true; watching; snapshots++ {
		select {
		case <-done:
			watching = false // one more snapshot, of the end
		default:
		}
		var missing, n, top int64
		must(t, pgx.BeginTxFunc(ctx, f.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
			return tx.QueryRow(ctx, `
				SELECT (SELECT count(*) FROM hands h WHERE h.club_id = $1 AND NOT EXISTS (
				            SELECT 1 FROM changes c WHERE c.club_id = h.club_id AND c.kind = 'hand_recorded'
				            AND c.table_id = h.table_id AND c.number = h.number)),
				       (SELECT count(*) FROM changes WHERE club_id = $1),
				       (SELECT coalesce(max(seq), 0) FROM changes WHERE club_id = $1)`, f.actor.ClubID).Scan(&missing, &n, &top)
		}))
		if missing > 0 {
			t.Fatalf("snapshot %d: %d hands without their change in the feed", snapshots, missing)
		}
		if n != top {
			t.Fatalf("snapshot %d: the feed holds %d changes numbered up to %d", snapshots, n, top)
		}
	}
	close(errs)
	for err := range errs {
		must(t, err)
	}
	assertCount(t, f.pool, "hands", tables*hands)
	t.Logf("%d snapshots", snapshots)
}

func assertGapFree(t *testing.T, changes []ledger.Change) {
	t.Helper()
	for i, c := range changes {
		if c.Seq != int64(i+1) {
			t.Fatalf("change %d has number %d: the feed has a gap", i+1, c.Seq)
		}
	}
}
