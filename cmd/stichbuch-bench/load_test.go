package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
)

// runLoad runs `stichbuch-bench load` with args and returns its JSON result.
func runLoad(t *testing.T, getenv func(string) string, args ...string) loadResult {
	t.Helper()
	var stdout, stderr cmdtest.SyncBuffer
	err := run(context.Background(), append([]string{"stichbuch-bench", "load", "--json"}, args...), getenv, &stdout, &stderr)
	if err != nil {
		t.Fatalf("load %v: %v\n%s\n%s", args, err, stdout.String(), stderr.String())
	}
	var res loadResult
	if err := json.Unmarshal([]byte(stdout.String()), &res); err != nil {
		t.Fatalf("load printed no JSON result: %v\n%s", err, stdout.String())
	}
	return res
}

// checkCounts: every request is counted once by status, every 201 is a
// stored hand, and nothing failed on the server.
func checkCounts(t *testing.T, res loadResult) {
	t.Helper()
	sum := 0
	for _, n := range res.Statuses {
		sum += n
	}
	if sum != res.Requests || res.Requests == 0 {
		t.Errorf("statuses %v add up to %d, requests %d", res.Statuses, sum, res.Requests)
	}
	if res.Statuses["201"] != res.Hands || res.Hands == 0 {
		t.Errorf("%d hands but %d answers 201", res.Hands, res.Statuses["201"])
	}
	if res.Hands+res.WarmupHands != res.CreatedTotal || res.StoredHands != res.CreatedTotal || !res.CountsAgree {
		t.Errorf("hands %d + warm-up %d, answered 201 %d, stored %d", res.Hands, res.WarmupHands, res.CreatedTotal, res.StoredHands)
	}
	if res.ServerErrors != 0 || res.Errors != 0 {
		t.Errorf("%d errors, %d of them 5xx or transport: %v", res.Errors, res.ServerErrors, res.Statuses)
	}
	if l := res.LatencyMS; !(0 < l.P50 && l.P50 <= l.P95 && l.P95 <= l.P99 && l.P99 <= l.Max) {
		t.Errorf("latency percentiles out of order: %+v", l)
	}
}

// TestLoadAgainstAService runs the load tool for about two seconds against
// a service on a test database: tables of all five games (every hand the
// tool sends must be valid), pgbench's script on the same tables, and a hot
// table whose numbers must stay gap-free. Timings are not asserted.
func TestLoadAgainstAService(t *testing.T) {
	dbURL := pgtest.URL(t)
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": dbURL, "STICHBUCH_RATE_LIMIT": "0", "LOG_LEVEL": "warn"})
	svc := startAPI(t, getenv)
	defer svc.stop()
	key := seedClub(t, getenv)

	args := []string{"--url", svc.base, "--key", key, "--tables", "5", "--games", "mix", "--duration", "1s", "--warmup", "200ms"}
	if script, err := filepath.Abs("../../ledger/postgres/bench/hand.sql"); err == nil && havePgbench() {
		args = append(args, "--pgbench", script, "--leastcost", filepath.Join(filepath.Dir(script), "leastcost.sql"))
	} else {
		t.Log("no pgbench: the reference script is not run")
	}
	res := runLoad(t, getenv, args...)
	checkCounts(t, res)
	if res.Tables != 5 || res.Mode != "tables" {
		t.Errorf("ran %d tables in mode %s", res.Tables, res.Mode)
	}
	if res.PGBench != nil && (res.PGBench.TPS <= 0 || res.PGBench.Failed != 0 || res.PGBench.Clients != 5) {
		t.Errorf("pgbench: %+v", *res.PGBench)
	}
	if lc := res.LeastCost; havePgbench() && (lc == nil || lc.TPS <= 0 || lc.P99MS <= 0 || lc.Clients != 5 || lc.Ratio <= 0) {
		t.Errorf("least cost: %+v", lc)
	}

	hot := runLoad(t, getenv, "--url", svc.base, "--key", key, "--tables", "4", "--hot", "--duration", "600ms", "--warmup", "0")
	if hot.GapFree == nil || !*hot.GapFree {
		t.Errorf("hot table: numbers not gap-free (%v)", hot.GapFree)
	}
	if hot.Statuses["201"]+hot.Statuses["409"] != hot.Requests {
		t.Errorf("hot table: statuses %v, want only 201 and 409", hot.Statuses)
	}
	checkCounts(t, hot)

	// Streams and stalled uploads held through a run: every stream opens
	// and receives the run's changes; the service answers every stalled
	// key-less upload without waiting for its body.
	pressed := runLoad(t, getenv, "--url", svc.base, "--key", key, "--tables", "1", "--duration", "500ms", "--warmup", "0",
		"--streams", "3", "--stalled", "2")
	checkCounts(t, pressed)
	p := pressed.Pressure
	switch {
	case p == nil:
		t.Fatal("--streams and --stalled: no pressure reported")
	case p.StreamsOpen != 3 || p.StreamsRefused != 0:
		t.Errorf("streams: %d open, %d refused, want 3 open", p.StreamsOpen, p.StreamsRefused)
	case p.Events == 0:
		t.Errorf("streams delivered no events while %d hands were recorded", pressed.CreatedTotal)
	case p.Stalled != 2:
		t.Errorf("stalled uploads: %d, want 2", p.Stalled)
	}
}

