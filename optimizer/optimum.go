package optimizer

import (
	"math"

	"github.com/privamp/privamp/dataset"
)

// Optimum is the non-private minimiser of the empirical risk over K.
type Optimum struct {
	W []float64
	F float64 // empirical risk at W
	// Stationarity is ‖w − Π_K(w − ∇F(w))‖, 0 exactly at the minimiser.
	Stationarity float64
	// Mu is the Lagrange multiplier of the ball constraint (0 if inactive).
	Mu float64
}

// Minimize computes w* = argmin_{‖w‖ ≤ R} F(w), F the empirical risk of obj
// on data, to high accuracy by a damped Newton–CG method (Hessian–vector
// products (1/n)Σ∂²φ(⟨w, x_i⟩)⟨x_i, v⟩x_i + m·v, Armijo backtracking). If the
// unconstrained minimiser lies in the ball it is the answer; otherwise the
// constraint is active and w* minimises F(w) + (μ/2)‖w‖² for the μ > 0 with
// ‖w(μ)‖ = R (KKT), found by bisection on log μ, then put exactly on the
// sphere.
//
// (gonum/optimize would be the natural choice but cannot be imported in this
// module: it pulls in golang.org/x/tools, which go.sum does not list.)
func Minimize(obj Objective, data *dataset.Dataset, R float64) Optimum {
	d := data.D
	nw := newNewton(obj, data)
	w := make([]float64, d)
	conv := nw.solve(w, 0, 4*R)
	mu := 0.0
	if !math.IsInf(R, 1) && (norm(w) > R || !conv) {
		// ‖w(μ)‖ decreases in μ; at the solution μ = ‖∇F(w*)‖/R ≤ L/R.
		// Solve ψ(μ) = 1/‖w(μ)‖ − 1/R = 0 (nearly linear in μ, as in trust-
		// region methods) by safeguarded secant steps inside a bracket.
		c := obj.Constants(data.MaxNorm(), data.MaxAbsLabel(), R)
		hi := math.Max(c.L/R, 1e-300) * 2
		if math.IsInf(hi, 1) || math.IsNaN(hi) {
			hi = 1e12
		}
		psi := func(mu float64, w []float64) float64 {
			nw.solve(w, mu, math.Inf(1))
			return 1/norm(w) - 1/R
		}
		whi := make([]float64, d)
		phi := psi(hi, whi)
		for phi < 0 && hi < 1e300 { // not yet inside: enlarge
			hi *= 4
			phi = psi(hi, whi)
		}
		lo, plo := 0.0, 1/math.Max(norm(w), 1e-300)-1/R
		if !conv {
			plo = -1 / R
		}
		wm := make([]float64, d)
		for it := 0; it < 100; it++ {
			// secant in the bracket, bisection if it stalls
			mid := lo - plo*(hi-lo)/(phi-plo)
			if !(mid > lo && mid < hi) || it%3 == 2 {
				mid = 0.5 * (lo + hi)
				if lo > 0 {
					mid = math.Sqrt(lo * hi)
				}
			}
			copy(wm, whi)
			pm := psi(mid, wm)
			if pm >= 0 {
				hi, phi = mid, pm
				copy(whi, wm)
			} else {
				lo, plo = mid, pm
			}
			// ‖w‖ within 1e-10 of R (the inner solves are accurate to about
			// that); w is then scaled onto the sphere.
			if phi <= 1e-10/R || hi-lo <= 1e-15*hi {
				break
			}
		}
		w, mu = whi, hi
		if n := norm(w); n > 0 {
			for j := range w {
				w[j] *= R / n
			}
		}
	}
	opt := Optimum{W: w, F: EmpiricalRisk(obj, data, w), Mu: mu}
	g := make([]float64, d)
	empiricalGrad(g, obj, data, w)
	for j := range g {
		g[j] = w[j] - g[j]
	}
	projectBall(g, dot(g, g), R)
	var s float64
	for j := range g {
		dd := w[j] - g[j]
		s += dd * dd
	}
	opt.Stationarity = math.Sqrt(s)
	return opt
}

type newton struct {
	obj                 Objective
	data                *dataset.Dataset
	g, p, r, q, hv, tmp []float64
	h2                  []float64 // ∂²φ(u_i)/n
}

