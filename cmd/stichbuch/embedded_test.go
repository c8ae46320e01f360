package main

// Crash safety of the embedded PostgreSQL (serve without DATABASE_URL): its
// server killed under load and restarted by serve's supervisor; two serve
// on one data directory; the server a killed serve leaves behind; operator
// commands while serve runs; a long data directory path. Every service and
// operator command here is a process of its own (see crashChildEnv), with
// a TMPDIR of its own, so the test sees every directory they leave there.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/cluster"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
)

// embedded is a data directory for serve's own PostgreSQL.
type embedded struct {
	data     string // the data directory
	serveTmp string // TMPDIR of the serve processes: their socket directories go there
	opTmp    string // TMPDIR of the operator commands, which should leave nothing there
}

// newEmbedded makes the directories; a data directory path of pathLen
// characters when pathLen > 0. As root the server runs as postgres, who
// must reach them.
func newEmbedded(t *testing.T, pathLen int) *embedded {
	t.Helper()
	if testing.Short() {
		t.Skip("runs serve with its own PostgreSQL")
	}
	if _, err := cluster.FindBinaries(os.Getenv); err != nil {
		t.Skip(err)
	}
	dir, err := os.MkdirTemp("", "sbt-") // short: TMPDIR below must be short enough for a socket's path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	e := &embedded{data: filepath.Join(dir, "data"), serveTmp: filepath.Join(dir, "serve-tmp"), opTmp: filepath.Join(dir, "op-tmp")}
	if pathLen > 0 {
		e.data = dir + "/" + strings.Repeat("d", pathLen-len(dir)-1)
	}
	for _, d := range []string{e.serveTmp, e.opTmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e *embedded) env(tmp string) []string {
	return []string{"DATABASE_URL=", "STICHBUCH_DATA=", "XDG_RUNTIME_DIR=", "TMPDIR=" + tmp}
}

// spawn starts a serve on the data directory without waiting for it.
func (e *embedded) spawn(t *testing.T, args ...string) *crashChild {
	return spawnServe(t, e.env(e.serveTmp), append([]string{"--data", e.data}, args...)...)
}

// serve starts a serve on the data directory and waits until it listens,
// with its socket directory in its TMPDIR, where the test sees it.
func (e *embedded) serve(t *testing.T, args ...string) *crashChild {
	t.Helper()
	c := e.spawn(t, args...)
	c.waitListening(t)
	if h := e.holder(t); filepath.Dir(h.SocketDir) != e.serveTmp {
		t.Fatalf("serve's socket directory is %q, want one in %s", h.SocketDir, e.serveTmp)
	}
	return c
}

// operator runs an operator command on the data directory in a process of
// its own and returns its output.
func (e *embedded) operator(t *testing.T, args ...string) (string, error) {
	t.Helper()
	argv, _ := json.Marshal(append(args, "--data", e.data))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(append(os.Environ(), crashChildEnv+"=1", crashArgsEnv+"="+string(argv), "LOG_LEVEL=warn"), e.env(e.opTmp)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// chainKey is the chain key serve created in the data directory.
func (e *embedded) chainKey(t *testing.T) chain.Key {
	t.Helper()
	key, err := runenv.ChainKey(cmdtest.Env(nil), e.data, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// getenv is the environment of an operator command run in this process.
func (e *embedded) getenv() func(string) string {
	return cmdtest.Env(map[string]string{"PATH": os.Getenv("PATH"), "TMPDIR": e.opTmp, "LOG_LEVEL": "warn"})
}

// holder reads the lock file's record.
func (e *embedded) holder(t *testing.T) cluster.Holder {
	t.Helper()
	var h cluster.Holder
	b, err := os.ReadFile(filepath.Join(e.data, cluster.LockFile))
	if err == nil {
		err = json.Unmarshal(b, &h)
	}
	if err != nil {
		t.Fatalf("reading the lock file: %v", err)
	}
	return h
}

// pool connects to the database of the serve that holds the lock.
func (e *embedded) pool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	h := e.holder(t)
	pool, err := postgres.Connect(context.Background(), fmt.Sprintf("host=%s port=5432 user=%s dbname=stichbuch sslmode=disable", h.SocketDir, cluster.Superuser))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// postmaster returns the server's pid from its postmaster.pid (in pg/, or
// at the top of a data directory from before the lock), 0 without one.
func (e *embedded) postmaster() int {
	for _, dir := range []string{filepath.Join(e.data, "pg"), e.data} {
		if b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid")); err == nil {
			line, _, _ := strings.Cut(string(b), "\n")
			pid, _ := strconv.Atoi(line)
			return pid
		}
	}
	return 0
}

// noTempDirs checks that neither the services nor the operator commands
// left anything in their TMPDIR.
func (e *embedded) noTempDirs(t *testing.T) {
	t.Helper()
	for _, dir := range []string{e.serveTmp, e.opTmp} {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("%s holds %d entries after the run (%s …), want none", dir, len(entries), entries[0].Name())
		}
	}
}

// processGone reports whether process pid has ended (a zombie has).
func processGone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == syscall.ESRCH
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "Z")
}

// waitGone waits until process pid has ended.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !processGone(pid); {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still runs", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readyz polls /readyz until it answers want (or the time is up).
func readyz(t *testing.T, hc *http.Client, base string, want int, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		a := send(context.Background(), hc, "GET", base+"/readyz", "", "", nil)
		if a.status == want {
			if want == http.StatusServiceUnavailable && !strings.HasPrefix(a.contentType, "application/problem+json") {
				t.Errorf("/readyz: 503 with Content-Type %q", a.contentType)
			}
			return time.Since(start)
		}
		if time.Since(start) > within {
			t.Fatalf("/readyz still answers %s after %v, want %d", a, within, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The phases of recoveryLoad, by the time a request is sent.
const (
	up     = iota // the server runs
	killed        // SIGKILL sent
	ready         // /readyz answered 200 again
)

// recoveryLoad is the load of TestPostmasterKilledUnderLoadRecovers: each
// client records hands until stop (and its pending hand is acknowledged),
// sending a hand answered 503 again with its key after a pause.
type recoveryLoad struct {
	phase     atomic.Int32
	ackedUp   atomic.Int32 // 2xx to hands sent while the server ran
	backAfter atomic.Int32 // clients with a 2xx to a hand sent once /readyz was 200 again
	stop      atomic.Bool
	wg        sync.WaitGroup
}

func (r *recoveryLoad) start(ctx context.Context, hc *http.Client, base string, loaders []*loader) {
	for _, l := range loaders {
		r.wg.Go(func() {
			written := false
			for ctx.Err() == nil && !(r.stop.Load() && l.pending == 0) {
				before := r.phase.Load()
				n, a := l.attempt(ctx, hc, base)
				switch {
				case a.status >= 200 && a.status < 300:
					if before == up {
						r.ackedUp.Add(1)
					}
					if before == ready && !written {
						written = true
						r.backAfter.Add(1)
					}
				case a.status == http.StatusServiceUnavailable && strings.HasPrefix(a.contentType, "application/problem+json"):
					if before == up && r.phase.Load() == up {
						l.flag("hand %d sent and answered while the server was up: %s", n, a)
					}
					time.Sleep(20 * time.Millisecond) // a client's pause before it retries
				default:
					l.flag("hand %d (sent in phase %d): %s", n, before, a)
				}
			}
		})
	}
}

// TestPostmasterKilledUnderLoadRecovers kills the embedded PostgreSQL's
// server with SIGKILL while eight clients record hands: serve's supervisor
// starts it again, /readyz answers 503 and then 200 without a restart of
// the service, the clients' retries with their Idempotency-Keys end with
// every hand stored exactly once, and `stichbuch verify` passes. The
// metrics count the restart.
func TestPostmasterKilledUnderLoadRecovers(t *testing.T) {
	began := time.Now()
	e := newEmbedded(t, 0)
	svc := e.serve(t, "--metrics-addr", "127.0.0.1:0")
	apiKey := createClub(t, e.getenv(), "--data", e.data)
	loaders := newLoaders(setupCrashTables(t, svc.base, apiKey, 8), apiKey)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	hc := newCrashHTTPClient()
	defer hc.CloseIdleConnections()

	r := &recoveryLoad{}
	r.start(ctx, hc, svc.base, loaders)
	loadUntil(800*time.Millisecond, &r.ackedUp)
	old := e.postmaster()
	r.phase.Store(killed)
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatalf("SIGKILL to the postmaster %d: %v", old, err)
	}
	waitGone(t, old, "the killed postmaster")
	down := readyz(t, hc, svc.base, http.StatusServiceUnavailable, 10*time.Second)
	back := readyz(t, hc, svc.base, http.StatusOK, time.Minute)
	if _, f := scrape(t, metricsURL(t, service{out: svc.stdout})); value(f, "stichbuch_embedded_postgres_restarts_total") != 1 {
		t.Errorf("stichbuch_embedded_postgres_restarts_total = %v after one restart", value(f, "stichbuch_embedded_postgres_restarts_total"))
	}
	r.phase.Store(ready)
	for deadline := time.Now().Add(30 * time.Second); r.backAfter.Load() < int32(len(loaders)) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	r.stop.Store(true)
	r.wg.Wait()
	if n := r.backAfter.Load(); n < int32(len(loaders)) {
		t.Errorf("%d of %d clients wrote again after /readyz was 200", n, len(loaders))
	}

	found := checkExactlyOnce(t, e.pool(t), e.chainKey(t), loaders)
	if out, err := e.operator(t, "verify"); err != nil || !strings.Contains(out, "the ledger is whole") {
		t.Errorf("stichbuch verify while serve runs: %v\n%s", err, out)
	}
	now := e.holder(t)
	if now.Postmaster == 0 || now.Postmaster == old || now.State != cluster.StateReady {
		t.Errorf("after the restart the lock file says %+v (the killed postmaster was %d)", now, old)
	}
	log := svc.pgLog.String()
	if !strings.Contains(log, "PostgreSQL ended unexpectedly; restarting it") || !strings.Contains(log, "PostgreSQL restarted") {
		t.Errorf("the service's log does not tell of the restart:\n%s", log)
	}
	svc.stop(t)
	if lines := svc.failed.String(); lines != "" {
		t.Errorf("the service logged:\n%s", lines)
	}
	waitGone(t, now.Postmaster, "the restarted postmaster")
	e.noTempDirs(t)
	t.Logf("the service's log of PostgreSQL:\n%s", log)
	t.Logf("postmaster killed under load by 8 clients: /readyz 503 %v after the kill, 200 again %v later; %d hands acknowledged before the kill, %d stored in all, each once (%s); took %v",
		down.Round(time.Millisecond), back.Round(time.Millisecond), r.ackedUp.Load(), found, statusCounts(loaders), time.Since(began).Round(time.Millisecond))
}

// raceServes starts two serve on the data directory at once and returns
// the one that serves and the one that refused, once the first listens and
// the second has ended.
func (e *embedded) raceServes(t *testing.T) (winner, loser *crashChild) {
	t.Helper()
	a, b := e.spawn(t), e.spawn(t)
	for deadline := time.Now().Add(time.Minute); ; {
		switch {
		case a.ended() && b.ended():
			t.Fatalf("both serve ended:\n%s\n---\n%s", a.stderr, b.stderr)
		case a.listening() != "" && b.listening() != "":
			t.Fatal("both serve listen on the same data directory")
		case a.listening() != "" && b.ended():
			return a, b
		case b.listening() != "" && a.ended():
			return b, a
		case time.Now().After(deadline):
			t.Fatalf("after a minute: listening %q and %q, ended %v and %v:\n%s\n---\n%s", a.listening(), b.listening(), a.ended(), b.ended(), a.stderr, b.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTwoServesOnOneDataDirectory starts two serve at once on a new data
// directory, and again on the existing one: each time one serves and the
// other refuses, naming the first and its pid; the hands recorded are all
// there the second time, and the data directory holds one whole cluster.
func TestTwoServesOnOneDataDirectory(t *testing.T) {
	e := newEmbedded(t, 0)
	var loaders []*loader
	for round, dir := range []string{"a new data directory", "the existing data directory"} {
		winner, loser := e.raceServes(t)
		want := fmt.Sprintf(`is in use by "stichbuch serve" (pid %d`, winner.cmd.Process.Pid)
		if msg := loser.stderr.String(); loser.err == nil || !strings.Contains(msg, want) || !strings.Contains(msg, "a second serve on the same data directory is refused") {
			t.Errorf("%s: the second serve exited with %v, want exit 1 and a message that says %q:\n%s", dir, loser.err, want, msg)
		}
		if round == 0 {
			key := createClub(t, e.getenv(), "--data", e.data)
			loaders = newLoaders(setupCrashTables(t, winner.base, key, 2), key)
			hc := newCrashHTTPClient()
			for _, l := range loaders {
				for range 5 {
					if _, a := l.attempt(context.Background(), hc, winner.base); a.status != http.StatusCreated {
						t.Fatalf("recording a hand: %s", a)
					}
				}
			}
			hc.CloseIdleConnections()
		} else if found := checkExactlyOnce(t, e.pool(t), e.chainKey(t), loaders); found != 10 {
			t.Errorf("%d hands stored, want the 10 recorded before", found)
		}
		winner.stop(t)
	}
	entries, _ := os.ReadDir(e.data)
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	if !slices.Equal(names, []string{runenv.ChainKeyFileName, "pg", "server.log", cluster.LockFile}) {
		t.Errorf("the data directory holds %v", names)
	}
	if _, err := os.Stat(filepath.Join(e.data, "pg", "PG_VERSION")); err != nil {
		t.Error(err)
	}
	e.noTempDirs(t)
}

// TestServeKilledLeavesNoOrphanPostgres kills serve with SIGKILL, which
// leaves its PostgreSQL server running; the next serve on the data
// directory stops that server (and says so) before it starts its own, and
// stops its own when it stops: no postgres process is left.
func TestServeKilledLeavesNoOrphanPostgres(t *testing.T) {
	e := newEmbedded(t, 0)
	first := e.serve(t)
	orphan := e.postmaster()
	first.kill(t)
	if orphan == 0 || processGone(orphan) {
		t.Fatalf("the postmaster (pid %d) did not outlive the killed serve; nothing to test", orphan)
	}
	second := e.serve(t)
	waitGone(t, orphan, "the postmaster the killed serve left")
	want := fmt.Sprintf(`stopped the PostgreSQL server left running on the data directory by \"stichbuch serve\" (pid %d)`, first.cmd.Process.Pid)
	if log := second.pgLog.String(); !strings.Contains(log, want) {
		t.Errorf("the second serve's log does not say %q:\n%s", want, log)
	}
	own := e.postmaster()
	if own == 0 || own == orphan {
		t.Fatalf("the second serve's postmaster is %d", own)
	}
	call(t, "GET", second.base+"/readyz", "", nil, http.StatusOK)
	second.stop(t)
	waitGone(t, own, "the second serve's postmaster")
	e.noTempDirs(t)
}

// TestOperatorCommandsWhileServing runs verify and export while serve runs,
// on a data directory path of 120 characters: they use serve's server
// through its socket, leave no directory behind, and serve goes on.
func TestOperatorCommandsWhileServing(t *testing.T) {
	e := newEmbedded(t, 120)
	if len(e.data) != 120 {
		t.Fatalf("a data directory path of %d characters", len(e.data))
	}
	svc := e.serve(t)
	key := createClub(t, e.getenv(), "--data", e.data)
	loaders := newLoaders(setupCrashTables(t, svc.base, key, 1), key)
	hc := newCrashHTTPClient()
	defer hc.CloseIdleConnections()
	record := func(n int) {
		for range n {
			if _, a := loaders[0].attempt(context.Background(), hc, svc.base); a.status != http.StatusCreated {
				t.Fatalf("recording a hand: %s", a)
			}
		}
	}
	record(3)
	start := time.Now()
	if out, err := e.operator(t, "verify"); err != nil || !strings.Contains(out, "the ledger is whole") {
		t.Fatalf("verify while serve runs: %v\n%s", err, out)
	}
	verifyTook := time.Since(start)
	file := filepath.Join(t.TempDir(), "club.ndjson")
	if out, err := e.operator(t, "export", "--club", "1", "--out", file); err != nil {
		t.Fatalf("export while serve runs: %v\n%s", err, out)
	}
	if tables, hands, err := countExport(file); err != nil || tables != 1 || hands != 3 {
		t.Errorf("the export holds %d tables and %d hands (%v), want 1 and 3", tables, hands, err)
	}
	record(2) // serve's server is still there
	checkExactlyOnce(t, e.pool(t), e.chainKey(t), loaders)
	svc.stop(t)
	e.noTempDirs(t)
	t.Logf("verify took %v while serve ran", verifyTook.Round(time.Millisecond))
}

// countExport counts the tables and hands of the export document in file.
func countExport(file string) (tables, hands int, err error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	rd := backup.NewReader(f)
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return tables, hands, nil
		}
		if err != nil {
			return tables, hands, err
		}
		if rec.Table != nil {
			tables++
		}
		if rec.Hand != nil {
			hands++
		}
	}
}
