package main

// stichbuch-bench failover: two service instances on the HA stack of ha/
// (three Patroni nodes, etcd, HAProxy), many clubs writing through both
// with retrying phones, and four faults while they write: the primary's
// postmaster killed, a planned switchover, the link of one instance cut
// (toxiproxy), one instance killed. Then it checks that nothing
// acknowledged was lost or doubled and prints the windows.

import (
	"bufio"
	"context"
	"crypto/rand"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
)

// haFiles are the stack's configuration and its script, written to the
// run's directory so the command works from any working directory.
//
//go:embed ha
var haFiles embed.FS

// The stack's fixed loopback addresses (ha/haproxy.cfg, ha/patroni-*.yml).
const (
	haWriteURL = "postgres://postgres:stichbuch@127.0.0.1:15000/postgres?sslmode=disable"
	haReadURL  = "postgres://postgres:stichbuch@127.0.0.1:15001/postgres?sslmode=disable"
)

var haREST = []string{"127.0.0.1:18008", "127.0.0.1:18009", "127.0.0.1:18010"}

type failoverOptions struct {
	clubs, tables int
	rate          float64       // hands per second per phone
	phase         time.Duration // writing before the first fault and after each
	cut           time.Duration
	bin, dir      string
	jsonOut       bool
}

// failoverResult is what one run saw; --json prints it.
type failoverResult struct {
	Clubs        int            `json:"clubs"`
	Tables       int            `json:"tables"`
	Seconds      float64        `json:"seconds"`
	Acknowledged int            `json:"acknowledged"` // hands answered 201
	Stored       int            `json:"stored"`
	Retried      int            `json:"retried"`    // hands that needed more than one attempt
	Attempts     int            `json:"attempts"`   // requests, retries included
	Statuses     map[string]int `json:"statuses"`   // by instance and answer: "a:201", "b:net"
	Lost         int            `json:"lost"`       // answered 201, not stored
	Duplicated   int            `json:"duplicated"` // stored more than once, or with another id than answered
	Unanswered   int            `json:"unanswered"` // stored, never answered 201
	Gaps         int            `json:"gaps"`       // tables whose numbers are not 1..n
	FeedGaps     int            `json:"feed_gaps"`  // clubs whose change numbers are not 1..n
	FeedMissing  int            `json:"feed_missing"`
	Verify       string         `json:"verify"` // stichbuch verify's last line
	VerifyOK     bool           `json:"verify_ok"`
	ServerErrors int            `json:"server_errors"` // 500s (503 is the promised answer)
	// WrittenAfter is how many hands were answered 201 after the last
	// fault began: the service writes again.
	WrittenAfter int           `json:"written_after_last_fault"`
	Faults       []faultResult `json:"faults"`
	// Latency of the writes outside the faults' windows.
	P50MS float64 `json:"p50_ms"`
	P99MS float64 `json:"p99_ms"`
	// LongestWaitS is the longest a phone waited for one hand's 201, its
	// retries included.
	LongestWaitS float64 `json:"longest_phone_wait_s"`
	// Streams is one event stream per club, held through the faults,
	// reconnecting with Last-Event-ID (on the other instance after an
	// error); StreamsInOrder of them saw exactly the club's changes 1..n
	// in order, nothing missed, nothing twice.
	Streams          int `json:"streams"`
	StreamsInOrder   int `json:"streams_in_order"`
	StreamReconnects int `json:"stream_reconnects"`
	StatsReads       int `json:"stats_reads"` // statistics reads answered 200
	// ReadyzNotReady and ReadyzReady count /readyz's answers, polled on
	// both instances through the run: 503 while no primary is reachable.
	ReadyzNotReady int `json:"readyz_503"`
	ReadyzReady    int `json:"readyz_200"`
	// ReplicaRefused: a store on the read port (a replica) is not ready,
	// as /readyz would say of an instance whose DATABASE_URL reached one.
	ReplicaRefused bool    `json:"replica_not_ready"`
	ReplicaReads   float64 `json:"replica_reads"` // of those, what the replicas answered (the instances' metrics)
}

