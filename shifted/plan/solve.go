package plan

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/zcdp"
)

// Margin is the relative safety margin of every plan: the solver enforces
// ε_t ≤ (1 − Margin)·target_t, and a plan passes verification when every
// recomputed ε_t ≤ (1 − Margin/2)·target_t. Any recomputation that agrees
// with privamp's to nine significant digits (another conversion routine,
// privamp verify) therefore confirms every target.
const Margin = 1e-9

// group is a run of consecutive positions whose people share a target.
type group struct {
	eps, delta float64 // the target; delta resolved
	lim        float64 // (1 − Margin)·eps: what the solver enforces
	rho        float64 // ρ*(lim, δ): the largest zCDP ρ that meets it
	count      int64
	first      int64 // first position (without extra people)
	tier       int   // index of the input tier; −1 for people
}

// problem is the planning problem in position order.
type problem struct {
	s        Options
	groups   []group
	n        int64 // private people
	mono     int   // PerPerson.Monotone() of the variant
	oneDelta bool
	extra    int64 // extra people with the loosest budget (remedies)
	tree     []node
}

// node of the feasibility tree over groups [lo, hi).
type node struct {
	lo, hi          int
	minLim, minDelt float64
	left, right     int // child nodes; −1 for a leaf
}

// monotone returns the variant's PerPerson.Monotone() for n people.
func (s Options) monotone(n int64) (int, error) {
	g, _, err := s.Guarantee(n, 1)
	if err != nil {
		return 0, err
	}
	return g.Monotone(), nil
}

// rhoRaw is ρ*(ε, δ) without RhoFor's final check; the plan verifies every
// position with package shifted afterwards.
func rhoRaw(eps, delta float64, conv rdp.Conversion) float64 {
	r, _ := rhoWarm(eps, delta, conv, 0)
	return r
}

// rhoWarm is rhoRaw started from x0 = α − 1 of a nearby target (0: none);
// it also returns this target's x (zcdp.RhoForWarm).
func rhoWarm(eps, delta float64, conv rdp.Conversion, x0 float64) (float64, float64) {
	if conv == rdp.Classic {
		r, _ := zcdp.RhoFor(eps, delta, zcdp.BunSteinke)
		return r, 0
	}
	return zcdp.RhoForWarm(eps, -math.Log(delta), x0)
}

