package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/jsonin"
	"github.com/privamp/privamp/internal/quantity"
)

// AlgorithmDPSGD is the "algorithm" of a DP-SGD claim (DPSGDClaim).
const AlgorithmDPSGD = "dpsgd"

// Sampling schemes of a DP-SGD claim.
const (
	// SamplingPoisson: each example joins each batch independently with
	// probability q (Opacus' default, TF-Privacy's accounting assumption).
	SamplingPoisson = "poisson"
	// SamplingFixedSize: batches of exactly batch_size examples drawn
	// without replacement.
	SamplingFixedSize = "fixed-size"
	// SamplingShuffle: the data are shuffled and cut into consecutive
	// batches (the usual tf.data / DataLoader pipeline).
	SamplingShuffle = "shuffle"
	// SamplingBallsInBins: each epoch of 1/q steps places every example in
	// one of its batches uniformly at random, independently (Chua et al.
	// 2024's balls-and-bins; dp.RandomAllocation). Add/remove only.
	SamplingBallsInBins = "balls-in-bins"
)

// DPSGDClaim is a DP-SGD training run's claimed (ε, δ), with the parameter
// names of Opacus (sample_rate, noise_multiplier, steps, epochs) and of
// TF-Privacy's compute_dp_sgd_privacy (n, batch_size, noise_multiplier,
// epochs). Optional numbers are pointers: nil is "not given". See the
// package documentation for the format.
type DPSGDClaim struct {
	Algorithm       string   `json:"algorithm" jsonin:"required"` // "dpsgd"
	Sampling        string   `json:"sampling"`                    // SamplingPoisson, SamplingFixedSize or SamplingShuffle: required (Run refuses a claim without it)
	SampleRate      *float64 `json:"sample_rate"`
	N               *int64   `json:"n"`
	BatchSize       *int64   `json:"batch_size"`
	NoiseMultiplier float64  `json:"noise_multiplier" jsonin:"required"`
	Steps           *int64   `json:"steps"`
	Epochs          *float64 `json:"epochs"`
	Delta           float64  `json:"delta" jsonin:"required"`
	Epsilon         *float64 `json:"epsilon" jsonin:"required"`
	Neighbours      string   `json:"neighbours"` // dp.ParseRelation: "add-remove" (default) or "replace-one"
	Description     string   `json:"description"`
}

// DPSGDRun is the run a DP-SGD claim describes, with the sampling rate and
// the number of steps resolved (DPSGDClaim.Run).
type DPSGDRun struct {
	Sampling        string      `json:"sampling"`
	N               int64       `json:"n,omitempty"`
	Batch           int64       `json:"batch,omitempty"`
	Epochs          dp.Num      `json:"epochs,omitzero"`
	SamplingRate    dp.Num      `json:"sampling_rate"`
	Steps           int64       `json:"steps"`
	NoiseMultiplier dp.Noise    `json:"noise_multiplier"`
	Delta           dp.Loss     `json:"delta"`
	Neighbours      dp.Relation `json:"neighbours"`
}

// String describes the run in one line.
func (r DPSGDRun) String() string {
	s := fmt.Sprintf("DP-SGD, %s sampling, q = %s, %s, noise multiplier %g, %s neighbours", r.Sampling, r.SamplingRate, quantity.Count(r.Steps, "step", "steps"), float64(r.NoiseMultiplier), r.Neighbours)
	if r.N > 0 {
		s += fmt.Sprintf("; n = %d, batch %d", r.N, r.Batch)
	}
	return s
}

// maxDPSGDSteps is the largest number of steps accepted (as the dpsgd
// command's).
const maxDPSGDSteps = 1_000_000_000_000

// isDPSGD reports whether the document's "algorithm" is "dpsgd". It is a
// peek only: the claim is then read strictly (jsonin), which refuses
// anything the lenient peek let through.
func isDPSGD(data []byte) bool {
	var peek struct {
		Algorithm json.RawMessage `json:"algorithm"`
	}
	return bytes.Contains(data, []byte(`"`+AlgorithmDPSGD+`"`)) && // skips the full parse for other claims
		json.Unmarshal(data, &peek) == nil && string(bytes.TrimSpace(peek.Algorithm)) == `"`+AlgorithmDPSGD+`"`
}