type faultResult struct {
	Name string `json:"name"`
	At   string `json:"at"`
	// WindowS: from the first failed write after the fault to the moment
	// every phone that failed had its 201 again (0: no write failed).
	WindowS float64 `json:"window_s"`
	Failed  int     `json:"failed_attempts"`
	// LongestFailS is the longest a failed request took to be answered:
	// a quick 503 or a wait up to the service's request bound.
	LongestFailS float64 `json:"longest_failed_request_s"`
}

const failoverUsage = `Usage: stichbuch-bench failover [flags]

Starts the HA stack of cmd/stichbuch-bench/ha (etcd, three Patroni nodes
with PostgreSQL 15, HAProxy; Debian's packages) and two stichbuch serve
instances, one of them behind a toxiproxy link; phones of many clubs write
hands through both, retrying with the same Idempotency-Key. While they
write: kill -9 of the primary's postmaster, a patronictl switchover, the
link cut, one instance killed. Then it checks that every hand answered 201
is stored once, nothing else is, the numbers and the change feed have no
gap, and stichbuch verify passes; it prints the windows.

Flags:
`

func parseFailoverFlags(args []string, stderr io.Writer) (failoverOptions, error) {
	var o failoverOptions
	fs := flag.NewFlagSet("failover", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, failoverUsage); fs.PrintDefaults() }
	fs.IntVar(&o.clubs, "clubs", 20, "clubs")
	fs.IntVar(&o.tables, "tables", 40, "tables, spread over the clubs, one phone each")
	fs.Float64Var(&o.rate, "rate", 2, "hands per second each phone sends at most")
	fs.DurationVar(&o.phase, "phase", 12*time.Second, "writing before the first fault and between faults")
	fs.DurationVar(&o.cut, "cut", 4*time.Second, "how long the link is cut")
	fs.StringVar(&o.bin, "bin", "", "the stichbuch executable (default: beside this one, else go build)")
	fs.StringVar(&o.dir, "dir", "", "directory of the stack's data (default: a new temporary one, removed afterwards)")
	fs.BoolVar(&o.jsonOut, "json", false, "print the result as JSON")
	short := fs.Bool("short", false, "a shorter run for CI: 6 clubs, 12 tables, 6 s phases")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if *short {
		o.clubs, o.tables, o.phase = 6, 12, 6*time.Second
	}
	if o.clubs < 1 || o.tables < o.clubs || o.rate <= 0 || o.phase <= 0 || o.cut <= 0 {
		return o, errors.New("failover: want 1 <= --clubs <= --tables, and positive --rate, --phase and --cut")
	}
	return o, nil
}

// haMissing names the first binary of the stack this machine lacks.
func haMissing() string {
	for _, bin := range []string{"etcd", "etcdctl", "patroni", "patronictl", "haproxy", "setpriv", "curl"} {
		if _, err := exec.LookPath(bin); err != nil {
			return bin
		}
	}
	if _, err := os.Stat("/usr/lib/postgresql/15/bin/postgres"); err != nil {
		return "PostgreSQL 15 (/usr/lib/postgresql/15/bin)"
	}
	return ""
}

func failover(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	o, err := parseFailoverFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if bin := haMissing(); bin != "" {
		return fmt.Errorf("failover: %s is missing (apt-get install patroni python3-etcd etcd-server etcd-client haproxy postgresql-15)", bin)
	}
	ctx, cancel := context.WithTimeout(ctx, 6*o.phase+10*time.Minute)
	defer cancel()
	res, err := runFailover(ctx, o, getenv, log)
	if err != nil {
		return err
	}
	if o.jsonOut {
		if err := printJSON(stdout, res); err != nil {
			return err
		}
	} else {
		printFailover(stdout, res)
	}
	if res.Lost+res.Duplicated+res.Unanswered+res.Gaps+res.FeedGaps+res.FeedMissing+res.ServerErrors > 0 || !res.VerifyOK || res.StreamsInOrder != res.Streams {
		return fmt.Errorf("failover: %d lost, %d duplicated, %d stored unanswered, %d tables with gaps, %d clubs with feed gaps, %d changes missing, %d server errors, verify ok %v, %d of %d streams in order",
			res.Lost, res.Duplicated, res.Unanswered, res.Gaps, res.FeedGaps, res.FeedMissing, res.ServerErrors, res.VerifyOK, res.StreamsInOrder, res.Streams)
	}
	return nil
}

