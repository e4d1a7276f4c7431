package tables

import (
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/zcdp"

	"fmt"
	"math"
)

// Params are the numbers a table is instantiated at. Zero means "not given"
// for the optional fields; Resolve fills them with documented defaults and
// records each default it used.
type Params struct {
	// Each field's doc tag is its one-line description (the CLI's flag help).
	N       float64 `json:"n" doc:"dataset size n (whole number ≥ 1); giving it evaluates the table"` // dataset size n: an integer ≥ 1
	D       float64 `json:"dimension" doc:"dimension d (p in seeds 000 and 001), whole number ≥ 1"`   // dimension (d in seeds 002 and 004, p in seeds 000 and 001): an integer ≥ 1
	Epsilon float64 `json:"epsilon" doc:"ε > 0"`                                                      // ε > 0
	Delta   float64 `json:"delta" doc:"δ in (0, 1)"`                                                  // δ ∈ (0, 1); 0 when the table has no (ε, δ) cell

	Lipschitz float64 `json:"lipschitz" doc:"Lipschitz constant L > 0 (default 1)"`                                       // L > 0 (default 1)
	Radius    float64 `json:"radius" doc:"radius R > 0 of a ball containing the constraint set (default 1; diameter 2R)"` // R > 0: the constraint set lies in a ball of radius R (default 1)
	// Diameter of the constraint set (‖C‖₂ in seeds 000 and 001, D in seed
	// 004). If zero it is taken as 2R, an upper bound. If given and Radius is
	// zero, Radius is taken as Diameter·√(d/(2(d+1))) (Jung's theorem), also
	// an upper bound, so explicit bounds stay valid.
	Diameter float64 `json:"diameter" doc:"diameter ‖C‖₂ > 0 of the constraint set (default 2R)"`

	StrongConvexity float64 `json:"strong_convexity" doc:"strong convexity m / Δ / μ > 0 (default 1)"` // m (seed 000), Δ (seed 001), μ (seed 004) > 0 (default 1)
	Smoothness      float64 `json:"smoothness" doc:"smoothness M / β > 0 (default 1)"`                 // M (seed 000), β (seeds 002, 004) > 0 (default 1)
	Psi             float64 `json:"psi" doc:"Rashomon threshold ψ ≥ 0 (seed 000; default 0)"`          // Rashomon threshold ψ ≥ 0 (seed 000; default 0)
	Tasks           float64 `json:"tasks" doc:"number of tasks, 1 ≤ tasks ≤ n (seed 002; default 1)"`  // number of tasks k, 1 ≤ k ≤ n (seed 002; default 1)
	DX              float64 `json:"dx" doc:"simplex dimension dx ≥ 2 (seed 003; default d)"`           // simplex dimensions (seed 003; default d), integers ≥ 2
	DY              float64 `json:"dy" doc:"simplex dimension dy ≥ 2 (seed 003; default d)"`

	MomentOrder   float64 `json:"moment_order" doc:"moment order k ≥ 2 (seed 004; default 2)"`                              // k ≥ 2 of seed 004's moment assumption (default 2)
	MomentBound   float64 `json:"moment_bound" doc:"k-th moment bound r_k > 0 (seed 004; default L)"`                       // r_k (seed 004; default L, since r_k ≤ L_f)
	SecondMoment  float64 `json:"second_moment" doc:"second moment bound r_2 ≤ r_k (seed 004; default r_k)"`                // r_2 (seed 004; default r_k, since r_2 ≤ r_k)
	MomentBound2k float64 `json:"moment_bound_2k" doc:"empirical 2k-th moment bound r̃_{2k,n} ≥ r_k (seed 004; default L)"` // r̃_{2k,n} of seed 004's non-smooth bounds (default L)
	Rho           float64 `json:"rho" doc:"ρ of ρ-zCDP > 0 (seed 004; default ρ*(ε, δ))"`                                   // ρ of ρ-zCDP (seed 004; default ρ*(ε, δ) of BS16 Prop. 1.3)
	defaultsUsed  []string
	diameterGiven bool
	radiusGiven   bool
	resolved      bool
}

// Defaults returns the defaults Resolve filled in, as "name = value (why)".
func (p Params) Defaults() []string { return append([]string(nil), p.defaultsUsed...) }

// Resolve checks the common parameters and fills the optional ones with
// their defaults. It returns an error naming the first parameter outside
// its range. needDelta says whether δ is required.
func (p Params) Resolve(needDelta bool) (Params, error) { return p.resolve(needDelta, true) }

