package bst14

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/privamp/privamp/audit"
	"github.com/privamp/privamp/audit/lowerbound"
	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer"
)

// TestSGDMonteCarloLowerBound is the Monte Carlo oracle (issue 22) for
// bst14-sgd: Algorithm 1's path (sgdPath, seeded as runSGDProblem seeds
// it) on two neighbouring data sets many times, the released θ's
// coordinate along the changed record's push audited by package audit's
// threshold attack (audit/lowerbound), against the certificate RunSGD
// prints. The catalogue's Run recomputes the PLD accountant on every call
// (about 0.2 s), so the trials call the path directly; the certificate
// comes from RunSGD on each neighbour and must agree. The positive control
// runs the path with σ/8 against σ's certificate and must be caught.
func TestSGDMonteCarloLowerBound(t *testing.T) {
	trials := 4000
	if testing.Short() {
		trials = 1000
	}
	// Linear loss −⟨θ, x⟩ (the replaced record's gradient moves by 2X, the
	// sensitivity the accountant assumes), four 1-D records, the last at +1
	// in D and at −1 in D′.
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pd, pdp := write("D.csv", "x,y\n0,1\n0,1\n0,1\n1,1\n"), write("Dp.csv", "x,y\n0,1\n0,1\n0,1\n-1,1\n")
	p := SGDParams{Sigma: 16, Delta: 1e-3, Common: Common{Seed: 1}}
	spec := func(path string) Spec {
		return Spec{Data: optimizer.DataSpec{Path: path, Label: "y", FeatureBound: 1}, Loss: optimizer.LossSpec{Name: "linear"}, Radius: 100}
	}
	res, err := RunSGD(spec(pd), p)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := RunSGD(spec(pdp), p)
	if err != nil {
		t.Fatal(err)
	}
	eps, delta := float64(res.Privacy.Epsilon), float64(res.Privacy.Delta)
	if float64(resp.Privacy.Epsilon) != eps || resp.Privacy.Sigma != res.Privacy.Sigma {
		t.Fatalf("the neighbours' certificates differ: %v vs %v", res.Privacy, resp.Privacy)
	}
	prD, err := build(spec(pd), p.Common, p.Delta)
	if err != nil {
		t.Fatal(err)
	}
	prDp, err := build(spec(pdp), p.Common, p.Delta)
	if err != nil {
		t.Fatal(err)
	}
	T, rule := res.Privacy.Steps, res.StepRule
	opts := audit.Options{Confidence: 0.95, Delta: delta, Upper: audit.UpperBound(eps, delta, "bst14-sgd certificate")}
	run := func(sigma float64) *audit.Evaluation {
		ev, _, _, err := lowerbound.Audit(trials, func(onD bool, seed uint64) (float64, error) {
			pr := prDp
			if onD {
				pr = prD
			}
			w, _ := sgdPath(pr, T, sigma, rule, region{R: pr.Declared.Radius}, nil, dataset.NewRand(seed), nil)
			return w[0], nil
		}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	sigma := float64(res.Privacy.Sigma)
	ev := run(sigma)
	t.Logf("bst14-sgd (n = 4, T = %d, σ = %g): %d trials per data set: ε ≥ %.3f (95%%) vs certified ε = %.4g at δ = %g", T, sigma, trials, float64(ev.EpsilonLower), eps, delta)
	if ev.Comparison.Verdict != dp.Consistent {
		t.Errorf("bst14-sgd: %s", ev.Comparison.Statement)
	}
	ev = run(sigma / 8)
	t.Logf("bst14-sgd under-noised (σ/8): ε ≥ %.3f vs σ's certificate ε = %.4g", float64(ev.EpsilonLower), eps)
	if ev.Comparison.Verdict != dp.Violated {
		t.Errorf("bst14-sgd positive control: the oracle missed an understated certificate: %s", ev.Comparison.Statement)
	}
}
