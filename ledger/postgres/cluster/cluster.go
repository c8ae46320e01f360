// Package cluster runs a private PostgreSQL server from the machine's own
// server binaries: it finds them, creates a cluster in a data directory on
// first start, serves it on a private Unix socket with no TCP port,
// restarts it when it ends unexpectedly, and stops it cleanly. As root it
// runs the server as the unprivileged `postgres` user, because initdb and
// postgres refuse to run as root.
//
// One process at a time runs a data directory's cluster: it holds the
// directory's lock (LockFile) for as long as it runs, and the lock file
// records who it is and where its socket is. Another process either uses
// that server through the socket, when its holder shares it and the other
// asks to join (Options.Shared, Options.Join), or gets an InUseError naming
// the holder. Start never adopts a server another live process runs, and
// stops one a dead process left behind.
package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Superuser is the database superuser the cluster is created with.
const Superuser = "stichbuch"

// socketPort only names the socket file (.s.PGSQL.5432); no TCP port is opened.
const socketPort = 5432

// ErrNoBinaries means no PostgreSQL server binaries were found. Its message
// says how to install them or how to use an external database instead.
var ErrNoBinaries = errors.New("no PostgreSQL server binaries found (looked in PATH, `pg_config --bindir` and /usr/lib/postgresql/*/bin).\n" +
	"Install them, e.g. `sudo apt-get install postgresql` (Debian/Ubuntu) or `brew install postgresql` (macOS),\n" +
	"or point stichbuch at a running server: DATABASE_URL=postgres://user:pass@host:5432/stichbuch")

// Options configure a cluster.
type Options struct {
	// DataDir holds the cluster; it is created on the first start.
	DataDir string
	// Ephemeral trades durability for speed (fsync off): for tests only.
	Ephemeral bool
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
	// Getenv looks up PATH, XDG_RUNTIME_DIR and TMPDIR; nil uses os.Getenv.
	Getenv func(string) string
	// Command names this process in the lock file, for the messages of
	// other processes, e.g. "stichbuch serve".
	Command string
	// Shared lets other processes use the server through its socket while
	// this process runs it (those that Join).
	Shared bool
	// Join makes Start use the server of the process that runs the cluster,
	// when that process shares it, instead of failing with an InUseError.
	// A joined Cluster never stops that server.
	Join bool
}

// Cluster is a running private PostgreSQL server: one this process runs
// (it holds the lock), or, joined, the one another process shares.
type Cluster struct {
	dataDir   string // the data directory, which holds the lock
	pgData    string // the cluster: dataDir/pg, or dataDir itself (see layout)
	socketDir string
	bin       string
	cred      *syscall.Credential
	log       *slog.Logger
	ephemeral bool

	lock   *lock  // nil when joined
	holder Holder // when joined: the process whose server this is

	restarts atomic.Int64 // unexpected ends the supervisor restarts from

	mu      sync.Mutex
	sup     *supervisor // the running server; nil when joined or crashed
	stopped bool
	stopErr error

	// Initialized reports whether this start ran initdb.
	Initialized bool
}

// Start finds the binaries and takes the data directory's lock; under it,
// it creates the cluster if there is none, stops a server a dead process
// left running on it, starts the server and supervises it (see
// restartDelay). It returns when the server accepts connections. When
// another process holds the lock it returns an *InUseError, or with
// Options.Join that process's shared server.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	c, err := newCluster(opts)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("creating data directory: %w", err)
	}
	if err := c.chown(c.dataDir); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(readyTimeout)
	for {
		err := c.own(ctx, opts)
		var inUse *InUseError
		if !errors.As(err, &inUse) || !opts.Join || !inUse.Holder.Shared {
			if err != nil {
				return nil, err
			}
			return c, nil
		}
		if joined, err := c.join(ctx, inUse.Holder); joined || err != nil {
			if err != nil {
				return nil, err
			}
			return c, nil
		}
		// The holder's server is not ready, or the holder has just gone.
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: its PostgreSQL server (state %q) did not become ready within %v", inUse, inUse.Holder.State, readyTimeout)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func newCluster(opts Options) (*Cluster, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	bin, err := FindBinaries(getenv)
	if err != nil {
		return nil, err
	}
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, err
	}
	c := &Cluster{dataDir: dataDir, bin: bin, log: log, ephemeral: opts.Ephemeral}
	if c.cred, err = serverCredential(); err != nil {
		return nil, err
	}
	return c, nil
}

