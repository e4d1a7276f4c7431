package saddle

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
)

// Game is a stochastic bilinear zero-sum game on Δx × Δy: each record z
// carries a payoff matrix A_z ∈ [−a, a]^{dx×dy}, f(x, y; z) = xᵀA_z y, and the
// population payoff is F_D(x, y) = xᵀĀy with Ā = E_{z~D} A_z. x minimises,
// y maximises. For f bilinear, ‖∇f‖∞ ≤ a on the simplices (L0 = a), the
// gradient is a-Lipschitz in ‖·‖1 (L1 = a) and L2 = 0 (seed 003 §1.4 and
// Thm 3.1 (7)).
type Game struct {
	DX, DY int
	// Records holds the n records' matrices, row-major, record r at
	// Records[r·DX·DY:(r+1)·DX·DY].
	Records []float64
	// Mean is Ā, the payoff of the population D the records are drawn
	// from (for data: the uniform law on the file's records).
	Mean []float64
	// Bound is the declared a: every entry of every possible record lies in
	// [−a, a] by construction, never measured on the data.
	Bound float64
	// Description says where the records come from; Rows and Cols name
	// the strategies (may be nil).
	Description string
	Rows, Cols  []string
	// Assumptions lists what the certificate assumes about the records.
	Assumptions []string
}

// N is the number of records.
func (g *Game) N() int { return len(g.Records) / (g.DX * g.DY) }

// Record returns record r's matrix (a view).
func (g *Game) Record(r int) []float64 {
	s := g.DX * g.DY
	return g.Records[r*s : (r+1)*s : (r+1)*s]
}

// maxCells bounds n·dx·dy (memory, not soundness).
const maxCells = 20_000_000

// SyntheticGame draws Ā with entries uniform in [−a, a] from seed, and n
// records whose entries are ±a with P(+a) = (1 + Ā_ij/a)/2, so E A_z = Ā
// exactly and every entry is bounded by a.
func SyntheticGame(n, dx, dy int, a float64, seed uint64) (*Game, error) {
	if err := field.First(field.Count("n", int64(n), 2, 10_000_000), field.Count("dimension", int64(dx), 2, 10_000),
		field.Count("dy", int64(dy), 2, 10_000), field.Positive("payoff_bound", a)); err != nil {
		return nil, err
	}
	if float64(n)*float64(dx)*float64(dy) > maxCells {
		return nil, field.New("n", n, "must keep n·dx·dy ≤ %d (memory), with dx = %d, dy = %d", maxCells, dx, dy)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5add1e))
	g := &Game{DX: dx, DY: dy, Bound: a, Mean: make([]float64, dx*dy), Records: make([]float64, n*dx*dy),
		Description: fmt.Sprintf("synthetic bilinear game (n = %d, %d × %d, payoff bound %g, data seed %d)", n, dx, dy, a, seed)}
	for k := range g.Mean {
		g.Mean[k] = a * (2*rng.Float64() - 1)
	}
	for r := 0; r < n; r++ {
		rec := g.Record(r)
		for k, m := range g.Mean {
			if rng.Float64() < (1+m/a)/2 {
				rec[k] = a
			} else {
				rec[k] = -a
			}
		}
	}
	g.Assumptions = []string{"records are drawn iid with E A_z = Ā exactly, so the measured gap is the population gap"}
	return g, nil
}

