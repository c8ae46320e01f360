package main

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
)

// streamWatch opens an event stream and reports on ready once it has
// started and on final the kind of the event that ended it ("" when it
// ended without one).
func streamWatch(ctx context.Context, t *testing.T, url, key string, ready chan<- struct{}, final chan<- string) {
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("opening a stream: %v", err)
		final <- ""
		return
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("opening a stream: %d", res.StatusCode)
		final <- ""
		return
	}
	sc := bufio.NewScanner(res.Body)
	kind, started := "", false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "retry:") && !started {
			started = true
			ready <- struct{}{}
		}
		if k, ok := strings.CutPrefix(line, "event: "); ok {
			kind = k
		}
	}
	final <- kind
}

// TestSIGTERMWithOpenStreams: with 100 event streams open, the service
// exits 0 within 5 s of SIGTERM (Docker's default stop timeout is 10 s),
// and every stream gets `event: shutdown` before its connection closes.
func TestSIGTERMWithOpenStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the service in a process of its own")
	}
	dbURL := pgtest.URL(t)
	admin := createClub(t, cmdtest.Env(map[string]string{"DATABASE_URL": dbURL, "LOG_LEVEL": "warn"}))
	svc := startCrashChild(t, dbURL)
	var keys []string // a key may hold 32 streams
	for range 4 {
		keys = append(keys, call(t, "POST", svc.base+"/v1/keys", admin, map[string]any{"role": "reader"}, 201)["secret"].(string))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 100
	ready, final := make(chan struct{}, n), make(chan string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { streamWatch(ctx, t, svc.base+"/v1/events", keys[i%len(keys)], ready, final) })
	}
	timeout := time.After(30 * time.Second)
	for range n {
		select {
		case <-ready:
		case <-timeout:
			t.Fatal("the streams did not open within 30 s")
		}
	}

	start := time.Now()
	if err := svc.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-svc.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the service did not stop within 20 s of SIGTERM")
	}
	took := time.Since(start)
	t.Logf("SIGTERM with %d open streams: exited after %v", n, took.Round(time.Millisecond))
	if svc.err != nil {
		t.Errorf("the service exited with %v:\n%s", svc.err, svc.stderr)
	}
	if took > 5*time.Second {
		t.Errorf("the service took %v to stop, want at most 5 s", took)
	}
	wg.Wait()
	close(final)
	kinds := map[string]int{}
	for k := range final {
		kinds[k]++
	}
	if kinds["shutdown"] != n {
		t.Errorf("the streams ended with %v, want %d shutdown events", kinds, n)
	}
}
