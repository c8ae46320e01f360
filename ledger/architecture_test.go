package ledger_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
// gamestest); ledger imports only its leaves (score, the games, money,
// chain) and ledger/backup nothing of an adapter; api does not import pgx;
// neither api nor ledger imports a command, and the service does not
// import the bench command; the contract's root package imports nothing;
// only cmd wires the adapters together.
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
		// The domain: the leaves it is built on (score, the registry and
		// its engines, money, chain), nothing of an adapter, a test or a
		// command.
		{module + "/ledger", func(dep string) bool {
			return dep == module+"/ledger" || strings.HasPrefix(dep, module+"/ledger/games") || slices.Contains(
				[]string{module + "/ledger/score", module + "/ledger/money", module + "/ledger/chain", module + "/ledger/season", module + "/ledger/oldlists"}, dep)
		}},
		// The contract's package embeds a file and imports nothing.
		{module, func(dep string) bool { return dep == module }},
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

// sharedTestPackages are the test-only packages that the tests of api,
// of the commands and of the ledger share: the only internal/ above all of
// them would be a new top-level folder, which the repository's fixed top
// level rules out, so they stay beside what they serve.
var sharedTestPackages = map[string]string{
	module + "/ledger/postgres/pgtest": "a real PostgreSQL for the tests of ledger/postgres, api and both commands",
	module + "/ledger/games/gamestest": "the games' fixtures, for the engines', the store's and the API's tests",
	module + "/ledger/memory":          "the ports in memory, for the flow tests and the generator's test",
}

// TestTestOnlyPackages: a package that only tests import (no service or
// command code reaches it) is test-only, and is imported by no non-test
// code but another test-only package's; it lives under the internal/ of
// the narrowest tree that holds every package whose tests import it
// (ledger/internal/backuptest, api/internal/cdp, cmd/internal/cmdtest),
// or is one of the sharedTestPackages, named with the reason. A new
// test-only package outside an internal/ fails here.
func TestTestOnlyPackages(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{.Name}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		main             bool
		imports, testers []string
	}
	pkgs := map[string]*pkg{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		pkgs[f[0]] = &pkg{main: f[1] == "main", imports: strings.Fields(f[2])}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		for _, imp := range strings.Fields(f[3]) {
			if p := pkgs[imp]; p != nil && imp != f[0] {
				p.testers = append(p.testers, f[0])
			}
		}
	}
	// Test-only: what no service or command code reaches, found by
	// following the imports of the commands and of every package a
	// command's or the contract's code imports.
	reached := map[string]bool{}
	var reach func(string)
	reach = func(p string) {
		if reached[p] || pkgs[p] == nil {
			return
		}
		reached[p] = true
		for _, imp := range pkgs[p].imports {
			reach(imp)
		}
	}
	for path, p := range pkgs {
		if p.main || path == module {
			reach(path)
		}
	}
	var testOnly []string
	for path, p := range pkgs {
		if !reached[path] && !p.main {
			testOnly = append(testOnly, path)
		}
	}
	slices.Sort(testOnly)
	if len(testOnly) < 5 {
		t.Fatalf("test-only packages %v: the search found too few to be right", testOnly)
	}
	for _, path := range testOnly {
		for other, p := range pkgs {
			if slices.Contains(p.imports, path) && !slices.Contains(testOnly, other) {
				t.Errorf("%s imports the test-only %s outside its tests", other, path)
			}
		}
		if _, ok := sharedTestPackages[path]; ok {
			continue
		}
		tree := commonTree(append(slices.Clone(pkgs[path].testers), path))
		if !strings.HasPrefix(path, tree+"/internal/") && !strings.Contains(strings.TrimPrefix(path, tree), "/internal/") {
			t.Errorf("%s is test-only (imported by the tests of %v) but not under %s/internal/", path, pkgs[path].testers, tree)
		}
	}
	for path := range sharedTestPackages {
		if !slices.Contains(testOnly, path) {
			t.Errorf("%s is named a shared test package but is not test-only (or is gone)", path)
		}
	}
}

