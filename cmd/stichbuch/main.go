// Command stichbuch serves the scorekeeping API and runs its operator
// commands. It is the only place that wires the adapters together: the
// PostgreSQL store (embedded or at DATABASE_URL), the ledger and the API.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/cmd/internal/metrics"
	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "stichbuch:", err)
		os.Exit(1)
	}
}

const usage = `stichbuch: the scorekeeping backend for German card-game clubs

Usage:
  stichbuch serve [--addr localhost:8080] [--data ./stichbuch-data] [--public-url URL]
                  [--tls-cert FILE --tls-key FILE | --domain NAME [--acme-email ADDR] [--acme-dir URL] | --trusted-proxy CIDR]
                  [--metrics-addr localhost:9464] [--backup-dir DIR [--backup-every 24h] [--backup-keep 14]]
  stichbuch migrate [status|up] [--data DIR]
  stichbuch club create NAME [--time-zone Europe/Berlin] [--data DIR]
  stichbuch key list|create|revoke|rotate --club ID [--role R] [KEY_ID]
  stichbuch verify [--data DIR]  (checks the ledger's invariants; exits 1 naming the first breach)
  stichbuch export --club ID [--out FILE] [--data DIR]  (the club's whole ledger, streamed as NDJSON: the backup)
  stichbuch import FILE [--data DIR]  (into an empty database; re-scores every hand and re-computes the money,
                                       refuses the file if anything differs; prints the club's new admin key)
  stichbuch restore-check FILE  (imports a backup into a scratch database and verifies it; the service's database is not touched)
  stichbuch healthcheck [URL]   (exit 0 when URL, default http://127.0.0.1:8080/readyz, answers 200)

Without DATABASE_URL, stichbuch runs its own PostgreSQL in the data directory
from the machine's server binaries; one process at a time runs it (the
lock file DIR/stichbuch.lock names it). While serve runs, the other commands
use serve's PostgreSQL; a second serve is refused. The load tool and the history generator
are the command stichbuch-bench (go run ./cmd/stichbuch-bench).
`

// run is the whole program: main only adds the process's signals, args,
// environment and standard streams, so a test can run the service in-process.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	log := runenv.NewLogger(getenv, stderr)
	switch args[1] {
	case "serve":
		return serve(ctx, args[2:], getenv, stdout, log)
	case "migrate":
		return migrate(ctx, args[2:], getenv, stdout, log)
	case "club":
		return club(ctx, args[2:], getenv, stdout, log)
	case "key":
		return key(ctx, args[2:], getenv, stdout, log)
	case "verify":
		return verify(ctx, args[2:], getenv, stdout, log)
	case "export":
		return exportCmd(ctx, args[2:], getenv, stdout, log)
	case "import":
		return importCmd(ctx, args[2:], getenv, stdout, log)
	case "restore-check":
		return restoreCheck(ctx, args[2:], getenv, stdout, log)
	case "healthcheck":
		return healthcheck(ctx, args[2:])
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[1])
}

// dbFlags are the flags every command that opens the database shares.
type dbFlags struct {
	data    string
	command string // "stichbuch verify", for the lock file
	serve   bool   // runs and shares the embedded cluster (see runenv.Server)
}

func (f *dbFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.data, "data", runenv.DataDir(getenv), "data directory of the embedded PostgreSQL (ignored with DATABASE_URL)")
	f.command = "stichbuch " + fs.Name()
}

// database opens the store's pool: the server at DATABASE_URL, or the
// embedded cluster in the data directory (see runenv.OpenDatabase). close
// releases both, stopping PostgreSQL last.
func (f dbFlags) database(ctx context.Context, getenv func(string) string, log *slog.Logger) (pool *pgxpool.Pool, closeAll func(), err error) {
	pool, closeAll, _, err = f.serveDatabase(ctx, getenv, log)
	return pool, closeAll, err
}

