package shifted

import (
	"fmt"
	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// Options are the choices of an analysis that are not part of the run
// itself.
type Options struct {
	// Conversion is the RDP → (ε, δ) conversion.
	Conversion rdp.Conversion
	// CompositionFallback answers with the run's Composition (every iterate
	// released, FMTT18 Lemma 27) when the gradient step does not contract
	// (η > 2/β), instead of refusing the run.
	CompositionFallback bool
	// Nonsmooth says the loss is convex and Lipschitz but not smooth: it is
	// replaced by its Gaussian smoothing with the least λ for which the step
	// contracts (FMTT18 Thm 33, SmoothingForStep). It needs the step size η
	// and no declared smoothness or strong convexity. Dimension is the
	// model's dimension d, for the smoothing error Lλ√d (0: 1).
	Nonsmooth bool
	Dimension int64
	// Indices (1-based private positions) to report one by one; Analyze
	// reports a Summary over all positions when there are none. Target, when
	// > 0, asks the Summary for the share of positions with ε_t ≤ Target.
	Indices []int64
	Target  float64
	// Progress, if not nil, is told how much of a long computation is done:
	// PersonCurves over every index reports the indices computed of n per
	// variant (done of variants·n, from 0 to the total).
	Progress dp.Progress `json:"-"`
}

// Model is a Training mapped to the per-person guarantee of what it
// releases: its final iterate (Training.Guarantee), or — when the step does
// not contract and Options.CompositionFallback asks for it — every iterate
// (Training.Composition).
type Model struct {
	Training  Training
	Guarantee PerPerson
	// Fallback reports that Guarantee is the composition bound.
	Fallback  bool
	Smoothing *Smoothing
	// Notes say what a reader must know beyond Source and Assumptions.
	Notes []string
}

// NewModel validates the run (with the smoothing of Options.Nonsmooth
// applied to its loss) and maps it to its guarantee. Errors are *dp.Error
// values naming the Training's JSON keys, or "nonsmooth", "dimension".
func NewModel(r Training, o Options) (Model, error) {
	m := Model{}
	if o.Nonsmooth {
		switch {
		case r.Loss.Eta == 0:
			return m, field.New("nonsmooth", nil, "needs the step size η: the smoothing λ = ηL/2 depends on it")
		case r.Loss.Smoothness != 0:
			return m, field.New("smoothness", r.Loss.Smoothness, "cannot be declared for a loss that is not smooth: the smoothed loss has β = 2/η")
		case r.Loss.StrongConvexity != 0:
			return m, field.New("strong_convexity", r.Loss.StrongConvexity, "cannot be combined with a loss that is not smooth")
		case o.Dimension < 0 || o.Dimension > MaxN:
			return m, field.New("dimension", o.Dimension, "must be a whole number in [1, %d]", MaxN)
		}
		sm, err := SmoothingForStep(r.Loss.Eta, r.Loss.Lipschitz, max(o.Dimension, 1))
		if err != nil {
			return m, field.New("eta", r.Loss.Eta, "must be a finite number > 0 with a finite L > 0 for the smoothing (%v)", err)
		}
		m.Smoothing = &sm
		r.Loss.Smoothness = sm.Smoothness
		m.Notes = append(m.Notes, fmt.Sprintf("the loss is not smooth: it is replaced by its Gaussian smoothing with λ = ηL/2 = %s (Thm 33), which is %s-smooth so that η ≤ 2/β holds, at an approximation error of at most Lλ√d = %s",
			dp.Num(sm.Lambda), dp.Num(sm.Smoothness), dp.Noise(sm.Error)))
	}
	if r.Variant != VariantPNSGD && r.EpochCount() > 1 {
		return m, field.New("epochs", r.Epochs, "must be 1 for the %s variant: %s-PNSGD is analysed for one pass (Thm 24, 26)", r.Variant, r.Variant)
	}
	r.Batch, r.Epochs, r.Tasks = r.BatchSize(), r.EpochCount(), r.TaskCount()
	if r.Order == "" {
		r.Order = Fixed
	}
	m.Training = r
	if !r.Loss.Contracts() && o.CompositionFallback {
		v := r
		v.Loss.Smoothness, v.Loss.StrongConvexity = 0, 0
		if err := v.Validate(); err != nil {
			return m, err
		}
		m.Fallback, m.Guarantee = true, r.Composition()
		m.Notes = append(m.Notes, fmt.Sprintf("the step does not contract (η = %v > 2/β = %v): no amplification by iteration; the value shown is the composition bound of every iterate (Lemma 27 with composition), the fallback asked for", r.Loss.Eta, 2/r.Loss.Smoothness))
		return m, nil
	}
	g, err := r.Guarantee()
	if err != nil {
		return m, err
	}
	m.Guarantee = g
	switch {
	case r.Variant == VariantStop:
		m.Notes = append(m.Notes, "FMTT18 Thm 26 (and Thm 32, which uses it) claims (α, 4αL² ln n/(nσ²)); that is not sound: its last step bounds H_{n−t+1} by ln(n − t + 1), but H_m > ln m (the claim is 0 at n = 1). privamp uses the exact mixture over the stopping time instead (derivation: docs/amplification.md §Skip and Stop mixtures), which needs no condition on σ")
	case r.Variant == VariantSkip:
		m.Notes = append(m.Notes, "Skip-PNSGD: the exact mixture over the skip count t₀ (derivation: docs/amplification.md §Skip and Stop mixtures) is used; it is never above Thm 24's (α, 2αL²/(σ²(n − t + 1)))")
	case r.EpochCount() > 1:
		m.Notes = append(m.Notes, "Thm 35 states (α, 4αL²/σ²) for n passes with one record per step; privamp computes the optimal shift allocation of Thm 22 (docs/amplification.md §Optimal shift allocation), which is never above it in that setting")
	}
	if note := r.DomainNote(); note != "" {
		m.Notes = append(m.Notes, note)
	}
	if r.Variant == VariantPNSGD && r.Public > 0 {
		m.Notes = append(m.Notes, "Cor 31 runs Skip-PNSGD on the private then public records; the fixed-order run shown is at most as private for every private index")
	}
	return m, nil
}

// Source cites the theorem behind the model's guarantee.
func (m Model) Source() string {
	if m.Fallback {
		return "composition bound only (the step does not contract): " + m.Guarantee.Source()
	}
	return m.Guarantee.Source()
}

// paperClaimRho returns the ρ that Thm 26 or 32 claims (not sound), for
// Stop and Tasks.
func (m Model) paperClaimRho() *dp.Loss {
	var rho float64
	switch g := m.Guarantee.(type) {
	case Stop:
		rho = g.PaperClaimRho()
	case Tasks:
		rho = g.PaperClaimRho()
	default:
		return nil
	}
	q := dp.Loss(rho)
	return &q
}

// IndexEpsilon is the guarantee of one private position.
type IndexEpsilon struct {
	Index   int64   `json:"index"`
	Epsilon dp.Loss `json:"epsilon"`
	Order   dp.Num  `json:"order"`
	// Rho is ρ_t for guarantees that are zCDP (absent for the mixtures).
	Rho *dp.Loss `json:"rho,omitempty"`
	// Bound says, for a bounded-domain run (Domain), which bound the index
	// got: "fmtt18" (the whole run) or "domain" (the window that starts
	// after step WindowStart); absent otherwise.
	Bound       string `json:"bound,omitempty"`
	WindowStart int64  `json:"window_start,omitempty"`
}

// At returns the guarantee of index t at the run's δ.
func (m Model) At(t int64, conv rdp.Conversion) (IndexEpsilon, error) {
	pr, err := Epsilon(m.Guarantee, t, m.Training.Delta, conv)
	if err != nil {
		return IndexEpsilon{}, field.New("index", t, "must be in [1, %d] (the 1-based position of a private record)", m.Guarantee.Len())
	}
	p := IndexEpsilon{Index: t, Epsilon: dp.Loss(pr.Epsilon), Order: dp.Num(pr.Order)}
	if z, ok := m.Guarantee.(ZCDP); ok {
		rho := dp.Loss(numeric.ExpUp(z.LogRho(t)))
		p.Rho = &rho
	}
	if d, ok := m.Guarantee.(Domain); ok {
		b := d.Bound(t)
		p.Bound, p.WindowStart = b.Bound, b.Start
	}
	return p, nil
}

// Analysis is the per-person privacy of one training run: its guarantee at
// chosen indices or summarised over every private position, with the
// composition bound beside it, sources, assumptions and notes.
type Analysis struct {
	Training
	// Name describes the run in words.
	Name       string `json:"name"`
	Conversion string `json:"conversion"`
	// CompositionFallback reports that the step does not contract and the
	// values are the composition bound (Options.CompositionFallback).
	CompositionFallback bool       `json:"composition_fallback"`
	Smoothing           *Smoothing `json:"smoothing,omitempty"`
	// Indices holds the chosen indices; Summary the distribution otherwise.
	Indices []IndexEpsilon `json:"indices,omitempty"`
	Summary *Summary       `json:"summary,omitempty"`
	// AllIteratesEpsilon is the worst private record's ε when every iterate
	// is released (Training.Composition), the row every analysis shows.
	AllIteratesEpsilon dp.Loss `json:"all_iterates_epsilon"`
	AllIteratesSource  string  `json:"all_iterates_source"`
	// PaperClaimRho is the ρ that FMTT18 Thm 26 or 32 claims for Stop or
	// Tasks. It is NOT sound and is reported for comparison only.
	PaperClaimRho *dp.Loss `json:"paper_claim_rho_not_sound,omitempty"`
	Source        string   `json:"source"`
	Assumptions   []string `json:"assumptions"`
	Notes         []string `json:"notes"`
}

// Analyze maps the run to its guarantee (NewModel) and evaluates it at
// o.Indices, or summarises it over every private position (Summarize).
func Analyze(r Training, o Options) (Analysis, error) {
	m, err := NewModel(r, o)
	if err != nil {
		return Analysis{}, err
	}
	if err := field.NonNegative("target_epsilon", o.Target); err != nil {
		return Analysis{}, err
	}
	conv := o.Conversion
	a := Analysis{
		Training: m.Training, Name: m.Training.Name(), Conversion: conv.String(),
		CompositionFallback: m.Fallback, Smoothing: m.Smoothing,
		Source:      m.Source() + "; " + conv.Source(),
		Assumptions: m.Guarantee.Assumptions(), Notes: m.Notes,
	}
	for _, t := range o.Indices {
		p, err := m.At(t, conv)
		if err != nil {
			return Analysis{}, err
		}
		a.Indices = append(a.Indices, p)
	}
	if len(o.Indices) == 0 {
		s, err := Summarize(m.Guarantee, m.Training.Delta, conv, o.Target)
		if err != nil {
			return Analysis{}, err
		}
		a.Summary = &s
	}
	comp := m.Training.Composition()
	pr, err := Epsilon(comp, comp.Len(), m.Training.Delta, conv)
	if err != nil {
		return Analysis{}, err
	}
	a.AllIteratesEpsilon, a.AllIteratesSource = dp.Loss(pr.Epsilon), comp.Source()+"; "+conv.Source()
	if !m.Fallback {
		a.PaperClaimRho = m.paperClaimRho()
	}
	return a, nil
}
