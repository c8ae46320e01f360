package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// unavailable sends a hand to srv and asserts the answer a phone's outbox
// retries: 503, problem+json and Retry-After.
func unavailable(t *testing.T, srv *api.Server, path, key, idem string, body any) {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("POST", path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Idempotency-Key", idem)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != 503 {
		t.Fatalf("status %d, want 503: %s", rec.Code, rec.Body)
	}
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/problem+json") {
		t.Errorf("Content-Type %q, want application/problem+json", rec.Header().Get("Content-Type"))
	}
	if rec.Header().Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
}

// A write that reaches a node which is no longer the primary (during a
// switchover HAProxy may still route to it) is refused by PostgreSQL with
// read_only_sql_transaction: the phone hears 503 with Retry-After, never
// 500, nothing is stored, and the retry with the same key stores it once.
func TestWriteToANodeThatIsNoLongerPrimary(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	cfg, err := pgxpool.ParseConfig(e.url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	ro, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	demoted, err := api.New(postgres.New(ro, pgtest.ChainKey).Service(), slog.New(slog.DiscardHandler), api.Config{})
	if err != nil {
		t.Fatal(err)
	}
	unavailable(t, demoted, ev.hands(), e.admin, "outbox-1", ev.hand(1))
	if n := e.count("hands"); n != 0 {
		t.Fatalf("%d hands stored by a refused write, want 0", n)
	}
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1), "Idempotency-Key", "outbox-1")
	if n := e.count("hands"); n != 1 {
		t.Errorf("%d hands after the retry, want 1", n)
	}
}

// A request that waits on the database longer than the request timeout
// (a primary that is gone, a table locked) ends with 503 and
// Retry-After within the bound, not a hang; nothing of it is stored, and
// the retry with the same key, once the database answers, stores it once.
func TestRequestTimeoutAnswers503(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	const bound = 500 * time.Millisecond
	bounded, err := api.New(e.store, slog.New(slog.DiscardHandler), api.Config{RequestTimeout: bound})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	locker, err := e.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := locker.Exec(ctx, "LOCK TABLE hands IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	// The lock is held until the answer is in: without the bound the
	// request would wait for ever.
	unavailable(t, bounded, ev.hands(), e.admin, "outbox-2", ev.hand(1))
	if err := locker.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if n := e.count("hands"); n != 0 {
		t.Fatalf("%d hands stored by a request that timed out, want 0", n)
	}
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1), "Idempotency-Key", "outbox-2")
	if n := e.count("hands"); n != 1 {
		t.Errorf("%d hands after the retry, want 1", n)
	}
}
