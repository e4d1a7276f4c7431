package plan

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/shifted"
)

// Result is a computed plan, or the reasons none exists under the caps:
// everything privamp plan reports, with json tags (numbers as
// internal/quantity kinds, which own their rounding).
type Result struct {
	Feasible bool `json:"feasible"`
	// Run describes the planned run in words (shifted.Training.Name).
	Run        string          `json:"run"`
	Variant    shifted.Variant `json:"variant"`
	N          int64           `json:"n"`
	Public     int64           `json:"public"`
	Delta      float64         `json:"delta"` // δ of people without their own
	Conversion string          `json:"conversion"`
	// Order is how the budgets run along the positions: "ascending"
	// (strictest first) or "descending" (Stop: strictest last). Optimal
	// reports whether it minimises σ over all orders, OrderNote why.
	Order     string `json:"order"`
	Optimal   bool   `json:"optimal"`
	OrderNote string `json:"order_note"`
	// Sigma is the smallest verified σ (0 when infeasible): every person's
	// ε, recomputed at it, is at most (1 − Margin/2)·target, so any σ
	// above it (the printed, rounded-up value) meets every budget too.
	Sigma       dp.Noise `json:"sigma,omitempty"`
	SigmaSource string   `json:"sigma_source"`
	Eta         dp.Num   `json:"eta,omitempty"`
	EtaSource   string   `json:"eta_source,omitempty"`
	Utility     *Utility `json:"utility,omitempty"`
	// Uniform is the plan that gives everyone the strictest budget, and the
	// ratios σ/σ_uniform and bound/bound_uniform.
	Uniform      Uniform `json:"uniform"`
	NoiseRatio   dp.Num  `json:"noise_ratio,omitempty"`
	UtilityRatio dp.Num  `json:"utility_ratio,omitempty"`
	// MaxAchievedRatio is the largest achieved/target ε, at position
	// WorstIndex: the budget that sets σ.
	MaxAchievedRatio float64 `json:"max_achieved_ratio,omitempty"`
	WorstIndex       int64   `json:"worst_index,omitempty"`
	// Groups are the runs of positions with one budget and their achieved
	// ε (nil for more than 1000 groups).
	Groups      []GroupResult `json:"groups,omitempty"`
	Source      string        `json:"source"` // the per-person guarantee's
	Assumptions []string      `json:"assumptions"`
	// Infeasible explains why no plan meets the caps (nil otherwise).
	Infeasible *Infeasibility `json:"infeasible,omitempty"`
	Notes      []string       `json:"notes"`
	// Plan is the schedule (nil when infeasible); Achieved is ε of the
	// person at each position 1..n at their δ, recomputed with package
	// shifted, or nil for a plan of more than EvaluateAllMax people with
	// one δ in few groups, which Make decides at each group's ends
	// (AchievedAll computes them all). Neither is part of the JSON (Plan.WriteTo writes the plan).
	Plan     *Plan     `json:"-"`
	Achieved []float64 `json:"-"`

	opt    Options
	p      *problem // the solved problem (for AchievedAll)
	byEnds bool     // decided at each group's ends (EvaluateAllMax)
}

// AchievedAll returns ε of the person at each position 1..n (Achieved,
// computed now if Make decided the plan at its groups' ends); nil for an
// infeasible plan.
func (r *Result) AchievedAll() ([]float64, error) {
	if r.Achieved != nil || r.Plan == nil || r.p == nil {
		return r.Achieved, nil
	}
	all, err := r.p.achieved(float64(r.Sigma))
	if err != nil {
		return nil, err
	}
	r.Achieved = all
	return all, nil
}

// achievedAt returns ε at the positions ts (Achieved's values).
func (r *Result) achievedAt(ts []int64) ([]float64, error) {
	out := make([]float64, len(ts))
	if r.Achieved != nil || r.p == nil {
		for i, t := range ts {
			out[i] = r.Achieved[t-1]
		}
		return out, nil
	}
	e := &evals{at: map[int64]float64{}, sigma: float64(r.Sigma)}
	if err := r.p.evaluateAt(e, ts); err != nil {
		return nil, err
	}
	for i, t := range ts {
		out[i] = e.eps(t)
	}
	return out, nil
}

// Uniform is the plan that gives everyone the strictest budget: the
// baseline a per-person schedule is compared with.
type Uniform struct {
	Epsilon float64  `json:"epsilon"`
	Delta   float64  `json:"delta"`
	Sigma   dp.Noise `json:"sigma"`
	Utility Utility  `json:"utility"`
}

