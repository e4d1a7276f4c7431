package main

import (
	"math"
	"testing"
)

// Issue 10: at q = 1 dpsgd is the plain Gaussian mechanism and prints its
// exact ε (4.377 at z = 1, one step, δ = 1e-5) with RDP's 4.728 beside it;
// the old code printed 4.728. And the total-variation branch of the RDP
// conversion: the configuration gives ε = 0 (the old code 9.6e-3).
func TestDPSGDExactAndTotalVariation(t *testing.T) {
	obj := jsonOf(t, "dpsgd", "--sampling-rate", "1", "--steps", "1", "--noise", "1", "--delta", "1e-5")
	if e := obj["epsilon"].(float64); math.Abs(e-4.377) > 5e-4 || obj["method"] != "analytic-gaussian" {
		t.Errorf("q = 1: ε = %v (%v), want the exact 4.377", e, obj["method"])
	}
	if e := obj["rdp_epsilon"].(float64); math.Abs(e-4.728) > 5e-4 {
		t.Errorf("q = 1: RDP beside = %v, want 4.728", e)
	}
	tv := jsonOf(t, "dpsgd", "--n", "10000000", "--batch", "2736", "--steps", "2", "--noise", "3.684200246134407", "--delta", "0.0001984887157074372")
	if e := tv["epsilon"].(float64); e != 0 {
		t.Errorf("issue 10 configuration: ε = %v, want 0", e)
	}
}
