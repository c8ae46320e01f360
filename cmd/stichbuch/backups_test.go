package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// metricsURL is where the service's metrics are, from what it printed.
func metricsURL(t *testing.T, svc service) string {
	t.Helper()
	m := regexp.MustCompile(`metrics on (http://\S+/metrics)`).FindStringSubmatch(svc.out.String())
	if m == nil {
		t.Fatalf("serve does not say where its metrics are:\n%s", svc.out.String())
	}
	return m[1]
}

// waitForBackups waits (a minute at most) until the service has counted
// n backups with result.
func waitForBackups(t *testing.T, metrics, result string, n float64) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		_, f := scrape(t, metrics)
		if value(f, "stichbuch_backups_total", "result", result) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v backups with result %s not counted within a minute: ok %v, failed %v", n, result,
				value(f, "stichbuch_backups_total", "result", "ok"), value(f, "stichbuch_backups_total", "result", "failed"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestScheduledBackupsRotateAndRestore: with --backup-every 2s a running
// service writes every club's backup again and again, keeps the newest
// --backup-keep of each (mode 0600: they hold the keys' hashes), and the
// newest passes restore-check; a backup with a hand changed does not.
func TestScheduledBackupsRotateAndRestore(t *testing.T) {
	dbURL := pgtest.URL(t)
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": dbURL, "LOG_LEVEL": "warn"})
	key := createClub(t, getenv)
	dir := filepath.Join(t.TempDir(), "backups")
	svc := startService(t, getenv, "--metrics-addr", "127.0.0.1:0", "--backup-dir", dir, "--backup-every", "2s", "--backup-keep", "2")
	recordEvening(t, svc.base, key)
	waitForBackups(t, metricsURL(t, svc), "ok", 4)
	if err := svc.stop(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if info, _ := e.Info(); info.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", e.Name(), info.Mode().Perm())
		}
	}
	slices.Sort(names)
	if len(names) != 2 || !regexp.MustCompile(`^club-1-\d{8}T\d{6}\.\d{3}Z\.ndjson$`).MatchString(names[1]) {
		t.Fatalf("after 4 backups with --backup-keep 2 the directory holds %v, want the newest 2 of club 1", names)
	}
	newest := filepath.Join(dir, names[1])
	if doc, _ := os.ReadFile(newest); !bytes.Contains(doc, []byte(`"hand"`)) {
		t.Errorf("the newest backup holds no hand (it was taken after the evening's hand)")
	}

	var out, log cmdtest.SyncBuffer
	if err := run(context.Background(), []string{"stichbuch", "restore-check", newest}, getenv, &out, &log); err != nil {
		t.Fatalf("restore-check of the newest backup: %v\n%s\n%s", err, out.String(), log.String())
	}
	if !strings.Contains(out.String(), "the backup restores and its ledger is whole") || !strings.Contains(out.String(), "1 hands") {
		t.Errorf("restore-check says:\n%s", out.String())
	}

	doc, _ := os.ReadFile(newest)
	forged := filepath.Join(t.TempDir(), "forged.ndjson")
	changed := bytes.Replace(doc, []byte(`"tricks":5`), []byte(`"tricks":6`), 1)
	if bytes.Equal(changed, doc) {
		t.Fatal("the backup has no hand with 5 tricks to change")
	}
	if err := os.WriteFile(forged, changed, 0o600); err != nil {
		t.Fatal(err)
	}
	out = cmdtest.SyncBuffer{}
	if err := run(context.Background(), []string{"stichbuch", "restore-check", forged}, getenv, &out, &log); err == nil {
		t.Errorf("restore-check passed a backup with a hand changed:\n%s", out.String())
	}
	// The scratch databases are gone, the service's own is untouched.
	if leftovers := scratchDatabases(t, dbURL); len(leftovers) > 0 {
		t.Errorf("restore-check left scratch databases: %v", leftovers)
	}
}

// TestBackupFailureIsLoggedCountedAndHarmless: a backup directory that
// cannot be written is an error in the log and a failed backup in the
// metrics, again at every try, and the service goes on recording hands.
// (As root, permissions do not stop a write: there the directory's path
// runs through a regular file.)
func TestBackupFailureIsLoggedCountedAndHarmless(t *testing.T) {
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	key := createClub(t, getenv)
	parent := t.TempDir()
	dir := filepath.Join(parent, "backups")
	if os.Geteuid() == 0 {
		if err := os.WriteFile(filepath.Join(parent, "file"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(parent, "file", "backups")
	} else {
		if err := os.Mkdir(dir, 0o500); err != nil {
			t.Fatal(err)
		}
	}
	svc := startService(t, getenv, "--metrics-addr", "127.0.0.1:0", "--backup-dir", dir, "--backup-every", "1s")
	defer svc.stop()
	metrics := metricsURL(t, svc)
	waitForBackups(t, metrics, "failed", 2)
	table := recordEvening(t, svc.base, key)
	if got := standings(t, svc.base, key, table); !strings.Contains(got, `"points":"20"`) {
		t.Errorf("a hand after the failed backups: standings %s", got)
	}
	if _, f := scrape(t, metrics); value(f, "stichbuch_backups_total", "result", "ok") != 0 {
		t.Errorf("backups counted as written to %s", dir)
	}
	if log := svc.log.String(); !strings.Contains(log, "backup failed") || !strings.Contains(log, dir) {
		t.Errorf("the log does not tell of the failed backup:\n%s", log)
	}
}

// scratchDatabases lists restore-check's databases on dbURL's server.
func scratchDatabases(t *testing.T, dbURL string) []string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, _ := conn.Query(context.Background(), "SELECT datname FROM pg_database WHERE datname LIKE 'stichbuch\\_restore\\_check\\_%'")
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return names
}
