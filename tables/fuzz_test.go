package tables

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer/clipped"
)

// FuzzEvaluate instantiates every table at arbitrary parameters: inputs are
// either refused with a *dp.Error or give values that are never NaN, are
// infinite only where exact (the paper's "∞"), are labelled, and move in n
// the way the rate says.
func FuzzEvaluate(f *testing.F) {
	f.Add(uint8(0), 1e4, 10.0, 1.0, 1e-6, 1.0, 1.0, 1.0, 0.0, 2.0)
	f.Add(uint8(2), 1e3, 3.0, 0.5, 1e-4, 2.0, 0.5, 0.3, 1e-7, 4.0)
	f.Add(uint8(4), 1e5, 1000.0, 1.0, 1e-5, 1.0, 1.0, 1.0, 0.0, 2.0)
	f.Add(uint8(5), 1e6, 100.0, 1.0, 1e-5, 1.0, 1.0, 1.0, 0.0, 4.0)
	f.Add(uint8(1), 10.0, 1e6, 1e-300, 1e-5, 1.0, 1.0, 1.0, 0.0, 2.0)
	f.Add(uint8(3), 1e4, 1e6, 1e-300, 1e-5, 1.0, 1.0, 1.0, 0.0, 2.0)
	f.Add(uint8(3), 3.0, 1.0, 1e-9, 0.3, 1e9, 1e-9, 1e9, 5.0, 1e6)
	f.Fuzz(func(t *testing.T, idx uint8, n, d, eps, delta, L, R, m, psi, k float64) {
		tabs := All()
		tb := tabs[int(idx)%len(tabs)]
		p := Params{N: math.Round(n), D: math.Round(d), Epsilon: eps, Delta: delta, Lipschitz: L, Radius: R, StrongConvexity: m, Smoothness: m, Psi: psi, MomentOrder: k}
		ev, err := tb.Evaluate(p)
		if err != nil {
			var re *dp.Error
			if !errors.As(err, &re) || err.Error() == "" {
				t.Fatalf("%s: non-range error %v", tb.Name, err)
			}
			return
		}
		check(t, ev)
		if ev.Params.N < 3 || ev.Params.N > 1<<50 {
			return
		}
		p2 := p
		p2.N = 2 * p.N
		ev2, err := tb.Evaluate(p2)
		if err != nil {
			return
		}
		for ri, r := range tb.Rows {
			for ci, c := range r.Cells {
				a, b := ev.Values[ri][ci], ev2.Values[ri][ci]
				if c.Monotone == 0 || !a.Evaluated() || !b.Evaluated() || math.IsInf(a.Raw, 0) {
					continue
				}
				if c.Monotone < 0 && b.Raw > a.Raw*(1+1e-9) || c.Monotone > 0 && b.Raw < a.Raw*(1-1e-9) {
					t.Fatalf("%s %q/%q: n=%v → %v, 2n → %v, want monotone %d", tb.Name, r.Label, tb.Columns[ci].Header, p.N, a.Raw, b.Raw, c.Monotone)
				}
			}
		}
	})
}

func check(t *testing.T, ev *Evaluation) {
	t.Helper()
	for _, row := range ev.Values {
		for _, v := range row {
			if v.Label == "" {
				t.Fatalf("%s: unlabelled value", ev.Table.Name)
			}
			if !v.Evaluated() {
				continue
			}
			if math.IsInf(v.Value, 0) && !v.Exact && !strings.Contains(v.Label, "overflows") || v.Value < 0 {
				t.Fatalf("%s: value %v labelled %q", ev.Table.Name, v.Value, v.Label)
			}
			if e := v.Explicit; e != nil && (math.IsNaN(e.Value) != (e.Reason != "") || math.IsInf(e.Value, 0)) {
				t.Fatalf("%s: explicit %+v", ev.Table.Name, e)
			}
		}
	}
	for _, b := range ev.Best {
		if math.IsNaN(b.Value) || b.Summary == "" {
			t.Fatalf("%s: best %+v", ev.Table.Name, b)
		}
	}
}

// FuzzCalculators feeds arbitrary inputs to the closed-form calculators:
// errors or finite, consistent outputs.
func FuzzCalculators(f *testing.F) {
	f.Add(1.0, 1e-5, 0.01, 10.0, 100.0, 4.0)
	f.Add(1e-8, 0.5, 1e8, 1e-8, 1.0, 2.0)
	f.Fuzz(func(t *testing.T, eps, delta, a, b, c, k float64) {
		if inv, err := LangevinBetaFor(eps, delta, a, b); err == nil {
			if !(inv.BetaImproved >= inv.BetaClassic*(1-1e-9)) || math.IsNaN(inv.LooseFactor) || !(inv.PaperEpsilonClassic >= eps*(1-1e-9)) {
				t.Fatalf("Langevin inverse %+v", inv)
			}
		}
		if r, err := StrongComposition(eps, math.Round(c), delta); err == nil {
			if math.IsNaN(r.Best) || r.Best > r.Basic || r.Best > r.Strong {
				t.Fatalf("strong %+v", r)
			}
		}
		if r, err := FullyAdaptiveStep(eps, math.Round(c), delta); err == nil {
			if !near(r.TotalAtExactStep, eps, 1e-9) || r.TotalAtExactStep > eps || r.TotalAtPaperStep > eps {
				t.Fatalf("fully adaptive %+v", r)
			}
		}
		if r, err := ClippedMean(k, a, math.Min(a, b), 0, math.Round(c), eps, 3); err == nil {
			if math.IsNaN(r.MSE) || r.MSE < r.SamplingTerm || r.MSEOpt > clipped.MSEBound(k, a, math.Min(a, b), r.TauOpt*1.01, math.Round(c), eps, 3)*(1+1e-9) {
				t.Fatalf("clipped %+v", r)
			}
		}
	})
}
