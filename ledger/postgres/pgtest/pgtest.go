// Package pgtest gives tests a real PostgreSQL: a throwaway cluster started
// the way `stichbuch serve` starts one (or the server at DATABASE_URL), a
// template database migrated once per test binary, and a fresh copy of that
// template for every test.
package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/cluster"
)

var (
	adminURL string // a maintenance database of the server
	template string // the migrated template database
	mu       sync.Mutex
	counter  atomic.Int64
)

// Main runs a package's tests against a PostgreSQL server: call it from
// TestMain. It exits the process with the tests' code.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx := context.Background()
	base := os.Getenv("DATABASE_URL")
	if base == "" {
		reapAbandoned(ctx)
		dir, err := os.MkdirTemp("", "stichbuch-test-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		// As root the server runs as the postgres user, who must reach the data directory.
		os.Chmod(dir, 0o755)
		c, err := cluster.Start(ctx, cluster.Options{DataDir: dir + "/data", Ephemeral: true, Command: "go test (pgtest)"})
		if err != nil {
			fmt.Fprintln(os.Stderr, "pgtest: starting PostgreSQL:", err)
			return 1
		}
		defer c.Stop()
		base = c.ConnString("postgres")
	}
	adminURL = base
	template = fmt.Sprintf("stichbuch_template_%d", os.Getpid())
	if err := createTemplate(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest: preparing the template database:", err)
		return 1
	}
	defer dropDatabase(context.Background(), template)
	keyDir, err := os.MkdirTemp("", "stichbuch-test-key-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		return 1
	}
	defer os.RemoveAll(keyDir)
	keyFile = filepath.Join(keyDir, "chain.key")
	if err := os.WriteFile(keyFile, chainSecret, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		return 1
	}
	return m.Run()
}

// abandonedAfter is how old a test cluster's directory must be before
// another test binary may take it for abandoned: one whose maker has not
// yet locked it is younger.
const abandonedAfter = time.Minute

// reapAbandoned stops the servers and removes the directories of test
// clusters whose test binary ended without stopping them (killed by its
// timeout or by hand): their postmasters would otherwise run on. The
// clusters of test binaries still running are locked and left alone.
func reapAbandoned(ctx context.Context) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "stichbuch-test-*"))
	for _, dir := range dirs {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() || time.Since(info.ModTime()) < abandonedAfter {
			continue
		}
		abandoned, err := cluster.Reap(ctx, cluster.Options{DataDir: filepath.Join(dir, "data")})
		if err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: an abandoned test cluster in %s: %v\n", dir, err)
			continue
		}
		if abandoned {
			os.RemoveAll(dir)
		}
	}
}

// chainSecret is the tests' chain key: every store of a test binary is one
// installation, so a document exported from one test database imports into
// another.
var chainSecret = []byte("stichbuch tests' chain key, 32+ bytes long")

// ChainKey is the tests' chain key (see chainSecret).
var ChainKey = func() chain.Key {
	k, err := chain.NewKey(chainSecret)
	if err != nil {
		panic(err)
	}
	return k
}()

var keyFile string

// ChainKeyFile is a file holding ChainKey, for a command's
// STICHBUCH_CHAIN_KEY_FILE; it is removed when the tests end.
func ChainKeyFile() string {
	if keyFile == "" {
		panic("pgtest: call pgtest.Main(m) from TestMain")
	}
	return keyFile
}

func createTemplate(ctx context.Context) error {
	if err := exec(ctx, "CREATE DATABASE "+pgx.Identifier{template}.Sanitize()); err != nil {
		return err
	}
	pool, err := postgres.Connect(ctx, WithDatabase(adminURL, template))
	if err != nil {
		return err
	}
	defer pool.Close()
	_, err = postgres.Migrate(ctx, pool)
	return err
}

// URL returns the connection string of a fresh, migrated database that is
// dropped when the test ends.
func URL(t testing.TB) string {
	t.Helper()
	if template == "" {
		t.Fatal("pgtest: call pgtest.Main(m) from TestMain")
	}
	name := fmt.Sprintf("%s_%d", template, counter.Add(1))
	mu.Lock() // one copy of the template at a time
	err := exec(context.Background(), fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s",
		pgx.Identifier{name}.Sanitize(), pgx.Identifier{template}.Sanitize()))
	mu.Unlock()
	if err != nil {
		t.Fatalf("pgtest: creating database: %v", err)
	}
	t.Cleanup(func() { dropDatabase(context.Background(), name) })
	return WithDatabase(adminURL, name)
}

// New returns a pool on a fresh, migrated database; both are gone when the
// test ends.
func New(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := postgres.Connect(context.Background(), URL(t))
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// WithDatabase returns connection string base pointing at database name.
func WithDatabase(base, name string) string {
	if !strings.Contains(base, "://") {
		return base + " dbname=" + name
	}
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	u.Path = "/" + name
	return u.String()
}

func exec(ctx context.Context, sql string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

func dropDatabase(ctx context.Context, name string) {
	exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
}
