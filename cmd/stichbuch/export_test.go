package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
	"github.com/stichbuch/stichbuch/ledger/score"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
)

// TestExportImportCommands backs a club up with `stichbuch export`,
// restores it with `stichbuch import` into another database, and checks
// that the restored database exports the same bytes and refuses a second
// import.
func TestExportImportCommands(t *testing.T) {
	ctx := context.Background()
	srcURL, dstURL := pgtest.URL(t), pgtest.URL(t)
	src := cmdtest.Env(map[string]string{"DATABASE_URL": srcURL, "LOG_LEVEL": "warn"})
	dst := cmdtest.Env(map[string]string{"DATABASE_URL": dstURL, "LOG_LEVEL": "warn"})
	secret := createClub(t, src)

	pool, err := postgres.Connect(ctx, srcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	store := postgres.New(pool, pgtest.ChainKey).Service()
	a, err := store.Authenticate(ctx, secret)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		p, _, err := store.CreatePlayer(ctx, a, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	table, _, err := store.CreateTable(ctx, a, ledger.NewTable{Name: "Donnerstag", Game: "schwarze_dame", Stake: score.Frac(1, 2)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sess, _, err := store.OpenSession(ctx, a, table.ID, "2026-11-19", ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	facts := json.RawMessage(fmt.Sprintf(`{"dealer": %d, "players": [
		{"player": %d, "tricks": 4, "hearts": [2, 5, 13]},
		{"player": %d, "tricks": 3, "hearts": [14], "pik_dame": true},
		{"player": %d, "tricks": 5, "hearts": [3, 4, 6, 7, 8, 9, 10]},
		{"player": %d, "tricks": 1, "hearts": [11, 12]}]}`, ids[0], ids[0], ids[1], ids[2], ids[3]))
	for n := 1; n <= 2; n++ {
		if _, _, err := store.RecordHand(ctx, a, ledger.NewHand{TableID: table.ID, SessionID: sess.ID, Number: n, Facts: facts}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := store.CloseSession(ctx, a, sess.ID); err != nil {
		t.Fatal(err)
	}

	cmd := func(getenv func(string) string, args ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		err := run(ctx, append([]string{"stichbuch"}, args...), getenv, &stdout, &stderr)
		return stdout.String(), err
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "eichel.json")
	club := fmt.Sprint(a.ClubID)
	out, err := cmd(src, "export", "--club", club, "--out", file)
	if err != nil || !strings.Contains(out, "exported to "+file) {
		t.Fatalf("export --out: %v\n%s", err, out)
	}
	written, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	toStdout, err := cmd(src, "export", "--club", club)
	if err != nil || toStdout != string(written) {
		t.Errorf("export to standard output (%v) differs from the file it wrote", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("export left %d files in its directory, want only the document", len(entries))
	}

	// Another installation (another chain key) refuses the document, and
	// takes it with --foreign, chained anew with its own key.
	other := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn",
		"STICHBUCH_CHAIN_KEY_FILE": filepath.Join(t.TempDir(), "other.key")})
	if _, err := cmd(other, "import", file); err == nil || !strings.Contains(err.Error(), "nothing stored") ||
		!strings.Contains(err.Error(), "hand 1: its hash was made with the chain key") || !strings.Contains(err.Error(), "--foreign") {
		t.Errorf("import into another installation: %v, want a refusal naming hand 1 and --foreign", err)
	}
	out, err = cmd(other, "import", "--foreign", file)
	if err != nil || !strings.Contains(out, "--foreign: 2 hands and revisions were chained anew") || !strings.Contains(out, "the ledger is whole") {
		t.Errorf("import --foreign: %v\n%s", err, out)
	}
	if out, err := cmd(other, "verify"); err != nil || !strings.Contains(out, "the ledger is whole") {
		t.Errorf("verify after import --foreign: %v\n%s", err, out)
	}

	out, err = cmd(dst, "import", file)
	if err != nil || !strings.Contains(out, "2 hands") || !strings.Contains(out, "the ledger is whole") || strings.Contains(out, "--foreign") {
		t.Fatalf("import: %v\n%s", err, out)
	}
	// The club's keys are not restored; the import prints a new admin key.
	var newKey string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "sb_") {
			newKey = line
		}
	}
	if newKey == "" || newKey == secret {
		t.Fatalf("import printed %q, want a new admin key", out)
	}
	restored, err := postgres.Connect(ctx, dstURL)
	if err != nil {
		t.Fatal(err)
	}
	defer restored.Close()
	dstStore := postgres.New(restored, pgtest.ChainKey).Service()
	if k, err := dstStore.Authenticate(ctx, newKey); err != nil || k.Role != ledger.RoleAdmin {
		t.Errorf("the new admin key authenticates as %+v (%v)", k, err)
	}
	if _, err := dstStore.Authenticate(ctx, secret); ledger.ErrorCode(err) != ledger.EUNAUTHORIZED {
		t.Errorf("the source's admin key on the restored database: %v, want it refused", err)
	}
	again := filepath.Join(dir, "again.json")
	if _, err := cmd(dst, "export", "--out", again, "--club", club); err != nil {
		t.Fatal(err)
	}
	if restored, _ := os.ReadFile(again); !bytes.Equal(restored, written) {
		t.Error("the restored database exports another document")
	}

	if _, err := cmd(dst, "import", file); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a second import into the same database: %v, want a refusal saying it is not empty", err)
	}
	if _, err := cmd(dst, "export"); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("export without --club: %v, want the usage", err)
	}
	if _, err := cmd(dst, "import", filepath.Join(dir, "missing.json")); err == nil {
		t.Error("import of a missing file succeeded")
	}
}

// TestExportImportOfAGeneratedHistory round-trips a history made by
// `stichbuch-bench generate` (every game, sessions over weeks,
// settlements): import re-scores every hand, and the restored ledger
// exports the same bytes and passes verify.
func TestExportImportOfAGeneratedHistory(t *testing.T) {
	ctx := context.Background()
	srcURL := pgtest.URL(t)
	src := cmdtest.Env(map[string]string{"DATABASE_URL": srcURL, "LOG_LEVEL": "warn"})
	dst := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	dir := t.TempDir()
	step := func(getenv func(string) string, args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if err := run(ctx, append([]string{"stichbuch"}, args...), getenv, &stdout, &stderr); err != nil {
			t.Fatalf("stichbuch %v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String()
	}
	benchGenerate(t, srcURL, "--hands", "400", "--tables", "6", "--seed", "11", "--workers", "2", "--progress", "1h")
	first, second := dir+"/first.json", dir+"/second.json"
	step(src, "export", "--club", "1", "--out", first)
	step(dst, "import", first)
	step(dst, "export", "--club", "1", "--out", second)
	a, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(second)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("the restored ledger exports %d bytes that differ from the %d exported", len(b), len(a))
	}
	if hands := bytes.Count(a, []byte("\n"+`{"hand":{`)); hands != 400 {
		t.Errorf("the export holds %d hands, want the 400 generated", hands)
	}
	if out := step(dst, "verify"); !strings.Contains(out, "the ledger is whole") {
		t.Errorf("verify of the restored ledger:\n%s", out)
	}
}

// benchGenerate runs `stichbuch-bench generate` against the database at
// dbURL. The generator is a command of its own, not part of this binary:
// the test runs it as a user would, with go run from this module.
func benchGenerate(t *testing.T, dbURL string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", "../stichbuch-bench", "generate"}, args...)...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "LOG_LEVEL=warn", "STICHBUCH_CHAIN_KEY_FILE="+pgtest.ChainKeyFile())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ../stichbuch-bench generate %v: %v\n%s", args, err, out)
	}
}
