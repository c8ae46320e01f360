package postgres_test

// The key cache across instances: two Services, each with its own
// Listener, on one database, as two `stichbuch serve` behind a balancer.

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
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

// keyEvent is what a Listener told a KeyWatcher: a revoked key, or
// whether it listens (club 0).
type keyEvent struct {
	club, key int64
	listening bool
}

// heard is a keyEvent and when the probe was told.
type heard struct {
	keyEvent
	at time.Time
}

// probe is a KeyWatcher that passes on what it is told. Watching after
// the Service, it hears of an event after the Service's key cache has.
type probe chan heard

func (p probe) Listening(on bool) { p <- heard{keyEvent{listening: on}, time.Now()} }
func (p probe) KeyRevoked(clubID, keyID int64) {
	p <- heard{keyEvent{club: clubID, key: keyID}, time.Now()}
}

// await waits for the event want, skipping others, and returns when it
// was told.
func (p probe) await(t testing.TB, want keyEvent) time.Time {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case e := <-p:
			if e.keyEvent == want {
				return e.at
			}
		case <-timeout:
			t.Fatalf("no key event %+v within 30 s", want)
		}
	}
}

// instance is one service on the test's database with its own Listener.
type instance struct {
	svc   *ledger.Service
	clubs *countingClubs
	// events hears what the Listener tells, after the Service.
	events probe
}

func newInstance(t testing.TB, ctx context.Context, pool *pgxpool.Pool) instance {
	t.Helper()
	return instanceWith(t, pool, postgres.Listen(ctx, pool, slog.New(slog.NewTextHandler(io.Discard, nil))))
}

// instanceWith is an instance whose Service hears revocations from n.
func instanceWith(t testing.TB, pool *pgxpool.Pool, n ledger.KeyNotifier) instance {
	t.Helper()
	ports := postgres.New(pool, pgtest.ChainKey).Ports()
	clubs := &countingClubs{ClubStore: ports.Clubs}
	ports.Clubs = clubs
	ports.Revocations = n
	in := instance{svc: ledger.NewService(ports), clubs: clubs, events: make(probe, 1024)}
	n.WatchKeys(in.events)
	in.events.await(t, keyEvent{listening: true})
	return in
}

// deafNotifier says it listens and never tells of a revocation: what an
// instance with it refuses, it refuses by itself.
type deafNotifier struct{}

func (deafNotifier) WatchKeys(w ledger.KeyWatcher) { w.Listening(true) }

// authenticate returns the key's actor and how many store reads it took.
func (in instance) authenticate(t testing.TB, token string) (ledger.Actor, int64, error) {
	t.Helper()
	before := in.clubs.reads.Load()
	a, err := in.svc.Authenticate(context.Background(), token)
	return a, in.clubs.reads.Load() - before, err
}

// mustAuthenticate fails the test unless the key authenticates with the
// given number of store reads.
func (in instance) mustAuthenticate(t testing.TB, token string, reads int64, what string) ledger.Actor {
	t.Helper()
	a, n, err := in.authenticate(t, token)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if n != reads {
		t.Fatalf("%s: %d store reads, want %d", what, n, reads)
	}
	return a
}

// TestKeyRevokedThroughAnotherInstance: a key revoked or rotated through
// instance A is refused by instance B, whose cache held it, as soon as
// B's listener has the notification; the club's other keys still
// authenticate from B's cache without a store read.
func TestKeyRevokedThroughAnotherInstance(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := pgtest.New(t)
	a, b := newInstance(t, ctx, pool), newInstance(t, ctx, pool)
	_, adminToken, err := a.svc.CreateClub(ctx, ledger.NewClub{Name: "Skatfreunde Eichel"})
	must(t, err)
	admin := a.mustAuthenticate(t, adminToken, 1, "admin on A")
	var tokens []string
	for _, label := range []string{"Tisch 1", "Tisch 2", "Tafel"} {
		_, token, err := a.svc.CreateKey(ctx, admin, ledger.RoleScorer, label)
		must(t, err)
		tokens = append(tokens, token)
	}
	var keys []ledger.Actor
	for _, token := range tokens {
		keys = append(keys, b.mustAuthenticate(t, token, 1, "first use on B"))
		b.mustAuthenticate(t, token, 0, "second use on B (from its cache)")
	}

	_, err = a.svc.RevokeKey(ctx, admin, keys[0].KeyID)
	must(t, err)
	b.events.await(t, keyEvent{club: admin.ClubID, key: keys[0].KeyID})
	if _, _, err := b.authenticate(t, tokens[0]); ledger.ErrorCode(err) != ledger.EUNAUTHORIZED {
		t.Fatalf("the key revoked through A, on B after the notification: got %v, want EUNAUTHORIZED", err)
	}
	b.mustAuthenticate(t, tokens[1], 0, "a key that was not revoked, on B")

	_, next, err := a.svc.RotateKey(ctx, admin, keys[1].KeyID)
	must(t, err)
	b.events.await(t, keyEvent{club: admin.ClubID, key: keys[1].KeyID})
	if _, _, err := b.authenticate(t, tokens[1]); ledger.ErrorCode(err) != ledger.EUNAUTHORIZED {
		t.Fatalf("the key rotated through A, on B after the notification: got %v, want EUNAUTHORIZED", err)
	}
	b.mustAuthenticate(t, next, 1, "its successor on B")
	b.mustAuthenticate(t, tokens[2], 0, "the third key, on B")
}