// GroupGame builds the robust-classification game of a labelled data set
// (labels ±1, features already on the scale the coordinate bound c is
// declared on): the learner x mixes over the 2d signed experts h_{j,s}(u) =
// s·u_j, the adversary y over the groups g = (class, bin of feature
// groupFeature), the bins cut at the standard normal quantiles k/bins (public
// cut points). Record z = (u, b) pays
//
//	A_z[(j,s), g] = −1[z ∈ g]·b·s·clip(u_j, [−c, c])/(2c) ∈ [−½, ½],
//
// minus half the clipped margin of expert (j,s) if z is in group g: x seeks
// experts with a large margin on every group, y the group where the mixture's
// margin contribution is smallest. The bound a = ½ holds for every possible
// record whatever its values (clipping is a per-record map); c is declared.
func GroupGame(data *dataset.Dataset, c float64, groupFeature, bins int) (*Game, error) {
	if err := field.First(field.Positive("coordinate_bound", c), field.Count("group_bins", int64(bins), 1, 20)); err != nil {
		return nil, err
	}
	d := data.D
	if groupFeature < 0 || groupFeature >= d {
		return nil, field.New("group_feature", groupFeature, "must be a feature column number in [0, %d]", d-1)
	}
	n := data.N()
	dx, dy := 2*d, 2*bins
	if float64(n)*float64(dx)*float64(dy) > maxCells {
		return nil, field.New("data", data.Source, "has too many records × strategies (n·dx·dy > %d)", maxCells)
	}
	cuts := make([]float64, bins-1)
	for k := range cuts {
		cuts[k] = math.Sqrt2 * math.Erfinv(2*float64(k+1)/float64(bins)-1)
	}
	g := &Game{DX: dx, DY: dy, Bound: 0.5, Mean: make([]float64, dx*dy), Records: make([]float64, n*dx*dy)}
	for j := 0; j < d; j++ {
		name := fmt.Sprintf("feature %d", j)
		if j < len(data.Names) {
			name = data.Names[j]
		}
		g.Rows = append(g.Rows, "+"+name, "−"+name)
	}
	for cl := 0; cl < 2; cl++ {
		for k := 0; k < bins; k++ {
			g.Cols = append(g.Cols, fmt.Sprintf("class %+d, bin %d", 2*cl-1, k+1))
		}
	}
	for r := 0; r < n; r++ {
		u, b := data.Row(r), data.Y[r]
		if b != 1 && b != -1 {
			return nil, field.New("label", data.Label, "must be 0/1 or ±1 for the group game, row %d has %v", r+1, b)
		}
		bin := 0
		for bin < len(cuts) && u[groupFeature] >= cuts[bin] {
			bin++
		}
		col := bin
		if b > 0 {
			col += bins
		}
		rec := g.Record(r)
		for j := 0; j < d; j++ {
			m := -b * math.Max(-c, math.Min(c, u[j])) / (2 * c)
			rec[(2*j)*dy+col] = m
			rec[(2*j+1)*dy+col] = -m
		}
	}
	for r := 0; r < n; r++ {
		for k, v := range g.Record(r) {
			g.Mean[k] += v
		}
	}
	for k := range g.Mean {
		g.Mean[k] /= float64(n)
	}
	gname := fmt.Sprintf("feature %d", groupFeature)
	if groupFeature < len(data.Names) {
		gname = data.Names[groupFeature]
	}
	g.Description = fmt.Sprintf("robust classification game on %s: %d signed experts × %d groups (class × %d bins of %s), coordinate bound %g",
		data.Source, dx, dy, bins, gname, c)
	g.Assumptions = []string{
		fmt.Sprintf("payoff entries lie in [−½, ½] for every possible record: coordinates are clipped to the declared bound c = %g, never to a data statistic", c),
		"the population D is the uniform law on the file's records; every repeat runs on a fresh bootstrap sample of n records from it (iid from D, the theorem's setting), so the measured gap is D's gap exactly",
	}
	return g, nil
}

// Bootstrap returns a game whose records are n draws with replacement from
// g's (the same population D, so the same Mean).
func (g *Game) Bootstrap(rng *rand.Rand) *Game {
	n, s := g.N(), g.DX*g.DY
	b := *g
	b.Records = make([]float64, n*s)
	for r := 0; r < n; r++ {
		copy(b.Records[r*s:(r+1)*s], g.Record(rng.IntN(n)))
	}
	return &b
}

// Gap is the duality gap of (x, y) in the population game,
//
//	Gap(x, y) = max_{w∈Δy} F(x, w) − min_{v∈Δx} F(v, y) = max_j (Āᵀx)_j − min_i (Āy)_i,
//
// exact: a linear function on a simplex attains its extremes at vertices
// (seed 003 §1, Gap; notes §2.6).
func (g *Game) Gap(x, y []float64) float64 {
	return gapOf(g.Mean, g.DX, g.DY, x, y)
}

func gapOf(a []float64, dx, dy int, x, y []float64) float64 {
	maxCol := math.Inf(-1)
	for j := 0; j < dy; j++ {
		var s float64
		for i := 0; i < dx; i++ {
			s += a[i*dy+j] * x[i]
		}
		maxCol = math.Max(maxCol, s)
	}
	minRow := math.Inf(1)
	for i := 0; i < dx; i++ {
		var s float64
		for j := 0; j < dy; j++ {
			s += a[i*dy+j] * y[j]
		}
		minRow = math.Min(minRow, s)
	}
	return maxCol - minRow
}
