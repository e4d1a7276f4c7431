package plan

import (
	"errors"
	"fmt"
	"math"
)

// Options constrain the noise: more noise lowers every person's ε, so the
// real limit is utility.
type Options struct {
	// MaxSigma caps σ (0: no cap).
	MaxSigma float64
	// TargetExcessRisk caps the utility bound (Setting.Utility) at this
	// value (0: none); it becomes a cap on σ (SigmaForUtility).
	TargetExcessRisk float64
}

// Result is a computed plan, or the reasons none exists under the options.
type Result struct {
	// Plan is the schedule; nil when Infeasible is set.
	Plan *Plan
	// Achieved is ε of the person at each position 1..n at their δ,
	// recomputed with package shifted (nil when infeasible).
	Achieved []float64
	// Optimal reports whether the order is provably optimal (it minimises
	// σ over all orders), with the reason in OrderNote.
	Optimal   bool
	OrderNote string
	// SigmaHow says how σ was found.
	SigmaHow string
	Utility  Utility
	Uniform  Uniform
	// Infeasible explains why no plan meets the options (nil otherwise).
	Infeasible *Infeasibility
	Notes      []string
}

// Uniform is the plan that gives everyone the strictest budget: the
// baseline a per-person schedule is compared with.
type Uniform struct {
	Epsilon, Delta float64
	Sigma          float64
	Utility        Utility
}

// Infeasibility describes a cap that some budgets cannot meet.
type Infeasibility struct {
	// Cap is the largest σ allowed, from MaxSigma and TargetExcessRisk
	// (CapSource says which); 0 when the utility target cannot be met even
	// without noise.
	Cap       float64
	CapSource string
	// SigmaNeeded is the smallest σ that meets every budget (no cap).
	SigmaNeeded float64
	// Unreachable lists, in position order, the people whose budget the
	// planned order cannot meet at σ = Cap, with the smallest ε each can
	// be given at that σ (all of them at once). For people input each entry
	// is one person; for tiers, the unreachable part of a tier.
	Unreachable      []Unreachable
	UnreachableCount int64
	// Floor is the smallest ε any one person can have at σ = Cap (the most
	// private position).
	Floor float64
	// Public and People are the remedies: public records appended at the
	// end (Cor 31), or more people with the loosest budget.
	Public, People Remedy
}

// Unreachable is a run of positions First..Last (one person for people
// input) whose target ε cannot be met at σ = Cap. Each person there can be
// given their position's ε at that σ (all at once); AchievableMin and
// Achievable are the smallest and largest of these in the run.
type Unreachable struct {
	First, Last               int64
	ID, Tier                  string
	Epsilon, Delta            float64
	AchievableMin, Achievable float64
}

// Remedy is the smallest number of extra records that makes the plan
// feasible under the cap, recomputed: Sigma and Utility are those of the
// plan with the extra records, and Verified reports that every person's ε
// was recomputed with package shifted and meets the target.
type Remedy struct {
	Found    bool
	Count    int64
	Sigma    float64
	Utility  Utility
	Verified bool
	Reason   string // when not found
}

// maxExtra bounds the remedy searches.
const maxExtra = int64(1) << 40