// Infeasibility describes a cap that some budgets cannot meet.
type Infeasibility struct {
	// Cap is the largest σ allowed, from Options.MaxSigma and
	// Options.TargetExcessRisk (CapField names the binding one, CapSource
	// says how); 0 when the utility target cannot be met even without
	// noise.
	Cap       dp.Max `json:"cap"`
	CapField  string `json:"cap_field"`
	CapSource string `json:"cap_source"`
	// SigmaNeeded is the smallest σ that meets every budget (no cap).
	SigmaNeeded dp.Noise `json:"sigma_needed"`
	// Unreachable lists, in position order, the people whose budget the
	// planned order cannot meet at σ = Cap, with the smallest ε each can
	// be given at that σ (all of them at once). For people input each entry
	// is one person; for tiers, the unreachable part of a tier.
	Unreachable      []Unreachable `json:"unreachable"`
	UnreachableCount int64         `json:"unreachable_count"`
	// Floor is the smallest ε any one person can have at σ = Cap (the most
	// private position).
	Floor dp.Loss `json:"floor_epsilon"`
	// Public and People are the remedies: public records appended at the
	// end (Cor 31), or more people with the loosest budget.
	Public Remedy `json:"public_remedy"`
	People Remedy `json:"people_remedy"`
}

// Unreachable is a run of positions First..Last (one person for people
// input) whose target ε cannot be met at σ = Cap. Each person there can be
// given their position's ε at that σ (all at once); AchievableMin and
// Achievable are the smallest and largest of these in the run.
type Unreachable struct {
	First         int64   `json:"first"`
	Last          int64   `json:"last"`
	ID            string  `json:"id,omitempty"`
	Tier          string  `json:"tier,omitempty"`
	Epsilon       float64 `json:"epsilon"`
	Delta         float64 `json:"delta"`
	AchievableMin dp.Loss `json:"achievable_min"`
	Achievable    dp.Loss `json:"achievable"`
}

// Remedy is the smallest number of extra records that makes the plan
// feasible under the cap, recomputed: Sigma and Utility are those of the
// plan with the extra records, and Verified reports that every person's ε
// was recomputed with package shifted at Sigma and meets the target (then
// every σ ≥ Sigma does too: more noise lowers every ε).
type Remedy struct {
	Found    bool     `json:"found"`
	Count    int64    `json:"count"`
	Sigma    dp.Noise `json:"sigma,omitempty"`
	Utility  *Utility `json:"utility,omitempty"`
	Verified bool     `json:"verified"`
	Reason   string   `json:"reason,omitempty"` // when not found or not verified
}

// maxExtra bounds the remedy searches.
const maxExtra = int64(1) << 40

