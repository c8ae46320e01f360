package main

// stichbuch-bench load: a load generator that drives the real HTTP API the
// way club score apps do, and measures it. See `stichbuch-bench load
// --help` and the README's Benchmarks section.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
)

// loadOptions are the flags of `stichbuch-bench load`.
type loadOptions struct {
	url       string
	start     bool
	bin       string
	data      string
	key       string
	pid       int
	tables    int
	clubs     int // the tables spread over this many clubs
	hot       bool
	duration  time.Duration
	warmup    time.Duration
	hands     int
	games     string
	rate      float64
	timeout   time.Duration
	pgbench   string
	jsonOut   bool
	stats     bool
	from, to  string
	season    string // with stats: a season of the club whose table is measured too (issue 30)
	leastcost string // pgbench script of the least a durable hand costs, run after the load
	streams   int    // event streams held open through the run
	stalled   int    // key-less uploads stalled through the run
}

// loadResult is what one run measured; --json prints it as is.
type loadResult struct {
	Service      string         `json:"service"`
	Started      bool           `json:"started_service"`
	Mode         string         `json:"mode"` // tables or hot
	Clients      int            `json:"clients"`
	Tables       int            `json:"tables"`
	Clubs        int            `json:"clubs"`
	Games        string         `json:"games"`
	Rate         float64        `json:"rate_per_client,omitempty"` // 0: closed loop, as fast as answered
	Seconds      float64        `json:"seconds"`                   // the measured window, after the warm-up
	WarmupHands  int            `json:"warmup_hands"`
	Hands        int            `json:"hands"` // 201s in the measured window
	HandsPerSec  float64        `json:"hands_per_second"`
	Requests     int            `json:"requests"`
	Statuses     map[string]int `json:"statuses"` // by HTTP status; "net" for transport errors
	Errors       int            `json:"errors"`   // everything but 201 (and 409 at a hot table)
	ServerErrors int            `json:"server_errors"`
	LatencyMS    latencies      `json:"latency_ms"`
	// Every 201 of the run, warm-up included, and the hands the tables hold
	// afterwards: the two must agree.
	CreatedTotal int  `json:"created_total"`
	StoredHands  int  `json:"stored_hands"`
	CountsAgree  bool `json:"counts_agree"`
	// Hot table: the stored numbers are exactly 1..stored_hands.
	GapFree *bool `json:"gap_free,omitempty"`
	// The service process (when started, or named by --pid).
	PeakRSSMB  float64 `json:"peak_rss_mb,omitempty"`
	ServiceCPU float64 `json:"service_cpu_seconds,omitempty"`
	LoadCPU    float64 `json:"load_cpu_seconds"`
	// PostgreSQL's processes, when the tool started the embedded cluster,
	// and everything else on the machine (other users' work included).
	PostgresCPU float64 `json:"postgres_cpu_seconds,omitempty"`
	OtherCPU    float64 `json:"other_cpu_seconds"`
	// CPUPerHandUS is the service's and PostgreSQL's CPU time per hand
	// of the window, in microseconds (both known only with --start).
	CPUPerHandUS float64         `json:"cpu_per_hand_us,omitempty"`
	MachineCPU   float64         `json:"machine_cpu_busy_percent"` // of all cores
	Cores        int             `json:"cores"`
	PGBench      *pgbenchResult  `json:"pgbench,omitempty"`
	Pressure     *pressureResult `json:"pressure,omitempty"`
	LeastCost    *pgbenchResult  `json:"least_cost,omitempty"`
}

type latencies struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

type pgbenchResult struct {
	Script       string  `json:"script"`
	Clients      int     `json:"clients"`
	Seconds      float64 `json:"seconds"`
	TPS          float64 `json:"tps"`
	LatencyAvgMS float64 `json:"latency_avg_ms"`
	Failed       int     `json:"failed"`
	Ratio        float64 `json:"service_over_pgbench"` // hands per second / pgbench TPS
	P99MS        float64 `json:"p99_ms,omitempty"`     // from the per-transaction log, where kept
	// Wanted is the clients asked for when the cluster's free connections
	// were fewer (Clients ran instead).
	Wanted int `json:"clients_wanted,omitempty"`
}

// setRatio sets the service's hands per second over pgbench's TPS.
func (r *pgbenchResult) setRatio(handsPerSec float64) {
	if r.TPS > 0 {
		r.Ratio = handsPerSec / r.TPS
	}
}

