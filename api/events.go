package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// The event streams' timing.
const (
	// keepAlive is how often an idle event stream sends a comment, so
	// proxies and phones keep the connection.
	keepAlive = 15 * time.Second
	// keyCheckEvery is how often a stream checks its key between events
	// (an in-memory check: ledger.Service.KeyActive).
	keyCheckEvery = time.Second
	// streamWriteTimeout is how long one write to a stream's client may
	// take before the stream gives it up.
	streamWriteTimeout = 30 * time.Second
	// replayPage is how many events a replay reads at once.
	replayPage = 100
	// shutdownRetry is the reconnection delay a stream ended by a shutdown
	// asks its client for; reconnectRetry the one after a capped replay.
	shutdownRetry  = 3 * time.Second
	reconnectRetry = 100 * time.Millisecond
)

// streamEvents serves the change feed as Server-Sent Events: a club's, or
// with tableScoped one table's. Each event's id is the change number; a
// client reconnecting with Last-Event-ID (or ?after=) gets what it missed
// first, at most Config.ReplayLimit events per request. Hand events carry
// the hand, the table's standings and its state. The stream checks its
// key on every event and every second, and ends with a final event when
// the key is revoked or rotated (`revoked`), when the service shuts down
// (`shutdown`), or when the client must reconnect to catch up
// (`reconnect`).
func (s *Server) streamEvents(tableScoped bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		a := actorOf(c)
		var tableID int64
		if tableScoped {
			var err error
			if tableID, err = pathID(c, "tableID"); err != nil {
				return err
			}
			if _, err := s.svc.FindTable(ctx, a, tableID); err != nil {
				return err
			}
		}
		after, resume, err := resumeFrom(c)
		if err != nil {
			return err
		}
		release, err := s.streams.open(c, a)
		if err != nil {
			return err
		}
		defer release()
		sub, head, err := s.hubs.subscribe(ctx, a.ClubID, tableID)
		if err != nil {
			return err
		}
		defer s.hubs.unsubscribe(sub)
		if !resume {
			after = head
		}
		st := &stream{s: s, c: c, a: a, table: tableID, last: after}
		st.start()
		st.run(sub, head)
		return nil
	}
}

// resumeFrom is where a stream starts: after Last-Event-ID or ?after=
// (resume), or else after the latest change its hub has seen.
func resumeFrom(c echo.Context) (after int64, resume bool, err error) {
	v := c.Request().Header.Get("Last-Event-ID")
	if v == "" {
		v = c.QueryParam("after")
	}
	if v == "" {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, false, ledger.Invalid("Last-Event-ID", "must be a change number, got %q", v)
	}
	return n, true, nil
}

// stream is one open event stream.
type stream struct {
	s     *Server
	c     echo.Context
	a     ledger.Actor
	table int64
	last  int64 // the number of the last change sent
}

// start answers 200 and lifts the server's read and write deadlines: a
// stream outlives them (each write gets a deadline of its own).
func (st *stream) start() {
	w := st.c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w.Writer)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	if st.write("retry: 2000\n\n") {
		st.flush()
	}
}

// run sends the backlog up to the hub's head, then what the hub hands
// out, until the client leaves or a final event ends the stream.
func (st *stream) run(sub *subscriber, head int64) {
	ctx := st.c.Request().Context()
	keysChanged := st.s.svc.KeysChanged(st.a.ClubID)
	if st.last < head && !st.replay(head) {
		return
	}
	keyCheck := time.NewTicker(keyCheckEvery)
	defer keyCheck.Stop()
	idle := time.NewTicker(keepAlive)
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-st.s.streams.closing:
			st.shuttingDown()
			return
		case ev := <-sub.events:
			if !st.sendLive(sub, ev) {
				return
			}
		case <-sub.lagged:
			st.drain(sub)
			st.final("reconnect", reconnectRetry, map[string]any{"reason": "lagging", "last_event_id": st.last})
			return
		case <-keysChanged: // a key of the club changed on this instance
			keysChanged = st.s.svc.KeysChanged(st.a.ClubID)
			if !st.keyActive() {
				return
			}
		case <-keyCheck.C: // and on others
			if !st.keyActive() {
				return
			}
		case <-idle.C:
			if !st.write(": keep-alive\n\n") {
				return
			}
		}
	}
}

