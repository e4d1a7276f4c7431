package clipped

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"gonum.org/v1/gonum/stat/distuv"
)

// PNSGD is the comparison's name for projected noisy SGD (FMTT18 Alg. 1
// with minibatches, one pass, last iterate) with the worst-case Lipschitz
// constant.
const PNSGD = "pnsgd-worst-case"

// CompareSpec is a comparison on HeavyTailed data at the same (ε, δ).
type CompareSpec struct {
	N        int     `json:"n"`
	Dim      int     `json:"dimension"`
	Nu       float64 `json:"nu"`
	Scale    float64 `json:"scale"`
	MeanNorm float64 `json:"mean_norm"`
	Radius   float64 `json:"radius"`
	// K is the moment order the clipped methods are given (r_k from
	// HeavyTailed.MomentBound) and PNSGD's worst-case bound uses.
	K          float64   `json:"k"`
	Epsilons   []float64 `json:"epsilons"`
	Delta      float64   `json:"delta"`
	Repeats    int       `json:"repeats"`
	Confidence float64   `json:"confidence"`
	Seed       uint64    `json:"seed"`
	// FailureProb q: PNSGD's feature bound X = HeavyTailed.WorstCaseBound(k,
	// n, q) keeps every record unclipped with probability ≥ 1 − q.
	FailureProb float64 `json:"failure_prob"`
	// PNSGDEtas is PNSGD's step-size grid; the best η by measured risk is
	// reported (an oracle choice that favours PNSGD).
	PNSGDEtas []float64 `json:"pnsgd_etas"`
	// PNSGDBatch is PNSGD's batch (0: clipped-sgd's batch).
	PNSGDBatch int `json:"pnsgd_batch"`
	// Methods to run (nil: clipped-acsa, clipped-sgd, clipped-erm, PNSGD).
	Methods []string `json:"methods"`
}

// DefaultCompareSpec is the comparison the package documents: n = 2000,
// d = 10, Student-t ν = 3, k = 2.5, ε ∈ {0.5, 1, 2, 4}, δ = 1e-5, 20 repeats,
// and PNSGD's step-size grid 10^{-1} … 10^{-4}.
func DefaultCompareSpec() CompareSpec {
	return CompareSpec{N: 2000, Dim: 10, Nu: 3, Scale: 1, MeanNorm: 1, Radius: 2, K: 2.5,
		Epsilons: []float64{0.5, 1, 2, 4}, Delta: 1e-5, Repeats: 20, Confidence: 0.95, Seed: 1,
		FailureProb: 0.05, PNSGDEtas: []float64{0.1, 0.03, 0.01, 0.003, 0.001, 0.0003, 0.0001}}
}

// CompareRow is one method at one ε.
type CompareRow struct {
	Method  string  `json:"method"`
	Epsilon float64 `json:"epsilon"`
	// CertifiedEpsilon is the worst-case ε the method's accounting proves
	// (≤ Epsilon).
	CertifiedEpsilon float64 `json:"certified_epsilon"`
	// Excess population risk ½‖w − μ‖² over the repeats: mean, standard
	// deviation, and the Student-t confidence interval of the mean.
	Mean    float64 `json:"mean"`
	SD      float64 `json:"sd"`
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	Repeats int     `json:"repeats"`
	// Clip is τ (clipped methods) or the feature bound X (PNSGD); Sigma the
	// per-step noise; Eta the step parameter.
	Clip  float64 `json:"clip"`
	Sigma float64 `json:"sigma"`
	Steps int     `json:"steps"`
	Batch int     `json:"batch"`
	Eta   float64 `json:"eta"`
}

// Series is one method's curve: x = ε, y = mean excess risk with its
// interval.
type Series struct {
	Method  string    `json:"method"`
	Epsilon []float64 `json:"epsilon"`
	Mean    []float64 `json:"mean"`
	Lower   []float64 `json:"lower"`
	Upper   []float64 `json:"upper"`
}

// Comparison is Compare's typed result.
type Comparison struct {
	Spec        CompareSpec  `json:"spec"`
	MomentBound float64      `json:"moment_bound"`  // r_k given to the clipped methods
	SecondMom   float64      `json:"second_moment"` // r_2
	FeatureX    float64      `json:"feature_bound"` // PNSGD's worst-case X
	Lipschitz   float64      `json:"lipschitz"`     // PNSGD's L = X + R
	Rows        []CompareRow `json:"rows"`
	Series      []Series     `json:"series"`
	Notes       []string     `json:"notes"`
}