// serveDatabase is database with the database itself, whose embedded
// PostgreSQL's restarts serve counts.
func (f dbFlags) serveDatabase(ctx context.Context, getenv func(string) string, log *slog.Logger) (pool *pgxpool.Pool, closeAll func(), db *runenv.Database, err error) {
	role := runenv.Operator
	if f.serve {
		role = runenv.Server
	}
	db, err = runenv.OpenDatabase(ctx, role, f.command, f.data, getenv, log)
	if err != nil {
		return nil, nil, nil, err
	}
	pool, err = postgres.Connect(ctx, db.URL)
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	return pool, func() { pool.Close(); db.Close() }, db, nil
}

// chainKey loads the installation's chain key (see runenv.ChainKey),
// creating it on the first start; call it after the database is open, so
// the data directory has its layout.
func (f dbFlags) chainKey(getenv func(string) string, log *slog.Logger) (chain.Key, error) {
	return runenv.ChainKey(getenv, f.data, log)
}

// migrated opens the database like database and migrates it, as every
// command that reads or writes the ledger needs.
func (f dbFlags) migrated(ctx context.Context, getenv func(string) string, log *slog.Logger) (*pgxpool.Pool, func(), error) {
	pool, closeDB, err := f.database(ctx, getenv, log)
	if err != nil {
		return nil, nil, err
	}
	if _, err := postgres.Migrate(ctx, pool); err != nil {
		closeDB()
		return nil, nil, err
	}
	return pool, closeDB, nil
}

// defaultAddr is where serve listens unless --addr or STICHBUCH_ADDR says
// otherwise: this machine only. A container (docker-compose.yml) says
// 0.0.0.0:8080.
const defaultAddr = "localhost:8080"

