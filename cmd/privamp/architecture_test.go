package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The structural promises of issue 9's redesign, checked on the source tree
// so that a later change cannot quietly break them.

// goFiles returns the module's non-test Go files below root, by directory.
func goFiles(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			out[filepath.Dir(p)] = append(out[filepath.Dir(p)], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func lines(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// cmd/privamp is thin: at most half of the 6,391 non-test lines it had before
// issue 9 (3,195), plus the 237 lines that issue 24's gh-style commands add
// without computing anything (each command's options struct, and the split of
// its closure into a constructor that binds flags and a run function: 3,432),
// plus 15 for issue 26's dpsgd --sampling shuffle, which renders a library
// answer (tables.ShuffledDPSGD) through tables.Answer.Report, shared with calc
// (3,447), plus the 21 lines of issue 27's flags and one command, which
// compute nothing (--noise-multiplier beside --sigma and --noise with the
// refusals of both together, dpsgdOptions.NoiseFlag, the warning's call after
// each of four runs, the version command; their logic went to shifted, rdp,
// internal/flagconfig and internal/output, with 20 lines of root.go's: 3,468),
// plus issue 26's 39 lines of --at-epsilon, --plot and --sampling-rate flag
// binding in dpsgd, gaussian, laplace and compose (their δ(ε) and curve come
// from the accountants and plots; 3,507). Issue 24's second CLI pass moved
// every answer's layout (rows, tables, notes, verdict wording, the JSON
// wrappers) into the libraries that own the results (package answer's
// Report, built by plan, verify, composition, events, shifted, tables,
// audit and algorithms), leaving options, flag binding, one library call and
// rendering: 2,680. And under a fifth of the project's non-test Go lines.
func TestCLIIsThin(t *testing.T) {
	var cmd, all int
	for dir, files := range goFiles(t, "../..") {
		for _, f := range files {
			n := lines(t, f)
			all += n
			if filepath.Clean(dir) == filepath.Join("..", "..", "cmd", "privamp") {
				cmd += n
			}
		}
	}
	if cmd > 2680 || 5*cmd >= all {
		t.Errorf("cmd/privamp has %d non-test lines of %d (%.1f%%): the limit is 2680 and under 20%%", cmd, all, 100*float64(cmd)/float64(all))
	}
}

// No file under cmd/ imports internal/numeric (formulas live in the
// library), and no library package imports cmd.
func TestNoNumericsInCLI(t *testing.T) {
	fset := token.NewFileSet()
	for _, files := range goFiles(t, "..") {
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				if strings.HasSuffix(imp.Path.Value, `/internal/numeric"`) {
					t.Errorf("%s imports internal/numeric", f)
				}
			}
		}
	}
}

var flagName = regexp.MustCompile(`(^|[\s("'])--[a-z]`)

// Library errors are values that never name a command-line flag: no string
// literal in a library package (anything outside cmd/) spells "--flag".
func TestLibraryNamesNoFlags(t *testing.T) {
	fset := token.NewFileSet()
	for dir, files := range goFiles(t, "../..") {
		// Front ends speak in the CLI's flags: the command line and the
		// browser page's wasm main, which words its messages as the CLI does.
		if d := filepath.ToSlash(dir); strings.Contains(d, "cmd/") || strings.HasSuffix(d, "web/wasm") {
			continue
		}
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(af, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err == nil && flagName.MatchString(s) {
					t.Errorf("%s: library string names a flag: %q", fset.Position(lit.Pos()), s)
				}
				return true
			})
		}
	}
}

// One variant type: only package shifted declares a type named Variant.
func TestOneVariantType(t *testing.T) {
	fset := token.NewFileSet()
	for dir, files := range goFiles(t, "../..") {
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range af.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, s := range g.Specs {
					if ts := s.(*ast.TypeSpec); strings.Contains(ts.Name.Name, "Variant") && filepath.Base(dir) != "shifted" {
						t.Errorf("%s declares type %s: the one variant type is shifted.Variant", f, ts.Name.Name)
					}
				}
			}
		}
	}
}
