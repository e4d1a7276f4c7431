package rdp

import (
	"math"
	"runtime"
	"sort"

	"github.com/privamp/privamp/internal/numeric"
)

// Curve is an RDP guarantee: for each order α > 1, D_α(M(D) ‖ M(D')) ≤
// Epsilon(α) for all neighbouring D, D'. Epsilon returns +Inf where no finite
// guarantee holds, and may be called with α = +Inf (pure DP), where curves
// without a pure-DP guarantee return +Inf. Epsilon must be safe for
// concurrent use (a composition of many curves evaluates them in parallel).
type Curve interface {
	Epsilon(alpha float64) float64
}

// Gridded is a Curve known only at finitely many orders. Epsilon at an order
// between grid points returns the value at the next grid order above it
// (sound: D_α is non-decreasing in α), and +Inf above the largest order.
type Gridded interface {
	Curve
	// Orders returns the grid in increasing order. Callers must not modify it.
	Orders() []float64
}

// Linear is the RDP curve ε(α) = ρ·α, that is ρ-zCDP (Bun–Steinke 2016,
// Def. 1.1). It is the exact curve of the Gaussian mechanism.
type Linear float64

// Epsilon returns ρα, rounded up.
func (l Linear) Epsilon(alpha float64) float64 {
	if l == 0 {
		return 0
	}
	return numeric.MulUp(float64(l), alpha)
}

// Rho returns ρ.
func (l Linear) Rho() float64 { return float64(l) }

// Table is a gridded curve given by its values at a set of orders.
type Table struct {
	orders []float64
	eps    []float64
}

// NewTable returns the gridded curve with ε(orders[i]) = eps[i]. Orders must be
// > 1 and distinct; they are sorted. It returns nil if the lengths differ, an
// order is ≤ 1 or NaN, or an ε is negative or NaN.
func NewTable(orders, eps []float64) *Table {
	if len(orders) != len(eps) || len(orders) == 0 {
		return nil
	}
	idx := make([]int, len(orders))
	for i := range idx {
		idx[i] = i
		if !(orders[i] > 1) || math.IsNaN(eps[i]) || eps[i] < 0 {
			return nil
		}
	}
	sort.Slice(idx, func(a, b int) bool { return orders[idx[a]] < orders[idx[b]] })
	t := &Table{orders: make([]float64, len(idx)), eps: make([]float64, len(idx))}
	for i, j := range idx {
		t.orders[i], t.eps[i] = orders[j], eps[j]
		if i > 0 && t.orders[i] == t.orders[i-1] {
			return nil
		}
	}
	return t
}

// Tabulate evaluates c at the given orders.
func Tabulate(c Curve, orders []float64) *Table {
	eps := make([]float64, len(orders))
	for i, a := range orders {
		eps[i] = c.Epsilon(a)
	}
	return NewTable(orders, eps)
}

// Orders returns the grid.
func (t *Table) Orders() []float64 { return t.orders }

// Epsilon returns ε at the smallest grid order ≥ alpha, or +Inf beyond the grid.
func (t *Table) Epsilon(alpha float64) float64 {
	i := sort.SearchFloat64s(t.orders, alpha)
	if i == len(t.orders) {
		return math.Inf(1)
	}
	return t.eps[i]
}

// Compose returns the curve of the adaptive composition of the given
// mechanisms: the sum of their curves (Mironov 2017, Prop. 1). The result is
// gridded on the union of the gridded curves' orders if any input is gridded.
// Sums are rounded up.
func Compose(curves ...Curve) Curve {
	if len(curves) == 1 {
		return curves[0]
	}
	var rho float64
	allLinear := true
	for _, c := range curves {
		l, ok := c.(Linear)
		if !ok {
			allLinear = false
			break
		}
		rho = numeric.AddUp(rho, float64(l))
	}
	if allLinear {
		return Linear(rho)
	}
	s := &sum{curves: append([]Curve(nil), curves...)}
	set := map[float64]bool{}
	for _, c := range curves {
		if g, ok := c.(Gridded); ok {
			for _, a := range g.Orders() {
				set[a] = true
			}
		}
	}
	if len(set) == 0 {
		return s
	}
	orders := make([]float64, 0, len(set))
	for a := range set {
		orders = append(orders, a)
	}
	sort.Float64s(orders)
	return Tabulate(s, orders)
}

type sum struct {
	curves []Curve
	tick   func() // if not nil, called at every evaluation (progress)
}

// parallelSum is the number of curves from which a sum evaluates its
// curves on two goroutines (a schedule of thousands of distinct sampled
// Gaussians: each order costs tens of microseconds a curve).
const parallelSum = 64

func (s *sum) Epsilon(alpha float64) float64 {
	if s.tick != nil {
		s.tick()
	}
	if n := len(s.curves); n >= parallelSum && runtime.GOMAXPROCS(0) > 1 {
		// The second half's values are computed beside the first's and
		// added after them in order: the same sum, bit for bit.
		v := make([]float64, n-n/2)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i, c := range s.curves[n/2:] {
				v[i] = c.Epsilon(alpha)
			}
		}()
		var e float64
		for _, c := range s.curves[:n/2] {
			e = numeric.AddUp(e, c.Epsilon(alpha))
		}
		<-done
		for _, x := range v {
			e = numeric.AddUp(e, x)
		}
		return e
	}
	var e float64
	for _, c := range s.curves {
		e = numeric.AddUp(e, c.Epsilon(alpha))
	}
	return e
}

// Repeat returns the curve of k-fold adaptive composition of c: k·ε(α),
// rounded up. k must be ≥ 0; Repeat(c, 0) is the zero curve.
func Repeat(c Curve, k float64) Curve {
	switch v := c.(type) {
	case Linear:
		return Linear(numeric.MulUp(float64(v), k))
	case *Table:
		eps := make([]float64, len(v.eps))
		for i, e := range v.eps {
			eps[i] = numeric.MulUp(e, k)
		}
		return &Table{orders: v.orders, eps: eps}
	case *repeated:
		return &repeated{c: v.c, k: numeric.MulUp(v.k, k)}
	}
	return &repeated{c: c, k: k}
}

type repeated struct {
	c Curve
	k float64
}

func (r *repeated) Epsilon(alpha float64) float64 {
	if r.k == 0 {
		return 0
	}
	return numeric.MulUp(r.k, r.c.Epsilon(alpha))
}