// Compare measures the excess population risk ½‖w − μ‖² of the clipped
// methods and of PNSGD at the same (ε, δ) on HeavyTailed data, over
// spec.Repeats fresh samples (the same samples for every method). Fairness:
// both sides get the same declared knowledge, the k-th moment of the
// Student-t law. The clipped methods use r_k (MomentBound); PNSGD, which
// needs a worst-case Lipschitz constant, declares the feature bound X that
// the same moment certifies for the whole sample with probability 1 − q
// (WorstCaseBound), clips records to it (so its certificate holds for every
// data set), and gets the best step size of a grid measured on the risk (a
// non-private choice in its favour). Both certify replace-one neighbours.
// Errors are *field.Error values.
func Compare(spec CompareSpec) (*Comparison, error) {
	h, err := NewHeavyTailed(spec.Dim, spec.Nu, spec.Scale, spec.MeanNorm, spec.Seed)
	if err != nil {
		return nil, err
	}
	switch {
	case spec.N < 10 || spec.N > 1_000_000:
		return nil, field.New("n", spec.N, "must be in [10, 10^6]")
	case !(spec.K >= 2) || spec.K >= spec.Nu:
		return nil, field.New("moment_order", spec.K, "must be in [2, ν = %v): the k-th moment is infinite for k ≥ ν", spec.Nu)
	case !(spec.Radius >= spec.MeanNorm) || math.IsInf(spec.Radius, 0):
		return nil, field.New("radius", spec.Radius, "must be finite and ≥ ‖μ‖ = %v (w* = μ must lie in W)", spec.MeanNorm)
	case spec.Repeats < 2 || spec.Repeats > 10_000:
		return nil, field.New("repeats", spec.Repeats, "must be in [2, 10^4]")
	case !(spec.Confidence > 0 && spec.Confidence < 1):
		return nil, field.New("confidence", spec.Confidence, "must be in (0, 1)")
	case !(spec.FailureProb > 0 && spec.FailureProb < 1):
		return nil, field.New("failure_prob", spec.FailureProb, "must be in (0, 1)")
	case len(spec.Epsilons) == 0:
		return nil, field.New("epsilons", 0, "must not be empty")
	}
	methods := spec.Methods
	if methods == nil {
		methods = []string{ACSA, SGD, ERM, PNSGD}
	}
	R := spec.Radius
	m := Moments{K: spec.K, RK: h.MomentBound(spec.K, R), R2: h.SecondMoment(R), Source: "HeavyTailed.MomentBound (Student-t moments, Minkowski)"}
	c := &Comparison{Spec: spec, MomentBound: m.RK, SecondMom: m.R2}
	c.FeatureX = h.WorstCaseBound(spec.K, spec.N, spec.FailureProb)
	c.Lipschitz = c.FeatureX + R
	samples := make([]*sampleSet, spec.Repeats)
	for i := range samples {
		ds := h.Sample(rand.New(rand.NewPCG(spec.Seed, uint64(i)+1)), spec.N)
		cl := ds.Clone()
		cl.NormalizeRows(c.FeatureX)
		samples[i] = &sampleSet{raw: ds, clipped: cl}
	}
	c.Notes = append(c.Notes,
		fmt.Sprintf("clipped methods: r_k = %.4g (k = %g), r_2 = %.4g, from the Student-t moments (never the sample)", m.RK, spec.K, m.R2),
		fmt.Sprintf("PNSGD: feature bound X = %.4g = (‖μ‖ + √d·(E|t|^k)^{1/k})·(n/q)^{1/k}, q = %g (Markov + union bound), L = X + R = %.4g; records clipped to X; best η of %v by measured risk (favours PNSGD)", c.FeatureX, spec.FailureProb, c.Lipschitz, spec.PNSGDEtas),
		"both certify replace-one neighbours at the same (ε, δ); clipped methods: ρ-zCDP with ρ = ρ*(ε, δ); PNSGD: package shifted's worst-index ε (last iterate)")
	for _, eps := range spec.Epsilons {
		rho, _, err := Budget(0, eps, spec.Delta)
		if err != nil {
			return nil, err
		}
		for _, name := range methods {
			var row CompareRow
			switch name {
			case ACSA, SGD, ERM:
				row, err = compareClipped(name, m, h, samples, rho, eps, spec)
			case PNSGD:
				row, err = comparePNSGD(h, samples, c.FeatureX, eps, spec, m, rho)
			default:
				err = field.New("methods", name, "must be %s, %s, %s or %s", ACSA, SGD, ERM, PNSGD)
			}
			if err != nil {
				return nil, err
			}
			c.Rows = append(c.Rows, row)
		}
	}
	for _, name := range methods {
		s := Series{Method: name}
		for _, r := range c.Rows {
			if r.Method == name {
				s.Epsilon, s.Mean = append(s.Epsilon, r.Epsilon), append(s.Mean, r.Mean)
				s.Lower, s.Upper = append(s.Lower, r.Lower), append(s.Upper, r.Upper)
			}
		}
		c.Series = append(c.Series, s)
	}
	return c, nil
}

