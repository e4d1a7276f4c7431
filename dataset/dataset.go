package dataset

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// Dataset is n examples (x_i, y_i) with d numeric features, stored row-major.
type Dataset struct {
	X      []float64 // n·d features, row i at X[i*D:(i+1)*D]
	Y      []float64 // n labels
	D      int       // number of features
	Names  []string  // feature names (may be nil)
	Label  string    // label column name (may be empty)
	Source string    // where the data came from, for reports
	Lines  []int     // file line of each row (CSV data; nil otherwise)
	// Keys holds each row's value of the key column (CSVOptions.Key: an id
	// or a tier name); nil without one.
	Keys []string
}

// N is the number of examples.
func (s *Dataset) N() int { return len(s.Y) }

// Row returns the features of example i (a view, not a copy).
func (s *Dataset) Row(i int) []float64 { return s.X[i*s.D : (i+1)*s.D : (i+1)*s.D] }

// MaxNorm is max_i ‖x_i‖.
func (s *Dataset) MaxNorm() float64 {
	var m float64
	for i := 0; i < s.N(); i++ {
		m = math.Max(m, norm(s.Row(i)))
	}
	return m
}

// MaxAbsLabel is max_i |y_i|.
func (s *Dataset) MaxAbsLabel() float64 {
	var m float64
	for _, y := range s.Y {
		m = math.Max(m, math.Abs(y))
	}
	return m
}

// Clone returns a deep copy.
func (s *Dataset) Clone() *Dataset {
	c := *s
	c.X = append([]float64(nil), s.X...)
	c.Y = append([]float64(nil), s.Y...)
	c.Names = append([]string(nil), s.Names...)
	c.Lines = append([]int(nil), s.Lines...)
	c.Keys = append([]string(nil), s.Keys...)
	return &c
}

// Subset returns the examples in idx (copied, in that order, with their
// lines and keys when the data set has them).
func (s *Dataset) Subset(idx []int) *Dataset {
	c := &Dataset{D: s.D, Names: s.Names, Label: s.Label, Source: s.Source,
		X: make([]float64, 0, len(idx)*s.D), Y: make([]float64, 0, len(idx))}
	for _, i := range idx {
		c.X = append(c.X, s.Row(i)...)
		c.Y = append(c.Y, s.Y[i])
		if s.Lines != nil {
			c.Lines = append(c.Lines, s.Lines[i])
		}
		if s.Keys != nil {
			c.Keys = append(c.Keys, s.Keys[i])
		}
	}
	return c
}

// Append adds the rows of o after those of s. Both must have the same
// feature columns (names, when both have them, in the same order); lines
// are kept only when both have them, keys only when both have them.
func (s *Dataset) Append(o *Dataset) error {
	if o.D != s.D {
		return fmt.Errorf("%d feature columns, the data has %d", o.D, s.D)
	}
	if s.Names != nil && o.Names != nil {
		for j := range s.Names {
			if s.Names[j] != o.Names[j] {
				return fmt.Errorf("feature column %d is %q, the data's is %q", j+1, o.Names[j], s.Names[j])
			}
		}
	}
	n := s.N()
	s.X = append(s.X, o.X...)
	s.Y = append(s.Y, o.Y...)
	if s.Lines != nil && o.Lines != nil && len(s.Lines) == n {
		s.Lines = append(s.Lines, o.Lines...)
	} else {
		s.Lines = nil
	}
	if s.Keys != nil && o.Keys != nil && len(s.Keys) == n {
		s.Keys = append(s.Keys, o.Keys...)
	} else {
		s.Keys = nil
	}
	return nil
}

// NormalizeRows scales every row with ‖x_i‖ > bound down to norm bound, so
// that ‖x_i‖ ≤ bound for all i (rows already inside are unchanged). It
// returns the number of rows scaled.
func (s *Dataset) NormalizeRows(bound float64) int {
	k := 0
	for i := 0; i < s.N(); i++ {
		r := s.Row(i)
		if nr := norm(r); nr > bound {
			f := bound / nr
			for j := range r {
				r[j] *= f
			}
			k++
		}
	}
	return k
}

// Standardize centres every feature column and divides it by its standard
// deviation (columns with zero spread are only centred). The statistics come
// from the data themselves and are not privatised: a report that uses them
// must say so.
func (s *Dataset) Standardize() {
	n := s.N()
	if n == 0 {
		return
	}
	for j := 0; j < s.D; j++ {
		var mean float64
		for i := 0; i < n; i++ {
			mean += s.X[i*s.D+j]
		}
		mean /= float64(n)
		var v float64
		for i := 0; i < n; i++ {
			d := s.X[i*s.D+j] - mean
			v += d * d
		}
		sd := math.Sqrt(v / float64(n))
		for i := 0; i < n; i++ {
			x := s.X[i*s.D+j] - mean
			if sd > 0 {
				x /= sd
			}
			s.X[i*s.D+j] = x
		}
	}
}

// MapBinaryLabels maps labels in {0, 1} to {−1, +1} for classification
// losses; it fails when a label is neither 0/1 nor ±1.
func (s *Dataset) MapBinaryLabels() error {
	for i, y := range s.Y {
		switch y {
		case 0:
			s.Y[i] = -1
		case 1, -1:
		default:
			if i < len(s.Lines) {
				return fmt.Errorf("line %d: label %v is not 0/1 or ±1, as a classification loss needs", s.Lines[i], y)
			}
			return fmt.Errorf("row %d: label %v is not 0/1 or ±1, as a classification loss needs", i+1, y)
		}
	}
	return nil
}

// dot and norm are numeric.Dot and numeric.Norm: one summation order for
// every package.
func dot(a, b []float64) float64 { return numeric.Dot(a, b) }
func norm(a []float64) float64   { return numeric.Norm(a) }
