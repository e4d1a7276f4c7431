package shifted

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// epsFromLogRho converts ρ-zCDP given as ln ρ to (ε, δ)-DP and returns ε and
// the order α. Where ρ underflows a float64 (ln ρ < −700) it uses bounds that
// stay valid: for the improved conversion ε = 0 holds as soon as ρ < δ² (at
// α = 1/δ the bound is ρ/δ + ln(1 − δ) < 0), and otherwise, as for the
// classic conversion, ε ≤ ρ + 2√(ρ ln(1/δ)) (Bun–Steinke 2016, Prop. 1.3),
// rounded up to the smallest positive float64 if it underflows.
func epsFromLogRho(logRho, delta float64, conv rdp.Conversion) (eps, order float64) {
	if math.IsInf(logRho, -1) {
		return 0, math.Inf(1)
	}
	L := numeric.NegLogUp(delta)
	if logRho > -700 {
		e, x := rdp.LinearEpsilonWarm(numeric.ExpUp(logRho), L, conv, 0)
		return e, 1 + x
	}
	if conv == rdp.Improved && logRho < 2*numeric.Log(delta)-1e-9 {
		return 0, 1 / delta
	}
	order = 1 + math.Exp(0.5*(math.Log(L)-logRho))
	eps = numeric.ExpUp(0.5*logRho + math.Ln2 + 0.5*math.Log(L) + 1e-12)
	if eps == 0 {
		eps = math.SmallestNonzeroFloat64
	}
	return eps, order
}
