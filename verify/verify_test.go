package verify

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/shifted"
)

func TestVerifyVerdicts(t *testing.T) {
	// PNSGD, n = 1000, L = 1, σ = 2: the worst index (n) has ρ = 2L²/σ² = 0.5.
	worst, _ := linearEps(0.5, 1e-5)
	first, _ := linearEps(0.5/1000, 1e-5)
	cases := []struct {
		name string
		edit func(s string) string
		want dp.Verdict
	}{
		{"valid", func(s string) string { return replaceField(s, `"epsilon"`, `"epsilon": `+ftoa(worst*1.0001)) }, dp.Valid},
		{"invalid", func(s string) string { return replaceField(s, `"epsilon"`, `"epsilon": `+ftoa(worst*0.9)) }, dp.Invalid},
		{"per-index valid", func(s string) string {
			return replaceField(s, `"epsilon"`, `"per_index": [{"index": 1, "epsilon": `+ftoa(first*1.001)+`}]`)
		}, dp.Valid},
		{"per-index invalid", func(s string) string {
			return replaceField(s, `"epsilon"`, `"per_index": [{"index": 1, "epsilon": `+ftoa(first*0.99)+`}]`)
		}, dp.Invalid},
		{"eta > 2/beta", func(s string) string { return replaceField(s, `"eta"`, `"eta": 2.5`) }, dp.Unsupported},
		{"no smoothness", func(s string) string { return replaceField(s, `"smoothness"`, `"smoothness": 0`) }, dp.Unsupported},
		{"eta > 2/beta, composition covers", func(s string) string {
			return replaceField(replaceField(s, `"eta"`, `"eta": 2.5`), `"epsilon"`, `"epsilon": 100`)
		}, dp.Valid},
		{"shuffled epochs", func(s string) string {
			return strings.Replace(s, "{", `{"order": "shuffled", "epochs": 3, `, 1)
		}, dp.Unsupported},
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
		if v.Verdict == dp.Invalid {
			// the σ it names makes the claim valid, and a slightly smaller one does not
			cl.Sigma = float64(v.SigmaNeeded)
			v2, _ := Verify(cl, nil)
			cl.Sigma = float64(v.SigmaNeeded) * 0.999
			v3, _ := Verify(cl, nil)
			if v2.Verdict != dp.Valid || v3.Verdict != dp.Invalid {
				t.Errorf("%s: σ needed %v gives %v, 0.999σ gives %v", c.name, float64(v.SigmaNeeded), v2.Verdict, v3.Verdict)
			}
		}
	}
	// the certified value is Thm 23's closed form, independently computed
	v, _ := Verify(parseClaimString(t, baseClaim), nil)
	if math.Abs(float64(v.WorstEpsilon)-worst) > 1e-9*worst || v.WorstIndex != 1000 {
		t.Fatalf("certified %v at %d, want %v at 1000", float64(v.WorstEpsilon), v.WorstIndex, worst)
	}
}

func TestVerifyTrajectory(t *testing.T) {
	cl := parseClaimString(t, baseClaim)
	cl.Epsilon = ptr(100.0)
	tr := Rows{{Step: 500, GradNorm: 0.9, StepSize: 0.5, Line: 2}, {Step: 1000, GradNorm: 0.95, StepSize: 0.5, Line: 3}}
	v, _ := Verify(cl, tr)
	if v.Verdict != dp.Valid || len(v.Failed()) != 0 {
		t.Fatalf("good trajectory: %v %v", v.Verdict, v.Failed())
	}
	// a gradient above L: not even composition holds
	tr[1].GradNorm = 1.2
	v, _ = Verify(cl, tr)
	if v.Verdict != dp.Unsupported || !math.IsInf(float64(v.CompositionEpsilon), 1) || !strings.Contains(v.Failed()[0], "line 3") {
		t.Fatalf("gradient above L: %v, composition %v, failed %v", v.Verdict, float64(v.CompositionEpsilon), v.Failed())
	}
	// a different step size
	tr[1].GradNorm, tr[1].StepSize = 0.9, 0.4
	cl.Epsilon = ptr(1.0)
	v, _ = Verify(cl, tr)
	if v.Verdict != dp.Unsupported {
		t.Fatalf("step size: %v", v.Verdict)
	}
	// too few steps for pnsgd
	tr[1].StepSize, tr[1].Step = 0.5, 999
	v, _ = Verify(cl, tr)
	if v.Verdict != dp.Unsupported {
		t.Fatalf("steps: %v", v.Verdict)
	}
}

