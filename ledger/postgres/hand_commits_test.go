package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// batchFixture is the fixture's club with n tables, each with an open
// session of the same four players, and a second store on its pool whose
// hand writer the tests drive.
type batchFixture struct {
	fixture
	st       *postgres.Store
	tables   []ledger.Table
	sessions []ledger.Session
}

func newBatchFixture(t *testing.T, n int) batchFixture {
	t.Helper()
	ctx := context.Background()
	f := batchFixture{fixture: newFixture(t)}
	f.st = postgres.New(f.pool, pgtest.ChainKey)
	f.tables, f.sessions = []ledger.Table{f.table}, []ledger.Session{f.session}
	for i := 1; i < n; i++ {
		tb, _, err := f.store.CreateTable(ctx, f.actor, ledger.NewTable{Name: fmt.Sprintf("Tisch %d", i+1), Game: "schwarze_dame", Stake: score.Frac(1, 2)}, nil)
		must(t, err)
		s, _, err := f.store.OpenSession(ctx, f.actor, tb.ID, "2026-11-19", f.players, nil)
		must(t, err)
		f.tables, f.sessions = append(f.tables, tb), append(f.sessions, s)
	}
	return f
}

// decide reads table i as the service would and decides its next hand
// (number n) under key (none if empty), as the ledger's nextHand does.
func (f batchFixture) decide(t *testing.T, i, n int, key string) ledger.HandRecord {
	t.Helper()
	snap, err := f.st.HandSnapshot(context.Background(), f.actor.ClubID, f.tables[i].ID, f.sessions[i].ID, key)
	must(t, err)
	return f.record(t, snap.Table, snap.Session, n, key)
}

func (f batchFixture) record(t *testing.T, tb ledger.Table, s ledger.Session, n int, key string) ledger.HandRecord {
	t.Helper()
	res, err := ledger.ScoreHand(tb, s, f.exampleA())
	must(t, err)
	r := ledger.HandRecord{Table: tb, Session: s, Number: n, Facts: f.exampleA(), Result: res, RecordedBy: f.actor.KeyID,
		Attendance: ledger.AttendanceOf(res, false),
		Change: ledger.NewChange{Kind: ledger.ChangeHandRecorded, TableID: &tb.ID, SessionID: &s.ID, Number: &n,
			Data: map[string]any{"revision": 1}}}
	if key != "" {
		r.Idempotency = &ledger.Idempotency{Key: key, Hash: hash(key)}
	}
	return r
}

// assertFeedGapFree checks that the club's changes are numbered 1, 2, 3 …
// with nothing queued, and returns how many there are.
func assertFeedGapFree(t *testing.T, f batchFixture) int {
	t.Helper()
	var n, maxSeq int
	must(t, f.pool.QueryRow(context.Background(), `SELECT count(*), coalesce(max(seq), 0) FROM changes WHERE club_id = $1`, f.actor.ClubID).Scan(&n, &maxSeq))
	if n != maxSeq {
		t.Errorf("the feed has %d changes numbered up to %d: a gap", n, maxSeq)
	}
	assertCount(t, f.pool, "change_queue", 0)
	return n
}

