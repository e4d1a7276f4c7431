// Package events accounts a run described by an events file: one JSON
// document, in the vocabulary of Google dp_accounting's DpEvent
// (dp_accounting/dp_event.py), that says which mechanisms ran, how often,
// on which samples — noise that changes during training, phases with
// different sampling rates — and reports the tightest sound ε by the PLD
// accountant (package composition/pld) and the RDP accountant (package rdp).
//
// # The format
//
//	{
//	  "neighbouring": "add_or_remove_one",
//	  "event": {"type": "Composed", "events": [
//	    {"type": "SelfComposed", "count": 1000,
//	     "event": {"type": "PoissonSampled", "sampling_probability": 0.01,
//	               "event": {"type": "Gaussian", "noise_multiplier": 1.0}}},
//	    {"type": "SelfComposed", "count": 500,
//	     "event": {"type": "PoissonSampled", "sampling_probability": 0.02,
//	               "event": {"type": "Gaussian", "noise_multiplier": 1.5}}},
//	    {"type": "Laplace", "noise_multiplier": 20}
//	  ]}
//	}
//
// "neighbouring" is "add_or_remove_one" (the default: one record added or
// removed) or "replace_one" (one record replaced by another), as
// dp_accounting names them; privamp's own names "add-remove" and
// "replace-one" are accepted too (dp.ParseRelation), and the result says
// "neighbours" with privamp's name, as every command does. "event" is
// the one event that describes the whole run. Each event has a "type" and
// exactly the parameters of its type (a parameter of another type is
// refused, as is a missing one):
//
//   - Gaussian {noise_multiplier}: a sum of records' contributions, each
//     of ℓ2 norm at most C, plus N(0, (zC)²) noise, z = noise_multiplier > 0.
//     The sensitivity is 1 (in units of C) under add_or_remove_one and 2
//     under replace_one (the sum moves by g − g′).
//   - Laplace {noise_multiplier}: the same with ℓ1 norms and Laplace noise of
//     scale b = noise_multiplier·C (sensitivity 1 or 2 as above).
//   - RandomizedResponse {noise_parameter, num_buckets}: with probability p
//     = noise_parameter ∈ (0, 1] the answer is a uniformly random bucket,
//     otherwise the record's own. Only num_buckets = 2 (binary randomized
//     response, ε₀ = ln((2 − p)/p)) and only under replace_one, as in
//     dp_accounting.
//   - NoOp {}: reveals nothing, contributes nothing.
//   - PoissonSampled {sampling_probability, event}: each record enters the
//     sample independently with probability q ∈ (0, 1]; event, which must be
//     a Gaussian, runs on the sample.
//   - SampledWithoutReplacement {source_dataset_size, sample_size, event}: a
//     batch of m = sample_size distinct records out of n =
//     source_dataset_size (whole numbers, 1 ≤ m ≤ n ≤ 10¹²); event must be a
//     Gaussian. Only under replace_one: under add_or_remove_one the
//     dataset size changes and no dominating pair for fixed-size batches is
//     known.
//   - RandomAllocation {num_steps, event}: one epoch of balls-in-bins
//     batches: event, which must be a Gaussian, runs at each of num_steps
//     steps, and each record is used in exactly one of them, chosen
//     uniformly at random and independently of the other records
//     (Feldman & Shenfeld's random allocation; Chua et al.'s
//     balls-and-bins). Not a dp_accounting event. Only under
//     add_or_remove_one; accounted by RDP (rdp.RandomAllocation) and by
//     its PLD (pld.RandomAllocation). Epochs are a SelfComposed around it.
//   - SelfComposed {count, event}: event runs count times (adaptively),
//     count a whole number in [1, 10¹²].
//   - Composed {events}: the events run one after the other (adaptively);
//     the list is not empty.
//   - The rest of dp_accounting's vocabulary, with its parameter names
//     (dp/vocab.go says what each means; docs/accounting.md which accountant
//     covers which): EpsilonDelta {epsilon, delta}, ZCDp {rho, xi?},
//     DiscreteLaplace {noise_parameter, sensitivity}, DiscreteGaussian
//     {sigma, sensitivity?, dimension?}, SampledWithReplacement
//     {source_dataset_size, sample_size, event}, RepeatAndSelect {event,
//     mean, shape}, MixtureOfGaussians {standard_deviation, sensitivities,
//     sampling_probs}, TruncatedSubsampledGaussian {dataset_size,
//     sampling_probability, truncated_batch_size, noise_multiplier},
//     SingleEpochTreeAggregation {noise_multiplier, step_counts (a list)},
//     ExponentialMechanism {epsilon}, PermuteAndFlip {epsilon}, NonPrivate
//     {}, Unsupported {} (? marks a parameter that may be absent, with
//     dp_accounting's default). An event that neither accountant bounds is
//     read, then refused by Account naming its path and both reasons.
//
// Noise 0 (noise_multiplier 0, noise_parameter 0) is refused: it is no
// privacy at all (dp_accounting reports ε = ∞ for it), and a file that says
// so is more likely a mistake than a question. A sampling_probability of 0
// is refused too (write NoOp). Laplace cannot be sampled: privamp has
// neither a PLD nor an RDP curve of the subsampled Laplace mechanism.
//
// The file is read strictly (internal/jsonin): keys exact and unique, whole
// numbers in any notation (1e3, 1000.0), at most MaxBytes bytes, MaxEvents
// events, MaxDepth levels of nesting and MaxCount mechanism runs in all.
// Every error names the field by its path in the file,
// "event.events[1].event.event.noise_multiplier". The PLD's grid interval
// is not part of the file: it is asked for with the query
// (Query.Discretization, default 10⁻⁴), like δ and the accountant.
//
// # Which accountant covers what
//
//	event                                  add_or_remove_one   replace_one
//	Gaussian, Laplace, NoOp                PLD, RDP            PLD, RDP
//	RandomizedResponse (2 buckets)         refused             PLD, RDP
//	PoissonSampled(Gaussian)               PLD, RDP            PLD, RDP
//	SampledWithoutReplacement(Gaussian)    refused             PLD, RDP
//	RandomAllocation(Gaussian)             RDP                 refused
//	PoissonSampled(Laplace), other nesting refused             refused
//
// The PLD of a Poisson-sampled Gaussian under replace_one, and of a
// Gaussian sampled without replacement (fraction m/n), is
// pld.SubsampledGaussianReplaceOne; under replace_one the RDP of a
// Poisson-sampled Gaussian is bounded by a removal then an addition
// (rdp.SampledGaussianReplaceOne, Mironov 2017, Prop. 11), and of a
// Gaussian sampled without replacement by the Rényi divergence of the PLD's
// dominating pair (rdp.SampledGaussianFixedSize). The PLD
// accountant composes at most 2³¹−1 runs of one mechanism. Where one
// accountant does not cover a file, best uses the other and the result
// says why (PLDNote, RDPNote); the accountant asked for by name refuses.
//
// # Accounting
//
// PLD: each mechanism's PLD is built once and self-composed by one FFT power
// (SelfComposed), different ones are composed by FFT in the order of the
// file (Composed); k Gaussians with the same noise are one Gaussian with μ√k
// (Dong–Roth–Su 2019, Cor. 3.3), as dp_accounting does. The sound ε is the
// connect-the-dots PLD's (Doroshenko et al. 2022) with every truncated mass
// and FFT error bound added to δ; the optimistic estimate (every loss
// rounded down) is reported beside it. RDP: curves add under composition
// and multiply under SelfComposed (Mironov 2017, Prop. 1), and the sum is
// converted at the optimal real order (Canonne–Kamath–Steinke 2020,
// Prop. 12). Best reports the smaller of the two sound values.
//
// Entry points: Read and Load read and validate a file; Account accounts
// it for a Query and returns a Result, with the flat list of Phases that
// were accounted.
package events
