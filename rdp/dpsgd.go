package rdp

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
)

// DPSGD describes a DP-SGD run for accounting: T steps of the
// Poisson-subsampled Gaussian mechanism with sampling rate q and noise
// multiplier z (Abadi et al. 2016). The rate is q = Batch/N, or
// SamplingRate; the number of steps is Steps, or ⌈Epochs·N/Batch⌉ (which
// needs N and Batch). Zero means "not given" for N, Batch, SamplingRate,
// Epochs and Steps: a field that the chosen route needs but that is zero is
// reported as missing, and a given one as refused.
type DPSGD struct {
	N            float64     // training examples (whole number ≥ 1)
	Batch        float64     // expected batch size (whole number, ≤ N)
	SamplingRate float64     // q ∈ (0, 1], instead of N and Batch
	Epochs       float64     // > 0; steps = ⌈Epochs·N/Batch⌉
	Steps        float64     // T, a whole number in [1, 1e12], instead of Epochs
	Noise        float64     // noise multiplier z = σ/C > 0 (ignored when Calibrate)
	Delta        float64     // δ ∈ (0, 1)
	Neighbours   dp.Relation // dp.AddRemove (the zero value) or dp.ReplaceOne
	// Sampling is dp.Poisson (the zero value) or dp.WithoutReplacement:
	// batches of exactly Batch examples drawn without replacement (the
	// CLI's fixed-size batches); the changed example is in a batch with
	// probability γ = Batch/N (or SamplingRate, read as b/n). Without
	// replacement is valid only with dp.ReplaceOne. RDP bounds it by
	// SampledGaussianFixedSize (the Rényi divergence of the dominating pair
	// of pld.SubsampledGaussianReplaceOne); composition.DPSGDWith also
	// accounts it with that pair's PLD. dp.BallsInBins (add/remove only):
	// epochs of k = 1/q steps (a whole number), each record in one of them
	// uniformly at random (rdp.RandomAllocation).
	Sampling  dp.Sampling
	Calibrate bool // find the smallest z for TargetEpsilon instead of taking Noise
	// TargetEpsilon is the ε > 0 to calibrate z for.
	TargetEpsilon float64
	Conversion    Conversion
}

// DPSGDResult is the (ε, δ) of a DPSGD run.
type DPSGDResult struct {
	N               dp.Num   `json:"n,omitempty"`
	Batch           dp.Num   `json:"batch,omitempty"`
	SamplingRate    dp.Num   `json:"sampling_rate"`
	Steps           dp.Num   `json:"steps"`
	NoiseMultiplier dp.Noise `json:"noise_multiplier"`
	Calibrated      bool     `json:"calibrated"`
	TargetEpsilon   dp.Num   `json:"target_epsilon,omitempty"`
	dp.Guarantee
	Order      dp.Num      `json:"order"` // the optimal real order α
	Neighbours dp.Relation `json:"neighbours"`
	Method     string      `json:"method"`
	Conversion string      `json:"conversion"`
}

// maxSteps is the largest number of steps accepted.
const maxSteps = 1e12

func whole(name string, v, lo, hi float64) error {
	if !(v >= lo && v <= hi && v == math.Trunc(v)) {
		return field.New(name, v, "must be a whole number in [%s, %s]", field.FormatInt(int64(lo)), field.FormatInt(int64(hi)))
	}
	return nil
}

// rate returns q and T, refusing the first field that is out of range or
// missing for the route the given fields choose.
// StepsFor is the number of steps of epochs passes at sampling rate q:
// ⌈epochs·n/batch⌉ where n and batch are given (n > 0), TF-Privacy's
// convention (compute_dp_sgd_privacy_lib: int(math.ceil(epochs * n /
// batch_size))), else ⌈epochs/q⌉ (Opacus' sample_rate with epochs, as
// claim files read it).
func StepsFor(epochs, q, n, batch float64) float64 {
	if n > 0 {
		return math.Ceil(epochs * n / batch)
	}
	return math.Ceil(epochs / q)
}