// pastedNames are keys people paste into a DP-SGD claim from Opacus,
// dp_accounting, TF-Privacy and privamp's own flags, with what the claim
// calls them (or why it needs none).
var pastedNames = map[string]string{
	"target_delta":         `did you mean "delta"? (the δ the claim is made at; Opacus' target_delta)`,
	"target_epsilon":       `did you mean "epsilon"? (the claimed ε; Opacus' target_epsilon)`,
	"max_grad_norm":        `the clipping norm does not enter ε (the noise multiplier is relative to it): omit it`,
	"sampling_rate":        `did you mean "sample_rate"? (Opacus' name)`,
	"sampling_probability": `did you mean "sample_rate"? (dp_accounting's PoissonSampledDpEvent calls it sampling_probability)`,
	"sigma":                `did you mean "noise_multiplier"? (σ over the clipping norm)`,
	"noise":                `did you mean "noise_multiplier"? (privamp dpsgd's noise)`,
	"batch":                `did you mean "batch_size"? (privamp dpsgd's batch)`,
	"expected_batch_size":  `did you mean "batch_size"? (Opacus' expected_batch_size)`,
	"num_steps":            `did you mean "steps"?`,
	"num_epochs":           `did you mean "epochs"?`,
}

// pastedHint rewords jsonin's refusal of an unknown top-level key that is a
// name from pastedNames, saying which key the claim means.
func pastedHint(err error) error {
	fe, ok := field.As(err)
	if !ok || fe.Where != dp.InputFile || !strings.HasPrefix(fe.Reason, "unknown field") {
		return err
	}
	if h, ok := pastedNames[fe.Field]; ok {
		c := *fe
		c.Reason = "unknown field; " + h
		return &c
	}
	return err
}

// parseDPSGD reads and validates a DP-SGD claim.
func parseDPSGD(r io.Reader) (*DPSGDClaim, error) {
	d := &DPSGDClaim{}
	if err := jsonin.Decode(r, MaxBytes, d); err != nil {
		return nil, pastedHint(err)
	}
	if _, err := d.Run(); err != nil {
		return nil, err
	}
	return d, nil
}

