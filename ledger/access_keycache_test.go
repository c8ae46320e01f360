package ledger

// The key cache's bounds, against a fake ClubStore that knows keys 1 to
// knownKeys of club 1: the flows' use of the cache runs against the
// memory store (access_keycache_flow_test.go) and PostgreSQL
// (ledger/postgres/keycache_test.go).

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	mrand "math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

const knownKeys = 1000

// fakeClubs answers FindKey for club 1's keys 1 to knownKeys, whose
// random part fakeRandom makes, and counts the reads.
type fakeClubs struct {
	ClubStore // the rest is not called
	reads     atomic.Int64
}

func fakeRandom(keyID int64) string {
	return fmt.Sprintf("%043d", keyID)
}

func (f *fakeClubs) FindKey(_ context.Context, clubID, keyID int64) (StoredKey, error) {
	f.reads.Add(1)
	if clubID != 1 || keyID < 1 || keyID > knownKeys {
		return StoredKey{}, Errorf(ENOTFOUND, "API key %d not found", keyID)
	}
	sum := sha256.Sum256([]byte(fakeRandom(keyID)))
	return StoredKey{APIKey: APIKey{ClubID: clubID, ID: keyID, Role: RoleScorer}, Hash: sum[:]}, nil
}

// cachedService is a Service over fakeClubs whose key cache holds size
// keys and listens.
func cachedService(size int) (*Service, *fakeClubs) {
	f := &fakeClubs{}
	s := NewService(Ports{Clubs: f})
	s.keyCache = newKeyCache(size, KeyCacheMaxAge)
	s.keyCache.listening(true)
	return s, f
}

func randomToken(t *testing.T) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return KeyToken(mrand.Int64N(1<<40)+1, mrand.Int64N(1<<40)+1, base64.RawURLEncoding.EncodeToString(b))
}

// TestKeyCacheStaysBounded: authenticating more keys than the cache holds
// keeps it at its size, the most recently used keys in it; a flood of
// random tokens and of known key ids with wrong secrets is refused, adds
// nothing and evicts nothing: the cache grows only from keys whose secret
// was presented.
func TestKeyCacheStaysBounded(t *testing.T) {
	ctx := context.Background()
	const size = 100
	s, f := cachedService(size)
	for id := int64(1); id <= knownKeys; id++ {
		if _, err := s.Authenticate(ctx, KeyToken(1, id, fakeRandom(id))); err != nil {
			t.Fatalf("key %d: %v", id, err)
		}
	}
	if n := s.keyCache.len(); n != size {
		t.Fatalf("the cache holds %d keys after %d were used, want its size %d", n, knownKeys, size)
	}
	for i := 0; i < 10_000; i++ {
		token := randomToken(t)
		if i%2 == 1 { // a known key with a wrong secret
			token = KeyToken(1, int64(i%knownKeys)+1, fakeRandom(0))
		}
		if _, err := s.Authenticate(ctx, token); ErrorCode(err) != EUNAUTHORIZED {
			t.Fatalf("%s: got %v, want EUNAUTHORIZED", token, err)
		}
	}
	if n := s.keyCache.len(); n != size {
		t.Fatalf("the cache holds %d keys after the flood, want %d", n, size)
	}
	before := f.reads.Load()
	for id := int64(knownKeys - size + 1); id <= knownKeys; id++ {
		if _, err := s.Authenticate(ctx, KeyToken(1, id, fakeRandom(id))); err != nil {
			t.Fatalf("key %d: %v", id, err)
		}
	}
	if reads := f.reads.Load() - before; reads != 0 {
		t.Errorf("the %d most recently used keys took %d store reads after the flood, want 0 (evicted by garbage)", size, reads)
	}
}

// TestKeyCacheEntriesExpire: a key read KeyCacheMaxAge ago is read again,
// even while the notifier listens.
func TestKeyCacheEntriesExpire(t *testing.T) {
	ctx := context.Background()
	s, f := cachedService(10)
	now := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	s.keyCache.now = func() time.Time { return now }
	token := KeyToken(1, 7, fakeRandom(7))
	authenticate := func() int64 {
		t.Helper()
		before := f.reads.Load()
		if _, err := s.Authenticate(ctx, token); err != nil {
			t.Fatal(err)
		}
		return f.reads.Load() - before
	}
	if reads := authenticate(); reads != 1 {
		t.Fatalf("first use: %d store reads, want 1", reads)
	}
	now = now.Add(KeyCacheMaxAge - time.Second)
	if reads := authenticate(); reads != 0 {
		t.Fatalf("within KeyCacheMaxAge: %d store reads, want 0", reads)
	}
	now = now.Add(time.Second)
	if reads := authenticate(); reads != 1 {
		t.Fatalf("after KeyCacheMaxAge: %d store reads, want 1", reads)
	}
}

// TestKeyCacheDropsARaceWithARevocation: a store read that began before a
// key was forgotten is not stored, since it may show the key before its
// revocation committed.
func TestKeyCacheDropsARaceWithARevocation(t *testing.T) {
	s, _ := cachedService(10)
	k, err := (&fakeClubs{}).FindKey(context.Background(), 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	for name, forget := range map[string]func(){
		"this instance changed the club's keys": func() { s.keyCache.forgetClub(1) },
		"another instance revoked the key":      func() { s.keyCache.forgetKey(1, 3) },
		"the listener reconnected":              func() { s.keyCache.listening(true) },
	} {
		ticket := s.keyCache.ticket()
		forget()
		s.keyCache.put(ticket, k)
		if _, ok := s.keyCache.find(1, 3); ok {
			t.Errorf("%s while the key was read: the read was stored", name)
		}
	}
}
