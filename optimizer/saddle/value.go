package saddle

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// Equilibrium is the value of the population game and a pair of optimal
// strategies, from two linear programs.
type Equilibrium struct {
	Value float64   `json:"value"`
	X     []float64 `json:"x"`
	Y     []float64 `json:"y"`
	// Gap is the duality gap of (X, Y): zero up to the solver's tolerance.
	Gap float64 `json:"gap"`
}

// Solve returns the value min_x max_y xᵀĀy of the population game with
// optimal strategies, by the classical reduction to a linear program (von
// Neumann; e.g. Dantzig 1951): with B = Ā + s > 0 entrywise, the minimising
// row player's optimal u solves max Σu subject to Bᵀu ≤ 1, u ≥ 0, value(B) =
// 1/Σu and x = u·value(B); the column player's is the same program for −Bᵀ
// shifted. It is used for
// reporting only: the gap itself is exact in closed form (Gap).
func (g *Game) Solve() (Equilibrium, error) {
	x, vx, err := solveRows(g.Mean, g.DX, g.DY)
	if err != nil {
		return Equilibrium{}, err
	}
	// The column player maximises xᵀĀy: it is the row player of −Āᵀ.
	t := make([]float64, g.DX*g.DY)
	for i := 0; i < g.DX; i++ {
		for j := 0; j < g.DY; j++ {
			t[j*g.DX+i] = -g.Mean[i*g.DY+j]
		}
	}
	y, vy, err := solveRows(t, g.DY, g.DX)
	if err != nil {
		return Equilibrium{}, err
	}
	e := Equilibrium{Value: (vx - vy) / 2, X: x, Y: y}
	e.Gap = g.Gap(x, y)
	return e, nil
}

// solveRows returns an optimal mixed strategy of the minimising row player
// of the m×k matrix a and the value min_x max_j (aᵀx)_j.
func solveRows(a []float64, m, k int) ([]float64, float64, error) {
	lo := math.Inf(1)
	for _, v := range a {
		lo = math.Min(lo, v)
	}
	shift := 1 - lo
	// Variables (u_1..u_m, s_1..s_k): Σ_i B_ij u_i + s_j = 1, u, s ≥ 0,
	// minimise −Σu; the slacks are a feasible starting basis.
	A := mat.NewDense(k, m+k, nil)
	b := make([]float64, k)
	c := make([]float64, m+k)
	for i := 0; i < m; i++ {
		c[i] = -1
	}
	basic := make([]int, k)
	for j := 0; j < k; j++ {
		for i := 0; i < m; i++ {
			A.Set(j, i, a[i*k+j]+shift)
		}
		A.Set(j, m+j, 1)
		b[j] = 1
		basic[j] = m + j
	}
	opt, sol, err := lp.Simplex(c, A, b, 1e-10, basic)
	if err != nil {
		return nil, 0, fmt.Errorf("saddle: the game's linear program: %v", err)
	}
	v := -1 / opt
	x := make([]float64, m)
	var s float64
	for i := range x {
		x[i] = math.Max(0, sol[i]*v)
		s += x[i]
	}
	for i := range x {
		x[i] /= s
	}
	return x, v - shift, nil
}