func ptr(x float64) *float64 { return &x }

func ftoa(x float64) string { return strings.TrimSpace(strings.Replace(fmtG(x), "e+", "e", 1)) }

func fmtG(x float64) string { return strconvFormat(x) }

// genuineTrace runs projected noisy SGD with a Tracer, as privamp run
// --trace does, and returns the trajectory CSV and the true constants of
// the loss on the data and the domain.
func genuineTrace(t *testing.T, kind string, l2 float64, cfg Config, n, d int) ([]byte, Constants) {
	t.Helper()
	data, obj := synthData(t, kind, n, d)
	obj.L2 += l2
	cons := obj.Constants(data.MaxNorm(), data.MaxAbsLabel(), cfg.R)
	r, err := NewRunner(cfg, obj, data)
	if err != nil {
		t.Fatal(err)
	}
	tr := &Tracer{MaxPoints: 200, Opt: Minimize(obj, data, cfg.R).W}
	r.SetTracer(tr)
	r.Run(7)
	var buf bytes.Buffer
	if err := WriteTrace(&buf, tr.Points); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), cons
}

// claimFor writes a claim for cfg on n examples with the given constants.
func claimFor(cfg Config, n int, L, beta, m, eps float64) string {
	radius := ""
	if !math.IsInf(cfg.R, 1) {
		radius = fmt.Sprintf(`"radius": %v, `, cfg.R)
	}
	return fmt.Sprintf(`{"algorithm": %q, "n": %d, "batch": %d, "epochs": %d, "eta": %v, "sigma": %v, "lipschitz": %v, "smoothness": %v, "strong_convexity": %v, %s"delta": 1e-5, "epsilon": %v}`,
		cfg.Variant, n, cfg.Batch, cfg.Epochs, cfg.Eta(), cfg.Sigma, L, beta, m, radius, eps)
}

// verifyCSV parses a claim and a trajectory CSV as privamp verify does and
// verifies them.
func verifyCSV(t *testing.T, claim string, csvData []byte) Verification {
	t.Helper()
	c := parseClaimString(t, claim)
	tr, err := ReadTrace(bytes.NewReader(csvData))
	if err != nil {
		t.Fatalf("ReadTrace: %v", err)
	}
	v, err := Verify(c, tr)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, v)
	return v
}

// checkInvariants: a failed check is never VALID, every check states its
// basis, σ is always listed as taken on trust.
func checkInvariants(t *testing.T, v Verification) {
	t.Helper()
	failed := false
	for _, ch := range v.Checks {
		failed = failed || ch.Status == dp.Fail
		if ch.Basis != BasisTrajectory && ch.Basis != BasisArithmetic && ch.Basis != BasisTrust {
			t.Errorf("check %q has basis %q", ch.Name, ch.Basis)
		}
		if strings.Contains(ch.Detail, "--") {
			t.Errorf("check %q names a flag: %s", ch.Name, ch.Detail)
		}
	}
	if failed && (v.Verdict == dp.Valid || v.Via != ViaNone && v.Via != ViaDelta) {
		t.Errorf("a check failed but the verdict is %v via %s: %+v", v.Verdict, v.Via, v.Checks)
	}
	// σ is checked against the trajectory's noise columns, or taken on
	// trust; never neither, and never PASS without the columns.
	inTrust, inChecked := strings.Contains(strings.Join(v.Trusted, "|"), "σ = "), strings.Contains(strings.Join(v.CrossChecked, "|"), "σ = ")
	st := statusOf(v, "trajectory: noise drawn matches σ")
	if inTrust && inChecked || !inTrust && !inChecked && st != dp.Fail || inTrust && st == dp.Pass {
		t.Errorf("σ is neither checked nor listed as taken on trust (or both): checked %v, trusted %v", v.CrossChecked, v.Trusted)
	}
	for _, ch := range v.Checks {
		if ch.Basis == BasisTrust && ch.Status == dp.Pass {
			t.Errorf("check %q is taken on trust but shows PASS", ch.Name)
		}
	}
}

