// Package postgres is the ledger's store on PostgreSQL (pgx v5): it
// implements the ledger's ports with plain SQL next to the code that scans
// it, runs each write flow in one transaction (sending its statements in
// pipelined batches), and applies the schema's migrations under goose's
// session lock. It translates and never decides: every rule is the
// ledger's.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/migrations"
)

// Store implements the ledger's ports on a pgx pool.
type Store struct {
	pool      *pgxpool.Pool
	key       chain.Key
	numbering *numberer
	commits   *handCommits
}

// New returns a store on pool that chains the hands and revisions it
// writes with key, the installation's chain key (see ledger/chain).
func New(pool *pgxpool.Pool, key chain.Key) *Store {
	return &Store{pool: pool, key: key, numbering: newNumberer(pool), commits: newHandCommits(pool)}
}

// Ports returns the store as every port of the ledger.
func (s *Store) Ports() ledger.Ports {
	return ledger.Ports{Clubs: s, Players: s, Tables: s, Hands: s, Money: s, Feed: s, Stats: s, Tournaments: s, Seasons: s, Imports: s, Health: s, Writer: s}
}

// Service returns the ledger's use-cases on this store.
func (s *Store) Service() *ledger.Service { return ledger.NewService(s.Ports()) }

// Connect opens a pool on the database at url.
func Connect(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return pool, nil
}

// Ping checks that the database answers and takes writes: a server in
// recovery (a replica, or a primary that was demoted while the service
// kept its connection) counts as not available.
func (s *Store) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var recovering bool
	if err := s.pool.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&recovering); err != nil {
		return mapError(err)
	}
	if recovering {
		return ledger.Errorf(ledger.EUNAVAILABLE, "the database is a replica in recovery, not a primary")
	}
	return nil
}

// Migrate applies every pending migration under goose's PostgreSQL session
// lock, so several instances may start at once. It returns the versions it
// applied.
func Migrate(ctx context.Context, pool *pgxpool.Pool) ([]int64, error) {
	p, err := provider(pool)
	if err != nil {
		return nil, err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrating: %w", err)
	}
	applied := make([]int64, 0, len(results))
	for _, r := range results {
		applied = append(applied, r.Source.Version)
	}
	return applied, nil
}

// MigrationStatus is one migration and whether it is applied.
type MigrationStatus struct {
	Version   int64
	Name      string
	AppliedAt time.Time // zero when pending
}

// Migrations lists every migration and its state.
func Migrations(ctx context.Context, pool *pgxpool.Pool) ([]MigrationStatus, error) {
	p, err := provider(pool)
	if err != nil {
		return nil, err
	}
	statuses, err := p.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]MigrationStatus, 0, len(statuses))
	for _, st := range statuses {
		out = append(out, MigrationStatus{Version: st.Source.Version, Name: st.Source.Path, AppliedAt: st.AppliedAt})
	}
	return out, nil
}

func provider(pool *pgxpool.Pool) (*goose.Provider, error) {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return nil, err
	}
	db := stdlib.OpenDBFromPool(pool)
	return goose.NewProvider(goose.DialectPostgres, db, migrations.FS, goose.WithSessionLocker(locker),
		goose.WithGoMigrations(packedHands))
}

// tx runs fn in one transaction and maps database errors to ledger errors.
func (s *Store) tx(ctx context.Context, fn func(pgx.Tx) error) error {
	return mapError(pgx.BeginFunc(ctx, s.pool, fn))
}

// InTx runs a write flow of a club in one transaction and, if the flow
// queued a change, numbers it after the commit.
func (s *Store) InTx(ctx context.Context, clubID int64, fn func(ledger.Tx) error) error {
	var queued bool
	err := s.tx(ctx, func(t pgx.Tx) error {
		w := &tx{Tx: t, club: clubID, key: s.key}
		err := fn(w)
		queued = w.queued
		return err
	})
	if err != nil || !queued {
		return err
	}
	return s.numberChanges(ctx, clubID)
}

// tx is one transaction of a club's write flow: the ledger's Tx port.
type tx struct {
	pgx.Tx
	club int64
	key  chain.Key // chains the revisions it appends
	now  time.Time // the transaction's now(), once read
	// queued is whether a change waits to be numbered after the commit.
	queued bool
}

// clock returns the transaction's now(), the time PostgreSQL stamps every
// row of the transaction with, reading it once: a row whose hash covers
// its time is stamped with it before it is inserted.
func (t *tx) clock(ctx context.Context) (time.Time, error) {
	if t.now.IsZero() {
		if err := t.QueryRow(ctx, `SELECT now()`).Scan(&t.now); err != nil {
			return time.Time{}, err
		}
	}
	return t.now, nil
}

var (
	_ ledger.Tx        = (*tx)(nil)
	_ ledger.ClubStore = (*Store)(nil)
)

// send runs a batch in one round trip and returns its first error.
func send(ctx context.Context, q batcher, b *pgx.Batch) error {
	if b.Len() == 0 {
		return nil
	}
	return q.SendBatch(ctx, b).Close()
}

// where says where in the store err happened, keeping what it wraps for
// errors.Is and errors.As; nil stays nil.
func where(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}

// batcher is a pool or a transaction: what send needs.
type batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// queryer is a pool or a transaction: what the read helpers need.
type queryer interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// isStale reports whether a write lost a race it is to retry: a
// compare-and-set that found its row changed (stichbuch_expect raises
// serialization_failure), or an Idempotency-Key another request stored
// meanwhile.
func isStale(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	return pgErr.Code == "40001" || (pgErr.Code == "23505" && pgErr.ConstraintName == "idempotency_keys_pkey")
}

// mapError turns database failures into ledger errors; ledger errors pass.
func mapError(err error) error {
	if err == nil {
		return nil
	}
	var le *ledger.Error
	if errors.As(err, &le) {
		return err
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.Errorf(ledger.ENOTFOUND, "not found")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "23505":
			return ledger.Errorf(ledger.ECONFLICT, "already exists (%s)", pgErr.ConstraintName)
		case pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03" || pgErr.Code[:2] == "08":
			return &ledger.Error{Code: ledger.EUNAVAILABLE, Message: "the database is not available: " + pgErr.Message}
		case pgErr.Code == "25006":
			// read_only_sql_transaction: the write reached a node that is
			// no longer (or not yet) the primary, during a failover or a
			// switchover; nothing was written, and the retry goes to the
			// new primary.
			return &ledger.Error{Code: ledger.EUNAVAILABLE, Message: "the database is changing its primary: " + pgErr.Message}
		}
		return fmt.Errorf("database: %w", err)
	}
	var connErr *pgconn.ConnectError
	var netErr net.Error
	// A connection the server closed mid-query ends in a bare unexpected EOF.
	if errors.As(err, &connErr) || errors.As(err, &netErr) || pgconn.SafeToRetry(err) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &ledger.Error{Code: ledger.EUNAVAILABLE, Message: "the database is not available"}
	}
	return err
}
