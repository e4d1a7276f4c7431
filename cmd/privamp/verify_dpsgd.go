package main

import (
	"fmt"
	"strings"

	"github.com/privamp/privamp/dp"
)

// claimReport is verifyReport, with a DP-SGD claim's own headline rows.
func claimReport(res verifyResult) *report {
	r, v, d := verifyReport(res), res.Verification, res.DPSGD
	if d == nil {
		return r
	}
	at := fmt.Sprint("δ = ", d.Delta)
	r.Rows = []row{
		{"verdict", v.Verdict.String(), "", "via " + v.Via},
		{"run", d.String(), "", "claim"},
		{"claimed ε", v.ClaimedEpsilon, at, "claim"},
		{"certified ε", v.WorstEpsilon, at, v.Source},
		{"taken on trust", strings.Join(v.Trusted, "; "), "", "nothing the claim brings can contradict them"},
	}
	if v.Verdict == dp.Invalid {
		r.Rows = append(r.Rows, row{"noise multiplier that makes the claim true", v.NoiseMultiplierNeeded, "", v.Via + ", calibrated and verified"})
	}
	return r
}