// Run validates the claim and resolves its run: q is sample_rate, or
// batch_size/n; the number of steps is steps, or ⌈epochs/q⌉ — with n and
// batch_size computed as ⌈epochs·n/batch_size⌉, TF-Privacy's convention
// (compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy: steps =
// int(math.ceil(epochs * n / batch_size))). A claim that gives two ways to
// the same quantity (steps and epochs; sample_rate and batch_size or n) is
// refused naming both keys. Errors are *dp.Error.
func (d *DPSGDClaim) Run() (DPSGDRun, error) {
	bad := func(f string, value any, format string, a ...any) error {
		return &dp.Error{Where: dp.InputFile, Field: f, Value: value, Reason: fmt.Sprintf(format, a...)}
	}
	r := DPSGDRun{Sampling: d.Sampling, NoiseMultiplier: dp.Noise(d.NoiseMultiplier), Delta: dp.Loss(d.Delta)}
	if d.Algorithm != AlgorithmDPSGD {
		return r, bad("algorithm", d.Algorithm, "must be %q for a DP-SGD claim, got %q", AlgorithmDPSGD, d.Algorithm)
	}
	switch d.Sampling {
	case "", SamplingPoisson, SamplingFixedSize, SamplingShuffle, SamplingBallsInBins: // "": refused below, after the other fields
	default:
		return r, bad("sampling", d.Sampling, "must be %q, %q, %q or %q, got %q", SamplingPoisson, SamplingFixedSize, SamplingShuffle, SamplingBallsInBins, d.Sampling)
	}
	rel, err := dp.ParseRelation("neighbours", d.Neighbours)
	if err != nil {
		return r, bad("neighbours", d.Neighbours, "must be %q or %q (dp_accounting's add_or_remove_one or replace_one), got %q", dp.AddRemove, dp.ReplaceOne, d.Neighbours)
	}
	r.Neighbours = rel
	// the sampling rate
	switch {
	case d.SampleRate != nil && d.BatchSize != nil:
		return r, bad("sample_rate", *d.SampleRate, "cannot be combined with \"batch_size\" (q = batch_size/n): give one of \"sample_rate\" and \"batch_size\" with \"n\"")
	case d.SampleRate != nil && d.N != nil:
		return r, bad("sample_rate", *d.SampleRate, "cannot be combined with \"n\" (n is used only with \"batch_size\", q = batch_size/n): give one of them")
	case d.SampleRate != nil:
		if q := *d.SampleRate; !(q > 0 && q <= 1) {
			return r, bad("sample_rate", q, "must be in (0, 1], got %v", q)
		}
		r.SamplingRate = dp.Num(*d.SampleRate)
	case d.N == nil && d.BatchSize == nil:
		return r, bad("sample_rate", nil, "give the sampling rate (\"sample_rate\"), or \"batch_size\" and \"n\"")
	case d.N == nil:
		return r, bad("n", nil, "is required with \"batch_size\" (q = batch_size/n)")
	case d.BatchSize == nil:
		return r, bad("batch_size", nil, "is required with \"n\" (q = batch_size/n)")
	case *d.N < 1 || *d.N > 1_000_000_000_000:
		return r, bad("n", *d.N, "must be an integer in [1, 10^12], got %d", *d.N)
	case *d.BatchSize < 1 || *d.BatchSize > *d.N:
		return r, bad("batch_size", *d.BatchSize, "must be an integer in [1, n = %d], got %d", *d.N, *d.BatchSize)
	default:
		r.N, r.Batch = *d.N, *d.BatchSize
		r.SamplingRate = dp.Num(float64(r.Batch) / float64(r.N))
	}
	if k := math.Round(1 / float64(r.SamplingRate)); d.Sampling == SamplingBallsInBins && math.Abs(k*float64(r.SamplingRate)-1) > 1e-12 {
		f, v := "sample_rate", any(float64(r.SamplingRate))
		if r.N > 0 {
			f, v = "batch_size", any(r.Batch)
		}
		return r, bad(f, v, "must make 1/q = n/batch_size a whole number of steps per epoch for balls-in-bins sampling, got q = %v", float64(r.SamplingRate))
	}
	// the number of steps
	switch {
	case d.Steps != nil && d.Epochs != nil:
		return r, bad("steps", *d.Steps, "cannot be combined with \"epochs\" (two ways to the number of steps): give one of \"steps\" and \"epochs\"")
	case d.Steps != nil:
		if s := *d.Steps; s < 1 || s > maxDPSGDSteps {
			return r, bad("steps", s, "must be an integer in [1, 10^12], got %d", s)
		}
		r.Steps = *d.Steps
	case d.Epochs == nil:
		return r, bad("steps", nil, "give the number of steps (\"steps\") or \"epochs\"")
	default:
		e := *d.Epochs
		if !(e > 0) || math.IsInf(e, 0) {
			return r, bad("epochs", e, "must be a finite number > 0, got %v", e)
		}
		steps := rdp.StepsFor(e, float64(r.SamplingRate), float64(r.N), float64(r.Batch))
		if steps > maxDPSGDSteps {
			return r, bad("epochs", e, "gives %g steps; at most 10^12 are supported", steps)
		}
		r.Epochs, r.Steps = dp.Num(e), int64(steps)
	}
	if z := d.NoiseMultiplier; !(z > 0) || math.IsInf(z, 0) {
		return r, bad("noise_multiplier", z, "must be a finite number > 0, got %v", z)
	}
	if !(d.Delta > 0 && d.Delta < 1) {
		return r, bad("delta", d.Delta, "must be in (0, 1), got %v", d.Delta)
	}
	if d.Epsilon == nil {
		return r, bad("epsilon", nil, "give the claimed ε")
	}
	if e := *d.Epsilon; !(e >= 0) || math.IsInf(e, 0) {
		return r, bad("epsilon", e, "must be a finite number ≥ 0, got %v", e)
	}
	if d.Sampling == "" {
		return r, bad("sampling", nil, "is required: how the batches were drawn decides which accountant applies; give %q (each example joins each batch independently with probability q), %q (batches of exactly batch_size without replacement) or %q (consecutive batches of a shuffle)", SamplingPoisson, SamplingFixedSize, SamplingShuffle)
	}
	return r, nil
}

// ViaNoAccountant is the Via of a DP-SGD claim whose sampling no accountant
// of privamp covers (shuffling; fixed-size batches under add/remove).
const ViaNoAccountant = "none: no accountant covers this sampling"

// ViaShuffle is the Via of a claim on shuffled batches decided by the
// bounds of composition/shuffle.
const ViaShuffle = "shuffled-batch bounds (exact Gaussian without amplification; Chua et al.'s lower bound)"