type sampleSet struct{ raw, clipped *dataset.Dataset }

func planFor(name string, m Moments, n, d int, R, rho float64) (Plan, error) {
	switch name {
	case ACSA:
		return PlanACSA(n, d, m, 1, R, rho, 0)
	case SGD:
		return PlanSGD(n, d, m, 1, 1, R, rho, 0)
	}
	return PlanERM(n, d, m, 1, R, rho, 0, 0, 0)
}

func compareClipped(name string, m Moments, h *HeavyTailed, samples []*sampleSet, rho, eps float64, spec CompareSpec) (CompareRow, error) {
	p, err := planFor(name, m, spec.N, spec.Dim, spec.Radius, rho)
	if err != nil {
		return CompareRow{}, err
	}
	cert := certify(p.Sensitivity, p.Sigma, p.Steps, p.OnePass, spec.Delta, "")
	ex := make([]float64, len(samples))
	for i, s := range samples {
		out, err := Execute(p, h.Objective(), s.raw, rand.New(rand.NewPCG(spec.Seed^0xc11b, uint64(i))))
		if err != nil {
			return CompareRow{}, err
		}
		ex[i] = h.ExcessRisk(out.W)
	}
	row := summarize(name, eps, ex, spec.Confidence)
	row.CertifiedEpsilon = float64(cert.Epsilon)
	row.Clip, row.Sigma, row.Steps, row.Batch, row.Eta = p.Tau, p.Sigma, p.Steps, p.Batch, p.Eta
	return row, nil
}

func comparePNSGD(h *HeavyTailed, samples []*sampleSet, X, eps float64, spec CompareSpec, m Moments, rho float64) (CompareRow, error) {
	b := spec.PNSGDBatch
	if b == 0 {
		p, err := PlanSGD(spec.N, spec.Dim, m, 1, 1, spec.Radius, rho, 0)
		if err != nil {
			return CompareRow{}, err
		}
		b = p.Batch
	}
	obj := h.Objective()
	c := obj.Constants(X, 0, spec.Radius)
	var best CompareRow
	best.Mean = math.Inf(1)
	for _, eta := range spec.PNSGDEtas {
		tr := shifted.Training{Variant: shifted.VariantPNSGD, N: int64(spec.N), Batch: int64(b), Epochs: 1, Delta: spec.Delta,
			Loss: shifted.Loss{Lipschitz: c.Sens, Smoothness: c.Beta, StrongConvexity: c.M, Eta: eta}, Radius: spec.Radius}
		sigma, err := tr.CalibrateSigma(eps, nil)
		if err != nil {
			return CompareRow{}, field.New("epsilons", eps, "PNSGD cannot meet it: %v", err)
		}
		tr.Sigma = sigma
		g, err := tr.Guarantee()
		if err != nil {
			return CompareRow{}, err
		}
		cert, err := shifted.Epsilon(g, shifted.WorstIndex(g), spec.Delta, rdp.Improved)
		if err != nil {
			return CompareRow{}, err
		}
		ex := make([]float64, len(samples))
		for i, s := range samples {
			r, err := optimizer.NewRunner(optimizer.Config{Training: tr, R: spec.Radius}, obj, s.clipped)
			if err != nil {
				return CompareRow{}, err
			}
			ex[i] = h.ExcessRisk(r.Run(spec.Seed ^ uint64(0x9e5d+i)).W)
		}
		row := summarize(PNSGD, eps, ex, spec.Confidence)
		row.CertifiedEpsilon = cert.Epsilon
		row.Clip, row.Sigma, row.Steps, row.Batch, row.Eta = X, sigma, int(tr.Steps()), b, eta
		if row.Mean < best.Mean {
			best = row
		}
	}
	return best, nil
}

// summarize is the mean, SD and Student-t interval of the excess risks.
func summarize(name string, eps float64, ex []float64, conf float64) CompareRow {
	n := float64(len(ex))
	var mean, v float64
	for _, x := range ex {
		mean += x
	}
	mean /= n
	for _, x := range ex {
		v += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(v / (n - 1))
	h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.5+conf/2) * sd / math.Sqrt(n)
	return CompareRow{Method: name, Epsilon: eps, Mean: mean, SD: sd, Lower: mean - h, Upper: mean + h, Repeats: len(ex)}
}
