package api_test

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTypeScriptClient proves the contract from a TypeScript client's
// side: openapi-typescript generates the types of openapi.yaml, tsc
// type-checks contract/client.ts (an openapi-fetch client) against them
// under strict settings, and node runs it against this service on a real
// PostgreSQL: it records a Doppelkopf hand with typed facts and reads the
// table's typed state, which the test checks against the service's JSON.
// It needs Node and the packages of contract/package-lock.json (`npm ci
// --prefix api/contract`, which .ci/run does); without node it skips, and
// so it does without the packages outside CI.
func TestTypeScriptClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the TypeScript client is not checked (.ci/run installs Node)")
	}
	bin := filepath.Join("contract", "node_modules", ".bin")
	if _, err := os.Stat(filepath.Join(bin, "tsc")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("contract/node_modules is missing: .ci/run must run npm ci --prefix api/contract: %v", err)
		}
		t.Skip("contract/node_modules is missing: run `npm ci --prefix api/contract` to check the TypeScript client")
	}
	e := newEnv(t)
	ts := httptest.NewServer(e.server)
	t.Cleanup(ts.Close)
	dir := contractRunDir(t, "ts")
	copyFile(t, filepath.Join("contract", "client.ts"), filepath.Join(dir, "client.ts"))
	tsconfig := `{"extends": "../../tsconfig.json", "files": ["client.ts"], "compilerOptions": {"outDir": "out"}}`
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(tsconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	command(t, 2*time.Minute, node, filepath.Join(bin, "openapi-typescript"), filepath.Join("..", "openapi.yaml"),
		"--redocly", filepath.Join("contract", "redocly.yaml"), "-o", filepath.Join(dir, "schema.d.ts"))
	command(t, 5*time.Minute, node, filepath.Join(bin, "tsc"), "-p", dir)
	out := command(t, time.Minute, node, filepath.Join(dir, "out", "client.js"), ts.URL, e.admin)
	checkClientOutput(t, e, out)
}

// TestRedoclyLint keeps openapi.yaml free of what `redocly lint` finds,
// errors and warnings alike, under contract/redocly.yaml (the rules turned
// off are there, each with its reason). It needs what
// TestTypeScriptClient needs, and skips as it does.
func TestRedoclyLint(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: openapi.yaml is not linted (.ci/run installs Node)")
	}
	redocly := filepath.Join("contract", "node_modules", ".bin", "redocly")
	if _, err := os.Stat(redocly); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("contract/node_modules is missing: .ci/run must run npm ci --prefix api/contract: %v", err)
		}
		t.Skip("contract/node_modules is missing: run `npm ci --prefix api/contract` to lint openapi.yaml")
	}
	t.Setenv("REDOCLY_TELEMETRY", "off")
	t.Setenv("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true")
	out := command(t, 2*time.Minute, node, redocly, "lint", "--config", filepath.Join("contract", "redocly.yaml"),
		"--format", "summary", filepath.Join("..", "openapi.yaml"))
	if strings.Contains(out, "warning") || strings.Contains(out, "error") {
		t.Errorf("redocly lint finds problems in openapi.yaml:\n%s", out)
	}
}
