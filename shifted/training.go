package shifted

import (
	"fmt"
	"math"
	"strings"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
)

// Variant is the output rule of projected noisy SGD (FMTT18 §4). It is the
// one variant type of privamp: the accounting (package shifted), the planner
// (shifted/plan), the optimizer and the command line all use it.
type Variant string

// The variants.
const (
	// VariantPNSGD runs every step and releases the last iterate: Alg. 1 for one
	// pass with one record per step (Thm 23), Alg. 2 for several fixed-order
	// passes (Thm 35), with minibatches, public records (Cor 31) and strongly
	// convex losses as the Training's fields say (SGD).
	VariantPNSGD Variant = "pnsgd"
	// VariantSkip draws t₀ uniformly from {0, …, ⌊n/2⌋} and skips the first t₀
	// records (Thm 24, 30; Skip).
	VariantSkip Variant = "skip"
	// VariantStop draws T uniformly from {1, …, n} and releases w_T (Thm 26, 29, 32
	// repaired; Stop, Tasks).
	VariantStop Variant = "stop"
)

// Variants lists the variants in the order the help texts give them.
var Variants = []Variant{VariantPNSGD, VariantSkip, VariantStop}

// ParseVariant accepts the variants' names (case-sensitive, as every name
// in privamp's inputs).
func ParseVariant(s string) (Variant, error) {
	for _, v := range Variants {
		if string(v) == s {
			return v, nil
		}
	}
	return "", field.New("variant", s, "must be one of %s", variantList())
}

func variantList() string {
	names := make([]string, len(Variants))
	for i, v := range Variants {
		names[i] = string(v)
	}
	return strings.Join(names, ", ")
}

// Order is how the records are arranged before a pass.
type Order string

// The orders.
const (
	// Fixed processes the records in one data-independent order, the same in
	// every pass: the setting of every per-person bound of this package.
	Fixed Order = "fixed"
	// Shuffled applies one secret uniformly random permutation before a
	// single pass; a person's position is then random, so only the worst case
	// over positions bounds them (per-position claims do not apply).
	Shuffled Order = "shuffled"
)

// Training is privamp's one description of a noisy-SGD training run that
// releases only its final iterate: the algorithm, the counts, the noise,
// the step size and the loss constants its guarantee needs. Every command
// that analyses, plans, runs or verifies such a run builds one Training,
// validates it once (Validate) and maps it to its guarantee once
// (Guarantee, Composition).
//
// The loss constants in Loss are what the guarantee relies on. Where they
// come from is the caller's record: declared by the user (pnsgd, plan,
// verify) or derived from declared bounds on the data (run, through package
// optimizer); never measured on the private data.
type Training struct {
	Variant Variant `json:"variant"`
	// N is the number of private records (positions 1..N).
	N int64 `json:"n"`
	// Public records follow the private ones in every pass (Cor 31).
	Public int64 `json:"public"`
	// Batch is the number of records per step (1: PNSGD); Epochs the number
	// of passes in the same order; Tasks the number of independent
	// Stop-PNSGD runs on the same records (Thm 32). Zero means 1.
	Batch  int64 `json:"batch"`
	Epochs int64 `json:"epochs"`
	Tasks  int64 `json:"tasks"`
	// Order of the records (empty: Fixed).
	Order Order `json:"order"`
	// Sigma is the standard deviation σ of the Gaussian noise added to each
	// step's (average) gradient.
	Sigma float64 `json:"sigma"`
	// Loss holds L, β, m and η.
	Loss Loss `json:"loss"`
	// Delta is the δ of the (ε, δ) statements about this run.
	Delta float64 `json:"delta"`
	// Radius R > 0 of a ball that contains the set every step projects onto
	// (0: no bounded domain declared). For fixed-order PNSGD with a given
	// step size the per-index bound is then Domain's, which stops growing
	// with the number of passes (Skip's mixture uses it per component);
	// elsewhere DomainNote says why it does not apply. It must be declared,
	// never measured on the data.
	Radius float64 `json:"radius,omitempty"`
}

func one(x int64) int64 { return max(x, 1) }

// BatchSize, EpochCount and TaskCount return the counts with zero read as 1.
func (r Training) BatchSize() int64  { return one(r.Batch) }
func (r Training) EpochCount() int64 { return one(r.Epochs) }
func (r Training) TaskCount() int64  { return one(r.Tasks) }

// StepsPerEpoch returns ⌈(N + Public)/Batch⌉.
func (r Training) StepsPerEpoch() int64 {
	b := r.BatchSize()
	return (r.N + r.Public + b - 1) / b
}