// haStack is the running stack: its directory and stack.sh.
type haStack struct {
	dir, script string
}

func startStack(ctx context.Context, dir string, log *slog.Logger) (*haStack, error) {
	for _, addr := range append([]string{"127.0.0.1:15000", "127.0.0.1:12379"}, haREST...) {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return nil, fmt.Errorf("failover: %s is taken: another stack is running (stack.sh stop DIR)", addr)
		}
	}
	ha := filepath.Join(dir, "ha")
	if err := os.MkdirAll(ha, 0o755); err != nil {
		return nil, err
	}
	err := fs.WalkDir(haFiles, "ha", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := haFiles.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path), b, 0o755)
	})
	if err != nil {
		return nil, err
	}
	s := &haStack{dir: filepath.Join(dir, "stack"), script: filepath.Join(ha, "stack.sh")}
	log.Info("starting the HA stack", "dir", s.dir)
	cmd := exec.CommandContext(ctx, "bash", s.script, "start", s.dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		s.stop()
		return nil, fmt.Errorf("failover: stack.sh start: %v\n%s\n%s", err, out, s.logTails())
	}
	return s, nil
}

func (s *haStack) stop() {
	exec.Command("bash", s.script, "stop", s.dir).Run()
}

// logTails is the end of each daemon's log, for an error.
func (s *haStack) logTails() string {
	var b strings.Builder
	for _, name := range []string{"etcd", "patroni1", "patroni2", "patroni3", "haproxy"} {
		raw, _ := os.ReadFile(filepath.Join(s.dir, name+".log"))
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
		fmt.Fprintf(&b, "--- %s.log\n%s\n", name, strings.Join(lines[max(0, len(lines)-8):], "\n"))
	}
	return b.String()
}

// patroniMember is a node as Patroni's GET /cluster lists it.
type patroniMember struct {
	Name  string `json:"name"`
	Role  string `json:"role"`  // leader, sync_standby, replica
	State string `json:"state"` // running, streaming, ...
	Port  int    `json:"port"`
}

// members asks the nodes' REST APIs for the cluster until one answers.
func (s *haStack) members(ctx context.Context) ([]patroniMember, error) {
	var last error
	for _, addr := range haREST {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/cluster", nil)
		c := &http.Client{Timeout: time.Second}
		res, err := c.Do(req)
		if err != nil {
			last = err
			continue
		}
		var cl struct {
			Members []patroniMember `json:"members"`
		}
		err = json.NewDecoder(res.Body).Decode(&cl)
		res.Body.Close()
		if err == nil {
			return cl.Members, nil
		}
		last = err
	}
	return nil, last
}

// healthy waits until the cluster has a leader, a synchronous standby and
// three running nodes again.
func (s *haStack) healthy(ctx context.Context, within time.Duration) (leader, sync patroniMember, err error) {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		ms, err := s.members(ctx)
		if err == nil {
			running := 0
			leader, sync = patroniMember{}, patroniMember{}
			for _, m := range ms {
				switch m.Role {
				case "leader":
					leader = m
				case "sync_standby":
					sync = m
				}
				if m.State == "running" || m.State == "streaming" {
					running++
				}
			}
			if leader.Name != "" && sync.Name != "" && running == 3 {
				return leader, sync, nil
			}
		}
		select {
		case <-ctx.Done():
			return leader, sync, ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
	}
	return leader, sync, fmt.Errorf("failover: the cluster has no leader with a synchronous standby and three running nodes after %v\n%s", within, s.logTails())
}

