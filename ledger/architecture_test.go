package ledger_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// TestDependenciesPointInward checks ledger/DESIGN.md's rules: engines import only
// the standard library and the score leaf (not each other, not the tests'
// gamestest); ledger and ledger/backup import neither echo nor pgx; api does
// not import pgx; neither api nor ledger imports a command, and the service
// does not import the bench command; only cmd wires the adapters together.
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
		{module + "/ledger/backup", func(dep string) bool {
			return strings.HasPrefix(dep, module+"/ledger") && !strings.HasPrefix(dep, module+"/ledger/postgres")
		}},
		{module + "/api/...", func(dep string) bool {
			return !strings.Contains(dep, "jackc/pgx") && !strings.HasPrefix(dep, module+"/ledger/postgres") &&
				!strings.HasPrefix(dep, module+"/cmd/")
		}},
		{module + "/ledger/...", func(dep string) bool { return !strings.HasPrefix(dep, module+"/cmd/") }},
		// The service's binary carries no benchmark or seeding tool.
		{module + "/cmd/stichbuch", func(dep string) bool { return dep != module+"/cmd/stichbuch-bench" }},
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

// testHelpers are the packages of fixtures and drivers that only tests
// may import.
var testHelpers = []string{module + "/ledger/games/gamestest", module + "/ledger/internal/backuptest", module + "/api/internal/cdp"}

// TestGamesTestOnlyFromTests: gamestest, backuptest and cdp hold test
// fixtures and drivers; no package's non-test code imports them, so the
// service's binary carries none of them.
func TestGamesTestOnlyFromTests(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		for _, imp := range strings.Fields(imports) {
			if slices.Contains(testHelpers, imp) {
				t.Errorf("%s imports %s outside its tests", pkg, imp)
			}
		}
	}
}

// TestPostgresDecidesNothing checks the rule that ledger/postgres decides
// nothing a flow test covers: it constructs no ledger error other than
// ENOTFOUND (what it was asked for is missing) and, in mapError, the
// translations of database failures (EUNAVAILABLE, and ECONFLICT for a
// unique violation). Every EINVALID, ECONFLICT of state, EFORBIDDEN,
// EPRECONDITION, EPRECONDREQ, EIDEMPOTENCY and EUNAUTHORIZED is the
// domain's: the store returns plain errors or data, and
// the flow in ledger (or ledger/backup) refuses.
//
// It parses the non-test Go files of ledger/postgres and fails on any
// reference to those codes or to ledger.Invalid, on ledger.ECONFLICT
// outside mapError, and on a ledger.Errorf or ledger.Error whose code is
// not one of the constants it may use.
func TestPostgresDecidesNothing(t *testing.T) {
	forbidden := map[string]bool{
		"EINVALID": true, "EFORBIDDEN": true, "EPRECONDITION": true, "EPRECONDREQ": true, "EIDEMPOTENCY": true,
		"EUNAUTHORIZED": true, "Invalid": true,
	}
	files, err := filepath.Glob(filepath.Join("postgres", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in ledger/postgres (%v)", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ledger := ledgerImportName(t, fset, f)
		if ledger == "" {
			continue
		}
		for _, decl := range f.Decls {
			fn := ""
			if d, ok := decl.(*ast.FuncDecl); ok && d.Recv == nil {
				fn = d.Name.Name
			}
			// code reports whether e is a code the store may construct or
			// one the selector case reports; anything else (a string, a
			// variable, EINTERNAL) is a code the store made up.
			code := func(e ast.Expr) bool {
				s, ok := e.(*ast.SelectorExpr)
				if !ok || !isIdent(s.X, ledger) {
					return false
				}
				return s.Sel.Name == "ENOTFOUND" || s.Sel.Name == "EUNAVAILABLE" || s.Sel.Name == "ECONFLICT" || forbidden[s.Sel.Name]
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					if !isIdent(n.X, ledger) {
						break
					}
					switch {
					case forbidden[n.Sel.Name]:
						t.Errorf("%s: ledger/postgres uses %s.%s: that decision is the domain's", fset.Position(n.Pos()), ledger, n.Sel.Name)
					case n.Sel.Name == "ECONFLICT" && fn != "mapError":
						t.Errorf("%s: ledger/postgres uses %s.ECONFLICT outside mapError: a conflict of state is the domain's", fset.Position(n.Pos()), ledger)
					}
				case *ast.CallExpr:
					if s, ok := n.Fun.(*ast.SelectorExpr); ok && isIdent(s.X, ledger) && s.Sel.Name == "Errorf" && len(n.Args) > 0 && !code(n.Args[0]) {
						t.Errorf("%s: ledger/postgres constructs a ledger error with the code %s", fset.Position(n.Pos()), types.ExprString(n.Args[0]))
					}
				case *ast.CompositeLit:
					if s, ok := n.Type.(*ast.SelectorExpr); ok && isIdent(s.X, ledger) && s.Sel.Name == "Error" {
						for _, elt := range n.Elts {
							if kv, ok := elt.(*ast.KeyValueExpr); ok && isIdent(kv.Key, "Code") && !code(kv.Value) {
								t.Errorf("%s: ledger/postgres constructs a ledger error with the code %s", fset.Position(n.Pos()), types.ExprString(kv.Value))
							}
						}
					}
				}
				return true
			})
		}
	}
}

// ledgerImportName returns the name under which f imports the ledger
// package, "" when it does not.
func ledgerImportName(t *testing.T, fset *token.FileSet, f *ast.File) string {
	for _, spec := range f.Imports {
		if path, _ := strconv.Unquote(spec.Path.Value); path != module+"/ledger" {
			continue
		}
		if spec.Name == nil {
			return "ledger"
		}
		if spec.Name.Name == "." || spec.Name.Name == "_" {
			t.Errorf("%s: import the ledger by name, so its error codes can be told", fset.Position(spec.Pos()))
			return ""
		}
		return spec.Name.Name
	}
	return ""
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
