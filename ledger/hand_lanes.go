package ledger

import (
	"context"
	"errors"
	"sync"
	"time"
)

// handLanes is the hand path's memory of the tables this process writes,
// in one place: a lane per table, in which one hand of the table is
// written at a time (its turn), and which keeps what the lane's last hand
// left (its snapshot) to decide the table's next hand from without
// reading the table again.
//
// The invariant, stated once: a kept snapshot is the table as the store
// holds it right after the hand that left it (Table.AfterHand, which the
// stores apply to their rows as well), until something else writes the
// table. Nothing relies on it for correctness: every flow that changes a
// table moves its version, the store's compare-and-set refuses a hand
// decided from a table that moved, and a refusal is only ever answered
// from the store's read. What it spares is the read and the write that
// would lose. TestKeptSnapshotIsWhatTheStoreReads (ledger/postgres) and
// TestTheNextHandIsDecidedFromWhatTheLastLeft check the stores against it.
//
// A hand that arrives while another of its table is written waits for
// that write before it is decided (settle): from what the write leaves it
// is the next hand, not a refusal decided from what the write replaced.
//
// The turns spare the phones racing for one table the write that would
// lose: the next in line finds that the winner wrote the table (append),
// gives the turn up and decides again, and its 409 (or the replay of its
// own hand) comes from a read it makes outside the turn, beside the other
// losers'.
type handLanes struct {
	mu    sync.Mutex
	turns map[int64]*turn
	kept  map[int64]keptSnapshot
}

// turn is one table's token and how many requests hold or await it.
type turn struct {
	token   chan struct{}
	waiting int
}

type keptSnapshot struct {
	club int64
	snap HandSnapshot
	at   time.Time
}

// SnapshotReuse is how long this process decides a table's next hand
// from what its own last hand of that table left, without reading the
// table again. What no version covers, a player's name in the hand's
// texts, is at most this old.
const SnapshotReuse = 2 * time.Second

// maxKept is how many tables' snapshots are kept before the stale ones
// are swept.
const maxKept = 4096

func newHandLanes() *handLanes {
	return &handLanes{turns: map[int64]*turn{}, kept: map[int64]keptSnapshot{}}
}

// errMoved is append's answer when this process wrote the table while the
// request waited for its turn.
var errMoved = errors.New("the table moved while the hand waited for its turn")

// snapshot returns what a hand is decided from: with reuse, the snapshot
// this process's last hand of the table left (kept is true; it holds no
// Idempotency-Key, whose reuse the store's write refuses as stale), else
// the store's read.
func (l *handLanes) snapshot(ctx context.Context, store HandStore, clubID int64, nh NewHand, key string, reuse bool, now time.Time) (snap HandSnapshot, kept bool, err error) {
	if reuse {
		if snap, ok := l.get(clubID, nh.TableID, nh.SessionID, now); ok {
			return snap, true, nil
		}
	}
	if snap, err = store.HandSnapshot(ctx, clubID, nh.TableID, nh.SessionID, key); err != nil {
		return snap, false, wrap(err, "reading table %d to record hand %d", nh.TableID, nh.Number)
	}
	return snap, false, nil
}

// append stores a decided hand in the table's turn: one request of this
// process writes a table at a time, and one that waited while another
// wrote it is told so (errMoved), to decide again from what that one left
// instead of sending a write that would lose. What the stored hand leaves
// is kept for the table's next hand.
func (l *handLanes) append(ctx context.Context, store HandStore, clubID int64, snap HandSnapshot, rec HandRecord, now func() time.Time) (Hand, error) {
	done, err := l.take(ctx, rec.Table.ID)
	if err != nil {
		return Hand{}, err
	}
	defer done()
	if cur, ok := l.get(clubID, rec.Table.ID, rec.Session.ID, now()); ok && cur.Table.Version > rec.Table.Version {
		return Hand{}, errMoved
	}
	h, err := store.AppendHand(ctx, clubID, rec)
	if err != nil {
		l.forget(rec.Table.ID)
		return h, err
	}
	l.keep(clubID, snap, h, now())
	return h, nil
}

// settle waits while another request of this process writes the table:
// a hand is then decided from what that write leaves, not from what it
// replaces, and is not scored only to lose its turn to that write.
func (l *handLanes) settle(ctx context.Context, tableID int64) error {
	l.mu.Lock()
	busy := l.turns[tableID] != nil
	l.mu.Unlock()
	if !busy {
		return nil
	}
	done, err := l.take(ctx, tableID)
	if err != nil {
		return err
	}
	done()
	return nil
}

// take waits for the table's turn, or for ctx to end; the function it
// returns gives the turn back.
func (l *handLanes) take(ctx context.Context, tableID int64) (func(), error) {
	l.mu.Lock()
	t := l.turns[tableID]
	if t == nil {
		t = &turn{token: make(chan struct{}, 1)}
		l.turns[tableID] = t
	}
	t.waiting++
	l.mu.Unlock()
	leave := func() {
		l.mu.Lock()
		if t.waiting--; t.waiting == 0 {
			delete(l.turns, tableID)
		}
		l.mu.Unlock()
	}
	select {
	case t.token <- struct{}{}:
		return func() { <-t.token; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}

// get returns the table's kept snapshot if it is of the club and the
// session and younger than SnapshotReuse at now.
func (l *handLanes) get(clubID, tableID, sessionID int64, now time.Time) (HandSnapshot, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k, ok := l.kept[tableID]
	if !ok || k.club != clubID || k.snap.Session.ID != sessionID || now.Sub(k.at) >= SnapshotReuse {
		return HandSnapshot{}, false
	}
	return k.snap, true
}

// keep remembers what a stored hand left of the table it was decided
// from: the table after the hand (AfterHand), and no Idempotency-Key.
func (l *handLanes) keep(clubID int64, snap HandSnapshot, h Hand, now time.Time) {
	snap.Table = snap.Table.AfterHand(h)
	snap.Claim = Claimed{}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.kept) >= maxKept {
		for id, k := range l.kept {
			if now.Sub(k.at) >= SnapshotReuse {
				delete(l.kept, id)
			}
		}
	}
	l.kept[snap.Table.ID] = keptSnapshot{club: clubID, snap: snap, at: now}
}

// forget drops the table's kept snapshot.
func (l *handLanes) forget(tableID int64) {
	l.mu.Lock()
	delete(l.kept, tableID)
	l.mu.Unlock()
}