// killPostmaster kills -9 the postmaster of node name (pg1, pg2, pg3).
func (s *haStack) killPostmaster(name string) error {
	raw, err := os.ReadFile(filepath.Join(s.dir, name, "data", "postmaster.pid"))
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(raw), "\n", 2)[0]))
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGKILL)
}

func (s *haStack) switchover(ctx context.Context, leader, candidate string) error {
	out, err := exec.CommandContext(ctx, "patronictl", "-c", filepath.Join(filepath.Dir(s.script), "patroni-1.yml"),
		"switchover", "--leader", leader, "--candidate", candidate, "--force").CombinedOutput()
	if err != nil {
		return fmt.Errorf("patronictl switchover: %v\n%s", err, out)
	}
	return nil
}

// instance is one stichbuch serve process.
type instance struct {
	name, base, metrics string
	cmd                 *exec.Cmd
	done                chan error
	logTail             runenv.TailBuffer
	client              *loadClient
	dead                atomic.Bool
}

func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func startInstance(ctx context.Context, name, bin, dbURL, keyFile, data string) (*instance, error) {
	metricsAddr, err := freePort()
	if err != nil {
		return nil, err
	}
	in := &instance{name: name, metrics: metricsAddr, done: make(chan error, 1)}
	in.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--metrics-addr", metricsAddr, "--data", data)
	in.cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "STICHBUCH_READ_DATABASE_URL="+haReadURL,
		"STICHBUCH_CHAIN_KEY_FILE="+keyFile, "STICHBUCH_RATE_LIMIT=0", "LOG_LEVEL=warn")
	out, err := in.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	in.cmd.Stderr = &in.logTail
	if err := in.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { in.done <- in.cmd.Wait() }()
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
	case in.base = <-addr:
		return in, nil
	case err := <-in.done:
		return nil, fmt.Errorf("failover: instance %s ended before listening: %v\n%s", name, err, in.logTail.String())
	case <-time.After(2 * time.Minute):
		in.kill()
		return nil, fmt.Errorf("failover: instance %s did not listen:\n%s", name, in.logTail.String())
	case <-ctx.Done():
		in.kill()
		return nil, ctx.Err()
	}
}

func (in *instance) kill() {
	if in.dead.Swap(true) {
		return
	}
	in.cmd.Process.Kill()
	<-in.done
}

func (in *instance) stop() {
	if in.dead.Swap(true) {
		return
	}
	in.cmd.Process.Signal(os.Interrupt)
	select {
	case <-in.done:
	case <-time.After(20 * time.Second):
		in.cmd.Process.Kill()
		<-in.done
	}
}

// replicaReads reads stichbuch_replica_reads_total from the instance's metrics.
func (in *instance) replicaReads() float64 {
	res, err := http.Get("http://" + in.metrics + "/metrics")
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "stichbuch_replica_reads_total "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}

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

