package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// testDir returns a new directory the server's user can reach (as root
// the server runs as postgres) and a getenv whose TMPDIR is a directory of
// its own, so that the test sees every socket directory the cluster makes.
func testDir(t *testing.T) (dir string, tmp string, getenv func(string) string) {
	t.Helper()
	if _, err := FindBinaries(os.Getenv); err != nil {
		t.Skip(err)
	}
	dir, err := os.MkdirTemp("", "sbt-") // short: tmp below must be short enough for a socket's path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	tmp = filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, tmp, func(k string) string {
		switch k {
		case "TMPDIR":
			return tmp
		case "XDG_RUNTIME_DIR":
			return ""
		}
		return os.Getenv(k)
	}
}

// start starts a cluster and stops it when the test ends.
func start(t *testing.T, opts Options) *Cluster {
	t.Helper()
	c, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	if _, joined := c.Joined(); !joined && opts.Getenv != nil && filepath.Dir(c.SocketDir()) != opts.Getenv("TMPDIR") {
		t.Fatalf("socket directory %s, want one in TMPDIR %s", c.SocketDir(), opts.Getenv("TMPDIR"))
	}
	return c
}

func ping(t *testing.T, c *Cluster) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.ConnString("postgres"))
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	conn.Close(ctx)
}

func isEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	if len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("%s holds %v, want nothing", dir, names)
	}
}

// TestSecondStartIsRefused: a second Start on a running cluster's data
// directory, in this process or another, gets an InUseError naming the
// holder, and with Join uses the server only when the holder shares it.
func TestSecondStartIsRefused(t *testing.T) {
	t.Parallel()
	dir, tmp, getenv := testDir(t)
	data := filepath.Join(dir, "data")
	a := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv, Command: "stichbuch verify"})
	for _, join := range []bool{false, true} {
		_, err := Start(context.Background(), Options{DataDir: data, Ephemeral: true, Getenv: getenv, Command: "stichbuch export", Join: join})
		var inUse *InUseError
		if !errors.As(err, &inUse) || inUse.Holder.PID != os.Getpid() || inUse.Holder.Command != "stichbuch verify" || inUse.Holder.Shared {
			t.Fatalf("second Start (join %v): %v, want an InUseError naming pid %d and stichbuch verify", join, err, os.Getpid())
		}
		if want := `is in use by "stichbuch verify" (pid ` + strconv.Itoa(os.Getpid()); !strings.Contains(err.Error(), want) {
			t.Errorf("the message %q does not say %q", err, want)
		}
	}
	ping(t, a)
	if err := a.Stop(); err != nil {
		t.Fatal(err)
	}
	isEmpty(t, tmp)
	b := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv})
	ping(t, b)
}

// TestJoinSharedServer: with Join, a second Start uses the server a shared
// holder runs, through its socket, and stopping it leaves that server up.
func TestJoinSharedServer(t *testing.T) {
	t.Parallel()
	dir, tmp, getenv := testDir(t)
	data := filepath.Join(dir, "data")
	a := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv, Command: "stichbuch serve", Shared: true})
	_, err := Start(context.Background(), Options{DataDir: data, Ephemeral: true, Getenv: getenv, Command: "stichbuch serve"})
	var inUse *InUseError
	if !errors.As(err, &inUse) || !inUse.Holder.Shared || inUse.Holder.SocketDir != a.SocketDir() {
		t.Fatalf("Start without Join: %v, want an InUseError of a shared holder", err)
	}
	b, err := Start(context.Background(), Options{DataDir: data, Getenv: getenv, Command: "stichbuch verify", Join: true})
	if err != nil {
		t.Fatal(err)
	}
	if h, joined := b.Joined(); !joined || h.PID != os.Getpid() || b.ConnString("x") != a.ConnString("x") || b.Postmaster() != a.Postmaster() {
		t.Fatalf("joined %v (holder %+v), conn %q, want %q", joined, h, b.ConnString("x"), a.ConnString("x"))
	}
	ping(t, b)
	if err := b.Stop(); err != nil {
		t.Fatal(err)
	}
	ping(t, a)
	if entries, _ := os.ReadDir(tmp); len(entries) != 1 {
		t.Errorf("%d socket directories, want the holder's one", len(entries))
	}
}