// TestOwnRevocationOnPostgres: with the key cache on, the very next
// Authenticate after RevokeKey or RotateKey through the same instance
// refuses the key. The instance hears no notification (deafNotifier): its
// own listener may or may not have one by then, and the promise holds
// either way.
func TestOwnRevocationOnPostgres(t *testing.T) {
	ctx := context.Background()
	a := instanceWith(t, pgtest.New(t), deafNotifier{})
	_, adminToken, err := a.svc.CreateClub(ctx, ledger.NewClub{Name: "Doko-Runde"})
	must(t, err)
	admin := a.mustAuthenticate(t, adminToken, 1, "admin")
	_, first, err := a.svc.CreateKey(ctx, admin, ledger.RoleScorer, "Tisch 1")
	must(t, err)
	_, second, err := a.svc.CreateKey(ctx, admin, ledger.RoleReader, "Tafel")
	must(t, err)
	k1 := a.mustAuthenticate(t, first, 1, "first key")
	k2 := a.mustAuthenticate(t, second, 1, "second key")
	a.mustAuthenticate(t, first, 0, "first key again")

	_, err = a.svc.RevokeKey(ctx, admin, k1.KeyID)
	must(t, err)
	if _, _, err := a.authenticate(t, first); ledger.ErrorCode(err) != ledger.EUNAUTHORIZED {
		t.Fatalf("right after RevokeKey: got %v, want EUNAUTHORIZED", err)
	}
	_, next, err := a.svc.RotateKey(ctx, admin, k2.KeyID)
	must(t, err)
	if _, _, err := a.authenticate(t, second); ledger.ErrorCode(err) != ledger.EUNAUTHORIZED {
		t.Fatalf("right after RotateKey: got %v, want EUNAUTHORIZED", err)
	}
	a.mustAuthenticate(t, next, 1, "the successor")
}

// TestKeyCacheOffWhileListenerLost: when the listener's connection is
// killed (pg_terminate_backend), every Authenticate reads the store until
// the listener is back; then the cache starts empty, since revocations
// may have been missed meanwhile.
func TestKeyCacheOffWhileListenerLost(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := pgtest.New(t)
	b := newInstance(t, ctx, pool)
	_, token, err := b.svc.CreateClub(ctx, ledger.NewClub{Name: "Schafkopf Mittwoch"})
	must(t, err)
	b.mustAuthenticate(t, token, 1, "first use")
	b.mustAuthenticate(t, token, 0, "second use (from the cache)")

	var killed []bool
	rows, err := pool.Query(ctx, `
		SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = 'stichbuch listener' AND datname = current_database()`)
	must(t, err)
	for rows.Next() {
		var ok bool
		must(t, rows.Scan(&ok))
		killed = append(killed, ok)
	}
	must(t, rows.Err())
	if !slices.Equal(killed, []bool{true}) {
		t.Fatalf("terminated listeners: %v, want one", killed)
	}
	b.events.await(t, keyEvent{listening: false})
	b.mustAuthenticate(t, token, 1, "while the listener is lost")
	b.mustAuthenticate(t, token, 1, "again while the listener is lost")

	b.events.await(t, keyEvent{listening: true})
	b.mustAuthenticate(t, token, 1, "first use after the listener is back")
	b.mustAuthenticate(t, token, 0, "second use after the listener is back")
}

// BenchmarkAuthenticate is one Authenticate of a valid key: "store" reads
// the key from PostgreSQL every time (no notifier: as before the cache),
// "cache" from the key cache (an instance with its listener).
func BenchmarkAuthenticate(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := pgtest.New(b)
	cached := newInstance(b, ctx, pool)
	_, token, err := cached.svc.CreateClub(ctx, ledger.NewClub{Name: "Bench"})
	if err != nil {
		b.Fatal(err)
	}
	for name, svc := range map[string]*ledger.Service{
		"store": postgres.New(pool, pgtest.ChainKey).Service(),
		"cache": cached.svc,
	} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := svc.Authenticate(ctx, token); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRevocationReach revokes b.N keys through instance A and logs
// how long after RevokeKey returned instance B's listener had told B's
// key cache: the window in which B may still accept a key revoked
// through A (negative: B knew before A answered). Run with
// -benchtime=200x.
func BenchmarkRevocationReach(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := pgtest.New(b)
	a, other := newInstance(b, ctx, pool), newInstance(b, ctx, pool)
	_, adminToken, err := a.svc.CreateClub(ctx, ledger.NewClub{Name: "Bench"})
	if err != nil {
		b.Fatal(err)
	}
	admin := a.mustAuthenticate(b, adminToken, 1, "admin")
	ids := make([]int64, b.N)
	for i := range ids {
		k, _, err := a.svc.CreateKey(ctx, admin, ledger.RoleReader, "")
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = k.ID
	}
	delays := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for _, id := range ids {
		if _, err := a.svc.RevokeKey(ctx, admin, id); err != nil {
			b.Fatal(err)
		}
		answered := time.Now()
		delays = append(delays, other.events.await(b, keyEvent{club: admin.ClubID, key: id}).Sub(answered))
	}
	b.StopTimer()
	slices.Sort(delays)
	before := 0
	for _, d := range delays {
		if d < 0 {
			before++
		}
	}
	b.Logf("%d revocations reached the other instance after A answered: min %v, median %v, p90 %v, max %v (%d before A answered)",
		len(delays), delays[0], delays[len(delays)/2], delays[len(delays)*9/10], delays[len(delays)-1], before)
}
