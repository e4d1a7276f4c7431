package verify

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

// TestIssue22NoiseColumn (issue 22, hole 4a): a claim's σ is tested against
// the noise the run drew (noise_sq, noise_dof: Σ‖Z‖²/σ² ~ χ²(K)); a σ off
// by a factor 2 either way FAILs (UNSUPPORTED), the run's own σ passes, and
// a trajectory without the columns leaves σ ASSUMED, never PASS. On main
// before the fix the σ = 4 claim on a σ = 2 trajectory was VALID.
func TestIssue22NoiseColumn(t *testing.T) {
	cfg := testConfig(Final, 2, 4, 1, 1, 1)
	data, cons := genuineTrace(t, "logistic", 0, cfg, 300, 3)
	if !bytes.Contains(data, []byte("noise_sq")) {
		t.Fatalf("the trajectory has no noise column:\n%s", data[:100])
	}
	const name = "trajectory: noise drawn matches σ"
	for _, sigma := range []float64{4, 1} {
		c := cfg
		c.Sigma = sigma
		v := verifyCSV(t, claimFor(c, 300, cons.L, cons.Beta, 0, 1e6), data)
		if v.Verdict != dp.Unsupported || statusOf(v, name) != dp.Fail {
			t.Errorf("σ = %v claimed for a σ = 2 run: %v, %q %q", sigma, v.Verdict, name, statusOf(v, name))
		}
	}
	v := verifyCSV(t, claimFor(cfg, 300, cons.L, cons.Beta, 0, 1e6), data)
	if v.Verdict != dp.Valid || statusOf(v, name) != dp.Pass || !strings.Contains(strings.Join(v.CrossChecked, "|"), "σ = 2") {
		t.Errorf("the run's own σ: %v %q, checked %v", v.Verdict, statusOf(v, name), v.CrossChecked)
	}
	for _, ch := range v.Checks {
		if ch.Name == name && !strings.Contains(ch.Detail, "false-alarm probability 1e-06") {
			t.Errorf("the false-alarm probability is not stated: %s", ch.Detail)
		}
	}
	// an old trajectory: σ cannot be checked, so it is ASSUMED, not PASS
	c := cfg
	c.Sigma = 4
	v = verifyCSV(t, claimFor(c, 300, cons.L, cons.Beta, 0, 1e6), dropNoise(t, data))
	if v.Verdict != dp.Valid || statusOf(v, name) != dp.Assumed || !strings.Contains(strings.Join(v.Trusted, "|"), "σ = 4") {
		t.Errorf("no noise columns: %v %q, trusted %v", v.Verdict, statusOf(v, name), v.Trusted)
	}
	// no trajectory at all: the same
	cl := parseClaimString(t, claimFor(c, 300, cons.L, cons.Beta, 0, 1e6))
	if v, _ := Verify(cl, nil); statusOf(v, name) != dp.Assumed {
		t.Errorf("no trajectory: %q", statusOf(v, name))
	}
	// noise columns that cannot be evidence
	for _, bad := range [][]byte{
		csvEdit(t, data, "noise_dof", 5, "7"),    // dimension 7 on one row, 3 elsewhere
		csvEdit(t, data, "noise_sq", 5, "-1"),    // negative
		csvEdit(t, data, "noise_sq", 5, ""),      // blanked on one row
		csvEdit(t, data, "noise_dof", -1, "2.5"), // not whole
	} {
		if v := verifyCSV(t, claimFor(cfg, 300, cons.L, cons.Beta, 0, 1e6), bad); v.Verdict != dp.Unsupported || statusOf(v, "trajectory: usable as evidence") != dp.Fail {
			t.Errorf("bad noise columns: %v %v", v.Verdict, v.Failed())
		}
	}
}

// TestIssue22NoiseFalseAlarm: genuine runs at their own σ pass the χ² test
// over many seeds (the test's false-alarm probability is 1e-6).
func TestIssue22NoiseFalseAlarm(t *testing.T) {
	for _, sigma := range []float64{0.3, 1, 5} {
		cfg := testConfig(Final, sigma, 1, 2, 4, 2)
		data, cons := genuineTrace(t, "linear", 0.1, cfg, 200, 5)
		v := verifyCSV(t, claimFor(cfg, 200, cons.L, cons.Beta, cons.M, 1e6), data)
		if st := statusOf(v, "trajectory: noise drawn matches σ"); st != dp.Pass {
			t.Errorf("σ = %v: %q %v", sigma, st, v.Failed())
		}
	}
}

// TestIssue22PublicSteps (hole 4b): "public" records follow the n private
// ones (as in shifted.Training, plan files and pnsgd), so a claim's run has
// epochs·⌈(n + public)/batch⌉ steps. examples/claim.json with "public": 200
// implies 769 steps beside a 569-step trajectory: FAIL (it was VALID). The
// same run declared as 369 private + 200 public is consistent.
func TestIssue22PublicSteps(t *testing.T) {
	claim, trace := exampleClaim(t)
	const steps = "trajectory: number of steps"
	v := verifyCSV(t, strings.Replace(claim, `"epochs": 1,`, `"epochs": 1, "public": 200,`, 1), trace)
	if v.Verdict != dp.Unsupported || statusOf(v, steps) != dp.Fail || !strings.Contains(strings.Join(v.Failed(), "|"), "769") {
		t.Errorf("public 200 beside 569 steps: %v %v", v.Verdict, v.Failed())
	}
	c := strings.Replace(claim, `"n": 569,`, `"n": 369, "public": 200,`, 1)
	c = strings.Replace(c, `{"index": 285, "epsilon": 0.08}`, `{"index": 285, "epsilon": 0.5}`, 1)
	v = verifyCSV(t, c, trace)
	if statusOf(v, steps) != dp.Pass || v.Training.N != 369 || v.Training.Public != 200 {
		t.Errorf("369 private + 200 public: %q, training %+v, %v", statusOf(v, steps), v.Training, v.Failed())
	}
	// an index among the public examples is refused by name
	if _, err := ParseClaim(strings.NewReader(strings.Replace(c, `"index": 285`, `"index": 400`, 1))); err == nil || !strings.Contains(err.Error(), "public") {
		t.Errorf("a public index: %v", err)
	}
}

