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
	case BallsInBins:
		return "balls_in_bins"
	}
	return "poisson"
}

// MarshalText writes String, so JSON carries the same word.
func (s Sampling) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseSampling reads a sampling scheme as privamp's flags write it
// ("poisson", "fixed-size") or as events and dp_accounting name it
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
	case "balls-in-bins", "balls_in_bins":
		return BallsInBins, nil
	}
	return Poisson, field.New(name, s, "must be poisson, fixed-size (without_replacement) or balls-in-bins")
}
