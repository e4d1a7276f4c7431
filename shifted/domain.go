package shifted

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// Domain is fixed-order projected noisy SGD (SGD) whose projection set K lies
// in a ball of radius Radius: privacy that stops growing with the number of
// passes (docs/amplification.md#bounded-domain-privacy-that-stops-growing;
// the argument of Altschuler and Talwar, NeurIPS 2022, derived there from
// FMTT18 Thm 22).
//
// Both runs' projected iterates lie in K, so at any step τ they are at most
// the diameter D = 2R apart. Theorem 22 started at τ, with that initial
// shift passed through step τ+1's c-Lipschitz gradient step before the first
// noise, bounds the final iterate by the engine's K on the window τ+1..T with
// an extra sensitivity c·D at its first step. Index t's ρ_t is the smallest
// of today's bound (τ = 0, SGD.LogRho) and the window bounds; only windows
// that start right after one of the record's uses can be the smallest
// (docs), and their costs have closed forms (a convex minorant of at most
// four points). Every window value is a valid bound on its own, so ρ_t is
// never above SGD's.
//
// The step size η must be given (Loss.Eta > 0): the ratio D/s = Rb/(ηL) of
// the diameter to a use's sensitivity sets the bound.
type Domain struct {
	SGD
	// Radius R > 0 of a ball that contains the projection set K.
	Radius float64
}

// DomainBound is the bound index t gets and where it comes from.
type DomainBound struct {
	// LogRho is ln ρ_t.
	LogRho float64 `json:"log_rho"`
	// Start is the window start τ (0: the whole run, FMTT18's bound, with
	// no initial distance); the window holds steps τ+1..T.
	Start int64 `json:"start"`
	// Uses is the number of the record's uses inside the window.
	Uses int64 `json:"uses"`
	// Bound is "fmtt18" (Start = 0) or "domain".
	Bound string `json:"bound"`
}

// Check validates the run and the radius and needs the step size η.
func (g Domain) Check() error {
	if err := g.SGD.Check(); err != nil {
		return err
	}
	if err := finitePositive("radius R", g.Radius); err != nil {
		return err
	}
	if !(g.Loss.Eta > 0) {
		return fmt.Errorf("the bounded-domain bound needs the step size η (the diameter's ratio to a step's sensitivity is Rb/(ηL))")
	}
	return nil
}

// Monotone returns +1: ε_t is non-decreasing in t (today's bound is, and
// every window's cost is non-increasing in the steps after the record's
// last use; docs).
func (g Domain) Monotone() int { return 1 }

// LogRho returns ln ρ_t.
func (g Domain) LogRho(t int64) float64 { return g.Bound(t).LogRho }

// Rho returns ρ_t.
func (g Domain) Rho(t int64) float64 { return math.Exp(g.LogRho(t)) }

// Curve returns the zCDP curve α·ρ_t.
func (g Domain) Curve(t int64) rdp.Curve { return rdp.Linear(g.Rho(t)) }

// Bound returns index t's bound and the window that gives it.
func (g Domain) Bound(t int64) DomainBound {
	j, _ := g.batchOf(t)
	return g.plan().bound(j)
}

// domainPlan holds what the bounds of one run's records share, computed
// once: the constants of SGD's logF, of the window costs and of the search
// over u. Its values are those of the per-record formulas operation for
// operation (TestDomainPlanMatchesDirect compares them bit for bit).
type domainPlan struct {
	M, E  int64
	lc    float64
	d, lk float64
	sgd   logFPlan
	run   SGD  // for SGD.exactPartial
	exact bool // run.exactPartial(), computed once
	win   windowPlan
	U     int64 // c < 1: the largest u searched exhaustively (bestWindow)
}

func (g Domain) plan() domainPlan {
	M, E := g.StepsPerEpoch(), g.epochs()
	lc := g.LogContraction()
	d := g.Radius * float64(g.batch()) / (g.Loss.Eta * g.Loss.Lipschitz)
	p := domainPlan{M: M, E: E, lc: lc, d: d, lk: g.logKappa(g.batch()), sgd: newLogFPlan(M, E, lc), run: g.SGD, exact: g.SGD.exactPartial()}
	if lc != 0 && !math.IsInf(lc, -1) {
		p.win = newWindowPlan(M, d, lc)
		p.U = windowSearchEnd(E, M, d, lc)
	}
	return p
}

