package ledger

import (
	"context"
	"sync"
)

// tableTurns lets this process decide one hand of a table at a time. The
// store's compare-and-set keeps a table's hands gap-free whatever the
// turns do (several processes, a correction); the turns only spare the
// phones racing for one table the write that would lose: the next in line
// reads the table after the winner's commit and is answered from that read
// (409 naming the next number, or the replay of its own hand).
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