func runFailover(ctx context.Context, o failoverOptions, getenv func(string) string, log *slog.Logger) (*failoverResult, error) {
	dir := o.dir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "stichbuch-failover-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	os.Chmod(dir, 0o755) // the nodes run as the postgres user when root
	stack, err := startStack(ctx, dir, log)
	if err != nil {
		return nil, err
	}
	defer stack.stop()

	bin, removeBin, err := serviceBinary(ctx, o.bin, log)
	if err != nil {
		return nil, err
	}
	defer removeBin()
	keyFile := filepath.Join(dir, "chain.key")
	secret := make([]byte, 32)
	rand.Read(secret)
	if err := os.WriteFile(keyFile, secret, 0o600); err != nil {
		return nil, err
	}

	// Instance a reaches the write port through toxiproxy, b directly.
	tox := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(prometheus.NewRegistry()), zerolog.Nop())
	link := toxiproxy.NewProxy(tox, "a-to-primary", "127.0.0.1:0", "127.0.0.1:15000")
	if err := link.Start(); err != nil {
		return nil, err
	}
	defer link.Stop()
	linkURL := strings.Replace(haWriteURL, "127.0.0.1:15000", link.Listen, 1)

	// Migrate once before the instances (they would under goose's lock too).
	pool, err := postgres.Connect(ctx, haWriteURL)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	if _, err := postgres.Migrate(ctx, pool); err != nil {
		return nil, err
	}
	var insts []*instance
	for i, url := range []string{linkURL, haWriteURL} {
		name := string(rune('a' + i))
		data := filepath.Join(dir, "serve-"+name)
		os.MkdirAll(data, 0o700)
		in, err := startInstance(ctx, name, bin, url, keyFile, data)
		if err != nil {
			return nil, err
		}
		defer in.stop()
		insts = append(insts, in)
	}

	// The clubs, their tables and phones, through instance b.
	admin, err := createLoadClub(ctx, haWriteURL)
	if err != nil {
		return nil, err
	}
	setup := newLoadClient(insts[1].base, admin, o.tables, 20*time.Second)
	for len(setup.clubs) < o.clubs {
		other, err := createLoadClub(ctx, haWriteURL)
		if err != nil {
			return nil, err
		}
		setup.clubs = append(setup.clubs, "Bearer "+other)
	}
	tables, err := setup.setup(ctx, loadOptions{tables: o.tables, games: "doppelkopf"})
	if err != nil {
		return nil, err
	}
	for _, in := range insts {
		// Longer than the service's request bound (15 s): a phone hears
		// the 503 rather than giving up first.
		in.client = newLoadClient(in.base, admin, o.tables, 20*time.Second)
	}

	// One event stream per club, half of them through each instance.
	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	var watchers []*watcher
	var watching sync.WaitGroup
	for i, auth := range setup.clubs {
		w := &watcher{auth: auth, home: i % len(insts)}
		watchers = append(watchers, w)
		watching.Add(1)
		go func() { defer watching.Done(); w.run(watchCtx, insts) }()
	}

	var stop atomic.Bool
	phones := make([]*phone, len(tables))
	var wg sync.WaitGroup
	start := time.Now()
	for i, t := range tables {
		phones[i] = &phone{table: t, auth: setup.phones[i], home: i % len(insts)}
		wg.Add(1)
		go func() { defer wg.Done(); phones[i].run(ctx, insts, setup.runID, o.rate, &stop) }()
	}
	// /readyz of both instances, five times a second.
	var readyOK, readyNot atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		c := &http.Client{Timeout: 5 * time.Second}
		for i := 0; !stop.Load() && ctx.Err() == nil; i++ {
			in := insts[i%len(insts)]
			if res, err := c.Get(in.base + "/readyz"); err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				switch res.StatusCode {
				case http.StatusOK:
					readyOK.Add(1)
				case http.StatusServiceUnavailable:
					readyNot.Add(1)
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	// Statistics readers: one request a second per instance.
	var statsOK atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load() && ctx.Err() == nil; i++ {
			in := insts[i%len(insts)]
			t := tables[i%len(tables)]
			if !in.dead.Load() {
				if status, _, err := in.client.call(ctx, t.auth, http.MethodGet, "/v1/stats/leaderboard", nil, "", false); err == nil && status == http.StatusOK {
					statsOK.Add(1)
				}
			}
			time.Sleep(500 * time.Millisecond)
		}
	}()

	var faults []faultResult
	var faultAt []time.Time
	mark := func(name string) {
		faults = append(faults, faultResult{Name: name, At: time.Since(start).Round(time.Millisecond).String()})
		faultAt = append(faultAt, time.Now())
		log.Info("fault", "name", name)
	}
	sleep := func(d time.Duration) {
		select {
		case <-ctx.Done():
		case <-time.After(d):
		}
	}
	var replicaReadsB float64
	faultErr := func() error {
		sleep(o.phase)
		leader, _, err := stack.healthy(ctx, 2*time.Minute)
		if err != nil {
			return err
		}
		mark("kill -9 of the primary's postmaster (" + leader.Name + ")")
		if err := stack.killPostmaster(leader.Name); err != nil {
			return err
		}
		sleep(o.phase)
		leader, sync, err := stack.healthy(ctx, 2*time.Minute)
		if err != nil {
			return err
		}
		mark("patronictl switchover " + leader.Name + " → " + sync.Name)
		if err := stack.switchover(ctx, leader.Name, sync.Name); err != nil {
			return err
		}
		sleep(o.phase)
		if _, _, err := stack.healthy(ctx, 2*time.Minute); err != nil {
			return err
		}
		mark("link of instance a cut: latency, then timeout, then reset")
		if err := cutLink(ctx, link, o.cut); err != nil {
			return err
		}
		sleep(o.phase)
		replicaReadsB = insts[1].replicaReads()
		mark("kill -9 of instance b")
		insts[1].kill()
		sleep(o.phase)
		return nil
	}()
	stop.Store(true)
	wg.Wait()
	end := time.Now()
	if faultErr != nil {
		return nil, faultErr
	}
	res := &failoverResult{Clubs: o.clubs, Tables: o.tables, Seconds: end.Sub(start).Seconds(), Statuses: map[string]int{}}
	res.StatsReads = int(statsOK.Load())
	res.ReadyzReady, res.ReadyzNotReady = int(readyOK.Load()), int(readyNot.Load())
	if replica, err := postgres.Connect(ctx, haReadURL); err == nil {
		res.ReplicaRefused = ledger.ErrorCode(postgres.New(replica, chain.Key{}).Ping(ctx)) == ledger.EUNAVAILABLE
		replica.Close()
	}
	res.ReplicaReads = insts[0].replicaReads() + replicaReadsB
	summariseFailover(res, phones, faults, faultAt, end)
	if err := checkStored(ctx, pool, res, phones, tables); err != nil {
		return nil, err
	}
	if err := checkStreams(ctx, pool, res, watchers, setup.clubs); err != nil {
		return nil, err
	}
	stopWatching()
	watching.Wait()
	res.Verify, res.VerifyOK = runVerify(ctx, bin, keyFile, dir)
	return res, nil
}