// Make computes the plan: the order of the people, the smallest σ that
// meets every budget, η, every person's achieved ε, the utility bound and the
// comparison with the uniform plan. Under a cap (Options.MaxSigma,
// Options.TargetExcessRisk) that some budgets cannot meet it returns a
// Result with Infeasible set and no Plan, and searches the remedies.
// Invalid options or budgets give a *field.Error (or a budget error).
func Make(o Options, b Budgets) (*Result, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	if err := o.validate(b.Len()); err != nil {
		return nil, err
	}
	if o.TargetExcessRisk > 0 {
		if u := o.Utility(b.Len(), 1); math.IsNaN(float64(u.Bound)) {
			return nil, field.New("target_excess_risk", o.TargetExcessRisk, "needs a utility bound, and there is %s", u.Source)
		}
	}
	o.Training.N, o.Training.Sigma = 0, 0
	p, perm, err := newProblem(o, b)
	if err != nil {
		return nil, err
	}
	t := o.Training
	res := &Result{Run: o.Name(), Variant: t.Variant, N: p.n, Public: t.Public, Delta: t.Delta,
		Conversion: o.Conversion.String(), Order: "ascending", opt: o}
	if p.mono < 0 {
		res.Order = "descending"
	}
	res.Optimal, res.OrderNote = p.optimality()
	if t.Delta*float64(p.n) >= 1 {
		res.Notes = append(res.Notes, fmt.Sprintf("δ = %g is at least 1/n = %g: a mechanism that publishes one random person's record outright is (0, %g)-DP; choose δ ≪ 1/n", t.Delta, 1/float64(p.n), t.Delta))
	}
	if t.Loss.Smoothness == 0 {
		res.Notes = append(res.Notes, "no smoothness β given: the plan assumes η ≤ 2/β (the step contracts, Prop. 18), which nothing establishes; privamp verify therefore decides it by plain composition (every iterate released), as a claim without β, and that may not meet every target: give β to have amplification by iteration verified")
	}
	sigma, how, err := p.minSigma()
	if err != nil {
		return nil, err
	}
	res.SigmaSource = how
	// The uniform plan: everyone at the strictest budget.
	if res.Uniform, err = uniform(p); err != nil {
		return nil, err
	}
	capSigma, capField, capSrc, capOK := p.cap()
	var ev *evals
	if !(capOK && sigma > capSigma) {
		if sigma, ev, err = p.solve(sigma); err != nil {
			return nil, err
		}
		res.Achieved, res.p, res.byEnds = ev.all, p, ev.all == nil
	}
	if capOK && sigma > capSigma { // also through the verification's last ulps
		res.Infeasible, err = p.infeasible(sigma, capSigma, capField, capSrc, b, perm)
		res.Achieved = nil
		return res, err
	}
	res.Feasible = true
	u := o.Utility(p.n, sigma)
	res.Sigma, res.Utility = dp.Noise(sigma), &u
	var eta float64
	eta, res.EtaSource, _ = o.EtaRule(p.n, sigma)
	res.Eta = dp.Num(eta)
	res.NoiseRatio = dp.Num(sigma / float64(res.Uniform.Sigma))
	res.UtilityRatio = dp.Num(float64(u.Bound) / float64(res.Uniform.Utility.Bound))
	if res.Plan, err = p.plan(sigma, b, perm, ev, res); err != nil {
		return nil, err
	}
	sm := res.Plan.Summary
	res.MaxAchievedRatio, res.WorstIndex, res.Groups = sm.MaxAchievedRatio, sm.BindingPosition, sm.Groups
	g, _, err := o.Guarantee(p.n, sigma)
	if err != nil {
		return nil, err
	}
	res.Source = g.Source()
	res.Assumptions = append(g.Assumptions(),
		"the budgets, and so the order, do not depend on the private records (positions are public; the order is fixed before training)",
		"utility: records drawn i.i.d. from the population; domain inside a ball of radius R; the loss is convex and L-Lipschitz")
	if res.WorstIndex == p.n && t.Variant != shifted.VariantStop && t.Public == 0 {
		res.Notes = append(res.Notes, "the person that sets σ is the last record, which only its own noisy step protects (2L²/σ²-zCDP, Lemma 27): public records at the end (Cor 31) or a looser last budget lower σ")
	}
	res.Notes = append(res.Notes, fmt.Sprintf("every achieved ε is at most (1 − %g)·target: a safety margin, so that any recomputation agreeing to nine digits confirms the plan", Margin/2))
	if t.Variant == shifted.VariantStop && sigma > 0.98*float64(res.Uniform.Sigma) {
		res.Notes = append(res.Notes, "Stop-PNSGD's per-person guarantee is nearly the same at every position, so a schedule gains little over the uniform plan; PNSGD and Skip-PNSGD gain much more")
	}
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
	case p.s.Training.Variant == shifted.VariantPNSGD:
		return true, dir + ": optimal — exchange argument on ρ* (proved in the package documentation; each person's constraint is ρ_t ≤ ρ*(ε, δ) and ρ_t is non-decreasing in t)"
	case p.oneDelta:
		return true, dir + ": optimal — ε_t(δ) is monotone in t (Guarantee.Monotone) and everyone shares δ, so the exchange argument applies to ε itself"
	}
	return false, dir + " by ρ*(ε, δ): a heuristic — with different δ and a curve that is not linear in α no single key orders the people's feasible positions; σ is exact for this order"
}

// cap returns the σ cap of the options for the current problem, the field
// that sets it and how.
func (p *problem) cap() (float64, string, string, bool) {
	o := p.s
	c, f, src, ok := math.Inf(1), "", "", false
	if o.MaxSigma > 0 {
		c, f, src, ok = o.MaxSigma, "max_sigma", fmt.Sprintf("the largest σ allowed, %g", o.MaxSigma), true
	}
	if o.TargetExcessRisk > 0 {
		ok = true
		su, fine := o.SigmaForUtility(p.total(), o.TargetExcessRisk)
		if !fine {
			su = 0
		}
		if su < c {
			c, f = su, "target_excess_risk"
			src = fmt.Sprintf("the largest σ whose utility bound meets the target excess risk %g", o.TargetExcessRisk)
		}
	}
	return c, f, src, ok
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
	q.s.Training.Delta = strict.delta
	q.groups = []group{{eps: strict.eps, delta: strict.delta, count: p.n, first: 1, tier: -1}}
	q.prepare()
	sig, _, err := q.minSigma()
	if err != nil {
		return Uniform{}, err
	}
	return Uniform{Epsilon: strict.eps, Delta: strict.delta, Sigma: dp.Noise(sig), Utility: p.s.Utility(p.n, sig)}, nil
}