// Make computes the plan: the order of the people, the smallest σ that
// meets every budget, η, every person's achieved ε, the utility bound and the
// comparison with the uniform plan. Under a cap (Options) that some budgets
// cannot meet it returns a Result with Infeasible set and no Plan.
func Make(s Setting, b Budgets, o Options) (*Result, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	if !(o.MaxSigma >= 0) || math.IsInf(o.MaxSigma, 0) || !(o.TargetExcessRisk >= 0) || math.IsInf(o.TargetExcessRisk, 0) {
		return nil, errors.New("max-sigma and target-excess-risk must be finite and ≥ 0")
	}
	if o.TargetExcessRisk > 0 {
		if u := s.Utility(b.Len(), 1); math.IsNaN(u.Bound) {
			return nil, fmt.Errorf("target-excess-risk needs a utility bound, and there is %s", u.Source)
		}
	}
	p, perm, err := newProblem(s, b)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	res.Optimal, res.OrderNote = p.optimality()
	if s.Delta*float64(p.n) >= 1 {
		res.Notes = append(res.Notes, fmt.Sprintf("δ = %g is at least 1/n = %g: a mechanism that publishes one random person's record outright is (0, %g)-DP; choose δ ≪ 1/n", s.Delta, 1/float64(p.n), s.Delta))
	}
	sigma, how, err := p.minSigma()
	if err != nil {
		return nil, err
	}
	res.SigmaHow = how
	// The uniform plan: everyone at the strictest budget.
	res.Uniform, err = uniform(p)
	if err != nil {
		return nil, err
	}
	capSigma, capSrc, capOK := p.cap(o)
	if capOK && sigma > capSigma {
		res.Infeasible, err = p.infeasible(o, sigma, capSigma, capSrc, b, perm)
		return res, err
	}
	sigma, eps, err := p.solve(sigma)
	if err != nil {
		return nil, err
	}
	if capOK && sigma > capSigma {
		// Only through the verification's last ulps.
		res.Infeasible, err = p.infeasible(o, sigma, capSigma, capSrc, b, perm)
		return res, err
	}
	res.Achieved = eps
	res.Utility = s.Utility(p.n, sigma)
	res.Plan = p.plan(sigma, b, perm, eps, res)
	return res, nil
}

// optimality says whether the order minimises σ over all orders.
func (p *problem) optimality() (bool, string) {
	dir := "ascending budget (strictest first)"
	if p.mono < 0 {
		dir = "descending budget (strictest last: in this variant later positions are more private)"
	}
	switch {
	case p.mono == 0:
		return true, "every position has the same guarantee: any order is optimal"
	case p.s.Variant == PNSGD:
		return true, dir + ": optimal — exchange argument on ρ* (proved in the package documentation; each person's constraint is ρ_t ≤ ρ*(ε, δ) and ρ_t is non-decreasing in t)"
	case p.oneDelta:
		return true, dir + ": optimal — ε_t(δ) is monotone in t (Guarantee.Monotone) and everyone shares δ, so the exchange argument applies to ε itself"
	}
	return false, dir + " by ρ*(ε, δ): a heuristic — with different δ and a curve that is not linear in α no single key orders the people's feasible positions; σ is exact for this order"
}

// cap returns the σ cap of the options for the current problem.
func (p *problem) cap(o Options) (float64, string, bool) {
	c, src, ok := math.Inf(1), "", false
	if o.MaxSigma > 0 {
		c, src, ok = o.MaxSigma, fmt.Sprintf("--max-sigma %g", o.MaxSigma), true
	}
	if o.TargetExcessRisk > 0 {
		ok = true
		su, fine := p.s.SigmaForUtility(p.total(), o.TargetExcessRisk)
		if !fine {
			su = 0
		}
		if su < c {
			c = su
			src = fmt.Sprintf("--target-excess-risk %g (the largest σ whose utility bound meets it)", o.TargetExcessRisk)
		}
	}
	return c, src, ok
}

// uniform plans everyone at the strictest budget.
func uniform(p *problem) (Uniform, error) {
	strict := p.groups[0]
	for _, g := range p.groups[1:] {
		if g.rho < strict.rho || (g.rho == strict.rho && g.eps < strict.eps) {
			strict = g
		}
	}
	q := &problem{s: p.s, n: p.n, mono: p.mono, oneDelta: true}
	q.s.Delta = strict.delta
	q.groups = []group{{eps: strict.eps, delta: strict.delta, count: p.n, first: 1, tier: -1}}
	q.prepare()
	sig, _, err := q.minSigma()
	if err != nil {
		return Uniform{}, err
	}
	return Uniform{Epsilon: strict.eps, Delta: strict.delta, Sigma: sig, Utility: p.s.Utility(p.n, sig)}, nil
}

