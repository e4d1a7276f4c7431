package shifted

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// The per-record bound as it was computed before domainPlan (every
// constant recomputed for each record), kept here as the reference that
// the plan must reproduce bit for bit.
func domainBoundRef(g Domain, t int64) DomainBound {
	j, _ := g.batchOf(t)
	M, E := g.StepsPerEpoch(), g.epochs()
	base := DomainBound{LogRho: g.SGD.LogRho(t), Bound: "fmtt18", Uses: E}
	lc := g.LogContraction()
	if math.IsInf(lc, -1) {
		return base
	}
	d := g.Radius * float64(g.batch()) / (g.Loss.Eta * g.Loss.Lipschitz)
	lk := g.logKappa(g.batch())
	r := M - j
	u, lf := bestWindowRef(E, M, r, d, lc)
	if u < 0 || !(lk+lf < base.LogRho) {
		return base
	}
	// The window starts right after the record's use in pass E − u.
	start := (E-u-1)*M + j
	return DomainBound{LogRho: lk + lf, Start: start, Uses: u, Bound: "domain"}
}

func bestWindowRef(E, M, r int64, d, lc float64) (int64, float64) {
	if lc == 0 {
		return bestWindow1(E, M, r, d)
	}
	best, bu := math.Inf(1), int64(-1)
	try := func(u int64) {
		if u < 0 || u > E-1 || (u == 0 && r == 0) {
			return
		}
		if lf := windowLogCostRef(u, M, r, d, lc); lf < best || (lf == best && u < bu) {
			best, bu = lf, u
		}
	}
	// c < 1: beyond U the window's initial distance is contracted by
	// c^{UM} ≤ 1e−18 relative to d.
	U := E - 1
	if k := (41.5 + math.Log(math.Max(d, 1))) / (-lc * float64(M)); k < float64(U) {
		U = int64(k) + 1
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

func windowLogCostRef(u, M, r int64, d, lc float64) float64 {
	L := u*M + r
	Lf := float64(L)
	// ln Σ_{i=a+1}^{b} w_i²
	lnV := func(a, b int64) float64 {
		return 2*float64(L-b)*lc + lnGeom(float64(b-a), 2*lc)
	}
	// ln of the sensitivity in steps a+1..b
	lnS := func(a, b int64) float64 {
		terms := make([]float64, 0, 2)
		if a == 0 {
			terms = append(terms, math.Log(d)+lc+(Lf-1)*lc)
		}
		mlo, mhi := a/M+1, min(u, b/M)
		if mhi >= mlo {
			terms = append(terms, float64(L-mhi*M)*lc+lnGeom(float64(mhi-mlo+1), float64(M)*lc))
		}
		if len(terms) == 0 {
			return math.Inf(-1)
		}
		return numeric.LogSumExp(terms)
	}
	ks := []int64{0}
	addk := func(k int64) {
		if k >= 1 && k <= L-1 && k > ks[len(ks)-1] {
			ks = append(ks, k)
		}
	}
	if u >= 1 {
		addk(max(1, M-1))
		addk(max(1, u*M-1))
	}
	ks = append(ks, L)
	slope := func(a, b int64) float64 { return lnS(a, b) - lnV(a, b) }
	h := make([]int64, 0, 4)
	for _, k := range ks {
		for len(h) >= 2 {
			a, b := h[len(h)-2], h[len(h)-1]
			// b stays a vertex only if the slope increases there.
			if slope(a, b) < slope(b, k) {
				break
			}
			h = h[:len(h)-1]
		}
		h = append(h, k)
	}
	terms := make([]float64, 0, 3)
	for i := 1; i < len(h); i++ {
		if s := lnS(h[i-1], h[i]); !math.IsInf(s, -1) {
			terms = append(terms, 2*s-lnV(h[i-1], h[i]))
		}
	}
	if len(terms) == 0 {
		return math.Inf(-1)
	}
	return numeric.LogSumExp(terms)
}

// TestDomainPlanMatchesDirect: the bounds computed through domainPlan (and
// logFPlan) equal the direct per-record formulas exactly, on random runs
// with c = 1 and c < 1, batches, one or many passes.
func TestDomainPlanMatchesDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 2026))
	var kinds [2]int // domain bounds with c = 1 and with c < 1
	trials := 100
	if testing.Short() {
		trials = 30 // both kinds of bound still met (checked below)
	}
	for trial := 0; trial < trials; trial++ {
		n := 1 + rng.Int64N(5000)
		b := int64(1)
		if rng.IntN(3) == 0 {
			b = 1 + rng.Int64N(64)
		}
		E := []int64{1, 2, 3, 10, 100, 1000}[rng.IntN(6)]
		eta := math.Pow(10, -3+3*rng.Float64())
		beta := 1 / eta * rng.Float64()
		loss := Loss{Lipschitz: 0.1 + 3*rng.Float64(), Eta: eta}
		if rng.IntN(4) != 0 {
			loss.Smoothness = beta
			loss.StrongConvexity = beta * math.Pow(10, -6*rng.Float64())
		}
		g := Domain{SGD: SGD{N: n, Batch: b, Epochs: E, Sigma: 0.1 + 5*rng.Float64(), Loss: loss}, Radius: math.Pow(10, -2+4*rng.Float64())}
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		p := g.plan()
		M := g.StepsPerEpoch()
		lc := g.LogContraction()
		for k := 0; k < 20; k++ {
			idx := 1 + rng.Int64N(n)
			if k == 0 {
				idx = n
			}
			got, want := g.Bound(idx), domainBoundRef(g, idx)
			if got.Bound == "domain" {
				if lc < 0 {
					kinds[1]++
				} else {
					kinds[0]++
				}
			}
			if got != want {
				t.Fatalf("%+v, t = %d: plan %+v, direct %+v", g, idx, got, want)
			}
			j, _ := g.batchOf(idx)
			if a, w := p.sgd.at(j), logF(j, M, E, lc); a != w && !(math.IsNaN(a) && math.IsNaN(w)) {
				t.Fatalf("%+v, j = %d: logFPlan %v, logF %v", g, j, a, w)
			}
		}
		if n <= 1000 {
			all, err := EpsilonsAll(g, 1e-5, rdp.Improved)
			if err != nil {
				t.Fatal(err)
			}
			ref := make([]float64, n)
			allDomainRef(g, 1e-5, rdp.Improved, 1, n, ref)
			for i := range all {
				if all[i] != ref[i] {
					t.Fatalf("%+v, t = %d: all-index %v, direct %v", g, i+1, all[i], ref[i])
				}
			}
		}
	}
	if kinds[0] == 0 || kinds[1] == 0 {
		t.Fatalf("window bounds with c = 1 and c < 1: %v; the comparison needs both", kinds)
	}
	t.Logf("%d runs; domain bounds with c = 1 and c < 1: %v", trials, kinds)
}

// allDomainRef is allDomain with the direct per-record bound.
func allDomainRef(g Domain, delta float64, conv rdp.Conversion, lo, hi int64, out []float64) {
	L := numeric.NegLogUp(delta)
	x := 0.0
	lastJ, lr := int64(-1), 0.0
	for t := lo; t <= hi; t++ {
		if j, _ := g.batchOf(t); j != lastJ {
			lastJ, lr = j, domainBoundRef(g, t).LogRho
		}
		if lr > -700 {
			out[t-1], x = rdp.LinearEpsilonWarm(numeric.ExpUp(lr), L, conv, x)
		} else {
			out[t-1], _ = epsFromLogRho(lr, delta, conv)
		}
	}
}