// TestRefusedHandsInTheMiddleOfABatch: of four tables' hands written in
// one transaction, the middle two were decided from tables that have
// since moved. They alone are refused (ErrStale, so the ledger decides
// them again): the first refusal ends the batch's first pipeline, the
// second is rolled back to its savepoint, and the other two hands are
// stored in the one commit, with their changes in the feed and the chain
// intact.
func TestRefusedHandsInTheMiddleOfABatch(t *testing.T) {
	f := newBatchFixture(t, 4)
	ctx := context.Background()
	before := assertFeedGapFree(t, f)
	recs := []ledger.HandRecord{f.decide(t, 0, 1, "first"), f.decide(t, 1, 1, "second"), f.decide(t, 2, 1, "third"), f.decide(t, 3, 1, "last")}
	recs[1].Table.Version-- // decided from a table as it was before its last change
	recs[2].Table.Version--
	hands, errs := f.st.WriteTogether(ctx, f.actor.ClubID, recs)
	if errs[0] != nil || errs[3] != nil {
		t.Fatalf("the other hands of the batch: %v, %v; want both stored", errs[0], errs[3])
	}
	for _, i := range []int{1, 2} {
		if !errors.Is(errs[i], ledger.ErrStale) {
			t.Errorf("hand %d of the batch: %v, want ErrStale", i+1, errs[i])
		}
	}
	if hands[0].ID == 0 || hands[3].ID == 0 || hands[0].SessionNumber != 1 || hands[3].SessionNumber != 1 {
		t.Errorf("stored hands answered as %+v and %+v", hands[0], hands[3])
	}
	if got := f.st.HandCommits(); got.Commits != 1 || got.Hands != 4 {
		t.Errorf("the writer made %+v, want one commit of four hands", got)
	}
	assertCount(t, f.pool, "hands", 2)
	assertCount(t, f.pool, "idempotency_keys", 2)
	if n := assertFeedGapFree(t, f); n != before+2 {
		t.Errorf("the feed grew by %d changes, want 2", n-before)
	}
	// The refused hands, decided again, are stored.
	for _, i := range []int{1, 2} {
		key := []string{"", "second", "third"}[i]
		if _, _, err := f.store.RecordHand(ctx, f.actor, ledger.NewHand{TableID: f.tables[i].ID, SessionID: f.sessions[i].ID, Number: 1, Facts: f.exampleA()},
			&ledger.Idempotency{Key: key, Hash: hash(key)}); err != nil {
			t.Errorf("refused hand %d sent again: %v", i+1, err)
		}
	}
	assertCount(t, f.pool, "hands", 4)
	if err := verify(f.fixture); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// TestTwoHandsOfOneTableInOneBatch: hands 1 and 2 of a table, the second
// decided from what the first leaves, are written in one transaction in
// their order and chained; when the first is refused, the second (which
// chains to it) is refused too, and neither is stored.
func TestTwoHandsOfOneTableInOneBatch(t *testing.T) {
	f := newBatchFixture(t, 2)
	ctx := context.Background()
	// Table 2's pair arrives first; the batch still writes by table.
	recs := []ledger.HandRecord{f.decide(t, 1, 1, "t2-1"), f.decide(t, 1, 2, "t2-2"), f.decide(t, 0, 1, "t1-1"), f.decide(t, 0, 2, "t1-2")}
	recs[0].Table.Version-- // table 2's first hand loses its compare-and-set
	hands, errs := f.st.WriteTogether(ctx, f.actor.ClubID, recs)
	if errs[2] != nil || errs[3] != nil {
		t.Fatalf("table 1's hands: %v, %v", errs[2], errs[3])
	}
	if hands[2].Number != 1 || hands[3].Number != 2 || hands[3].SessionNumber != 2 || hands[3].ID <= hands[2].ID {
		t.Errorf("table 1's hands stored as %d (id %d) and %d (id %d, evening's %d), want 1 then 2",
			hands[2].Number, hands[2].ID, hands[3].Number, hands[3].ID, hands[3].SessionNumber)
	}
	if !errors.Is(errs[0], ledger.ErrStale) || !errors.Is(errs[1], ledger.ErrStale) {
		t.Errorf("table 2's hands: %v, %v; want both ErrStale", errs[0], errs[1])
	}
	var prev, head []byte
	must(t, f.pool.QueryRow(ctx, `SELECT prev_hash FROM hands WHERE table_id = $1 AND number = 2`, f.tables[0].ID).Scan(&prev))
	must(t, f.pool.QueryRow(ctx, `SELECT hash FROM hands WHERE table_id = $1 AND number = 1`, f.tables[0].ID).Scan(&head))
	if string(prev) != string(head) {
		t.Errorf("hand 2 chains to %x, want hand 1's hash %x", prev, head)
	}
	assertCount(t, f.pool, "hands", 2)
	assertFeedGapFree(t, f)
	got, err := f.store.FindTable(ctx, f.actor, f.tables[0].ID)
	must(t, err)
	if got.Hands != 2 {
		t.Errorf("table 1 counts %d hands, want 2", got.Hands)
	}
	if err := verify(f.fixture); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// TestACrashBeforeTheCommitLosesTheWholeBatch: the batch's connection dies
// after every statement of its three hands has answered and before its
// COMMIT. No hand is stored and none is acknowledged; each retried key
// then stores its hand once, and a second retry replays it.
func TestACrashBeforeTheCommitLosesTheWholeBatch(t *testing.T) {
	f := newBatchFixture(t, 3)
	ctx := context.Background()
	f.st.HoldCommit(func(ctx context.Context, conn *pgx.Conn) {
		var killed bool
		must(t, f.pool.QueryRow(ctx, `SELECT pg_terminate_backend($1)`, conn.PgConn().PID()).Scan(&killed))
		if !killed {
			t.Error("the batch's backend was not terminated")
		}
	})
	keys := []string{"a", "b", "c"}
	var recs []ledger.HandRecord
	for i, k := range keys {
		recs = append(recs, f.decide(t, i, 1, k))
	}
	_, errs := f.st.WriteTogether(ctx, f.actor.ClubID, recs)
	for i, err := range errs {
		if code := ledger.ErrorCode(err); code != ledger.EUNAVAILABLE {
			t.Errorf("hand of table %d: %v (%s), want EUNAVAILABLE", i+1, err, code)
		}
	}
	assertCount(t, f.pool, "hands", 0)
	assertCount(t, f.pool, "idempotency_keys", 0)
	assertCount(t, f.pool, "changes", assertFeedGapFree(t, f)) // nothing of the batch, nothing queued
	for round, wantReplayed := range []bool{false, true} {
		for i, k := range keys {
			h, replayed, err := f.store.RecordHand(ctx, f.actor, ledger.NewHand{TableID: f.tables[i].ID, SessionID: f.sessions[i].ID, Number: 1, Facts: f.exampleA()},
				&ledger.Idempotency{Key: k, Hash: hash(k)})
			if err != nil || replayed != wantReplayed || h.Number != 1 {
				t.Errorf("retry %d of key %s: hand %d, replayed %v, %v; want replayed %v", round+1, k, h.Number, replayed, err, wantReplayed)
			}
		}
	}
	assertCount(t, f.pool, "hands", 3)
	if err := verify(f.fixture); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// TestTablesShareCommits: eight tables recording at once through the
// service share commits (fewer commits than hands), and every hand is
// stored once, in order, with a gap-free feed and a ledger that verifies.
func TestTablesShareCommits(t *testing.T) {
	f := newBatchFixture(t, 8)
	ctx := context.Background()
	svc := f.st.Service()
	const hands = 25
	var wg sync.WaitGroup
	for i := range f.tables {
		wg.Go(func() {
			for n := 1; n <= hands; n++ {
				key := fmt.Sprintf("table-%d-hand-%d", i, n)
				if _, _, err := svc.RecordHand(ctx, f.actor, ledger.NewHand{TableID: f.tables[i].ID, SessionID: f.sessions[i].ID, Number: n, Facts: f.exampleA()},
					&ledger.Idempotency{Key: key, Hash: hash(key)}); err != nil {
					t.Errorf("table %d, hand %d: %v", i+1, n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	got := f.st.HandCommits()
	if got.Hands != 8*hands || got.Commits >= got.Hands {
		t.Errorf("the writer made %d commits for %d hands, want %d hands in fewer commits", got.Commits, got.Hands, 8*hands)
	}
	t.Logf("%d hands in %d commits", got.Hands, got.Commits)
	assertCount(t, f.pool, "hands", 8*hands)
	assertCount(t, f.pool, "idempotency_keys", 8*hands)
	assertFeedGapFree(t, f)
	if err := verify(f.fixture); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// TestAPanicInABatchFailsOnlyItsHands: a bug that panics while a batch is
// written fails the batch's hands as internal errors, stores none of them
// and leaves the writer working: the next hands are stored.
func TestAPanicInABatchFailsOnlyItsHands(t *testing.T) {
	f := newBatchFixture(t, 2)
	ctx := context.Background()
	f.st.HoldCommit(func(context.Context, *pgx.Conn) { panic("a bug in the writer") })
	_, errs := f.st.WriteTogether(ctx, f.actor.ClubID, []ledger.HandRecord{f.decide(t, 0, 1, "a"), f.decide(t, 1, 1, "b")})
	for i, err := range errs {
		if ledger.ErrorCode(err) != ledger.EINTERNAL {
			t.Errorf("hand %d of the panicking batch: %v, want an internal error", i+1, err)
		}
	}
	assertCount(t, f.pool, "hands", 0)
	f.st.HoldCommit(nil)
	_, errs = f.st.WriteTogether(ctx, f.actor.ClubID, []ledger.HandRecord{f.decide(t, 0, 1, "a"), f.decide(t, 1, 1, "b")})
	if errs[0] != nil || errs[1] != nil {
		t.Errorf("the next batch: %v, %v", errs[0], errs[1])
	}
	assertCount(t, f.pool, "hands", 2)
}
