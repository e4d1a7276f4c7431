package plan

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"
)

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

// orderByKey returns the indices 0..len(keys)−1 sorted by keys[i], equal
// keys in index order (what a stable sort of (key, index) pairs gives),
// with less work space than radixSort on keyed pairs (16 bytes each, and
// a buffer as large). Budgets that take few values (tiers, a handful of
// levels) are ordered by counting (orderFewKeys: no work space but the
// result). Otherwise one word per index, the key's top 32 bits above the
// index, is radix sorted stably on those bits (radixHigh32), and each run
// of equal top bits whose keys differ is sorted by the whole key, then the
// index: 16 bytes per index.
func orderByKey(keys []uint64) []int32 {
	if perm, _, ok := orderFewKeys(len(keys), func(i int) uint64 { return keys[i] }, 64); ok {
		return perm
	}
	const low = 1<<32 - 1
	w := make([]uint64, len(keys))
	for i, k := range keys {
		w[i] = k&^low | uint64(i) // len(keys) ≤ MaxPeople < 2³²
	}
	radixHigh32(w)
	for lo := 0; lo < len(w); {
		hi := lo + 1
		for hi < len(w) && w[hi]>>32 == w[lo]>>32 {
			hi++
		}
		run := w[lo:hi]
		k0 := keys[run[0]&low]
		for _, x := range run[1:] {
			if keys[x&low] != k0 {
				slices.SortFunc(run, func(a, b uint64) int {
					return cmp.Or(cmp.Compare(keys[a&low], keys[b&low]), cmp.Compare(a&low, b&low))
				})
				break
			}
		}
		lo = hi
	}
	perm := make([]int32, len(w))
	for pos, x := range w {
		perm[pos] = int32(x & low)
	}
	return perm
}

// orderFewKeys is orderByKey by counting, for the n keys key(0..n−1),
// when they take at most limit distinct values (else ok is false): one pass
// finds the values, one counts each, one places every index after the
// smaller keys and the equal keys before it; sizes are the counts of the
// distinct values, in order. key is called about three times per index, so
// the keys need not be held in memory, and from any goroutine: the
// counting and the placing run on all cores over parts of the indices
// (the equal keys of an earlier part go first, so the order is the same).
func orderFewKeys(n int, key func(int) uint64, limit int) (perm []int32, sizes []int, ok bool) {
	var vals []uint64 // the distinct keys, sorted
	find := func(k uint64) (int, bool) { return slices.BinarySearch(vals, k) }
	var prev uint64
	for i := range n {
		k := key(i)
		if i > 0 && k == prev {
			continue
		}
		prev = k
		if j, found := find(k); !found {
			if len(vals) == limit {
				return nil, nil, false
			}
			vals = slices.Insert(vals, j, k)
		}
	}
	parts := runtime.GOMAXPROCS(0)
	if n < 1<<16 {
		parts = 1
	}
	each := func(f func(part, lo, hi int)) {
		var wg sync.WaitGroup
		for part := range parts {
			wg.Go(func() { f(part, n*part/parts, n*(part+1)/parts) })
		}
		wg.Wait()
	}
	counts := make([][]int, parts)
	each(func(part, lo, hi int) {
		c := make([]int, len(vals))
		for i := lo; i < hi; i++ {
			j, _ := find(key(i))
			c[j]++
		}
		counts[part] = c
	})
	// next[part][j]: where part's first index with value j goes.
	sizes = make([]int, len(vals))
	for _, c := range counts {
		for j, k := range c {
			sizes[j] += k
		}
	}
	next := make([][]int, parts)
	base := 0
	for j := range vals {
		at := base
		for part := range parts {
			if next[part] == nil {
				next[part] = make([]int, len(vals))
			}
			next[part][j] = at
			at += counts[part][j]
		}
		base += sizes[j]
	}
	perm = make([]int32, n)
	each(func(part, lo, hi int) {
		nx := next[part]
		for i := lo; i < hi; i++ {
			j, _ := find(key(i))
			perm[nx[j]] = int32(i)
			nx[j]++
		}
	})
	return perm, sizes, true
}

// radixHigh32 sorts a by its top 32 bits, stably (two LSD passes of 16
// bits).
func radixHigh32(a []uint64) {
	buf := make([]uint64, len(a))
	var count [1 << 16]int
	src, dst := a, buf
	for shift := uint(32); shift < 64; shift += 16 {
		clear(count[:])
		for _, x := range src {
			count[(x>>shift)&0xffff]++
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, x := range src {
			d := (x >> shift) & 0xffff
			dst[count[d]] = x
			count[d]++
		}
		src, dst = dst, src
	}
	// Two passes: the result is back in a.
}
