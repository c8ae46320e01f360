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
	"os"
	"os/signal"
	"syscall"

	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
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
  stichbuch-bench load (--start | --url URL --key KEY) [--tables 8] [--clubs 1] [--hot] [--duration 10s] [--games doppelkopf|mix] [--json]
  stichbuch-bench load --stats --url URL --key READER_KEY [--tables 1] [--duration 30s] [--json]  (the statistics of a club)
  stichbuch-bench failover [--short] [--clubs 20] [--tables 40] [--json]  (the HA stack of ha/ under four faults; Patroni, etcd, HAProxy)
  stichbuch-bench hacost [--clubs 20] [--tables 40] [--duration 15s]  (single node, synchronous and asynchronous replication side by side)
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
	log := runenv.NewLogger(getenv, stderr)
	switch args[1] {
	case "load":
		return load(ctx, args[2:], getenv, stdout, log)
	case "generate":
		return generate(ctx, args[2:], getenv, stdout, log)
	case "failover":
		return failover(ctx, args[2:], getenv, stdout, log)
	case "hacost":
		return haCost(ctx, args[2:], getenv, stdout, log)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[1])
}
