package main

// stichbuch-bench failover: two service instances on the HA stack of ha/
// (three Patroni nodes, etcd, HAProxy), many clubs writing through both
// with retrying phones, and four faults while they write: the primary's
// postmaster killed, a planned switchover, the link of one instance cut
// (toxiproxy), one instance killed. Then it checks that nothing
// acknowledged was lost or doubled and prints the windows.

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
)

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