func newNewton(obj Objective, data *dataset.Dataset) *newton {
	d := data.D
	mk := func() []float64 { return make([]float64, d) }
	return &newton{obj: obj, data: data, g: mk(), p: mk(), r: mk(), q: mk(), hv: mk(), tmp: mk(),
		h2: make([]float64, data.N())}
}

func (nt *newton) f(w []float64, mu float64) float64 {
	return EmpiricalRisk(nt.obj, nt.data, w) + 0.5*mu*dot(w, w)
}

func (nt *newton) hess(dst, v []float64, mu float64) {
	clear(dst)
	for i := range nt.h2 {
		if nt.h2[i] == 0 {
			continue
		}
		x := nt.data.Row(i)
		a := nt.h2[i] * dot(x, v)
		for j, xj := range x {
			dst[j] += a * xj
		}
	}
	for j := range dst {
		dst[j] += (nt.obj.L2 + mu) * v[j]
	}
}

// solve minimises F + (μ/2)‖w‖² from w in place by damped Newton–CG; it
// stops early (returning false) when ‖w‖ exceeds stopNorm. It reports
// convergence: the Newton decrement below 1e-20·max(1, |F|), or a gradient
// at rounding level.
func (nt *newton) solve(w []float64, mu, stopNorm float64) bool {
	n := nt.data.N()
	d := len(w)
	fw := nt.f(w, mu)
	var g0 float64
	for it := 0; it < 100; it++ {
		empiricalGrad(nt.g, nt.obj, nt.data, w)
		for j := range nt.g {
			nt.g[j] += mu * w[j]
		}
		gn := norm(nt.g)
		if it == 0 {
			g0 = gn
		}
		if gn <= 1e-15*math.Max(1, g0) {
			return true
		}
		for i := 0; i < n; i++ {
			nt.h2[i] = nt.obj.Loss.Deriv2(dot(w, nt.data.Row(i)), nt.data.Y[i]) / float64(n)
		}
		// CG on H p = −g.
		clear(nt.p)
		for j := range nt.r {
			nt.r[j] = -nt.g[j]
			nt.q[j] = nt.r[j]
		}
		rr := dot(nt.r, nt.r)
		for k := 0; k < min(2*d+10, 250) && rr > 1e-30*gn*gn; k++ {
			nt.hess(nt.hv, nt.q, mu)
			qHq := dot(nt.q, nt.hv)
			if qHq <= 1e-300 {
				if k == 0 {
					copy(nt.p, nt.r) // zero curvature: gradient step
				}
				break
			}
			a := rr / qHq
			for j := range nt.p {
				nt.p[j] += a * nt.q[j]
				nt.r[j] -= a * nt.hv[j]
			}
			rr2 := dot(nt.r, nt.r)
			b := rr2 / rr
			rr = rr2
			for j := range nt.q {
				nt.q[j] = nt.r[j] + b*nt.q[j]
			}
		}
		slope := dot(nt.g, nt.p)
		if !(slope < 0) {
			for j := range nt.p {
				nt.p[j] = -nt.g[j]
			}
			slope = -gn * gn
		}
		if -slope <= 1e-20*math.Max(1, math.Abs(fw)) {
			return true // Newton decrement: F − F* ≈ −slope/2 at rounding level
		}
		t := 1.0
		var ft float64
		for ls := 0; ; ls++ {
			for j := range w {
				nt.tmp[j] = w[j] + t*nt.p[j]
			}
			ft = nt.f(nt.tmp, mu)
			if ft <= fw+1e-4*t*slope {
				break
			}
			if ls >= 40 {
				// no sufficient decrease even for tiny steps: F is flat at
				// rounding level along p, so w is as good as it gets.
				return -slope <= 1e-12*math.Max(1, math.Abs(fw))
			}
			t /= 2
		}
		copy(w, nt.tmp)
		dec := fw - ft
		fw = ft
		if norm(w) > stopNorm {
			return false
		}
		if dec <= 1e-15*math.Max(1, math.Abs(fw)) {
			return true // no progress beyond rounding
		}
	}
	return false
}

func empiricalGrad(grad []float64, obj Objective, data *dataset.Dataset, w []float64) {
	clear(grad)
	n := data.N()
	for i := 0; i < n; i++ {
		x := data.Row(i)
		a := obj.Loss.Deriv(dot(w, x), data.Y[i]) / float64(n)
		for j, xj := range x {
			grad[j] += a * xj
		}
	}
	for j := range grad {
		grad[j] += obj.L2 * w[j]
	}
}
