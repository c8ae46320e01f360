package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/stichbuch/stichbuch/cmd/internal/loopback"
	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
)

// --- the service ---------------------------------------------------------------

// loadService is the service under load: its base URL, its process (when
// known) and its database (when known).
type loadService struct {
	base  string
	pid   int
	pgPID int // the embedded cluster's postmaster, when started here
	dbURL string
	stop  func()
}

// startLoadService starts `stichbuch serve` (see serviceBinary) as a
// process of its own on a free loopback port. Without DATABASE_URL it first
// starts the embedded PostgreSQL in the data directory (or uses the one a
// running stichbuch serve shares) and hands the service its URL, so the service process is the Go service
// alone and pgbench can reach the same database.
func startLoadService(ctx context.Context, o loadOptions, getenv func(string) string, log *slog.Logger) (*loadService, error) {
	db, err := runenv.OpenDatabase(ctx, runenv.Operator, "stichbuch-bench load", o.data, getenv, log)
	if err != nil {
		return nil, err
	}
	svc := &loadService{dbURL: db.URL, pgPID: db.Postmaster(), stop: func() {}}
	bin, removeBin, err := serviceBinary(ctx, o.bin, log)
	if err != nil {
		db.Close()
		return nil, err
	}
	cleanup := func() {
		removeBin()
		db.Close()
	}
	// No metrics listener: the load tool measures the API alone, and a
	// second service on the machine would find the default port taken.
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--metrics-addr", "off")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+svc.dbURL)
	if keyFile, err := runenv.ChainKeyPath(getenv, o.data); err == nil {
		// The service's chain key: the data directory's, or the one the
		// environment names.
		cmd.Env = append(cmd.Env, "STICHBUCH_CHAIN_KEY_FILE="+keyFile)
	}
	if getenv("STICHBUCH_RATE_LIMIT") == "" {
		// The per-key limit guards against runaway phones; a load test is one
		// on purpose. Set STICHBUCH_RATE_LIMIT to measure with a limit.
		cmd.Env = append(cmd.Env, "STICHBUCH_RATE_LIMIT=0")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cleanup()
		return nil, err
	}
	var logTail runenv.TailBuffer
	cmd.Stderr = &logTail // one line per request at the default level: kept short
	if err := cmd.Start(); err != nil {
		cleanup()
		return nil, err
	}
	svc.pid = cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	svc.stop = func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		cleanup()
	}
	addr := listeningOn(out)
	select {
	case svc.base = <-addr:
	case err := <-done:
		done <- err
		cleanup()
		return nil, fmt.Errorf("load: the service ended before listening: %v\n%s", err, logTail.String())
	case <-time.After(2 * time.Minute):
		svc.stop()
		return nil, fmt.Errorf("load: the service did not start listening:\n%s", logTail.String())
	case <-ctx.Done():
		svc.stop()
		return nil, ctx.Err()
	}
	return svc, nil
}

// servicePackage is the service's main package, built when no binary is at hand.
const servicePackage = "github.com/stichbuch/stichbuch/cmd/stichbuch"

// serviceBinary finds the stichbuch executable --start runs: bin when
// given; else stichbuch beside this executable (both built or installed
// together, as run.sh does); else one built now with go build from the
// module in the working directory (as under `go run
// ./cmd/stichbuch-bench`), which remove deletes again.
func serviceBinary(ctx context.Context, bin string, log *slog.Logger) (path string, remove func(), err error) {
	keep := func() {}
	if bin != "" {
		return bin, keep, nil
	}
	if exe, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(exe), "stichbuch")
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			log.Info("starting the stichbuch beside this executable", "bin", beside)
			return beside, keep, nil
		}
	}
	dir, err := os.MkdirTemp("", "stichbuch-bench-")
	if err != nil {
		return "", nil, err
	}
	path = filepath.Join(dir, "stichbuch")
	start := time.Now()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", path, servicePackage).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("load: --start found no stichbuch beside this executable, and go build %s failed (run it in the module's checkout, or give --bin): %v\n%s", servicePackage, err, out)
	}
	log.Info("built stichbuch", "bin", path, "took", time.Since(start).Round(time.Millisecond))
	return path, func() { os.RemoveAll(dir) }, nil
}

// createLoadClub creates a club for the run in the service's database and
// returns its admin key (as `stichbuch club create` does).
func createLoadClub(ctx context.Context, dbURL string) (string, error) {
	if dbURL == "" {
		return "", errors.New("load: no database to create a club in; give --key")
	}
	pool, err := postgres.Connect(ctx, dbURL)
	if err != nil {
		return "", err
	}
	defer pool.Close()
	if _, err := postgres.Migrate(ctx, pool); err != nil {
		return "", err
	}
	_, secret, err := newLedgerWriter(pool, chain.Key{}).CreateClub(ctx, ledger.NewClub{Name: "Lasttest " + time.Now().Format("2006-01-02 15:04:05.000")})
	return secret, err
}

// keyIDs reads the club and key ids out of a key "sb_<club>_<key>_<secret>".
func keyIDs(key string) (clubID, keyID int64, err error) {
	parts := strings.SplitN(strings.TrimPrefix(key, "sb_"), "_", 3)
	if len(parts) == 3 {
		clubID, err1 := strconv.ParseInt(parts[0], 10, 64)
		keyID, err2 := strconv.ParseInt(parts[1], 10, 64)
		if err1 == nil && err2 == nil {
			return clubID, keyID, nil
		}
	}
	return 0, 0, errors.New("load: the key is not a stichbuch key sb_<club>_<key>_<secret>")
}

// checkLoopback refuses any service that is not on this machine's loopback.
func checkLoopback(base string) error {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("load: %q is not an http URL", base)
	}
	if !loopback.Host(u.Hostname()) {
		return fmt.Errorf("load: %s is not a loopback address; the load tool only drives a service on this machine", u.Hostname())
	}
	return nil
}

// listeningOn reads a started service's output for its "listening on"
// line and sends the address it names, once; the rest of the output is
// read and dropped, so the service never blocks on a full pipe.
func listeningOn(out io.Reader) <-chan string {
	addr := make(chan string, 1)
	re := regexp.MustCompile(`listening on (http://\S+)`)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, out)
	}()
	return addr
}
