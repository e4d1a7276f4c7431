package tables

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

func TestRegistryShape(t *testing.T) {
	want := []string{"gtu-erm-sco", "gtu-rashomon", "bst14", "fmtt18", "ggp-l1", "lr-heavy-tailed"}
	if got := Names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	seen := map[string]bool{}
	for _, tb := range All() {
		for _, name := range append([]string{tb.Name}, tb.Aliases...) {
			if seen[name] {
				t.Errorf("duplicate table name %q", name)
			}
			seen[name] = true
			if got, ok := Lookup(name); !ok || got != tb {
				t.Errorf("Lookup(%q) failed", name)
			}
		}
		if tb.Paper == "" || tb.Source == "" || tb.Title == "" || tb.Validity == "" || len(tb.Assumptions) == 0 || tb.Scale == "" {
			t.Errorf("%s: missing paper/source/title/validity/assumptions/scale", tb.Name)
		}
		for _, r := range tb.Rows {
			if len(r.Cells) != len(tb.Columns) {
				t.Errorf("%s row %q: %d cells for %d columns", tb.Name, r.Label, len(r.Cells), len(tb.Columns))
			}
			for ci, c := range r.Cells {
				if c.Form == "" {
					t.Errorf("%s row %q column %d: empty form", tb.Name, r.Label, ci)
				}
				if c.Eval != nil && c.Source == "" {
					t.Errorf("%s row %q column %d: evaluable cell without source", tb.Name, r.Label, ci)
				}
				if c.Eval != nil && !c.Hidden.Constants && tb.Columns[ci].Kind != Info {
					t.Errorf("%s row %q column %d: a rate cell with no hidden constants; the papers state none", tb.Name, r.Label, ci)
				}
			}
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) succeeded")
	}
	if !tableLR().Reconstructed || !strings.Contains(tableLR().Source, "RECONSTRUCTED") {
		t.Error("seed 004's table must be marked reconstructed")
	}
}

// cell returns the evaluated value at (row key, column key).
func cell(t *testing.T, ev *Evaluation, rowKey, colKey string) Value {
	t.Helper()
	for ri, r := range ev.Table.Rows {
		if r.Key != rowKey {
			continue
		}
		for ci, c := range ev.Table.Columns {
			if c.Key == colKey {
				return ev.Values[ri][ci]
			}
		}
	}
	t.Fatalf("%s: no cell (%s, %s)", ev.Table.Name, rowKey, colKey)
	return Value{}
}

