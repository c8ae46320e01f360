package ledger

import (
	"context"
	"time"
)

// Ports are the store's ports a Service works on. One store usually
// implements them all (postgres.Store.Ports, memory.Store.Ports).
type Ports struct {
	Clubs   ClubStore
	Players PlayerStore
	Tables  TableStore
	Hands   HandStore
	Money   MoneyStore
	Feed    FeedStore
	Stats   StatsStore
	// Tournaments holds the tournament evenings (tournament.go).
	Tournaments TournamentStore
	// Seasons holds the season rules and reads a season's evenings (season.go).
	Seasons SeasonStore
	// Imports writes the old lists' imports (season_import.go).
	Imports ImportStore
	Health  Pinger
	Writer  Transactor
	// Revocations tells of the API keys revoked through any instance of
	// the service; with it the Service keeps a key cache
	// (access_keycache.go), without it (nil) every Authenticate reads the
	// key from Clubs.
	Revocations KeyNotifier
}

// Service is the ledger's use-cases: the write flows (record a hand,
// correct it, close and settle a session, book the kitty …) and the reads
// that need the domain's rules. Plain reads go to the ports, which the
// Service carries as fields.
type Service struct {
	Ports
	now  func() time.Time
	keys *keyWatch
	// keyCache is nil (off) without p.Revocations.
	keyCache *keyCache
	lanes    *handLanes
}

// NewService returns the ledger's use-cases over the store's ports. With
// p.Revocations it keeps a key cache, which answers while the notifier
// listens.
func NewService(p Ports) *Service {
	s := &Service{Ports: p, now: time.Now, keys: newKeyWatch(KeyRecheck), lanes: newHandLanes()}
	if p.Revocations != nil {
		s.keyCache = newKeyCache(KeyCacheSize, KeyCacheMaxAge)
		p.Revocations.WatchKeys(keyEvents{s})
	}
	return s
}

// WithClock returns a copy of s that reads the time from now (for tests).
func (s *Service) WithClock(now func() time.Time) *Service {
	c := *s
	c.now = now
	return &c
}

// Ping checks that the store answers.
func (s *Service) Ping(ctx context.Context) error { return s.Health.Ping(ctx) }

// inTx runs fn in one transaction of the actor's club.
func (s *Service) inTx(ctx context.Context, clubID int64, fn func(Tx) error) error {
	return s.Writer.InTx(ctx, clubID, fn)
}

// claim serializes the requests with idem's key and returns what an
// earlier one created (0: the key is new). The same key with another
// request, or for another kind of thing, is EIDEMPOTENCY.
func claim(ctx context.Context, tx IdempotencyTx, idem *Idempotency, kind Kind) (int64, error) {
	if idem == nil {
		return 0, nil
	}
	if idem.Key == "" || len(idem.Key) > MaxIdempotencyKeyLen {
		field := idem.Field
		if field == "" {
			field = "Idempotency-Key"
		}
		return 0, Invalid(field, "must be 1 to %d characters, got %d", MaxIdempotencyKeyLen, len(idem.Key))
	}
	c, err := tx.Claim(ctx, idem.Key)
	if err != nil {
		return 0, wrap(err, "claim: Claim")
	}
	return claimed(c, idem, kind)
}

// claimed is what a claimed key means for a request: the id of what an
// earlier identical request created (0: the key is new), or EIDEMPOTENCY
// for the same key with another request or kind.
func claimed(c Claimed, idem *Idempotency, kind Kind) (int64, error) {
	if idem == nil || !c.Found {
		return 0, nil
	}
	if c.Kind != kind || string(c.Hash) != string(idem.Hash) {
		return 0, &Error{Code: EIDEMPOTENCY, Message: "this Idempotency-Key was already used with a different request; use a new key for a new request"}
	}
	return c.Ref, nil
}

// remember stores idem's key with what its request created.
func remember(ctx context.Context, tx IdempotencyTx, idem *Idempotency, kind Kind, ref int64) error {
	if idem == nil {
		return nil
	}
	return tx.Remember(ctx, idem, kind, ref)
}
