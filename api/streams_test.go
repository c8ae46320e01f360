package api_test

// The event streams under the findings of the reliability and security
// review: a revoked key's stream, the stream limits, the server's
// timeouts, the database work of many streams and the paged replay.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// ended waits until a stream's channel is closed, failing on an event.
func ended(t *testing.T, events <-chan sse, within time.Duration) {
	t.Helper()
	select {
	case ev, ok := <-events:
		if ok {
			t.Errorf("an event after the final one: %s %s %v", ev.id, ev.kind, ev.data)
		}
	case <-time.After(within):
		t.Errorf("the stream did not end within %v of its final event", within)
	}
}

// streamAnswer opens a stream and returns its status, headers and, for
// an error, its body (checked against openapi.yaml); an open stream is
// closed at once.
func streamAnswer(t *testing.T, e *env, url, key string) (int, http.Header, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode == 200 {
		return 200, res.Header, nil
	}
	raw, _ := io.ReadAll(res.Body)
	if err := api.ValidateResponse(context.Background(), e.router, req, res.StatusCode, res.Header, raw); err != nil {
		t.Errorf("%s: response %d breaks openapi.yaml: %v", url, res.StatusCode, err)
	}
	var p map[string]any
	json.Unmarshal(raw, &p)
	return res.StatusCode, res.Header, p
}

// TestARevokedOrRotatedKeyLosesItsStream: a stream whose key is revoked
// or rotated ends with `event: revoked` within seconds, on the instance
// that revoked it and on another.
func TestARevokedOrRotatedKeyLosesItsStream(t *testing.T) {
	e, srv, _ := newCountingEnv(t, api.Config{})
	ev := e.evening()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	log := slog.New(slog.DiscardHandler)
	listener := postgres.Listen(ctx, e.pool, log)
	ports := postgres.New(e.pool, pgtest.ChainKey).Ports()
	ports.Revocations = listener // as serve wires it: a revocation heard nudges the streams
	other, err := api.New(ledger.NewService(ports), log, api.Config{Notifier: listener})
	if err != nil {
		t.Fatal(err)
	}
	otherSrv := httptest.NewServer(other)
	defer otherSrv.Close()
	cases := []struct{ action, base, path string }{
		{"revoke", srv.URL, "/v1/events"},
		{"rotate", srv.URL, fmt.Sprintf("/v1/tables/%d/events", ev.table)},
		{"revoke", otherSrv.URL, "/v1/events"}, // revoked through another instance
		{"rotate", otherSrv.URL, "/v1/events"},
	}
	for i, c := range cases {
		k := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "scorer"})
		events, cancel := openStream(t, c.base+c.path, k["secret"].(string), "")
		e.must(201, "POST", ev.hands(), k["secret"].(string), ev.hand(i+1))
		if got := next(t, events, 5*time.Second); got.kind != "hand_recorded" {
			t.Fatalf("%s: first event %s", c.action, got.kind)
		}
		start := time.Now()
		e.call("POST", fmt.Sprintf("/v1/keys/%v/%s", k["id"], c.action), e.admin, nil)
		got := next(t, events, 10*time.Second)
		if got.kind != "revoked" || got.id != "" || got.data["reason"] != "revoked" {
			t.Errorf("%s on %s: final event %q (id %q) %v, want revoked without an id", c.action, c.base, got.kind, got.id, got.data)
		}
		t.Logf("%s of a key with a stream on %s: the stream ended after %v", c.action, c.path, time.Since(start).Round(time.Millisecond))
		ended(t, events, 5*time.Second)
		cancel()
	}
}

// TestStreamLimits: a key and a club may hold only so many streams; more
// are refused with 429, Retry-After and a problem naming the limit.
func TestStreamLimits(t *testing.T) {
	e, srv, _ := newCountingEnv(t, api.Config{StreamsPerKey: 2, StreamsPerClub: 3})
	ev := e.evening()
	reader := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})["secret"].(string)
	_, cancel1 := openStream(t, srv.URL+"/v1/events", reader, "")
	_, cancel2 := openStream(t, fmt.Sprintf("%s/v1/tables/%d/events", srv.URL, ev.table), reader, "")
	defer cancel2()
	status, header, p := streamAnswer(t, e, srv.URL+"/v1/events", reader)
	if status != 429 || header.Get("Retry-After") == "" || p["limit"] != 2.0 || !strings.HasPrefix(header.Get("Content-Type"), "application/problem+json") {
		t.Errorf("a third stream of one key: %d, Retry-After %q, %v", status, header.Get("Retry-After"), p)
	}
	_, cancel3 := openStream(t, srv.URL+"/v1/events", e.admin, "")
	defer cancel3()
	if status, _, p := streamAnswer(t, e, srv.URL+"/v1/events", e.admin); status != 429 || p["limit"] != 3.0 {
		t.Errorf("a fourth stream of the club: %d %v", status, p)
	}
	// A closed stream frees its place.
	cancel1()
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, _, _ := streamAnswer(t, e, srv.URL+"/v1/events", reader)
		if status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed stream's place is still taken: %d", status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStreamsOutliveTheServerTimeouts: the server's read and write