// own takes the lock and starts the server, or returns an *InUseError.
func (c *Cluster) own(ctx context.Context, opts Options) (err error) {
	l, prev, err := acquireLock(c.dataDir)
	if errors.Is(err, errLocked) {
		return c.inUse(ctx)
	}
	if err != nil {
		return err
	}
	c.lock = l
	defer func() {
		if err != nil {
			c.release()
			c.lock, c.socketDir = nil, ""
		}
	}()
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	command := opts.Command
	if command == "" {
		command = filepath.Base(os.Args[0])
	}
	if err := l.update(func(h *Holder) {
		*h = Holder{PID: os.Getpid(), Command: command, Shared: opts.Shared, State: StateStarting, Since: time.Now().UTC().Truncate(time.Second)}
	}); err != nil {
		return err
	}
	if err := c.layout(ctx, opts.Ephemeral); err != nil {
		return err
	}
	if err := c.stopLeftover(ctx, prev); err != nil {
		return err
	}
	if err := c.makeSocketDir(getenv); err != nil {
		return err
	}
	if err := l.update(func(h *Holder) { h.SocketDir = c.socketDir }); err != nil {
		return err
	}
	p, err := c.launch(ctx)
	if err != nil {
		return err
	}
	c.supervise(p)
	return l.update(func(h *Holder) { h.State, h.Postmaster = StateReady, p.pid() })
}