func (d DPSGD) rate() (q, steps float64, err error) {
	missing := func(name, why string) error { return field.New(name, nil, "is required %s", why) }
	// Given values first, so that a refused value is named before a missing one.
	if err := field.First(givenCheck(d.N, whole("n", d.N, 1, 1e12)), givenCheck(d.Batch, whole("batch", d.Batch, 1, 1e12)),
		givenCheck(d.Steps, whole("steps", d.Steps, 1, maxSteps)), givenCheck(d.Epochs, field.Positive("epochs", d.Epochs))); err != nil {
		return 0, 0, err
	}
	switch {
	case d.SamplingRate != 0 && (d.N != 0 || d.Batch != 0):
		return 0, 0, field.New("sampling_rate", d.SamplingRate, "cannot be combined with n and batch (q = batch/n)")
	case d.SamplingRate != 0:
		if !(d.SamplingRate > 0 && d.SamplingRate <= 1) {
			return 0, 0, field.New("sampling_rate", d.SamplingRate, "must be in (0, 1]")
		}
		q = d.SamplingRate
	case d.N == 0:
		return 0, 0, missing("n", "with batch (q = batch/n), or give the sampling rate")
	case d.Batch == 0:
		return 0, 0, missing("batch", "with n (q = batch/n), or give the sampling rate")
	case d.Batch > d.N:
		return 0, 0, field.New("batch", d.Batch, "must be ≤ n = %s", field.FormatValue(d.N))
	default:
		q = d.Batch / d.N
	}
	switch {
	case d.Sampling == dp.WithoutReplacement && d.Neighbours != dp.ReplaceOne:
		return 0, 0, field.New("sampling", "fixed-size", "needs replace-one neighbours: no dominating pair for batches drawn without replacement under add/remove is implemented")
	case d.Sampling == dp.BallsInBins && d.Neighbours != dp.AddRemove:
		return 0, 0, field.New("sampling", "balls-in-bins", "needs add/remove neighbours: random allocation's accounting (Feldman & Shenfeld 2025) is for a record added or removed")
	case d.Sampling == dp.BallsInBins:
		if k := math.Round(1 / q); k < 1 || math.Abs(k*q-1) > 1e-12 {
			name, v := "sampling_rate", q
			if d.SamplingRate == 0 {
				name, v = "batch", d.Batch
			}
			return 0, 0, field.New(name, v, "must make 1/q = n/batch a whole number of steps per epoch for balls-in-bins (each record goes to one of the epoch's n/batch batches)")
		}
	case d.Sampling != dp.Poisson && d.Sampling != dp.WithoutReplacement:
		return 0, 0, field.New("sampling", d.Sampling.String(), "must be poisson, fixed-size (without_replacement) or balls-in-bins")
	}
	switch {
	case d.Steps != 0 && d.Epochs != 0:
		return 0, 0, field.New("steps", d.Steps, "cannot be combined with epochs")
	case d.Steps != 0:
		return q, d.Steps, nil
	case d.Epochs == 0:
		return 0, 0, missing("steps", "(or epochs)")
	}
	steps = StepsFor(d.Epochs, q, d.N, d.Batch)
	if steps > maxSteps {
		return 0, 0, field.New("epochs", d.Epochs, "gives %s steps; at most 1e12 are supported", field.FormatValue(steps))
	}
	return q, steps, nil
}

// Rate returns the sampling rate q (γ = b/n without replacement) and the
// number of steps T of d, or a field error naming the first field that is
// out of range or missing for the route the given fields choose, or
// sampling without replacement under add/remove. It does not look at Noise, Delta or the target.
func (d DPSGD) Rate() (q, steps float64, err error) { return d.rate() }

// givenCheck returns err unless v is 0 ("not given").
func givenCheck(v float64, err error) error {
	if v == 0 {
		return nil
	}
	return err
}

// Check returns q and T (as Rate) and checks δ, and the noise multiplier
// or, with Calibrate, the target ε: a field error names the first field out
// of range or missing.
func (d DPSGD) Check() (q, steps float64, err error) {
	q, steps, err = d.rate()
	if err == nil {
		err = field.OpenUnit("delta", d.Delta)
	}
	if err == nil && d.Calibrate {
		err = field.Positive("target_epsilon", d.TargetEpsilon)
	} else if err == nil {
		err = field.Positive("noise", d.Noise)
	}
	return q, steps, err
}

