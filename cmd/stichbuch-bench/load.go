package main

// stichbuch-bench load: a load generator that drives the real HTTP API the
// way club score apps do, and measures it. See `stichbuch-bench load
// --help` and the README's Benchmarks section.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/stichbuch/stichbuch/cmd/internal/loopback"
	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/games/doppelkopf"
	"github.com/stichbuch/stichbuch/ledger/games/klaberjass"
	"github.com/stichbuch/stichbuch/ledger/games/saukopf"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzedame"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzesau"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/cluster"
)

// loadOptions are the flags of `stichbuch-bench load`.
type loadOptions struct {
	url      string
	start    bool
	bin      string
	data     string
	key      string
	pid      int
	tables   int
	hot      bool
	duration time.Duration
	warmup   time.Duration
	hands    int
	games    string
	rate     float64
	timeout  time.Duration
	pgbench  string
	jsonOut  bool
	stats    bool
	from, to string
}

// loadResult is what one run measured; --json prints it as is.
type loadResult struct {
	Service      string         `json:"service"`
	Started      bool           `json:"started_service"`
	Mode         string         `json:"mode"` // tables or hot
	Clients      int            `json:"clients"`
	Tables       int            `json:"tables"`
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
	PostgresCPU float64        `json:"postgres_cpu_seconds,omitempty"`
	OtherCPU    float64        `json:"other_cpu_seconds"`
	MachineCPU  float64        `json:"machine_cpu_busy_percent"` // of all cores
	Cores       int            `json:"cores"`
	PGBench     *pgbenchResult `json:"pgbench,omitempty"`
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
	fs.BoolVar(&o.hot, "hot", false, "put every client on one table: they race for the next number and follow the 409s")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "how long to record hands after the warm-up (0 with --hands: until the hands are done)")
	fs.DurationVar(&o.warmup, "warmup", time.Second, "recording before the measured window, left out of the figures")
	fs.IntVar(&o.hands, "hands", 0, "stop after this many recorded hands, warm-up included (0: no limit)")
	fs.StringVar(&o.games, "games", "doppelkopf", "doppelkopf, or mix: tables of every game in turn")
	fs.Float64Var(&o.rate, "rate", 0, "hands per second each client sends at most, on a fixed schedule (0: each client sends its next hand as soon as the last is answered)")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "timeout of one request")
	fs.StringVar(&o.pgbench, "pgbench", "", "after the load, run this pgbench script with as many clients for as long against the service's database and report the ratio")
	fs.BoolVar(&o.jsonOut, "json", false, "print the result as JSON")
	fs.BoolVar(&o.stats, "stats", false, "read instead of write: measure a player's lifetime statistics, a one-year leaderboard and a partner table of the club of --key (a generated history, say), with --tables clients")
	fs.StringVar(&o.from, "from", "", "with --stats: first date of the leaderboard's period (default: a year before --to)")
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
	c := newLoadClient(svc.base, key, o.tables, o.timeout)
	tables, err := c.setup(ctx, o)
	if err != nil {
		return err
	}
	res, err := c.drive(ctx, o, tables, svc.pid, svc.pgPID)
	if err != nil {
		return err
	}
	res.Service, res.Started = svc.base, o.start
	if err := c.verify(ctx, o, tables, res); err != nil {
		return err
	}
	res.PeakRSSMB = peakRSSMB(svc.pid)
	if o.pgbench != "" {
		if svc.dbURL == "" {
			return errors.New("load: --pgbench needs the service's database: use --start, or set DATABASE_URL")
		}
		clubID, keyID, err := keyIDs(key)
		if err != nil {
			return err
		}
		pg, err := runPgbench(ctx, getenv, svc.dbURL, o.pgbench, o.duration, clubID, keyID, tables)
		if err != nil {
			return err
		}
		if pg.TPS > 0 {
			pg.Ratio = res.HandsPerSec / pg.TPS
		}
		res.PGBench = pg
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

// --- the service ---------------------------------------------------------------

// loadService is the service under load: its base URL, its process (when
// known) and its database (when known).
type loadService struct {
	base  string
	pid   int
	pgPID int // the embedded cluster's postmaster, when started here
	dbURL string
	stop  func()
}

// startLoadService starts `stichbuch serve` (see serviceBinary) as a
// process of its own on a free loopback port. Without DATABASE_URL it first
// starts the embedded PostgreSQL in the data directory (or uses the one a
// running stichbuch serve shares) and hands the service its URL, so the service process is the Go service
// alone and pgbench can reach the same database.
func startLoadService(ctx context.Context, o loadOptions, getenv func(string) string, log *slog.Logger) (*loadService, error) {
	db, err := runenv.OpenDatabase(ctx, runenv.Operator, "stichbuch-bench load", o.data, getenv, log)
	if err != nil {
		return nil, err
	}
	svc := &loadService{dbURL: db.URL, pgPID: db.Postmaster(), stop: func() {}}
	bin, removeBin, err := serviceBinary(ctx, o.bin, log)
	if err != nil {
		db.Close()
		return nil, err
	}
	cleanup := func() {
		removeBin()
		db.Close()
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+svc.dbURL)
	if keyFile, err := runenv.ChainKeyPath(getenv, o.data); err == nil {
		// The service's chain key: the data directory's, or the one the
		// environment names.
		cmd.Env = append(cmd.Env, "STICHBUCH_CHAIN_KEY_FILE="+keyFile)
	}
	if getenv("STICHBUCH_RATE_LIMIT") == "" {
		// The per-key limit guards against runaway phones; a load test is one
		// on purpose. Set STICHBUCH_RATE_LIMIT to measure with a limit.
		cmd.Env = append(cmd.Env, "STICHBUCH_RATE_LIMIT=0")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cleanup()
		return nil, err
	}
	var logTail runenv.TailBuffer
	cmd.Stderr = &logTail // one line per request at the default level: kept short
	if err := cmd.Start(); err != nil {
		cleanup()
		return nil, err
	}
	svc.pid = cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	svc.stop = func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		cleanup()
	}
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`listening on (http://\S+)`)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		io.Copy(io.Discard, out)
	}()
	select {
	case svc.base = <-addr:
	case err := <-done:
		done <- err
		cleanup()
		return nil, fmt.Errorf("load: the service ended before listening: %v\n%s", err, logTail.String())
	case <-time.After(2 * time.Minute):
		svc.stop()
		return nil, fmt.Errorf("load: the service did not start listening:\n%s", logTail.String())
	case <-ctx.Done():
		svc.stop()
		return nil, ctx.Err()
	}
	return svc, nil
}

