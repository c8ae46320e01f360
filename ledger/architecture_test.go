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
// the standard library and the score leaf (not each other, not the tests'
// gamestest); ledger imports neither echo nor pgx; api does not import
// pgx; only cmd wires the adapters together.
func TestDependenciesPointInward(t *testing.T) {
	type rule struct {
		pkg     string
		allowed func(dep string) bool
	}
	cases := []rule{
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
	// The pattern above also matches the registry (which imports every
	// engine) and gamestest (the tests' fixtures), so it cannot tell an
	// engine importing another engine or gamestest. Each engine on its own
	// depends on nothing of the module but itself and score.
	out, err := exec.Command("go", "list", module+"/ledger/games/...").Output()
	if err != nil {
		t.Fatalf("go list ./ledger/games/...: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == module+"/ledger/games" || pkg == module+"/ledger/games/gamestest" {
			continue
		}
		cases = append(cases, rule{pkg, func(dep string) bool { return dep == pkg || dep == module+"/ledger/score" }})
	}
	for _, c := range cases {
		for _, dep := range deps(t, c.pkg) {
			if !c.allowed(dep) {
				t.Errorf("%s depends on %s", c.pkg, dep)
			}
		}
	}
}

// TestGamesTestOnlyFromTests: gamestest holds test fixtures; no package's
// non-test code imports it.
func TestGamesTestOnlyFromTests(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		for _, imp := range strings.Fields(imports) {
			if imp == module+"/ledger/games/gamestest" {
				t.Errorf("%s imports gamestest outside its tests", pkg)
			}
		}
	}
}