func TestLoadRefusesOtherHosts(t *testing.T) {
	getenv := cmdtest.Env(nil)
	var out cmdtest.SyncBuffer
	for _, url := range []string{"http://example.com", "http://10.1.2.3:8080", "ftp://127.0.0.1"} {
		if err := run(context.Background(), []string{"stichbuch-bench", "load", "--url", url, "--key", "sb_1_1_x", "--duration", "1s"}, getenv, &out, &out); err == nil {
			t.Errorf("load --url %s: no error", url)
		}
	}
}

func havePgbench() bool {
	_, err := findPgbench(os.Getenv)
	return err == nil
}

// TestLoadStatsReadsAGeneratedClub runs the stats mode with a reader key on
// a small generated history: every kind of question is asked and answered
// 200, the counts add up, and the leaderboard's year ends on the club's
// last evening. Timings are not asserted.
func TestLoadStatsReadsAGeneratedClub(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.URL(t)
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": dbURL, "STICHBUCH_RATE_LIMIT": "0", "LOG_LEVEL": "warn"})
	var out, errOut cmdtest.SyncBuffer
	if err := run(ctx, []string{"stichbuch-bench", "generate", "--hands", "400", "--tables", "5", "--seed", "11", "--workers", "2", "--until", "2026-03-31"},
		getenv, &out, &errOut); err != nil {
		t.Fatalf("generate: %v\n%s", err, errOut.String())
	}
	admin := regexp.MustCompile(`sb_\S+`).FindString(out.String())
	if admin == "" {
		t.Fatalf("generate printed no admin key:\n%s", out.String())
	}
	svc := startAPI(t, getenv)
	defer svc.stop()
	// A reader key, as a club hands one to its members' app.
	_, reader, err := newLoadClient(svc.base, admin, 1, 10*time.Second).create(ctx, "Bearer "+admin, "/v1/keys", map[string]any{"role": "reader", "label": "stats"})
	if err != nil || reader == "" {
		t.Fatalf("creating a reader key: %q, %v", reader, err)
	}

	var stdout, stderr cmdtest.SyncBuffer
	err = run(ctx, []string{"stichbuch-bench", "load", "--json", "--stats", "--url", svc.base, "--key", reader,
		"--tables", "2", "--duration", "700ms", "--warmup", "100ms"}, getenv, &stdout, &stderr)
	if err != nil {
		t.Fatalf("load --stats: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	var res statsResult
	if err := json.Unmarshal([]byte(stdout.String()), &res); err != nil {
		t.Fatalf("load --stats printed no JSON: %v\n%s", err, stdout.String())
	}
	if res.Players != 20 || res.Clients != 2 {
		t.Errorf("read %d players with %d clients, want 20 and 2", res.Players, res.Clients)
	}
	if res.Errors != 0 || res.Requests == 0 || res.Statuses["200"] != res.Requests {
		t.Errorf("%d requests, %d errors, statuses %v", res.Requests, res.Errors, res.Statuses)
	}
	to, err := time.Parse(time.DateOnly, res.To)
	if err != nil || res.To > "2026-03-31" || res.From != to.AddDate(-1, 0, 1).Format(time.DateOnly) {
		t.Errorf("leaderboard period %s..%s: want the year up to the last evening, on or before 2026-03-31", res.From, res.To)
	}
	want := []string{"player lifetime", "one-year leaderboard", "partner table"}
	if len(res.Queries) != len(want) {
		t.Fatalf("measured %d kinds of request, want %d: %+v", len(res.Queries), len(want), res.Queries)
	}
	sum := 0
	for i, q := range res.Queries {
		sum += q.Requests
		if q.Name != want[i] || q.Requests == 0 {
			t.Errorf("query %d: %s with %d requests, want %s with some", i, q.Name, q.Requests, want[i])
		}
		if l := q.LatencyMS; !(0 < l.P50 && l.P50 <= l.P95 && l.P95 <= l.P99 && l.P99 <= l.Max) {
			t.Errorf("%s: latency percentiles out of order: %+v", q.Name, l)
		}
		if q.Cold.P50 <= 0 {
			t.Errorf("%s: no first pass measured", q.Name)
		}
	}
	if sum != res.Requests {
		t.Errorf("the kinds add up to %d requests, the run counted %d", sum, res.Requests)
	}

	// Without a key there is no club to read.
	err = run(ctx, []string{"stichbuch-bench", "load", "--stats", "--url", svc.base}, getenv, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "--key") {
		t.Errorf("--stats without --key: %v, want an error naming --key", err)
	}
}

// TestLoadStartsTheService runs load --start the way the README does: the
// tool builds `stichbuch serve` (no stichbuch lies beside the test binary),
// runs it as a process of its own against the database, creates a club and
// measures; the service's process is measured apart from the tool's.
func TestLoadStartsTheService(t *testing.T) {
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	res := runLoad(t, getenv, "--start", "--tables", "2", "--duration", "500ms", "--warmup", "100ms")
	checkCounts(t, res)
	if !res.Started || !strings.HasPrefix(res.Service, "http://127.0.0.1:") {
		t.Errorf("started %v, service %q: want a service started on loopback", res.Started, res.Service)
	}
	if res.PeakRSSMB <= 0 {
		t.Errorf("peak RSS %.1f MB: the started service's process was not measured", res.PeakRSSMB)
	}

	var out cmdtest.SyncBuffer
	err := run(context.Background(), []string{"stichbuch-bench", "load", "--start", "--bin", filepath.Join(t.TempDir(), "missing"), "--duration", "1s"}, getenv, &out, &out)
	if err == nil {
		t.Error("load --start with a --bin that does not exist: no error")
	}
	err = run(context.Background(), []string{"stichbuch-bench", "load", "--url", "http://127.0.0.1:1", "--key", "sb_1_1_x", "--bin", "stichbuch"}, getenv, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "--start") {
		t.Errorf("--bin without --start: %v, want a refusal naming --start", err)
	}
}

// TestLoadSpreadsTablesOverClubs: --clubs 3 --tables 6 puts two tables in
// each of three clubs, each with its own admin key and phones; every 201
// is a stored hand and the hands are in all three clubs.
func TestLoadSpreadsTablesOverClubs(t *testing.T) {
	dbURL := pgtest.URL(t)
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": dbURL, "STICHBUCH_RATE_LIMIT": "0", "LOG_LEVEL": "warn"})
	svc := startAPI(t, getenv)
	defer svc.stop()
	key := seedClub(t, getenv)
	res := runLoad(t, getenv, "--url", svc.base, "--key", key, "--tables", "6", "--clubs", "3", "--duration", "600ms", "--warmup", "0")
	checkCounts(t, res)
	if res.Clubs != 3 || res.Tables != 6 {
		t.Errorf("ran %d tables in %d clubs, want 6 in 3", res.Tables, res.Clubs)
	}
	pool, err := postgres.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var clubs, tables, keys int
	if err := pool.QueryRow(context.Background(), `
		SELECT count(DISTINCT h.club_id), count(DISTINCT h.table_id),
		       (SELECT count(DISTINCT club_id) FROM api_keys WHERE role = 'scorer')
		FROM hands h`).Scan(&clubs, &tables, &keys); err != nil {
		t.Fatal(err)
	}
	if clubs != 3 || tables != 6 || keys != 3 {
		t.Errorf("hands in %d clubs at %d tables, scorer keys in %d clubs; want 3, 6, 3", clubs, tables, keys)
	}
	if err := run(context.Background(), []string{"stichbuch-bench", "load", "--url", svc.base, "--key", key, "--tables", "2", "--clubs", "3"}, getenv, io.Discard, io.Discard); err == nil {
		t.Error("--clubs 3 with 2 tables accepted")
	}
}
