package api

import (
	"context"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// The default limits of open event streams on one instance.
const (
	DefaultStreamsPerKey  = 32
	DefaultStreamsPerClub = 1000
	DefaultReplayLimit    = 500
)

// streamLimits counts the open streams of this instance per key and per
// club, and ends them all at shutdown.
type streamLimits struct {
	perKey, perClub int
	closing         chan struct{} // closed when the service shuts down

	mu     sync.Mutex
	keys   map[[2]int64]int
	clubs  map[int64]int
	closed bool
	active sync.WaitGroup
}

func newStreamLimits(perKey, perClub int) *streamLimits {
	return &streamLimits{perKey: perKey, perClub: perClub, closing: make(chan struct{}),
		keys: map[[2]int64]int{}, clubs: map[int64]int{}}
}

// open counts a new stream of a's key, or refuses it: 429 when the key or
// the club has as many streams open as it may, 503 during shutdown.
// release ends the count.
func (l *streamLimits) open(c echo.Context, a ledger.Actor) (release func(), err error) {
	key := [2]int64{a.ClubID, a.KeyID}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return nil, ledger.Errorf(ledger.EUNAVAILABLE, "the service is shutting down; reconnect in a moment")
	case l.keys[key] >= l.perKey:
		return nil, retryAfter(c, keepAlive, &ledger.Error{Code: codeRateLimit,
			Message: "this API key has as many event streams open as one key may; close one before opening another",
			Extra:   map[string]any{"open_streams": l.keys[key], "limit": l.perKey}})
	case l.clubs[a.ClubID] >= l.perClub:
		return nil, retryAfter(c, keepAlive, &ledger.Error{Code: codeRateLimit,
			Message: "the club has as many event streams open as it may; close one before opening another",
			Extra:   map[string]any{"open_streams": l.clubs[a.ClubID], "limit": l.perClub}})
	}
	l.keys[key]++
	l.clubs[a.ClubID]++
	l.active.Add(1)
	return func() {
		l.mu.Lock()
		if l.keys[key]--; l.keys[key] == 0 {
			delete(l.keys, key)
		}
		if l.clubs[a.ClubID]--; l.clubs[a.ClubID] == 0 {
			delete(l.clubs, a.ClubID)
		}
		l.mu.Unlock()
		l.active.Done()
	}, nil
}

// total is how many streams are open.
func (l *streamLimits) total() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, open := range l.clubs {
		n += open
	}
	return n
}

// shutdown refuses new streams, tells every open one to send its final
// `shutdown` event and end, and waits until they have (or ctx ends).
func (l *streamLimits) shutdown(ctx context.Context) error {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.closing)
	}
	l.mu.Unlock()
	done := make(chan struct{})
	go func() { l.active.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