// TestJoinWaitsForTheHolder: a Start with Join while the shared holder's
// server is down waits, and uses it once it is back; and one that is
// waiting when the holder stops runs the cluster itself.
func TestJoinWaitsForTheHolder(t *testing.T) {
	t.Parallel()
	dir, _, getenv := testDir(t)
	data := filepath.Join(dir, "data")
	a := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv, Command: "stichbuch serve", Shared: true})
	join := func() chan *Cluster {
		got := make(chan *Cluster, 1)
		go func() {
			c, err := Start(context.Background(), Options{DataDir: data, Ephemeral: true, Getenv: getenv, Command: "stichbuch verify", Join: true})
			if err != nil {
				t.Error(err)
			}
			got <- c
		}()
		return got
	}
	if err := a.Crash(); err != nil {
		t.Fatal(err)
	}
	waiting := join()
	if err := a.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b := <-waiting; b != nil {
		if _, joined := b.Joined(); !joined {
			t.Error("the waiting Start did not join the restarted server")
		}
		ping(t, b)
	}

	if err := a.Crash(); err != nil {
		t.Fatal(err)
	}
	waiting = join()
	a.Stop()
	if b := <-waiting; b != nil {
		defer b.Stop()
		if _, joined := b.Joined(); joined {
			t.Error("the waiting Start joined a holder that has stopped")
		}
		ping(t, b)
	}
}

// TestLongDataDirectory: a data directory path of 120 characters works
// (the socket is elsewhere), and nothing is left in TMPDIR after Stop.
func TestLongDataDirectory(t *testing.T) {
	t.Parallel()
	dir, tmp, getenv := testDir(t)
	data := dir + "/" + strings.Repeat("d", 120-len(dir)-1)
	if len(data) != 120 {
		t.Fatalf("path of %d characters", len(data))
	}
	c := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv})
	if !strings.HasPrefix(c.SocketDir(), tmp+"/"+socketPrefix) {
		t.Errorf("socket directory %s, want one in %s", c.SocketDir(), tmp)
	}
	if info, err := os.Stat(c.SocketDir()); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("socket directory: %v, %v; want mode 0700", info.Mode(), err)
	}
	ping(t, c)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	isEmpty(t, tmp)
}

// TestConcurrentStartsOnANewDirectory: many Starts at once on a directory
// that does not exist yet: one runs the cluster, every other gets an
// InUseError, and the directory holds one whole cluster.
func TestConcurrentStartsOnANewDirectory(t *testing.T) {
	t.Parallel()
	dir, tmp, getenv := testDir(t)
	data := filepath.Join(dir, "data")
	const n = 6
	var wg sync.WaitGroup
	var mu sync.Mutex
	var owners []*Cluster
	refused := 0
	for range n {
		wg.Go(func() {
			c, err := Start(context.Background(), Options{DataDir: data, Ephemeral: true, Getenv: getenv})
			mu.Lock()
			defer mu.Unlock()
			var inUse *InUseError
			switch {
			case err == nil:
				owners = append(owners, c)
			case errors.As(err, &inUse):
				refused++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for _, c := range owners {
		ping(t, c)
		c.Stop()
	}
	if len(owners) != 1 || refused != n-1 {
		t.Fatalf("%d owners and %d refusals, want 1 and %d", len(owners), refused, n-1)
	}
	if !owners[0].Initialized {
		t.Error("the owner did not run initdb")
	}
	entries, _ := os.ReadDir(data)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "pg server.log stichbuch.lock" {
		t.Errorf("the data directory holds %v", names)
	}
	isEmpty(t, tmp)
	c := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv})
	if c.Initialized {
		t.Error("the second start ran initdb again")
	}
	ping(t, c)
}

// TestInterruptedInitdbIsCleanedUp: the work directory of an initdb that
// was killed is removed under the lock, and a directory with something
// else in it is refused, not initialized over.
func TestInterruptedInitdbIsCleanedUp(t *testing.T) {
	t.Parallel()
	dir, _, getenv := testDir(t)
	data := filepath.Join(dir, "data")
	os.MkdirAll(filepath.Join(data, initdbPrefix+"123", "base"), 0o700)
	os.WriteFile(filepath.Join(data, initdbPrefix+"123", "PG_VERSION"), []byte("15\n"), 0o600)
	c := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv})
	if !exists(filepath.Join(data, "pg", "PG_VERSION")) || exists(filepath.Join(data, initdbPrefix+"123")) {
		t.Error("want pg and no initdb work directory")
	}
	c.Stop()

	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o700)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o600)
	_, err := Start(context.Background(), Options{DataDir: other, Ephemeral: true, Getenv: getenv})
	if err == nil || !strings.Contains(err.Error(), `holds "notes.txt" but no PostgreSQL cluster`) {
		t.Fatalf("Start on a directory of other files: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(other, "notes.txt")); err != nil || string(b) != "mine" {
		t.Error("the directory's file was touched")
	}
}