// VerifyDPSGD decides a DP-SGD claim with o's accountant (composition.Tightest
// by default: the ε `privamp dpsgd` prints for the same run):
//
//   - Poisson sampling: dp.Valid when the claimed ε is at least the certified
//     one, else dp.Invalid with the certified ε (WorstEpsilon) and the noise
//     multiplier that would make the claim true (NoiseMultiplierNeeded).
//     Replace-one neighbours are bounded by a provable pair: RDP's removal
//     then addition (Mironov 2017, Prop. 11) or the PLD's symmetrized
//     sensitivity-2 pair (pld.SubsampledGaussianReplaceOne), whichever the
//     accountant certifies smaller.
//   - Fixed-size batches (sampling without replacement) under replace-one:
//     decided the same way by the PLD's replace-one pair with γ = b/n
//     (Zhu–Dong–Wang 2022; Balle–Barthe–Gaboardi 2018, Thm 2) or the RDP
//     of that pair (rdp.SampledGaussianFixedSize), whichever the
//     accountant certifies smaller; dp.Unsupported if the accountant has no
//     bound for them.
//   - Fixed-size batches under add/remove: dp.Unsupported; no dominating pair
//     for them is implemented here.
//   - Balls-in-bins batches (random allocation) under add/remove: decided
//     the same way by the PLD of random allocation (pld.RandomAllocation)
//     or its RDP (rdp.RandomAllocation), whichever the accountant certifies
//     smaller; under replace-one dp.Unsupported.
//   - Shuffled batches (verifyShuffle, with n, batch_size and whole epochs):
//     dp.Invalid below the lower bound of Chua et al., dp.Valid at or above
//     the upper bound without amplification, dp.Unsupported with the
//     interval between (composition/shuffle); dp.Unsupported without n and
//     batch_size. Accounting them as Poisson, as Opacus and TF-Privacy
//     users commonly do, is an approximation, not a proof.
func VerifyDPSGD(d *DPSGDClaim, o Options) (Verification, error) {
	r, err := d.Run()
	if err != nil {
		return Verification{}, err
	}
	a := o.accountant()
	nan := math.NaN()
	claimed := dp.Num(*d.Epsilon)
	v := Verification{Via: via(a), DPSGD: &r, ClaimedEpsilon: &claimed, WorstEpsilon: dp.Loss(nan),
		CompositionEpsilon: dp.Loss(nan), NoiseMultiplierNeeded: dp.Noise(nan)}
	rate := "q = batch_size/n"
	if r.N == 0 {
		rate = "q = sample_rate"
	}
	steps := "steps as given"
	if r.Epochs > 0 {
		steps = "⌈epochs·n/batch_size⌉ (TF-Privacy's compute_dp_sgd_privacy)"
		if r.N == 0 {
			steps = "⌈epochs/q⌉ (TF-Privacy's convention)"
		}
	}
	v.Checks = append(v.Checks,
		check("sampling rate", dp.Pass, float64(r.SamplingRate), nan, BasisArithmetic, rate),
		check("number of steps", dp.Pass, float64(r.Steps), nan, BasisArithmetic, steps),
		DeltaCheck(d.Delta, r.N))
	v.Trusted = []string{
		fmt.Sprintf("noise multiplier z = %g: Gaussian noise of standard deviation z·C added to the sum of clipped gradients", d.NoiseMultiplier),
		"every per-example gradient is clipped to norm ≤ C before summing",
		fmt.Sprintf("%s sampling as declared", r.Sampling),
	}
	v.Assumptions = []string{"the released model is a post-processing of the noisy gradients; the accounting covers every intermediate iterate",
		"the noise multiplier, clipping norm and sampling rate do not depend on the private data"}
	fixed := r.Sampling == SamplingFixedSize
	ref, refErr := runEpsilon(a, r)
	unsupported := func(detail, note string) (Verification, error) {
		v.Via = ViaNoAccountant
		v.Verdict = dp.Unsupported
		v.Checks = append(v.Checks, check("sampling covered by an accountant", dp.Unmet, nan, nan, BasisTrust, detail))
		v.Notes = append(v.Notes, note)
		v.Notes = append(v.Notes, poissonReference(a, r, d.Delta)...)
		return v, nil
	}
	if r.Sampling == SamplingShuffle {
		if ok, err := verifyShuffle(&v, r, *d.Epsilon); ok || err != nil {
			if refErr == nil { // ref accounts the same run as Poisson sampling (DPSGDRun.Event)
				v.Notes = append(v.Notes, poissonNote(a, ref, d.Delta))
			}
			return v, err
		}
	}
	switch {
	case r.Sampling == SamplingShuffle:
		return unsupported("shuffled, consecutive batches: each example is in exactly one batch per epoch, not in each batch independently with probability q",
			"accounting shuffled batches as if Poisson-sampled is the common approximation (Opacus, TF-Privacy), not a proof: privamp does not certify it")
	case r.Sampling == SamplingBallsInBins && r.Neighbours != dp.AddRemove:
		return unsupported("balls-in-bins batches under replace-one neighbours: random allocation is accounted for an example added or removed only (Feldman & Shenfeld 2025)",
			"balls-in-bins (random allocation) is certified under add/remove neighbours by its PLD and its Rényi divergence (pld.RandomAllocation, rdp.RandomAllocation); replace-one is not covered")
	case r.Sampling == SamplingBallsInBins:
		v.Checks = append(v.Checks, check("balls-in-bins sampling", dp.Assumed, float64(r.SamplingRate), nan, BasisTrust,
			"each epoch of 1/q steps places every example in one of its batches uniformly at random, independently: declared, nothing in the claim can check it"))
	case fixed && r.Neighbours != dp.ReplaceOne:
		return unsupported("batches of exactly batch_size drawn without replacement under add/remove neighbours: no dominating pair for them is implemented here, so no bound is given",
			"sampling without replacement (fixed-size batches) is certified under replace-one neighbours only (the PLD's replace-one pair); under add/remove no dominating pair is implemented in privamp, and accounting it as Poisson is an approximation, not a proof")
	case fixed && refErr != nil:
		return unsupported(fmt.Sprintf("batches of exactly batch_size drawn without replacement: the %s has no bound for them (%v)", via(a), refErr),
			"fixed-size batches under replace-one are certified by the PLD of their dominating pair or by that pair's RDP; this accountant gave neither")
	case fixed:
		v.Checks = append(v.Checks, check("sampling without replacement, replace-one", dp.Assumed, float64(r.SamplingRate), nan, BasisTrust,
			"batches of exactly batch_size drawn without replacement: the replaced example is in a batch with probability γ = batch_size/n"))
	default:
		v.Checks = append(v.Checks, check("Poisson sampling", dp.Assumed, nan, nan, BasisTrust, "each example joins each batch independently with probability q: declared, nothing in the claim can check it"))
	}
	if refErr != nil {
		return v, refErr
	}
	if refuseDelta(&v) {
		v.Verdict, v.Via = dp.Unsupported, ViaDelta
		return v, nil
	}
	v.Source, v.WorstEpsilon, v.CompositionEpsilon = ref.Source, ref.Epsilon, ref.Epsilon
	switch {
	case r.Neighbours == dp.ReplaceOne && r.SamplingRate < 1 && fixed:
		v.Notes = append(v.Notes, "fixed-size batches under replace-one are bounded by the PLD of the pair ((1−γ)N(0,z²)+γN(2,z²), N(0,z²)), γ = batch_size/n, symmetrized (Balle–Barthe–Gaboardi 2018, Thm 2; Zhu–Dong–Wang 2022; Dong–Roth–Su 2022): a fixed-size batch under replace-one is a much stronger adversary than Poisson sampling under add/remove, so expect a far larger ε than a Poisson accountant reports")
	case r.Neighbours == dp.ReplaceOne && r.SamplingRate < 1:
		v.Notes = append(v.Notes, "replace-one neighbours are bounded by a pair proved to dominate: the removal then addition of RDP (Mironov 2017, Prop. 11) or the PLD's symmetrized sensitivity-2 pair (Balle–Barthe–Gaboardi 2018, Thm 2; Dong–Roth–Su 2022), whichever is smaller and covers the sampling; both are looser than dp_accounting's replace-one PLD, whose pair privamp cannot check, so a smaller ε may be true")
	}
	if *d.Epsilon >= float64(ref.Epsilon) {
		v.Verdict = dp.Valid
		return v, nil
	}
	v.Verdict = dp.Invalid
	z, err := noiseFor(a, r, *d.Epsilon)
	v.NoiseMultiplierNeeded = dp.Noise(z)
	if err != nil {
		v.NoiseMultiplierNeeded = dp.Noise(math.Inf(1))
		v.Notes = append(v.Notes, err.Error())
	}
	v.Notes = append(v.Notes, fmt.Sprintf("the smallest ε the %s certifies for this run is %s at δ = %g; with noise multiplier %s (the rest unchanged) the claim holds", via(a), v.WorstEpsilon, d.Delta, v.NoiseMultiplierNeeded))
	return v, nil
}

// poissonReference is the note of what the run gives accounted as Poisson
// sampling: a reference, never a certificate for another sampler.
func poissonReference(a dp.Accountant, r DPSGDRun, delta float64) []string {
	asPoisson := r
	asPoisson.Sampling = SamplingPoisson
	if ref, err := runEpsilon(a, asPoisson); err == nil {
		return []string{poissonNote(a, ref, delta)}
	}
	return nil
}

// poissonNote states ref, the run accounted as Poisson sampling by a.
func poissonNote(a dp.Accountant, ref dp.Guarantee, delta float64) string {
	return fmt.Sprintf("for reference only (not a certificate): the same run accounted as Poisson sampling by the %s gives ε = %s at δ = %g", via(a), ref.Epsilon, delta)
}
