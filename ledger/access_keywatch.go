package ledger

import (
	"context"
	"sync"
	"time"
)

// KeyRecheck is how old the service's memory of a club's revoked keys may
// grow before a key check reads the keys again: how long a key revoked
// through another instance of the service may keep its open event
// streams when no KeyNotifier tells of it sooner. A key revoked or
// rotated through this instance is forgotten at once.
const KeyRecheck = 2 * time.Second

// keyWatch remembers, per club, which API keys are active, so a long-lived
// request (an event stream) can check its key on every event and every
// few seconds without a query each time: one read of the club's keys per
// KeyRecheck serves every stream of the club.
type keyWatch struct {
	mu    sync.Mutex
	clubs map[int64]*clubKeys
	ttl   time.Duration
}

// clubKeys is what is known about one club's keys.
type clubKeys struct {
	mu      sync.Mutex // held while the keys are read, so one read serves all
	loaded  time.Time  // zero: read again before answering
	active  map[int64]bool
	changed chan struct{} // closed by the next change; nil: nobody waits
}

func newKeyWatch(ttl time.Duration) *keyWatch {
	return &keyWatch{clubs: map[int64]*clubKeys{}, ttl: ttl}
}

func (w *keyWatch) club(id int64) *clubKeys {
	w.mu.Lock()
	defer w.mu.Unlock()
	c := w.clubs[id]
	if c == nil {
		c = &clubKeys{}
		w.clubs[id] = c
	}
	return c
}

// invalidate forgets what is known of a club's keys; called after a flow
// that changed them has committed.
func (w *keyWatch) invalidate(clubID int64) {
	c := w.club(clubID)
	c.mu.Lock()
	c.loaded = time.Time{}
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
	c.mu.Unlock()
}

// nudge is invalidate for a club whose keys this instance watches, and
// nothing for another: a revocation heard from another instance makes the
// club's streams check their keys at once, without a record per club of
// every notification.
func (w *keyWatch) nudge(clubID int64) {
	w.mu.Lock()
	_, known := w.clubs[clubID]
	w.mu.Unlock()
	if known {
		w.invalidate(clubID)
	}
}

// KeyActive reports whether the actor's API key is still active (neither
// revoked nor rotated), from the club's keys as read at most KeyRecheck
// ago. When the keys cannot be read again, what was known last answers;
// with nothing known, the error does.
func (s *Service) KeyActive(ctx context.Context, a Actor) (bool, error) {
	c := s.keys.club(a.ClubID)
	c.mu.Lock()
	defer c.mu.Unlock()
	now := s.now()
	_, known := c.active[a.KeyID] // a key made since the last read (on another instance) is read too
	if !known || c.loaded.IsZero() || now.Sub(c.loaded) >= s.keys.ttl || now.Before(c.loaded) {
		keys, err := s.Clubs.ListKeys(ctx, a.ClubID, Page{})
		if err != nil && c.active == nil {
			return false, err
		}
		if err == nil {
			c.active = make(map[int64]bool, len(keys))
			for _, k := range keys {
				c.active[k.ID] = k.RevokedAt == nil
			}
			c.loaded = now
		}
	}
	return c.active[a.KeyID], nil
}

// KeysChanged returns a channel that is closed when this instance next
// changes a key of the club (creates, revokes or rotates one): a stream
// waiting on it checks its key at once instead of at its next interval.
func (s *Service) KeysChanged(clubID int64) <-chan struct{} {
	c := s.keys.club(clubID)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.changed == nil {
		c.changed = make(chan struct{})
	}
	return c.changed
}