// TestSupervisorRestartsAKilledServer: the server killed with SIGKILL is
// started again on the same socket, and committed data is there.
func TestSupervisorRestartsAKilledServer(t *testing.T) {
	t.Parallel()
	dir, _, getenv := testDir(t)
	logs := newLogFile(t)
	c := start(t, Options{DataDir: filepath.Join(dir, "data"), Getenv: getenv, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.ConnString("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	old := c.Postmaster()
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var n int
	for {
		if pid := c.Postmaster(); pid != 0 && pid != old {
			if conn, err := pgx.Connect(ctx, c.ConnString("postgres")); err == nil {
				err = conn.QueryRow(ctx, "SELECT n FROM kept").Scan(&n)
				conn.Close(ctx)
				if err != nil {
					t.Fatal(err)
				}
				break
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("the server did not come back:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n != 42 {
		t.Errorf("read %d, want 42", n)
	}
	if r := c.Restarts(); r != 1 {
		t.Errorf("Restarts() = %d after one restart", r)
	}
	if !strings.Contains(logs.String(), "PostgreSQL ended unexpectedly; restarting it") || !strings.Contains(logs.String(), "PostgreSQL restarted") {
		t.Errorf("the log does not tell of the restart:\n%s", logs.String())
	}
	h, _ := readHolder(filepath.Join(dir, "data"))
	if h.State != StateReady || h.Postmaster != c.Postmaster() {
		t.Errorf("the lock file says %+v", h)
	}
}

// TestLeftoverServerIsStopped: a server running on the cluster while no
// process holds the lock (its process was killed) is stopped, with a log
// line, before Start runs its own.
func TestLeftoverServerIsStopped(t *testing.T) {
	t.Parallel()
	dir, tmp, getenv := testDir(t)
	data := filepath.Join(dir, "data")
	c := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv, Command: "stichbuch serve"})
	socket := c.SocketDir()
	// What a SIGKILL of the holder leaves: the server runs on, the lock is
	// free and the record stays. Let the server go on without its supervisor
	// and drop the lock without the record's last word.
	leftover := c.sup.halt()
	c.sup = nil
	c.lock.f.Close()
	c.stopped = true
	logs := newLogFile(t)
	d := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	select {
	case <-leftover.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the left-over server still runs")
	}
	if !strings.Contains(logs.String(), `stopped the PostgreSQL server left running on the data directory by \"stichbuch serve\" (pid `+strconv.Itoa(os.Getpid())+`)`) {
		t.Errorf("no log line of the stop:\n%s", logs.String())
	}
	if exists(socket) {
		t.Errorf("the left-over server's socket directory %s is still there", socket)
	}
	ping(t, d)
	d.Stop()
	isEmpty(t, tmp)
}

// TestFailedStartLeavesNothing: when the server does not start, Start
// removes its socket directory and releases the lock.
func TestFailedStartLeavesNothing(t *testing.T) {
	t.Parallel()
	dir, tmp, getenv := testDir(t)
	data := filepath.Join(dir, "data")
	c := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv})
	c.Stop()
	conf := filepath.Join(data, "pg", "postgresql.auto.conf")
	good, _ := os.ReadFile(conf)
	os.WriteFile(conf, append(good, "shared_buffers = 'lots'\n"...), 0o600)
	_, err := Start(context.Background(), Options{DataDir: data, Ephemeral: true, Getenv: getenv})
	if err == nil || !strings.Contains(err.Error(), "shared_buffers") {
		t.Fatalf("Start with a broken setting: %v, want the server's complaint", err)
	}
	isEmpty(t, tmp)
	os.WriteFile(conf, good, 0o600)
	ping(t, start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv}))
}

