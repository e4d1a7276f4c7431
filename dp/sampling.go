package dp

import "github.com/privamp/privamp/internal/field"

// Sampling is how a step's batch is drawn: privamp's one description of it
// (DP-SGD flags and fields, events, claims).
type Sampling int

const (
	// Poisson: each record is in the batch independently with probability q.
	Poisson Sampling = iota
	// WithoutReplacement: a batch of exactly b records drawn uniformly
	// without replacement from n (the CLI's "fixed-size" batches).
	WithoutReplacement
	// None: every record is in every batch.
	None
	// Shuffle: the records are shuffled once per epoch and cut into
	// consecutive batches of b, so each record is in exactly one batch per
	// epoch. No DP event describes it (dp.DPSGD takes Poisson,
	// WithoutReplacement, None or BallsInBins); composition/shuffle
	// accounts it with a lower and an upper bound.
	Shuffle
	// BallsInBins: each epoch of k = 1/q steps places each record in one
	// of its k batches, uniformly and independently of the others (Chua et
	// al. 2024's balls-and-bins; Feldman & Shenfeld's random allocation;
	// the event is RandomAllocation). Batch sizes vary, with mean n/k.
	BallsInBins
)

// String is the name an events file and JSON output use: "poisson",
// "without_replacement" or "none".
func (s Sampling) String() string {
	switch s {
	case WithoutReplacement:
		return "without_replacement"
	case None:
		return "none"
	case Shuffle:
		return "shuffle"
	case BallsInBins:
		return "balls_in_bins"
	}
	return "poisson"
}

// MarshalText writes String, so JSON carries the same word.
func (s Sampling) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseSampling reads a sampling scheme as privamp's flags write it
// ("poisson", "fixed-size", "shuffle") or as events and dp_accounting name it
// ("poisson", "without_replacement", "none"), and balls-in-bins as
// "balls-in-bins" or "balls_in_bins"; "" is Poisson. Anything else is a
// field error on name.
func ParseSampling(name, s string) (Sampling, error) {
	switch s {
	case "", "poisson":
		return Poisson, nil
	case "fixed-size", "without_replacement":
		return WithoutReplacement, nil
	case "none":
		return None, nil
	case "shuffle":
		return Shuffle, nil
	case "balls-in-bins", "balls_in_bins":
		return BallsInBins, nil
	}
	return Poisson, field.New(name, s, "must be poisson, fixed-size (without_replacement), shuffle or balls-in-bins")
}

// Describe is how a DP-SGD report names a run with sampling s: its title
// and the assumption it states about the batches (Poisson: "DP-SGD
// (Poisson-subsampled Gaussian)" and the Poisson assumption).
func (s Sampling) Describe() (title, assumption string) {
	switch s {
	case WithoutReplacement:
		return "DP-SGD (fixed-size batches drawn without replacement)", "each batch is exactly batch examples drawn uniformly without replacement, independently at each step (not a shuffle cut into consecutive batches)"
	case BallsInBins:
		return "DP-SGD (balls-in-bins batches)", "balls-in-bins: each epoch has k = 1/q = n/batch steps and every example is placed in one of them uniformly at random, independently of the others and of earlier epochs (batch sizes vary, mean batch); a last partial epoch is accounted as a whole one; not a shuffle cut into fixed-size batches"
	}
	return "DP-SGD (Poisson-subsampled Gaussian)", "every example enters each batch independently with probability q (Poisson sampling); shuffled fixed-size batches are not covered by this analysis, although common practice reports them so"
}
