package events

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/privamp/privamp/answer"
)

// Report lays out the accounting of the events read from path: the
// headline ε with each accountant's beside it, and one table row per
// phase (what it is and which accountant took it).
func (res Result) Report(path string) *answer.Report {
	r := &answer.Report{Title: fmt.Sprintf("Events of %s: %s runs, %s neighbours", path, res.Steps, res.Neighbours), Command: "compose", Result: res,
		Assumptions: res.Assumptions, Notes: slices.DeleteFunc([]string{res.PLDNote, res.RDPNote}, func(s string) bool { return s == "" }),
		Table: &answer.Table{Header: []string{"path", "mechanism", "sampling", "q", "noise", "count", "pld", "rdp"}}}
	r.Add("ε", res.Epsilon, "at δ = "+res.Delta.String(), "accountant: "+res.Accountant)
	if res.PLDEpsilon != nil {
		r.AddPLD(1, *res.PLDEpsilon, res.EpsilonOptimistic, res.PLDSource, "")
	}
	if res.RDPEpsilon != nil {
		r.Add("ε by RDP", *res.RDPEpsilon, "α = "+res.RDPOrder.String(), res.RDPSource)
	}
	for _, p := range res.Phases {
		r.Table.Rows = append(r.Table.Rows, []string{p.Path, p.Mechanism, p.Sampling.String(), p.SamplingProbability.String(), p.Noise(), p.Count.String(), strconv.FormatBool(p.PLD), strconv.FormatBool(p.RDP)})
	}
	return res.Profile.AddTo(r)
}
