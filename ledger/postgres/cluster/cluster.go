// Package cluster runs a private PostgreSQL server from the machine's own
// server binaries: it finds them, creates a cluster in a data directory on
// first start, serves it on a private Unix socket with no TCP port, and stops
// it cleanly. As root it runs the server as the unprivileged `postgres` user,
// because initdb and postgres refuse to run as root.
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
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
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
	// Getenv looks up PATH; nil uses os.Getenv.
	Getenv func(string) string
}

// Cluster is a running private PostgreSQL server.
type Cluster struct {
	dataDir   string
	socketDir string
	bin       string
	cred      *syscall.Credential
	log       *slog.Logger
	started   bool // false when an already running server was adopted
	// Initialized reports whether this start ran initdb.
	Initialized bool
}

// Start finds the binaries, initializes the data directory if it is new,
// and starts the server (or adopts one a crashed run left behind on the
// same data directory). It returns when the server accepts connections.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
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
	c := &Cluster{dataDir: dataDir, bin: bin, log: log}
	if c.cred, err = serverCredential(); err != nil {
		return nil, err
	}
	if err := c.prepareDirs(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dataDir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := c.initdb(ctx, opts.Ephemeral); err != nil {
			return nil, err
		}
		c.Initialized = true
	}
	if c.running(ctx) {
		log.Info("using the PostgreSQL server already running on the data directory (another stichbuch process?)", "data", dataDir)
		return c, c.waitReady(ctx)
	}
	if err := c.start(ctx, opts.Ephemeral); err != nil {
		return nil, err
	}
	c.started = true
	return c, c.waitReady(ctx)
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

// EnsureDatabase creates database name if it does not exist yet.
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
	return err
}

// Stop shuts down a server this Cluster started (fast mode: open
// transactions roll back, committed data is safe). An adopted server, which
// another stichbuch process may be using, is left running.
func (c *Cluster) Stop() error {
	if !c.started {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := c.run(ctx, "pg_ctl", "stop", "-D", c.dataDir, "-m", "fast", "-w", "-t", "60")
	if err != nil {
		return fmt.Errorf("stopping PostgreSQL: %v: %s", err, out)
	}
	if c.socketDir != c.dataDir {
		os.RemoveAll(c.socketDir)
	}
	return nil
}

// Crash stops a server this Cluster started as abruptly as a server crash
// (immediate mode: no checkpoint, every connection cut off, crash recovery
// at the next Start on the same data directory). It is for tests of crash
// safety. Afterwards the Cluster no longer owns a running server, so Stop
// does nothing; start the server again with Start.
func (c *Cluster) Crash() error {
	if !c.started {
		return errors.New("crashing PostgreSQL: this Cluster did not start the server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := c.run(ctx, "pg_ctl", "stop", "-D", c.dataDir, "-m", "immediate", "-w", "-t", "60")
	if err != nil {
		return fmt.Errorf("crashing PostgreSQL: %v: %s", err, out)
	}
	c.started = false
	if c.socketDir != c.dataDir {
		os.RemoveAll(c.socketDir)
	}
	return nil
}

// DataDir returns the cluster's data directory.
func (c *Cluster) DataDir() string { return c.dataDir }

func (c *Cluster) prepareDirs() error {
	if err := os.MkdirAll(c.dataDir, 0o700); err != nil {
		return fmt.Errorf("creating data directory: %w", err)
	}
	c.socketDir = c.dataDir
	// A Unix socket path is limited to about 107 bytes.
	if len(c.dataDir)+len("/.s.PGSQL.5432") > 100 {
		dir, err := os.MkdirTemp("", "stichbuch-pg-")
		if err != nil {
			return err
		}
		c.socketDir = dir
	}
	if c.cred == nil {
		return nil
	}
	for _, dir := range []string{c.dataDir, c.socketDir} {
		if err := os.Chown(dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			return fmt.Errorf("handing %s to the postgres user: %w", dir, err)
		}
	}
	return nil
}

func (c *Cluster) initdb(ctx context.Context, ephemeral bool) error {
	start := time.Now()
	args := []string{"-D", c.dataDir, "-U", Superuser, "--auth=trust", "-E", "UTF8", "--locale=C"}
	if ephemeral {
		args = append(args, "--no-sync")
	}
	out, err := c.run(ctx, "initdb", args...)
	if err != nil {
		return fmt.Errorf("initdb failed: %v\n%s%s", err, out, c.accessHint())
	}
	c.log.Info("created PostgreSQL cluster", "data", c.dataDir, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

func (c *Cluster) start(ctx context.Context, ephemeral bool) error {
	settings := fmt.Sprintf("-c listen_addresses='' -c unix_socket_directories='%s' -c unix_socket_permissions=0700 -c port=%d", c.socketDir, socketPort)
	if ephemeral {
		settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	out, err := c.run(ctx, "pg_ctl", "start", "-D", c.dataDir, "-w", "-t", "120", "-l", filepath.Join(c.dataDir, "server.log"), "-o", settings)
	if err != nil {
		logTail, _ := os.ReadFile(filepath.Join(c.dataDir, "server.log"))
		return fmt.Errorf("starting PostgreSQL: %v\n%s\n%s", err, out, tail(logTail, 2000))
	}
	return nil
}

func (c *Cluster) running(ctx context.Context) bool {
	if _, err := os.Stat(filepath.Join(c.dataDir, "postmaster.pid")); err != nil {
		return false
	}
	_, err := c.run(ctx, "pg_ctl", "status", "-D", c.dataDir)
	return err == nil
}

func (c *Cluster) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		conn, err := pgx.Connect(ctx, c.ConnString("postgres"))
		if err == nil {
			return conn.Close(ctx)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("PostgreSQL did not accept connections: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// run executes one of the server binaries, as the postgres user when root.
func (c *Cluster) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...)
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=" + c.bin + ":/usr/bin:/bin", "LC_ALL=C", "TZ=UTC"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	err := cmd.Run()
	return out.Bytes(), err
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

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