// logFile is a log the test reads while the cluster's supervisor writes
// it: a file, which takes concurrent writes as they come.
type logFile struct{ *os.File }

func newLogFile(t *testing.T) logFile {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return logFile{f}
}

func (l logFile) String() string {
	b, _ := os.ReadFile(l.Name())
	return string(b)
}

// TestSocketBase: the socket directory goes under XDG_RUNTIME_DIR, else
// TMPDIR, else /tmp, skipping bases too long for a socket's path.
func TestSocketBase(t *testing.T) {
	short := t.TempDir()
	os.Chmod(filepath.Dir(short), 0o755)
	os.Chmod(short, 0o755)
	long := filepath.Join(short, strings.Repeat("x", maxSocketBase-len(short)-1)) // maxSocketBase bytes
	os.Mkdir(long, 0o755)
	c := &Cluster{cred: nil}
	if os.Geteuid() == 0 {
		c.cred, _ = serverCredential()
	}
	for _, tc := range []struct{ xdg, tmp, want string }{
		{short, long, short},
		{long + "/", short, short}, // 1 byte too long
		{"", long, long},
		{"", "relative", "/tmp"},
		{"/nonexistent", "", "/tmp"},
	} {
		getenv := func(k string) string { return map[string]string{"XDG_RUNTIME_DIR": tc.xdg, "TMPDIR": tc.tmp}[k] }
		if err := c.makeSocketDir(getenv); err != nil {
			t.Fatal(err)
		}
		os.Remove(c.socketDir)
		if got := filepath.Dir(c.socketDir); got != tc.want {
			t.Errorf("XDG_RUNTIME_DIR %q, TMPDIR %q: socket directory in %s, want %s", tc.xdg, tc.tmp, got, tc.want)
		}
		if len(c.socketDir)+len("/"+socketFileName) > 107 {
			t.Errorf("socket path of %d bytes", len(c.socketDir)+len("/"+socketFileName))
		}
	}
}

// TestEnsureDatabaseAtOnce: processes that ensure the same new database at
// the same moment all succeed, and it exists once.
func TestEnsureDatabaseAtOnce(t *testing.T) {
	t.Parallel()
	dir, _, getenv := testDir(t)
	c := start(t, Options{DataDir: filepath.Join(dir, "data"), Ephemeral: true, Getenv: getenv})
	for round := range 5 {
		name := fmt.Sprintf("club_%d", round)
		errs := make([]error, 6)
		var wg sync.WaitGroup
		begin := make(chan struct{})
		for i := range errs {
			wg.Go(func() {
				<-begin
				errs[i] = c.EnsureDatabase(context.Background(), name)
			})
		}
		close(begin)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d, caller %d: %v", round, i, err)
			}
		}
	}
}

// TestReapStopsWhatADeadHolderLeft: Reap leaves a cluster whose holder
// runs alone, and stops the server a dead holder left running.
func TestReapStopsWhatADeadHolderLeft(t *testing.T) {
	t.Parallel()
	dir, _, getenv := testDir(t)
	data := filepath.Join(dir, "data")
	c := start(t, Options{DataDir: data, Ephemeral: true, Getenv: getenv, Command: "go test (pgtest)"})
	ctx := context.Background()
	if abandoned, err := Reap(ctx, Options{DataDir: data, Getenv: getenv}); err != nil || abandoned {
		t.Fatalf("Reap of a held cluster: abandoned %v, %v", abandoned, err)
	}
	ping(t, c)
	// What a killed test binary leaves (see TestLeftoverServerIsStopped).
	leftover := c.sup.halt()
	c.sup = nil
	c.lock.f.Close()
	c.stopped = true
	abandoned, err := Reap(ctx, Options{DataDir: data, Getenv: getenv})
	if err != nil || !abandoned {
		t.Fatalf("Reap of an abandoned cluster: abandoned %v, %v", abandoned, err)
	}
	select {
	case <-leftover.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the abandoned server still runs")
	}
	if abandoned, err := Reap(ctx, Options{DataDir: filepath.Join(dir, "nothing")}); err != nil || abandoned {
		t.Errorf("Reap of a directory without a lock: abandoned %v, %v", abandoned, err)
	}
}
