package main

// The failover run's traffic: phones that record hands through the
// instances and retry, and watchers that follow each club's event stream.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// watcher holds a club's event stream open (GET /v1/events from change
// 0) and records every change number it is sent.
type watcher struct {
	auth       string
	home       int
	seen       []int64
	reconnects int
	mu         sync.Mutex
}

var eventID = regexp.MustCompile(`^id: (\d+)$`)

func (w *watcher) run(ctx context.Context, insts []*instance) {
	client := &http.Client{}
	at := w.home
	for ctx.Err() == nil {
		w.mu.Lock()
		last := int64(0)
		if n := len(w.seen); n > 0 {
			last = w.seen[n-1]
		}
		w.mu.Unlock()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, insts[at].base+"/v1/events?after=0", nil)
		if err != nil {
			return
		}
		req.Header.Set("Authorization", w.auth)
		if last > 0 {
			req.Header.Set("Last-Event-ID", strconv.FormatInt(last, 10))
		}
		res, err := client.Do(req)
		if err == nil && res.StatusCode == http.StatusOK {
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if m := eventID.FindStringSubmatch(sc.Text()); m != nil {
					id, _ := strconv.ParseInt(m[1], 10, 64)
					w.mu.Lock()
					w.seen = append(w.seen, id)
					w.mu.Unlock()
				}
			}
		}
		if res != nil {
			res.Body.Close()
		}
		if ctx.Err() != nil {
			return
		}
		w.reconnects++
		if err != nil || res.StatusCode != http.StatusOK {
			at = (at + 1) % len(insts)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// last is the last change number the watcher was sent.
func (w *watcher) last() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.seen) == 0 {
		return 0
	}
	return w.seen[len(w.seen)-1]
}

// attempt is one request of a phone.
type attempt struct {
	start, end time.Time
	status     string // the instance and the answer: "a:201", "b:503", "b:net", ...
	hand       int    // index into the phone's hands
}

// ackedHand is a hand a phone sent, and what the service answered.
type ackedHand struct {
	number   int
	id       int64 // from the 201
	acked    bool
	first    time.Time
	answered time.Time
}

// phone is one table's phone: it records the next hand, and retries it
// with the same Idempotency-Key (the app's outbox) until it has a 201,
// on the other instance after a transport error or a 503.
type phone struct {
	table    *loadTable
	auth     string
	home     int
	hands    []ackedHand
	attempts []attempt
}

func (p *phone) run(ctx context.Context, insts []*instance, runID string, rate float64, stop *atomic.Bool) {
	interval := time.Duration(float64(time.Second) / rate)
	path := fmt.Sprintf("/v1/tables/%d/hands", p.table.id)
	body := make([]byte, 0, 1024)
	at := p.home
	next := time.Now()
	for number := 1; !stop.Load() && ctx.Err() == nil; number++ {
		if wait := time.Until(next); wait > 0 {
			time.Sleep(wait)
		}
		next = next.Add(interval)
		body = handBody(body[:0], p.table, number, 0)
		key := fmt.Sprintf("%s-t%d-h%d", runID, p.table.id, number)
		h := ackedHand{number: number, first: time.Now()}
		idx := len(p.hands)
		for ctx.Err() == nil {
			// A phone learns of a dead instance as a phone does: its
			// request fails.
			in := insts[at]
			t0 := time.Now()
			status, out, err := in.client.call(ctx, p.auth, http.MethodPost, path, body, key, false)
			a := attempt{start: t0, end: time.Now(), status: strconv.Itoa(status), hand: idx}
			if err != nil {
				a.status = "net"
			}
			a.status = in.name + ":" + a.status
			p.attempts = append(p.attempts, a)
			if err == nil && status == http.StatusCreated {
				var created struct {
					ID     int64 `json:"id"`
					Number int   `json:"number"`
				}
				json.Unmarshal(out, &created)
				h.id, h.acked, h.answered = created.ID, true, a.end
				break
			}
			if err != nil || status == http.StatusServiceUnavailable || status >= 500 {
				at = (at + 1) % len(insts) // as a load balancer would, next time the other instance
			}
			time.Sleep(100 * time.Millisecond)
		}
		p.hands = append(p.hands, h)
	}
}