// bound is Bound for a record in step j of a pass.
func (p domainPlan) bound(j int64) DomainBound {
	base := DomainBound{LogRho: p.lk + p.sgd.at(j), Bound: "fmtt18", Uses: p.E}
	if p.exact {
		base.LogRho = p.run.LogRho((j-1)*p.run.batch() + 1)
	}
	if math.IsInf(p.lc, -1) {
		return base
	}
	r := p.M - j
	var u int64
	var lf float64
	if p.lc == 0 {
		u, lf = bestWindow1(p.E, p.M, r, p.d)
	} else {
		u, lf = p.win.best(p.E, p.U, r)
	}
	if u < 0 || !(p.lk+lf < base.LogRho) {
		return base
	}
	// The window starts right after the record's use in pass E − u.
	start := (p.E-u-1)*p.M + j
	return DomainBound{LogRho: p.lk + lf, Start: start, Uses: u, Bound: "domain"}
}

// bestWindow returns the number u ∈ [0, E−1] of uses in the best window
// among those that start right after a use (−1 if none) and ln of its cost
// in units of κ = s²/(2v). With c = 1 it evaluates a handful of candidates
// that contain the optimum (docs: the cost is convex in u on each of at
// most two pieces); with c < 1 it evaluates every u up to the point where
// the initial distance has contracted below 1e−18 of the sensitivity, and
// log-spaced u beyond. Every value it returns is a valid window cost.
func bestWindow(E, M, r int64, d, lc float64) (int64, float64) {
	if lc == 0 {
		return bestWindow1(E, M, r, d)
	}
	return newWindowPlan(M, d, lc).best(E, windowSearchEnd(E, M, d, lc), r)
}

// windowSearchEnd returns U for c < 1: beyond U the window's initial
// distance is contracted by c^{UM} ≤ 1e−18 relative to d.
func windowSearchEnd(E, M int64, d, lc float64) int64 {
	U := E - 1
	if k := (41.5 + math.Log(math.Max(d, 1))) / (-lc * float64(M)); k < float64(U) {
		U = int64(k) + 1
	}
	return U
}

// best is bestWindow for c < 1 with the search end U.
func (w windowPlan) best(E, U, r int64) (int64, float64) {
	best, bu := math.Inf(1), int64(-1)
	try := func(u int64) {
		if u < 0 || u > E-1 || (u == 0 && r == 0) {
			return
		}
		if lf := w.cost(u, r); lf < best || (lf == best && u < bu) {
			best, bu = lf, u
		}
	}
	if U > 512 {
		for u := int64(0); u <= 256; u++ {
			try(u)
		}
		for x := 257.0; x < float64(U); x *= 1.05 {
			try(int64(x))
		}
		try(U)
	} else {
		for u := int64(0); u <= U; u++ {
			try(u)
		}
	}
	try(E - 1)
	return bu, best
}

// bestWindow1 is bestWindow for c = 1. On u ≥ 1 the window cost is the
// one-segment (d+u)²/(uM+r) below the switch u_sw = (d(r+1) − r)/(M − r − 1)
// and the two-segment (d+u−1)²/(uM−1) + 1/(r+1) above it (or, when the
// origin lies on or above the line of the corners, increasing in u); each
// piece is convex in u, so the integer optimum is next to a piece's
// minimiser, its switch or an end of the range (docs). The candidates
// evaluated are those points and their neighbours.
func bestWindow1(E, M, r int64, d float64) (int64, float64) {
	if E == 1 {
		// One pass: every candidate below clamps to u = 0, the window
		// right after the record's only use, which is then the only one
		// tried; this is that result without the search.
		if r == 0 {
			return -1, math.Inf(1)
		}
		if f := windowCost1(0, M, r, d); f < math.Inf(1) {
			return 0, math.Log(f)
		}
		return -1, math.Inf(1)
	}
	return bestWindow1Search(E, M, r, d)
}

