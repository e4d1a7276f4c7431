package main

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

func ampClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// ampDefaults is the run pnsgd, curve, compare and epochs describe with
// only --n and --sigma given (TestAmpFlags checks it against the flags).
func ampDefaults(n int64, sigma float64) ampRun {
	return ampRun{shifted.Training{Variant: shifted.VariantPNSGD, N: n, Batch: 1, Epochs: 1, Tasks: 1, Sigma: sigma, Delta: 1e-5, Loss: shifted.Loss{Lipschitz: 1}},
		shifted.Options{Conversion: rdp.Improved, Dimension: 1}}
}

// The flags of pnsgd, curve, compare and epochs describe one run.
func TestAmpFlags(t *testing.T) {
	want := ampDefaults(1000, 2)
	if o := mustParse(t, newPNSGDCmd, "--n", "1e3", "--sigma", "2"); !reflect.DeepEqual(o.ampRun, want) {
		t.Errorf("pnsgd defaults %+v, want %+v", o.ampRun, want)
	}
	if o := mustParse(t, newCompareCmd, "--n", "1000", "--sigma", "2"); !reflect.DeepEqual(o.ampRun, want) {
		t.Errorf("compare defaults %+v, want %+v", o.ampRun, want)
	}
	o := mustParse(t, newPNSGDCmd, "--n", "500", "--sigma", "3", "--variant", "stop", "--tasks", "4", "--public", "7", "--lipschitz", "2", "--delta", "1e-6",
		"--index", "1,2", "--index", "9", "--target-epsilon", "0.5", "--nonsmooth", "--eta", "0.1", "--dimension", "100", "--conversion", "classic", "--radius", "2")
	r, op := o.Training, o.Options
	if r.Variant != shifted.VariantStop || r.N != 500 || r.Tasks != 4 || r.Public != 7 || r.Loss.Lipschitz != 2 || r.Delta != 1e-6 || r.Loss.Eta != 0.1 || r.Radius != 2 ||
		!reflect.DeepEqual(op.Indices, []int64{1, 2, 9}) || op.Target != 0.5 || !op.Nonsmooth || op.Dimension != 100 || op.Conversion != rdp.Classic {
		t.Errorf("pnsgd options %+v", o.ampRun)
	}
	if o := mustParse(t, newPNSGDCmd, "--n", "60000", "--sigma", "0.02", "--batch", "100", "--epochs", "10", "--strong-convexity", "0.001", "--smoothness", "1", "--eta", "1", "--composition-fallback"); o.Training.Batch != 100 || o.Training.Epochs != 10 ||
		o.Training.Loss.StrongConvexity != 0.001 || o.Training.Loss.Smoothness != 1 || !o.Options.CompositionFallback {
		t.Errorf("pnsgd options %+v", o.ampRun)
	}
	refused(t, newPNSGDCmd, "--n and --noise-multiplier (or --sigma) are required", "--n", "10")
	refused(t, newPNSGDCmd, "--epochs", "--n", "10", "--sigma", "1", "--epochs", "1.5")
	refused(t, newPNSGDCmd, "does not contract", "--n", "10", "--sigma", "1", "--eta", "1", "--smoothness", "3")
	refused(t, newPNSGDCmd, "--variant minibatch was removed", "--n", "10", "--sigma", "1", "--variant", "minibatch")
	refused(t, newCompareCmd, "--public", "--n", "10", "--sigma", "1", "--public", "0.5")
}

// pnsgdJSON runs pnsgd's computation on o with --json output.
func pnsgdJSON(t *testing.T, o ampRun) map[string]any {
	t.Helper()
	return runJSONOf(t, func(a *app) error { return pnsgdRun(&pnsgdOptions{a, o}) })
}

func TestPNSGDIndices(t *testing.T) {
	o := ampDefaults(100000, 4)
	o.Training.Delta, o.Options.Indices = 1e-6, []int64{1, 50000, 100000}
	obj := pnsgdJSON(t, o)
	pts := obj["indices"].([]any)
	if len(pts) != 3 {
		t.Fatalf("%d indices", len(pts))
	}
	g := shifted.SGD{N: 100000, Sigma: 4, Loss: shifted.Loss{Lipschitz: 1}}
	for _, p := range pts {
		m := p.(map[string]any)
		idx := int64(m["index"].(float64))
		want, _ := rdp.LinearEpsilon(2/(16*float64(100000-idx+1)), 1e-6, rdp.Improved)
		if got := m["epsilon"].(float64); !ampClose(got, want, 1e-9) {
			t.Errorf("index %d: ε = %g, want %g (Thm 23 + rdp.LinearEpsilon)", idx, got, want)
		}
		if rho := m["rho"].(float64); !ampClose(rho, g.Rho(idx), 1e-12) {
			t.Errorf("index %d: ρ = %g", idx, rho)
		}
	}
	if obj["source"] == nil || !strings.Contains(obj["source"].(string), "Thm 23") {
		t.Errorf("source %v", obj["source"])
	}
	if len(obj["assumptions"].([]any)) == 0 {
		t.Error("no assumptions")
	}
}

