package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// sse is one event of a stream: a change (with an id), or the final event
// that ends the stream (revoked, shutdown, reconnect; without one).
type sse struct {
	id, kind string
	data     map[string]any
}

// openStream connects to an event stream and delivers its events on a
// channel until the returned cancel is called.
func openStream(t *testing.T, url, key, lastID string) (<-chan sse, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // before the test's server closes, which waits for open requests
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		t.Fatalf("event stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	events := make(chan sse, 100)
	ready := make(chan struct{})
	started := ready
	go func() {
		defer res.Body.Close()
		defer close(events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "retry:") && ready != nil:
				close(ready) // the stream's first line; a final event may set retry again
				ready = nil
			case strings.HasPrefix(line, "id: "):
				ev.id = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "event: "):
				ev.kind = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.data)
			case line == "" && (ev.id != "" || ev.kind != ""):
				events <- ev // a change, or a final event (which has no id)
				ev = sse{}
			}
		}
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		cancel()
		t.Fatal("the stream did not start")
	}
	return events, cancel
}

func next(t *testing.T, events <-chan sse, within time.Duration) sse {
	t.Helper()
	select {
	case ev, ok := <-events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(within):
		t.Fatalf("no event within %v", within)
	}
	return sse{}
}

// TestEventsAcrossInstances: an SSE client on one instance sees a hand
// recorded through another within a second (LISTEN/NOTIFY), and a client
// reconnecting with Last-Event-ID gets exactly what it missed.
func TestEventsAcrossInstances(t *testing.T) {
	e := newEnv(t) // instance B: e.server
	ev := e.evening()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	poolA, err := postgres.Connect(ctx, e.url)
	if err != nil {
		t.Fatal(err)
	}
	defer poolA.Close()
	log := slog.New(slog.DiscardHandler)
	a, err := api.New(postgres.New(poolA, pgtest.ChainKey).Service(), log, api.Config{Notifier: postgres.Listen(ctx, poolA, log)})
	if err != nil {
		t.Fatal(err)
	}
	srvA := httptest.NewServer(a)
	defer srvA.Close()
	stream := fmt.Sprintf("%s/v1/tables/%d/events", srvA.URL, ev.table)

	events, cancel := openStream(t, stream, e.admin, "")
	time.Sleep(100 * time.Millisecond) // let instance A's listener settle
	start := time.Now()
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1)) // through instance B
	got := next(t, events, time.Second)
	t.Logf("instance A saw the hand %v after it was recorded through B", time.Since(start).Round(time.Millisecond))
	if got.kind != "hand_recorded" || got.data["hand"].(map[string]any)["number"] != 1.0 {
		t.Fatalf("first event %s %v", got.kind, got.data)
	}
	if st := got.data["standings"].([]any); len(st) != 4 {
		t.Errorf("the event carries %d standings, want 4", len(st))
	}
	if got.data["state"] == nil {
		t.Error("the event carries no table state")
	}
	lastID := got.id
	cancel()

	// While the client is away, three more hands go in through B.
	for n := 2; n <= 4; n++ {
		e.must(201, "POST", ev.hands(), e.admin, ev.hand(n))
	}
	events, cancel = openStream(t, stream, e.admin, lastID)
	defer cancel()
	for n := 2; n <= 4; n++ {
		got := next(t, events, 2*time.Second)
		if got.kind != "hand_recorded" || got.data["hand"].(map[string]any)["number"] != float64(n) {
			t.Fatalf("after reconnecting: %s %v, want hand %d", got.kind, got.data["change"], n)
		}
	}
	select {
	case extra := <-events:
		t.Errorf("an event more than was missed: %s %s", extra.id, extra.kind)
	case <-time.After(300 * time.Millisecond):
	}
}
