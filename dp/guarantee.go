package dp

import (
	"fmt"
	"strings"
)

// Guarantee is privamp's one model of an upper-bound privacy statement: the
// algorithm is (Epsilon, Delta)-DP (ε an upper bound on its ε at δ), by the
// accountant or theorem named in Source, under Assumptions. Every result
// that states such a guarantee embeds it, so that its JSON keys ("epsilon",
// "delta", "source", "assumptions", "accountant") are flat and mean the same
// thing everywhere. The neighbouring relation is not a field: it is the
// accountant's argument (Accountant.Epsilon), named in Assumptions, and the
// results that print it carry their own dp.Relation ("neighbours").
// A lower bound on ε refutes rather than guarantees: see LowerBound.
type Guarantee struct {
	Epsilon Loss `json:"epsilon"`
	Delta   Loss `json:"delta"`
	// Accountant names the accountant whose bound this is ("rdp", "pld",
	// "analytic-gaussian"); empty (absent in JSON) for a theorem's bound.
	Accountant  string   `json:"accountant,omitempty"`
	Source      string   `json:"source"`
	Assumptions []string `json:"assumptions,omitempty"`
}

// LowerBound is privamp's one model of an empirical lower bound on ε (an
// audit's refutation, never a guarantee): with probability at least
// Confidence the algorithm is not (ε, Delta)-DP for any ε < EpsilonLower,
// by the test named in Source. EpsilonLower is a Max: printed rounded down,
// so that it is never overstated.
type LowerBound struct {
	Source       string  `json:"source"`
	Confidence   float64 `json:"confidence"`
	Delta        float64 `json:"delta"`
	EpsilonLower Max     `json:"epsilon_lower"`
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
		default:
			s = vocabAssumption(l)
		}
		if s != "" && !seen[s] {
			seen[s], as = true, append(as, s)
		}
		return nil
	})
	return append(as, "every intermediate release may be published; mechanisms may be chosen adaptively (no amplification by iteration is assumed)")
}
