package main

// stichbuch load --stats: reads the statistics of an existing club (a
// generated history, say) through the HTTP API and measures each kind of
// question members ask: a player's lifetime figures, a one-year
// leaderboard and a partner table.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"
)

// statsQuery is one kind of statistics request the stats mode measures.
type statsQuery struct {
	Name string `json:"name"`
	// path gives the request of the i-th call: players rotate, and the
	// leaderboard rotates its orders.
	path func(i int) string
	// firstPass is how many calls (0, 1, …) the cold first pass makes: one
	// per player, or one per leaderboard order.
	firstPass int
}

// statsResult is what a stats run measured; --json prints it as is.
type statsResult struct {
	Service  string           `json:"service"`
	Clients  int              `json:"clients"`
	Players  int              `json:"players"`
	From     string           `json:"from"`
	To       string           `json:"to"`
	Seconds  float64          `json:"seconds"`
	Requests int              `json:"requests"`
	Statuses map[string]int   `json:"statuses"`
	Errors   int              `json:"errors"`
	Queries  []statsQueryPart `json:"queries"`
	// PeakRSSMB is the service's, when the tool started it or --pid names it.
	PeakRSSMB float64 `json:"peak_rss_mb,omitempty"`
}

// statsQueryPart is the figures of one kind of request.
type statsQueryPart struct {
	Name      string    `json:"name"`
	Example   string    `json:"example"`
	Requests  int       `json:"requests"`
	Cold      latencies `json:"first_pass_ms"` // each player's first request of this kind
	LatencyMS latencies `json:"latency_ms"`    // every request after the warm-up
}

// loadStats runs the stats mode against svc and prints what it measured;
// any answer but 200 fails the run.
func loadStats(ctx context.Context, o loadOptions, svc *loadService, stdout io.Writer) error {
	if o.key == "" {
		return fmt.Errorf("load: --stats reads an existing club: give its key with --key (stichbuch generate prints one)")
	}
	c := newLoadClient(svc.base, o.key, o.tables, o.timeout)
	res, err := c.statsRun(ctx, o)
	if err != nil {
		return err
	}
	res.Service, res.PeakRSSMB = svc.base, peakRSSMB(svc.pid)
	if o.jsonOut {
		if err := printJSON(stdout, res); err != nil {
			return err
		}
	} else {
		printStats(stdout, res)
	}
	if res.Errors > 0 {
		return fmt.Errorf("load: %d of %d statistics requests failed: %v", res.Errors, res.Requests, res.Statuses)
	}
	return nil
}

// statsRun measures the statistics endpoints: o.tables clients in a closed
// loop, each sending the three kinds of request in turn for the club's
// players, for o.duration after a warm-up. The first pass over the players
// is reported on its own (cold caches), and every answer must be a 200.
func (c *loadClient) statsRun(ctx context.Context, o loadOptions) (*statsResult, error) {
	players, err := c.statsPlayers(ctx)
	if err != nil {
		return nil, err
	}
	from, to, err := c.statsYear(ctx, o, players)
	if err != nil {
		return nil, err
	}
	year := "&from=" + from + "&to=" + to
	orders := []string{"points", "points_per_hand", "money", "win_rate"}
	queries := []statsQuery{
		{Name: "player lifetime", firstPass: len(players), path: func(i int) string {
			return fmt.Sprintf("/v1/stats/players/%d", players[i%len(players)])
		}},
		{Name: "one-year leaderboard", firstPass: len(orders), path: func(i int) string {
			return "/v1/stats/leaderboard?mix=true&by=" + orders[i%len(orders)] + year
		}},
		{Name: "partner table", firstPass: len(players), path: func(i int) string {
			return fmt.Sprintf("/v1/stats/players/%d/partners", players[i%len(players)])
		}},
	}
	if o.season != "" {
		queries = append(queries, statsQuery{Name: "season table", firstPass: 1, path: func(int) string {
			return "/v1/seasons/" + url.PathEscape(o.season)
		}})
	}
	res := &statsResult{Clients: o.tables, Players: len(players), From: from, To: to, Statuses: map[string]int{}}

	cold, err := c.statsFirstPass(ctx, queries)
	if err != nil {
		return nil, err
	}
	measureFrom := time.Now().Add(o.warmup)
	samples, netErrors := c.statsLoop(ctx, o, queries, measureFrom)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Seconds = time.Since(measureFrom).Seconds()
	byQuery := make([][]time.Duration, len(queries))
	for _, s := range samples {
		res.Requests++
		res.Statuses[strconv.Itoa(s.status)]++
		if s.status != http.StatusOK {
			res.Errors++
			continue
		}
		byQuery[s.query] = append(byQuery[s.query], s.d)
	}
	if netErrors > 0 {
		res.Statuses["net"] = netErrors
		res.Errors += netErrors
		res.Requests += netErrors
	}
	for q, query := range queries {
		res.Queries = append(res.Queries, statsQueryPart{
			Name: query.Name, Example: query.path(0), Requests: len(byQuery[q]),
			Cold: percentiles(cold[q]), LatencyMS: percentiles(byQuery[q]),
		})
	}
	return res, nil
}

// statsFirstPass sends every query's first pass (every player's lifetime
// figures and partner table, every leaderboard order) one request at a
// time, with cold caches, and returns their latencies.
func (c *loadClient) statsFirstPass(ctx context.Context, queries []statsQuery) ([][]time.Duration, error) {
	cold := make([][]time.Duration, len(queries))
	for q, query := range queries {
		for i := range query.firstPass {
			d, status, err := c.statsGet(ctx, query.path(i))
			if err != nil {
				return nil, err
			}
			if status != http.StatusOK {
				return nil, fmt.Errorf("load: GET %s: %d", query.path(i), status)
			}
			cold[q] = append(cold[q], d)
		}
	}
	return cold, nil
}