// cutLink degrades instance a's link to the primary, then cuts it: 500 ms
// of latency for a quarter of d, no data at all for half of d (then the
// connections are closed), and every connection reset for the rest.
func cutLink(ctx context.Context, link *toxiproxy.Proxy, d time.Duration) error {
	steps := []struct {
		json string
		hold time.Duration
	}{
		{`{"name":"slow","type":"latency","stream":"downstream","toxicity":1,"attributes":{"latency":500}}`, d / 4},
		{fmt.Sprintf(`{"name":"cut","type":"timeout","stream":"downstream","toxicity":1,"attributes":{"timeout":%d}}`, (d / 2).Milliseconds()), d / 2},
		{`{"name":"reset","type":"reset_peer","stream":"upstream","toxicity":1,"attributes":{"timeout":0}}`, d / 4},
	}
	for _, s := range steps {
		t, err := link.Toxics.AddToxicJson(strings.NewReader(s.json))
		if err != nil {
			return fmt.Errorf("toxiproxy: %w", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(s.hold):
		}
		if err := link.Toxics.RemoveToxic(ctx, t.Name); err != nil {
			return fmt.Errorf("toxiproxy: %w", err)
		}
	}
	return nil
}

// summariseFailover counts the phones' hands and attempts and measures
// each fault's window and the latency outside the windows.
func summariseFailover(res *failoverResult, phones []*phone, faults []faultResult, faultAt []time.Time, end time.Time) {
	type span struct{ from, to time.Time }
	windows := make([]span, len(faults))
	for i := range faults {
		until := end
		if i+1 < len(faultAt) {
			until = faultAt[i+1]
		}
		// A write fails for a fault when its failure is answered after the
		// fault began (a request in flight then counts too), from the
		// later of its start and the fault's.
		var first, last time.Time
		for _, p := range phones {
			for _, a := range p.attempts {
				if strings.HasSuffix(a.status, ":201") || a.end.Before(faultAt[i]) || !a.end.Before(until) {
					continue
				}
				faults[i].Failed++
				from := a.start
				if from.Before(faultAt[i]) {
					from = faultAt[i]
				}
				if first.IsZero() || from.Before(first) {
					first = from
				}
				faults[i].LongestFailS = max(faults[i].LongestFailS, a.end.Sub(a.start).Seconds())
				if a.hand < len(p.hands) {
					if h := p.hands[a.hand]; h.acked && h.answered.After(last) {
						last = h.answered
					}
				}
			}
		}
		if !first.IsZero() && last.After(first) {
			faults[i].WindowS = last.Sub(first).Seconds()
			windows[i] = span{first, last}
		}
	}
	res.Faults = faults
	var outside []time.Duration
	for _, p := range phones {
		for _, a := range p.attempts {
			res.Attempts++
			res.Statuses[a.status]++
			if strings.HasSuffix(a.status, ":500") {
				res.ServerErrors++
			}
			in := false
			for _, w := range windows {
				if !a.end.Before(w.from) && !a.start.After(w.to) {
					in = true
				}
			}
			if !in && strings.HasSuffix(a.status, ":201") {
				outside = append(outside, a.end.Sub(a.start))
			}
			if strings.HasSuffix(a.status, ":201") && len(faultAt) > 0 && a.start.After(faultAt[len(faultAt)-1]) {
				res.WrittenAfter++
			}
		}
		for i, h := range p.hands {
			if !h.acked {
				continue
			}
			res.Acknowledged++
			if wait := h.answered.Sub(h.first).Seconds(); wait > res.LongestWaitS {
				res.LongestWaitS = wait
			}
			tries := 0
			for _, a := range p.attempts {
				if a.hand == i {
					tries++
				}
			}
			if tries > 1 {
				res.Retried++
			}
		}
	}
	l := percentiles(outside)
	res.P50MS, res.P99MS = l.P50, l.P99
}

// checkStored compares what the new primary holds with what the phones
// were answered: every 201 stored once under its id, nothing else stored,
// numbers 1..n, and each club's change feed numbered 1..n with a change
// for every hand.
func checkStored(ctx context.Context, pool *pgxpool.Pool, res *failoverResult, phones []*phone, tables []*loadTable) error {
	for _, p := range phones {
		rows, err := pool.Query(ctx, `SELECT hand_id, number FROM hands WHERE table_id = $1 ORDER BY number, hand_id`, p.table.id)
		if err != nil {
			return err
		}
		stored := map[int][]int64{}
		var numbers []int
		for rows.Next() {
			var id int64
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return err
			}
			stored[n] = append(stored[n], id)
			numbers = append(numbers, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		res.Stored += len(numbers)
		answered := map[int]bool{}
		for _, h := range p.hands {
			if !h.acked {
				continue
			}
			answered[h.number] = true
			ids := stored[h.number]
			switch {
			case len(ids) == 0:
				res.Lost++
			case len(ids) > 1 || ids[0] != h.id:
				res.Duplicated++
			}
		}
		for n := range stored {
			if !answered[n] {
				res.Unanswered++
			}
		}
		for i, n := range numbers {
			if n != i+1 {
				res.Gaps++
				break
			}
		}
	}
	// The feed: numbered by whichever instance commits; give the
	// numbering a moment to catch up with the last commits.
	clubs := map[int64]bool{}
	var ids []int64
	for _, t := range tables {
		var club int64
		if err := pool.QueryRow(ctx, `SELECT club_id FROM tables WHERE table_id = $1`, t.id).Scan(&club); err != nil {
			return err
		}
		if !clubs[club] {
			clubs[club] = true
			ids = append(ids, club)
		}
	}
	slices.Sort(ids)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var queued int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM change_queue WHERE club_id = ANY($1)`, ids).Scan(&queued); err != nil {
			return err
		}
		if queued == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, club := range ids {
		var n, maxSeq, handChanges, hands int64
		if err := pool.QueryRow(ctx, `
			SELECT count(*), coalesce(max(seq), 0),
			       count(*) FILTER (WHERE kind = 'hand_recorded'),
			       (SELECT count(*) FROM hands WHERE club_id = $1)
			FROM changes WHERE club_id = $1`, club).Scan(&n, &maxSeq, &handChanges, &hands); err != nil {
			return err
		}
		if n != maxSeq {
			res.FeedGaps++
		}
		if handChanges != hands {
			res.FeedMissing += int(hands - handChanges)
		}
	}
	return nil
}

// checkStreams waits (up to 30 s) until every club's stream has been sent
// the club's last change, then checks each saw 1..n in order.
func checkStreams(ctx context.Context, pool *pgxpool.Pool, res *failoverResult, watchers []*watcher, clubs []string) error {
	res.Streams = len(watchers)
	deadline := time.Now().Add(30 * time.Second)
	for i, w := range watchers {
		clubID, _, err := keyIDs(strings.TrimPrefix(clubs[i], "Bearer "))
		if err != nil {
			return err
		}
		var maxSeq int64
		if err := pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM changes WHERE club_id = $1`, clubID).Scan(&maxSeq); err != nil {
			return err
		}
		for w.last() < maxSeq && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
		w.mu.Lock()
		inOrder := int64(len(w.seen)) == maxSeq
		for j, id := range w.seen {
			if id != int64(j+1) {
				inOrder = false
				break
			}
		}
		w.mu.Unlock()
		if inOrder {
			res.StreamsInOrder++
		}
		res.StreamReconnects += w.reconnects
	}
	return nil
}

