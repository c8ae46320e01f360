package ledger

import (
	"context"
	"testing"
	"time"
)

// TestTableTurns: a lane's turns: one holder per table at a time, other tables not held
// up, a waiter whose request ends gives up its place, and a table nobody
// holds or awaits is forgotten.
func TestTableTurns(t *testing.T) {
	tt := newHandLanes()
	ctx := context.Background()
	done, err := tt.take(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	other, err := tt.take(ctx, 2)
	if err != nil {
		t.Fatalf("table 2 waited for table 1: %v", err)
	}
	other()
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := tt.take(short, 1); err == nil {
		t.Fatal("a second request took table 1's turn while the first held it")
	}
	got := make(chan struct{})
	go func() {
		next, err := tt.take(ctx, 1)
		if err == nil {
			next()
		}
		close(got)
	}()
	done()
	<-got
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if len(tt.turns) != 0 {
		t.Errorf("%d tables remembered after every turn was given back", len(tt.turns))
	}
}
