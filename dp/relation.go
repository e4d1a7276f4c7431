package dp

import "github.com/privamp/privamp/internal/field"

// Relation is the neighbouring relation a guarantee is stated for: privamp's
// one description of it (DP-SGD accounting, claims, events files, the
// tables' calculators).
type Relation int

const (
	// AddRemove: neighbours differ by one record added or removed
	// (Poisson sampling; SubsampledGaussian, both directions).
	AddRemove Relation = iota
	// ReplaceOne: neighbours differ by one record replaced (Poisson
	// sampling at rate q, or fixed-size batches with γ = b/n;
	// SubsampledGaussianReplaceOne).
	ReplaceOne
)

// String is privamp's name of the relation: "add-remove" or "replace-one".
func (r Relation) String() string {
	if r == ReplaceOne {
		return "replace-one"
	}
	return "add-remove"
}

// Sensitivity is the sensitivity of a sum of records' contributions each
// bounded by 1 in norm: 1 when a record is added or removed, 2 when one is
// replaced by another (the sum moves by g − g′).
func (r Relation) Sensitivity() float64 {
	if r == ReplaceOne {
		return 2
	}
	return 1
}

// ParseRelation reads a relation as privamp writes it ("add-remove",
// "replace-one") or as dp_accounting's NeighboringRelation names it
// ("add_or_remove_one", "replace_one"); "" is AddRemove. Anything else is a
// field error on name.
func ParseRelation(name, s string) (Relation, error) {
	switch s {
	case "", "add-remove", "add_or_remove_one":
		return AddRemove, nil
	case "replace-one", "replace_one":
		return ReplaceOne, nil
	}
	return AddRemove, field.New(name, s, "must be add-remove or replace-one (dp_accounting's add_or_remove_one or replace_one)")
}

// MarshalText writes the relation as String does, so that a result's
// "neighbours" key reads "add-remove" or "replace-one".
func (r Relation) MarshalText() ([]byte, error) { return []byte(r.String()), nil }
