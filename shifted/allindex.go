package shifted

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// EpsilonsAll returns ε_t(δ) for t = 1, …, n (n ≤ MaxAll), splitting the
// indices into fixed chunks computed on GOMAXPROCS goroutines (fillChunks;
// the values do not depend on GOMAXPROCS). Linear curves convert in O(1) per index
// with warm-started Newton steps; the Skip mixture is optimised per index
// from the previous index's order (ε_t moves slowly in t); Stop and Tasks use
// an incremental evaluation of their sums over blocks of indices (allStop).
func EpsilonsAll(g PerPerson, delta float64, conv rdp.Conversion) ([]float64, error) {
	return EpsilonsAllProgress(g, delta, conv, nil)
}

// EpsilonsAllProgress is EpsilonsAll that reports, if progress is not nil,
// the indices done of n after each chunk (from the computing goroutines,
// one call at a time).
func EpsilonsAllProgress(g PerPerson, delta float64, conv rdp.Conversion, progress dp.Progress) ([]float64, error) {
	fill, err := allFill(g, delta, conv)
	if err != nil {
		return nil, err
	}
	n := g.Len()
	out := make([]float64, n)
	var mu sync.Mutex
	var done int64
	fillChunks(n, func(lo, hi int64) {
		fill(lo, hi, out[lo-1:hi], lo)
		if progress != nil {
			mu.Lock()
			done += hi - lo + 1
			progress(done, n)
			mu.Unlock()
		}
	})
	return out, nil
}

