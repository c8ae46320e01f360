package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// scrape reads the metrics serve shows, as text and parsed.
func scrape(t *testing.T, url string) (string, map[string]*dto.MetricFamily) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, raw)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the metrics do not parse: %v", err)
	}
	return string(raw), families
}

// value is the sum of a family's samples whose labels include labels.
func value(families map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	f := families[name]
	if f == nil {
		return -1
	}
	var sum float64
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for i := 0; i+1 < len(labels); i += 2 {
			if have[labels[i]] != labels[i+1] {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		case m.Untyped != nil:
			sum += m.Untyped.GetValue()
		}
	}
	return sum
}

// labelValues lists the values a family's samples have for label.
func labelValues(families map[string]*dto.MetricFamily, name, label string) []string {
	var out []string
	for _, m := range families[name].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == label {
				out = append(out, l.GetValue())
			}
		}
	}
	return out
}

// TestMetricsOfAnEvening scripts an evening through serve and reads
// /metrics on its own listener: the hands recorded, refused (by code and
// field, list indices dropped) and corrected, the settlement versions and
// the open streams match what was done; requests are labelled by route
// template, never by a path with ids; the chain key and the schema show
// as info; the pool and the Go and process collectors are there; and the
// whole passes the client library's linter and, where Debian's
// prometheus package is installed, `promtool check metrics`.
func TestMetricsOfAnEvening(t *testing.T) {
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	key := createClub(t, getenv)
	svc := startService(t, getenv, "--metrics-addr", "127.0.0.1:0")
	defer svc.stop()
	m := regexp.MustCompile(`metrics on (http://\S+/metrics)`).FindStringSubmatch(svc.out.String())
	if m == nil {
		t.Fatalf("serve does not say where its metrics are:\n%s", svc.out.String())
	}
	if res, err := http.Get(svc.base + "/metrics"); err == nil {
		res.Body.Close()
		if res.StatusCode == 200 {
			t.Errorf("the metrics are on the API's public listener too")
		}
	}

	table := recordEvening(t, svc.base, key) // hand 1
	base := fmt.Sprintf("%s/v1/tables/%v", svc.base, table)
	session := call(t, "GET", base, key, nil, 200)["open_session_id"]
	var ids []float64
	for _, p := range call(t, "GET", svc.base+"/v1/players", key, nil, 200)["players"].([]any) {
		ids = append(ids, p.(map[string]any)["id"].(float64))
	}
	facts := func(tricks ...int) map[string]any {
		hearts := [][]int{{2, 5, 13}, {14}, {3, 4, 6, 7, 8, 9, 10}, {11, 12}}
		var players []map[string]any
		for i, id := range ids {
			players = append(players, map[string]any{"player": id, "tricks": tricks[i], "hearts": hearts[i], "pik_dame": i == 1})
		}
		return map[string]any{"dealer": ids[0], "players": players}
	}
	hand := func(n int, f map[string]any) map[string]any {
		return map[string]any{"session_id": session, "number": n, "facts": f}
	}
	post := func(path string, body any, want int, headers ...string) map[string]any {
		t.Helper()
		var raw []byte
		if body != nil {
			raw, _ = json.Marshal(body)
		}
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(raw))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		return do(t, req, want)
	}
	post("/hands", hand(2, facts(4, 3, 5, 1)), 201, "Idempotency-Key", "hand-2")
	post("/hands", hand(2, facts(4, 3, 5, 1)), 201, "Idempotency-Key", "hand-2") // a retry: replayed, not counted
	post("/hands", hand(3, facts(3, 4, 5, 1)), 201)
	refused := post("/hands", hand(4, facts(4, 3, 5, 2)), 422) // 14 tricks
	post("/hands", hand(9, facts(4, 3, 5, 1)), 409)            // not the next number
	batch := post("/hands/batch", map[string]any{"hands": []any{
		map[string]any{"id": "6f1c2e0a-58d4-4d6b-9f8e-3a1b2c3d4e5f", "session_id": session, "number": 4, "facts": facts(4, 3, 5, 1)},
		map[string]any{"id": "6f1c2e0a-58d4-4d6b-9f8e-3a1b2c3d4e60", "session_id": session, "number": 5, "facts": facts(4, 3, 5, 3)},
	}}, 200)
	if r := batch["results"].([]any); r[0].(map[string]any)["status"] != "applied" || r[1].(map[string]any)["status"] != "refused" {
		t.Fatalf("batch: %v", batch)
	}
	revision := func(n int) string {
		return fmt.Sprintf(`"%v"`, call(t, "GET", fmt.Sprintf("%s/hands/%d", base, n), key, nil, 200)["revision"])
	}
	post("/hands/1/corrections", map[string]any{"reason": "Stiche verzählt", "facts": facts(5, 2, 5, 1)}, 201, "If-Match", revision(1))
	post("/hands/2/corrections", map[string]any{"reason": "falsch gegeben", "void": true}, 201, "If-Match", revision(2))
	post("/hands/4/undo", nil, 200)
	post("/hands/4/undo", nil, 200) // already void: a replay
	closeReq, _ := http.NewRequest("POST", fmt.Sprintf("%s/v1/sessions/%v/close", svc.base, session), nil)
	closeReq.Header.Set("Authorization", "Bearer "+key)
	do(t, closeReq, 200)
	post("/hands/3/corrections", map[string]any{"reason": "nachgezählt", "facts": facts(4, 4, 4, 1)}, 201, "If-Match", revision(3))

	// An event stream open while the metrics are read.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streamReq, _ := http.NewRequestWithContext(ctx, "GET", base+"/events", nil)
	streamReq.Header.Set("Authorization", "Bearer "+key)
	stream, err := http.DefaultClient.Do(streamReq)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("event stream: %v %v", err, stream)
	}
	defer stream.Body.Close()

	text, families := scrape(t, m[1])
	field := regexp.MustCompile(`\[[0-9]+\]`).ReplaceAllString(refused["field"].(string), "[]")
	for _, c := range []struct {
		what   string
		name   string
		labels []string
		want   float64
	}{
		{"hands recorded (1, 2, 3 and the batch's 4)", "stichbuch_hands_recorded_total", []string{"game", "schwarze_dame"}, 4},
		{"hands refused by the rules (one alone, one in the batch), by their field " + field, "stichbuch_hands_refused_total", []string{"code", "invalid", "field", field}, 2},
		{"a hand refused as not the next", "stichbuch_hands_refused_total", []string{"code", "conflict"}, 1},
		{"hands corrected with new facts", "stichbuch_hands_corrected_total", []string{"kind", "facts"}, 2},
		{"hands voided by a correction", "stichbuch_hands_corrected_total", []string{"kind", "void"}, 1},
		{"hands taken back", "stichbuch_hands_corrected_total", []string{"kind", "undo"}, 1},
		{"settlement versions (the close and a correction of the closed evening)", "stichbuch_settlement_versions", nil, 2},
		{"open event streams", "stichbuch_event_streams_open", nil, 1},
		{"the chain key's id", "stichbuch_chain_key_info", []string{"key_id", pgtest.ChainKey.IDHex()}, 1},
		{"hands POSTed and answered 201 (three stored, one replayed)", "stichbuch_http_requests_total", []string{"method", "POST", "route", "/v1/tables/{tableID}/hands", "status", "201"}, 4},
		{"their latencies", "stichbuch_http_request_duration_seconds", []string{"method", "POST", "route", "/v1/tables/{tableID}/hands"}, 6},
		{"hands the hand writer's commits held (the replay too: decided from the kept table, its key is refused by the write)", "stichbuch_hand_commit_hands_total", nil, 4},
		{"a closed evening's route", "stichbuch_http_requests_total", []string{"route", "/v1/sessions/{sessionID}/close"}, 1},
	} {
		if got := value(families, c.name, c.labels...); got != c.want {
			t.Errorf("%s: %s%v = %v, want %v", c.what, c.name, c.labels, got, c.want)
		}
	}
	for _, route := range append(labelValues(families, "stichbuch_http_requests_total", "route"), labelValues(families, "stichbuch_http_request_duration_seconds", "route")...) {
		if regexp.MustCompile(`/[0-9]`).MatchString(route) {
			t.Errorf("a route label holds a path with an id: %q", route)
		}
	}
	for _, name := range []string{"stichbuch_db_pool_acquired_connections", "stichbuch_db_pool_idle_connections", "stichbuch_db_pool_waits_total",
		"stichbuch_hand_commits_total", "stichbuch_embedded_postgres_restarts_total", "stichbuch_schema_migration_info", "stichbuch_backups_total",
		"go_goroutines", "process_resident_memory_bytes", "go_build_info"} {
		if families[name] == nil {
			t.Errorf("no %s in the metrics", name)
		}
	}
	if v := labelValues(families, "stichbuch_schema_migration_info", "version"); len(v) != 1 || v[0] < "20" {
		t.Errorf("the schema's version: %v", v)
	}
	lintMetrics(t, text)
}

// lintMetrics checks the metrics' names and help with the client
// library's linter, and with promtool where it is installed.
func lintMetrics(t *testing.T, text string) {
	t.Helper()
	problems, err := promlint.New(strings.NewReader(text)).Lint()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Log("promtool is not installed (apt-get install prometheus; .ci/run installs it): checked with the client library's linter alone")
		return
	}
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			t.Errorf("promtool check metrics: %s", sc.Text())
		}
		if err != nil {
			t.Errorf("promtool check metrics: %v", err)
		}
	}
}

func do(t *testing.T, req *http.Request, want int) map[string]any {
	t.Helper()
	return doWith(t, http.DefaultClient, req, want)
}

// doWith sends req with hc, fails unless it is answered with want, and
// decodes the answer.
func doWith(t *testing.T, hc *http.Client, req *http.Request, want int) map[string]any {
	t.Helper()
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d, want %d: %s", req.Method, req.URL, res.StatusCode, want, raw)
	}
	var out map[string]any
	json.Unmarshal(raw, &out)
	return out
}