// parallel runs f over [0, n) in up to GOMAXPROCS chunks when n is large.
func parallel(n int, f func(lo, hi int)) {
	parts := runtime.GOMAXPROCS(0)
	if n < 50_000 || parts < 2 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		lo, hi := n*p/parts, n*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// newProblem orders the people and groups them. For people it returns the
// input index of the person at each position.
func newProblem(s Options, b Budgets) (*problem, []int32, error) {
	n := b.Len()
	mono, err := s.monotone(n)
	if err != nil {
		return nil, nil, err
	}
	p := &problem{s: s, n: n, mono: mono, oneDelta: true}
	desc := mono < 0
	var perm []int32
	if b.People != nil {
		pp := b.People
		m := pp.Len()
		for i := 0; i < m && pp.Delta != nil; i++ {
			if pp.delta(i, s.Training.Delta) != s.Training.Delta {
				p.oneDelta = false
				break
			}
		}
		// The order key: ε itself with one δ (exact, computed where it is
		// needed), else ρ*(ε, δ) (computed once into keys).
		key := func(i int) uint64 {
			k := pp.Epsilon[i]
			if desc {
				k = -k
			}
			return floatKey(k)
		}
		var keys []uint64
		fill := func(f func(int) uint64) {
			keys = make([]uint64, m)
			parallel(m, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					keys[i] = f(i)
				}
			})
		}
		if !p.oneDelta {
			fill(func(i int) uint64 {
				k := rhoRaw(pp.Epsilon[i]*(1-Margin), pp.delta(i, s.Training.Delta), s.Conversion)
				if desc {
					k = -k
				}
				return floatKey(k)
			})
			key = func(i int) uint64 { return keys[i] }
		}
		// perm is stable: ties keep the input order.
		var few bool
		var sizes []int
		perm, sizes, few = orderFewKeys(m, key, 64)
		if !few {
			if keys == nil {
				fill(key)
			}
			perm = orderByKey(keys)
		}
		keys = nil
		// The budgets in position order: with a few levels perm is a stable
		// partition and reading through it is a few sequential streams;
		// otherwise they are gathered in position order once (the only
		// random access), and grouped sequentially.
		def := s.Training.Delta
		eps := func(pos int) float64 { return pp.Epsilon[perm[pos]] }
		del := func(pos int) float64 { return pp.delta(int(perm[pos]), def) }
		if !few {
			se := make([]float64, m)
			var sd []float64
			if !p.oneDelta {
				sd = make([]float64, m)
			}
			parallel(m, func(lo, hi int) {
				for pos := lo; pos < hi; pos++ {
					i := perm[pos]
					se[pos] = pp.Epsilon[i]
					if sd != nil {
						sd[pos] = pp.delta(int(i), def)
					}
				}
			})
			eps = func(pos int) float64 { return se[pos] }
			del = func(pos int) float64 {
				if sd == nil {
					return def
				}
				return sd[pos]
			}
		}
		same := func(a, b int) bool { return eps(a) == eps(b) && (p.oneDelta || del(a) == del(b)) }
		if few && p.oneDelta {
			// The groups are the key's values: runs of one ε.
			p.groups = make([]group, 0, len(sizes))
			pos := 0
			for _, c := range sizes {
				p.groups = append(p.groups, group{eps: eps(pos), delta: def, count: int64(c), first: int64(pos) + 1, tier: -1})
				pos += c
			}
			p.prepare()
			return p, perm, nil
		}
		ng := 1
		for pos := 1; pos < m; pos++ {
			if !same(pos-1, pos) {
				ng++
			}
		}
		p.groups = make([]group, 0, ng)
		for pos := 0; pos < m; {
			end := pos + 1
			for end < m && same(pos, end) {
				end++
			}
			p.groups = append(p.groups, group{eps: eps(pos), delta: del(pos), count: int64(end - pos), first: int64(pos) + 1, tier: -1})
			pos = end
		}
	} else {
		idx := make([]int, len(b.Tiers))
		key := make([]float64, len(b.Tiers))
		for i, t := range b.Tiers {
			idx[i] = i
			d := t.Delta
			if d == 0 {
				d = s.Training.Delta
			}
			if d != s.Training.Delta {
				p.oneDelta = false
			}
			key[i] = t.Epsilon
		}
		if !p.oneDelta {
			for i, t := range b.Tiers {
				d := t.Delta
				if d == 0 {
					d = s.Training.Delta
				}
				key[i] = rhoRaw(t.Epsilon*(1-Margin), d, s.Conversion)
			}
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			if desc {
				return cmp.Compare(key[b], key[a])
			}
			return cmp.Compare(key[a], key[b])
		})
		pos := int64(1)
		for _, i := range idx {
			t := b.Tiers[i]
			d := t.Delta
			if d == 0 {
				d = s.Training.Delta
			}
			p.groups = append(p.groups, group{eps: t.Epsilon, delta: d, count: t.Count, first: pos, tier: i})
			pos += t.Count
		}
	}
	p.prepare()
	return p, perm, nil
}

// prepare sets lim and ρ* of every group and builds the feasibility tree.
func (p *problem) prepare() {
	parallel(len(p.groups), func(lo, hi int) {
		x := 0.0 // warm start: neighbouring groups have close optima
		for i := lo; i < hi; i++ {
			g := &p.groups[i]
			g.lim = g.eps * (1 - Margin)
			g.rho, x = rhoWarm(g.lim, g.delta, p.s.Conversion, x)
		}
	})
	p.tree = nil
}

// buildTree builds the feasibility tree on first use.
func (p *problem) buildTree() {
	if p.tree != nil {
		return
	}
	p.tree = make([]node, 0, len(p.groups)/4+8)
	p.build(0, len(p.groups))
}