func serve(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	start := time.Now()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	db := dbFlags{serve: true}
	db.register(fs, getenv)
	var netf netFlags
	netf.register(fs, getenv)
	var backups backupFlags
	backups.register(fs, getenv)
	metricsAddr := fs.String("metrics-addr", runenv.EnvOr(getenv, "STICHBUCH_METRICS_ADDR", defaultMetricsAddr), "where GET /metrics answers (Prometheus), off for none")
	headerTimeout := fs.Duration("header-timeout", 5*time.Second, "how long a client may take to send a request's headers")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := backups.check(); err != nil {
		return err
	}
	pool, closeDB, dbase, err := db.serveDatabase(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer closeDB()
	key, err := db.chainKey(getenv, log)
	if err != nil {
		return err
	}
	if err := migrateAndSeal(ctx, pool, key, log); err != nil {
		return err
	}
	cfg := api.DefaultConfig
	listener := postgres.Listen(ctx, pool, log)
	cfg.Notifier = listener
	if v := getenv("STICHBUCH_RATE_LIMIT"); v != "" {
		if cfg.RateLimit, err = strconv.Atoi(v); err != nil || cfg.RateLimit < 0 {
			return fmt.Errorf("STICHBUCH_RATE_LIMIT: want requests per second per key (0: no limit), got %q", v)
		}
	}
	if cfg.SetupToken, err = setupToken(ctx, pool); err != nil {
		return err
	}
	nw, err := netf.listen(db.data, log)
	if err != nil {
		return err
	}
	defer nw.close()
	cfg.Network = nw.config
	if cfg.RequestTimeout, err = requestTimeout(getenv); err != nil {
		return err
	}
	m := metrics.New()
	cfg.Observer = m
	store := postgres.New(pool, key)
	go store.KeepNumbering(ctx, 2*time.Second, log)
	ports := store.Ports()
	ports.Revocations = listener // the service's key cache answers while it listens
	if readURL := getenv("STICHBUCH_READ_DATABASE_URL"); readURL != "" {
		readPool, err := postgres.Connect(ctx, readURL)
		if err != nil {
			return fmt.Errorf("STICHBUCH_READ_DATABASE_URL: %w", err)
		}
		defer readPool.Close()
		ports.Stats = postgres.ReplicaStats{Replica: postgres.New(readPool, key), Primary: store, Served: m.ReplicaReads()}
		log.Info("statistics read from a replica, falling back to the primary", "read_database", redactURL(readURL))
	}
	handler, err := api.New(ledger.NewService(ports), log, cfg)
	if err != nil {
		return err
	}
	if err := instrument(ctx, m, handler, pool, dbase, key); err != nil {
		return err
	}
	m.HandCommits(func() (int64, int64) { c := store.HandCommits(); return c.Commits, c.Hands })
	if err := startMetrics(ctx, *metricsAddr, *metricsAddr != defaultMetricsAddr, m, log, stdout); err != nil {
		return err
	}
	if _, err := startPprof(ctx, getenv("STICHBUCH_PPROF"), log); err != nil {
		return err
	}
	backupCtx, stopBackups := context.WithCancel(ctx)
	waitBackups := backups.start(backupCtx, pool, m, log)
	defer func() { stopBackups(); waitBackups() }() // before PostgreSQL stops
	srv := &http.Server{
		Handler:           handler,
		TLSConfig:         nw.tls,
		ReadHeaderTimeout: *headerTimeout,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("serving", "addr", nw.api.Addr().String(), "https", nw.mode, "startup", time.Since(start).Round(time.Millisecond))
	// The setup link comes first: whoever waits for "listening on" has it.
	if cfg.SetupToken != "" {
		fmt.Fprintf(stdout, "no club yet: open %s/?setup=%s to create it in the app (once), or run: stichbuch club create NAME\n", nw.reach.appURL(), cfg.SetupToken)
	}
	nw.reach.print(stdout)

	errc := make(chan error, 1)
	go func() {
		if nw.tls != nil {
			errc <- srv.ServeTLS(nw.api, "", "")
			return
		}
		errc <- srv.Serve(nw.api)
	}()
	if nw.redirect != nil {
		redirect := &http.Server{Handler: nw.redirectHandler, ReadHeaderTimeout: *headerTimeout, IdleTimeout: 120 * time.Second,
			ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
		go redirect.Serve(nw.redirect)
		defer redirect.Close()
		fmt.Fprintf(stdout, "plain HTTP on %s redirects to HTTPS\n", nw.redirect.Addr())
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	return shutdown(srv, handler, errc, log)
}

// instrument gives the metrics what serve knows: the open event streams,
// the database pool, the settlement versions stored, the embedded
// PostgreSQL's restarts, the chain key's id and the schema's version.
func instrument(ctx context.Context, m *metrics.Metrics, handler *api.Server, pool *pgxpool.Pool, db *runenv.Database, key chain.Key) error {
	m.OpenStreams(handler.OpenStreams)
	m.Pool(pool)
	m.SettlementVersions(func(ctx context.Context) (int64, error) { return postgres.SettlementVersions(ctx, pool) })
	m.PostgresRestarts(db.Restarts)
	statuses, err := postgres.Migrations(ctx, pool)
	if err != nil {
		return err
	}
	var version int64
	for _, st := range statuses {
		if !st.AppliedAt.IsZero() {
			version = max(version, st.Version)
		}
	}
	m.Info(key.IDHex(), version)
	return nil
}

// migrateAndSeal applies the pending migrations and seals the rows of the
// trigger era with the chain key, as serve does before it listens.
func migrateAndSeal(ctx context.Context, pool *pgxpool.Pool, key chain.Key, log *slog.Logger) error {
	applied, err := postgres.Migrate(ctx, pool)
	if err != nil {
		return err
	}
	if len(applied) > 0 {
		log.Info("migrated", "versions", applied)
	}
	sealed, err := postgres.SealLegacy(ctx, pool, key)
	if err != nil {
		return fmt.Errorf("sealing the rows of the trigger era: %w", err)
	}
	if len(sealed) > 0 {
		log.Warn("sealed the hands and revisions of the trigger era (unkeyed hashes) with the chain key", "clubs", sealed)
	}
	return nil
}

// The shutdown's budget, well inside Docker's default stop timeout of
// 10 s, with PostgreSQL's stop after it: the event streams get their final
// event first, then the other requests drain.
const (
	streamsEndWithin = time.Second
	drainWithin      = 3 * time.Second
)

// shutdown ends the event streams (each with `event: shutdown` and a
// retry hint), then drains the requests in flight; connections still busy
// after drainWithin are closed. serve's caller stops PostgreSQL after it.
func shutdown(srv *http.Server, handler *api.Server, errc <-chan error, log *slog.Logger) error {
	log.Info("shutting down")
	start := time.Now()
	streamsCtx, cancelStreams := context.WithTimeout(context.Background(), streamsEndWithin)
	defer cancelStreams()
	if err := handler.EndStreams(streamsCtx); err != nil {
		log.Warn("event streams still open at shutdown", "err", err)
	}
	drainCtx, cancelDrain := context.WithTimeout(context.Background(), drainWithin)
	defer cancelDrain()
	if err := srv.Shutdown(drainCtx); err != nil {
		log.Warn("requests still running after the drain; closing their connections", "err", err)
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("HTTP server stopped", "took", time.Since(start).Round(time.Millisecond))
	return nil
}

func migrate(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	var db dbFlags
	db.register(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return err
	}
	action := fs.Arg(0)
	if action == "" {
		action = "up"
	}
	if action != "up" && action != "status" {
		return fmt.Errorf("migrate: unknown action %q (status or up)", action)
	}
	pool, closeDB, err := db.database(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer closeDB()
	if action == "up" {
		applied, err := postgres.Migrate(ctx, pool)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "applied %d migration(s) %v\n", len(applied), applied)
	}
	statuses, err := postgres.Migrations(ctx, pool)
	if err != nil {
		return err
	}
	for _, st := range statuses {
		state := "pending"
		if !st.AppliedAt.IsZero() {
			state = "applied " + st.AppliedAt.Format(time.RFC3339)
		}
		fmt.Fprintf(stdout, "%05d  %-30s  %s\n", st.Version, st.Name, state)
	}
	return nil
}

func club(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: stichbuch club create NAME [--time-zone Europe/Berlin]")
	}
	fs := flag.NewFlagSet("club create", flag.ContinueOnError)
	var db dbFlags
	db.register(fs, getenv)
	tz := fs.String("time-zone", "Europe/Berlin", "the club's IANA time zone (session dates and thresholds use it)")
	names, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	name := strings.Join(names, " ")
	if name == "" {
		return errors.New("usage: stichbuch club create NAME")
	}
	pool, closeDB, err := db.migrated(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer closeDB()
	c, secret, err := postgres.New(pool, chain.Key{}).Service().CreateClub(ctx, ledger.NewClub{Name: name, TimeZone: *tz})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "club %d %q created.\nadmin API key (shown once, keep it safe):\n%s\n", c.ID, c.Name, secret)
	return nil
}

// parseInterspersed parses args with fs, flags before, between or after
// the other arguments, which it returns in order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var out []string
	for rest := args; len(rest) > 0; rest = fs.Args()[1:] {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		out = append(out, fs.Arg(0))
	}
	return out, nil
}

// healthcheck asks a running service whether it is ready; for container
// health checks, where no curl is installed.
func healthcheck(ctx context.Context, args []string) error {
	url := "http://127.0.0.1:8080/readyz"
	if len(args) > 0 {
		url = args[0]
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %d", url, res.StatusCode)
	}
	return nil
}

// requestTimeout reads STICHBUCH_REQUEST_TIMEOUT, the bound of a
// request's work (a Go duration; 0 or unset: api.DefaultRequestTimeout).
func requestTimeout(getenv func(string) string) (time.Duration, error) {
	v := getenv("STICHBUCH_REQUEST_TIMEOUT")
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("STICHBUCH_REQUEST_TIMEOUT: want a duration such as 15s, got %q", v)
	}
	return d, nil
}

// redactURL is a database URL without its password, for the log.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable)"
	}
	return u.Redacted()
}
