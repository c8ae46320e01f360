package ledger

import (
	"context"
	"sync"
	"time"
)

// tableTurns lets this process write one hand of a table at a time. The
// store's compare-and-set keeps a table's hands gap-free whatever the
// turns do (several processes, a correction); the turns only spare the
// phones racing for one table the write that would lose: the next in line
// finds that the winner wrote the table (appendInTurn), gives the turn up
// and decides again, and its 409 (or the replay of its own hand) comes
// from a read it makes outside the turn, beside the other losers'.
type tableTurns struct {
	mu    sync.Mutex
	queue map[int64]*turn
}

// turn is one table's token and how many requests hold or await it.
type turn struct {
	token   chan struct{}
	waiting int
}

func newTableTurns() *tableTurns { return &tableTurns{queue: map[int64]*turn{}} }

// take waits for the table's turn, or for ctx to end; the function it
// returns gives the turn back.
func (tt *tableTurns) take(ctx context.Context, tableID int64) (func(), error) {
	tt.mu.Lock()
	t := tt.queue[tableID]
	if t == nil {
		t = &turn{token: make(chan struct{}, 1)}
		tt.queue[tableID] = t
	}
	t.waiting++
	tt.mu.Unlock()
	leave := func() {
		tt.mu.Lock()
		if t.waiting--; t.waiting == 0 {
			delete(tt.queue, tableID)
		}
		tt.mu.Unlock()
	}
	select {
	case t.token <- struct{}{}:
		return func() { <-t.token; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}

// SnapshotReuse is how long this process decides a table's next hand
// from what its own last hand of that table left, without reading the
// table again. The compare-and-set refuses a decision from a table that
// changed meanwhile (every flow that changes a table moves its version),
// and the hand is then decided again from a fresh read; what no version
// covers, a player's name in the hand's texts, is at most this old.
const SnapshotReuse = 2 * time.Second

// keptSnapshots holds, per table, the snapshot this process's last hand
// of it left: the table as that hand's compare-and-set made it.
type keptSnapshots struct {
	mu   sync.Mutex
	kept map[int64]keptSnapshot
}

type keptSnapshot struct {
	club int64
	snap HandSnapshot
	at   time.Time
}

func newKeptSnapshots() *keptSnapshots { return &keptSnapshots{kept: map[int64]keptSnapshot{}} }

// get returns the table's kept snapshot if it is of the club and the
// session and younger than SnapshotReuse at now.
func (ks *keptSnapshots) get(clubID, tableID, sessionID int64, now time.Time) (HandSnapshot, bool) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	k, ok := ks.kept[tableID]
	if !ok || k.club != clubID || k.snap.Session.ID != sessionID || now.Sub(k.at) >= SnapshotReuse {
		return HandSnapshot{}, false
	}
	return k.snap, true
}

// keep remembers what a stored hand left of the table it was decided
// from: one hand more, its state, its hash as the chain's head, the next
// version.
func (ks *keptSnapshots) keep(clubID int64, snap HandSnapshot, h Hand, now time.Time) {
	snap.Table.Hands, snap.Table.State, snap.Table.ChainHead = h.Number, h.Result.State, h.Hash
	snap.Table.Version++
	snap.Claim = Claimed{}
	ks.mu.Lock()
	defer ks.mu.Unlock()
	if len(ks.kept) >= 4096 {
		for id, k := range ks.kept {
			if now.Sub(k.at) >= SnapshotReuse {
				delete(ks.kept, id)
			}
		}
	}
	ks.kept[snap.Table.ID] = keptSnapshot{club: clubID, snap: snap, at: now}
}

// forget drops the table's kept snapshot.
func (ks *keptSnapshots) forget(tableID int64) {
	ks.mu.Lock()
	delete(ks.kept, tableID)
	ks.mu.Unlock()
}
