package ledger_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/memory"
)

// countingClubs counts the key reads of a ClubStore.
type countingClubs struct {
	ledger.ClubStore
	reads atomic.Int64
}

func (c *countingClubs) FindKey(ctx context.Context, clubID, keyID int64) (ledger.StoredKey, error) {
	c.reads.Add(1)
	return c.ClubStore.FindKey(ctx, clubID, keyID)
}

// deafNotifier says it listens and never tells of a revocation: what this
// instance refuses, it refuses by itself.
type deafNotifier struct{}

func (deafNotifier) WatchKeys(w ledger.KeyWatcher) { w.Listening(true) }

// TestOwnRevocationIsRefusedAtOnce: with the key cache on, a key revoked
// or rotated through this instance is refused by the very next
// Authenticate, with no notification, while the rotated key's successor
// and the club's other keys authenticate.
func TestOwnRevocationIsRefusedAtOnce(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	ports := store.Ports()
	clubs := &countingClubs{ClubStore: ports.Clubs}
	ports.Clubs = clubs
	ports.Revocations = deafNotifier{}
	c := newClubOn(t, store, ports)
	_, reader, err := c.svc.CreateKey(ctx, c.admin, ledger.RoleReader, "Tafel")
	c.must(err)
	authenticate := func(token string) (ledger.Actor, int64, error) {
		before := clubs.reads.Load()
		a, err := c.svc.Authenticate(ctx, token)
		return a, clubs.reads.Load() - before, err
	}
	for _, token := range []string{c.secret, reader} {
		if _, _, err := authenticate(token); err != nil {
			t.Fatal(err)
		}
		if _, reads, err := authenticate(token); err != nil || reads != 0 {
			t.Fatalf("second use: %d store reads, %v; want 0 (the cache is on)", reads, err)
		}
	}

	_, next, err := c.svc.RotateKey(ctx, c.admin, c.scorer.KeyID)
	c.must(err)
	if _, _, err := authenticate(c.secret); ledger.ErrorCode(err) != ledger.EUNAUTHORIZED {
		t.Fatalf("the rotated key right after RotateKey: got %v, want EUNAUTHORIZED", err)
	}
	if _, _, err := authenticate(next); err != nil {
		t.Fatalf("the successor: %v", err)
	}

	readerActor, _, err := authenticate(reader)
	c.must(err)
	_, err = c.svc.RevokeKey(ctx, c.admin, readerActor.KeyID)
	c.must(err)
	if _, _, err := authenticate(reader); ledger.ErrorCode(err) != ledger.EUNAUTHORIZED {
		t.Fatalf("the revoked key right after RevokeKey: got %v, want EUNAUTHORIZED", err)
	}
	if _, _, err := authenticate(next); err != nil {
		t.Fatalf("the successor after another key's revocation: %v", err)
	}
	if _, reads, err := authenticate(next); err != nil || reads != 0 {
		t.Fatalf("the successor again: %d store reads, %v; want 0", reads, err)
	}
}