// The flags of each variant and feature parse (mustParse), and its analysis
// renders as JSON and as text from one computation.
func TestPNSGDSummaryAndVariants(t *testing.T) {
	for _, args := range [][]string{
		{"--variant", "pnsgd"},
		{"--batch", "10"},
		{"--epochs", "5"},
		{"--public", "100"},
		{"--strong-convexity", "0.001", "--smoothness", "1", "--eta", "1"},
		{"--variant", "skip"},
		{"--variant", "stop"},
		{"--variant", "stop", "--tasks", "4"},
		{"--nonsmooth", "--eta", "0.01", "--dimension", "100"},
	} {
		o := mustParse(t, newPNSGDCmd, append([]string{"--n", "20000", "--sigma", "3", "--target-epsilon", "0.05"}, args...)...)
		an, err := shifted.Analyze(o.Training, o.Options)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		obj := runJSONOf(t, func(a *app) error { return render(a.out, a.mode, pnsgdReport(an)) })
		sum := obj["summary"].(map[string]any)
		worst := sum["worst_epsilon"].(float64)
		best := sum["best_epsilon"].(float64)
		if !(best <= worst) || !(best >= 0) || math.IsNaN(worst) {
			t.Errorf("%v: best %g worst %g", args, best, worst)
		}
		if share := sum["share_under_target"].(float64); share < 0 || share > 1 {
			t.Errorf("%v: share %g", args, share)
		}
		// Human output shows sources and assumptions.
		if out := runOut(t, func(a *app) error { return render(a.out, a.mode, pnsgdReport(an)) }); !strings.Contains(out, "FMTT18") || !strings.Contains(out, "Assumptions:") {
			t.Errorf("%v:\n%s", args, out)
		}
	}
	// The stop variant says the paper's bound is not sound.
	stop := ampDefaults(1000, 3)
	stop.Training.Variant = shifted.VariantStop
	if out := runOut(t, func(a *app) error { return pnsgdRun(&pnsgdOptions{a, stop}) }); !strings.Contains(out, "not sound") {
		t.Errorf("stop output does not flag Thm 26:\n%s", out)
	}
	// Smoothing reports λ and the error.
	sm := ampDefaults(1000, 3)
	sm.Options.Nonsmooth, sm.Training.Loss.Eta, sm.Training.Loss.Lipschitz, sm.Options.Dimension = true, 0.1, 2, 100
	obj := pnsgdJSON(t, sm)
	smo := obj["smoothing"].(map[string]any)
	if !ampClose(smo["lambda"].(float64), 0.1, 1e-12) || !ampClose(smo["error"].(float64), 2, 1e-12) {
		t.Errorf("smoothing %v", smo)
	}
}

func TestPNSGDNonContractive(t *testing.T) {
	args := []string{"pnsgd", "--n", "1000", "--sigma", "2", "--eta", "1", "--smoothness", "3"}
	_, errs, code := runCLI(args...)
	if code != 2 || !strings.Contains(errs, "does not contract") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("exit %d: %q", code, errs)
	}
	obj := jsonOf(t, append(args, "--composition-fallback", "--index", "1")...)
	if obj["composition_fallback"] != true || !strings.Contains(obj["source"].(string), "composition bound only") {
		t.Fatalf("%v", obj)
	}
	// Lemma 27: 2L²/σ² = 0.5 for every index.
	e := obj["indices"].([]any)[0].(map[string]any)["epsilon"].(float64)
	want, _ := rdp.LinearEpsilon(0.5, 1e-5, rdp.Improved)
	if !ampClose(e, want, 1e-9) {
		t.Fatalf("fallback ε = %g, want %g", e, want)
	}
	out, _, _ := runCLI(append(args, "--composition-fallback")...)
	if !strings.Contains(out, "does not contract") {
		t.Fatalf("fallback output not labelled:\n%s", out)
	}
}