// Steps returns the number of noisy steps of one task: Epochs·⌈(N + Public)/Batch⌉.
func (r Training) Steps() int64 { return r.EpochCount() * r.StepsPerEpoch() }

// Validate checks every field and the combinations the analysis covers.
// Errors are *dp.Error values naming the field by its JSON key.
func (r Training) Validate() error {
	if _, err := ParseVariant(string(r.Variant)); err != nil {
		return err
	}
	if err := field.First(
		field.Count("n", r.N, 1, MaxN),
		field.Count("public", r.Public, 0, MaxN),
		field.Count("epochs", r.EpochCount(), 1, MaxN),
		field.Count("tasks", r.TaskCount(), 1, MaxN),
		field.Positive("sigma", r.Sigma),
		field.OpenUnit("delta", r.Delta),
		r.validateRadius(),
		r.Loss.Validate(),
	); err != nil {
		return err
	}
	if r.Batch < 0 || r.Batch > r.N+r.Public {
		return field.New("batch", r.Batch, "must be a whole number in [1, %d] (the records in a pass)", r.N+r.Public)
	}
	if r.Epochs < 0 || r.Tasks < 0 {
		return field.New("epochs", r.Epochs, "must be a whole number ≥ 1")
	}
	if s := float64(r.EpochCount()) * float64(r.StepsPerEpoch()); s > float64(MaxSteps) {
		return field.New("epochs", r.Epochs, "gives %g steps (epochs × ⌈(n + public)/batch⌉), more than %d", s, MaxSteps)
	}
	switch r.Order {
	case "", Fixed:
	case Shuffled:
		if r.EpochCount() > 1 {
			return field.New("order", string(r.Order), "must be fixed with several epochs: a reshuffle each pass puts a person at different positions, and the analysis needs one fixed order")
		}
	default:
		return field.New("order", string(r.Order), "must be fixed or shuffled")
	}
	if r.Variant != VariantPNSGD {
		why := fmt.Sprintf("for the %s variant: %s-PNSGD is analysed (Thm 24, 26 and the exact mixtures) for one pass with one record per step", r.Variant, r.Variant)
		if r.BatchSize() > 1 {
			return field.New("batch", r.Batch, "must be 1 "+why)
		}
		if r.EpochCount() > 1 {
			return field.New("epochs", r.Epochs, "must be 1 "+why)
		}
	}
	if r.TaskCount() > 1 && r.Variant != VariantStop {
		return field.New("tasks", r.Tasks, "must be 1 unless the variant is stop: Thm 32's k tasks are Stop-PNSGD runs")
	}
	return nil
}

// Validate checks the loss constants and that the gradient step contracts
// (η ≤ 2/β, FMTT18 Prop. 18). Fields are named lipschitz, smoothness,
// strong_convexity and eta.
func (l Loss) Validate() error {
	if err := field.First(
		field.Positive("lipschitz", l.Lipschitz),
		field.NonNegative("smoothness", l.Smoothness),
		field.NonNegative("strong_convexity", l.StrongConvexity),
		field.NonNegative("eta", l.Eta),
	); err != nil {
		return err
	}
	switch {
	case l.StrongConvexity > 0 && (l.Smoothness == 0 || l.Eta == 0):
		return field.New("strong_convexity", l.StrongConvexity, "needs the smoothness β and the step size η: the contraction is max(|1 − ηm|, |1 − ηβ|)")
	case l.Smoothness > 0 && l.StrongConvexity > l.Smoothness:
		return field.New("strong_convexity", l.StrongConvexity, "must be ≤ the smoothness β = %v: no function is both", l.Smoothness)
	case l.Smoothness > 0 && l.Eta > 0 && l.Eta*l.Smoothness > 2:
		return field.New("eta", l.Eta, "must be ≤ 2/β = %v: a larger step does not contract (FMTT18 Prop. 18), so amplification by iteration does not apply", 2/l.Smoothness)
	}
	return nil
}

// Contracts reports whether the gradient step is known not to expand
// distances: η ≤ 2/β, or η or β not given (then it is assumed, and the
// guarantee's assumptions say so).
func (l Loss) Contracts() bool {
	return !(l.Smoothness > 0 && l.Eta > 0 && l.Eta*l.Smoothness > 2)
}

