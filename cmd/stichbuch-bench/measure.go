package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stichbuch/stichbuch/ledger/postgres/cluster"
)

// --- measuring processes -------------------------------------------------------

// peakRSSMB is process pid's peak resident set in MB, 0 when unknown.
func peakRSSMB(pid int) float64 {
	if pid == 0 {
		return 0
	}
	hwm, err := procStatusKB(pid, "VmHWM")
	if err != nil {
		return 0
	}
	return float64(hwm) / 1024
}

// printJSON prints a run's result as indented JSON (--json).
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// procStatusKB reads a "Name:   123 kB" line of /proc/PID/status.
func procStatusKB(pid int, name string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, name+":"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", name, pid)
}

// cpuSample is the CPU seconds used so far by the service, this process
// and the whole machine (busy and total, in clock ticks).
type cpuSample struct {
	at                      time.Time
	service, self, postgres float64
	busy, total             float64
}

const clockTicks = 100 // USER_HZ, 100 on every Linux we run on

// procCPU returns a process's parent and the CPU seconds it has used.
func procCPU(pid int) (ppid int, seconds float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0
	}
	// Fields after the command's closing parenthesis: state, ppid, …, utime
	// and stime are the 14th and 15th of the line.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, 0
	}
	ppid, _ = strconv.Atoi(f[1])
	u, _ := strconv.ParseFloat(f[11], 64)
	k, _ := strconv.ParseFloat(f[12], 64)
	return ppid, (u + k) / clockTicks
}

func sampleCPU(pid, pgPID int) cpuSample {
	s := cpuSample{at: time.Now()}
	if pid != 0 {
		_, s.service = procCPU(pid)
	}
	if pgPID != 0 { // the postmaster and its children, the backends
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			p, err := strconv.Atoi(d.Name())
			if err != nil {
				continue
			}
			if ppid, cpu := procCPU(p); p == pgPID || ppid == pgPID {
				s.postgres += cpu
			}
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.self = float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		for i, v := range f[1:] {
			x, _ := strconv.ParseFloat(v, 64)
			if i >= 8 { // guest time is already in user
				break
			}
			s.total += x
			if i != 3 && i != 4 { // idle, iowait
				s.busy += x
			}
		}
	}
	return s
}

// --- pgbench -------------------------------------------------------------------

// runPgbench runs the script with one client per table of the run (client
// i works on table i, as the load tool's client i did) for d.
func runPgbench(ctx context.Context, getenv func(string) string, dbURL, script string, d time.Duration, clubID, keyID int64, tables []*loadTable) (*pgbenchResult, error) {
	for i, t := range tables { // the script finds its ids by arithmetic
		if t.id != tables[0].id+int64(i) || t.session != tables[0].session+int64(i) ||
			t.players[0] != tables[0].players[0]+4*int64(i) || t.players[3] != t.players[0]+3 {
			return nil, errors.New("load: the tables' ids are not consecutive (was the database busy during set-up?); pgbench needs them so")
		}
	}
	bin, err := findPgbench(getenv)
	if err != nil {
		return nil, err
	}
	n := len(tables)
	args := []string{"-n", "-M", "prepared", "-c", strconv.Itoa(n), "-j", strconv.Itoa(min(n, runtime.NumCPU())),
		"-T", strconv.Itoa(int(math.Ceil(d.Seconds()))), "-f", script,
		"-D", fmt.Sprintf("club=%d", clubID), "-D", fmt.Sprintf("key=%d", keyID),
		"-D", fmt.Sprintf("table0=%d", tables[0].id), "-D", fmt.Sprintf("session0=%d", tables[0].session),
		"-D", fmt.Sprintf("player0=%d", tables[0].players[0]), dbURL}
	return execPgbench(ctx, bin, args, script, n, d, "")
}