// Event is the run d describes with noise multiplier z, as a dp.Event (the
// one description every accountant reads): T steps of the Gaussian on a
// Poisson sample at rate q, or on fixed-size batches (N and Batch when
// given, else the rate; dp.DPSGD).
func (d DPSGD) Event(z float64) (dp.Event, error) {
	q, steps, err := d.rate()
	if err != nil {
		return nil, err
	}
	if d.Sampling == dp.WithoutReplacement && d.N != 0 && d.Batch != 0 {
		return dp.DPSGDFixedSize(int64(d.N), int64(d.Batch), z, int64(steps)), nil
	}
	return dp.DPSGD(q, z, int64(steps), d.Sampling), nil
}

// Account returns the ε of d by the RDP accountant (Accountant: exact
// Rényi curves at every real order, Mironov–Talwar–Zhang 2019, §3;
// replace-one through remove-then-add, Mironov 2017, Prop. 11) converted
// with the optimal order. It is RDP's bound only: the tightest sound ε of a
// DP-SGD run is composition.Tightest's (or composition.DPSGDWith's). With
// Calibrate, the noise multiplier is the smallest that meets
// (TargetEpsilon, Delta) by RDP, verified (dp.Calibrate keeps the safe end).
func (d DPSGD) Account() (DPSGDResult, error) {
	q, steps, err := d.Check()
	if err != nil {
		return DPSGDResult{}, err
	}
	a, rel := Accountant{Conversion: d.Conversion}, d.Neighbours
	z := d.Noise
	if d.Calibrate {
		family := func(z float64) dp.Event { e, _ := d.Event(z); return e }
		if z, _, err = dp.Calibrate(a, family, rel, d.Delta, d.TargetEpsilon, CalibrationSearch); err != nil {
			return DPSGDResult{}, field.New("target_epsilon", d.TargetEpsilon, "cannot be met with a noise multiplier in [1e-3, 1e6]")
		}
	}
	e, _ := d.Event(z)
	pr, err := a.Account(e, rel, d.Delta)
	if err != nil {
		return DPSGDResult{}, err
	}
	r := DPSGDResult{Guarantee: dp.Guarantee{Delta: dp.Loss(d.Delta)}, N: dp.Num(d.N), Batch: dp.Num(d.Batch), SamplingRate: dp.Num(q), Steps: dp.Num(steps),
		NoiseMultiplier: dp.Noise(z), Calibrated: d.Calibrate,
		Conversion: d.Conversion.String()}
	if d.Calibrate {
		r.TargetEpsilon = dp.Num(d.TargetEpsilon)
	}
	r.Fill(d, pr)
	return r, nil
}

// Fill sets the RDP fields of r (ε, order, neighbours, method, source) from
// the RDP accountant's answer p for d.
func (r *DPSGDResult) Fill(d DPSGD, p DP) {
	r.Epsilon, r.Order, r.Neighbours = dp.Loss(p.Epsilon), dp.Num(p.Order), d.Neighbours
	r.Method, r.Source = "rdp-poisson-subsampled-gaussian", d.Source()
	switch {
	case d.Sampling == dp.WithoutReplacement && d.Neighbours == dp.ReplaceOne:
		r.Method = "rdp-fixed-size-replace-one"
	case d.Sampling == dp.BallsInBins:
		r.Method = "rdp-balls-in-bins"
	case d.Neighbours == dp.ReplaceOne:
		r.Method += "-replace-one"
	}
	if p.TotalVariation {
		r.Source += "; ε = 0 by total variation ≤ √(1 − e^{−KL}) (Bretagnolle–Huber)"
	}
}

// Source names the papers behind Account's ε for d's sampling and
// neighbouring relation, with the conversion's: the RDP accountant's source
// for d's event (Accountant), so that a DP-SGD run and the same run written
// as events (or as a claim) cite their RDP bound in one wording.
func (d DPSGD) Source() string {
	a := Accountant{Conversion: d.Conversion}
	ev, err := d.Event(1) // the source depends on the event's shape, not on z
	if err != nil {
		return a.SourceFor(dp.NoOp{}, DP{})
	}
	return a.SourceFor(ev, DP{})
}

// NoiseUnit is the noise multiplier's unit, σ/C, with the same noise on the
// averaged gradient beside it when the batch is known: zC/b, FMTT18's σ
// (what privamp's amplification-by-iteration commands take as σ).
func (r DPSGDResult) NoiseUnit() string {
	if !(r.Batch > 0) {
		return "σ/C"
	}
	return "σ/C; on the averaged gradient σ = zC/b = " + quantity.Up(float64(r.NoiseMultiplier)/float64(r.Batch)) + "·C"
}