func (p *problem) build(lo, hi int) int {
	id := len(p.tree)
	p.tree = append(p.tree, node{lo: lo, hi: hi, left: -1, right: -1})
	if hi-lo <= 8 {
		nd := &p.tree[id]
		nd.minLim, nd.minDelt = math.Inf(1), 1
		for _, g := range p.groups[lo:hi] {
			nd.minLim = math.Min(nd.minLim, g.lim)
			nd.minDelt = math.Min(nd.minDelt, g.delta)
		}
		return id
	}
	mid := (lo + hi) / 2
	l := p.build(lo, mid)
	r := p.build(mid, hi)
	p.tree[id].left, p.tree[id].right = l, r
	p.tree[id].minLim = math.Min(p.tree[l].minLim, p.tree[r].minLim)
	p.tree[id].minDelt = math.Min(p.tree[l].minDelt, p.tree[r].minDelt)
	return id
}

// loosest is the group extra people join: the last one when later
// positions are less private, else the first.
func (p *problem) loosest() int {
	if p.mono < 0 {
		return 0
	}
	return len(p.groups) - 1
}

// total returns the number of private people, extra ones included.
func (p *problem) total() int64 { return p.n + p.extra }

// firstPos and lastPos return group r's positions with the extra people.
func (p *problem) firstPos(r int) int64 {
	f := p.groups[r].first
	if p.extra > 0 && r > p.loosest() {
		f += p.extra
	}
	return f
}

func (p *problem) lastPos(r int) int64 {
	l := p.groups[r].first + p.groups[r].count - 1
	if p.extra > 0 && r >= p.loosest() {
		l += p.extra
	}
	return l
}

// worst returns the least private position among groups [lo, hi).
func (p *problem) worst(lo, hi int) int64 {
	if p.mono < 0 {
		return p.firstPos(lo)
	}
	return p.lastPos(hi - 1)
}

// guarantee returns the guarantee at σ with the extra people.
func (p *problem) guarantee(sigma float64) (shifted.PerPerson, error) {
	g, _, err := p.s.Guarantee(p.total(), sigma)
	return g, err
}

func epsAt(g shifted.PerPerson, t int64, delta float64, conv rdp.Conversion) float64 {
	dp, err := shifted.Epsilon(g, t, delta, conv)
	if err != nil {
		return math.Inf(1)
	}
	return dp.Epsilon
}

// feasible reports whether every group meets its enforced limit at σ,
// checking only the least private position of each group: ε_t is monotone
// in t (PerPerson.Monotone) and falls as δ grows. A node of the tree passes
// at once when its least private position, converted at the node's smallest
// δ, meets the node's smallest limit; otherwise its children are checked.
func (p *problem) feasible(sigma float64) bool {
	if !(sigma > 0) || math.IsInf(sigma, 1) {
		return false
	}
	g, err := p.guarantee(sigma)
	if err != nil {
		return false
	}
	p.buildTree()
	var check func(id int) bool
	check = func(id int) bool {
		nd := p.tree[id]
		if epsAt(g, p.worst(nd.lo, nd.hi), nd.minDelt, p.s.Conversion) <= nd.minLim {
			return true
		}
		if nd.left < 0 {
			for r := nd.lo; r < nd.hi; r++ {
				gr := p.groups[r]
				if epsAt(g, p.worst(r, r+1), gr.delta, p.s.Conversion) > gr.lim {
					return false
				}
			}
			return true
		}
		return check(nd.left) && check(nd.right)
	}
	return check(0)
}

// closedForm reports whether ρ_t(σ) = ρ_t(1)/σ² (a zCDP guarantee of
// shifted.SGD with a step size that does not depend on σ, or none needed).
func (p *problem) closedForm() bool { return p.s.Training.Variant == shifted.VariantPNSGD }

