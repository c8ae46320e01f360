package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// service is a running `stichbuch serve`, started through run().
type service struct {
	base string
	stop func() error
	out  *cmdtest.SyncBuffer // what serve printed
	log  *cmdtest.SyncBuffer // what serve logged
}

func startService(t *testing.T, getenv func(string) string, args ...string) service {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr cmdtest.SyncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"stichbuch", "serve", "--addr", "127.0.0.1:0"}, args...), getenv, &stdout, &stderr)
	}()
	addr := regexp.MustCompile(`listening on (https?://\S+)`)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m := addr.FindStringSubmatch(stdout.String()); m != nil {
			stopped := false
			return service{base: m[1], out: &stdout, log: &stderr, stop: func() error {
				if stopped {
					return nil
				}
				stopped = true
				cancel()
				return <-done
			}}
		}
		select {
		case err := <-done:
			t.Fatalf("serve ended before listening: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	t.Fatalf("serve did not start listening:\n%s", stderr.String())
	return service{}
}

func createClub(t *testing.T, getenv func(string) string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"stichbuch", "club", "create", "Skatclub", "Eichel"}, args...), getenv, &stdout, &stderr)
	if err != nil {
		t.Fatalf("club create: %v\n%s", err, stderr.String())
	}
	key := regexp.MustCompile(`sb_\S+`).FindString(stdout.String())
	if key == "" {
		t.Fatalf("club create printed no key:\n%s", stdout.String())
	}
	return key
}

// post sends JSON and decodes the answer, failing on an unexpected status.
func call(t *testing.T, method, url, key string, body any, want int) map[string]any {
	t.Helper()
	var r io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, url, r)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, url, res.StatusCode, want, raw)
	}
	var out map[string]any
	json.Unmarshal(raw, &out)
	return out
}

// recordEvening creates four players, a table, a session and one hand (the
// worked example A of Schwarze Dame), returning the table id.
func recordEvening(t *testing.T, base, key string) float64 {
	var ids []float64
	for _, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		ids = append(ids, call(t, "POST", base+"/v1/players", key, map[string]any{"name": name}, 201)["id"].(float64))
	}
	table := call(t, "POST", base+"/v1/tables", key, map[string]any{"name": "Donnerstag", "game": "schwarze_dame"}, 201)["id"].(float64)
	session := call(t, "POST", fmt.Sprintf("%s/v1/tables/%v/sessions", base, table), key, map[string]any{"player_ids": ids}, 201)["id"].(float64)
	call(t, "POST", fmt.Sprintf("%s/v1/tables/%v/hands", base, table), key, map[string]any{
		"session_id": session, "number": 1,
		"facts": map[string]any{"dealer": ids[0], "players": []map[string]any{
			{"player": ids[0], "tricks": 4, "hearts": []int{2, 5, 13}},
			{"player": ids[1], "tricks": 3, "hearts": []int{14}, "pik_dame": true},
			{"player": ids[2], "tricks": 5, "hearts": []int{3, 4, 6, 7, 8, 9, 10}},
			{"player": ids[3], "tricks": 1, "hearts": []int{11, 12}},
		}},
	}, 201)
	return table
}

func standings(t *testing.T, base, key string, table float64) string {
	raw, _ := json.Marshal(call(t, "GET", fmt.Sprintf("%s/v1/tables/%v/standings", base, table), key, nil, 200))
	return string(raw)
}

// TestServeWantsAChainKeyWithDatabaseURL: with DATABASE_URL and no
// STICHBUCH_CHAIN_KEY_FILE, serve, verify and import refuse to start,
// saying what to set; club create needs no key.
func TestServeWantsAChainKeyWithDatabaseURL(t *testing.T) {
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn", "STICHBUCH_CHAIN_KEY_FILE": ""})
	createClub(t, getenv)
	doc := filepath.Join(t.TempDir(), "club.ndjson")
	if err := os.WriteFile(doc, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"serve", "--addr", "127.0.0.1:0"}, {"verify"}, {"import", doc}} {
		err := run(context.Background(), append([]string{"stichbuch"}, args...), getenv, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "set STICHBUCH_CHAIN_KEY_FILE") {
			t.Errorf("%s without a chain key: %v, want a refusal naming STICHBUCH_CHAIN_KEY_FILE", args[0], err)
		}
	}
}

// TestRunServesAndRecordsAHand starts the whole program on a free port
// against DATABASE_URL and records a hand over HTTP.
func TestRunServesAndRecordsAHand(t *testing.T) {
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	key := createClub(t, getenv)
	svc := startService(t, getenv)
	defer svc.stop()
	if err := run(context.Background(), []string{"stichbuch", "healthcheck", svc.base + "/readyz"}, getenv, io.Discard, io.Discard); err != nil {
		t.Errorf("healthcheck of a ready service: %v", err)
	}
	table := recordEvening(t, svc.base, key)
	got := standings(t, svc.base, key, table)
	for _, want := range []string{`"points":"20"`, `"points":"-13"`} {
		if !strings.Contains(got, want) {
			t.Errorf("standings %s lack %s", got, want)
		}
	}
	if err := svc.stop(); err != nil {
		t.Errorf("graceful shutdown: %v", err)
	}
}

