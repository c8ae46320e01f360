package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stichbuch/stichbuch/cmd/internal/loopback"
	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/games/doppelkopf"
)

// --- the clients ---------------------------------------------------------------

type loadClient struct {
	base, auth string
	http       *http.Client
	runID      string
	phones     []string // each client's Authorization header
	// clubs are the admin Authorization headers of the clubs the tables
	// are spread over (--clubs), the first the club of auth.
	clubs []string
}

func newLoadClient(base, key string, clients int, timeout time.Duration) *loadClient {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	tr := &http.Transport{
		// Loopback only, whatever a redirect or resolver says.
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, _, err := net.SplitHostPort(addr)
			if err != nil || !loopback.Host(host) {
				return nil, fmt.Errorf("load: refusing to connect to %s (not loopback)", addr)
			}
			return dialer.DialContext(ctx, network, addr)
		},
		MaxIdleConns:        clients + 8,
		MaxIdleConnsPerHost: clients + 8,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	return &loadClient{
		base:  base,
		auth:  "Bearer " + key,
		http:  &http.Client{Transport: tr, Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		runID: strconv.FormatInt(time.Now().UnixNano()%1e12, 36),
		clubs: []string{"Bearer " + key},
	}
}

// call sends one request with a JSON body as the key auth and returns the
// status and body. Set-up and checks (retry true) wait out a rate limit.
func (c *loadClient) call(ctx context.Context, auth, method, path string, body []byte, idemKey string, retry bool) (int, []byte, error) {
	for attempt := 0; ; attempt++ {
		var r io.Reader
		if body != nil {
			r = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set("Authorization", auth)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if idemKey != "" {
			req.Header.Set("Idempotency-Key", idemKey)
		}
		res, err := c.http.Do(req)
		if err != nil {
			return 0, nil, err
		}
		out, err := io.ReadAll(res.Body)
		res.Body.Close()
		if retry && res.StatusCode == http.StatusTooManyRequests && attempt < 30 {
			select {
			case <-time.After(time.Second):
				continue
			case <-ctx.Done():
				return 0, nil, ctx.Err()
			}
		}
		return res.StatusCode, out, err
	}
}

// create POSTs v with the admin key of a club (auth) and returns what was
// created.
func (c *loadClient) create(ctx context.Context, auth, path string, v any) (int64, string, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return 0, "", err
	}
	status, out, err := c.call(ctx, auth, http.MethodPost, path, body, "", true)
	if err != nil {
		return 0, "", err
	}
	if status != http.StatusCreated {
		return 0, "", fmt.Errorf("load: set-up POST %s: %d %s", path, status, out)
	}
	var created struct {
		ID     int64  `json:"id"`
		Secret string `json:"secret"`
	}
	if err := json.Unmarshal(out, &created); err != nil || created.ID == 0 {
		return 0, "", fmt.Errorf("load: set-up POST %s: no id in %s", path, out)
	}
	return created.ID, created.Secret, nil
}

// loadTable is one simulated table: its ids and the facts its hands cycle through.
type loadTable struct {
	auth        string // the admin Authorization header of its club
	id, session int64
	players     []int64
	game        string
	facts       [][]byte
}

// setup creates the tables one after another (so a fresh database gives
// them consecutive ids, which the pgbench script relies on): four players,
// the table and its open session each, table i in club i modulo the
// clubs.
func (c *loadClient) setup(ctx context.Context, o loadOptions) ([]*loadTable, error) {
	n := o.tables
	if o.hot {
		n = 1
	}
	played := []string{doppelkopf.Name}
	if o.games == "mix" {
		played = games.Names()
	}
	for _, game := range played {
		if len(loadFacts[game]) == 0 {
			return nil, fmt.Errorf("load: no hands of the game %q to send (add them to loadFacts)", game)
		}
	}
	tables := make([]*loadTable, n)
	for i := range n {
		t := &loadTable{game: played[i%len(played)], auth: c.clubs[i%len(c.clubs)]}
		for k := range 4 {
			id, _, err := c.create(ctx, t.auth, "/v1/players", map[string]any{"name": fmt.Sprintf("load %s t%d p%d", c.runID, i, k+1)})
			if err != nil {
				return nil, err
			}
			t.players = append(t.players, id)
		}
		var err error
		if t.id, _, err = c.create(ctx, t.auth, "/v1/tables", map[string]any{"name": fmt.Sprintf("load %s %d %s", c.runID, i, t.game), "game": t.game}); err != nil {
			return nil, err
		}
		if t.session, _, err = c.create(ctx, t.auth, fmt.Sprintf("/v1/tables/%d/sessions", t.id), map[string]any{"player_ids": t.players}); err != nil {
			return nil, err
		}
		t.facts = renderFacts(loadFacts[t.game], t.players)
		tables[i] = t
	}
	// Every phone has its own scorer key of its table's club, as a club
	// hands them out.
	for i := range o.tables {
		_, secret, err := c.create(ctx, tables[i%len(tables)].auth, "/v1/keys", map[string]any{"role": "scorer", "label": fmt.Sprintf("load %s phone %d", c.runID, i+1)})
		if err != nil {
			return nil, err
		}
		c.phones = append(c.phones, "Bearer "+secret)
	}
	return tables, nil
}

// renderFacts puts the table's players in for P1..P4.
func renderFacts(templates []string, players []int64) [][]byte {
	pairs := make([]string, 0, 2*len(players))
	for i := len(players) - 1; i >= 0; i-- { // P4 before P1… (no P10 here, but keep it safe)
		pairs = append(pairs, fmt.Sprintf("P%d", i+1), strconv.FormatInt(players[i], 10))
	}
	r := strings.NewReplacer(pairs...)
	out := make([][]byte, len(templates))
	for i, t := range templates {
		out[i] = []byte(r.Replace(t))
	}
	return out
}

// clientStats is what one client saw.
type clientStats struct {
	lat      []time.Duration // measured window only
	statuses map[string]int  // measured window only
	requests int
	hands    int // 201s in the measured window
	warmup   int // 201s in the warm-up
	created  int // all 201s
}

// drive runs the clients until the duration ends or the hands are recorded.
func (c *loadClient) drive(ctx context.Context, o loadOptions, tables []*loadTable, pid, pgPID int) (*loadResult, error) {
	clients := o.tables
	start := time.Now()
	warmEnd := start.Add(o.warmup)
	end := time.Time{}
	if o.duration > 0 {
		end = warmEnd.Add(o.duration)
	}
	var issued, recorded atomic.Int64
	var aborted atomic.Bool
	stats := make([]*clientStats, clients)
	var cpu0 cpuSample
	var wg sync.WaitGroup
	var warmOnce sync.Once
	takeSample := func() { cpu0 = sampleCPU(pid, pgPID) }
	if o.warmup == 0 {
		warmOnce.Do(takeSample)
	} else {
		go func() {
			select {
			case <-time.After(time.Until(warmEnd)):
				warmOnce.Do(takeSample)
			case <-ctx.Done():
			}
		}()
	}
	for i := range clients {
		st := &clientStats{statuses: map[string]int{}}
		stats[i] = st
		t := tables[0]
		if !o.hot {
			t = tables[i]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.client(ctx, o, i, t, st, warmEnd, end, &issued, &recorded, &aborted)
		}()
	}
	wg.Wait()
	stop := time.Now()
	// Wait for a warm-up sample under way, and keep a late one from being
	// taken: the sample is read below.
	warmOnce.Do(func() {})
	cpu1 := sampleCPU(pid, pgPID)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("load: %w", ctx.Err())
	}
	if aborted.Load() {
		return nil, errors.New("load: giving up: the service does not answer (50 transport errors in a row)")
	}

	res := summarise(o, tables, stats, start, warmEnd, stop)
	addCPU(res, cpu0, cpu1, start)
	return res, nil
}

