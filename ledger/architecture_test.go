package ledger_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/stichbuch/stichbuch"

// deps lists the non-standard packages pkg depends on, via `go list -deps`.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestDependenciesPointInward checks DESIGN.md's rules: engines import only
// the standard library and the score leaf; ledger imports neither echo nor
// pgx; api does not import pgx; only cmd wires the adapters together.
func TestDependenciesPointInward(t *testing.T) {
	cases := []struct {
		pkg     string
		allowed func(dep string) bool
	}{
		{module + "/ledger/score", func(dep string) bool { return dep == module+"/ledger/score" }},
		{module + "/ledger/games/...", func(dep string) bool {
			return strings.HasPrefix(dep, module+"/ledger/games") || dep == module+"/ledger/score"
		}},
		{module + "/ledger", func(dep string) bool {
			return strings.HasPrefix(dep, module+"/ledger") && !strings.HasPrefix(dep, module+"/ledger/postgres")
		}},
		{module + "/api", func(dep string) bool {
			return !strings.Contains(dep, "jackc/pgx") && !strings.HasPrefix(dep, module+"/ledger/postgres")
		}},
		{module + "/ledger/postgres", func(dep string) bool {
			return !strings.Contains(dep, "labstack/echo") && !strings.HasPrefix(dep, module+"/api")
		}},
	}
	for _, c := range cases {
		for _, dep := range deps(t, c.pkg) {
			if !c.allowed(dep) {
				t.Errorf("%s depends on %s", c.pkg, dep)
			}
		}
	}
}
