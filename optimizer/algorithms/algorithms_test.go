package algorithms

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/langevin"
)

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// Every registered algorithm describes its parameters: snake_case names, a
// doc line that names no flag, a supported type, and no name twice.
func TestCatalogueParameters(t *testing.T) {
	if len(All()) == 0 {
		t.Fatal("empty catalogue")
	}
	for _, a := range All() {
		ps, err := Describe(a.Params())
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		seen := map[string]bool{}
		for _, p := range ps {
			if !snake.MatchString(p.Name) || seen[p.Name] || strings.Contains(p.Doc, "--") {
				t.Errorf("%s: parameter %+v: want a new snake_case name and a doc without flags", a.Name, p)
			}
			seen[p.Name] = true
		}
		if a.Source == "" || a.Summary == "" {
			t.Errorf("%s: no source or summary", a.Name)
		}
	}
}

func TestSetParsesAndRefuses(t *testing.T) {
	p := &langevin.Params{}
	for name, text := range map[string]string{"steps": "12", "eta": "0.5", "coupling": "true", "regularize": "erm", "seed": "7"} {
		if err := Set(p, name, text); err != nil {
			t.Fatalf("Set(%s, %s): %v", name, text, err)
		}
	}
	if p.Steps != 12 || p.Eta != 0.5 || !p.Coupling || p.Regularize != "erm" || p.Seed != 7 {
		t.Fatalf("Set gave %+v", *p)
	}
	for _, c := range [][2]string{{"steps", "1.5"}, {"eta", "NaN"}, {"eta", "x"}, {"coupling", "maybe"}, {"seed", "-1"}, {"nope", "1"}} {
		err := Set(p, c[0], c[1])
		fe, ok := field.As(err)
		if !ok || fe.Field != c[0] {
			t.Errorf("Set(%s, %q) = %v, want a field error on %s", c[0], c[1], err, c[0])
		}
	}
}

func TestLookup(t *testing.T) {
	if a, err := Lookup("langevin"); err != nil || a.Name != "langevin" {
		t.Fatalf("Lookup(langevin) = %v, %v", a.Name, err)
	}
	for _, name := range []string{"nope", "gtu-expmech"} {
		if fe, ok := field.As(func() error { _, err := Lookup(name); return err }()); !ok || fe.Field != "algorithm" {
			t.Errorf("Lookup(%s): want a field error on algorithm", name)
		}
	}
}

// The catalogue's langevin run certifies what the path bound gives: ρ is
// recomputed here from the derived constants (Tηβ²Δ²/4, GTU Lemma 3.1), ε
// meets the default target 1 (calibrated when neither β nor a target is
// given), and a given β is used as given.
func TestLangevinThroughCatalogue(t *testing.T) {
	a, _ := Lookup("langevin")
	in := Input{Data: optimizer.DataSpec{Synthetic: "logistic", N: 200, Dimension: 3, Seed: 1}, Loss: optimizer.LossSpec{L2: 0.1}, Radius: 1}
	p := a.Params().(*langevin.Params)
	p.Steps, p.Coupling = 300, true
	rep, err := a.Run(in, p)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Result.(LangevinResult)
	dv := res.Derived
	rho := float64(dv.Steps) * dv.Eta * dv.Beta * dv.Beta * dv.GradientSensitivity * dv.GradientSensitivity / 4
	if got := float64(res.Privacy.Rho); math.Abs(got-rho) > 1e-12*rho || got < rho {
		t.Errorf("ρ = %v, want Tηβ²Δ²/4 = %v (never below)", got, rho)
	}
	if e := float64(res.Privacy.Epsilon); e > 1 || e < 0.999 {
		t.Errorf("calibrated ε = %v, want the default target 1 met tightly", e)
	}
	if !rep.OK || res.Coupling == nil || len(rep.Checks) != 2 {
		t.Errorf("checks %+v, ok %v", rep.Checks, rep.OK)
	}
	kinds := map[string]bool{}
	for _, l := range rep.Lines {
		kinds[l.Kind] = true
	}
	for _, k := range []string{Declared, Derived, Certified, Measured, Given} {
		if !kinds[k] {
			t.Errorf("no %s line in %+v", k, rep.Lines)
		}
	}
	p2 := a.Params().(*langevin.Params)
	p2.Steps, p2.Beta = 300, 50
	in.Set = map[string]bool{"beta": true}
	rep2, err := a.Run(in, p2)
	if err != nil {
		t.Fatal(err)
	}
	if b := rep2.Result.(LangevinResult).Derived.Beta; b != 50 {
		t.Errorf("given β: got %v", b)
	}
}
