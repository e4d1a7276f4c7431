package plan

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
)

// duplicates returns, for every id that repeats an earlier one, the pair
// (index of the first occurrence, index of the repeat), ordered by the
// repeat. Instead of a map of strings it sorts one 64-bit word per id — the
// top 32 bits of a seeded hash above the index — in place (sortWords), and
// compares the strings only inside runs of equal hash bits, so it is exact:
// equal ids have equal hashes and are always compared, and ids that merely
// share their hash bits are told apart by the comparison. 8 bytes per id;
// for 10⁷ random ids about 10⁴ pairs share their 32 hash bits by chance,
// each costing one string comparison.
func duplicates(ids *IDs) [][2]int {
	n := ids.Len()
	if n < 2 {
		return nil
	}
	seed := maphash.MakeSeed()
	w := make([]uint64, n)
	parallel(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			w[i] = maphash.Bytes(seed, ids.bytes(i))&^(1<<32-1) | uint64(i)
		}
	})
	sortWords(w)
	var out [][2]int
	const low = 1<<32 - 1
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && w[hi]>>32 == w[lo]>>32 {
			hi++
		}
		// Equal hash bits, in index order: pair every repeat with the first
		// equal id (marking it done, so k copies of one id cost O(k)).
		for a := lo; a < hi-1; a++ {
			if w[a] == done {
				continue
			}
			ia := int(w[a] & low)
			for b := a + 1; b < hi; b++ {
				if w[b] != done && bytes.Equal(ids.bytes(ia), ids.bytes(int(w[b]&low))) {
					out = append(out, [2]int{ia, int(w[b] & low)})
					w[b] = done
				}
			}
		}
		lo = hi
	}
	slices.SortFunc(out, func(a, b [2]int) int { return cmp.Compare(a[1], b[1]) })
	return out
}

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