// answered counts a hand's answer other than a transport error and returns
// the number and skip the client goes on with.
func (st *clientStats) answered(status int, out []byte, number, skip int, measured bool) (int, int) {
	switch status {
	case http.StatusCreated:
		st.created++
		if measured {
			st.hands++
		} else {
			st.warmup++
		}
		return number + 1, skip
	case http.StatusConflict:
		// Another phone recorded this number: take the next one named.
		var p struct {
			Next int `json:"next_number"`
		}
		if json.Unmarshal(out, &p) == nil && p.Next > 0 {
			return p.Next, skip
		}
		time.Sleep(10 * time.Millisecond)
		return number, skip
	case http.StatusUnprocessableEntity:
		return number, skip + 1 // a hand this table's state refuses: try the next facts
	default:
		time.Sleep(10 * time.Millisecond) // 5xx, 503: back off a little
		return number, skip
	}
}

// handBody appends the JSON of hand number of table t, with the facts
// skip places further on, to buf.
func handBody(buf []byte, t *loadTable, number, skip int) []byte {
	buf = append(buf, `{"session_id":`...)
	buf = strconv.AppendInt(buf, t.session, 10)
	buf = append(buf, `,"number":`...)
	buf = strconv.AppendInt(buf, int64(number), 10)
	buf = append(buf, `,"facts":`...)
	buf = append(buf, t.facts[(number-1+skip)%len(t.facts)]...)
	return append(buf, '}')
}