// minSigma returns the smallest σ at which every group meets its limit,
// and how it was found.
func (p *problem) minSigma() (float64, string, error) {
	var sigma float64
	var how string
	if p.closedForm() {
		g1, err := p.guarantee(1)
		if err != nil {
			return 0, "", err
		}
		z := g1.(shifted.ZCDP)
		var mu sync.Mutex
		best := math.Inf(-1)
		parallel(len(p.groups), func(lo, hi int) {
			b := math.Inf(-1)
			for r := lo; r < hi; r++ {
				b = math.Max(b, z.LogRho(p.worst(r, r+1))-math.Log(p.groups[r].rho))
			}
			mu.Lock()
			best = math.Max(best, b)
			mu.Unlock()
		})
		// Verified position by position by solve (or the caller).
		sigma = math.Exp(best / 2)
		how = "closed form σ² = max_t ρ_t(σ=1)/ρ*_t (ρ_t ∝ 1/σ²; ρ*_t the largest zCDP ρ meeting person t's (ε, δ))"
	} else {
		// Skip's curve is never above PNSGD's, so the closed form of the
		// same positions in a PNSGD run is a feasible start for Skip; for
		// Stop it is only a guess.
		q := *p
		q.s.Training.Variant, q.s.Training.Tasks = shifted.VariantPNSGD, 1
		start := 1.0
		if s0, _, err := q.minSigma(); err == nil && s0 > 0 && !math.IsInf(s0, 0) {
			start = s0
		}
		hi := start
		for !p.feasible(hi) {
			hi *= 2
			if hi > 1e250 {
				return 0, "", fmt.Errorf("no σ ≤ 1e250 meets every budget")
			}
		}
		lo := hi / 2
		for p.feasible(lo) {
			hi, lo = lo, lo/2
			if lo < 1e-250 {
				return hi, "bisection on σ", nil
			}
		}
		var err error
		sigma, err = numeric.Bisect(p.feasible, lo, hi, 1e-12, true)
		if err != nil {
			return 0, "", err
		}
		how = "bisection on σ with package shifted (feasibility checked at each budget group's least private position)"
	}
	return sigma, how, nil
}

// achieved returns ε of every private position 1..total() at σ, each at its
// person's δ, computed with package shifted.
func (p *problem) achieved(sigma float64) ([]float64, error) {
	g, err := p.guarantee(sigma)
	if err != nil {
		return nil, err
	}
	n := p.total()
	conv := p.s.Conversion
	if p.oneDelta && g.Len() <= shifted.MaxAll {
		all, err := shifted.EpsilonsAllProgress(g, p.s.Training.Delta, conv, p.s.Progress)
		if err != nil {
			return nil, err
		}
		return all[:n:n], nil
	}
	out := make([]float64, n)
	byDelta := map[float64][]int{}
	var deltas []float64
	for r, gr := range p.groups {
		if _, ok := byDelta[gr.delta]; !ok {
			deltas = append(deltas, gr.delta)
		}
		byDelta[gr.delta] = append(byDelta[gr.delta], r)
	}
	for _, d := range deltas {
		var ts []int64
		for _, r := range byDelta[d] {
			for t := p.firstPos(r); t <= p.lastPos(r); t++ {
				ts = append(ts, t)
			}
		}
		chunk := make([]float64, len(ts))
		var firstErr error
		var mu sync.Mutex
		parallel(len(ts), func(lo, hi int) {
			e, err := shifted.Epsilons(g, ts[lo:hi], d, conv)
			if err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				return
			}
			copy(chunk[lo:hi], e)
		})
		if firstErr != nil {
			return nil, firstErr
		}
		for i, t := range ts {
			out[t-1] = chunk[i]
		}
	}
	return out, nil
}

// solve returns the smallest verified σ from minSigma's σ and the ε it
// was verified with (evaluate: every position, or each group's ends, with
// extra evaluated too): it raises σ by tiny steps until every recomputed
// ε_t meets (1 − Margin/2)·target.
func (p *problem) solve(sigma float64) (float64, *evals, error) {
	for k := 0; k < 60; k++ {
		e, err := p.evaluate(sigma)
		if err != nil {
			return 0, nil, err
		}
		if !p.exceeds(e, func(gr group) float64 { return gr.eps * (1 - Margin/2) }) {
			return sigma, e, nil
		}
		sigma *= 1 + math.Ldexp(Margin/8, k)
	}
	return 0, nil, errors.New("internal: the plan's σ does not verify with package shifted")
}