// TestBST14Cells recomputes every evaluable cell of seed 001's Table 1
// independently and checks the vector of docs/seeds.md#seed-001-test-vectors (n = 1e4, p = 10,
// ε = 1, δ = 1e-6, Δ = 1, L = ‖C‖₂ = 1).
func TestBST14Cells(t *testing.T) {
	n, p, eps, delta := 1e4, 10.0, 1.0, 1e-6
	ev, err := tableBST14().Evaluate(Params{N: n, D: p, Epsilon: eps, Delta: delta, Lipschitz: 1, Diameter: 1, Radius: 0.5, StrongConvexity: 1})
	if err != nil {
		t.Fatal(err)
	}
	lnd, lnn := math.Log(1/delta), math.Log(n/delta)
	want := map[[2]string]float64{
		{"lipschitz", "pure_previous"}:                1000,
		{"lipschitz", "pure_this_work"}:               10,
		{"lipschitz", "pure_lower"}:                   10,
		{"lipschitz", "approx_previous"}:              4368.848,
		{"lipschitz", "approx_this_work"}:             1676.607,
		{"lipschitz", "approx_lower"}:                 3.1623,
		{"strongly_convex", "pure_previous"}:          1.0,
		{"strongly_convex", "pure_this_work"}:         0.092103,
		{"strongly_convex", "pure_lower"}:             0.01,
		{"strongly_convex", "approx_previous"}:        1.381551,
		{"strongly_convex", "approx_this_work"}:       12.208072,
		{"strongly_convex", "approx_lower"}:           0.001,
		{"lipschitz_smooth", "pure_previous"}:         p / eps,
		{"lipschitz_smooth", "approx_previous"}:       math.Sqrt(p) * lnd / eps,
		{"strongly_convex_smooth", "pure_previous"}:   p * p / n,
		{"strongly_convex_smooth", "approx_previous"}: p * lnd / n,
	}
	for k, w := range want {
		v := cell(t, ev, k[0], k[1])
		checkNear(t, k[0]+"/"+k[1], v.Value, w, 1e-5)
		if v.Exact || !strings.Contains(v.Label, "up to constants") {
			t.Errorf("%v: label %q, want up to constants", k, v.Label)
		}
	}
	// Independent recomputation of the two log-heavy cells.
	checkNear(t, "approx_this_work formula", cell(t, ev, "lipschitz", "approx_this_work").Value, math.Sqrt(p)*lnn*lnn/eps, 1e-12)
	checkNear(t, "sc approx formula", cell(t, ev, "strongly_convex", "approx_this_work").Value, lnn*lnn*lnn*p/(n*eps*eps), 1e-12)
	if v := cell(t, ev, "lipschitz_smooth", "pure_this_work"); v.Evaluated() || v.Label != "—" {
		t.Errorf("empty cell evaluated: %+v", v)
	}
	// Explicit Thm 3.2 mean: (8L‖C‖/ε)((p+1) ln 3 + 1) = 104.677881 at p = 10 (docs/seeds.md#seed-001-test-vectors).
	ex := cell(t, ev, "lipschitz", "pure_this_work").Explicit
	if ex == nil {
		t.Fatal("no explicit bound on Thm 3.2's cell")
	}
	checkNear(t, "Thm 3.2 mean", ex.Value, 104.677881, 1e-7)
	// Best and gap: ε-DP, Lipschitz: this work = lower: gap 1; (ε,δ): 1676.607/3.1623.
	for _, b := range ev.Best {
		if b.Row == 0 && strings.HasSuffix(b.Group, "ε-DP") && !strings.Contains(b.Group, "(ε,δ)") {
			checkNear(t, "gap pure", b.Gap, 1, 1e-12)
		}
		if b.Row == 0 && strings.Contains(b.Group, "(ε,δ)") {
			checkNear(t, "gap approx", b.Gap, math.Sqrt(p)*lnn*lnn/math.Sqrt(p), 1e-9)
		}
		if b.Row == 2 && strings.Contains(b.Group, "(ε,δ)") && ev.Table.Columns[b.Column].Key != "approx_previous" {
			t.Errorf("strongly convex (ε,δ): best should be KST12 at these numbers, got %s", ev.Table.Columns[b.Column].Key)
		}
	}
	// General units: risk × L‖C‖₂, Δ → Δ‖C‖₂/L.
	ev2, err := tableBST14().Evaluate(Params{N: n, D: p, Epsilon: eps, Delta: delta, Lipschitz: 3, Diameter: 2, Radius: 1, StrongConvexity: 1.5})
	if err != nil {
		t.Fatal(err)
	}
	dn := 1.5 * 2 / 3.0
	checkNear(t, "general units", cell(t, ev2, "strongly_convex", "pure_this_work").Value, 3*2*math.Log(n)/dn*p*p/(n*eps*eps), 1e-12)
	// Cap min(n, ·) in general units n·L·‖C‖₂.
	ev3, err := tableBST14().Evaluate(Params{N: 100, D: 1e4, Epsilon: 0.1, Delta: 1e-3, Lipschitz: 1, Diameter: 1, Radius: 1, StrongConvexity: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := cell(t, ev3, "lipschitz", "pure_previous")
	if !v.Capped || v.Value != 100 || !(v.Raw > 100) {
		t.Errorf("cap: %+v", v)
	}
}

func TestBST14TableRefusals(t *testing.T) {
	_, err := tableBST14().Evaluate(Params{N: 1000, D: 10, Epsilon: 1, Delta: 1e-3})
	var re *dp.Error
	if !errors.As(err, &re) || re.Field != "delta" || !strings.Contains(err.Error(), "1/n") {
		t.Errorf("δ = 1/n accepted or wrong error: %v", err)
	}
	_, err = tableBST14().Evaluate(Params{N: 1000, D: 10, Epsilon: 1, Delta: 1e-5, Diameter: 1, Radius: 0.5, StrongConvexity: 3})
	if !errors.As(err, &re) || re.Field != "strong_convexity" {
		t.Errorf("Δ > 2L/‖C‖ accepted: %v", err)
	}
}

// TestGGPCells checks seed 003's Table 1 at the point of
// docs/seeds.md#seed-003-test-vectors (n = 1e5, ε = 1, dx = dy = 1000) and
// recomputes each expression.
func TestGGPCells(t *testing.T) {
	n, eps := 1e5, 1.0
	ev, err := tableGGP().Evaluate(Params{N: n, D: 1000, Epsilon: eps, Delta: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	l := 2 * math.Log(1000)
	lx := math.Log(1000)
	checkNear(t, "ℓ", l, 13.8155, 1e-5)
	cases := []struct {
		row, col string
		want     float64
		vector   float64
	}{
		{"ssp_bilinear", "ours", math.Sqrt(l/n) + math.Sqrt(math.Pow(l, 1.5)/(n*eps)), 0.0344147},
		{"ssp_bilinear", "lower", math.Sqrt(l/n) + math.Pow(l, 0.75)/math.Sqrt(n*eps), 0.0344147},
		{"ssp_l2_smooth", "ours", l/math.Sqrt(n) + l/math.Sqrt(n*eps), 0.087377},
		{"ssp_l1_smooth", "ours", math.Sqrt(l/n) + math.Pow(math.Pow(l, 1.5)/(n*eps), 1.0/3), 0.0918326},
		{"sco_l2_smooth", "ours", math.Sqrt(lx/n) + lx/math.Sqrt(n*eps), 0.0301555},
		{"sco_l1_smooth", "ours", math.Sqrt(lx/n) + math.Pow(lx, 0.7)/math.Pow(n*eps, 0.4), 0.0469957},
		{"sco_l1_smooth", "previous", math.Sqrt(lx/n) + math.Pow(lx, 2.0/3)/math.Pow(n*eps, 2.0/3), 0.00999484},
	}
	for _, c := range cases {
		v := cell(t, ev, c.row, c.col)
		checkNear(t, c.row+"/"+c.col, v.Value, c.want, 1e-12)
		checkNear(t, c.row+"/"+c.col+" (test vector)", v.Value, c.vector, 1e-4)
	}
	for _, b := range ev.Best {
		if ev.Table.Rows[b.Row].Key == "ssp_bilinear" {
			checkNear(t, "bilinear gap", b.Gap, 1, 1e-12)
		}
		if ev.Table.Rows[b.Row].Key == "sco_l1_smooth" && ev.Table.Columns[b.Column].Key != "previous" {
			t.Errorf("SCO L1: Asi et al. should be best, got %s", ev.Table.Columns[b.Column].Key)
		}
	}
	// 0 < ε < 8 ln(1/δ).
	_, err = tableGGP().Evaluate(Params{N: n, D: 1000, Epsilon: 8 * math.Log(1e3), Delta: 1e-3})
	var re *dp.Error
	if !errors.As(err, &re) || re.Field != "epsilon" || !strings.Contains(err.Error(), "8 ln(1/δ)") {
		t.Errorf("ε = 8 ln(1/δ) accepted: %v", err)
	}
	if _, err := tableGGP().Evaluate(Params{N: n, D: 1, Epsilon: 1, Delta: 1e-5}); err == nil {
		t.Error("dx = 1 accepted")
	}
}

func TestFMTT18(t *testing.T) {
	n, d, eps, delta, k := 1e5, 10.0, 0.5, 1e-6, 20.0
	ev, err := tableFMTT18().Evaluate(Params{N: n, D: d, Epsilon: eps, Delta: delta, Tasks: k, Radius: 2, Lipschitz: 3})
	if err != nil {
		t.Fatal(err)
	}
	lr := 6.0
	checkNear(t, "sampling", cell(t, ev, "noisy_sgd_sampling", "one_task").Value, lr*math.Sqrt(d/(eps*n)), 1e-12)
	checkNear(t, "noisy sgd k", cell(t, ev, "noisy_sgd", "k_tasks").Value, lr*math.Sqrt(d*k/(eps*eps*n)), 1e-12)
	checkNear(t, "this work k", cell(t, ev, "this_work", "k_tasks").Value, lr*math.Sqrt(d/(eps*eps*n)), 1e-12)
	if v := cell(t, ev, "output_perturbation", "ldp"); !math.IsInf(v.Value, 1) || !v.Exact {
		t.Errorf("output perturbation LDP = %+v, want exact ∞", v)
	}
	if v := cell(t, ev, "this_work", "ldp"); v.Value != eps || !v.Exact {
		t.Errorf("this work LDP = %+v, want exact ε", v)
	}
	// Explicit Thm 32, corrected: q = max{2k(1+ln n)/n, 2 ln(1/δ)}.
	l := math.Log(1 / delta)
	q := math.Max(2*k*(1+math.Log(n))/n, 2*l)
	want := 4 * 2 * 3 / math.Sqrt(n) * math.Sqrt(1+16*d*q*l/(eps*eps))
	ex := cell(t, ev, "this_work", "k_tasks").Explicit
	if ex == nil || ex.Reason != "" {
		t.Fatalf("explicit: %+v", ex)
	}
	checkNear(t, "Thm 32 corrected", ex.Value, want, 1e-12)
	// At ε < 1 with ε = 0.5, "noisy SGD + sampling" (√(d/(εn))) is the best row.
	for _, b := range ev.Best {
		if b.Group == "Excess loss, k ≤ n tasks" && ev.Table.Rows[b.Row].Key != "noisy_sgd_sampling" {
			t.Errorf("best k-task row %s", ev.Table.Rows[b.Row].Key)
		}
	}
	// ε ≥ 1: explicit not applicable, with a reason.
	ev, err = tableFMTT18().Evaluate(Params{N: n, D: d, Epsilon: 2, Delta: delta})
	if err != nil {
		t.Fatal(err)
	}
	if ex := cell(t, ev, "this_work", "one_task").Explicit; ex == nil || !math.IsNaN(ex.Value) || !strings.Contains(ex.Reason, "ε ∈ (0, 1)") {
		t.Errorf("explicit at ε = 2: %+v", ex)
	}
	if _, err := tableFMTT18().Evaluate(Params{N: 10, D: d, Epsilon: 1, Delta: delta, Tasks: 11}); err == nil {
		t.Error("k > n accepted")
	}
}

func TestGTU(t *testing.T) {
	n, p, eps, delta, L, diam, m := 1e4, 10.0, 1.0, 1e-5, 2.0, 3.0, 0.1
	ev, err := tableGTU1().Evaluate(Params{N: n, D: p, Epsilon: eps, Delta: delta, Lipschitz: L, Diameter: diam, StrongConvexity: m, Smoothness: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "γ pure", cell(t, ev, "empirical", "pure").Value, L*diam*p/(eps*n), 1e-12)
	checkNear(t, "γ approx", cell(t, ev, "empirical", "approx").Value, L*L*p*math.Log(1/delta)/(m*eps*eps*n*n), 1e-12)
	checkNear(t, "γ explicit (p/β, β = εn/(2L‖C‖))", cell(t, ev, "empirical", "pure").Explicit.Value, p/(eps*n/(2*L*diam)), 1e-12)
	// docs/seeds.md#seed-000-test-vectors: stability 2L²/(mn) + 4L√(2ψ/m) at L = 1, m = 0.1, n = 1e4, ψ = 1e-6 is 0.0198885.
	ev, err = tableGTU1().Evaluate(Params{N: 1e4, D: 10, Epsilon: 1, Delta: 1e-5, StrongConvexity: 0.1, Psi: 1e-6, Smoothness: 1e-20})
	if err != nil {
		t.Fatal(err)
	}
	pop := cell(t, ev, "population", "pure").Explicit.Value
	checkNear(t, "population explicit", pop, 1e-6+2*10*1*2/(1e4)+0.0198885, 1e-5)
	// ψ above 2L²/(Mn²): the (ε,δ) column is n/a with the reason.
	ev, err = tableGTU1().Evaluate(Params{N: 1e4, D: 10, Epsilon: 1, Delta: 1e-5, Psi: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	if v := cell(t, ev, "empirical", "approx"); v.Evaluated() || !strings.Contains(v.Label, "2L²/(Mn²)") {
		t.Errorf("(ε,δ) at large ψ: %+v", v)
	}
	ev, err = tableGTU2().Evaluate(Params{N: n, D: p, Epsilon: eps, Delta: delta, Lipschitz: L, Diameter: diam, StrongConvexity: m})
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "ERM SC", cell(t, ev, "erm_sc", "pure").Value, L*L*(p*p+p*math.Log(n))/(m*eps*eps*n*n), 1e-12)
	checkNear(t, "SCO convex", cell(t, ev, "sco_convex", "approx").Value, L*diam*(1/math.Sqrt(n)+math.Sqrt(p)/(eps*n)), 1e-12)
	checkNear(t, "SCO SC", cell(t, ev, "sco_sc", "pure").Value, L*L/(m*n)+L*L*p*p*math.Log(n)/(m*eps*eps*n*n), 1e-12)
}

// TestLR checks the reconstructed seed 004 rates against the
// rate-shape values of docs/seeds.md#seed-004-test-vectors (n = 1e6, d = 100, ρ = 1, k = 4, D = 1, r_2 = 2,
// r_k = 204^{1/4}, β = 1: U1 = 4.130e−3, L1 = 4.451e−3).
func TestLR(t *testing.T) {
	rk := math.Pow(204, 0.25)
	ev, err := tableLR().Evaluate(Params{N: 1e6, D: 100, Rho: 1, MomentOrder: 4, Diameter: 1, SecondMoment: 2, MomentBound: rk, MomentBound2k: rk, Smoothness: 1, StrongConvexity: 1, Lipschitz: 100})
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "U1", cell(t, ev, "smooth_convex", "upper").Value, 4.130e-3, 2e-3)
	checkNear(t, "L1", cell(t, ev, "smooth_convex", "lower").Value, 4.451e-3, 2e-3)
	a, p := 10/1e6, 0.75
	checkNear(t, "SC lower", cell(t, ev, "smooth_sc", "lower").Value, rk*rk*(1e-6+math.Pow(a, 2*p)), 1e-12)
	checkNear(t, "SC upper κ = 1", cell(t, ev, "smooth_sc", "upper").Value, 4/1e6+rk*rk*math.Pow(a, 2*p), 1e-12)
	// Remark 10: with β at the threshold (r_k/D)a^p the two max-terms are equal.
	beta := rk * math.Pow(a, p)
	ev, _ = tableLR().Evaluate(Params{N: 1e6, D: 100, Rho: 1, MomentOrder: 4, Diameter: 1, SecondMoment: 2, MomentBound: rk, MomentBound2k: rk, Smoothness: beta, StrongConvexity: beta / 2, Lipschitz: 100})
	checkNear(t, "Remark 10 threshold", cell(t, ev, "smooth_convex", "upper").Value, 2/1e3+rk*math.Pow(a, p), 1e-9)
	// ρ defaults to ρ*(ε, δ); refusals.
	ev, err = tableLR().Evaluate(Params{N: 1e6, D: 100, Epsilon: 1, Delta: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "default ρ", ev.Params.Rho, 0.020820, 1e-4)
	if _, err := tableLR().Evaluate(Params{N: 1e6, D: 100, Epsilon: 1}); err == nil || !strings.Contains(err.Error(), "rho") {
		t.Errorf("no ρ and no δ: %v", err)
	}
	if _, err := tableLR().Evaluate(Params{N: 1e6, D: 100, Rho: 1, MomentBound: 1, SecondMoment: 2, MomentBound2k: 3}); err == nil {
		t.Error("r_2 > r_k accepted")
	}
	ev, _ = tableLR().Evaluate(Params{N: 5, D: 100, Rho: 1})
	if v := cell(t, ev, "smooth_convex", "lower"); v.Evaluated() || !strings.Contains(v.Label, "a = ") {
		t.Errorf("lower bound at a > 1: %+v", v)
	}
}

func TestParamsResolve(t *testing.T) {
	bad := []struct {
		p     Params
		param string
	}{
		{Params{N: 0.5, D: 1, Epsilon: 1}, "n"},
		{Params{N: 10.5, D: 1, Epsilon: 1}, "n"},
		{Params{N: 10, D: 0, Epsilon: 1}, "dimension"},
		{Params{N: 10, D: 1, Epsilon: 0}, "epsilon"},
		{Params{N: 10, D: 1, Epsilon: math.Inf(1)}, "epsilon"},
		{Params{N: 10, D: 1, Epsilon: 1, Delta: 1}, "delta"},
		{Params{N: 10, D: 1, Epsilon: 1, Delta: 0.1, Lipschitz: -1}, "lipschitz"},
		{Params{N: 10, D: 1, Epsilon: 1, Delta: 0.1, Radius: math.NaN()}, "radius"},
		{Params{N: 10, D: 1, Epsilon: 1, Delta: 0.1, Radius: 1, Diameter: 3}, "diameter"},
		{Params{N: 10, D: 1, Epsilon: 1, Delta: 0.1, Psi: -1}, "psi"},
		{Params{N: 10, D: 1, Epsilon: 1, Delta: 0.1, MomentOrder: 1.5}, "moment_order"},
	}
	for _, b := range bad {
		_, err := b.p.Resolve(true)
		var re *dp.Error
		if !errors.As(err, &re) || re.Field != b.param {
			t.Errorf("%+v: err %v, want a *dp.Error on %s", b.p, err, b.param)
		}
	}
	if _, err := (Params{N: 10, D: 1, Epsilon: 1}).Resolve(true); err == nil {
		t.Error("missing δ accepted when needed")
	}
	p, err := Params{N: 10, D: 3, Epsilon: 1, Delta: 0.1, Diameter: 2}.Resolve(true)
	if err != nil {
		t.Fatal(err)
	}
	// Jung: a set of diameter D in ℝ^d lies in a ball of radius D√(d/(2(d+1))).
	checkNear(t, "Jung radius", p.Radius, 2*math.Sqrt(3.0/8), 1e-12)
	if len(p.Defaults()) == 0 {
		t.Error("defaults not recorded")
	}
}
