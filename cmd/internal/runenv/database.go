package runenv

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/stichbuch/stichbuch/ledger/postgres/cluster"
)

// Role is what a command does with the embedded PostgreSQL.
type Role int

const (
	// Operator commands (migrate, club, key, verify, export, import, and
	// stichbuch-bench's generate and load) use the server of a running
	// `stichbuch serve` through its socket; without one they run the
	// cluster themselves while they work, for themselves alone.
	Operator Role = iota
	// Server is `stichbuch serve`: it runs the cluster, supervises it and
	// shares it with operator commands; it refuses to start while another
	// process runs the cluster.
	Server
)

// Database is the PostgreSQL a command works on.
type Database struct {
	// URL is the connection string of the database "stichbuch".
	URL     string
	cluster *cluster.Cluster // nil with DATABASE_URL
	log     *slog.Logger
}

// OpenDatabase finds the database: the server at DATABASE_URL, or else
// the embedded cluster in dataDir with its database "stichbuch", run by
// this process or, for an Operator, the one a running serve shares.
// command names this process to the others ("stichbuch verify").
func OpenDatabase(ctx context.Context, role Role, command, dataDir string, getenv func(string) string, log *slog.Logger) (*Database, error) {
	if url := getenv("DATABASE_URL"); url != "" {
		return &Database{URL: url, log: log}, nil
	}
	start := time.Now()
	c, err := cluster.Start(ctx, cluster.Options{DataDir: dataDir, Logger: log, Getenv: getenv,
		Command: command, Shared: role == Server, Join: role == Operator})
	var inUse *cluster.InUseError
	if errors.As(err, &inUse) {
		return nil, refusal(inUse, role)
	}
	if err != nil {
		return nil, err
	}
	if err := c.EnsureDatabase(ctx, "stichbuch"); err != nil {
		c.Stop()
		return nil, err
	}
	if _, joined := c.Joined(); !joined {
		log.Info("embedded PostgreSQL ready", "data", c.DataDir(), "socket", c.SocketDir(), "initdb", c.Initialized, "took", time.Since(start).Round(time.Millisecond))
	}
	return &Database{URL: c.ConnString("stichbuch"), cluster: c, log: log}, nil
}

// refusal says why the data directory cannot be used now, and what to do.
func refusal(e *cluster.InUseError, role Role) error {
	h := e.Holder
	switch {
	case h.PID == 0:
		return fmt.Errorf("%w; try again in a moment", e)
	case role == Server && h.Shared:
		return fmt.Errorf("%w, which serves it; a second serve on the same data directory is refused (it would lose its database when the first stops): "+
			"use the running one, stop it first (kill -TERM %d), or give this one another --data or a DATABASE_URL", e, h.PID)
	case role == Server:
		return fmt.Errorf("%w, which runs its PostgreSQL only while it works: wait until it has ended (or stop it: kill -TERM %d), then start serve again", e, h.PID)
	default:
		return fmt.Errorf("%w, which runs its PostgreSQL for itself alone (only stichbuch serve shares its database): wait until it has ended, then run this command again", e)
	}
}

// Postmaster returns the embedded server's process id, or 0 (DATABASE_URL,
// or while it is down).
func (d *Database) Postmaster() int {
	if d.cluster == nil {
		return 0
	}
	return d.cluster.Postmaster()
}

// Restarts is how many times the embedded server was started again after
// it ended unexpectedly (0 with DATABASE_URL, or when another process runs
// it).
func (d *Database) Restarts() int64 {
	if d.cluster == nil {
		return 0
	}
	return d.cluster.Restarts()
}

// Embedded reports whether this process runs the embedded PostgreSQL.
func (d *Database) Embedded() bool { return d.cluster != nil }

// Close stops the embedded server if this process runs it; one that
// another process runs, and DATABASE_URL's, are left alone.
func (d *Database) Close() {
	if d.cluster == nil {
		return
	}
	if err := d.cluster.Stop(); err != nil {
		d.log.Error("stopping PostgreSQL", "err", err)
	}
}