// runVerify runs stichbuch verify against the new primary.
func runVerify(ctx context.Context, bin, keyFile, dir string) (string, bool) {
	cmd := exec.CommandContext(ctx, bin, "verify", "--data", filepath.Join(dir, "verify"))
	cmd.Env = append(os.Environ(), "DATABASE_URL="+haWriteURL, "STICHBUCH_CHAIN_KEY_FILE="+keyFile)
	out, err := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1], err == nil
}

func printFailover(w io.Writer, r *failoverResult) {
	fmt.Fprintf(w, "stichbuch failover: %d clubs, %d tables, two instances, %.0f s\n", r.Clubs, r.Tables, r.Seconds)
	fmt.Fprintf(w, "  hands      %d acknowledged, %d stored, %d retried (%d requests: %v)\n", r.Acknowledged, r.Stored, r.Retried, r.Attempts, r.Statuses)
	fmt.Fprintf(w, "  checks     lost %d, duplicated %d, stored unanswered %d, tables with gaps %d, feed gaps %d, feed missing %d, 500s %d\n",
		r.Lost, r.Duplicated, r.Unanswered, r.Gaps, r.FeedGaps, r.FeedMissing, r.ServerErrors)
	fmt.Fprintf(w, "  verify     %v: %s\n", r.VerifyOK, r.Verify)
	for _, f := range r.Faults {
		fmt.Fprintf(w, "  fault      at %-8s %-62s window %.1f s (%d failed attempts, the longest %.1f s)\n", f.At, f.Name, f.WindowS, f.Failed, f.LongestFailS)
	}
	fmt.Fprintf(w, "  latency    outside the faults p50 %.1f ms, p99 %.1f ms; longest wait of a phone for one hand %.1f s\n", r.P50MS, r.P99MS, r.LongestWaitS)
	fmt.Fprintf(w, "  streams    %d clubs' event streams, %d saw every change in order (%d reconnects)\n", r.Streams, r.StreamsInOrder, r.StreamReconnects)
	fmt.Fprintf(w, "  /readyz    %d × 200, %d × 503 during the faults; a replica is not ready: %v\n", r.ReadyzReady, r.ReadyzNotReady, r.ReplicaRefused)
	fmt.Fprintf(w, "  statistics %d reads answered, %.0f of them by a replica\n", r.StatsReads, r.ReplicaReads)
}