// sendLive writes ev and whatever else the hub has handed out already,
// checking the key before each, then flushes once.
func (st *stream) sendLive(sub *subscriber, ev hubEvent) bool {
	for {
		if ev.seq > st.last && (!st.keyActive() || !st.event(ev)) {
			return false
		}
		select {
		case ev = <-sub.events:
		default:
			return st.flush()
		}
	}
}

// drain writes what a dropped subscriber was handed before it fell behind.
func (st *stream) drain(sub *subscriber) {
	for {
		select {
		case ev := <-sub.events:
			if ev.seq > st.last && !st.event(ev) {
				return
			}
		default:
			return
		}
	}
}

// replay sends the changes after st.last up to head, page by page, at
// most Config.ReplayLimit of them. When more remain it ends the stream
// with `reconnect`, and the client continues from its Last-Event-ID with
// a new request (which costs a rate-limit token). It reports whether the
// stream goes on.
func (st *stream) replay(head int64) bool {
	ctx := st.c.Request().Context()
	sent := 0
	for st.last < head {
		select {
		case <-st.s.streams.closing:
			st.shuttingDown()
			return false
		default:
		}
		if !st.keyActive() {
			return false
		}
		if sent >= st.s.cfg.ReplayLimit {
			if more, err := st.s.svc.Changes(ctx, st.a, st.last, 1, st.table); err != nil || len(more) == 0 {
				return err == nil
			}
			st.final("reconnect", reconnectRetry, map[string]any{"reason": "backlog", "last_event_id": st.last})
			return false
		}
		n := min(replayPage, st.s.cfg.ReplayLimit-sent)
		events, err := st.s.svc.Events(ctx, st.a, st.last, n, st.table)
		if err != nil {
			return false // the client reconnects with its Last-Event-ID
		}
		for _, ev := range events {
			he, err := newHubEvent(ev)
			if err != nil || !st.event(he) {
				return false
			}
		}
		sent += len(events)
		if !st.flush() {
			return false
		}
		if len(events) < n {
			return true
		}
	}
	return true
}

// keyActive checks the stream's key; a revoked or rotated key ends the
// stream with `revoked`.
func (st *stream) keyActive() bool {
	active, err := st.s.svc.KeyActive(st.c.Request().Context(), st.a)
	if err != nil {
		return false // nothing known of the key: the client reconnects and authenticates
	}
	if !active {
		st.final("revoked", 0, map[string]any{"detail": "this API key was revoked or rotated; reconnect with an active key"})
	}
	return active
}

// event writes one change.
func (st *stream) event(ev hubEvent) bool {
	st.last = ev.seq
	return st.writeBytes(ev.frame)
}

// final writes the event that ends a stream: it carries no id, so the
// client's Last-Event-ID stays the last change it got, and with retry > 0
// it sets the client's reconnection delay.
func (st *stream) final(kind string, retry time.Duration, data map[string]any) {
	if _, ok := data["reason"]; !ok {
		data["reason"] = kind
	}
	raw, _ := json.Marshal(data)
	msg := fmt.Sprintf("event: %s\ndata: %s\n\n", kind, raw)
	if retry > 0 {
		msg = fmt.Sprintf("retry: %d\n", retry.Milliseconds()) + msg
	}
	if st.write(msg) {
		st.flush()
	}
}

// shuttingDown sends the final event of a shutdown, with the delay after
// which the client should reconnect.
func (st *stream) shuttingDown() {
	st.final("shutdown", shutdownRetry, map[string]any{"retry_ms": shutdownRetry.Milliseconds()})
}

// write sends text to the client within streamWriteTimeout.
func (st *stream) write(text string) bool { return st.writeBytes([]byte(text)) }

func (st *stream) writeBytes(b []byte) bool {
	w := st.c.Response()
	_ = http.NewResponseController(w.Writer).SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	_, err := w.Write(b)
	return err == nil
}

func (st *stream) flush() bool {
	return http.NewResponseController(st.c.Response().Writer).Flush() == nil
}
