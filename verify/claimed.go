package verify

// Claimed returns the guarantee the claim states, (ε, δ): its epsilon, or,
// for a claim made index by index, the largest per-index ε (the weakest
// statement it makes). An empirical lower bound on ε at δ above it proves
// the claim false for at least one record (package audit).
// ParseClaim guarantees that one of the two is present.
func (c *Claim) Claimed() (epsilon, delta float64) {
	if c.Epsilon != nil {
		return *c.Epsilon, c.Delta
	}
	for _, p := range c.PerIndex {
		epsilon = max(epsilon, p.Epsilon)
	}
	return epsilon, c.Delta
}
