package main

// stichbuch-bench hacost: what synchronous replication costs, measured
// side by side in one run: the same many-clubs load against one service
// on the single embedded node, on the HA stack with synchronous_mode, and
// on the HA stack with asynchronous replication.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
)

type haCostRun struct {
	Round       int     `json:"round"`
	Name        string  `json:"name"`
	HandsPerSec float64 `json:"hands_per_second"`
	P50MS       float64 `json:"p50_ms"`
	P99MS       float64 `json:"p99_ms"`
	Hands       int     `json:"hands"`
	Errors      int     `json:"errors"`
	// Against the single embedded node of the same round.
	RateRatio float64 `json:"hands_per_second_over_single"`
	P99Ratio  float64 `json:"p99_over_single"`
}

func haCost(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("hacost", flag.ContinueOnError)
	fs.SetOutput(stdout)
	clubs := fs.Int("clubs", 20, "clubs")
	tables := fs.Int("tables", 40, "tables spread over the clubs, one phone each, closed loop")
	duration := fs.Duration("duration", 15*time.Second, "measured window of each of the three runs")
	bin := fs.String("bin", "", "the stichbuch executable (default: beside this one, else go build)")
	jsonOut := fs.Bool("json", false, "print the result as JSON")
	rounds := fs.Int("rounds", 1, "measure the three set-ups in turn this many times")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if b := haMissing(); b != "" {
		return fmt.Errorf("hacost: %s is missing", b)
	}
	dir, err := os.MkdirTemp("", "stichbuch-hacost-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	exe, removeBin, err := serviceBinary(ctx, *bin, log)
	if err != nil {
		return err
	}
	defer removeBin()
	keyFile := filepath.Join(dir, "chain.key")
	if err := os.WriteFile(keyFile, make([]byte, 32), 0o600); err != nil {
		return err
	}
	o := loadOptions{tables: *tables, clubs: *clubs, duration: *duration, warmup: 2 * time.Second, games: "doppelkopf", timeout: 20 * time.Second}
	measure := func(name, dbURL string) (haCostRun, error) {
		data := filepath.Join(dir, "serve-"+name)
		os.MkdirAll(data, 0o700)
		in, err := startInstance(ctx, name, exe, dbURL, keyFile, data)
		if err != nil {
			return haCostRun{}, err
		}
		defer in.stop()
		key, err := createLoadClub(ctx, dbURL)
		if err != nil {
			return haCostRun{}, err
		}
		svc := &loadService{base: in.base, pid: in.cmd.Process.Pid, dbURL: dbURL}
		res, err := measureLoad(ctx, o, svc, key, getenv)
		if err != nil {
			return haCostRun{}, err
		}
		log.Info("measured", "run", name, "hands/s", res.HandsPerSec, "p99", res.LatencyMS.P99)
		return haCostRun{Name: name, HandsPerSec: res.HandsPerSec, P50MS: res.LatencyMS.P50, P99MS: res.LatencyMS.P99, Hands: res.Hands, Errors: res.Errors}, nil
	}

	// The single embedded node, as `stichbuch serve` runs it, and the
	// stack, both up through every round.
	noURL := func(k string) string {
		if k == "DATABASE_URL" {
			return ""
		}
		return getenv(k)
	}
	db, err := runenv.OpenDatabase(ctx, runenv.Operator, "stichbuch-bench hacost", filepath.Join(dir, "single"), noURL, log)
	if err != nil {
		return err
	}
	defer db.Close()
	stack, err := startStack(ctx, dir, log)
	if err != nil {
		return err
	}
	defer stack.stop()
	setSync := func(on bool) error {
		out, err := exec.CommandContext(ctx, "patronictl", "-c", filepath.Join(dir, "ha", "patroni-1.yml"),
			"edit-config", "--set", fmt.Sprintf("synchronous_mode=%v", on), "--force").CombinedOutput()
		if err != nil {
			return fmt.Errorf("patronictl edit-config: %v\n%s", err, out)
		}
		// Patroni sets synchronous_standby_names within a loop_wait.
		time.Sleep(5 * time.Second)
		return nil
	}
	// The three set-ups in turn, round after round, so the machine's
	// other work falls on all three alike.
	var runs []haCostRun
	for round := 1; round <= *rounds; round++ {
		single, err := measure("single embedded node", db.URL)
		if err != nil {
			return err
		}
		if err := setSync(true); err != nil {
			return err
		}
		syncRun, err := measure("3 nodes, synchronous_mode", haWriteURL)
		if err != nil {
			return err
		}
		if err := setSync(false); err != nil {
			return err
		}
		asyncRun, err := measure("3 nodes, asynchronous", haWriteURL)
		if err != nil {
			return err
		}
		for _, r := range []haCostRun{single, syncRun, asyncRun} {
			r.Round = round
			if single.HandsPerSec > 0 && single.P99MS > 0 {
				r.RateRatio = r.HandsPerSec / single.HandsPerSec
				r.P99Ratio = r.P99MS / single.P99MS
			}
			runs = append(runs, r)
		}
	}
	if *jsonOut {
		return printJSON(stdout, runs)
	}
	fmt.Fprintf(stdout, "stichbuch hacost: %d tables in %d clubs, closed loop, %v each, %d round(s) in one run\n", *tables, *clubs, *duration, *rounds)
	for _, r := range runs {
		fmt.Fprintf(stdout, "  round %d  %-28s %7.1f hands/s (%.2f× single)  p50 %6.1f ms  p99 %7.1f ms (%.2f× single)  errors %d\n",
			r.Round, r.Name, r.HandsPerSec, r.RateRatio, r.P50MS, r.P99MS, r.P99Ratio, r.Errors)
	}
	return nil
}