// exampleClaim returns examples/claim.json and examples/trajectory.csv.
func exampleClaim(t *testing.T) (string, []byte) {
	t.Helper()
	claim, err := os.ReadFile("../examples/claim.json")
	if err != nil {
		t.Fatal(err)
	}
	trace, err := os.ReadFile("../examples/trajectory.csv")
	if err != nil {
		t.Fatal(err)
	}
	return string(claim), trace
}

// TestIssue22Delta (hole 4c): δ ≥ 1/n protects nobody. A claim, a DP-SGD
// claim and a seed-001 claim with such a δ FAIL the check "δ < 1/n" and are
// UNSUPPORTED (they were VALID with no remark); below 1/n it PASSes; a
// DP-SGD claim without n cannot be compared (N/A).
func TestIssue22Delta(t *testing.T) {
	claim, trace := exampleClaim(t)
	v := verifyCSV(t, strings.Replace(claim, `"delta": 1e-5`, `"delta": 0.1`, 1), trace)
	if v.Verdict != dp.Unsupported || v.Via != ViaDelta || statusOf(v, DeltaCheckName) != dp.Fail || !strings.Contains(strings.Join(v.Notes, "|"), "protects nobody") {
		t.Errorf("claim δ = 0.1, n = 569: %v via %s, %q", v.Verdict, v.Via, statusOf(v, DeltaCheckName))
	}
	if v := verifyCSV(t, claim, trace); v.Verdict != dp.Valid || statusOf(v, DeltaCheckName) != dp.Pass {
		t.Errorf("claim δ = 1e-5: %v %q", v.Verdict, statusOf(v, DeltaCheckName))
	}
	for _, c := range []struct {
		doc     string
		want    dp.Status
		verdict dp.Verdict
	}{
		{strings.Replace(mnistClaim, `"delta": 1e-5`, `"delta": 0.1`, 1), dp.Fail, dp.Unsupported},
		{strings.Replace(mnistClaim, `"delta": 1e-5`, `"delta": 1.6667e-5`, 1), dp.Fail, dp.Unsupported}, // just above 1/60000
		{mnistClaim, dp.Pass, dp.Valid},
		{`{"algorithm": "dpsgd", "sampling": "poisson", "sample_rate": 0.004266666666666667, "noise_multiplier": 1.1, "steps": 14063, "delta": 0.1, "epsilon": 2.6}`, dp.NA, dp.Valid},
		{`{"algorithm": "bst14-sgd", "n": 569, "sigma": 3450.15, "lipschitz": 0.731059, "delta": 0.01, "epsilon": 1}`, dp.Fail, dp.Unsupported},
	} {
		cl, err := ParseClaim(strings.NewReader(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		v, err := Verify(cl, nil)
		if err != nil {
			t.Fatal(err)
		}
		if statusOf(v, DeltaCheckName) != c.want || v.Verdict != c.verdict {
			t.Errorf("%s: %q %v, want %q %v", c.doc, statusOf(v, DeltaCheckName), v.Verdict, c.want, c.verdict)
		}
	}
}

// TestIssue22NoTrustedPass (hole 4d): a value taken on trust is ASSUMED,
// never PASS: "Poisson sampling" and fixed-size sampling of DP-SGD claims
// (PASS before), the one-pass shuffle of a claim (PASS before), σ without
// the noise columns.
func TestIssue22NoTrustedPass(t *testing.T) {
	docs := []string{mnistClaim,
		`{"algorithm": "dpsgd", "sampling": "fixed-size", "n": 60000, "batch_size": 256, "noise_multiplier": 1.1, "epochs": 60, "neighbours": "replace-one", "delta": 1e-5, "epsilon": 18.6}`,
		strings.Replace(baseClaim, "{", `{"order": "shuffled", `, 1),
	}
	names := []string{"Poisson sampling", "sampling without replacement, replace-one", "fixed data order"}
	for i, doc := range docs {
		cl, err := ParseClaim(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		v, err := Verify(cl, nil)
		if err != nil {
			t.Fatal(err)
		}
		if statusOf(v, names[i]) != dp.Assumed {
			t.Errorf("%s: %q is %q", doc, names[i], statusOf(v, names[i]))
		}
		for _, ch := range v.Checks {
			if ch.Basis == BasisTrust && ch.Status == dp.Pass {
				t.Errorf("%s: %q is taken on trust but PASS", doc, ch.Name)
			}
		}
	}
}

// mnistClaim is examples/dpsgd-claim.json (TF-Privacy's MNIST tutorial).
const mnistClaim = `{"algorithm": "dpsgd", "sampling": "poisson", "n": 60000, "batch_size": 256, "noise_multiplier": 1.1,
  "epochs": 60, "delta": 1e-5, "epsilon": 2.6}`
