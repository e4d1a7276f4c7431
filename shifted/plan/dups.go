package plan

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"math/bits"
	"runtime"
	"slices"
	"sync"
)

// duplicates returns, for every id that repeats an earlier one, the pair
// (index of the first occurrence, index of the repeat), ordered by the
// repeat. Instead of a map of strings it sorts one 64-bit word per id — 32
// bits of a seeded hash above the index — in place (sortWords), and
// compares the ids only inside runs of equal hash bits, so it is exact:
// equal ids have equal hashes and are always compared, and ids that merely
// share their hash bits are told apart by the comparison. For 10⁷ random
// ids about 10⁴ pairs share their hash bits by chance, each costing one
// comparison.
//
// Its memory is bounded: the ids are split by the top bits of their hash
// into up to dupsPasses passes (equal ids always fall in the same one), so
// the work array holds about n/passes words (for 10⁷ ids 8 passes, 10 MB, not 80 MB);
// each pass hashes every id again, which costs far less than the sort.
func duplicates(ids *IDs) [][2]int {
	n := ids.Len()
	if n < 2 {
		return nil
	}
	seed := maphash.MakeSeed()
	passes := 1
	for passes < dupsPasses && n/passes > dupsPassMin {
		passes *= 2
	}
	pb := uint(bits.TrailingZeros(uint(passes))) // a pass is the top pb bits of the hash
	shift := 64 - pb
	parts := runtime.GOMAXPROCS(0)
	if n < 50_000 {
		parts = 1
	}
	// count[part][pass]: how many ids of each part fall in each pass.
	count := make([][]int, parts)
	each := func(f func(part, lo, hi int)) {
		var wg sync.WaitGroup
		for part := range parts {
			wg.Go(func() { f(part, n*part/parts, n*(part+1)/parts) })
		}
		wg.Wait()
	}
	each(func(part, lo, hi int) {
		c := make([]int, passes)
		for i := lo; i < hi && passes > 1; i++ {
			c[maphash.Bytes(seed, ids.bytes(i))>>shift]++
		}
		if passes == 1 {
			c[0] = hi - lo
		}
		count[part] = c
	})
	most := 0
	for pass := range passes {
		total := 0
		for part := range parts {
			total += count[part][pass]
		}
		most = max(most, total)
	}
	w := make([]uint64, most)
	var out [][2]int
	const low = 1<<32 - 1
	for pass := range passes {
		start := make([]int, parts+1)
		for part := range parts {
			start[part+1] = start[part] + count[part][pass]
		}
		each(func(part, lo, hi int) {
			k := start[part]
			for i := lo; i < hi; i++ {
				h := maphash.Bytes(seed, ids.bytes(i))
				if passes > 1 && int(h>>shift) != pass {
					continue
				}
				w[k] = (h<<pb)&^low | uint64(i)
				k++
			}
		})
		v := w[:start[parts]]
		sortWords(v)
		for lo := 0; lo < len(v); {
			hi := lo + 1
			for hi < len(v) && v[hi]>>32 == v[lo]>>32 {
				hi++
			}
			// Equal hash bits, in index order: pair every repeat with the
			// first equal id (marking it done, so k copies of one id cost
			// O(k)).
			for a := lo; a < hi-1; a++ {
				if v[a] == done {
					continue
				}
				ia := int(v[a] & low)
				for b := a + 1; b < hi; b++ {
					if v[b] != done && bytes.Equal(ids.bytes(ia), ids.bytes(int(v[b]&low))) {
						out = append(out, [2]int{ia, int(v[b] & low)})
						v[b] = done
					}
				}
			}
			lo = hi
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return cmp.Compare(a[1], b[1]) })
	return out
}

// dupsPasses is the most passes duplicates makes (a power of two).
const dupsPasses = 8

// dupsPassMin is the fewest ids a pass is split down to (lowered by tests).
var dupsPassMin = 1 << 20

// done marks an entry of duplicates' work array that is already paired (no
// id has index 2³²−1: MaxPeople is smaller).
const done = ^uint64(0)

// sortWords sorts a in place, without a second buffer: one in-place
// radix pass on the top 8 bits (American flag sort: each word is swapped
// into its bucket; 256 write positions stay in cache), then each bucket —
// about n/256 words, which fit in cache for n = 10⁷ — by value. Sorting by
// the whole word orders equal hash bits by index.
func sortWords(a []uint64) {
	const shift = 56
	var start, next [1<<8 + 1]int
	for _, x := range a {
		start[x>>shift+1]++
	}
	for d := 1; d <= 1<<8; d++ {
		start[d] += start[d-1]
	}
	copy(next[:], start[:])
	for d := 0; d < 1<<8; d++ {
		for next[d] < start[d+1] {
			x := a[next[d]]
			dd := int(x >> shift)
			if dd == d {
				next[d]++
				continue
			}
			a[next[d]], a[next[dd]] = a[next[dd]], x
			next[dd]++
		}
	}
	sortBuckets := func(lo, hi int) {
		for d := lo; d < hi; d++ {
			slices.Sort(a[start[d]:start[d+1]])
		}
	}
	parts := runtime.GOMAXPROCS(0)
	if len(a) < 1<<16 || parts < 2 {
		sortBuckets(0, 1<<8)
		return
	}
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		wg.Go(func() { sortBuckets(256*p/parts, 256*(p+1)/parts) })
	}
	wg.Wait()
}
