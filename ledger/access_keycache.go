package ledger

import (
	"container/list"
	"sync"
	"time"
)

// The bounds of the key cache: how many keys it holds at most (the least
// recently used one gives way) and how long it trusts what it read, as a
// backstop behind the revocation notifications.
const (
	KeyCacheSize   = 50_000
	KeyCacheMaxAge = 30 * time.Second
)

// keyCache owns this instance's memory of the API keys it looked up: per
// (club, key) what ClubStore.FindKey returned (hash, role, table,
// revoked), so Authenticate spares the store's round trip. It holds only
// keys whose secret a request presented correctly, at most max of them,
// none older than maxAge, and it answers only while a KeyNotifier hears
// the revocations of every instance (on): after a lost connection it
// answers nothing and forgets everything, since a revocation may have
// been missed.
//
// What it promises: within this instance a revoked or rotated key is
// refused from the next request on (the flow drops the club's keys before
// it answers); a key revoked through another instance is refused from the
// moment the notification reaches this instance's listener, and at the
// latest KeyCacheMaxAge after it was read.
//
// A nil *keyCache is off: every lookup misses and nothing is stored.
type keyCache struct {
	max    int
	maxAge time.Duration
	now    func() time.Time

	mu sync.Mutex
	on bool
	// gen counts what was forgotten; a store read that began before the
	// latest forgetting is not stored, since it may predate a revocation.
	gen   uint64
	clubs map[int64]map[int64]*list.Element // club → key → element of lru
	lru   list.List                         // of *cachedKey, most recently used first
}

// cachedKey is one remembered key and when the store was asked for it.
type cachedKey struct {
	key StoredKey
	at  time.Time
}

// keyTicket is a store read about to begin: put stores its answer only if
// nothing was forgotten since.
type keyTicket struct {
	ok  bool
	gen uint64
	at  time.Time
}

func newKeyCache(max int, maxAge time.Duration) *keyCache {
	return &keyCache{max: max, maxAge: maxAge, now: time.Now, clubs: map[int64]map[int64]*list.Element{}}
}

// find returns the remembered key, if the cache is on and the key was
// read less than maxAge ago.
func (c *keyCache) find(clubID, keyID int64) (StoredKey, bool) {
	if c == nil {
		return StoredKey{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.on {
		return StoredKey{}, false
	}
	e := c.clubs[clubID][keyID]
	if e == nil {
		return StoredKey{}, false
	}
	ck := e.Value.(*cachedKey)
	if age := c.now().Sub(ck.at); age >= c.maxAge || age < 0 {
		c.remove(e)
		return StoredKey{}, false
	}
	c.lru.MoveToFront(e)
	return ck.key, true
}

// ticket is taken before the store is read for a key that put may store.
func (c *keyCache) ticket() keyTicket {
	if c == nil {
		return keyTicket{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return keyTicket{ok: c.on, gen: c.gen, at: c.now()}
}

// put remembers a key read from the store after t was taken, unless the
// cache was off then or is now, or forgot anything since.
func (c *keyCache) put(t keyTicket, k StoredKey) {
	if c == nil || !t.ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.on || c.gen != t.gen {
		return
	}
	keys := c.clubs[k.ClubID]
	if e := keys[k.ID]; e != nil {
		c.remove(e)
	}
	for c.lru.Len() >= c.max {
		c.remove(c.lru.Back())
	}
	if keys == nil {
		keys = map[int64]*list.Element{}
		c.clubs[k.ClubID] = keys
	}
	keys[k.ID] = c.lru.PushFront(&cachedKey{key: k, at: t.at})
}

// remove forgets one element; c.mu is held.
func (c *keyCache) remove(e *list.Element) {
	k := c.lru.Remove(e).(*cachedKey).key
	keys := c.clubs[k.ClubID]
	delete(keys, k.ID)
	if len(keys) == 0 {
		delete(c.clubs, k.ClubID)
	}
}

// forgetClub forgets every key of a club, at once: called when this
// instance changed one of them.
func (c *keyCache) forgetClub(clubID int64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, e := range c.clubs[clubID] {
		c.remove(e)
	}
}

// forgetKey forgets one key: another instance revoked it.
func (c *keyCache) forgetKey(clubID, keyID int64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if e := c.clubs[clubID][keyID]; e != nil {
		c.remove(e)
	}
}

// listening forgets every key and answers from now on only if on: the
// revocations are heard (again).
func (c *keyCache) listening(on bool) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.on = on
	c.clubs = map[int64]map[int64]*list.Element{}
	c.lru.Init()
}

// len is how many keys the cache holds.
func (c *keyCache) len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// keyEvents is the Service's KeyWatcher: what the KeyNotifier hears goes
// to the key cache and, for a revoked key, to the club's open event
// streams (keyWatch), which check their key again at once.
type keyEvents struct{ s *Service }

// Listening turns the key cache on or off, forgetting what it held.
func (e keyEvents) Listening(on bool) { e.s.keyCache.listening(on) }

// KeyRevoked forgets the key at once and makes the club's streams check
// theirs; the nudge may wait for a stream's read of the keys, so it does
// not hold up the notifier.
func (e keyEvents) KeyRevoked(clubID, keyID int64) {
	e.s.keyCache.forgetKey(clubID, keyID)
	go e.s.keys.nudge(clubID)
}

// keysChanged forgets what this instance knows of a club's keys, at once:
// called after a flow that created, revoked or rotated one has committed,
// before it answers.
func (s *Service) keysChanged(clubID int64) {
	s.keyCache.forgetClub(clubID)
	s.keys.invalidate(clubID)
}
