package dp

// Accountant turns an event into a guarantee. Every implementation is
// sound: its ε(δ) is at least the event's true ε at δ under the relation,
// and its δ(ε) at least the true δ. privamp's accountants are the RDP
// accountant (rdp.Accountant), the PLD accountant (pld.Accountant) and the
// tightest of both (composition.Tightest).
type Accountant interface {
	// Name is how the accountant is chosen and printed ("rdp", "pld", "best").
	Name() string
	// Supports is nil if the accountant bounds e under r, or says why not.
	Supports(e Event, r Relation) error
	// Epsilon is a sound ε at delta ∈ (0, 1).
	Epsilon(e Event, r Relation, delta float64) (Guarantee, error)
	// Delta is a sound δ at epsilon ≥ 0.
	Delta(e Event, r Relation, epsilon float64) (Guarantee, error)
}