func statusOf(v Verification, name string) dp.Status {
	for _, ch := range v.Checks {
		if ch.Name == name {
			return ch.Status
		}
	}
	return ""
}

// csvEdit returns the trajectory with column col of data row row (0-based)
// set to val (row −1: every row).
func csvEdit(t *testing.T, data []byte, col string, row int, val string) []byte {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	j := slices.Index(recs[0], col)
	if j < 0 {
		t.Fatalf("no column %q", col)
	}
	for i := 1; i < len(recs); i++ {
		if row < 0 || i-1 == row {
			recs[i][j] = val
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.WriteAll(recs)
	return buf.Bytes()
}

// dropNoise returns the trajectory without its noise columns (as written
// before privamp recorded the noise).
func dropNoise(t *testing.T, data []byte) []byte {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	keep := []int{}
	for j, h := range recs[0] {
		if h != "noise_sq" && h != "noise_dof" {
			keep = append(keep, j)
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	for _, r := range recs {
		out := make([]string, len(keep))
		for k, j := range keep {
			out[k] = r[j]
		}
		w.Write(out)
	}
	w.Flush()
	return buf.Bytes()
}

// TestVerifyGenuineTraces: a trajectory of a real run, with the loss's true
// constants declared, contradicts none of them (no false alarm), for each
// loss, strong convexity, batch size, epochs, variant and radius; every
// declared L, η, β, m, R and step count is then listed as cross-checked and
// only σ as taken on trust.
func TestVerifyGenuineTraces(t *testing.T) {
	for _, kind := range []string{"logistic", "linear", "quadratic"} {
		for _, l2 := range []float64{0, 0.2} {
			for _, cfg := range []Config{
				testConfig(Final, 1, 0, 1, 1, 1),
				testConfig(Final, 0.5, 0, 3, 7, 3),
				testConfig(Skip, 2, 0, 1, 1, 2),
				testConfig(Stop, 2, 0, 1, 1, 1),
			} {
				const n = 120
				_, cons := genuineTrace(t, kind, l2, testConfig(Final, 1, 0.1, 1, 1, cfg.R), n, 4)
				cfg.Loss.Eta = 1.9 / cons.Beta // c < 1 but close to the edge
				data, cons := genuineTrace(t, kind, l2, cfg, n, 4)
				name := fmt.Sprintf("%s l2=%v %v b=%d e=%d R=%v", kind, l2, cfg.Variant, cfg.Batch, cfg.Epochs, cfg.R)
				v := verifyCSV(t, claimFor(cfg, n, cons.L, cons.Beta, cons.M, 1e6), data)
				if v.Verdict != dp.Valid || v.Via != "amplification by iteration" || len(v.Failed()) != 0 {
					t.Errorf("%s: %v via %s: %v", name, v.Verdict, v.Via, v.Failed())
				}
				got := strings.Join(v.CrossChecked, "|")
				for _, want := range []string{"L = ", "η = ", "β = ", " steps (step column)", "R = "} {
					if !strings.Contains(got, want) {
						t.Errorf("%s: %q not cross-checked: %v", name, want, v.CrossChecked)
					}
				}
				if len(v.Trusted) != 0 || !strings.Contains(got, "σ = ") || statusOf(v, "trajectory: noise drawn matches σ") != dp.Pass {
					t.Errorf("%s: σ not checked against the noise column: trusted %v", name, v.Trusted)
				}
			}
		}
	}
}

// TestVerifyIssue9Hole2 holds the three trajectories of issue 9's hole 2,
// each of which the old Verify called VALID via amplification by iteration:
// a run at η = 20 whose contraction column reaches 4 with a claim that
// declares β = 0.05; a trajectory whose every grad_norm is 0; the example
// trajectory with its contraction column edited to 3.5.
func TestVerifyIssue9Hole2(t *testing.T) {
	// (1) privamp run --variant pnsgd --eta 20 --sigma 4 on logistic data
	// with ‖x‖ ≤ 1 (true β = 1/4, so c = |1 − 20/4| = 4; run itself finds no
	// finite guarantee) and a claim of β = 0.05 (ηβ = 1: c = 1 on paper).
	cfg := testConfig(Final, 4, 20, 1, 1, 1)
	data, cons := genuineTrace(t, "logistic", 0, cfg, 300, 3)
	tr, _ := ReadTrace(bytes.NewReader(data))
	var mc float64
	for _, p := range tr {
		mc = math.Max(mc, p.Contraction)
	}
	if mc < 2 || mc > 4*(1+1e-9) {
		t.Fatalf("the η = 20 run's measured contraction reaches %v, want within (2, 4]", mc)
	}
	v := verifyCSV(t, claimFor(cfg, 300, cons.L, 0.05, 0, 1e6), data)
	if v.Verdict == dp.Valid || statusOf(v, "trajectory: measured contraction ≤ c") != dp.Fail {
		t.Errorf("η = 20 trace with β = 0.05: %v via %s, checks %+v", v.Verdict, v.Via, v.Checks)
	}
	// The same run declared with its true β is not contradicted, but η > 2/β
	// leaves amplification unmet; composition decides.
	v = verifyCSV(t, claimFor(cfg, 300, cons.L, cons.Beta, 0, 1e6), data)
	if v.Verdict != dp.Valid || v.Via != "composition" || statusOf(v, "η ≤ 2/β (the step contracts)") != dp.Unmet {
		t.Errorf("η = 20 with the true β: %v via %s %v", v.Verdict, v.Via, v.Failed())
	}

	// (2) every grad_norm 0.
	cfg = testConfig(Final, 4, 4, 1, 1, 1)
	data, cons = genuineTrace(t, "logistic", 0, cfg, 300, 3)
	good := claimFor(cfg, 300, cons.L, cons.Beta, 0, 1e6)
	if v := verifyCSV(t, good, data); v.Verdict != dp.Valid {
		t.Fatalf("genuine trace: %v %v", v.Verdict, v.Failed())
	}
	v = verifyCSV(t, good, csvEdit(t, data, "grad_norm", -1, "0"))
	if v.Verdict == dp.Valid || statusOf(v, "trajectory: usable as evidence") != dp.Fail || !strings.Contains(strings.Join(v.Failed(), ""), "every grad_norm is exactly 0") {
		t.Errorf("all-zero grad_norm: %v %v", v.Verdict, v.Failed())
	}

	// (3) the contraction column edited to 3.5 (on one row, and on all).
	for _, row := range []int{17, -1} {
		v = verifyCSV(t, good, csvEdit(t, data, "contraction", row, "3.5"))
		if v.Verdict == dp.Valid || statusOf(v, "trajectory: measured contraction ≤ c") != dp.Fail {
			t.Errorf("contraction 3.5 on row %d: %v %v", row, v.Verdict, v.Failed())
		}
	}
	// ... and the shipped example, edited the same way.
	claim, err := os.ReadFile("../examples/claim.json")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := os.ReadFile("../examples/trajectory.csv")
	if err != nil {
		t.Fatal(err)
	}
	if v := verifyCSV(t, string(claim), ex); v.Verdict != dp.Valid {
		t.Fatalf("examples/claim.json: %v %v", v.Verdict, v.Failed())
	}
	v = verifyCSV(t, string(claim), csvEdit(t, ex, "contraction", 100, "3.5"))
	if v.Verdict == dp.Valid || statusOf(v, "trajectory: measured contraction ≤ c") != dp.Fail {
		t.Errorf("example with contraction 3.5: %v %v", v.Verdict, v.Failed())
	}
}

// TestVerifyCrossChecks: each column and each relation between constants
// can fail, and a failure is never VALID (even with an ε plain composition
// would support).
func TestVerifyCrossChecks(t *testing.T) {
	cfg := testConfig(Final, 4, 4, 1, 1, 1)
	data, cons := genuineTrace(t, "logistic", 0, cfg, 300, 3)
	good := claimFor(cfg, 300, cons.L, cons.Beta, 0, 1e6)
	rows := strings.Count(string(data), "\n") - 1
	cases := []struct {
		name, claim string
		trace       []byte
		check, frag string
	}{
		{"gradient above L", good, csvEdit(t, data, "grad_norm", 5, "0.9"), "trajectory: max gradient norm ≤ L", "exceeds L"},
		{"step size", good, csvEdit(t, data, "step_size", 5, "3.9"), "trajectory: step size = η", "differs from the declared η"},
		{"NaN gradient", good, csvEdit(t, data, "grad_norm", 5, "NaN"), "trajectory: usable as evidence", "grad_norm NaN"},
		{"empty gradient", good, csvEdit(t, data, "grad_norm", 5, ""), "trajectory: usable as evidence", "grad_norm NaN"},
		{"infinite loss", good, csvEdit(t, data, "loss", 5, "+Inf"), "trajectory: usable as evidence", "loss +Inf"},
		{"blanked contraction rows", good, csvEdit(t, data, "contraction", 5, ""), "trajectory: usable as evidence", `column "contraction" is empty on 1 of`},
		{"negative distance", good, csvEdit(t, data, "dist_to_opt", 5, "-1"), "trajectory: usable as evidence", "dist_to_opt -1"},
		{"steps repeat", good, csvEdit(t, data, "step", 5, "3"), "trajectory: usable as evidence", "does not increase"},
		{"step 0", good, csvEdit(t, data, "step", 0, "0"), "trajectory: usable as evidence", "not ≥ 1"},
		{"too few steps", good, csvEdit(t, dropNoise(t, data), "step", rows-1, "299"), "trajectory: number of steps", "ends at step 299"},
		{"too many steps", good, csvEdit(t, dropNoise(t, data), "step", rows-1, "301"), "trajectory: number of steps", "more than the 300"},
		{"distance beyond 2R", good, csvEdit(t, data, "dist_to_opt", 5, "2.5"), "trajectory: distance to the optimum ≤ 2R", "exceeds the diameter"},
		{"loss jump", good, csvEdit(t, data, "loss", 5, "9"), "trajectory: loss changes ≤ L·‖w_s − w_t‖", "more than L·"},
		{"loss jump within 2R but not d_s + d_t", good, csvEdit(t, csvEdit(t, data, "dist_to_opt", -1, "0.01"), "loss", 5, "1.5"), "trajectory: loss changes ≤ L·‖w_s − w_t‖", "L·(d_s + d_t)"},
		{"m without radius", claimFor(testConfig(Final, 4, 1, 1, 1, math.Inf(1)), 300, 1, 1, 0.5, 1e6), nil, "L ≥ m·R (constants consistent)", "no radius"},
		{"L below m·R", claimFor(testConfig(Final, 4, 1, 1, 1, 10), 300, 1, 1, 0.5, 1e6), nil, "L ≥ m·R (constants consistent)", "L = 1 < m·R = 5"},
	}
	for _, c := range cases {
		var v Verification
		if c.trace != nil {
			v = verifyCSV(t, c.claim, c.trace)
		} else {
			var err error
			v, err = Verify(parseClaimString(t, c.claim), nil)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, v)
		}
		if v.Verdict != dp.Unsupported || v.Via != ViaNone || statusOf(v, c.check) != dp.Fail || !strings.Contains(strings.Join(v.Failed(), "|"), c.frag) {
			t.Errorf("%s: %v via %s, %q is %q; failed %v", c.name, v.Verdict, v.Via, c.check, statusOf(v, c.check), v.Failed())
		}
	}
	// Constants no parsed claim can hold (Verify is also called with claims
	// built in code): m > β, L ≤ 0.
	cl := parseClaimString(t, good)
	cl.StrongConvexity = 2 * cl.Smoothness
	cl.Lipschitz = 1e6
	if v, _ := Verify(cl, nil); v.Verdict != dp.Unsupported || statusOf(v, "m ≤ β (constants consistent)") != dp.Fail {
		t.Errorf("m > β: %v %v", v.Verdict, v.Failed())
	}
	cl = parseClaimString(t, good)
	cl.Lipschitz = -1
	if v, _ := Verify(cl, nil); v.Verdict != dp.Unsupported || statusOf(v, "declared constants in range") != dp.Fail {
		t.Errorf("L < 0: %v %v", v.Verdict, v.Failed())
	}
	// Without a trajectory, L, β, m and η are listed as taken on trust.
	v, _ := Verify(parseClaimString(t, good), nil)
	if v.Verdict != dp.Valid || len(v.CrossChecked) != 0 || !strings.Contains(strings.Join(v.Trusted, "|"), "(no trajectory)") {
		t.Errorf("no trajectory: %v checked %v trusted %v", v.Verdict, v.CrossChecked, v.Trusted)
	}
	// A trajectory with only the required columns leaves β and m on trust.
	bare := []byte("step,grad_norm,step_size\n150,0.5,4\n300,0.6,4\n")
	v = verifyCSV(t, good, bare)
	if v.Verdict != dp.Valid || !strings.Contains(strings.Join(v.Trusted, "|"), "(no contraction column)") || statusOf(v, "trajectory: measured contraction ≤ c") != dp.NA {
		t.Errorf("minimal trajectory: %v trusted %v", v.Verdict, v.Trusted)
	}
}

// FuzzVerifyTrace: whatever trajectory ReadTrace accepts, Verify does not
// panic, a failed check is never VALID, and VALID via amplification means
// every check passed or did not apply.
func FuzzVerifyTrace(f *testing.F) {
	f.Add([]byte("step,loss,grad_norm,step_size,contraction,dist_to_opt\n500,0.5,0.9,0.5,0.4,0.3\n1000,0.4,0.95,0.5,0.5,0.2\n"))
	f.Add([]byte("step,grad_norm,step_size\n1000,0,0.5\n"))
	f.Add([]byte("step,grad_norm,step_size,contraction\n999,0.1,0.5,NaN\n1000,0.1,0.5,1e308\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadTrace(bytes.NewReader(data))
		if err != nil {
			return
		}
		cl := parseClaimString(t, strings.Replace(baseClaim, `"epsilon": 3`, `"epsilon": 100, "radius": 2`, 1))
		v, err := Verify(cl, tr)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, v)
		if v.Verdict == dp.Valid && v.Via == "amplification by iteration" {
			for _, ch := range v.Checks {
				if ch.Status != dp.Pass && ch.Status != dp.NA && ch.Status != dp.Assumed {
					t.Fatalf("VALID with check %+v", ch)
				}
			}
		}
	})
}

// testConfig builds a run configuration the way the tests above spell it.
func testConfig(v shifted.Variant, sigma, eta float64, epochs, batch int, R float64) Config {
	return Config{Training: shifted.Training{Variant: v, Sigma: sigma, Epochs: int64(epochs), Batch: int64(batch),
		Loss: shifted.Loss{Eta: eta}}, R: R}
}

// TestVerificationJSON: the verdict encodes as its name, the keys are the
// snake_case names privamp uses everywhere, and a number that was not
// computed (NaN) or is infinite encodes as null, not as an encoding error.
func TestVerificationJSON(t *testing.T) {
	c := parseClaimString(t, strings.Replace(baseClaim, `"eta": 0.5`, `"eta": 3`, 1)) // η > 2/β: unmet
	v, err := Verify(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"verdict", "via", "training", "worst_epsilon", "worst_index", "composition_epsilon", "sigma_needed",
		"checks", "cross_checked", "trusted", "per_index", "source", "assumptions", "notes"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no key %q in %s", k, b)
		}
	}
	if m["verdict"] != "UNSUPPORTED" || m["via"] != ViaComposition || m["worst_epsilon"] != nil || m["sigma_needed"] != nil ||
		m["training"].(map[string]any)["loss"].(map[string]any)["eta"] != 3.0 {
		t.Errorf("%s", b)
	}
	ch := m["checks"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "status", "basis", "value", "bound", "detail"} {
		if _, ok := ch[k]; !ok {
			t.Errorf("check lacks %q: %v", k, ch)
		}
	}
}

// TestLoad: the trajectory named in a claim is read relative to the claim
// file; an override replaces it; errors name the file they are about.
func TestLoad(t *testing.T) {
	c, trace, tpath, err := Load("../examples/claim.json", "")
	if err != nil || c.N != 569 || trace.(*TraceSummary).Len() != 569 || tpath != "../examples/trajectory.csv" {
		t.Fatalf("%v %v %q", err, trace, tpath)
	}
	dir := t.TempDir()
	bad := dir + "/t.csv"
	os.WriteFile(bad, []byte("step,grad_norm,step_size\n1,x,1\n"), 0o644)
	if _, _, _, err := Load("../examples/claim.json", bad); err == nil || !strings.Contains(err.Error(), bad+": line 2") {
		t.Errorf("override: %v", err)
	}
	if _, _, _, err := Load(dir+"/none.json", ""); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("missing claim: %v", err)
	}
}