// Guarantee returns the per-person guarantee of the run's final iterate
// (amplification by iteration): SGD for PNSGD, Skip, Stop or Tasks. Indices
// are the private positions 1..N. The run must validate.
func (r Training) Guarantee() (PerPerson, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	var g PerPerson
	switch r.Variant {
	case VariantPNSGD:
		g = r.sgd()
		if ok, _ := r.domainApplies(); ok {
			g = Domain{SGD: r.sgd(), Radius: r.Radius}
		}
	case VariantSkip:
		sk := Skip{N: r.N + r.Public, Sigma: r.Sigma, Loss: r.Loss}
		if ok, _ := r.domainApplies(); ok {
			sk.Radius = r.Radius
		}
		g = sk
	case VariantStop:
		st := Stop{N: r.N + r.Public, Sigma: r.Sigma, Loss: r.Loss}
		g = st
		if r.TaskCount() > 1 {
			g = Tasks{Stop: st, K: r.TaskCount()}
		}
	}
	if r.Variant != VariantPNSGD && r.Public > 0 {
		g = privateOnly{PerPerson: g, n: r.N, public: r.Public}
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	return g, nil
}

func (r Training) validateRadius() error {
	if r.Radius != 0 && (math.IsNaN(r.Radius) || math.IsInf(r.Radius, 0) || !(r.Radius > 0)) {
		return field.New("radius", r.Radius, "must be a finite number > 0 (the radius of a ball containing the projection set), or absent for no bounded domain")
	}
	return nil
}

// domainApplies reports whether the bounded-domain bound (Domain) applies
// to the run, and why not when it does not.
func (r Training) domainApplies() (bool, string) {
	switch {
	case r.Radius == 0:
		return false, "no radius declared: the iterates are not known to stay in a bounded set"
	case r.Variant != VariantPNSGD && r.Variant != VariantSkip:
		return false, fmt.Sprintf("the bounded-domain bound is derived for the pnsgd and skip variants only; the %s variant keeps its own bound", r.Variant)
	case r.Order == Shuffled:
		return false, "the bounded-domain bound is derived for a fixed order; a secret shuffle keeps its own bound"
	case !(r.Loss.Eta > 0):
		return false, "the bounded-domain bound needs the step size η (eta): the diameter's ratio to a step's sensitivity is Rb/(ηL)"
	case math.IsInf(r.sgd().LogContraction(), -1):
		return false, "with contraction c = 0 every step forgets the past; the bounded domain cannot help"
	}
	return true, ""
}

// DomainNote says whether the declared radius is used: "" when no radius is
// declared, otherwise a sentence (for the Notes of an analysis).
func (r Training) DomainNote() string {
	if r.Radius == 0 {
		return ""
	}
	if ok, why := r.domainApplies(); !ok {
		return fmt.Sprintf("radius %v declared but the bounded-domain bound does not apply: %s; the bound shown is FMTT18's", r.Radius, why)
	}
	return fmt.Sprintf("bounded domain (radius %v): each index gets the smaller of FMTT18's bound and Thm 22 on the last steps from an initial distance 2R (docs/amplification.md §Bounded domain: privacy that stops growing); it stops growing with the number of passes", r.Radius)
}

// sgd is the fixed-order run of every step (the PNSGD variant, and the run
// whose every iterate Composition releases).
func (r Training) sgd() SGD {
	return SGD{N: r.N, Public: r.Public, Batch: r.BatchSize(), Epochs: r.EpochCount(), Sigma: r.Sigma, Loss: r.Loss}
}

// Composition returns the guarantee of the same run when every iterate is
// released: the Gaussian steps that use a record compose (FMTT18 Lemma 27,
// Mironov 2017 Prop. 1), over every pass and every task. It needs neither
// smoothness nor contraction, and it holds for Skip and Stop as well (they
// release a post-processing of a prefix of the iterates).
func (r Training) Composition() Local {
	s := r.sgd()
	s.Epochs = r.EpochCount() * r.TaskCount()
	s.Loss = Loss{Lipschitz: r.Loss.Lipschitz}
	return Local{SGD: s}
}

// Name describes the run in words ("Skip-PNSGD", "PNMSGD, 5 fixed-order
// passes, batches of 256").
func (r Training) Name() string {
	var parts []string
	switch r.Variant {
	case VariantPNSGD:
		if r.EpochCount() > 1 {
			parts = append(parts, fmt.Sprintf("PNMSGD, %d fixed-order passes", r.EpochCount()))
		} else {
			parts = append(parts, "single-pass PNSGD")
		}
		if r.BatchSize() > 1 {
			parts = append(parts, fmt.Sprintf("batches of %d", r.BatchSize()))
		}
	case VariantSkip:
		parts = append(parts, "Skip-PNSGD")
	case VariantStop:
		parts = append(parts, "Stop-PNSGD")
		if r.TaskCount() > 1 {
			parts = append(parts, fmt.Sprintf("%d tasks", r.TaskCount()))
		}
	}
	if r.Loss.StrongConvexity > 0 {
		parts = append(parts, "strongly convex")
	}
	if r.Public > 0 {
		parts = append(parts, fmt.Sprintf("%d public records at the end", r.Public))
	}
	if r.Order == Shuffled {
		parts = append(parts, "one secret shuffle")
	}
	return strings.Join(parts, ", ")
}

// privateOnly restricts a Skip or Stop guarantee over N + Public positions
// to the N private ones (Cor 31: the public records need no protection).
type privateOnly struct {
	PerPerson
	n, public int64
}

func (p privateOnly) Len() int64 { return p.n }

func (p privateOnly) Source() string {
	return p.PerPerson.Source() + fmt.Sprintf("; the last %d records are public (Cor 31): only positions 1..%d are private", p.public, p.n)
}

// NoiseMultiplier returns the run's noise as DP-SGD states it: z = bσ/L,
// where b is the nominal batch and L the clip norm (the Lipschitz
// constant): each step adds N(0, σ²I) to the average of b clipped
// gradients, which is N(0, (zL)²I) on their sum (FMTT18's σ is on the
// average; TF-Privacy's and Opacus's noise_multiplier is z).
func (r Training) NoiseMultiplier() float64 {
	return float64(r.BatchSize()) * r.Sigma / r.Loss.Lipschitz
}

// SigmaFor returns the σ on the averaged gradient that noise multiplier z
// gives for the run's batch and clip norm L: zL/b, rounded down when the
// floating-point quotient is above it, so that the run accounted never has
// more noise than the run stated (NoiseMultiplier of the result is ≤ z).
func (r Training) SigmaFor(z float64) float64 {
	b := float64(r.BatchSize())
	s := z * r.Loss.Lipschitz / b
	for s > 0 && b*s/r.Loss.Lipschitz > z {
		s = math.Nextafter(s, 0)
	}
	return s
}

// SetNoiseMultiplier sets σ from DP-SGD's noise multiplier z (SigmaFor),
// after checking z and L. Errors are *dp.Error naming "noise_multiplier"
// or "lipschitz".
func (r *Training) SetNoiseMultiplier(z float64) error {
	if err := field.First(field.Positive("noise_multiplier", z), field.Positive("lipschitz", r.Loss.Lipschitz)); err != nil {
		return err
	}
	r.Sigma = r.SigmaFor(z)
	return nil
}

// NoiseWarning is privamp's warning line for a valid run whose σ looks
// like a noise multiplier (LikelyNoiseMultiplier), naming the option that
// gave σ and the one for the noise multiplier, or "".
func (r Training) NoiseWarning(sigmaOption, multiplierOption string) string {
	if !r.LikelyNoiseMultiplier() || r.Validate() != nil {
		return ""
	}
	return fmt.Sprintf("privamp: warning: %s: σ = %v is the noise on the averaged gradient: with batch %d and L = %v the noise multiplier is z = bσ/L = %s; if %v is DP-SGD's noise multiplier, give %s %v\n",
		sigmaOption, r.Sigma, r.Batch, r.Loss.Lipschitz, quantity.Nearest(r.NoiseMultiplier()), r.Sigma, multiplierOption, r.Sigma)
}

// LikelyNoiseMultiplier reports whether a σ given for a minibatch run looks
// like DP-SGD's noise multiplier z written where σ = zL/b belongs: a batch
// above 1 and z = bσ/L ≥ 20, far above the noise multipliers used in
// practice (0.5 to 10), so the run described adds far more noise than the
// user probably meant, and its ε is correspondingly (and misleadingly)
// small.
func (r Training) LikelyNoiseMultiplier() bool {
	return r.BatchSize() > 1 && r.NoiseMultiplier() >= 20
}

// NoiseForms states the run's noise both ways, "σ = 0.00429688 (noise
// multiplier z = bσ/L = 1.1)": FMTT18's σ on the averaged gradient and
// DP-SGD's noise multiplier, so that whichever a reader meant is beside
// the one they gave.
func (r Training) NoiseForms() string {
	return fmt.Sprintf("σ = %s (noise multiplier z = bσ/L = %s)", quantity.Up(r.Sigma), quantity.Nearest(r.NoiseMultiplier()))
}