// servicePackage is the service's main package, built when no binary is at hand.
const servicePackage = "github.com/stichbuch/stichbuch/cmd/stichbuch"

// serviceBinary finds the stichbuch executable --start runs: bin when
// given; else stichbuch beside this executable (both built or installed
// together, as run.sh does); else one built now with go build from the
// module in the working directory (as under `go run
// ./cmd/stichbuch-bench`), which remove deletes again.
func serviceBinary(ctx context.Context, bin string, log *slog.Logger) (path string, remove func(), err error) {
	keep := func() {}
	if bin != "" {
		return bin, keep, nil
	}
	if exe, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(exe), "stichbuch")
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			log.Info("starting the stichbuch beside this executable", "bin", beside)
			return beside, keep, nil
		}
	}
	dir, err := os.MkdirTemp("", "stichbuch-bench-")
	if err != nil {
		return "", nil, err
	}
	path = filepath.Join(dir, "stichbuch")
	start := time.Now()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", path, servicePackage).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("load: --start found no stichbuch beside this executable, and go build %s failed (run it in the module's checkout, or give --bin): %v\n%s", servicePackage, err, out)
	}
	log.Info("built stichbuch", "bin", path, "took", time.Since(start).Round(time.Millisecond))
	return path, func() { os.RemoveAll(dir) }, nil
}

