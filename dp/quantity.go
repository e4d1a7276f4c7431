package dp

import (
	"math"
	"strconv"

	"github.com/privamp/privamp/internal/quantity"
)

// The rounding kinds give each printed number its kind, and the kind
// decides how it is rounded for a person to read: a privacy loss (ε, δ, ρ)
// or a noise level a user will set is rounded up, a largest admissible
// value (ρ*, a per-step budget, an audit's lower bound) is rounded down,
// anything else to nearest. Values reach them already sound: every library
// computation covers its own floating-point error; rounding here only makes
// sure the printed digits never cross the value in the unsafe direction.
//
// Each kind prints with String (6 significant digits) and encodes to JSON
// as the full float64 (non-finite values as null: a JSON reader checks the
// accompanying text, e.g. "no finite guarantee").

// Loss is a privacy loss (ε, δ, ρ, a divergence): printed rounded up; +Inf
// is "no finite guarantee".
type Loss float64

// Max is a largest admissible value (ρ*, a budget a user must not exceed, a
// lower bound that must not be overstated): printed rounded down.
type Max float64

// Noise is a noise level or scale a user will set (σ, a noise multiplier, a
// Laplace scale): printed rounded up, so that the printed value is at least
// as private as the computed one.
type Noise float64

// Num is any other number: printed to nearest.
type Num float64

// NoFinite is how an infinite privacy loss is printed.
const NoFinite = quantity.NoFinite

func (x Loss) String() string {
	if math.IsInf(float64(x), 1) || math.IsNaN(float64(x)) {
		return NoFinite
	}
	return quantity.Up(float64(x))
}

// OrNone prints x, or "none" where x is NaN (a bound that does not exist,
// such as a variant's missing utility bound).
func (x Loss) OrNone() string {
	if math.IsNaN(float64(x)) {
		return "none"
	}
	return x.String()
}

func (x Max) String() string   { return quantity.Down(float64(x)) }
func (x Noise) String() string { return quantity.Up(float64(x)) }
func (x Num) String() string   { return quantity.Nearest(float64(x)) }

// MarshalJSON encodes the full value, or null when it is not finite.
func (x Loss) MarshalJSON() ([]byte, error)  { return jsonFloat(float64(x)), nil }
func (x Max) MarshalJSON() ([]byte, error)   { return jsonFloat(float64(x)), nil }
func (x Noise) MarshalJSON() ([]byte, error) { return jsonFloat(float64(x)), nil }
func (x Num) MarshalJSON() ([]byte, error)   { return jsonFloat(float64(x)), nil }

func jsonFloat(x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null")
	}
	return strconv.AppendFloat(nil, x, 'g', -1, 64)
}
