package api_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// keyEvent is what a Listener told a KeyWatcher: a revoked key, or
// whether it listens (club 0).
type keyEvent struct {
	club, key int64
	listening bool
}

// keyProbe is a KeyWatcher that passes on what it is told.
type keyProbe chan keyEvent

func (p keyProbe) Listening(on bool)              { p <- keyEvent{listening: on} }
func (p keyProbe) KeyRevoked(clubID, keyID int64) { p <- keyEvent{club: clubID, key: keyID} }

// await waits for the event want, skipping others.
func (p keyProbe) await(t testing.TB, want keyEvent) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case e := <-p:
			if e == want {
				return
			}
		case <-timeout:
			t.Fatalf("no key event %+v within 30 s", want)
		}
	}
}

// TestKeyRevokedThroughAnotherInstanceIsRefused: two servers with key
// caches on one database. A key both have authenticated is revoked
// through the other server; once this server's listener has the
// notification, its next request with the key is a 401 problem, while
// another key of the club still answers.
func TestKeyRevokedThroughAnotherInstanceIsRefused(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	listener := postgres.Listen(ctx, e.pool, log)
	ports := postgres.New(e.pool, pgtest.ChainKey).Ports()
	ports.Revocations = listener
	otherEvents := make(keyProbe, 1024)
	other, err := api.New(ledger.NewService(ports), log, api.Config{Notifier: listener})
	if err != nil {
		t.Fatal(err)
	}
	listener.WatchKeys(otherEvents)
	otherEvents.await(t, keyEvent{listening: true})
	otherSrv := httptest.NewServer(other)
	defer otherSrv.Close()

	scorer := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "scorer"})
	reader := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})
	for _, k := range []map[string]any{scorer, reader} {
		e.must(200, "GET", "/v1/club", k["secret"].(string), nil)
		otherGet(t, otherSrv.URL, k["secret"].(string), 200)
	}
	clubID, keyID := keyIDs(t, scorer["secret"].(string))
	otherCall(t, otherSrv.URL, "POST", fmt.Sprintf("/v1/keys/%d/revoke", keyID), e.admin, 200)
	e.keyEvents.await(t, keyEvent{club: clubID, key: keyID})
	r := e.call("GET", "/v1/club", scorer["secret"].(string), nil)
	if r.status != 401 || r.header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("the key revoked through the other server: %d %s, want 401 application/problem+json", r.status, r.header.Get("Content-Type"))
	}
	e.must(200, "GET", "/v1/club", reader["secret"].(string), nil)
	otherGet(t, otherSrv.URL, scorer["secret"].(string), 401)
}

// otherGet is GET /v1/club on another server, which must answer want.
func otherGet(t *testing.T, base, key string, want int) {
	t.Helper()
	otherCall(t, base, "GET", "/v1/club", key, want)
}

func otherCall(t *testing.T, base, method, path, key string, want int) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != want {
		t.Fatalf("%s %s on the other server: %d, want %d", method, path, res.StatusCode, want)
	}
}

// BenchmarkKeyLookup is BenchmarkPostHand and a GET /v1/club (the key, the
// club's row, the answer) with the key read from PostgreSQL on every
// request ("store": a Service without Revocations, as before the key
// cache) and from the key cache ("cache": as `stichbuch serve` wires it).
func BenchmarkKeyLookup(b *testing.B) {
	for _, path := range []string{"hand", "club"} {
		for _, mode := range []string{"store", "cache"} {
			b.Run(path+"/"+mode, func(b *testing.B) {
				e := newEnv(b)
				if mode == "store" {
					srv, err := api.New(postgres.New(e.pool, pgtest.ChainKey).Service(), slog.New(slog.DiscardHandler), api.Config{})
					if err != nil {
						b.Fatal(err)
					}
					e.server = srv
				}
				if path == "hand" {
					postHands(b, e)
					return
				}
				b.ReportAllocs()
				for b.Loop() {
					req := httptest.NewRequest("GET", "/v1/club", nil)
					req.Header.Set("Authorization", "Bearer "+e.admin)
					rec := httptest.NewRecorder()
					e.server.ServeHTTP(rec, req)
					if rec.Code != 200 {
						b.Fatalf("status %d: %s", rec.Code, rec.Body)
					}
				}
			})
		}
	}
}
