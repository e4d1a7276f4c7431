package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// notGuarantees are the library structs that hold an Epsilon beside a
// Source without stating an upper-bound (ε, δ) guarantee, and why.
var notGuarantees = map[string]string{
	"zcdp.MaxRho":         "its ε and δ are the target a ρ must meet (ρ*(ε, δ)), not a bound proved",
	"shifted.CurveColumn": "ε per record position (a curve), not one guarantee",
}

// guaranteeCopies lists the struct types in src that declare their own
// Epsilon and Source fields: a second copy of dp.Guarantee, which such a
// result embeds instead (issue 24: one model of ε with its source).
func guaranteeCopies(t *testing.T, fset *token.FileSet, name string, src any) []string {
	t.Helper()
	af, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	ast.Inspect(af, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return true
		}
		has := map[string]bool{}
		for _, f := range st.Fields.List {
			for _, id := range f.Names {
				has[id.Name] = true
			}
		}
		if q := af.Name.Name + "." + ts.Name.Name; has["Epsilon"] && has["Source"] && notGuarantees[q] == "" {
			bad = append(bad, fmt.Sprintf("%s: %s", fset.Position(ts.Pos()), q))
		}
		return true
	})
	return bad
}

// One model of a guarantee: no library struct outside dp declares its own
// Epsilon and Source (it embeds dp.Guarantee), but for the listed
// exceptions; the presentation packages (cmd, tables) are not the library.
func TestOneGuaranteeModel(t *testing.T) {
	fset := token.NewFileSet()
	for dir, files := range goFiles(t, "../..") {
		d := filepath.ToSlash(filepath.Clean(dir))
		if under(d, "../../cmd") || under(d, "../../tables") || d == "../../dp" {
			continue
		}
		for _, f := range files {
			for _, b := range guaranteeCopies(t, fset, f, nil) {
				t.Errorf("%s declares its own Epsilon and Source: embed dp.Guarantee (or say in notGuarantees why it is no guarantee)", b)
			}
		}
	}
	bad := guaranteeCopies(t, fset, "x.go", "package x\ntype R struct{ Epsilon, Delta float64; Source string }\ntype S struct{ dp.Guarantee; Steps int }\n")
	if len(bad) != 1 {
		t.Errorf("the check missed a copy: %q", bad)
	}
}
