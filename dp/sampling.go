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
	// WithoutReplacement or None); composition/shuffle accounts it with a
	// lower and an upper bound.
	Shuffle
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
	}
	return "poisson"
}

// MarshalText writes String, so JSON carries the same word.
func (s Sampling) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseSampling reads a sampling scheme as privamp's flags write it
// ("poisson", "fixed-size", "shuffle") or as events and dp_accounting name it
// ("poisson", "without_replacement", "none"); "" is Poisson. Anything else
// is a field error on name.
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
	}
	return Poisson, field.New(name, s, "must be poisson, fixed-size (without_replacement) or shuffle")
}
