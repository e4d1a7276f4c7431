package numeric

import "math"

// Kahan is Neumaier's compensated sum: adding n terms loses O(1) ulps rather
// than O(n). The zero value is an empty sum.
type Kahan struct{ sum, comp float64 }

// Add adds x to the sum.
func (k *Kahan) Add(x float64) {
	t := k.sum + x
	if math.Abs(k.sum) >= math.Abs(x) {
		k.comp += (k.sum - t) + x
	} else {
		k.comp += (x - t) + k.sum
	}
	k.sum = t
}

// Sum returns the compensated sum; an infinite (or NaN) running sum is
// returned as is, since its compensation term is meaningless.
func (k *Kahan) Sum() float64 {
	if math.IsInf(k.sum, 0) || math.IsNaN(k.sum) {
		return k.sum
	}
	return k.sum + k.comp
}
