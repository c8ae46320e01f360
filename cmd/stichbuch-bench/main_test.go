package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// service is the API on a loopback port of this process, as `stichbuch
// serve` wires it (without a rate limit), over the database at DATABASE_URL:
// this command cannot run the other's serve, whose own tests start it
// through its run.
type service struct {
	base string
	stop func() error
}

func startAPI(t *testing.T, getenv func(string) string) service {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pool, err := postgres.Connect(ctx, getenv("DATABASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := postgres.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	handler, err := api.New(postgres.New(pool, pgtest.ChainKey).Service(), log, api.Config{Notifier: postgres.Listen(ctx, pool, log)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		err := srv.Shutdown(context.Background())
		if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
			err = serr
		}
		cancel()
		pool.Close()
		return err
	}
	t.Cleanup(func() { stop() })
	return service{base: "http://" + ln.Addr().String(), stop: stop}
}

// seedClub creates a club in the database at DATABASE_URL with the load
// tool's createLoadClub and returns its admin key.
func seedClub(t *testing.T, getenv func(string) string) string {
	t.Helper()
	key, err := createLoadClub(context.Background(), getenv("DATABASE_URL"))
	if err != nil {
		t.Fatalf("creating a club: %v", err)
	}
	return key
}

func TestRunRefusesUnknownCommands(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"stichbuch-bench", "serve"}, cmdtest.Env(nil), &stdout, &stderr); err == nil {
		t.Error("unknown command (the service's serve) accepted")
	}
	if err := run(context.Background(), []string{"stichbuch-bench"}, cmdtest.Env(nil), &stdout, &stderr); err == nil {
		t.Error("no command accepted")
	}
	for _, want := range []string{"stichbuch-bench load", "stichbuch-bench generate"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("usage does not name %q:\n%s", want, stderr.String())
		}
	}
}
