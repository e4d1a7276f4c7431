package query

import (
	"bytes"
	"encoding/json"

	"github.com/privamp/privamp/shifted/plan"
	"github.com/privamp/privamp/verify"
)

func init() { Register("verify", verifyClaim) }

// VerifyResult is the "verify" answer for a claim: privamp verify --json's
// object without the file names (the request is the claim itself), plus
// the exit status the command line would give (0 valid, 1 invalid, 3
// unsupported).
type VerifyResult struct {
	Command string `json:"command"`
	verify.Verification
	ExitStatus int `json:"exit_status"`
}

// PlanVerifyResult is the "verify" answer for a plan (as privamp verify
// PLAN.json --json, without the file name).
type PlanVerifyResult struct {
	Command string `json:"command"`
	*verify.PlanVerification
	ExitStatus int `json:"exit_status"`
}

// verifyClaim reads the request as a claim file (verify.ParseClaim; a
// "trajectory" key is refused: there are no files here) or, when its
// "format" is a plan's, as a plan file (plan.Load), and verifies it.
func verifyClaim(request []byte, _ bool) (*Result, error) {
	var sniff struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(request, &sniff) == nil && sniff.Format == plan.Format {
		p, err := plan.Load(bytes.NewReader(request))
		if err != nil {
			return nil, err
		}
		pv, err := verify.VerifyPlan(p, nil)
		if err != nil {
			return nil, err
		}
		return &Result{Command: "verify", Value: PlanVerifyResult{"verify", pv, pv.Verdict.ExitStatus()}, Assumptions: pv.Verification.Assumptions, Notes: pv.Notes}, nil
	}
	c, err := verify.ParseClaim(bytes.NewReader(request))
	if err != nil {
		return nil, err
	}
	if c.Trajectory != "" {
		return nil, badInput("trajectory", c.Trajectory, "cannot be read here (no files): verify the claim with privamp verify")
	}
	v, err := verify.Verify(c, nil)
	if err != nil {
		return nil, err
	}
	return &Result{Command: "verify", Value: VerifyResult{"verify", v, v.Verdict.ExitStatus()}, Assumptions: v.Assumptions, Notes: v.Notes}, nil
}