const loadUsage = `Usage: stichbuch-bench load (--url URL --key KEY | --start) [flags]

Drives the HTTP API with simulated tables, each recording hands with an
Idempotency-Key, and prints hands per second, latency percentiles, errors by
status and the service's peak RSS. Only loopback addresses are accepted.

Flags:
`

func parseLoadFlags(args []string, getenv func(string) string, stderr io.Writer) (loadOptions, error) {
	var o loadOptions
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, loadUsage); fs.PrintDefaults() }
	fs.StringVar(&o.url, "url", "", "base URL of a running service on a loopback address")
	fs.BoolVar(&o.start, "start", false, "start stichbuch serve (see --bin) on a free loopback port against DATABASE_URL or the embedded PostgreSQL in --data")
	fs.StringVar(&o.bin, "bin", "", "the stichbuch executable --start runs (default: stichbuch beside this executable, else one built with go build from the module in the working directory)")
	fs.StringVar(&o.data, "data", runenv.DataDir(getenv), "data directory of the embedded PostgreSQL (with --start, without DATABASE_URL)")
	fs.StringVar(&o.key, "key", "", "an admin API key of the club to use (default with --start: a new club)")
	fs.IntVar(&o.pid, "pid", 0, "process id of the service, for its peak RSS and CPU time (set by --start)")
	fs.IntVar(&o.tables, "tables", 8, "concurrent simulated tables, one client each (with --hot: clients on one table)")
	fs.IntVar(&o.clubs, "clubs", 1, "spread the tables over this many clubs, each with its own admin key and phones (more than 1: new clubs in the service's database, so --start or DATABASE_URL)")
	fs.BoolVar(&o.hot, "hot", false, "put every client on one table: they race for the next number and follow the 409s")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "how long to record hands after the warm-up (0 with --hands: until the hands are done)")
	fs.DurationVar(&o.warmup, "warmup", time.Second, "recording before the measured window, left out of the figures")
	fs.IntVar(&o.hands, "hands", 0, "stop after this many recorded hands, warm-up included (0: no limit)")
	fs.StringVar(&o.games, "games", "doppelkopf", "doppelkopf, or mix: tables of every game in turn")
	fs.Float64Var(&o.rate, "rate", 0, "hands per second each client sends at most, on a fixed schedule (0: each client sends its next hand as soon as the last is answered)")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "timeout of one request")
	fs.StringVar(&o.pgbench, "pgbench", "", "after the load, run this pgbench script with as many clients for as long against the service's database and report the ratio")
	fs.BoolVar(&o.jsonOut, "json", false, "print the result as JSON")
	fs.StringVar(&o.leastcost, "leastcost", "", "after the load, run this pgbench script (ledger/postgres/bench/leastcost.sql) with as many clients for as long, after its schema (the _setup.sql beside it), and report the ratio")
	fs.IntVar(&o.streams, "streams", 0, "hold this many club event streams open through the run (new reader keys, 30 streams each)")
	fs.IntVar(&o.stalled, "stalled", 0, "hold this many key-less connections open through the run, each announcing a 1 MiB hand and stalling after 64 KiB")
	fs.BoolVar(&o.stats, "stats", false, "read instead of write: measure a player's lifetime statistics, a one-year leaderboard and a partner table of the club of --key (a generated history, say), with --tables clients")
	fs.StringVar(&o.from, "from", "", "with --stats: first date of the leaderboard's period (default: a year before --to)")
	fs.StringVar(&o.season, "season", "", "with --stats: also measure this season's table, GET /v1/seasons/{name} (the club must have it)")
	fs.StringVar(&o.to, "to", "", "with --stats: last date of the leaderboard's period (default: the club's last evening)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("load: unexpected argument %q", fs.Arg(0))
	case o.start == (o.url != ""):
		return o, errors.New("load: give either --url (with --key) or --start")
	case o.bin != "" && !o.start:
		return o, errors.New("load: --bin names the service --start runs; give --start")
	case o.url != "" && o.key == "":
		return o, errors.New("load: --url needs --key, an admin key of the club to load")
	case o.tables < 1 || o.tables > 1024:
		return o, errors.New("load: --tables must be between 1 and 1024")
	case o.clubs < 1 || o.clubs > o.tables:
		return o, errors.New("load: --clubs must be between 1 and --tables")
	case o.clubs > 1 && (o.hot || o.stats || o.pgbench != ""):
		return o, errors.New("load: --clubs spreads tables; not with --hot, --stats or --pgbench (one club's tables)")
	case o.games != "doppelkopf" && o.games != "mix":
		return o, fmt.Errorf("load: --games must be doppelkopf or mix, got %q", o.games)
	case o.hands < 0 || o.duration < 0 || o.warmup < 0 || o.rate < 0:
		return o, errors.New("load: --hands, --duration, --warmup and --rate cannot be negative")
	case o.hands == 0 && o.duration == 0:
		return o, errors.New("load: give a --duration or a number of --hands")
	case o.pgbench != "" && o.hot:
		return o, errors.New("load: --pgbench compares tables, not a hot table")
	case o.pgbench != "" && o.duration == 0:
		return o, errors.New("load: --pgbench runs for --duration; give one")
	}
	return o, nil
}

