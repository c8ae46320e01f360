package main

// Scheduled backups: serve writes every club's export document into a
// directory, now and then every --backup-every, each file atomically
// (temporary name, fsync, rename, fsync of the directory), and keeps the
// newest --backup-keep per club. A backup that fails is an error in the
// log and in the metrics, never the end of the service.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/cmd/internal/metrics"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
)

// backupFlags are serve's --backup-dir, --backup-every and --backup-keep
// (STICHBUCH_BACKUP_DIR, _EVERY, _KEEP).
type backupFlags struct {
	dir   string
	every time.Duration
	keep  int
	err   error // an environment value that does not parse
}

func (b *backupFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	every, keep := 24*time.Hour, 14
	if v := getenv("STICHBUCH_BACKUP_EVERY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.err = fmt.Errorf("STICHBUCH_BACKUP_EVERY: want a duration such as 24h, got %q", v)
		}
		every = d
	}
	if v := getenv("STICHBUCH_BACKUP_KEEP"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			b.err = fmt.Errorf("STICHBUCH_BACKUP_KEEP: want how many backups of a club to keep, got %q", v)
		}
		keep = n
	}
	fs.StringVar(&b.dir, "backup-dir", getenv("STICHBUCH_BACKUP_DIR"), "write every club's export here on a schedule (default: no backups)")
	fs.DurationVar(&b.every, "backup-every", every, "how often to back up")
	fs.IntVar(&b.keep, "backup-keep", keep, "how many backups of each club to keep")
}

func (b *backupFlags) check() error {
	switch {
	case b.err != nil:
		return b.err
	case b.dir != "" && b.every < time.Second:
		return fmt.Errorf("--backup-every: want at least 1s, got %v", b.every)
	case b.dir != "" && b.keep < 1:
		return fmt.Errorf("--backup-keep: want at least 1, got %d", b.keep)
	}
	return nil
}

// start runs the schedule until ctx ends: a backup now, then every
// b.every (a backup still running when the next is due delays it). wait
// returns once a backup under way when ctx ended has stopped.
func (b *backupFlags) start(ctx context.Context, pool *pgxpool.Pool, m *metrics.Metrics, log *slog.Logger) (wait func()) {
	done := make(chan struct{})
	if b.dir == "" {
		close(done)
		return func() { <-done }
	}
	log.Info("scheduled backups", "dir", b.dir, "every", b.every, "keep", b.keep)
	job := backupJob{dir: b.dir, keep: b.keep, pool: pool, metrics: m, log: log}
	go func() {
		defer close(done)
		tick := time.NewTicker(b.every)
		defer tick.Stop()
		for {
			job.run(ctx)
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() { <-done }
}

type backupJob struct {
	dir     string
	keep    int
	pool    *pgxpool.Pool
	metrics *metrics.Metrics
	log     *slog.Logger
}

// run writes one backup of every club, rotates, logs and counts it.
func (j backupJob) run(ctx context.Context) {
	start := time.Now()
	files, bytes, err := j.write(ctx, start)
	if ctx.Err() != nil {
		return // serve is stopping: not a failure of the backup
	}
	if err != nil {
		j.log.Error("backup failed; the service goes on, the next backup tries again", "dir", j.dir, "err", err)
		j.metrics.Backup(false, 0, start)
		return
	}
	j.log.Info("backup written", "dir", j.dir, "files", files, "bytes", bytes, "took", time.Since(start).Round(time.Millisecond))
	j.metrics.Backup(true, bytes, time.Now())
}

// backupTime names a backup by when it began, in UTC, so the names sort
// in time.
const backupTime = "20060102T150405.000Z"

func (j backupJob) write(ctx context.Context, at time.Time) (files []string, bytes int64, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("backup: %v", p)
		}
	}()
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return nil, 0, err
	}
	clubs, err := postgres.ClubIDs(ctx, j.pool)
	if err != nil {
		return nil, 0, fmt.Errorf("listing the clubs: %w", err)
	}
	store := postgres.New(j.pool, chain.Key{}) // reads the hashes, computes none
	var errs []error
	for _, club := range clubs {
		name := filepath.Join(j.dir, fmt.Sprintf("club-%d-%s.ndjson", club, at.UTC().Format(backupTime)))
		var n countingWriter
		err := writeFileAtomically(name, func(w io.Writer) error {
			n.w = w
			_, err := backup.Export(ctx, store, club, &n)
			return err
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("club %d: %w", club, err))
			continue
		}
		files, bytes = append(files, filepath.Base(name)), bytes+n.n
		if err := rotate(j.dir, club, j.keep); err != nil {
			errs = append(errs, fmt.Errorf("club %d: rotating: %w", club, err))
		}
	}
	return files, bytes, errors.Join(errs...)
}

// rotate removes a club's backups but the newest keep.
func rotate(dir string, club int64, keep int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	prefix := fmt.Sprintf("club-%d-", club)
	var names []string
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, prefix) && strings.HasSuffix(name, ".ndjson") && e.Type().IsRegular() {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) <= keep {
		return nil
	}
	for _, name := range names[:len(names)-keep] {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return syncDir(dir)
}

// countingWriter counts what passes through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