func TestPNSGDBadInput(t *testing.T) {
	base := []string{"pnsgd", "--n", "1000", "--sigma", "2"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"pnsgd", "--sigma", "2"}, "--n and --noise-multiplier (or --sigma) are required"},
		{[]string{"pnsgd", "--n", "10"}, "--n and --noise-multiplier (or --sigma) are required"},
		{[]string{"pnsgd", "--n", "0", "--sigma", "1"}, "--n"},
		{[]string{"pnsgd", "--n", "1.5", "--sigma", "1"}, "--n"},
		{[]string{"pnsgd", "--n", "1e13", "--sigma", "1"}, "--n"},
		{[]string{"pnsgd", "--n", "10", "--sigma", "0"}, "--sigma"},
		{[]string{"pnsgd", "--n", "10", "--sigma", "NaN"}, "--sigma"},
		{[]string{"pnsgd", "--n", "10", "--sigma", "Inf"}, "--sigma"},
		{[]string{"pnsgd", "--n", "10", "--sigma", "x"}, "--sigma"},
		{append(base, "--delta", "1"), "--delta"},
		{append(base, "--delta", "0"), "--delta"},
		{append(base, "--lipschitz", "-1"), "--lipschitz"},
		{append(base, "--index", "0"), "--index"},
		{append(base, "--index", "1001"), "--index"},
		{append(base, "--index", "1.5"), "--index"},
		{append(base, "--variant", "bogus"), "--variant"},
		{append(base, "--variant", "stop", "--batch", "4"), "--batch must be 1"},
		{append(base, "--variant", "skip", "--epochs", "2"), "--epochs must be 1"},
		{append(base, "--tasks", "3"), "--tasks must be 1"},
		{append(base, "--variant", "epochs"), "--variant epochs was removed: use --variant pnsgd --epochs E"},
		{append(base, "--variant", "minibatch"), "use --variant pnsgd --batch B"},
		{append(base, "--variant", "local"), "--variant local was removed"},
		{append(base, "--batch", "2000"), "--batch"},
		{append(base, "--public", "1.5"), "--public"},
		{append(base, "--strong-convexity", "0.1"), "--strong-convexity needs the smoothness"},
		{append(base, "--strong-convexity", "2", "--smoothness", "1", "--eta", "0.1"), "--strong-convexity must be ≤"},
		{append(base, "--nonsmooth"), "--nonsmooth needs the step size"},
		{append(base, "--nonsmooth", "--eta", "0.1", "--smoothness", "2"), "--smoothness cannot be declared"},
		{append(base, "--target-epsilon", "-1"), "--target-epsilon"},
		{append(base, "--conversion", "best"), "--conversion"},
		{[]string{"pnsgd", "--n", "1e7", "--sigma", "1", "--epochs", "1e12"}, "--epochs"},
	}
	for _, c := range cases {
		_, errs, code := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
}

func TestPNSGDLargeN(t *testing.T) {
	obj := jsonOf(t, "pnsgd", "--n", "1e9", "--sigma", "2", "--variant", "skip", "--target-epsilon", "0.01")
	sum := obj["summary"].(map[string]any)
	if c := sum["count_under_target"].(float64); !(c > 0 && c < 1e9) {
		t.Fatalf("count %g", c)
	}
}

// FuzzAmpCLI runs pnsgd, curve and compare on arbitrary flags: exit 0 or 2,
// never a panic, never NaN in the output.
func FuzzAmpCLI(f *testing.F) {
	for _, s := range []string{
		"pnsgd --n 1000 --sigma 2 --index 5",
		"pnsgd --n 1e12 --sigma 0.5 --variant stop --target-epsilon 1",
		"pnsgd --n 7 --sigma 1e-300 --variant skip",
		"pnsgd --n 50 --sigma 3 --variant strongly-convex --strong-convexity 1 --smoothness 1 --eta 1",
		"pnsgd --n 50 --sigma 3 --eta 5 --smoothness 1 --composition-fallback --variant stop --tasks 9",
		"curve --n 100 --sigma 1 --variants pnsgd,stop,skip --points 7",
		"compare --n 100 --sigma 0.1 --batch 10 --epochs 4",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		skipSlowSeed(t, line)
		args := strings.Fields(line)
		if len(args) == 0 || (args[0] != "pnsgd" && args[0] != "curve" && args[0] != "compare") {
			return
		}
		for _, a := range args {
			if strings.HasPrefix(a, "--all") || strings.HasPrefix(a, "--plot") || strings.HasPrefix(a, "--points") {
				return
			}
		}
		out, errs, code := runCLI(args...)
		if code != 0 && code != 2 {
			t.Fatalf("%q: exit %d: %s", line, code, errs)
		}
		if strings.Contains(errs, "internal error") || strings.Contains(out, "NaN") || strings.Contains(out, "undefined") {
			t.Fatalf("%q:\n%s\n%s", line, out, errs)
		}
	})
}