// infeasible explains a cap below the needed σ and searches the remedies.
func (p *problem) infeasible(o Options, need, capSigma float64, capSrc string, b Budgets, perm []int32) (*Infeasibility, error) {
	inf := &Infeasibility{Cap: capSigma, CapSource: capSrc, SigmaNeeded: need}
	var eps []float64
	if capSigma > 0 {
		var err error
		if eps, err = p.achieved(capSigma); err != nil {
			return nil, err
		}
		g, err := p.guarantee(capSigma)
		if err != nil {
			return nil, err
		}
		best := int64(1)
		if p.mono < 0 {
			best = p.n
		}
		inf.Floor = epsAt(g, best, p.groups[0].delta, p.s.Conversion)
		for _, gr := range p.groups {
			inf.Floor = math.Min(inf.Floor, epsAt(g, best, gr.delta, p.s.Conversion))
		}
	} else {
		inf.Floor = math.Inf(1)
	}
	for r, gr := range p.groups {
		bound := gr.eps * (1 - Margin/2)
		var cur *Unreachable
		for t := p.firstPos(r); t <= p.lastPos(r); t++ {
			e := math.Inf(1)
			if eps != nil {
				e = eps[t-1]
			}
			if e <= bound {
				cur = nil
				continue
			}
			inf.UnreachableCount++
			if b.People != nil {
				i := perm[t-1]
				inf.Unreachable = append(inf.Unreachable, Unreachable{First: t, Last: t, ID: b.People.ID[i], Epsilon: gr.eps, Delta: gr.delta, AchievableMin: e, Achievable: e})
				continue
			}
			if cur == nil {
				inf.Unreachable = append(inf.Unreachable, Unreachable{First: t, Last: t, Tier: b.Tiers[gr.tier].Name, Epsilon: gr.eps, Delta: gr.delta, AchievableMin: e, Achievable: e})
				cur = &inf.Unreachable[len(inf.Unreachable)-1]
			}
			cur.Last = t
			cur.Achievable = math.Max(cur.Achievable, e)
			cur.AchievableMin = math.Min(cur.AchievableMin, e)
		}
	}
	inf.Public = p.remedy(o, true)
	inf.People = p.remedy(o, false)
	return inf, nil
}

// remedy finds the fewest public records (public) or extra people with the
// loosest budget that make the plan feasible under the cap, assuming
// feasibility is monotone in the count (it is for PNSGD and Skip, whose
// curves only improve with more steps to go), and recomputes the plan with
// them.
func (p *problem) remedy(o Options, public bool) Remedy {
	p.buildTree() // shared by the copies below
	with := func(k int64) *problem {
		q := *p
		if public {
			q.s.Public += k
		} else {
			q.extra = p.extra + k
		}
		return &q
	}
	ok := func(k int64) bool {
		q := with(k)
		c, _, _ := q.cap(o)
		return c > 0 && q.feasible(c)
	}
	lo, hi := int64(0), int64(1)
	for !ok(hi) {
		if hi >= maxExtra {
			return Remedy{Reason: p.noRemedy(o, public)}
		}
		lo, hi = hi, min(2*hi, maxExtra)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	q := with(hi)
	r := Remedy{Found: true, Count: hi}
	c, _, _ := q.cap(o)
	sigma, _, err := q.minSigma()
	if err == nil {
		r.Sigma = sigma
		if q.total() <= MaxPeople {
			// Recompute every person's ε (raising σ by ulps if needed).
			if s2, _, err := q.solve(sigma); err == nil && s2 <= c {
				r.Sigma, r.Verified = s2, true
			}
		}
		r.Utility = q.s.Utility(q.total(), r.Sigma)
	}
	if !r.Verified {
		r.Reason = "found by the per-group check but not confirmed by recomputing every person's ε"
	}
	return r
}

// noRemedy explains why no count up to maxExtra helps.
func (p *problem) noRemedy(o Options, public bool) string {
	what := "public records"
	if !public {
		what = "extra people with the loosest budget"
	}
	msg := fmt.Sprintf("no number of %s up to 2^40 makes the plan feasible under the cap", what)
	if !public && p.mono >= 0 {
		q := *p
		q.extra = p.extra + 1
		c, _, _ := q.cap(o)
		if c > 0 {
			if g, err := q.guarantee(c); err == nil {
				r := q.loosest()
				e := epsAt(g, q.lastPos(r), q.groups[r].delta, q.s.Conversion)
				msg += fmt.Sprintf(": the least private position gets ε = %.6g at σ = %.6g whatever n is, above the loosest budget ε = %g; public records at the end help instead", e, c, q.groups[r].eps)
			}
		}
	}
	return msg
}
