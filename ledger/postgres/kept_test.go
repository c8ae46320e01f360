package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// TestAnotherInstanceMovesTheTable: a service decides a table's next hand
// from what its own last hand left. When another instance of the service
// (another ledger.Service on the same database) records a hand or closes
// the session in between, the first one still stores the right number,
// chains to the right hand, answers a retry with its replay, refuses a
// reused key and a closed session; the ledger verifies.
func TestAnotherInstanceMovesTheTable(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	other := postgres.New(f.pool, pgtest.ChainKey).Service()
	hand := func(svc *ledger.Service, n int, key string) (ledger.Hand, bool, error) {
		var idem *ledger.Idempotency
		if key != "" {
			idem = &ledger.Idempotency{Key: key, Hash: hash(fmt.Sprint(key, n))}
		}
		return svc.RecordHand(ctx, f.actor, ledger.NewHand{TableID: f.table.ID, SessionID: f.session.ID, Number: n, Facts: f.exampleA()}, idem)
	}
	h1, _, err := hand(f.store, 1, "a-1")
	must(t, err)
	// A retry of hand 1 is its replay, not a 409.
	again, replayed, err := hand(f.store, 1, "a-1")
	must(t, err)
	if !replayed || again.ID != h1.ID {
		t.Fatalf("the retry of hand 1 gave %+v (replayed %v), want the replay of hand %d", again, replayed, h1.ID)
	}
	// The other instance records hand 2; this one's hand 2 is a 409 naming 3.
	_, _, err = hand(other, 2, "b-2")
	must(t, err)
	_, _, err = hand(f.store, 2, "a-2")
	if e := ledger.AsError(err); e == nil || e.Code != ledger.ECONFLICT || e.Extra["next_number"] != 3 {
		t.Fatalf("hand 2 after the other instance's: %v, want a 409 naming 3", err)
	}
	h3, _, err := hand(f.store, 3, "a-3")
	must(t, err)
	// The other instance records hand 4; this one, deciding from its hand
	// 3, loses the compare-and-set and decides again: 409 naming 5.
	_, _, err = hand(other, 4, "b-4")
	must(t, err)
	if _, _, err := hand(f.store, 4, "a-4"); ledger.ErrorCode(err) != ledger.ECONFLICT {
		t.Fatalf("hand 4 twice: %v, want a 409", err)
	}
	h5, _, err := hand(f.store, 5, "a-5")
	must(t, err)
	if h5.Number != 5 || h3.Number != 3 {
		t.Fatalf("numbers %d and %d, want 3 and 5", h3.Number, h5.Number)
	}
	// A key this instance used before, for another hand: refused as reused.
	if _, _, err := hand(f.store, 6, "a-1"); ledger.ErrorCode(err) != ledger.EIDEMPOTENCY {
		t.Fatalf("hand 6 under hand 1's key: %v, want the key refused", err)
	}
	// The other instance closes the session; this one's next hand is refused.
	_, err = other.CloseSession(ctx, f.actor, f.session.ID)
	must(t, err)
	if _, _, err := hand(f.store, 6, "a-6"); ledger.ErrorCode(err) != ledger.ECONFLICT {
		t.Fatalf("a hand after the other instance closed the session: %v, want a 409", err)
	}
	assertCount(t, f.pool, "hands", 5)
	if err := verify(f); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// countedSnapshots counts a HandStore's table reads and the appends that
// lost their compare-and-set.
type countedSnapshots struct {
	ledger.HandStore
	reads, stale int
}

func (s *countedSnapshots) HandSnapshot(ctx context.Context, clubID, tableID, sessionID int64, key string) (ledger.HandSnapshot, error) {
	s.reads++
	return s.HandStore.HandSnapshot(ctx, clubID, tableID, sessionID, key)
}

func (s *countedSnapshots) AppendHand(ctx context.Context, clubID int64, r ledger.HandRecord) (ledger.Hand, error) {
	h, err := s.HandStore.AppendHand(ctx, clubID, r)
	if errors.Is(err, ledger.ErrStale) {
		s.stale++
	}
	return h, err
}

// TestKeptSnapshotIsWhatTheStoreReads: after every hand a service records,
// the store reads the table as the table before the hand, moved by
// Table.AfterHand: exactly what the service keeps to decide the next hand
// from (handLanes). So hands recorded one after another read the table
// once and lose no compare-and-set, and each chains to the last. A store
// whose row after a hand differs from AfterHand (its version moved twice,
// its chain head or count not set) fails here, and so does an AfterHand
// that stops saying what the store does.
func TestKeptSnapshotIsWhatTheStoreReads(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	store := postgres.New(f.pool, pgtest.ChainKey)
	ports := store.Ports()
	counted := &countedSnapshots{HandStore: ports.Hands}
	ports.Hands = counted
	now := time.Date(2026, 11, 19, 20, 0, 0, 0, time.UTC)
	svc := ledger.NewService(ports).WithClock(func() time.Time { return now })
	before, err := store.HandSnapshot(ctx, f.actor.ClubID, f.table.ID, f.session.ID, "")
	must(t, err)
	for n := 1; n <= 6; n++ {
		h, _, err := svc.RecordHand(ctx, f.actor, ledger.NewHand{TableID: f.table.ID, SessionID: f.session.ID, Number: n, Facts: f.exampleA()}, nil)
		must(t, err)
		after, err := store.HandSnapshot(ctx, f.actor.ClubID, f.table.ID, f.session.ID, "")
		must(t, err)
		// h comes with the players' names in its texts: the states compare
		// but for their summaries.
		want, got := before.Table.AfterHand(h), after.Table
		if got.Version != want.Version || got.Hands != want.Hands || !bytes.Equal(got.ChainHead, want.ChainHead) || !ledger.SameState(got.State, want.State) {
			t.Fatalf("after hand %d the store reads version %d, %d hands, head %x, state %s; the kept snapshot says version %d, %d hands, head %x, state %s",
				n, got.Version, got.Hands, got.ChainHead, got.State, want.Version, want.Hands, want.ChainHead, want.State)
		}
		before = after
	}
	if counted.reads != 1 || counted.stale != 0 {
		t.Errorf("6 hands read the table %d times and lost %d compare-and-sets, want 1 and 0", counted.reads, counted.stale)
	}
	if err := verify(f); err != nil {
		t.Errorf("verify: %v", err)
	}
}