// statsSample is one answered statistics request of the measured window.
type statsSample struct {
	query  int
	d      time.Duration
	status int
}

// statsLoop runs o.tables clients in a closed loop over the queries until
// o.duration after measureFrom, and returns the samples sent from
// measureFrom on and the transport errors among them.
func (c *loadClient) statsLoop(ctx context.Context, o loadOptions, queries []statsQuery, measureFrom time.Time) ([]statsSample, int) {
	var mu sync.Mutex
	var samples []statsSample
	var netErrors int
	deadline := measureFrom.Add(o.duration)
	var wg sync.WaitGroup
	for client := range o.tables {
		wg.Go(func() {
			var mine []statsSample
			errs := 0
			for i := client; time.Now().Before(deadline) && ctx.Err() == nil; i += o.tables {
				q := i % len(queries)
				sent := time.Now()
				d, status, err := c.statsGet(ctx, queries[q].path(i/len(queries)))
				switch {
				case sent.Before(measureFrom):
				case err != nil:
					errs++
				default:
					mine = append(mine, statsSample{q, d, status})
				}
			}
			mu.Lock()
			samples, netErrors = append(samples, mine...), netErrors+errs
			mu.Unlock()
		})
	}
	wg.Wait()
	return samples, netErrors
}

// statsGet sends one GET and returns its latency (until the whole body is
// read) and status.
func (c *loadClient) statsGet(ctx context.Context, path string) (time.Duration, int, error) {
	start := time.Now()
	status, _, err := c.call(ctx, c.auth, http.MethodGet, path, nil, "", false)
	return time.Since(start), status, err
}

// statsPlayers lists the club's players; the stats mode rotates over them.
func (c *loadClient) statsPlayers(ctx context.Context) ([]int64, error) {
	status, body, err := c.call(ctx, c.auth, http.MethodGet, "/v1/players", nil, "", true)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("load: GET /v1/players: %d %s", status, body)
	}
	var list struct {
		Players []struct {
			ID int64 `json:"id"`
		} `json:"players"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("load: GET /v1/players: %w", err)
	}
	if len(list.Players) == 0 {
		return nil, fmt.Errorf("load: the club has no players to read statistics of; fill it first (stichbuch generate)")
	}
	ids := make([]int64, len(list.Players))
	for i, p := range list.Players {
		ids[i] = p.ID
	}
	slices.Sort(ids)
	return ids, nil
}

// statsYear is the leaderboard's period: --from/--to when given, else the
// year up to the club's last evening (the latest date in the first
// players' series).
func (c *loadClient) statsYear(ctx context.Context, o loadOptions, players []int64) (string, string, error) {
	if o.from != "" && o.to != "" {
		return o.from, o.to, nil
	}
	q := url.Values{}
	for _, id := range players[:min(len(players), 20)] {
		q.Add("player_id", strconv.FormatInt(id, 10))
	}
	status, body, err := c.call(ctx, c.auth, http.MethodGet, "/v1/stats/series?"+q.Encode(), nil, "", true)
	if err != nil {
		return "", "", err
	}
	if status != http.StatusOK {
		return "", "", fmt.Errorf("load: GET /v1/stats/series: %d %s", status, body)
	}
	var s struct {
		Series []struct {
			Points []struct {
				Date string `json:"date"`
			} `json:"points"`
		} `json:"series"`
	}
	if err := json.Unmarshal(body, &s); err != nil {
		return "", "", fmt.Errorf("load: GET /v1/stats/series: %w", err)
	}
	last := ""
	for _, series := range s.Series {
		if n := len(series.Points); n > 0 && series.Points[n-1].Date > last {
			last = series.Points[n-1].Date
		}
	}
	if last == "" {
		return "", "", fmt.Errorf("load: the club has no evenings to read statistics of")
	}
	to, err := time.Parse(time.DateOnly, last)
	if err != nil {
		return "", "", err
	}
	return to.AddDate(-1, 0, 1).Format(time.DateOnly), last, nil
}

// printStats prints a stats run for people.
func printStats(w io.Writer, r *statsResult) {
	fmt.Fprintf(w, "stichbuch load --stats: %s, %d clients, %d players, leaderboard %s..%s\n", r.Service, r.Clients, r.Players, r.From, r.To)
	fmt.Fprintf(w, "%d requests in %.1f s (%.1f/s), errors %d, statuses %v\n", r.Requests, r.Seconds, float64(r.Requests)/r.Seconds, r.Errors, r.Statuses)
	fmt.Fprintf(w, "%-22s %9s %28s %36s\n", "query", "requests", "first pass p50/p95/max ms", "p50/p95/p99/max ms")
	for _, q := range r.Queries {
		fmt.Fprintf(w, "%-22s %9d %28s %36s\n", q.Name, q.Requests,
			fmt.Sprintf("%.1f / %.1f / %.1f", q.Cold.P50, q.Cold.P95, q.Cold.Max),
			fmt.Sprintf("%.1f / %.1f / %.1f / %.1f", q.LatencyMS.P50, q.LatencyMS.P95, q.LatencyMS.P99, q.LatencyMS.Max))
	}
	if r.PeakRSSMB > 0 {
		fmt.Fprintf(w, "service peak RSS %.0f MB\n", r.PeakRSSMB)
	}
}