// commonTree is the longest folder that holds every one of paths.
func commonTree(paths []string) string {
	tree := paths[0]
	for _, p := range paths[1:] {
		for tree != p && !strings.HasPrefix(p, tree+"/") {
			tree = tree[:max(strings.LastIndex(tree, "/"), 0)]
		}
	}
	return tree
}

// TestLedgerReachesEnginesThroughTheRegistry: a file of ledger imports the
// games' registry, never an engine, but tournament.go, which holds the
// rules of a DDV tournament evening and so reads the Doppelkopf engine's
// state and statistics keys.
func TestLedgerReachesEnginesThroughTheRegistry(t *testing.T) {
	for _, f := range ledgerFiles(t) {
		for _, spec := range f.ast.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			engine := strings.HasPrefix(path, module+"/ledger/games/")
			if engine && !(f.name == "tournament.go" && path == module+"/ledger/games/doppelkopf") {
				t.Errorf("%s imports the engine %s: the ledger reaches the games through ledger/games", f.name, path)
			}
		}
	}
}

// TestTheLedgerMapIsTheLedger: ledger/DESIGN.md's map of the package's
// parts names every file of the package once, each under the part its
// name begins with (access_join.go under access), and no file that is
// gone: a newcomer finds a thing where the map says.
func TestTheLedgerMapIsTheLedger(t *testing.T) {
	design, err := os.ReadFile("DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(design), "## The ledger package's parts")
	if !ok {
		t.Fatal(`DESIGN.md has no section "## The ledger package's parts"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	mapped := map[string]string{}
	cell := regexp.MustCompile("`([^`]+)`")
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		part := cell.FindStringSubmatch(cells[1])[1]
		for _, m := range cell.FindAllStringSubmatch(cells[2], -1) {
			file := m[1]
			if prev, ok := mapped[file]; ok {
				t.Errorf("%s is mapped twice, under %s and %s", file, prev, part)
			}
			mapped[file] = part
			if part != "kernel" && file != part+".go" && !strings.HasPrefix(file, part+"_") {
				t.Errorf("%s is mapped under %s, whose files are %s.go and %s_*.go", file, part, part, part)
			}
		}
	}
	files := ledgerFiles(t)
	for _, f := range files {
		if _, ok := mapped[f.name]; !ok {
			t.Errorf("%s is not in DESIGN.md's map of the ledger's parts", f.name)
		}
		delete(mapped, f.name)
	}
	for file := range mapped {
		t.Errorf("DESIGN.md maps %s, which is not a file of the ledger", file)
	}
	if len(files) < 20 {
		t.Fatalf("%d files of ledger: the search is broken", len(files))
	}
}

// ledgerFile is a non-test Go file of ledger, parsed.
type ledgerFile struct {
	name string
	ast  *ast.File
}

func ledgerFiles(t *testing.T) []ledgerFile {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []ledgerFile
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ledgerFile{name: name, ast: f})
	}
	return out
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
// Nor does it compute statistics: it stores the rows the ledger rolls up
// and reads them back.
//
// It parses the non-test Go files of ledger/postgres and fails on any
// reference to those codes, to ledger.Invalid or to the statistics'
// rules (StatsOf, RollUp, RollUpHands, RollUpSettled, RollUpSession,
// RebuildStats), on ledger.ECONFLICT
// outside mapError, and on a ledger.Errorf or ledger.Error whose code is
// not one of the constants it may use.
func TestPostgresDecidesNothing(t *testing.T) {
	forbidden := map[string]bool{
		"EINVALID": true, "EFORBIDDEN": true, "EPRECONDITION": true, "EPRECONDREQ": true, "EIDEMPOTENCY": true,
		"EUNAUTHORIZED": true, "Invalid": true,
		// The statistics' rules: what a session's figures hold and when
		// they are rolled up is the ledger's (stats_rollup.go).
		"StatsOf": true, "RollUp": true, "RollUpHands": true, "RollUpSettled": true, "RollUpSession": true, "RebuildStats": true,
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
