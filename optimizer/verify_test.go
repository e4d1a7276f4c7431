package optimizer

import (
	"math"
	"strings"
	"testing"
)

func TestVerifyVerdicts(t *testing.T) {
	// PNSGD, n = 1000, L = 1, σ = 2: the worst index (n) has ρ = 2L²/σ² = 0.5.
	worst, _ := linearEps(0.5, 1e-5)
	first, _ := linearEps(0.5/1000, 1e-5)
	cases := []struct {
		name string
		edit func(s string) string
		want Verdict
	}{
		{"valid", func(s string) string { return replaceField(s, `"epsilon"`, `"epsilon": `+ftoa(worst*1.0001)) }, Valid},
		{"invalid", func(s string) string { return replaceField(s, `"epsilon"`, `"epsilon": `+ftoa(worst*0.9)) }, Invalid},
		{"per-index valid", func(s string) string {
			return replaceField(s, `"epsilon"`, `"per_index": [{"index": 1, "epsilon": `+ftoa(first*1.001)+`}]`)
		}, Valid},
		{"per-index invalid", func(s string) string {
			return replaceField(s, `"epsilon"`, `"per_index": [{"index": 1, "epsilon": `+ftoa(first*0.99)+`}]`)
		}, Invalid},
		{"eta > 2/beta", func(s string) string { return replaceField(s, `"eta"`, `"eta": 2.5`) }, Unsupported},
		{"no smoothness", func(s string) string { return replaceField(s, `"smoothness"`, `"smoothness": 0`) }, Unsupported},
		{"eta > 2/beta, composition covers", func(s string) string {
			return replaceField(replaceField(s, `"eta"`, `"eta": 2.5`), `"epsilon"`, `"epsilon": 100`)
		}, Valid},
		{"shuffled epochs", func(s string) string {
			return strings.Replace(s, "{", `{"order": "shuffled", "epochs": 3, `, 1)
		}, Unsupported},
	}
	for _, c := range cases {
		cl := parseClaimString(t, c.edit(baseClaim))
		v, err := Verify(cl, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if v.Verdict != c.want {
			t.Errorf("%s: verdict %v, want %v (checks %+v)", c.name, v.Verdict, c.want, v.Checks)
		}
		if v.Verdict == Invalid {
			// the σ it names makes the claim valid, and a slightly smaller one does not
			cl.Sigma = v.SigmaNeeded
			v2, _ := Verify(cl, nil)
			cl.Sigma = v.SigmaNeeded * 0.999
			v3, _ := Verify(cl, nil)
			if v2.Verdict != Valid || v3.Verdict != Invalid {
				t.Errorf("%s: σ needed %v gives %v, 0.999σ gives %v", c.name, v.SigmaNeeded, v2.Verdict, v3.Verdict)
			}
		}
	}
	// the certified value is Thm 23's closed form, independently computed
	v, _ := Verify(parseClaimString(t, baseClaim), nil)
	if math.Abs(v.Certified-worst) > 1e-9*worst || v.WorstIndex != 1000 {
		t.Fatalf("certified %v at %d, want %v at 1000", v.Certified, v.WorstIndex, worst)
	}
}

func TestVerifyTrajectory(t *testing.T) {
	cl := parseClaimString(t, baseClaim)
	cl.Epsilon = ptr(100.0)
	tr := []TracePoint{{Step: 500, GradNorm: 0.9, StepSize: 0.5, Line: 2}, {Step: 1000, GradNorm: 0.95, StepSize: 0.5, Line: 3}}
	v, _ := Verify(cl, tr)
	if v.Verdict != Valid || len(v.Failed) != 0 {
		t.Fatalf("good trajectory: %v %v", v.Verdict, v.Failed)
	}
	// a gradient above L: not even composition holds
	tr[1].GradNorm = 1.2
	v, _ = Verify(cl, tr)
	if v.Verdict != Unsupported || !math.IsInf(v.Composition, 1) || !strings.Contains(v.Failed[0], "line 3") {
		t.Fatalf("gradient above L: %v, composition %v, failed %v", v.Verdict, v.Composition, v.Failed)
	}
	// a different step size
	tr[1].GradNorm, tr[1].StepSize = 0.9, 0.4
	cl.Epsilon = ptr(1.0)
	v, _ = Verify(cl, tr)
	if v.Verdict != Unsupported {
		t.Fatalf("step size: %v", v.Verdict)
	}
	// too few steps for pnsgd
	tr[1].StepSize, tr[1].Step = 0.5, 999
	v, _ = Verify(cl, tr)
	if v.Verdict != Unsupported {
		t.Fatalf("steps: %v", v.Verdict)
	}
}

func ptr(x float64) *float64 { return &x }

func ftoa(x float64) string { return strings.TrimSpace(strings.Replace(fmtG(x), "e+", "e", 1)) }

func fmtG(x float64) string { return strconvFormat(x) }