// createLoadClub creates a club for the run in the service's database and
// returns its admin key (as `stichbuch club create` does).
func createLoadClub(ctx context.Context, dbURL string) (string, error) {
	if dbURL == "" {
		return "", errors.New("load: no database to create a club in; give --key")
	}
	pool, err := postgres.Connect(ctx, dbURL)
	if err != nil {
		return "", err
	}
	defer pool.Close()
	if _, err := postgres.Migrate(ctx, pool); err != nil {
		return "", err
	}
	_, secret, err := newLedgerWriter(pool, chain.Key{}).CreateClub(ctx, ledger.NewClub{Name: "Lasttest " + time.Now().Format("2006-01-02 15:04:05.000")})
	return secret, err
}

// keyIDs reads the club and key ids out of a key "sb_<club>_<key>_<secret>".
func keyIDs(key string) (clubID, keyID int64, err error) {
	parts := strings.SplitN(strings.TrimPrefix(key, "sb_"), "_", 3)
	if len(parts) == 3 {
		clubID, err1 := strconv.ParseInt(parts[0], 10, 64)
		keyID, err2 := strconv.ParseInt(parts[1], 10, 64)
		if err1 == nil && err2 == nil {
			return clubID, keyID, nil
		}
	}
	return 0, 0, errors.New("load: the key is not a stichbuch key sb_<club>_<key>_<secret>")
}

// checkLoopback refuses any service that is not on this machine's loopback.
func checkLoopback(base string) error {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("load: %q is not an http URL", base)
	}
	if !loopback.Host(u.Hostname()) {
		return fmt.Errorf("load: %s is not a loopback address; the load tool only drives a service on this machine", u.Hostname())
	}
	return nil
}

// --- the clients ---------------------------------------------------------------

type loadClient struct {
	base, auth string
	http       *http.Client
	runID      string
	phones     []string // each client's Authorization header
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

// create POSTs v with the admin key and returns what was created.
func (c *loadClient) create(ctx context.Context, path string, v any) (int64, string, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return 0, "", err
	}
	status, out, err := c.call(ctx, c.auth, http.MethodPost, path, body, "", true)
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
	id, session int64
	players     []int64
	game        string
	facts       [][]byte
}

// setup creates the tables one after another (so a fresh database gives
// them consecutive ids, which the pgbench script relies on): four players,
// the table and its open session each.
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
		t := &loadTable{game: played[i%len(played)]}
		for k := range 4 {
			id, _, err := c.create(ctx, "/v1/players", map[string]any{"name": fmt.Sprintf("load %s t%d p%d", c.runID, i, k+1)})
			if err != nil {
				return nil, err
			}
			t.players = append(t.players, id)
		}
		var err error
		if t.id, _, err = c.create(ctx, "/v1/tables", map[string]any{"name": fmt.Sprintf("load %s %d %s", c.runID, i, t.game), "game": t.game}); err != nil {
			return nil, err
		}
		if t.session, _, err = c.create(ctx, fmt.Sprintf("/v1/tables/%d/sessions", t.id), map[string]any{"seating": t.players}); err != nil {
			return nil, err
		}
		t.facts = renderFacts(loadFacts[t.game], t.players)
		tables[i] = t
	}
	// Every phone has its own scorer key, as a club hands them out.
	for i := range o.tables {
		_, secret, err := c.create(ctx, "/v1/keys", map[string]any{"role": "scorer", "label": fmt.Sprintf("load %s phone %d", c.runID, i+1)})
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

	res := &loadResult{
		Mode: "tables", Clients: clients, Tables: len(tables), Games: o.games, Rate: o.rate,
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
	if cpu0.at.IsZero() {
		cpu0 = cpuSample{at: start}
	}
	res.ServiceCPU = cpu1.service - cpu0.service
	res.LoadCPU = cpu1.self - cpu0.self
	res.PostgresCPU = cpu1.postgres - cpu0.postgres
	if busy, total := cpu1.busy-cpu0.busy, cpu1.total-cpu0.total; total > 0 {
		res.MachineCPU = 100 * busy / total
		res.OtherCPU = max(0, busy/clockTicks-res.ServiceCPU-res.LoadCPU-res.PostgresCPU)
	}
	return res, nil
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
		facts := t.facts[(number-1+skip)%len(t.facts)]
		body = append(body[:0], `{"session_id":`...)
		body = strconv.AppendInt(body, t.session, 10)
		body = append(body, `,"number":`...)
		body = strconv.AppendInt(body, int64(number), 10)
		body = append(body, `,"facts":`...)
		body = append(body, facts...)
		body = append(body, '}')
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
		case status == http.StatusCreated:
			number++
			recorded.Add(1)
			st.created++
			if measured {
				st.hands++
			} else {
				st.warmup++
			}
		case status == http.StatusConflict:
			// Another phone recorded this number: take the next one named.
			var p struct {
				Next int `json:"next_number"`
			}
			if json.Unmarshal(out, &p) == nil && p.Next > 0 {
				number = p.Next
			} else {
				time.Sleep(10 * time.Millisecond)
			}
		case status == http.StatusUnprocessableEntity:
			skip++ // a hand this table's state refuses: try the next facts
		default:
			time.Sleep(10 * time.Millisecond) // 5xx, 503: back off a little
		}
		failures = 0
	}
}

// verify compares the hands the tables hold with the 201s, and at a hot
// table reads every number back: 1, 2, 3 … with no gap.
func (c *loadClient) verify(ctx context.Context, o loadOptions, tables []*loadTable, res *loadResult) error {
	for _, t := range tables {
		status, out, err := c.call(ctx, c.auth, http.MethodGet, fmt.Sprintf("/v1/tables/%d", t.id), nil, "", true)
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
			status, out, err := c.call(ctx, c.auth, http.MethodGet, fmt.Sprintf("/v1/tables/%d/hands?after=%d&limit=200", t.id, after), nil, "", true)
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

// --- measuring processes -------------------------------------------------------

// peakRSSMB is process pid's peak resident set in MB, 0 when unknown.
func peakRSSMB(pid int) float64 {
	if pid == 0 {
		return 0
	}
	hwm, err := procStatusKB(pid, "VmHWM")
	if err != nil {
		return 0
	}
	return float64(hwm) / 1024
}

// printJSON prints a run's result as indented JSON (--json).
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// procStatusKB reads a "Name:   123 kB" line of /proc/PID/status.
func procStatusKB(pid int, name string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, name+":"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", name, pid)
}

// cpuSample is the CPU seconds used so far by the service, this process
// and the whole machine (busy and total, in clock ticks).
type cpuSample struct {
	at                      time.Time
	service, self, postgres float64
	busy, total             float64
}

const clockTicks = 100 // USER_HZ, 100 on every Linux we run on

// procCPU returns a process's parent and the CPU seconds it has used.
func procCPU(pid int) (ppid int, seconds float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0
	}
	// Fields after the command's closing parenthesis: state, ppid, …, utime
	// and stime are the 14th and 15th of the line.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, 0
	}
	ppid, _ = strconv.Atoi(f[1])
	u, _ := strconv.ParseFloat(f[11], 64)
	k, _ := strconv.ParseFloat(f[12], 64)
	return ppid, (u + k) / clockTicks
}

func sampleCPU(pid, pgPID int) cpuSample {
	s := cpuSample{at: time.Now()}
	if pid != 0 {
		_, s.service = procCPU(pid)
	}
	if pgPID != 0 { // the postmaster and its children, the backends
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			p, err := strconv.Atoi(d.Name())
			if err != nil {
				continue
			}
			if ppid, cpu := procCPU(p); p == pgPID || ppid == pgPID {
				s.postgres += cpu
			}
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.self = float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		for i, v := range f[1:] {
			x, _ := strconv.ParseFloat(v, 64)
			if i >= 8 { // guest time is already in user
				break
			}
			s.total += x
			if i != 3 && i != 4 { // idle, iowait
				s.busy += x
			}
		}
	}
	return s
}

// --- pgbench -------------------------------------------------------------------

// runPgbench runs the script with one client per table of the run (client
// i works on table i, as the load tool's client i did) for d.
func runPgbench(ctx context.Context, getenv func(string) string, dbURL, script string, d time.Duration, clubID, keyID int64, tables []*loadTable) (*pgbenchResult, error) {
	for i, t := range tables { // the script finds its ids by arithmetic
		if t.id != tables[0].id+int64(i) || t.session != tables[0].session+int64(i) ||
			t.players[0] != tables[0].players[0]+4*int64(i) || t.players[3] != t.players[0]+3 {
			return nil, errors.New("load: the tables' ids are not consecutive (was the database busy during set-up?); pgbench needs them so")
		}
	}
	bin, err := findPgbench(getenv)
	if err != nil {
		return nil, err
	}
	n := len(tables)
	args := []string{"-n", "-M", "prepared", "-c", strconv.Itoa(n), "-j", strconv.Itoa(min(n, runtime.NumCPU())),
		"-T", strconv.Itoa(int(math.Ceil(d.Seconds()))), "-f", script,
		"-D", fmt.Sprintf("club=%d", clubID), "-D", fmt.Sprintf("key=%d", keyID),
		"-D", fmt.Sprintf("table0=%d", tables[0].id), "-D", fmt.Sprintf("session0=%d", tables[0].session),
		"-D", fmt.Sprintf("player0=%d", tables[0].players[0]), dbURL}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "PGAPPNAME=stichbuch-load-pgbench")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("load: pgbench: %v\n%s", err, out)
	}
	r := &pgbenchResult{Script: script, Clients: n, Seconds: math.Ceil(d.Seconds())}
	if m := regexp.MustCompile(`tps = ([0-9.]+) \(without initial`).FindSubmatch(out); m != nil {
		r.TPS, _ = strconv.ParseFloat(string(m[1]), 64)
	} else {
		return nil, fmt.Errorf("load: no tps in pgbench's output:\n%s", out)
	}
	if m := regexp.MustCompile(`latency average = ([0-9.]+) ms`).FindSubmatch(out); m != nil {
		r.LatencyAvgMS, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	if m := regexp.MustCompile(`number of failed transactions: ([0-9]+)`).FindSubmatch(out); m != nil {
		r.Failed, _ = strconv.Atoi(string(m[1]))
	}
	return r, nil
}

// findPgbench finds pgbench beside the server binaries stichbuch uses
// (following a symlinked initdb to its directory), else in PATH.
func findPgbench(getenv func(string) string) (string, error) {
	if dir, err := cluster.FindBinaries(getenv); err == nil {
		dirs := []string{dir}
		if real, err := filepath.EvalSymlinks(filepath.Join(dir, "initdb")); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, "pgbench")); err == nil {
				return filepath.Join(d, "pgbench"), nil
			}
		}
	}
	if bin, err := exec.LookPath("pgbench"); err == nil {
		return bin, nil
	}
	return "", errors.New("load: no pgbench found beside the PostgreSQL server binaries or in PATH")
}

// --- output --------------------------------------------------------------------

func printLoad(w io.Writer, r *loadResult) {
	what := fmt.Sprintf("%d tables", r.Tables)
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
	if p := r.PGBench; p != nil {
		fmt.Fprintf(w, "  pgbench    %d clients, %.0f s: %.1f tps (latency avg %.2f ms, %d failed)\n", p.Clients, p.Seconds, p.TPS, p.LatencyAvgMS, p.Failed)
		fmt.Fprintf(w, "  ratio      service / PostgreSQL alone = %.1f / %.1f = %.0f %%\n", r.HandsPerSec, p.TPS, 100*p.Ratio)
	}
}

// --- realistic hands -----------------------------------------------------------

// loadFacts are valid hands of each game, by its registry name (--games
// mix plays every registered game, one table each in turn), written for
// the seated players P1..P4 (as in api/games_test.go); a table plays them
// in turn, over and over. They stay valid whatever state the table has
// reached.
var loadFacts = map[string][]string{
	// An evening's Doppelkopf: normal games won and lost, announcements,
	// Füchse and Doppelköpfe, a Hochzeit, an Armut, solos and a Schmeißen.
	doppelkopf.Name: {
		`{"game":"normal","re":{"players":[P1,P3],"augen":187,"announced":"keine90"}}`,
		`{"game":"normal","re":{"players":[P2,P4],"augen":100}}`,
		`{"game":"normal","re":{"players":[P1,P2],"augen":150}}`,
		`{"game":"normal","re":{"players":[P3,P4],"augen":121,"fuchs_gefangen":1}}`,
		`{"game":"damensolo","re":{"players":[P4],"augen":130}}`,
		`{"game":"normal","re":{"players":[P1,P4],"augen":100,"announced":"re"},"kontra":{"announced":"kontra"}}`,
		`{"game":"normal","re":{"players":[P2,P3],"augen":205,"announced":"re","doppelkopf":1}}`,
		`{"game":"hochzeit","re":{"players":[P2,P4],"augen":170}}`,
		`{"game":"normal","herzstich":true,"re":{"players":[P1,P3],"augen":90}}`,
		`{"game":"armut","re":{"players":[P3,P1],"augen":110}}`,
		`{"game":"schmeissen"}`,
		`{"game":"farbsolo","suit":"kreuz","re":{"players":[P3],"augen":100}}`,
		`{"game":"normal","re":{"players":[P1,P3],"augen":187,"announced":"keine90","fuchs_gefangen":1},"kontra":{"announced":"none","doppelkopf":1}}`,
		`{"game":"normal","re":{"players":[P2,P4],"augen":60}}`,
	},
	saukopf.Name: rotations(
		// A Herz-Keiler lost with 55 Augen, ohne 2, one Huftritt.
		`{"variant":"vierer","players":[P1,P2,P3,P4],"dealer":P4,"spieler":P1,"bid":61,"contract":"keiler","trump_suit":"herz","huftritte":1,"augen":55,"tricks":4,"laufende":{"holder":P1,"count":2}}`,
		// A Sauerei with the Eichel-Sau called, won with 85.
		`{"variant":"vierer","players":[P1,P2,P3,P4],"dealer":P4,"bid":70,"spieler":P1,"contract":"sauerei","called_sau":"eichel","mitspieler":P3,"augen":85,"tricks":5,"laufende":{"holder":P2,"count":1}}`,
		// A Dreihaxer ohne Trog, P4 sitting out.
		`{"variant":"dreihaxer","players":[P1,P2,P3],"dealer":P3,"trog":"ohne","open_augen":10,"bid":61,"spieler":P1,"contract":"keiler","trump_suit":"eichel","augen":50,"tricks":4,"laufende":{"holder":P2,"count":1}}`,
	),
	schwarzesau.Name: rotations(
		`{"players":[{"player":P1,"card_points":60,"tricks":5,"pik_dame":true},{"player":P2,"card_points":30,"tricks":3},{"player":P3,"card_points":30,"tricks":2},{"player":P4,"card_points":0,"tricks":0}],"dealer":P4,"doublings":[{"call":"Kontra","player":P1},{"call":"Re","player":P2},{"call":"Sub","player":P3},{"call":"Hirsch","player":P4}]}`,
		`{"players":[{"player":P1,"card_points":26,"tricks":3},{"player":P2,"card_points":40,"tricks":3,"pik_dame":true},{"player":P3,"card_points":50,"tricks":3},{"player":P4,"card_points":4,"tricks":1}],"dealer":P4,"doublings":[{"call":"Kontra","player":P2},{"call":"Re","player":P3},{"call":"Sub","player":P4}]}`,
		`{"players":[{"player":P1,"card_points":0,"tricks":0},{"player":P2,"card_points":0,"tricks":0},{"player":P3,"card_points":120,"tricks":10,"pik_dame":true},{"player":P4,"card_points":0,"tricks":0}],"dealer":P4}`,
		`{"players":[{"player":P1,"card_points":5,"tricks":1},{"player":P2,"card_points":45,"tricks":3,"pik_dame":true},{"player":P3,"card_points":40,"tricks":3},{"player":P4,"card_points":30,"tricks":3}],"dealer":P1}`,
		`{"players":[{"player":P1,"card_points":48,"tricks":4,"pik_dame":true},{"player":P2,"card_points":0,"tricks":0},{"player":P3,"card_points":42,"tricks":3},{"player":P4,"card_points":30,"tricks":3}],"dealer":P2,"doublings":[{"call":"Kontra","player":P3},{"call":"Re","player":P1}]}`,
		`{"players":[{"player":P1,"card_points":45,"tricks":3},{"player":P2,"card_points":35,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3},{"player":P4,"card_points":10,"tricks":1}],"dealer":P4}`,
	),
	klaberjass.Name: klaberjassMatches(),
	schwarzedame.Name: rotations(
		`{"dealer":P1,"players":[{"player":P1,"tricks":4,"hearts":[2,5,13]},{"player":P2,"tricks":3,"hearts":[14],"pik_dame":true},{"player":P3,"tricks":5,"hearts":[3,4,6,7,8,9,10]},{"player":P4,"tricks":1,"hearts":[11,12]}]}`,
		`{"dealer":P1,"players":[{"player":P1,"tricks":2,"hearts":[]},{"player":P2,"tricks":6,"hearts":[2,3,4,5,6,14]},{"player":P3,"tricks":1,"hearts":[7]},{"player":P4,"tricks":4,"hearts":[8,9,10,11,12,13],"pik_dame":true}]}`,
	),
}

// rotations returns each hand as written and with the seats turned by one,
// two and three places, so every player deals, plays and loses in turn.
func rotations(hands ...string) []string {
	var out []string
	for k := range 4 {
		var pairs []string
		for i := 1; i <= 4; i++ {
			pairs = append(pairs, fmt.Sprintf("P%d", i), fmt.Sprintf("P%d", (i-1+k)%4+1))
		}
		r := strings.NewReplacer(pairs...)
		for _, h := range hands {
			out = append(out, r.Replace(h))
		}
	}
	return out
}

// klaberjassMatches is two whole four-player matches (P1/P3 against P2/P4,
// every hand dealt by the next dealer): the dice return to 0:0, so the
// cycle repeats cleanly (the klaberjass package's TestWholeFourPlayerMatch).
func klaberjassMatches() []string {
	hands := []struct{ trumpWins, kontra bool }{
		{true, false}, {true, true}, {false, false}, {true, false},
		{false, false}, {false, true}, {true, false}, {false, false},
	}
	var out []string
	dealer := 4
	for _, h := range hands {
		trump := dealer%4 + 1
		opponent := trump%4 + 1
		winner, loser := trump, opponent
		if !h.trumpWins {
			winner, loser = opponent, trump
		}
		out = append(out, fmt.Sprintf(`{"dealer":P%d,"trump_player":P%d,"trump_suit":"karo","kontra":%t,"card_points":[{"player":P%d,"points":100},{"player":P%d,"points":52}],"last_trick":P%d}`,
			dealer, trump, h.kontra, winner, loser, winner))
		dealer = dealer%4 + 1
	}
	return out
}
