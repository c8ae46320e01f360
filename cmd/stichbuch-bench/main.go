// Command stichbuch-bench measures stichbuch and fills databases for it:
// the load tool, which drives a service's HTTP API and measures it, and
// the generator of a reproducible club history. It is a command of its
// own so the service's binary, cmd/stichbuch, holds only the service and
// its operator commands. It reaches the service through its HTTP API (and
// with load --start through the stichbuch executable), and the database
// through the public ledger packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/stichbuch/stichbuch/ledger/postgres/cluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "stichbuch-bench:", err)
		os.Exit(1)
	}
}

const usage = `stichbuch-bench: benchmarks and generated histories for stichbuch

Usage:
  stichbuch-bench load (--start | --url URL --key KEY) [--tables 8] [--hot] [--duration 10s] [--games doppelkopf|mix] [--json]
  stichbuch-bench load --stats --url URL --key READER_KEY [--tables 1] [--duration 30s] [--json]  (the statistics of a club)
  stichbuch-bench generate [--hands 100000] [--tables 40] [--seed 1] [--workers 4] [--data DIR]  (fills a new club with a reproducible history)

load --start runs "stichbuch serve" (--bin, else the stichbuch beside this
executable, else one built from the module in the working directory).
Without DATABASE_URL, load --start and generate use the embedded
PostgreSQL in the data directory, from the machine's server binaries, as
stichbuch does. "stichbuch-bench load --help" and "stichbuch-bench
generate --help" list every flag.
`

// run is the whole program: main only adds the process's signals, args,
// environment and standard streams, so a test can run it in-process.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	log := newLogger(getenv, stderr)
	switch args[1] {
	case "load":
		return load(ctx, args[2:], getenv, stdout, log)
	case "generate":
		return generate(ctx, args[2:], getenv, stdout, log)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[1])
}

// newLogger logs as stichbuch does: text or, with LOG_FORMAT=json, JSON,
// at LOG_LEVEL (default info).
func newLogger(getenv func(string) string, w io.Writer) *slog.Logger {
	level := slog.LevelInfo
	if err := level.UnmarshalText([]byte(getenv("LOG_LEVEL"))); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if getenv("LOG_FORMAT") == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func envOr(getenv func(string) string, key, fallback string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return fallback
}

// defaultData is the data directory stichbuch uses unless told otherwise,
// so a history generated here is the one `stichbuch serve` serves.
func defaultData(getenv func(string) string) string {
	return envOr(getenv, "STICHBUCH_DATA", "./stichbuch-data")
}

// database is the PostgreSQL the tools work on.
type database struct {
	url   string
	pgPID int // the embedded cluster's postmaster; 0 with DATABASE_URL
	stop  func()
}

// openDatabase finds the database as stichbuch does: the server at
// DATABASE_URL, or else the embedded cluster in dataDir, started (or
// adopted when it already runs) with its database "stichbuch". stop
// stops a cluster started here.
func openDatabase(ctx context.Context, dataDir string, getenv func(string) string, log *slog.Logger) (*database, error) {
	if url := getenv("DATABASE_URL"); url != "" {
		return &database{url: url, stop: func() {}}, nil
	}
	start := time.Now()
	c, err := cluster.Start(ctx, cluster.Options{DataDir: dataDir, Logger: log, Getenv: getenv})
	if err != nil {
		return nil, err
	}
	if err := c.EnsureDatabase(ctx, "stichbuch"); err != nil {
		c.Stop()
		return nil, err
	}
	log.Info("embedded PostgreSQL ready", "data", c.DataDir(), "initdb", c.Initialized, "took", time.Since(start).Round(time.Millisecond))
	db := &database{url: c.ConnString("stichbuch"), stop: func() {
		if err := c.Stop(); err != nil {
			log.Error("stopping PostgreSQL", "err", err)
		}
	}}
	if b, err := os.ReadFile(filepath.Join(c.DataDir(), "postmaster.pid")); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		db.pgPID, _ = strconv.Atoi(strings.TrimSpace(line))
	}
	return db, nil
}
