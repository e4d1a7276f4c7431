package main

import (
	"strings"
	"testing"
)

// TestVerifyDPSGDExample: examples/dpsgd-claim.json (TF-Privacy's MNIST
// run, claimed ε = 2.6; the PLD certifies 2.382, RDP 2.597) is VALID, exit 0.
func TestVerifyDPSGDExample(t *testing.T) {
	if out, stderr, code := runCLI("verify", "../../examples/dpsgd-claim.json"); code != 0 || !strings.Contains(out, "VALID") || !strings.Contains(out, "14063 steps") {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	m, code, stderr := runJSON(t, "verify", "../../examples/dpsgd-claim.json")
	if code != 0 || m["command"] != "verify" || m["verdict"] != "VALID" || !strings.Contains(m["via"].(string), "tightest") || m["worst_epsilon"].(float64) > 2.6 {
		t.Fatalf("exit %d %v %s", code, m, stderr)
	}
}

// TestVerifyDPSGDExitStatuses: INVALID exits 1 with the noise multiplier
// needed, a shuffle claim below its lower bound 1 too (with the bound), a
// shuffle without n 3, conflicting keys 2 naming both.
func TestVerifyDPSGDExitStatuses(t *testing.T) {
	dir := t.TempDir()
	const run = `{"algorithm": "dpsgd", "sampling": "poisson", "n": 60000, "batch_size": 256, "noise_multiplier": 1.1, "delta": 1e-5, `
	// the verdicts' exit statuses on a fast run: TestVerifyRunVerdicts
	if p := writeClaim(t, dir, run+`"epochs": 60, "steps": 14063, "epsilon": 2.6}`); true {
		if _, stderr, code := runCLI("verify", p); code != 2 || !strings.Contains(stderr, "steps") || !strings.Contains(stderr, "epochs") {
			t.Errorf("conflict: exit %d %s", code, stderr)
		}
	}
	if testing.Short() {
		return
	}
	p := writeClaim(t, dir, run+`"epochs": 60, "epsilon": 2.3}`)
	if out, stderr, code := runCLI("verify", p); code != 1 || !strings.Contains(out, "noise multiplier that makes the claim true") {
		t.Errorf("INVALID: exit %d\n%s%s", code, out, stderr)
	}
	p = writeClaim(t, dir, strings.Replace(run, `"poisson"`, `"shuffle"`, 1)+`"epochs": 60, "epsilon": 2.6}`)
	if out, stderr, code := runCLI("verify", p); code != 1 || !strings.Contains(out, "lower bound") || !strings.Contains(out, "Chua") {
		t.Errorf("shuffle: exit %d\n%s%s", code, out, stderr)
	}
	p = writeClaim(t, dir, `{"algorithm": "dpsgd", "sampling": "shuffle", "sample_rate": 0.01, "steps": 100, "noise_multiplier": 1.1, "delta": 1e-5, "epsilon": 2.6}`)
	if out, stderr, code := runCLI("verify", p); code != 3 || !strings.Contains(out, "not a proof") {
		t.Errorf("shuffle without n: exit %d\n%s%s", code, out, stderr)
	}
}
