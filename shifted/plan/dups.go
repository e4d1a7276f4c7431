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
// bits of a seeded hash above the index — (sortHashWords, stable, so equal
// hash bits stay in index order), and compares the ids only inside runs of
// equal hash bits, so it is exact: equal ids have equal hashes and are
// always compared, and ids that merely share their hash bits are told apart
// by the comparison. For 10⁷ random ids about 10⁴ pairs share their hash
// bits by chance, each costing one comparison.
//
// Its memory is bounded: every id is hashed once, in order, into 32 bits
// (4 bytes per id); the ids are split by the top bits of those into up to
// dupsPasses passes (equal ids always fall in the same one), so the work
// arrays hold about n/passes words (for 10⁷ ids: 40 MB of hashes, 16
// passes of 5 MB and a sorting buffer as large, not 80 MB), and the word of
// an id holds the other 32 − passes bits of its hash above its index.
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
	// The top 32 bits of every id's hash, computed once, in a sequential
	// scan of the ids (reading them sparsely, pass by pass, costs a cache
	// miss per id).
	hs := make([]uint32, n)
	each(func(part, lo, hi int) {
		c := make([]int, passes)
		for i := lo; i < hi; i++ {
			h := uint32(maphash.Bytes(seed, ids.bytes(i)) >> 32)
			hs[i] = h
			c[h>>(32-pb)]++
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
	buf := make([]uint64, most)
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
				h := hs[i]
				if int(h>>(32-pb)) != pass {
					continue
				}
				w[k] = uint64(h<<pb)<<32 | uint64(i)
				k++
			}
		})
		v := sortHashWords(w[:start[parts]], buf[:start[parts]]) // equal hashes in index order
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
	if n >= 1<<22 {
		// The work arrays (for 10⁷ ids 50 MB) are garbage now, and the
		// collector's next goal is twice the live heap: without a
		// collection here a caller's next allocations (Make's order, a
		// plan's) add to the process's peak instead of reusing them. The
		// heap holds few pointers, so it costs milliseconds.
		runtime.GC()
	}
	return out
}

// sortHashWords sorts the words a by their top 32 bits, keeping words with
// equal top bits in their order (LSD radix sort, three passes of 11 bits,
// through buf, which has a's length), and returns the sorted words (a or
// buf).
func sortHashWords(a, buf []uint64) []uint64 {
	if len(a) < 256 {
		slices.SortStableFunc(a, func(x, y uint64) int { return cmp.Compare(x>>32, y>>32) })
		return a
	}
	src, dst := a, buf
	const digit, mask = 11, 1<<11 - 1
	var count [1 << digit]int
	for sh := uint(32); sh < 64; sh += digit {
		clear(count[:])
		for _, x := range src {
			count[(x>>sh)&mask]++
		}
		sum := 0
		for d := range count {
			c := count[d]
			count[d] = sum
			sum += c
		}
		for _, x := range src {
			d := (x >> sh) & mask
			dst[count[d]] = x
			count[d]++
		}
		src, dst = dst, src
	}
	return src
}

// dupsPasses is the most passes duplicates makes (a power of two).
const dupsPasses = 16

// dupsPassMin is the fewest ids a pass is split down to (lowered by tests).
var dupsPassMin = 1 << 20

// done marks an entry of duplicates' work array that is already paired (no
// id has index 2³²−1: MaxPeople is smaller).
const done = ^uint64(0)