func load(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	o, err := parseLoadFlags(args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	// The run is bounded: the load window plus generous room for set-up,
	// checks and pgbench; a stuck service cannot keep it running.
	limit := o.warmup + 2*o.duration + 10*time.Minute
	if o.duration == 0 {
		limit = 30 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()

	svc := &loadService{base: strings.TrimRight(o.url, "/"), pid: o.pid, dbURL: getenv("DATABASE_URL")}
	if o.start {
		if svc, err = startLoadService(ctx, o, getenv, log); err != nil {
			return err
		}
		defer svc.stop()
	}
	if err := checkLoopback(svc.base); err != nil {
		return err
	}
	key := o.key
	if o.stats {
		return loadStats(ctx, o, svc, stdout)
	}
	if key == "" {
		if key, err = createLoadClub(ctx, svc.dbURL); err != nil {
			return err
		}
	}
	res, err := measureLoad(ctx, o, svc, key, getenv)
	if err != nil {
		return err
	}
	if o.jsonOut {
		return printJSON(stdout, res)
	}
	printLoad(stdout, res)
	if res.ServerErrors > 0 || !res.CountsAgree || (res.GapFree != nil && !*res.GapFree) {
		return fmt.Errorf("load: %d server errors, counts agree %v", res.ServerErrors, res.CountsAgree)
	}
	return nil
}

// --- output --------------------------------------------------------------------

func printLoad(w io.Writer, r *loadResult) {
	what := fmt.Sprintf("%d tables", r.Tables)
	if r.Clubs > 1 {
		what = fmt.Sprintf("%d tables in %d clubs", r.Tables, r.Clubs)
	}
	if r.Mode == "hot" {
		what = fmt.Sprintf("%d clients on one hot table", r.Clients)
	}
	if r.Rate > 0 {
		what += fmt.Sprintf(" at %g hands/s each", r.Rate)
	}
	fmt.Fprintf(w, "stichbuch load: %s, %s, %.1f s measured, service %s\n", what, r.Games, r.Seconds, r.Service)
	fmt.Fprintf(w, "  hands      %d in the window (%.1f/s); %d in the warm-up\n", r.Hands, r.HandsPerSec, r.WarmupHands)
	keys := make([]string, 0, len(r.Statuses))
	for k := range r.Statuses {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s: %d", k, r.Statuses[k]))
	}
	fmt.Fprintf(w, "  requests   %d (%s); errors %d, 5xx and transport %d\n", r.Requests, strings.Join(parts, ", "), r.Errors, r.ServerErrors)
	l := r.LatencyMS
	fmt.Fprintf(w, "  latency    p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.2f ms\n", l.P50, l.P95, l.P99, l.Max)
	fmt.Fprintf(w, "  stored     %d hands in the tables, %d answered 201: %s\n", r.StoredHands, r.CreatedTotal, map[bool]string{true: "agree", false: "DISAGREE"}[r.CountsAgree])
	if r.GapFree != nil {
		fmt.Fprintf(w, "  numbers    1..%d %s\n", r.StoredHands, map[bool]string{true: "gap-free", false: "HAVE GAPS"}[*r.GapFree])
	}
	if r.PeakRSSMB > 0 {
		fmt.Fprintf(w, "  service    peak RSS %.1f MB, CPU %.1f s\n", r.PeakRSSMB, r.ServiceCPU)
	}
	fmt.Fprintf(w, "  machine    %d cores %.0f %% busy; CPU s: load tool %.1f", r.Cores, r.MachineCPU, r.LoadCPU)
	if r.PostgresCPU > 0 {
		fmt.Fprintf(w, ", PostgreSQL %.1f", r.PostgresCPU)
	}
	fmt.Fprintf(w, ", everything else %.1f\n", r.OtherCPU)
	if r.CPUPerHandUS > 0 {
		fmt.Fprintf(w, "  CPU/hand   service + PostgreSQL %.0f µs\n", r.CPUPerHandUS)
	}
	if p := r.Pressure; p != nil {
		fmt.Fprintf(w, "  pressure   %d streams (%d open at the end, %d refused, %d events delivered); %d stalled uploads, %d cut by the service\n",
			p.Streams, p.StreamsOpen, p.StreamsRefused, p.Events, p.Stalled, p.StalledCut)
	}
	if p := r.PGBench; p != nil {
		fmt.Fprintf(w, "  pgbench    %d clients, %.0f s: %.1f tps (latency avg %.2f ms, %d failed)\n", p.Clients, p.Seconds, p.TPS, p.LatencyAvgMS, p.Failed)
		fmt.Fprintf(w, "  ratio      service / PostgreSQL alone = %.1f / %.1f = %.0f %%\n", r.HandsPerSec, p.TPS, 100*p.Ratio)
	}
	if p := r.LeastCost; p != nil {
		fmt.Fprintf(w, "  least cost %d clients, %.0f s: %.1f tps (latency avg %.2f ms, p99 %.2f ms, %d failed)\n", p.Clients, p.Seconds, p.TPS, p.LatencyAvgMS, p.P99MS, p.Failed)
		if p.Wanted > 0 {
			fmt.Fprintf(w, "             (%d clients of %d: the cluster's free connections)\n", p.Clients, p.Wanted)
		}
		fmt.Fprintf(w, "  ratio      service / least durable hand = %.1f / %.1f = %.0f %%\n", r.HandsPerSec, p.TPS, 100*p.Ratio)
	}
}

// measureLoad sets up the tables, holds the pressure open, drives the clients,
// checks what was stored and runs pgbench beside it when asked.
func measureLoad(ctx context.Context, o loadOptions, svc *loadService, key string, getenv func(string) string) (*loadResult, error) {
	c := newLoadClient(svc.base, key, o.tables, o.timeout)
	for len(c.clubs) < o.clubs {
		other, err := createLoadClub(ctx, svc.dbURL)
		if err != nil {
			return nil, fmt.Errorf("load: --clubs: %w", err)
		}
		c.clubs = append(c.clubs, "Bearer "+other)
	}
	tables, err := c.setup(ctx, o)
	if err != nil {
		return nil, err
	}
	var p *pressure
	if o.streams > 0 || o.stalled > 0 {
		if p, err = openPressure(ctx, c, o); err != nil {
			return nil, err
		}
		defer p.close()
	}
	res, err := c.drive(ctx, o, tables, svc.pid, svc.pgPID)
	if err != nil {
		return nil, err
	}
	if p != nil {
		res.Pressure = p.result(o)
	}
	res.Service, res.Started = svc.base, o.start
	if err := c.verify(ctx, o, tables, res); err != nil {
		return nil, err
	}
	res.PeakRSSMB = peakRSSMB(svc.pid)
	if (o.pgbench != "" || o.leastcost != "") && svc.dbURL == "" {
		return nil, errors.New("load: --pgbench and --leastcost need the service's database: use --start, or set DATABASE_URL")
	}
	if o.pgbench != "" {
		clubID, keyID, err := keyIDs(key)
		if err != nil {
			return nil, err
		}
		if res.PGBench, err = runPgbench(ctx, getenv, svc.dbURL, o.pgbench, o.duration, clubID, keyID, tables); err != nil {
			return nil, err
		}
		res.PGBench.setRatio(res.HandsPerSec)
	}
	if o.leastcost != "" {
		if res.LeastCost, err = runLeastCost(ctx, getenv, svc.dbURL, o.leastcost, o.duration, len(tables)); err != nil {
			return nil, err
		}
		res.LeastCost.setRatio(res.HandsPerSec)
	}
	return res, nil
}