// inUse describes the lock's holder, waiting a moment for a holder that
// has just taken the lock to record itself.
func (c *Cluster) inUse(ctx context.Context) error {
	deadline := time.Now().Add(time.Second)
	for {
		h, ok := readHolder(c.dataDir)
		if ok || time.Now().After(deadline) {
			if !ok {
				h = Holder{}
			}
			return &InUseError{DataDir: c.dataDir, Holder: h}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// join uses the server of holder h once it is ready; false means not yet.
func (c *Cluster) join(ctx context.Context, h Holder) (bool, error) {
	if h.State != StateReady {
		return false, nil
	}
	if _, err := os.Stat(h.SocketDir); err != nil {
		return false, fmt.Errorf("%q (pid %d) runs the cluster of %s with its socket in %s, which this process cannot reach (%v); "+
			"a private /tmp, as systemd's PrivateTmp gives a service? Run this command where that process runs", h.Command, h.PID, c.dataDir, h.SocketDir, err)
	}
	c.socketDir, c.holder = h.SocketDir, h
	if err := c.waitReady(ctx, nil); err != nil {
		c.socketDir, c.holder = "", Holder{}
		if errors.Is(err, errHolderChanged) {
			return false, nil // look again: wait for it, or run the cluster
		}
		return false, fmt.Errorf("the PostgreSQL server of %q (pid %d): %w", h.Command, h.PID, err)
	}
	c.log.Info("using the PostgreSQL server another process runs on the data directory", "command", h.Command, "pid", h.PID, "socket", h.SocketDir)
	return true, nil
}

// FindBinaries returns the directory holding initdb, pg_ctl and postgres.
func FindBinaries(getenv func(string) string) (string, error) {
	candidates := filepath.SplitList(getenv("PATH"))
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		candidates = append(candidates, strings.TrimSpace(string(out)))
	}
	versions, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(versions, func(i, j int) bool { return versionOf(versions[i]) > versionOf(versions[j]) })
	candidates = append(candidates, versions...)
	for _, dir := range candidates {
		if dir == "" {
			continue
		}
		if isExecutable(filepath.Join(dir, "initdb")) && isExecutable(filepath.Join(dir, "pg_ctl")) && isExecutable(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
	}
	return "", ErrNoBinaries
}

// ConnString returns a connection string for database db over the socket.
func (c *Cluster) ConnString(db string) string {
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable", c.socketDir, socketPort, Superuser, db)
}

// EnsureDatabase creates database name if it does not exist yet. Two
// processes may ensure it at once (serve starting while an operator command
// joins its server): the one whose CREATE DATABASE loses finds it made.
func (c *Cluster) EnsureDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, c.ConnString("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (pgErr.Code == "42P04" || pgErr.Code == "23505") {
		return nil // duplicate_database, or the catalog's unique index when both ran at once
	}
	return err
}

// Stop stops the server this Cluster runs (fast mode: open transactions
// roll back, committed data is safe; immediate mode after a minute),
// removes its socket directory and releases the lock. A joined Cluster
// leaves the other process's server running.
func (c *Cluster) Stop() error {
	if c.lock == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stopped {
		c.stopped = true
		c.stopErr = c.release()
	}
	return c.stopErr
}

// release stops the server and its supervisor, removes the socket
// directory and releases the lock.
func (c *Cluster) release() error {
	var err error
	c.lock.update(func(h *Holder) { h.State, h.Postmaster = StateDown, 0 })
	if c.sup != nil {
		if err = c.sup.halt().shutdown(); err != nil {
			c.log.Error("stopping PostgreSQL", "err", err)
		}
		c.sup = nil
	}
	if c.socketDir != "" {
		os.RemoveAll(c.socketDir) // made by makeSocketDir for this server alone
	}
	c.lock.release()
	return err
}

// Crash stops the server this Cluster runs as abruptly as a server crash
// (immediate mode: no checkpoint, every connection cut off, crash recovery
// at the next start) and keeps it down, with the lock held and the socket
// directory kept, until Restart. It is for tests of crash safety.
func (c *Cluster) Crash() error {
	if c.lock == nil {
		return errNotOwner
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sup == nil || c.stopped {
		return errors.New("crashing PostgreSQL: the server is not running")
	}
	c.sup.halt().kill()
	c.sup = nil
	return c.lock.update(func(h *Holder) { h.State, h.Postmaster = StateDown, 0 })
}

// Restart starts the server again after Crash, on the same socket, and
// supervises it again.
func (c *Cluster) Restart(ctx context.Context) error {
	if c.lock == nil {
		return errNotOwner
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return errors.New("restarting PostgreSQL: the Cluster was stopped")
	}
	if c.sup != nil {
		return nil
	}
	p, err := c.launch(ctx)
	if err != nil {
		return err
	}
	c.supervise(p)
	return c.lock.update(func(h *Holder) { h.State, h.Postmaster = StateReady, p.pid() })
}

// Postmaster returns the server's process id, or 0 while it is down.
func (c *Cluster) Postmaster() int {
	if c.lock == nil {
		h, _ := readHolder(c.dataDir)
		return h.Postmaster
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sup == nil {
		return 0
	}
	if p := c.sup.current(); !p.exited() {
		return p.pid()
	}
	return 0
}

// DataDir returns the data directory.
func (c *Cluster) DataDir() string { return c.dataDir }

// SocketDir returns the directory of the server's Unix socket.
func (c *Cluster) SocketDir() string { return c.socketDir }

// Joined reports whether this Cluster uses another process's server, and
// that process.
func (c *Cluster) Joined() (Holder, bool) { return c.holder, c.lock == nil }

// run executes one of the server binaries, as the postgres user when root.
func (c *Cluster) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...)
	cmd.Dir = "/"
	cmd.Env = c.env()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	err := cmd.Run()
	return out.Bytes(), err
}

// env is the server binaries' environment.
func (c *Cluster) env() []string {
	return []string{"PATH=" + c.bin + ":/usr/bin:/bin", "LC_ALL=C", "TZ=UTC"}
}

func (c *Cluster) accessHint() string {
	if c.cred == nil {
		return ""
	}
	return fmt.Sprintf("(as root the cluster runs as the postgres user: every parent directory of %s must be searchable by it)", c.dataDir)
}

// serverCredential returns nil when the server can run as the current
// user, or the postgres user's credential when running as root.
func serverCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, errors.New("running as root: initdb refuses root, and there is no unprivileged `postgres` user to run the cluster as; install Debian's postgresql package (it creates one) or run stichbuch as another user")
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}