// summarise adds up the clients' counts and latencies of the measured window.
func summarise(o loadOptions, tables []*loadTable, stats []*clientStats, start, warmEnd, stop time.Time) *loadResult {
	res := &loadResult{
		Mode: "tables", Clients: len(stats), Tables: len(tables), Clubs: o.clubs, Games: o.games, Rate: o.rate,
		Statuses: map[string]int{}, Cores: runtime.NumCPU(),
	}
	if o.hot {
		res.Mode = "hot"
	}
	measuredFrom := warmEnd
	if stop.Before(measuredFrom) { // --hands finished inside the warm-up
		measuredFrom = start
	}
	res.Seconds = stop.Sub(measuredFrom).Seconds()
	var all []time.Duration
	for _, st := range stats {
		all = append(all, st.lat...)
		res.Requests += st.requests
		res.Hands += st.hands
		res.WarmupHands += st.warmup
		res.CreatedTotal += st.created
		for k, v := range st.statuses {
			res.Statuses[k] += v
		}
	}
	for k, v := range res.Statuses {
		switch {
		case k == "201", k == "409" && o.hot:
		default:
			res.Errors += v
		}
		if k == "net" || k[0] == '5' {
			res.ServerErrors += v
		}
	}
	if res.Seconds > 0 {
		res.HandsPerSec = float64(res.Hands) / res.Seconds
	}
	res.LatencyMS = percentiles(all)
	return res
}

// addCPU adds the CPU the service, the load tool, PostgreSQL and the rest
// of the machine used between the two samples.
func addCPU(res *loadResult, cpu0, cpu1 cpuSample, start time.Time) {
	if cpu0.at.IsZero() {
		cpu0 = cpuSample{at: start}
	}
	res.ServiceCPU = cpu1.service - cpu0.service
	res.LoadCPU = cpu1.self - cpu0.self
	res.PostgresCPU = cpu1.postgres - cpu0.postgres
	if res.ServiceCPU > 0 && res.PostgresCPU > 0 && res.Hands > 0 {
		res.CPUPerHandUS = 1e6 * (res.ServiceCPU + res.PostgresCPU) / float64(res.Hands)
	}
	if busy, total := cpu1.busy-cpu0.busy, cpu1.total-cpu0.total; total > 0 {
		res.MachineCPU = 100 * busy / total
		res.OtherCPU = max(0, busy/clockTicks-res.ServiceCPU-res.LoadCPU-res.PostgresCPU)
	}
}