// bestWindow1Search is bestWindow1 by its candidates, for any E ≥ 1.
func bestWindow1Search(E, M, r int64, d float64) (int64, float64) {
	best, bu := math.Inf(1), int64(-1)
	var tried [32]int64
	nt := 0
	try := func(u int64) {
		if u < 0 || u > E-1 || (u == 0 && r == 0) {
			return
		}
		for _, x := range tried[:nt] {
			if x == u {
				return
			}
		}
		if nt < len(tried) {
			tried[nt] = u
			nt++
		}
		if f := windowCost1(u, M, r, d); f < best || (f == best && u < bu) {
			best, bu = f, u
		}
	}
	Mf, rf := float64(M), float64(r)
	cands := [...]float64{0, 1, float64(E - 1),
		d - 2*rf/Mf,                              // argmin of (d+u)²/(uM+r), the one-segment cost
		d - 1 + 2/Mf,                             // argmin of (d+u−1)²/(uM−1), the two-segment cost
		(d*(rf+1) - rf) / math.Max(Mf-rf-1, 0.5), // the switch between them
	}
	for _, x := range cands {
		if math.IsNaN(x) {
			continue
		}
		x = math.Min(math.Max(x, 0), float64(E-1))
		f := int64(math.Floor(x))
		for u := f - 1; u <= f+2; u++ {
			try(u)
		}
	}
	return bu, math.Log(best)
}

// windowCost1 is the c = 1 window cost in units of κ = s²/(2v): the
// window's steps 1..L, L = uM + r, have unit variance, sensitivity d at
// step 1 (the initial distance over s) and 1 at the uses, steps M, 2M, …,
// uM. The cost is Σ (ΔS)²/ΔV over the greatest convex minorant of the
// points (k, S_k), whose vertices lie among the origin, the corners just
// before the first and the last use, and the end (docs).
func windowCost1(u, M, r int64, d float64) float64 {
	L := u*M + r
	S := func(k int64) float64 { return d + float64(min(k/M, u)) }
	xs := [4]float64{0}
	ys := [4]float64{0}
	n := 1
	add := func(k int64) {
		if k < 1 || k > L-1 || float64(k) <= xs[n-1] {
			return
		}
		xs[n], ys[n] = float64(k), S(k)
		n++
	}
	if u >= 1 {
		add(max(1, M-1))
		add(max(1, u*M-1))
	}
	xs[n], ys[n] = float64(L), S(L)
	n++
	// Lower hull (monotone chain).
	h := [4]int{}
	m := 0
	for i := 0; i < n; i++ {
		for m >= 2 {
			a, b := h[m-2], h[m-1]
			// b is kept only if it lies strictly below the chord a→i.
			if (ys[b]-ys[a])*(xs[i]-xs[a]) < (ys[i]-ys[a])*(xs[b]-xs[a]) {
				break
			}
			m--
		}
		h[m] = i
		m++
	}
	cost := 0.0
	for k := 1; k < m; k++ {
		dy, dx := ys[h[k]]-ys[h[k-1]], xs[h[k]]-xs[h[k-1]]
		cost += dy * dy / dx
	}
	return cost
}

// windowLogCost is ln of the window cost for contraction c = e^{lc} < 1, in
// rescaled coordinates (docs/amplification.md#optimal-shift-allocation):
// step i of L carries weight w_i = c^{L−i}; the initial distance enters at
// step 1 as c·d (it passes through step 1's map before the first noise).
// The corners of successive passes form a concave chain, so the minorant's
// vertices again lie among the origin, the first and last corners and the
// end; every edge's ΔS and ΔV are geometric sums evaluated in log space.
func windowLogCost(u, M, r int64, d, lc float64) float64 {
	w := newWindowPlan(M, d, lc)
	return w.cost(u, r)
}

// windowPlan holds the constants of one run's window costs: ln d and the
// denominators ln(1 − c²), ln(1 − c^M) of the geometric sums (lnGeom).
type windowPlan struct {
	M                    int64
	lc, logd, den2, denM float64
}

func newWindowPlan(M int64, d, lc float64) windowPlan {
	return windowPlan{M: M, lc: lc, logd: math.Log(d),
		den2: math.Log(-math.Expm1(2 * lc)), denM: math.Log(-math.Expm1(float64(M) * lc))}
}

// geomDen is lnGeom(m, l) with its denominator ln(1 − e^l) given.
func geomDen(m, l, den float64) float64 {
	switch {
	case m == 1 || math.IsInf(l, -1):
		return 0
	case l == 0:
		return math.Log(m)
	}
	return math.Log(-math.Expm1(m*l)) - den
}