// EpsilonsAllAt returns, for each index of ts (each in [1, n], in any
// order, repeats allowed), the value EpsilonsAll(g, delta, conv) gives it,
// bit for bit, without computing the others: it computes only the fixed
// chunks (allChunk) that hold one of ts, each as EpsilonsAll does, so it
// costs at most allChunk conversions per distinct chunk (on GOMAXPROCS
// goroutines). The planner uses it when a monotone guarantee needs ε at a
// few positions of a long run (package plan).
func EpsilonsAllAt(g PerPerson, ts []int64, delta float64, conv rdp.Conversion) ([]float64, error) {
	fill, err := allFill(g, delta, conv)
	if err != nil {
		return nil, err
	}
	n := g.Len()
	byChunk := map[int64][]int{} // chunk → indices into ts
	var chunks []int64
	for i, t := range ts {
		if t < 1 || t > n {
			return nil, fmt.Errorf("index %d outside [1, %d]", t, n)
		}
		k := (t - 1) / allChunk
		if _, ok := byChunk[k]; !ok {
			chunks = append(chunks, k)
		}
		byChunk[k] = append(byChunk[k], i)
	}
	out := make([]float64, len(ts))
	var next atomic.Int64
	work := func() {
		var buf []float64
		for {
			c := next.Add(1) - 1
			if c >= int64(len(chunks)) {
				return
			}
			k := chunks[c]
			lo, hi := 1+k*allChunk, min(n, (k+1)*allChunk)
			buf = slices.Grow(buf[:0], int(hi-lo+1))[:hi-lo+1]
			fill(lo, hi, buf, lo)
			for _, i := range byChunk[k] {
				out[i] = buf[ts[i]-lo]
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(chunks))
	var wg sync.WaitGroup
	for range workers {
		wg.Go(work)
	}
	wg.Wait()
	return out, nil
}

// allFill returns the function that fills out[t − base] = ε_t for t in
// one chunk [lo, hi] of EpsilonsAll (n ≤ MaxAll); its values depend on the
// chunk's bounds, not on what else is computed.
func allFill(g PerPerson, delta float64, conv rdp.Conversion) (func(lo, hi int64, out []float64, base int64), error) {
	if err := checkDelta(delta); err != nil {
		return nil, err
	}
	n := g.Len()
	if n > MaxAll {
		return nil, fmt.Errorf("n = %d is above %d: ask for chosen or log-spaced indices instead", n, MaxAll)
	}
	switch v := g.(type) {
	case SGD:
		return func(lo, hi int64, out []float64, base int64) { allSGD(v, delta, conv, lo, hi, out, base) }, nil
	case Domain:
		return func(lo, hi int64, out []float64, base int64) { allDomain(v, delta, conv, lo, hi, out, base) }, nil
	case Stop:
		c := v.Curve(1).(stopCurve)
		return func(lo, hi int64, out []float64, base int64) { allStop(c, n, delta, conv, lo, hi, out, base) }, nil
	case Tasks:
		c := v.Curve(1).(stopCurve)
		return func(lo, hi int64, out []float64, base int64) { allStop(c, n, delta, conv, lo, hi, out, base) }, nil
	case Skip:
		return func(lo, hi int64, out []float64, base int64) { allSkip(v, delta, conv, lo, hi, out, base) }, nil
	}
	return func(lo, hi int64, out []float64, base int64) {
		guess := 0.0
		for t := lo; t <= hi; t++ {
			e, a := epsilonAt(g, t, delta, conv, guess, false)
			out[t-base] = e
			if a > 1 && !math.IsInf(a, 0) {
				guess = a
			}
		}
	}, nil
}

// allChunk is the number of indices of one chunk of EpsilonsAll. The chunks
// are fixed by n alone, and each starts its warm starts afresh, so every
// value is the same whether the chunks run one after another or on any
// number of goroutines (TestEpsilonsAllParallelIsSerial).
const allChunk = 1 << 16

// fillChunks calls fill on the chunks [1 + k·allChunk, min(n, (k+1)·allChunk)]
// of 1..n, handing them out to GOMAXPROCS goroutines as they finish (a
// loaded core holds up one chunk, not half of the indices).
func fillChunks(n int64, fill func(lo, hi int64)) {
	chunks := (n + allChunk - 1) / allChunk
	workers := min(int64(runtime.GOMAXPROCS(0)), chunks)
	var next atomic.Int64
	work := func() {
		for {
			k := next.Add(1) - 1
			if k >= chunks {
				return
			}
			fill(1+k*allChunk, min(n, (k+1)*allChunk))
		}
	}
	if workers < 2 {
		work()
		return
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(work)
	}
	wg.Wait()
}

// allSGD fills out[t − base] = ε_t for t ∈ [lo, hi], with ρ_t computed without
// logarithms when c = 1 and with one expm1 per index for a single pass with
// c < 1.
func allSGD(g SGD, delta float64, conv rdp.Conversion, lo, hi int64, out []float64, base int64) {
	L := numeric.NegLogUp(delta)
	x := 0.0
	put := func(t int64, lr float64) {
		if lr > -700 {
			out[t-base], x = rdp.LinearEpsilonWarm(numeric.ExpUp(lr), L, conv, x)
		} else {
			out[t-base], _ = epsFromLogRho(lr, delta, conv)
		}
	}
	b := g.batch()
	M := float64(g.StepsPerEpoch())
	lc := g.LogContraction()
	switch {
	case g.exactPartial():
		// One Solve per step of a pass; the indices of a batch share it.
		lastJ, lr := int64(-1), 0.0
		for t := lo; t <= hi; t++ {
			if j, _ := g.batchOf(t); j != lastJ {
				lastJ, lr = j, g.LogRho(t)
			}
			put(t, lr)
		}
	case lc == 0:
		E := float64(g.epochs())
		k := 2 * g.Loss.Lipschitz * g.Loss.Lipschitz / (g.Sigma * g.Sigma)
		for t := lo; t <= hi; t++ {
			j, size := g.batchOf(t)
			rho := k / float64(size*size) * ((E-1)/M + 1/(M-float64(j)+1))
			out[t-base], x = rdp.LinearEpsilonWarm(rho, L, conv, x)
		}
	case g.epochs() == 1 && !math.IsInf(lc, -1):
		// ρ_t = κ_j·c^{2r}(1 − c²)/(1 − c^{2(r+1)}) with r = M − j. Going
		// down in t, r grows: c^{2r} is updated by one multiplication and
		// 1 − c^{2(r+1)} = (1 − c^{2r}) + c^{2r}(1 − c²) by an addition of
		// positive terms; both are recomputed exactly every 256 indices.
		A := -math.Expm1(2 * lc)
		c2 := math.Exp(2 * lc)
		lkFull := g.logKappa(b)
		kFull := math.Exp(lkFull)
		lastR := -1.0
		var p, E float64
		for t := hi; t >= lo; t-- {
			j, size := g.batchOf(t)
			r := M - float64(j)
			switch {
			case lastR < 0 || (hi-t)%256 == 0:
				p, E = math.Exp(2*r*lc), -math.Expm1(2*(r+1)*lc)
			case r != lastR:
				p *= c2
				E += p * A
			}
			lastR = r
			if p < 1e-250 || size != b {
				lk := lkFull
				if size != b {
					lk = g.logKappa(size)
				}
				put(t, lk+2*r*lc+math.Log(A)-math.Log(-math.Expm1(2*(r+1)*lc)))
				continue
			}
			out[t-base], x = rdp.LinearEpsilonWarm(kFull*p*A/E, L, conv, x)
		}
	default:
		for t := lo; t <= hi; t++ {
			put(t, g.LogRho(t))
		}
	}
}

// allDomain fills out[t − base] = ε_t for t ∈ [lo, hi]; the indices of one
// batch share their bound, which is computed once, and the run's constants
// are computed once (domainPlan).
func allDomain(g Domain, delta float64, conv rdp.Conversion, lo, hi int64, out []float64, base int64) {
	L := numeric.NegLogUp(delta)
	x := 0.0
	p := g.plan()
	lastJ, lr := int64(-1), 0.0
	for t := lo; t <= hi; t++ {
		if j, _ := g.batchOf(t); j != lastJ {
			lastJ, lr = j, p.bound(j).LogRho
		}
		if lr > -700 {
			out[t-base], x = rdp.LinearEpsilonWarm(numeric.ExpUp(lr), L, conv, x)
		} else {
			out[t-base], _ = epsFromLogRho(lr, delta, conv)
		}
	}
}

// allStop fills out[t − base] for t ∈ [lo, hi] for a Stop-like curve c (its m is
// ignored). Over blocks of indices it fixes three candidate orders (the
// optimal orders at the block's ends and their geometric mean) and updates
// each candidate's sum S = Σ_{j ≤ m} expm1(x/j) by one term per index,
// keeping the best of the three bounds: every value is a valid bound at one
// of the candidate orders, and the blocks are short enough (m = n − t + 1
// changes by at most 0.1% across one; below m = 1000 every index is
// optimised on its own) that it is within ~1e−7 (relative) of the per-index
// optimum. With a contraction c < 1 (c.lq < 0) each candidate also keeps
// the sum with F_m in place of 1/m and the smaller bound is used, as in
// stopCurve.
func allStop(c stopCurve, n int64, delta float64, conv rdp.Conversion, lo, hi int64, out []float64, base int64) {
	at := func(t int64) stopCurve {
		c.m = float64(n - t + 1)
		return c
	}
	opt := func(t int64, guess float64) (float64, float64) {
		cc := at(t)
		if cc.lq < 0 {
			return stopContractedOrder(cc, delta, conv, guess, false)
		}
		if !(guess > 1) {
			guess = linearGuess(cc, delta, conv)
		}
		return optimizeOrder(cc, delta, conv, guess, false)
	}
	lnInvN := -math.Log(float64(n))
	contracted := c.lq < 0
	// Blocks in m = n − t + 1, from m = n − hi + 1 up to n − lo + 1.
	mLo, mHi := n-hi+1, n-lo+1
	eHi, aHi := opt(hi, 0)
	out[hi-base] = eHi
	for m := mLo + 1; m <= mHi; {
		m2 := min(mHi, max(m, int64(float64(m)*1.001)))
		t1, t2 := n-m+1, n-m2+1 // t1 ≥ t2
		eLo, aLo := opt(t2, aHi)
		out[t2-base] = eLo
		if t1 > t2 {
			cands := [3]float64{aHi, math.Sqrt(aHi * aLo), aLo}
			// s: Σ expm1(x/j); s2: Σ expm1(x·F_j) when c < 1 (contracted)
			var s, s2, xs, cst, scale [3]float64
			var logPath [3]bool
			m0 := float64(n - t1 + 1)
			for i, a := range cands {
				xs[i] = (a - 1) * a * c.rho1
				s[i] = lnSumExpm1(xs[i], m0)
				if contracted {
					s2[i] = lnSumExpm1C(xs[i], m0, c.lq)
				}
				logPath[i] = xs[i] > 500
				if !logPath[i] {
					s[i], s2[i] = math.Exp(s[i]), math.Exp(s2[i])
				}
				cst[i] = pointConst(a, delta, conv)
				scale[i] = c.k / (a - 1)
			}
			for t := t1; t > t2; t-- {
				m := float64(n - t + 1)
				best := math.Inf(1)
				if contracted {
					best = stopContractedStep(&s, &s2, xs, logPath, m, t != t1, c.lq, n, lnInvN, scale, cst)
				} else {
					for i := range cands {
						var r float64
						if logPath[i] {
							if t != t1 {
								s[i] = addExpm1(s[i], xs[i]/m)
							}
							r = scale[i] * softplus(s[i]+lnInvN)
						} else {
							if t != t1 {
								s[i] += math.Expm1(xs[i] / m)
							}
							r = scale[i] * math.Log1p(s[i]/float64(n))
						}
						best = math.Min(best, r+cst[i])
					}
				}
				out[t-base] = mixtureMargin(math.Max(best, 0), n)
			}
		}
		aHi = aLo
		m = m2 + 1
	}
}

// stopContractedStep is one index of allStop with c < 1: it adds the
// term of m (unless first) to both sums of each candidate order — s with
// 1/m, s2 with F_m — and returns the best bound over the candidates, each
// the smaller of its two values.
func stopContractedStep(s, s2 *[3]float64, xs [3]float64, logPath [3]bool, m float64, add bool, lq float64, n int64, lnInvN float64, scale, cst [3]float64) float64 {
	fm := 0.0
	if add {
		fm = stopF(m, lq)
	}
	best := math.Inf(1)
	for i := range xs {
		var r, r2 float64
		if logPath[i] {
			if add {
				s[i] = addExpm1(s[i], xs[i]/m)
				s2[i] = addExpm1(s2[i], xs[i]*fm)
			}
			r = scale[i] * softplus(s[i]+lnInvN)
			r2 = scale[i] * softplus(s2[i]+lnInvN)
		} else {
			if add {
				s[i] += math.Expm1(xs[i] / m)
				s2[i] += math.Expm1(xs[i] * fm)
			}
			r = scale[i] * math.Log1p(s[i]/float64(n))
			r2 = scale[i] * math.Log1p(s2[i]/float64(n))
		}
		if r2 < r { // a NaN keeps the c = 1 value
			r = r2
		}
		best = math.Min(best, r+cst[i])
	}
	return best
}

// allSkip fills out[t − base] for t ∈ [lo, hi] for Skip. Indices past ⌊n/2⌋
// are never skipped and convert as zCDP. Before, over blocks in which t and
// n − t + 1 change by at most 0.1%, the mixture is evaluated at three
// candidate orders (the optimal orders at the block's ends and their
// geometric mean) and the best bound kept, as in allStop.
func allSkip(s Skip, delta float64, conv rdp.Conversion, lo, hi int64, out []float64, base int64) {
	run := s.base()
	rho := run.Rho
	switch {
	case s.Radius != 0:
		rho = s.rho
	case run.Loss.LogContraction() == 0:
		rho1 := 2 * s.Loss.Lipschitz * s.Loss.Lipschitz / (s.Sigma * s.Sigma)
		rho = func(t int64) float64 { return rho1 / float64(s.N-t+1) }
	}
	L := numeric.NegLogUp(delta)
	h := s.N / 2
	x := 0.0
	for t := max(lo, h+1); t <= hi; t++ {
		out[t-base], x = rdp.LinearEpsilonWarm(rho(t), L, conv, x)
	}
	opt := func(t int64, guess float64) (float64, float64) {
		return epsilonAt(s, t, delta, conv, guess, false)
	}
	end := min(hi, h)
	if lo > end {
		return
	}
	ePrev, aPrev := opt(lo, 0)
	out[lo-base] = ePrev
	for t1 := lo + 1; t1 <= end; {
		width := int64(0.001 * float64(min(t1, s.N-t1+1)))
		t2 := min(end, t1+width)
		e2, a2 := opt(t2, aPrev)
		out[t2-base] = e2
		if t2 > t1 {
			cands := [3]float64{aPrev, math.Sqrt(aPrev * a2), a2}
			var cst [3]float64
			for i, a := range cands {
				cst[i] = pointConst(a, delta, conv)
			}
			for t := t1; t < t2; t++ {
				c := skipCurve{p: s.SkipProbability(t), rho: rho(t)}
				best := math.Inf(1)
				for i, a := range cands {
					best = math.Min(best, c.Epsilon(a)+cst[i])
				}
				out[t-base] = mixtureMargin(math.Max(best, 0), s.N)
			}
		}
		aPrev = a2
		t1 = t2 + 1
	}
}

// pointConst returns an upper bound on rdp.PointEpsilon(a, ε, δ, conv) − ε,
// the part of the conversion that does not depend on the curve: its terms
// are summed and then raised by 8u times their magnitudes, which bounds the
// rounding of the few operations that form them.
func pointConst(a, delta float64, conv rdp.Conversion) float64 {
	L := numeric.NegLogUp(delta)
	if conv == rdp.Classic {
		v := L / (a - 1)
		return numeric.Up(v, 8*numeric.U*math.Abs(v))
	}
	t1, t2, t3 := math.Log1p(-1/a), L/(a-1), math.Log(a)/(a-1)
	return numeric.Up(t1+t2-t3, 8*numeric.U*(math.Abs(t1)+math.Abs(t2)+math.Abs(t3)))
}

// mixtureMargin raises a value computed with about n incremental float
// updates (the running sums of the all-index Skip and Stop paths) by a
// relative 4nu, which bounds their accumulated rounding.
func mixtureMargin(v float64, n int64) float64 {
	if v <= 0 || math.IsInf(v, 0) {
		return v
	}
	return numeric.Up(v, 4*float64(n+1)*numeric.U*v)
}

// addExpm1 returns ln(e^{lnS} + expm1(y)).
func addExpm1(lnS, y float64) float64 {
	if y < 600 && lnS < 700 {
		return math.Log(math.Exp(lnS) + math.Expm1(y))
	}
	if y >= 600 {
		return logAdd2(lnS, y+math.Log(-math.Expm1(-y)))
	}
	return lnS + math.Log1p(math.Expm1(y)*math.Exp(-lnS))
}

func logAdd2(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}