// execPgbench runs pgbench with args and reads its TPS, average latency
// and failures; with logDir it also keeps the per-transaction log there and
// reads the 99th percentile from it.
func execPgbench(ctx context.Context, bin string, args []string, script string, clients int, d time.Duration, logDir string) (*pgbenchResult, error) {
	if logDir != "" {
		args = append([]string{"-l", "--log-prefix", filepath.Join(logDir, "pgbench")}, args...)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "PGAPPNAME=stichbuch-load-pgbench")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("load: pgbench: %v\n%s", err, out)
	}
	r := &pgbenchResult{Script: script, Clients: clients, Seconds: math.Ceil(d.Seconds())}
	if m := regexp.MustCompile(`tps = ([0-9.]+) \(without initial`).FindSubmatch(out); m != nil {
		r.TPS, _ = strconv.ParseFloat(string(m[1]), 64)
	} else {
		return nil, fmt.Errorf("load: no tps in pgbench's output:\n%s", out)
	}
	if m := regexp.MustCompile(`latency average = ([0-9.]+) ms`).FindSubmatch(out); m != nil {
		r.LatencyAvgMS, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	if m := regexp.MustCompile(`number of failed transactions: ([0-9]+)`).FindSubmatch(out); m != nil {
		r.Failed, _ = strconv.Atoi(string(m[1]))
	}
	if logDir != "" {
		lat, err := pgbenchLatencies(logDir)
		if err != nil {
			return nil, err
		}
		r.P99MS = percentiles(lat).P99
	}
	return r, nil
}

// runLeastCost creates the least-cost schema (the _setup.sql beside script)
// in the service's database and runs script with clients clients for d, or
// with as many as the cluster has free connections for (then Wanted says
// how many were asked for).
func runLeastCost(ctx context.Context, getenv func(string) string, dbURL, script string, d time.Duration, clients int) (*pgbenchResult, error) {
	setup, err := os.ReadFile(strings.TrimSuffix(script, ".sql") + "_setup.sql")
	if err != nil {
		return nil, fmt.Errorf("load: --leastcost: %w", err)
	}
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	_, err = conn.Exec(ctx, string(setup))
	var free int
	if err == nil {
		err = conn.QueryRow(ctx, `SELECT current_setting('max_connections')::int - (SELECT count(*) FROM pg_stat_activity) - 5`).Scan(&free)
	}
	conn.Close(ctx)
	if err != nil {
		return nil, fmt.Errorf("load: --leastcost: the schema: %w", err)
	}
	wanted := clients
	clients = max(1, min(clients, free))
	bin, err := findPgbench(getenv)
	if err != nil {
		return nil, err
	}
	logDir, err := os.MkdirTemp("", "stichbuch-leastcost-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(logDir)
	args := []string{"-n", "-M", "prepared", "-c", strconv.Itoa(clients), "-j", strconv.Itoa(min(clients, runtime.NumCPU())),
		"-T", strconv.Itoa(int(math.Ceil(d.Seconds()))), "-f", script, dbURL}
	r, err := execPgbench(ctx, bin, args, script, clients, d, logDir)
	if err == nil && clients < wanted {
		r.Wanted = wanted
	}
	return r, err
}

// pgbenchLatencies reads every transaction's latency from pgbench's
// per-transaction logs in dir (the third field, in microseconds).
func pgbenchLatencies(dir string) ([]time.Duration, error) {
	files, err := filepath.Glob(filepath.Join(dir, "pgbench*"))
	if err != nil {
		return nil, err
	}
	var lat []time.Duration
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		for line := range strings.Lines(string(data)) {
			f := strings.Fields(line)
			if len(f) < 3 {
				continue
			}
			if us, err := strconv.ParseInt(f[2], 10, 64); err == nil {
				lat = append(lat, time.Duration(us)*time.Microsecond)
			}
		}
	}
	return lat, nil
}

// findPgbench finds pgbench beside the server binaries stichbuch uses
// (following a symlinked initdb to its directory), else in PATH.
func findPgbench(getenv func(string) string) (string, error) {
	if dir, err := cluster.FindBinaries(getenv); err == nil {
		dirs := []string{dir}
		if real, err := filepath.EvalSymlinks(filepath.Join(dir, "initdb")); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, "pgbench")); err == nil {
				return filepath.Join(d, "pgbench"), nil
			}
		}
	}
	if bin, err := exec.LookPath("pgbench"); err == nil {
		return bin, nil
	}
	return "", errors.New("load: no pgbench found beside the PostgreSQL server binaries or in PATH")
}
