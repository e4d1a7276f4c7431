package plan

import "math"

// keyed is a sort key with the index of what it belongs to.
type keyed struct {
	k uint64
	i int32
}

// radixSort sorts by k, keeping equal keys in their current order (LSD
// radix sort, 11 bits per pass; passes whose digit is constant are
// skipped). It costs O(n) time and one extra buffer of n elements, which is
// what lets 10⁷ budgets or ids be ordered in a fraction of a second.
func radixSort(a []keyed) {
	if len(a) < 256 {
		for i := 1; i < len(a); i++ {
			for j := i; j > 0 && a[j].k < a[j-1].k; j-- {
				a[j], a[j-1] = a[j-1], a[j]
			}
		}
		return
	}
	buf := make([]keyed, len(a))
	src, dst := a, buf
	const bits, mask = 11, 1<<11 - 1
	var count [1 << bits]int
	for shift := uint(0); shift < 64; shift += bits {
		clear(count[:])
		for _, x := range src {
			count[(x.k>>shift)&mask]++
		}
		if count[(src[0].k>>shift)&mask] == len(src) {
			continue // every key has the same digit here
		}
		sum := 0
		for d := range count {
			c := count[d]
			count[d] = sum
			sum += c
		}
		for _, x := range src {
			d := (x.k >> shift) & mask
			dst[count[d]] = x
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}

// floatKey maps a float64 to a uint64 with the same order (NaN excluded).
func floatKey(x float64) uint64 {
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}