// client is one phone: it records the table's next hand, again and again.
func (c *loadClient) client(ctx context.Context, o loadOptions, id int, t *loadTable, st *clientStats,
	warmEnd, end time.Time, issued, recorded *atomic.Int64, aborted *atomic.Bool) {
	path := fmt.Sprintf("/v1/tables/%d/hands", t.id)
	number := 1 // the number this client believes is next
	skip := 0   // facts refused as invalid are skipped
	failures := 0
	body := make([]byte, 0, 1024)
	var interval time.Duration
	next := time.Now()
	if o.rate > 0 {
		interval = time.Duration(float64(time.Second) / o.rate)
		next = next.Add(interval * time.Duration(id) / time.Duration(o.tables)) // spread the phones out
	}
	for attempt := 0; ; attempt++ {
		if interval > 0 {
			if wait := time.Until(next); wait > 0 {
				select {
				case <-time.After(wait):
				case <-ctx.Done():
					return
				}
			}
			next = next.Add(interval)
		}
		now := time.Now()
		if ctx.Err() != nil || aborted.Load() || !end.IsZero() && now.After(end) {
			return
		}
		if o.hands > 0 {
			if o.hot && recorded.Load() >= int64(o.hands) || !o.hot && issued.Add(1) > int64(o.hands) {
				return
			}
		}
		body = handBody(body[:0], t, number, skip)
		key := c.runID + "-c" + strconv.Itoa(id) + "-" + strconv.Itoa(attempt)

		t0 := time.Now()
		status, out, err := c.call(ctx, c.phones[id], http.MethodPost, path, body, key, false)
		took := time.Since(t0)
		measured := !t0.Before(warmEnd)
		if ctx.Err() != nil {
			return
		}
		label := strconv.Itoa(status)
		if err != nil {
			label = "net"
		}
		if measured {
			st.requests++
			st.lat = append(st.lat, took)
			st.statuses[label]++
		}
		switch {
		case err != nil:
			failures++
			if failures >= 50 {
				aborted.Store(true)
				return
			}
			time.Sleep(20 * time.Millisecond)
			continue
		default:
			number, skip = st.answered(status, out, number, skip, measured)
			if status == http.StatusCreated {
				recorded.Add(1)
			}
		}
		failures = 0
	}
}

// verify compares the hands the tables hold with the 201s, and at a hot
// table reads every number back: 1, 2, 3 … with no gap.
func (c *loadClient) verify(ctx context.Context, o loadOptions, tables []*loadTable, res *loadResult) error {
	for _, t := range tables {
		status, out, err := c.call(ctx, t.auth, http.MethodGet, fmt.Sprintf("/v1/tables/%d", t.id), nil, "", true)
		if err != nil {
			return err
		}
		var tbl struct {
			Hands int `json:"hands"`
		}
		if status != http.StatusOK || json.Unmarshal(out, &tbl) != nil {
			return fmt.Errorf("load: reading table %d: %d %s", t.id, status, out)
		}
		res.StoredHands += tbl.Hands
		if !o.hot {
			continue
		}
		next, after := 1, 0
		for {
			status, out, err := c.call(ctx, t.auth, http.MethodGet, fmt.Sprintf("/v1/tables/%d/hands?after=%d&limit=200", t.id, after), nil, "", true)
			if err != nil {
				return err
			}
			var page struct {
				Hands []struct {
					Number int `json:"number"`
				} `json:"hands"`
			}
			if status != http.StatusOK || json.Unmarshal(out, &page) != nil {
				return fmt.Errorf("load: listing hands of table %d: %d %s", t.id, status, out)
			}
			for _, h := range page.Hands {
				if h.Number == next {
					next++
				}
				after = h.Number
			}
			if len(page.Hands) < 200 {
				break
			}
		}
		ok := next-1 == tbl.Hands && after == tbl.Hands
		res.GapFree = &ok
	}
	res.CountsAgree = res.StoredHands == res.CreatedTotal
	return nil
}

func percentiles(d []time.Duration) latencies {
	if len(d) == 0 {
		return latencies{}
	}
	slices.Sort(d)
	at := func(q float64) float64 {
		i := int(math.Ceil(q*float64(len(d)))) - 1
		return ms(d[max(i, 0)])
	}
	return latencies{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: ms(d[len(d)-1])}
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }
