package main

// Crash safety (issue 10): the service killed with SIGKILL under load, and
// PostgreSQL stopped in immediate mode under load and started again. In
// both, every hand that got a 2xx is stored with the facts sent, no hand is
// partial, postgres.Verify passes, and clients that retry with their
// Idempotency-Key end with every hand stored exactly once.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/cluster"
	"github.com/stichbuch/stichbuch/ledger/postgres/handpack"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
)

// crashChildEnv makes the test binary the service: the tests re-exec
// themselves with it, so that SIGKILL kills the service and nothing else.
// The arguments of run (without the program name) are a JSON array in
// crashArgsEnv. This runs before TestMain, so the child starts no cluster.
const (
	crashChildEnv = "STICHBUCH_CRASH_CHILD"
	crashArgsEnv  = "STICHBUCH_CRASH_ARGS"
)

func init() {
	if os.Getenv(crashChildEnv) != "1" {
		return
	}
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv(crashArgsEnv)), &args); err != nil {
		fmt.Fprintf(os.Stderr, "stichbuch (crash child): %s: %v\n", crashArgsEnv, err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	err := run(ctx, append([]string{"stichbuch"}, args...), os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "stichbuch:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// crashChild is `stichbuch serve` in a process of its own.
type crashChild struct {
	base   string
	cmd    *exec.Cmd
	done   chan struct{} // closed when the process has ended
	err    error         // its exit, once done is closed
	stdout *cmdtest.SyncBuffer
	stderr *runenv.TailBuffer
	failed *lineFilter // the log lines of 500s and panics
	pgLog  *lineFilter // the log lines about the embedded PostgreSQL
}

// lineFilter keeps the lines written to it that match re (at most 50).
type lineFilter struct {
	re    *regexp.Regexp
	next  io.Writer
	mu    sync.Mutex
	part  []byte
	lines []string
}

func (f *lineFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	f.part = append(f.part, p...)
	for {
		i := bytes.IndexByte(f.part, '\n')
		if i < 0 {
			break
		}
		if line := string(f.part[:i]); f.re.MatchString(line) && len(f.lines) < 50 {
			f.lines = append(f.lines, line)
		}
		f.part = f.part[i+1:]
	}
	f.mu.Unlock()
	return f.next.Write(p)
}

func (f *lineFilter) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.lines, "\n")
}

func startCrashChild(t *testing.T, dbURL string) *crashChild {
	t.Helper()
	c := spawnServe(t, []string{"DATABASE_URL=" + dbURL})
	c.waitListening(t)
	return c
}

// spawnServe starts `stichbuch serve` on a free loopback port in a process
// of its own, with env added to the test's environment, and returns
// without waiting for it to listen.
func spawnServe(t *testing.T, env []string, args ...string) *crashChild {
	t.Helper()
	argv, _ := json.Marshal(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(os.Environ(),
		crashChildEnv+"=1", crashArgsEnv+"="+string(argv),
		"STICHBUCH_RATE_LIMIT=0", "STICHBUCH_METRICS_ADDR=off", "LOG_LEVEL=warn", "LOG_FORMAT=text"), env...)
	if slices.ContainsFunc(env, func(v string) bool { return strings.HasPrefix(v, "DATABASE_URL=") && v != "DATABASE_URL=" }) {
		cmd.Env = append(cmd.Env, "STICHBUCH_CHAIN_KEY_FILE="+pgtest.ChainKeyFile())
	}
	c := &crashChild{cmd: cmd, done: make(chan struct{}), stdout: &cmdtest.SyncBuffer{}, stderr: &runenv.TailBuffer{}}
	c.pgLog = &lineFilter{re: regexp.MustCompile(`PostgreSQL`), next: c.stderr}
	c.failed = &lineFilter{re: regexp.MustCompile(`status=500|panic`), next: c.pgLog}
	cmd.Stdout, cmd.Stderr = c.stdout, c.failed
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the service: %v", err)
	}
	go func() { c.err = cmd.Wait(); close(c.done) }()
	t.Cleanup(func() {
		select {
		case <-c.done:
		default:
			cmd.Process.Kill()
			<-c.done
		}
	})
	return c
}

var listeningRE = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// listening returns the service's base URL once it has said where it
// listens, else "".
func (c *crashChild) listening() string {
	if c.base == "" {
		if m := listeningRE.FindStringSubmatch(c.stdout.String()); m != nil {
			c.base = m[1]
		}
	}
	return c.base
}

// ended reports whether the process has ended.
func (c *crashChild) ended() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// waitListening waits until the service listens, failing the test if it
// ends first or takes longer than a minute.
func (c *crashChild) waitListening(t *testing.T) {
	t.Helper()
	deadline := time.After(time.Minute)
	for c.listening() == "" {
		select {
		case <-c.done:
			t.Fatalf("the service ended before listening: %v\n%s", c.err, c.stderr)
		case <-deadline:
			t.Fatalf("the service did not start listening within a minute:\n%s", c.stderr)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// kill ends the service with SIGKILL and waits until it is gone.
func (c *crashChild) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("SIGKILL: %v", err)
	}
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the service outlived SIGKILL by 10 s")
	}
}

// stop asks the service to shut down and fails the test unless it exits
// cleanly (a data race found in the child exits 66).
func (c *crashChild) stop(t *testing.T) {
	t.Helper()
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the service did not stop within 20 s of SIGTERM")
	}
	if c.err != nil {
		t.Errorf("the service exited with %v:\n%s", c.err, c.stderr)
	}
}

// crashTable is one table of the load with its open session and players.
type crashTable struct {
	id, session int64
	players     []int64
}

// setupCrashTables creates four players and n Schwarze Dame tables, each
// with an open session of those players.
func setupCrashTables(t *testing.T, base, key string, n int) []crashTable {
	t.Helper()
	var players []int64
	for _, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		players = append(players, int64(call(t, "POST", base+"/v1/players", key, map[string]any{"name": name}, 201)["id"].(float64)))
	}
	tables := make([]crashTable, n)
	for i := range tables {
		id := int64(call(t, "POST", base+"/v1/tables", key, map[string]any{"name": fmt.Sprintf("Tisch %d", i+1), "game": "schwarze_dame"}, 201)["id"].(float64))
		session := int64(call(t, "POST", fmt.Sprintf("%s/v1/tables/%d/sessions", base, id), key, map[string]any{"player_ids": players}, 201)["id"].(float64))
		tables[i] = crashTable{id: id, session: session, players: players}
	}
	return tables
}

// crashFacts are the facts of hand n of client c: Schwarze Dame with
// penalty points, different from hand to hand and from table to table, so
// a hand stored under the wrong number or table shows.
func crashFacts(players []int64, c, n int) map[string]any {
	p := (c*7 + n*5) % 44
	return map[string]any{"dealer": players[n%4], "players": []map[string]any{
		{"player": players[0], "tricks": 4, "penalty": p},
		{"player": players[1], "tricks": 3, "penalty": 40},
		{"player": players[2], "tricks": 5, "penalty": 47},
		{"player": players[3], "tricks": 1, "penalty": 43 - p},
	}}
}

// answer is one response, or the transport error in its place.
type answer struct {
	status      int // 0: no response
	contentType string
	replayed    bool
	body        []byte
	err         error
}

func (a answer) String() string {
	if a.status == 0 {
		return "no response: " + a.err.Error()
	}
	return fmt.Sprintf("%d %s: %s", a.status, a.contentType, bytes.TrimSpace(a.body))
}

func send(ctx context.Context, hc *http.Client, method, url, apiKey, idemKey string, body []byte) answer {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return answer{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idemKey != "" {
		req.Header.Set("Idempotency-Key", idemKey)
	}
	res, err := hc.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return answer{err: err}
	}
	return answer{status: res.StatusCode, contentType: res.Header.Get("Content-Type"),
		replayed: res.Header.Get("Idempotent-Replayed") == "true", body: raw}
}

func newCrashHTTPClient() *http.Client {
	return &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 16, IdleConnTimeout: 30 * time.Second},
	}
}

// loader is one client of the load: it records the hands of one table in
// order, each with an Idempotency-Key of its own, and sends an
// unacknowledged hand again with the same key and the same bytes.
type loader struct {
	table   crashTable
	client  int
	apiKey  string
	next    int            // the number of the next new hand
	pending int            // a hand sent and not acknowledged yet; 0: none
	bodies  map[int][]byte // every hand sent at least once, by number
	acked   map[int]bool   // every hand that got a 2xx
	replays int            // 2xx answers marked Idempotent-Replayed
	counts  map[string]int // answers by status ("net" for no response)
	bad     []string       // answers these tests do not allow
}

func newLoaders(tables []crashTable, apiKey string) []*loader {
	out := make([]*loader, len(tables))
	for i, tb := range tables {
		out[i] = &loader{table: tb, client: i, apiKey: apiKey, next: 1,
			bodies: map[int][]byte{}, acked: map[int]bool{}, counts: map[string]int{}}
	}
	return out
}

func (l *loader) idemKey(n int) string { return fmt.Sprintf("crash-table%d-hand%d", l.table.id, n) }

func (l *loader) body(n int) []byte {
	if b, ok := l.bodies[n]; ok {
		return b
	}
	b, err := json.Marshal(map[string]any{"session_id": l.table.session, "number": n, "facts": crashFacts(l.table.players, l.client, n)})
	if err != nil {
		panic(err)
	}
	l.bodies[n] = b
	return b
}

func (l *loader) flag(format string, args ...any) {
	if len(l.bad) < 20 {
		l.bad = append(l.bad, fmt.Sprintf("table %d: ", l.table.id)+fmt.Sprintf(format, args...))
	}
}

// attempt sends the pending hand, or else the next new one, once, and
// books the answer: a 2xx acknowledges the hand; a 409 names the next
// number, which the client re-reads and follows (with one client per table
// and a key per hand it should never come).
func (l *loader) attempt(ctx context.Context, hc *http.Client, base string) (n int, a answer) {
	if l.pending == 0 {
		l.pending, l.next = l.next, l.next+1
	}
	n = l.pending
	a = send(ctx, hc, "POST", fmt.Sprintf("%s/v1/tables/%d/hands", base, l.table.id), l.apiKey, l.idemKey(n), l.body(n))
	if a.status == 0 {
		l.counts["net"]++
	} else {
		l.counts[fmt.Sprint(a.status)]++
	}
	switch {
	case a.status >= 200 && a.status < 300:
		var h struct {
			Number  int   `json:"number"`
			TableID int64 `json:"table_id"`
		}
		if err := json.Unmarshal(a.body, &h); err != nil || h.Number != n || h.TableID != l.table.id {
			l.flag("hand %d acknowledged as %s", n, a.body)
		}
		l.acked[n] = true
		l.pending = 0
		if a.replayed {
			l.replays++
		}
	case a.status == http.StatusConflict:
		var p struct {
			Next int `json:"next_number"`
		}
		json.Unmarshal(a.body, &p)
		l.flag("hand %d (key %s): %s", n, l.idemKey(n), a)
		if p.Next > 0 {
			l.pending, l.next = 0, p.Next
		}
	}
	return n, a
}

// storedHand is a hand as the database holds it.
type storedHand struct {
	session int64
	facts   any
	entries int
}

// readStoredHands returns every hand of the database by table and number.
func readStoredHands(t *testing.T, pool *pgxpool.Pool) map[int64]map[int]storedHand {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT h.table_id, h.number, h.session_id, h.facts::text, h.body,
		       (SELECT count(*) FROM entries e WHERE e.club_id = h.club_id AND e.hand_id = h.hand_id)
		FROM hands h`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]map[int]storedHand{}
	for rows.Next() {
		var table int64
		var number int
		var facts *string
		var body []byte
		var h storedHand
		if err := rows.Scan(&table, &number, &h.session, &facts, &body, &h.entries); err != nil {
			t.Fatal(err)
		}
		text := []byte(nil)
		if facts != nil {
			text = []byte(*facts)
		} else if text, _, _, err = handpack.Unpack(body); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(text, &h.facts); err != nil {
			t.Fatal(err)
		}
		if out[table] == nil {
			out[table] = map[int]storedHand{}
		}
		if _, dup := out[table][number]; dup {
			t.Errorf("table %d holds hand %d twice", table, number)
		}
		out[table][number] = h
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkLedger checks the database against what the clients sent: every
// acknowledged hand is stored with the facts sent, every stored hand is one
// a client sent (same facts, session), numbers run 1..n, every hand has its
// four entries, and postgres.Verify passes with the service's chain key.
// It returns the hands found and, per client, the stored hands no 2xx
// acknowledged.
func checkLedger(t *testing.T, pool *pgxpool.Pool, key chain.Key, loaders []*loader) (found int, unacked [][]int) {
	t.Helper()
	stored := readStoredHands(t, pool)
	for _, l := range loaders {
		hands := stored[l.table.id]
		found += len(hands)
		var extra []int
		for n := 1; n <= len(hands); n++ {
			h, ok := hands[n]
			if !ok {
				t.Errorf("table %d: %d hands stored but hand %d is missing (a gap)", l.table.id, len(hands), n)
				continue
			}
			body, sent := l.bodies[n]
			if !sent {
				t.Errorf("table %d: hand %d is stored but was never sent", l.table.id, n)
				continue
			}
			var want struct {
				SessionID int64 `json:"session_id"`
				Facts     any   `json:"facts"`
			}
			json.Unmarshal(body, &want)
			if h.session != want.SessionID || !reflect.DeepEqual(h.facts, want.Facts) {
				t.Errorf("table %d, hand %d: stored session %d facts %v, sent session %d facts %v", l.table.id, n, h.session, h.facts, want.SessionID, want.Facts)
			}
			if h.entries != 4 {
				t.Errorf("table %d, hand %d is partial: %d entries, want 4", l.table.id, n, h.entries)
			}
			if !l.acked[n] {
				extra = append(extra, n)
			}
		}
		for n := range l.acked {
			if _, ok := hands[n]; !ok {
				t.Errorf("LOST: table %d, hand %d got a 2xx but is not stored", l.table.id, n)
			}
		}
		unacked = append(unacked, extra)
	}
	if err := postgres.Verify(context.Background(), pool, key, ledger.ZeroSumGames(), nil); err != nil {
		t.Errorf("verify: %v", err)
	}
	return found, unacked
}

// checkFeed checks the change feed once the service has answered every
// retry: numbered 1..head with no gap, nothing left queued, and every
// stored hand's change in it exactly once (a change a killed writer
// committed but did not number is numbered by the restarted service).
func checkFeed(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	var changes, head, queued, hands, handChanges, duplicates int64
	err := pool.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM changes), (SELECT coalesce(sum(change_seq), 0) FROM clubs),
		       (SELECT count(*) FROM change_queue), (SELECT count(*) FROM hands),
		       (SELECT count(*) FROM hands h WHERE EXISTS (SELECT 1 FROM changes c WHERE c.club_id = h.club_id
		            AND c.kind = 'hand_recorded' AND c.table_id = h.table_id AND c.number = h.number)),
		       (SELECT count(*) FROM (SELECT 1 FROM changes WHERE kind = 'hand_recorded'
		            GROUP BY club_id, table_id, number HAVING count(*) > 1) d)`).
		Scan(&changes, &head, &queued, &hands, &handChanges, &duplicates)
	if err != nil {
		t.Fatal(err)
	}
	var gaps int64
	if err := pool.QueryRow(ctx, `
		SELECT count(*) FROM clubs c
		WHERE (SELECT count(*) FROM changes x WHERE x.club_id = c.club_id) <> c.change_seq
		   OR EXISTS (SELECT 1 FROM changes x WHERE x.club_id = c.club_id AND (x.seq < 1 OR x.seq > c.change_seq))`).Scan(&gaps); err != nil {
		t.Fatal(err)
	}
	if gaps != 0 || queued != 0 || handChanges != hands || duplicates != 0 {
		t.Errorf("the feed: %d changes, heads sum %d, %d clubs with a gap, %d queued; %d of %d hands have their change, %d more than once",
			changes, head, gaps, queued, handChanges, hands, duplicates)
	}
}

// checkExactlyOnce checks the end state after the retries: every hand a
// client meant to record is stored, once, and acknowledged, and every hand
// went in through exactly one Idempotency-Key.
func checkExactlyOnce(t *testing.T, pool *pgxpool.Pool, key chain.Key, loaders []*loader) int {
	t.Helper()
	found, unacked := checkLedger(t, pool, key, loaders)
	checkFeed(t, pool)
	intended := 0
	for i, l := range loaders {
		intended += len(l.bodies)
		if l.pending != 0 {
			t.Errorf("table %d: hand %d was never acknowledged", l.table.id, l.pending)
		}
		if len(unacked[i]) > 0 {
			t.Errorf("table %d: hands %v stored but never acknowledged", l.table.id, unacked[i])
		}
		for _, b := range l.bad {
			t.Error(b)
		}
	}
	if found != intended {
		t.Errorf("%d hands stored, the clients meant %d", found, intended)
	}
	var keys int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM idempotency_keys WHERE kind = 'hand'`).Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if keys != found {
		t.Errorf("%d hand idempotency keys for %d hands", keys, found)
	}
	return found
}

func sumLoaders(loaders []*loader, f func(*loader) int) int {
	n := 0
	for _, l := range loaders {
		n += f(l)
	}
	return n
}

func statusCounts(loaders []*loader) string {
	all := map[string]int{}
	for _, l := range loaders {
		for k, v := range l.counts {
			all[k] += v
		}
	}
	var keys []string
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s×%d", k, all[k]))
	}
	return strings.Join(parts, " ")
}

// loadUntil lets the load run for d, and on a slow machine longer (up to
// 10 s), until the clients have had at least 16 hands acknowledged.
func loadUntil(d time.Duration, acked *atomic.Int32) {
	time.Sleep(d)
	for deadline := time.Now().Add(10 * time.Second); acked.Load() < 16 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSIGKILLUnderLoadLosesNothing kills the service with SIGKILL while
// eight clients record hands, restarts it on the same database, checks
// that every acknowledged hand is stored whole, then lets the clients
// retry what was not acknowledged.
func TestSIGKILLUnderLoadLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a service process under load")
	}
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dbURL := pgtest.URL(t)
	apiKey := createClub(t, cmdtest.Env(map[string]string{"DATABASE_URL": dbURL, "LOG_LEVEL": "warn"}))
	svc := startCrashChild(t, dbURL)
	loaders := newLoaders(setupCrashTables(t, svc.base, apiKey, 8), apiKey)

	// Load: each client records hands until the service is gone.
	hc := newCrashHTTPClient()
	defer hc.CloseIdleConnections()
	var wg sync.WaitGroup
	var killed atomic.Bool
	var ackCount atomic.Int32
	loadStart := time.Now()
	for _, l := range loaders {
		wg.Go(func() {
			for range 100000 {
				n, a := l.attempt(ctx, hc, svc.base)
				if a.status >= 200 && a.status < 300 {
					ackCount.Add(1)
					continue
				}
				if !killed.Load() {
					l.flag("hand %d before the kill: %s", n, a)
				}
				return
			}
		})
	}
	loadUntil(time.Second, &ackCount)
	loadFor := time.Since(loadStart)
	killed.Store(true)
	svc.kill(t)
	wg.Wait()

	sent := sumLoaders(loaders, func(l *loader) int { return len(l.bodies) })
	acked := sumLoaders(loaders, func(l *loader) int { return len(l.acked) })
	inDoubt := sumLoaders(loaders, func(l *loader) int { return min(l.pending, 1) })
	if acked == 0 {
		t.Fatalf("no hand was acknowledged before the kill: %s", statusCounts(loaders))
	}
	for _, l := range loaders {
		for _, b := range l.bad {
			t.Error(b)
		}
		l.bad = nil
	}

	// Restart on the same database; nothing acknowledged may be missing.
	if lines := svc.failed.String(); lines != "" {
		t.Errorf("the service logged before the kill:\n%s", lines)
	}
	svc = startCrashChild(t, dbURL)
	pool, err := postgres.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	found, unacked := checkLedger(t, pool, pgtest.ChainKey, loaders)
	for i, l := range loaders {
		// Only the one hand in flight at the kill may be stored unacknowledged.
		if len(unacked[i]) > 1 || (len(unacked[i]) == 1 && unacked[i][0] != l.pending) {
			t.Errorf("table %d: hands %v stored without a 2xx; only the hand in flight (%d) may be", l.table.id, unacked[i], l.pending)
		}
	}
	t.Logf("SIGKILL after %v of load by 8 clients: %d hands sent, %d acknowledged, %d in flight, %d found after the restart (%s)",
		loadFor.Round(time.Millisecond), sent, acked, inDoubt, found, statusCounts(loaders))

	// The clients retry every unacknowledged hand with the same key, then
	// record two more each.
	hc2 := newCrashHTTPClient()
	defer hc2.CloseIdleConnections()
	retried := make([]bool, len(loaders))
	replayed := make([]bool, len(loaders))
	for i, l := range loaders {
		wg.Go(func() {
			for range 3 {
				wasPending := l.pending != 0
				n, a := l.attempt(ctx, hc2, svc.base)
				if a.status < 200 || a.status > 299 {
					l.flag("hand %d after the restart: %s", n, a)
					return
				}
				if !wasPending {
					continue
				}
				retried[i], replayed[i] = true, a.replayed
				if storedBefore := len(unacked[i]) == 1; a.replayed != storedBefore {
					l.flag("retried hand %d: stored before the retry %v, but the answer says replayed %v", n, storedBefore, a.replayed)
				}
			}
		})
	}
	wg.Wait()
	retriedN, replayedN := 0, 0
	for i := range loaders {
		if retried[i] {
			retriedN++
		}
		if replayed[i] {
			replayedN++
		}
	}
	final := checkExactlyOnce(t, pool, pgtest.ChainKey, loaders)
	t.Logf("after the retries: %d hands stored, each once (%d retried with their key, %d of them answered as replays); took %v",
		final, retriedN, replayedN, time.Since(began).Round(time.Millisecond))
	svc.stop(t)
	if lines := svc.failed.String(); lines != "" {
		t.Errorf("the restarted service logged:\n%s", lines)
	}
}

// TestPostgresDownAndBack stops PostgreSQL in immediate mode while eight
// clients record hands, checks that the service answers 503 problem+json
// (never 500) and fails /readyz while the database is down, starts
// PostgreSQL again without restarting the service, and checks that the
// service recovers by itself and the retrying clients end with every hand
// stored exactly once.
func TestPostgresDownAndBack(t *testing.T) {
	if testing.Short() {
		t.Skip("starts, crashes and restarts its own PostgreSQL cluster")
	}
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	dir := t.TempDir()
	// As root the cluster runs as the postgres user, who must reach it.
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	pg, err := cluster.Start(ctx, cluster.Options{DataDir: filepath.Join(dir, "pg"), Command: "the test " + t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	var pgMu sync.Mutex
	t.Cleanup(func() {
		pgMu.Lock()
		defer pgMu.Unlock()
		if err := pg.Stop(); err != nil {
			t.Error(err)
		}
	})
	if err := pg.EnsureDatabase(ctx, "stichbuch"); err != nil {
		t.Fatal(err)
	}
	dbURL := pg.ConnString("stichbuch")
	apiKey := createClub(t, cmdtest.Env(map[string]string{"DATABASE_URL": dbURL, "LOG_LEVEL": "warn"}))
	svc := startCrashChild(t, dbURL)
	loaders := newLoaders(setupCrashTables(t, svc.base, apiKey, 8), apiKey)
	setupTook := time.Since(began)

	// Phases, by the time a request is sent.
	const (
		up        = iota // PostgreSQL runs
		crashing         // pg_ctl stop -m immediate is under way
		down             // PostgreSQL is stopped
		starting         // pg_ctl start (with crash recovery) is under way
		restarted        // PostgreSQL runs again; the service may need a moment
		ready            // /readyz answered 200 again
	)
	var phase atomic.Int32
	var stop atomic.Bool
	var downAnswers, down503, after503, ready503, crash500 atomic.Int32
	firstReady := make([]time.Time, len(loaders)) // per client, the first 2xx to a hand sent once /readyz was 200
	var ackedIn [6]atomic.Int32                   // 2xx answers by the phase their request was sent in
	hc := newCrashHTTPClient()
	defer hc.CloseIdleConnections()
	var wg sync.WaitGroup
	for i, l := range loaders {
		wg.Go(func() {
			for range 100000 {
				if (stop.Load() && l.pending == 0 && !firstReady[i].IsZero()) || ctx.Err() != nil {
					return
				}
				before := phase.Load()
				n, a := l.attempt(ctx, hc, svc.base)
				after := phase.Load()
				whileDown := before == down && after == down
				if whileDown {
					downAnswers.Add(1)
				}
				switch {
				case a.status >= 200 && a.status < 300:
					ackedIn[before].Add(1)
					if before == ready && firstReady[i].IsZero() {
						firstReady[i] = time.Now()
					}
					if whileDown {
						l.flag("hand %d sent and answered while PostgreSQL was down: %s", n, a)
					}
					continue
				case a.status == http.StatusServiceUnavailable:
					if !strings.HasPrefix(a.contentType, "application/problem+json") {
						l.flag("hand %d: 503 with Content-Type %q", n, a.contentType)
					}
					if before == up && after == up {
						l.flag("hand %d sent and answered while PostgreSQL was up: %s", n, a)
					}
					if whileDown {
						down503.Add(1)
					}
					if before >= starting {
						after503.Add(1)
					}
					if before == ready {
						ready503.Add(1)
					}
				case a.status == http.StatusInternalServerError && after >= crashing:
					crash500.Add(1) // judged by the service's log at the end
				default:
					l.flag("hand %d (sent in phase %d, answered in phase %d): %s", n, before, after, a)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}

	loadUntil(800*time.Millisecond, &ackedIn[up])
	phase.Store(crashing)
	crashAt := time.Now()
	pgMu.Lock()
	err = pg.Crash()
	pgMu.Unlock()
	if err != nil {
		cancel()
		wg.Wait()
		t.Fatal(err)
	}
	phase.Store(down)

	// While it is down: /readyz and a hand POST answer 503 problem+json.
	probe := func(method, path string, body []byte) answer {
		return send(ctx, hc, method, svc.base+path, apiKey, "", body)
	}
	readyProbes := 0
	for time.Since(crashAt) < time.Second || readyProbes < 3 {
		a := probe("GET", "/readyz", nil)
		readyProbes++
		if a.status != http.StatusServiceUnavailable || !strings.HasPrefix(a.contentType, "application/problem+json") {
			t.Errorf("GET /readyz while PostgreSQL is down: %s, want 503 problem+json", a)
		}
		time.Sleep(100 * time.Millisecond)
	}
	body, _ := json.Marshal(map[string]any{"session_id": loaders[0].table.session, "number": 1000000, "facts": crashFacts(loaders[0].table.players, 0, 1)})
	if a := probe("POST", fmt.Sprintf("/v1/tables/%d/hands", loaders[0].table.id), body); a.status == http.StatusInternalServerError {
		crash500.Add(1)
	} else if a.status != http.StatusServiceUnavailable || !strings.HasPrefix(a.contentType, "application/problem+json") {
		t.Errorf("POST a hand while PostgreSQL is down: %s, want 503 problem+json", a)
	}
	downFor := time.Since(crashAt)

	// Start PostgreSQL again on the same data directory; the service stays.
	phase.Store(starting)
	pgMu.Lock()
	err = pg.Restart(ctx)
	pgMu.Unlock()
	if err != nil {
		cancel()
		wg.Wait()
		t.Fatalf("restarting PostgreSQL: %v", err)
	}
	if got := pg.ConnString("stichbuch"); got != dbURL {
		t.Errorf("the restarted cluster is at %q, the service knows %q", got, dbURL)
	}
	phase.Store(restarted)
	restartedAt := time.Now()
	var readyAfter time.Duration
	var readyAt time.Time
	for {
		a := probe("GET", "/readyz", nil)
		if a.status == http.StatusOK {
			readyAfter = time.Since(restartedAt)
			readyAt = time.Now()
			phase.Store(ready)
			break
		}
		if time.Since(restartedAt) > 10*time.Second {
			cancel()
			wg.Wait()
			t.Fatalf("/readyz still answers %s 10 s after PostgreSQL is back", a)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(700 * time.Millisecond)
	stop.Store(true)
	wg.Wait()

	if n := downAnswers.Load(); n == 0 || down503.Load() == 0 {
		t.Errorf("hand POSTs while PostgreSQL was down: %d answers, %d of them 503", n, down503.Load())
	}
	// Writes succeed again within a few seconds, for every client.
	var writesAfter time.Duration
	for i, l := range loaders {
		if firstReady[i].IsZero() {
			t.Errorf("table %d: no hand sent after /readyz was 200 again got a 2xx", l.table.id)
		}
		writesAfter = max(writesAfter, firstReady[i].Sub(readyAt))
	}
	if writesAfter > 5*time.Second {
		t.Errorf("the last client's first write after /readyz was 200 took %v", writesAfter)
	}
	pool, err := postgres.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	found := checkExactlyOnce(t, pool, pgtest.ChainKey, loaders)
	sent := sumLoaders(loaders, func(l *loader) int { return len(l.bodies) })
	acked := sumLoaders(loaders, func(l *loader) int { return len(l.acked) })
	replays := sumLoaders(loaders, func(l *loader) int { return l.replays })
	t.Logf("PostgreSQL crashed (immediate) under load by 8 clients, down %v, /readyz 200 again %v after the restart, every client written again %v later: "+
		"%d hands sent, %d acknowledged (%d before the crash, %d during it, %d after the restart), %d found (%d acknowledged as replays of a key); %d hand POSTs answered while down, %d of them 503; %d 503s to hands sent after the restart began, %d of them after /readyz was 200; statuses %s; set-up %v, total %v",
		downFor.Round(time.Millisecond), readyAfter.Round(time.Millisecond), writesAfter.Round(time.Millisecond), sent, acked, ackedIn[up].Load(), ackedIn[crashing].Load(), ackedIn[starting].Load()+ackedIn[restarted].Load()+ackedIn[ready].Load(), found, replays,
		downAnswers.Load(), down503.Load(), after503.Load(), ready503.Load(), statusCounts(loaders), setupTook.Round(time.Millisecond), time.Since(began).Round(time.Millisecond))
	if slices.ContainsFunc(loaders, func(l *loader) bool { return len(l.acked) == 0 }) {
		t.Error("a client got no hand acknowledged")
	}
	svc.stop(t)
	// Never a 500: the service logs the error of each request that failed.
	if n := crash500.Load(); n > 0 || strings.Contains(svc.failed.String(), `msg="request failed"`) || strings.Contains(svc.failed.String(), "panic") {
		t.Errorf("%d hand POSTs answered 500 after the crash began; the service logged:\n%s", n, svc.failed)
	}
}
