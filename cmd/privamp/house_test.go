package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The floors of the house (issue 24): internal/ is the ground floor and
// imports nothing above it; tables/ presents the papers' formulas and
// nothing computes with it but the CLI. Both are checked on every Go file,
// tests included, from the module root.

const module = "github.com/privamp/privamp/"

// moduleImports returns, for every Go file under root (tests included), its
// directory relative to root and the module-relative paths it imports.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		af, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		out[rel] = []string{}
		for _, imp := range af.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err == nil && strings.HasPrefix(path, module) {
				out[rel] = append(out[rel], strings.TrimPrefix(path, module))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// upward lists the imports of files under internal/ that leave internal/.
func upward(files map[string][]string) []string {
	var bad []string
	for file, imps := range files {
		for _, imp := range imps {
			if under(file, "internal") && !under(imp, "internal") {
				bad = append(bad, file+" imports "+imp)
			}
		}
	}
	return bad
}

// tablesUsers lists the imports of tables/ from outside cmd/ and tables/.
func tablesUsers(files map[string][]string) []string {
	var bad []string
	for file, imps := range files {
		for _, imp := range imps {
			if !under(file, "cmd") && !under(file, "tables") && under(imp, "tables") {
				bad = append(bad, file+" imports "+imp)
			}
		}
	}
	return bad
}

// Nothing under internal/ imports a package of the module outside
// internal/: the ground floor has no arrow up (plots moved out of
// internal/output to plots/, the Monte Carlo oracle to audit/lowerbound).
func TestGroundFloorImportsNothingAbove(t *testing.T) {
	files := moduleImports(t, "../..")
	if n := len(slices.DeleteFunc(slices.Collect(maps.Keys(files)), func(f string) bool { return !under(f, "internal") })); n < 10 {
		t.Fatalf("only %d files under internal/: is the walk rooted at the module?", n)
	}
	for _, b := range upward(files) {
		t.Errorf("%s: internal/ is the ground floor and imports only internal/ packages", b)
	}
}

// tables/ only presents: no package but the CLI (and tables' own tests)
// imports it, so the formulas algorithms use live with the algorithms or
// the accounting, and tables shows them.
func TestOnlyTheCLIImportsTables(t *testing.T) {
	for _, b := range tablesUsers(moduleImports(t, "../..")) {
		t.Errorf("%s: tables presents the papers' formulas; compute with the package that holds them", b)
	}
}

// The checks can fail: a ground-floor file importing upward and a library
// file importing tables are reported, the CLI's and tables' own imports
// are not.
func TestHouseChecksCanFail(t *testing.T) {
	files := map[string][]string{
		"internal/x/x.go": {"internal/numeric", "optimizer"}, "optimizer/y.go": {"tables", "dp"},
		"cmd/privamp/z.go": {"tables", "internal/field"}, "tables/t_test.go": {"tables"},
	}
	if b := upward(files); len(b) != 1 || b[0] != "internal/x/x.go imports optimizer" {
		t.Errorf("upward: %q", b)
	}
	if b := tablesUsers(files); len(b) != 1 || b[0] != "optimizer/y.go imports tables" {
		t.Errorf("tables users: %q", b)
	}
}

// progressFields lists the struct fields and parameters named progress,
// Progress or OnPoint in src whose type is not dp.Progress (Progress inside
// package dp): the library has one progress-callback signature.
func progressFields(t *testing.T, fset *token.FileSet, name string, src any) []string {
	t.Helper()
	af, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "dp.Progress"
	if af.Name.Name == "dp" {
		want = "Progress"
	}
	var bad []string
	ast.Inspect(af, func(n ast.Node) bool {
		f, ok := n.(*ast.Field)
		if !ok {
			return true
		}
		for _, id := range f.Names {
			if id.Name != "progress" && id.Name != "Progress" && id.Name != "OnPoint" {
				continue
			}
			if got := types.ExprString(f.Type); got != want {
				bad = append(bad, fmt.Sprintf("%s: %s %s", fset.Position(id.Pos()), id.Name, got))
			}
		}
		return true
	})
	return bad
}

// One progress-callback signature: every library field or parameter that
// takes a progress callback is a dp.Progress, func(done, total int64).
func TestOneProgressSignature(t *testing.T) {
	fset := token.NewFileSet()
	for dir, files := range goFiles(t, "../..") {
		if under(filepath.ToSlash(filepath.Clean(dir)), "../../cmd") {
			continue
		}
		for _, f := range files {
			for _, b := range progressFields(t, fset, f, nil) {
				t.Errorf("%s: take a dp.Progress", b)
			}
		}
	}
	bad := progressFields(t, fset, "x.go", "package x\ntype S struct{ Progress func(done int); OnPoint dp.Progress }\nfunc F(progress func(float64)) {}\n")
	if len(bad) != 2 {
		t.Errorf("the check missed a second signature: %q", bad)
	}
}

// consumers lists the imports, by a non-test file of an algorithm package
// (optimizer/, shifted/) or of the accounting below them, of a package that
// consumes the algorithms' results (audit/, verify/, plots/, tables/):
// those stand above the algorithms, so such an import is an arrow up.
func consumers(files map[string][]string) []string {
	var bad []string
	for file, imps := range files {
		if strings.HasSuffix(file, "_test.go") || !(under(file, "optimizer") || under(file, "shifted") || under(file, "composition") ||
			under(file, "rdp") || under(file, "zcdp") || under(file, "dataset") || under(file, "dp")) {
			continue
		}
		for _, imp := range imps {
			if under(imp, "audit") || under(imp, "verify") || under(imp, "plots") || under(imp, "tables") {
				bad = append(bad, file+" imports "+imp)
			}
		}
	}
	return bad
}

// The algorithms and the accounting import none of the packages that
// consume their results (their tests may: the Monte Carlo oracle is
// audit/lowerbound).
func TestAlgorithmsImportNoConsumer(t *testing.T) {
	for _, b := range consumers(moduleImports(t, "../..")) {
		t.Errorf("%s: audit, verify, plots and tables stand above the algorithms", b)
	}
	fake := map[string][]string{"optimizer/langevin/c.go": {"audit"}, "optimizer/bst14/x_test.go": {"audit/lowerbound"}, "audit/a.go": {"optimizer"}}
	if b := consumers(fake); len(b) != 1 || b[0] != "optimizer/langevin/c.go imports audit" {
		t.Errorf("the check misses an arrow up or flags a test: %q", b)
	}
}