// cost is windowLogCost(u, M, r, d, lc). Each edge of the (at most four)
// points is evaluated once.
func (w windowPlan) cost(u, r int64) float64 {
	M, lc := w.M, w.lc
	L := u*M + r
	Lf := float64(L)
	// ln Σ_{i=a+1}^{b} w_i²
	lnV := func(a, b int64) float64 {
		return 2*float64(L-b)*lc + geomDen(float64(b-a), 2*lc, w.den2)
	}
	// ln of the sensitivity in steps a+1..b
	lnS := func(a, b int64) float64 {
		var terms [2]float64
		n := 0
		if a == 0 {
			terms[n] = w.logd + lc + (Lf-1)*lc
			n++
		}
		mlo, mhi := a/M+1, min(u, b/M)
		if mhi >= mlo {
			terms[n] = float64(L-mhi*M)*lc + geomDen(float64(mhi-mlo+1), float64(M)*lc, w.denM)
			n++
		}
		switch n {
		case 0:
			return math.Inf(-1)
		case 1:
			return terms[0]
		}
		return numeric.LogSumExp(terms[:2])
	}
	var ks [4]int64
	nk := 1
	addk := func(k int64) {
		if k >= 1 && k <= L-1 && k > ks[nk-1] {
			ks[nk] = k
			nk++
		}
	}
	if u >= 1 {
		addk(max(1, M-1))
		addk(max(1, u*M-1))
	}
	ks[nk] = L
	nk++
	var es, ev [4][4]float64
	var have [4][4]bool
	edge := func(a, b int) (float64, float64) {
		if !have[a][b] {
			es[a][b], ev[a][b] = lnS(ks[a], ks[b]), lnV(ks[a], ks[b])
			have[a][b] = true
		}
		return es[a][b], ev[a][b]
	}
	slope := func(a, b int) float64 {
		s, v := edge(a, b)
		return s - v
	}
	var h [4]int
	nh := 0
	for k := 0; k < nk; k++ {
		for nh >= 2 {
			a, b := h[nh-2], h[nh-1]
			// b stays a vertex only if the slope increases there.
			if slope(a, b) < slope(b, k) {
				break
			}
			nh--
		}
		h[nh] = k
		nh++
	}
	var terms [3]float64
	nt := 0
	for i := 1; i < nh; i++ {
		if s, v := edge(h[i-1], h[i]); !math.IsInf(s, -1) {
			terms[nt] = 2*s - v
			nt++
		}
	}
	if nt == 0 {
		return math.Inf(-1)
	}
	return numeric.LogSumExp(terms[:nt])
}

// WindowSchedule returns the schedule of the window that starts after step
// start (0 ≤ start < T) for index t, with the initial distance D = 2R
// entering as the extra sensitivity c·D at its first step (start = 0: no
// initial distance). Every step has the contraction c_eff of
// SGD.LogContraction, as in the bound. Solve on it gives the window's cost;
// the tests check Bound against it.
func (g Domain) WindowSchedule(t, start int64) Schedule {
	full := g.SGD.uniformSchedule(t)
	var out Schedule
	skip := start
	for _, run := range full {
		if skip >= run.Count {
			skip -= run.Count
			continue
		}
		out = out.Append(run.Step, run.Count-skip)
		skip = 0
	}
	if start > 0 && len(out) > 0 {
		first := out[0]
		st := first.Step
		st.Sensitivity += st.Contraction * 2 * g.Radius
		rest := out[1:]
		out = Schedule{{Step: st, Count: 1}}
		out = out.Append(first.Step, first.Count-1)
		for _, r := range rest {
			out = out.Append(r.Step, r.Count)
		}
	}
	return out
}

// Source cites the argument.
func (g Domain) Source() string {
	return g.SGD.Source() + fmt.Sprintf("; bounded domain (radius R = %v, diameter 2R): the smaller of that and Thm 22 on the last steps from an initial distance 2R (Altschuler–Talwar 2022's argument; derivation: docs/amplification.md §Bounded domain: privacy that stops growing)", g.Radius)
}

// Assumptions adds the projection onto a set inside the ball.
func (g Domain) Assumptions() []string {
	return append(g.SGD.Assumptions(),
		fmt.Sprintf("every step projects onto a convex set K inside a ball of radius R = %v, declared before seeing the data (so any two iterates are at most 2R apart); the starting point lies in K", g.Radius))
}