// timeouts end requests, not event streams.
func TestStreamsOutliveTheServerTimeouts(t *testing.T) {
	e, _, _ := newCountingEnv(t, api.Config{})
	ev := e.evening()
	srv := httptest.NewUnstartedServer(e.server)
	srv.Config.ReadTimeout, srv.Config.WriteTimeout = 200*time.Millisecond, 200*time.Millisecond
	srv.Start()
	defer srv.Close()
	events, cancel := openStream(t, srv.URL+"/v1/events", e.admin, "")
	defer cancel()
	time.Sleep(5 * 200 * time.Millisecond) // the condition under test: both timeouts have passed
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))
	if got := next(t, events, 5*time.Second); got.kind != "hand_recorded" {
		t.Errorf("after the server's timeouts: %s %v", got.kind, got.data)
	}
}

// TestStreamsShareTheirDatabaseWork: a change costs the same reads with
// one stream open as with 30 (the club's hub reads it once, counted
// through wrappers of the ports), and every stream gets it.
func TestStreamsShareTheirDatabaseWork(t *testing.T) {
	e, srv, n := newCountingEnv(t, api.Config{})
	ev := e.evening()
	var keys []string
	for range 3 {
		keys = append(keys, e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})["secret"].(string))
	}
	var streams []<-chan sse
	number := 0
	costOfAHand := func() (data, pages int64) {
		t.Helper()
		for _, warm := range []bool{true, false} { // the first hand warms the new streams' hub up
			if !warm {
				n.reset()
			}
			number++
			e.must(201, "POST", ev.hands(), e.admin, ev.hand(number))
			for i, s := range streams {
				if got := next(t, s, 5*time.Second); got.kind != "hand_recorded" || got.data["hand"] == nil {
					t.Fatalf("stream %d of %d: %s %v", i, len(streams), got.kind, got.data)
				}
			}
		}
		return n.eventData(), n.pages()
	}
	open := func(count int) {
		for i := range count {
			url := srv.URL + "/v1/events"
			if i%2 == 1 {
				url = fmt.Sprintf("%s/v1/tables/%d/events", srv.URL, ev.table)
			}
			s, cancel := openStream(t, url, keys[i%len(keys)], "")
			t.Cleanup(cancel)
			streams = append(streams, s)
		}
	}
	open(1)
	data1, pages1 := costOfAHand()
	open(29)
	data30, pages30 := costOfAHand()
	t.Logf("reads of one hand's events: %d (+ %d pages of the feed) with 1 stream, %d (+ %d) with 30", data1, pages1, data30, pages30)
	// One read each of the hands, the table and its standings. The feed is
	// read once per wake-up of the hub, whatever the number of streams:
	// this instance's write, its notification, perhaps the late
	// notification of the hand before or the hub's poll.
	if data1 != 3 || data30 != 3 || pages1 > 4 || pages30 > 4 {
		t.Errorf("a hand's events cost %d reads and %d pages with 1 stream, %d and %d with 30; want 3 and at most 4 each",
			data1, pages1, data30, pages30)
	}
}

// TestReplayIsPaged: a stream sends at most ReplayLimit events of backlog
// and then `reconnect`; the client goes on from its Last-Event-ID.
func TestReplayIsPaged(t *testing.T) {
	e, srv, _ := newCountingEnv(t, api.Config{ReplayLimit: 5})
	ev := e.evening() // change 1: the session
	for n := 1; n <= 12; n++ {
		e.must(201, "POST", ev.hands(), e.admin, ev.hand(n)) // changes 2 to 13
	}
	url := srv.URL + "/v1/events"
	lastID := "0"
	for page, want := range [][2]int{{1, 5}, {6, 10}} {
		events, cancel := openStream(t, url, e.admin, lastID)
		for seq := want[0]; seq <= want[1]; seq++ {
			if got := next(t, events, 5*time.Second); got.id != fmt.Sprint(seq) {
				t.Fatalf("page %d: event %q (%s), want change %d", page, got.id, got.kind, seq)
			}
		}
		got := next(t, events, 5*time.Second)
		if got.kind != "reconnect" || got.data["reason"] != "backlog" || got.data["last_event_id"] != float64(want[1]) {
			t.Fatalf("page %d ends with %q %v, want reconnect after %d", page, got.kind, got.data, want[1])
		}
		ended(t, events, 5*time.Second)
		cancel()
		lastID = fmt.Sprint(want[1])
	}
	// The last page is shorter than the limit: the stream goes on live.
	events, cancel := openStream(t, url, e.admin, lastID)
	defer cancel()
	for seq := 11; seq <= 13; seq++ {
		if got := next(t, events, 5*time.Second); got.id != fmt.Sprint(seq) {
			t.Fatalf("the last page: event %q (%s), want change %d", got.id, got.kind, seq)
		}
	}
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(13))
	if got := next(t, events, 5*time.Second); got.id != "14" || got.kind != "hand_recorded" {
		t.Errorf("live after the replay: %q %s, want change 14", got.id, got.kind)
	}
	// A table's stream pages the same way.
	table, cancel2 := openStream(t, fmt.Sprintf("%s/v1/tables/%d/events?after=0", srv.URL, ev.table), e.admin, "")
	defer cancel2()
	for range 5 {
		next(t, table, 5*time.Second)
	}
	if got := next(t, table, 5*time.Second); got.kind != "reconnect" {
		t.Errorf("a table's replay: %s after 5 events, want reconnect", got.kind)
	}
}
