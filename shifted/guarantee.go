package shifted

import (
	"fmt"

	"github.com/privamp/privamp/rdp"
)

// MaxN is the largest number of records (indices) privamp accepts.
const MaxN = int64(1_000_000_000_000)

// PerPerson is a per-person (per-index, FMTT18 Def. 12) privacy guarantee of
// an algorithm that processes records x_1, …, x_n: for neighbouring datasets
// that differ in position t (replace-one), the released output satisfies the
// RDP curve Curve(t).
type PerPerson interface {
	// Len is the number of indices n.
	Len() int64
	// Curve is the RDP curve of index t ∈ [1, Len()].
	Curve(t int64) rdp.Curve
	// Monotone is +1 if ε_t(α) is non-decreasing in t for every α, −1 if
	// non-increasing, 0 if it does not depend on t.
	Monotone() int
	// Check returns a descriptive error when an assumption of the theorem
	// fails or a parameter is out of range.
	Check() error
	// Assumptions lists what the guarantee relies on.
	Assumptions() []string
	// Source cites the theorem (or the derivation in docs/).
	Source() string
}

// ZCDP is a PerPerson whose curves are linear in α: index t is ρ_t-zCDP with
// ρ_t = exp(LogRho(t)), and its (ε, δ) conversion depends on ρ_t alone.
type ZCDP interface {
	PerPerson
	LogRho(t int64) float64
}

func checkIndex(g PerPerson, t int64) error {
	if n := g.Len(); t < 1 || t > n {
		return fmt.Errorf("index %d outside [1, %d]", t, n)
	}
	return nil
}

func checkN(n int64) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("number of records n must be an integer in [1, %d], got %d", MaxN, n)
	}
	return nil
}