func (p Params) resolve(needDelta, needEpsilon bool) (Params, error) {
	if p.resolved {
		return p, nil
	}
	if err := integerAtLeast("n", p.N, 1); err != nil {
		return p, err
	}
	if err := integerAtLeast("dimension", p.D, 1); err != nil {
		return p, err
	}
	if p.Epsilon == 0 && p.Rho > 0 && !needEpsilon {
		// ε unused: the table takes ρ directly.
	} else if !(p.Epsilon > 0) || math.IsInf(p.Epsilon, 0) {
		return p, rangeErr("epsilon", "must be a finite number > 0, got %v", p.Epsilon)
	}
	if needDelta || p.Delta != 0 {
		if !(p.Delta > 0 && p.Delta < 1) {
			return p, rangeErr("delta", "must be in (0, 1), got %v", p.Delta)
		}
	}
	def := func(field *float64, name string, v float64, why string) error {
		if *field == 0 {
			*field = v
			p.defaultsUsed = append(p.defaultsUsed, fmt.Sprintf("%s = %.6g (%s)", name, v, why))
			return nil
		}
		if !(*field > 0) || math.IsInf(*field, 0) {
			return rangeErr(name, "must be a finite number > 0, got %v", *field)
		}
		return nil
	}
	if err := def(&p.Lipschitz, "lipschitz", 1, "default: normalised units"); err != nil {
		return p, err
	}
	p.radiusGiven, p.diameterGiven = p.Radius != 0, p.Diameter != 0
	if p.radiusGiven {
		if err := def(&p.Radius, "radius", 0, ""); err != nil {
			return p, err
		}
	}
	if p.diameterGiven {
		if err := def(&p.Diameter, "diameter", 0, ""); err != nil {
			return p, err
		}
	}
	switch {
	case p.radiusGiven && p.diameterGiven:
		if p.Diameter > 2*p.Radius*(1+1e-12) {
			return p, rangeErr("diameter", "must be ≤ 2·radius = %v (a set in a ball of radius R has diameter ≤ 2R), got %v", 2*p.Radius, p.Diameter)
		}
	case p.radiusGiven:
		p.Diameter = 2 * p.Radius
		p.defaultsUsed = append(p.defaultsUsed, fmt.Sprintf("diameter = %.6g (2·radius, an upper bound)", p.Diameter))
	case p.diameterGiven:
		p.Radius = p.Diameter * math.Sqrt(p.D/(2*(p.D+1)))
		p.defaultsUsed = append(p.defaultsUsed, fmt.Sprintf("radius = %.6g (Jung's theorem: diameter·√(d/(2(d+1))))", p.Radius))
	default:
		p.Radius, p.Diameter = 1, 2
		p.defaultsUsed = append(p.defaultsUsed, "radius = 1, diameter = 2 (default)")
	}
	if err := def(&p.StrongConvexity, "strong_convexity", 1, "default"); err != nil {
		return p, err
	}
	if err := def(&p.Smoothness, "smoothness", 1, "default"); err != nil {
		return p, err
	}
	if !(p.Psi >= 0) || math.IsInf(p.Psi, 0) {
		return p, rangeErr("psi", "must be a finite number ≥ 0, got %v", p.Psi)
	}
	if p.Tasks == 0 {
		p.Tasks = 1
		p.defaultsUsed = append(p.defaultsUsed, "tasks = 1 (default)")
	} else if err := integerAtLeast("tasks", p.Tasks, 1); err != nil {
		return p, err
	}
	for _, f := range []struct {
		v    *float64
		name string
	}{{&p.DX, "dx"}, {&p.DY, "dy"}} {
		if *f.v == 0 {
			*f.v = p.D
			p.defaultsUsed = append(p.defaultsUsed, fmt.Sprintf("%s = d = %.6g (default)", f.name, p.D))
		} else if err := integerAtLeast(f.name, *f.v, 1); err != nil {
			return p, err
		}
	}
	if p.MomentOrder == 0 {
		p.MomentOrder = 2
		p.defaultsUsed = append(p.defaultsUsed, "moment_order k = 2 (default: the weakest moment assumption)")
	} else if !(p.MomentOrder >= 2) || math.IsInf(p.MomentOrder, 0) {
		return p, rangeErr("moment_order", "must be a finite number ≥ 2, got %v", p.MomentOrder)
	}
	if err := def(&p.MomentBound, "moment_bound", p.Lipschitz, "r_k ≤ L_f: defaults to the Lipschitz constant"); err != nil {
		return p, err
	}
	if err := def(&p.SecondMoment, "second_moment", p.MomentBound, "r_2 ≤ r_k: defaults to r_k"); err != nil {
		return p, err
	}
	if err := def(&p.MomentBound2k, "moment_bound_2k", p.Lipschitz, "r̃_{2k,n} ≤ L_f: defaults to the Lipschitz constant"); err != nil {
		return p, err
	}
	if p.Rho == 0 && p.Delta > 0 && p.Epsilon > 0 {
		p.Rho = rhoFor(p.Epsilon, p.Delta, zcdp.BunSteinke)
		p.defaultsUsed = append(p.defaultsUsed, fmt.Sprintf("rho = %.6g (ρ*(ε, δ): every ρ-zCDP algorithm is then (ε, δ)-DP, BS16 Prop. 1.3)", p.Rho))
	} else if p.Rho != 0 && (!(p.Rho > 0) || math.IsInf(p.Rho, 0)) {
		return p, rangeErr("rho", "must be a finite number > 0, got %v", p.Rho)
	}
	p.resolved = true
	return p, nil
}

func rangeErr(param, format string, args ...any) error {
	return field.New(param, nil, format, args...)
}

func integerAtLeast(name string, v, lo float64) error {
	if !(v >= lo) || math.IsInf(v, 0) || v != math.Trunc(v) || v > 1<<53 {
		return rangeErr(name, "must be an integer ≥ %v, got %v", lo, v)
	}
	return nil
}

func positiveFinite(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return rangeErr(name, "must be a finite number > 0, got %v", v)
	}
	return nil
}

func openUnit(name string, v float64) error {
	if !(v > 0 && v < 1) {
		return rangeErr(name, "must be in (0, 1), got %v", v)
	}
	return nil
}