// TestServeOffersTheFirstClub: serve on a database without a club prints
// the app's setup link; its token creates the club once, and a service
// that has a club prints none.
func TestServeOffersTheFirstClub(t *testing.T) {
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	svc := startService(t, getenv)
	defer svc.stop()
	m := regexp.MustCompile(`no club yet: open (http://\S+)/\?setup=([0-9a-f]{32}) `).FindStringSubmatch(svc.out.String())
	if m == nil || m[1] != svc.base {
		t.Fatalf("serve on an empty database printed no setup link:\n%s", svc.out.String())
	}
	created := call(t, "POST", svc.base+"/v1/setup", "", map[string]any{"token": m[2], "name": "Skatclub Eichel"}, 201)
	call(t, "GET", svc.base+"/v1/club", created["key"].(string), nil, 200)
	call(t, "POST", svc.base+"/v1/setup", "", map[string]any{"token": m[2], "name": "Noch einer"}, 404)
	if err := svc.stop(); err != nil {
		t.Fatal(err)
	}
	again := startService(t, getenv)
	defer again.stop()
	if strings.Contains(again.out.String(), "setup=") {
		t.Errorf("serve with a club printed a setup link:\n%s", again.out.String())
	}
}

// TestRunOnEmbeddedPostgres runs serve the way a fresh machine does: no
// DATABASE_URL, a new data directory, initdb, and after a restart the
// standings are unchanged.
func TestRunOnEmbeddedPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own PostgreSQL cluster")
	}
	dir, err := os.MkdirTemp("", "stichbuch-embedded-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755) // as root the cluster runs as the postgres user
	getenv := cmdtest.Env(map[string]string{"PATH": os.Getenv("PATH"), "LOG_LEVEL": "warn"})
	data := "--data=" + dir + "/data"
	key := createClub(t, getenv, data)

	svc := startService(t, getenv, data)
	table := recordEvening(t, svc.base, key)
	before := standings(t, svc.base, key, table)
	if err := svc.stop(); err != nil {
		t.Fatalf("graceful shutdown: %v", err)
	}

	svc = startService(t, getenv, data)
	defer svc.stop()
	if after := standings(t, svc.base, key, table); after != before {
		t.Errorf("standings changed over a restart:\nbefore %s\nafter  %s", before, after)
	}
}

func TestRunRefusesUnknownCommands(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"stichbuch", "frobnicate"}, cmdtest.Env(nil), &stdout, &stderr); err == nil {
		t.Error("unknown command accepted")
	}
	if err := run(context.Background(), []string{"stichbuch"}, cmdtest.Env(nil), &stdout, &stderr); err == nil {
		t.Error("no command accepted")
	}
	if !strings.Contains(stderr.String(), "stichbuch serve") {
		t.Error("usage not printed")
	}
}

// TestSlowClientsAreCutOff: a client that sends half a request's headers
// is disconnected after the header timeout instead of holding the
// connection.
func TestSlowClientsAreCutOff(t *testing.T) {
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "error"})
	svc := startService(t, getenv, "--header-timeout", "300ms")
	defer svc.stop()
	conn, err := net.Dial("tcp", strings.TrimPrefix(svc.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("GET /healthz HTTP/1.1\r\nHost: stichbuch\r\nX-Slow: ")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = io.ReadAll(conn)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("the server did not close the connection of a slow client: %v after %v", err, took)
	}
	if took > 5*time.Second {
		t.Errorf("a slow client held the connection for %v with a 300ms header timeout", took)
	}
}

// TestServeListensOnThisMachineByDefault: without --addr or
// STICHBUCH_ADDR, serve listens on localhost only, as the README says.
func TestServeListensOnThisMachineByDefault(t *testing.T) {
	host, port, err := net.SplitHostPort(defaultAddr)
	if err != nil || host != "localhost" || port != "8080" {
		t.Errorf("serve's default address is %q, want localhost:8080", defaultAddr)
	}
}

// TestKeyListSaysWhatAKeyReaches lists a club's keys after a phone joined
// a table: the admin's key reaches the club, the phone's only its table.
func TestKeyListSaysWhatAKeyReaches(t *testing.T) {
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	key := createClub(t, getenv)
	svc := startService(t, getenv)
	defer svc.stop()
	table := recordEvening(t, svc.base, key)
	join := call(t, "POST", fmt.Sprintf("%s/v1/tables/%v/joins", svc.base, table), key, map[string]any{"role": "reader"}, 201)
	phone := call(t, "POST", svc.base+"/v1/joins/"+join["code"].(string), "", nil, 201)

	club := regexp.MustCompile(`^sb_(\d+)_`).FindStringSubmatch(key)[1]
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"stichbuch", "key", "list", "--club", club}, getenv, &stdout, &stderr); err != nil {
		t.Fatalf("key list: %v\n%s", err, stderr.String())
	}
	want := []string{fmt.Sprintf("%v\treader\ttable %v\tactive", phone["key_id"], table), "\tadmin\tclub\tactive"}
	for _, w := range want {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("key list lacks %q:\n%s", w, stdout.String())
		}
	}
}
