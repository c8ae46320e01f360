package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	// The runtime of the client TestGoClient generates and builds: these
	// imports keep it in go.mod (go mod tidy does not look into testdata).
	_ "github.com/oapi-codegen/runtime"
	_ "github.com/oapi-codegen/runtime/types"
)

// TestGoClient proves the contract from a Go client's side: it generates
// a client from openapi.yaml with oapi-codegen (the version go.mod pins
// as a tool), builds the program in contract/testdata/goclient with it,
// and runs it against this service on a real PostgreSQL. The program
// records a Doppelkopf hand with typed facts and reads the table's typed
// state; the test checks what it read against the service's own JSON.
// A contract that a Go client cannot be generated from, that does not
// compile, or whose types do not fit the service's answers fails here.
func TestGoClient(t *testing.T) {
	e := newEnv(t)
	ts := httptest.NewServer(e.server)
	t.Cleanup(ts.Close)
	dir := contractRunDir(t, "go")
	copyFile(t, filepath.Join("contract", "testdata", "goclient", "main.go"), filepath.Join(dir, "main.go"))
	cfg := "package: main\noutput: " + filepath.Join(dir, "client.gen.go") + "\ngenerate:\n  models: true\n  client: true\n"
	if err := os.WriteFile(filepath.Join(dir, "oapi-codegen.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	goTool(t, 2*time.Minute, "tool", "oapi-codegen", "-config", filepath.Join(dir, "oapi-codegen.yaml"), filepath.Join("..", "openapi.yaml"))
	out := goTool(t, 5*time.Minute, "run", "./"+filepath.ToSlash(dir), ts.URL, e.admin)
	checkClientOutput(t, e, out)
}

// checkClientOutput compares what a generated client read with the
// service's JSON: the next dealer and the Bock games before and after
// the hand, and the Bock round the hand's Herzstich queued.
func checkClientOutput(t *testing.T, e *env, out string) {
	t.Helper()
	var before, after, draft clientState
	drafted := false
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var err error
		switch {
		case strings.HasPrefix(line, "draft: "):
			drafted = true
			_, err = fmt.Sscanf(line, "draft: next_dealer=%d bock_games_left=%d bock_rounds_queued=%d", &draft.NextDealer, &draft.BockGamesLeft, &draft.BockRoundsQueued)
		case strings.HasPrefix(line, "before: "):
			_, err = fmt.Sscanf(line, "before: next_dealer=%d bock_games_left=%d bock_rounds_queued=%d", &before.NextDealer, &before.BockGamesLeft, &before.BockRoundsQueued)
		case strings.HasPrefix(line, "after: "):
			_, err = fmt.Sscanf(line, "after: next_dealer=%d bock_games_left=%d bock_rounds_queued=%d", &after.NextDealer, &after.BockGamesLeft, &after.BockRoundsQueued)
		}
		if err != nil {
			t.Fatalf("client output %q: %v", line, err)
		}
	}
	var table struct {
		ID    int64       `json:"id"`
		State clientState `json:"state"`
	}
	tables := e.must(200, "GET", "/v1/tables", e.admin, nil)["tables"].([]any)
	raw, _ := json.Marshal(tables[len(tables)-1])
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if after != table.State {
		t.Errorf("the Go client read the state after the hand as %+v, the service says %+v\n%s", after, table.State, out)
	}
	if before.NextDealer == 0 || before.NextDealer == after.NextDealer {
		t.Errorf("the next dealer before the hand (%d) and after it (%d): want the deal to move on\n%s", before.NextDealer, after.NextDealer, out)
	}
	if before.BockGamesLeft+before.BockRoundsQueued != 0 || after.BockGamesLeft+after.BockRoundsQueued == 0 {
		t.Errorf("Bock before %+v, after %+v: want none before and the Herzstich's round after\n%s", before, after, out)
	}
	// The draft was scored from the typed state the client sent: the
	// Herzstich's Bock round carries into it, as a fresh table has none.
	if !drafted || draft.BockGamesLeft+draft.BockRoundsQueued == 0 {
		t.Errorf("the draft from the state after the hand: %+v (printed: %v), want the Bock round carried\n%s", draft, drafted, out)
	}
}

// clientState is what the clients print of a Doppelkopf state.
type clientState struct {
	NextDealer       int64 `json:"next_dealer"`
	BockGamesLeft    int   `json:"bock_games_left"`
	BockRoundsQueued int   `json:"bock_rounds_queued"`
}

// contractRunDir is a new directory under contract/testdata for one run
// of a generated client (inside the module, so the Go program builds with
// its go.mod; git ignores it), removed when the test ends.
func contractRunDir(t *testing.T, kind string) string {
	t.Helper()
	dir, err := os.MkdirTemp(filepath.Join("contract", "testdata"), "run-"+kind+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goTool runs the go command (the one on PATH, as go test ran) and
// returns its standard output; it fails the test with the output when the
// command fails.
func goTool(t *testing.T, limit time.Duration, args ...string) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	return command(t, limit, goCmd, args...)
}

// command runs a program with a time limit and returns its standard
// output, failing the test with both outputs when it fails.
func command(t *testing.T, limit time.Duration, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s\n%s", filepath.Base(name), strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}
