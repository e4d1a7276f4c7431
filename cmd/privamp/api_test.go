package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestNoInternalTypeInExportedAPI reads every library package (everything
// outside internal/ and cmd/) and fails where an exported identifier's
// signature names a type of an internal/ package: a function's parameters or
// results, an exported type's definition (exported struct fields and
// interface methods only), an exported variable's or constant's type. Callers
// outside the module cannot name such a type (issue 24).
func TestNoInternalTypeInExportedAPI(t *testing.T) {
	root := filepath.Join("..", "..")
	var bad []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "internal" || rel == "cmd" || strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		found, err := internalInSignatures(path, nil)
		if err != nil {
			return err
		}
		for _, b := range found {
			if !publicNames[filepath.ToSlash(rel)+": "+b] {
				bad = append(bad, filepath.ToSlash(rel)+": "+b)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// publicNames are the aliases by which dp names a type that internal/
// builds (internal/ may not import dp): bad-input errors come from the
// JSON and CSV readers under internal/ as well as from every library
// package, and users find them all with errors.As(err, new(*dp.Error)).
var publicNames = map[string]bool{
	"dp/error.go: type Error names field.Error":      true,
	"dp/error.go: type ErrorWhere names field.Where": true,
}

// TestInternalInSignaturesFails shows the check failing on a made-up file.
func TestInternalInSignaturesFails(t *testing.T) {
	src := `package x
import q "github.com/privamp/privamp/internal/quantity"
type R struct { E q.Loss; e q.Loss }
func F(x q.Num) (y float64) { var z q.Max; _ = z; return }
func f(x q.Num) {}
`
	got, err := internalInSignatures("x.go", src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"R field names q.Loss", "F names q.Num"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("found %q, want %q", got, want)
	}
}

// internalInSignatures lists where an exported identifier of the Go file
// (path, or src when not nil) names a type of an internal/ package.
func internalInSignatures(path string, src any) ([]string, error) {
	var bad []string
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	internal := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if !strings.Contains(p, "/internal/") {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		internal[name] = true
	}
	if len(internal) == 0 {
		return nil, nil
	}
	names := func(n ast.Node) []string {
		var out []string
		if n == nil {
			return nil
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok && internal[x.Name] {
					out = append(out, x.Name+"."+s.Sel.Name)
				}
				return false
			}
			if _, ok := n.(*ast.BlockStmt); ok { // bodies are not signatures
				return false
			}
			return true
		})
		return out
	}
	report := func(what string, n ast.Node) {
		for _, s := range names(n) {
			bad = append(bad, what+" names "+s)
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv != nil && len(d.Recv.List) > 0 && !exportedRecv(d.Recv.List[0].Type) {
				continue
			}
			report(d.Name.Name, d.Type)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch s := sp.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					switch tt := s.Type.(type) {
					case *ast.StructType:
						for _, fl := range tt.Fields.List {
							if len(fl.Names) == 0 || fl.Names[0].IsExported() {
								report(s.Name.Name+" field", fl.Type)
							}
						}
					case *ast.InterfaceType:
						for _, m := range tt.Methods.List {
							if len(m.Names) == 0 || m.Names[0].IsExported() {
								report(s.Name.Name+" method", m.Type)
							}
						}
					default:
						report("type "+s.Name.Name, s.Type)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							report(n.Name, s.Type)
						}
					}
				}
			}
		}
	}
	return bad, nil
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.StarExpr:
		return exportedRecv(x.X)
	case *ast.IndexExpr:
		return exportedRecv(x.X)
	case *ast.IndexListExpr:
		return exportedRecv(x.X)
	case *ast.Ident:
		return x.IsExported()
	}
	return false
}
