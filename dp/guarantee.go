package dp

import (
	"fmt"
	"strings"
)

// Guarantee is an (ε, δ)-DP statement about one event under one
// neighbouring relation: sound (ε is an upper bound on the event's ε at δ),
// with the accountant that proved it, its source and the assumptions it
// rests on.
type Guarantee struct {
	Epsilon  Loss     `json:"epsilon"`
	Delta    Loss     `json:"delta"`
	Relation Relation `json:"neighbours"`
	// Accountant names the accountant whose bound this is ("rdp", "pld",
	// "analytic-gaussian").
	Accountant  string   `json:"accountant"`
	Source      string   `json:"source"`
	Assumptions []string `json:"assumptions,omitempty"`
}

// Assumptions are what a guarantee about e under r assumes of the
// algorithm that ran: the neighbouring relation, each mechanism's
// sensitivity, how each sample is drawn, and adaptive composition.
func Assumptions(e Event, r Relation) []string {
	as := []string{"neighbouring data sets: " + r.String(),
		"each mechanism's input is a sum of records' contributions of norm at most 1 (Gaussian: ℓ2, Laplace: ℓ1), so the sensitivity is " +
			strings.TrimSuffix(fmt.Sprint(r.Sensitivity()), ".0") + "; its noise multiplier is relative to that norm bound"}
	seen := map[string]bool{}
	_ = Leaves(e, func(l Event, _ float64) error {
		s := ""
		switch l.(type) {
		case PoissonSampled:
			s = "Poisson sampling: each record enters each sample independently with the sampling probability; shuffled batches are not covered"
		case SampledWithoutReplacement:
			s = "each sample is drawn uniformly without replacement, independently at each run (not a shuffle cut into consecutive batches)"
		case RandomAllocation:
			s = "balls-in-bins: in each epoch every record is placed in one of the epoch's steps uniformly at random, independently of the other records and of earlier epochs (not a shuffle cut into fixed-size batches)"
		}
		if s != "" && !seen[s] {
			seen[s], as = true, append(as, s)
		}
		return nil
	})
	return append(as, "every intermediate release may be published; mechanisms may be chosen adaptively (no amplification by iteration is assumed)")
}