// infeasible explains a cap below the needed σ and searches the remedies.
func (p *problem) infeasible(need, capSigma float64, capField, capSrc string, b Budgets, perm []int32) (*Infeasibility, error) {
	inf := &Infeasibility{Cap: dp.Max(capSigma), CapField: capField, CapSource: capSrc, SigmaNeeded: dp.Noise(need)}
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
		floor := epsAt(g, best, p.groups[0].delta, p.s.Conversion)
		for _, gr := range p.groups {
			floor = math.Min(floor, epsAt(g, best, gr.delta, p.s.Conversion))
		}
		inf.Floor = dp.Loss(floor)
	} else {
		inf.Floor = dp.Loss(math.Inf(1))
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
				inf.Unreachable = append(inf.Unreachable, Unreachable{First: t, Last: t, ID: b.People.ID.At(int(i)), Epsilon: gr.eps, Delta: gr.delta, AchievableMin: dp.Loss(e), Achievable: dp.Loss(e)})
				continue
			}
			if cur == nil {
				inf.Unreachable = append(inf.Unreachable, Unreachable{First: t, Last: t, Tier: b.Tiers[gr.tier].Name, Epsilon: gr.eps, Delta: gr.delta, AchievableMin: dp.Loss(e), Achievable: dp.Loss(e)})
				cur = &inf.Unreachable[len(inf.Unreachable)-1]
			}
			cur.Last = t
			cur.Achievable = dp.Loss(math.Max(float64(cur.Achievable), e))
			cur.AchievableMin = dp.Loss(math.Min(float64(cur.AchievableMin), e))
		}
	}
	inf.Public = p.remedy(true)
	inf.People = p.remedy(false)
	return inf, nil
}

// remedy finds the fewest public records (public) or extra people with the
// loosest budget that make the plan feasible under the cap, assuming
// feasibility is monotone in the count (it is for PNSGD and Skip, whose
// curves only improve with more steps to go), and recomputes the plan with
// them.
func (p *problem) remedy(public bool) Remedy {
	p.buildTree() // shared by the copies below
	with := func(k int64) *problem {
		q := *p
		if public {
			q.s.Training.Public += k
		} else {
			q.extra = p.extra + k
		}
		return &q
	}
	ok := func(k int64) bool {
		q := with(k)
		c, _, _, _ := q.cap()
		return c > 0 && q.feasible(c)
	}
	lo, hi := int64(0), int64(1)
	for !ok(hi) {
		if hi >= maxExtra {
			return Remedy{Reason: p.noRemedy(public)}
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
	c, _, _, _ := q.cap()
	sigma, _, err := q.minSigma()
	if err == nil {
		if q.total() <= MaxPeople {
			// Recompute every person's ε (raising σ by ulps if needed).
			if s2, _, err := q.solve(sigma); err == nil && s2 <= c {
				sigma, r.Verified = s2, true
			}
		}
		u := q.s.Utility(q.total(), sigma)
		r.Sigma, r.Utility = dp.Noise(sigma), &u
	}
	if !r.Verified {
		r.Reason = "found by the per-group check but not confirmed by recomputing every person's ε"
	}
	return r
}

// noRemedy explains why no count up to maxExtra helps.
func (p *problem) noRemedy(public bool) string {
	what := "public records"
	if !public {
		what = "extra people with the loosest budget"
	}
	msg := fmt.Sprintf("no number of %s up to 2^40 makes the plan feasible under the cap", what)
	if !public && p.mono >= 0 {
		q := *p
		q.extra = p.extra + 1
		c, _, _, _ := q.cap()
		if c > 0 {
			if g, err := q.guarantee(c); err == nil {
				r := q.loosest()
				e := epsAt(g, q.lastPos(r), q.groups[r].delta, q.s.Conversion)
				msg += fmt.Sprintf(": the least private position gets ε = %s at σ = %s whatever n is, above the loosest budget ε = %g; public records at the end help instead", dp.Loss(e), dp.Max(c), q.groups[r].eps)
			}
		}
	}
	return msg
}
