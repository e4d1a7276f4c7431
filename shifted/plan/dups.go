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
// dupsPasses passes (equal ids always fall in the same one), run on
// GOMAXPROCS goroutines, two to a scan of the hashes, each goroutine with
// work arrays of about n/passes words (for 10⁷ ids: 40 MB of hashes, and
// per goroutine two arrays of 5 MB and a sorting buffer as large, not 80
// MB); the word of an id holds the other 32 − log₂ passes
// bits of its hash above its index.
func duplicates(ids *IDs) [][2]int {
	n := ids.Len()
	if n < 2 {
		return nil
	}
	if n >= 1<<22 {
		// Collect the caller's garbage (a reader's buffers) first, so that
		// the work arrays below reuse its memory instead of adding to the
		// process's peak.
		runtime.GC()
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
	// The passes run on parts goroutines at once, two passes to a scan of
	// hs, each goroutine with its own work arrays, filled in index order.
	outs := make([][][2]int, parts)
	var wg sync.WaitGroup
	for part := range parts {
		wg.Go(func() {
			var w [2][]uint64
			w[0] = make([]uint64, most)
			buf := make([]uint64, most)
			for pass := part; pass < passes; pass += 2 * parts {
				two := pass+parts < passes
				if two && w[1] == nil {
					w[1] = make([]uint64, most)
				}
				var k [2]int
				for i, h := range hs {
					q := int(h >> (32 - pb))
					switch {
					case q == pass:
						w[0][k[0]] = uint64(h<<pb)<<32 | uint64(i)
						k[0]++
					case two && q == pass+parts:
						w[1][k[1]] = uint64(h<<pb)<<32 | uint64(i)
						k[1]++
					}
				}
				for j := range 2 {
					if j == 0 || two {
						v := sortHashWords(w[j][:k[j]], buf[:k[j]], 32+pb) // equal hashes in index order
						outs[part] = pairEqual(ids, v, outs[part])
					}
				}
			}
		})
	}
	wg.Wait()
	var out [][2]int
	for _, o := range outs {
		out = append(out, o...)
	}
	slices.SortFunc(out, func(a, b [2]int) int { return cmp.Compare(a[1], b[1]) })
	if n >= 1<<22 {
		// The work arrays (for 10⁷ ids 70 MB) are garbage now, and the
		// collector's next goal is twice the live heap: without a
		// collection here a caller's next allocations (Make's order, a
		// plan's) add to the process's peak instead of reusing them. The
		// heap holds few pointers, so it costs milliseconds.
		runtime.GC()
	}
	return out
}

// pairEqual appends to out the pairs (first occurrence, repeat) among the
// words v (sorted by their top 32 bits, equal ones in index order; the low
// 32 bits are ids' indices): it compares ids only inside runs of equal top
// bits, pairing every repeat with the first equal id (and marking it done,
// so k copies of one id cost O(k)).
func pairEqual(ids *IDs, v []uint64, out [][2]int) [][2]int {
	const low = 1<<32 - 1
	for lo := 0; lo < len(v); {
		hi := lo + 1
		for hi < len(v) && v[hi]>>32 == v[lo]>>32 {
			hi++
		}
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
	return out
}

// sortHashWords sorts the words a by their bits from, and above, bit
// lowBit (≥ 32: the bits below it are an index, and lowBit..63 the key),
// keeping words with equal keys in their order (LSD radix sort, digits of
// up to 14 bits, through buf, which has a's length), and returns the
// sorted words (a or buf).
func sortHashWords(a, buf []uint64, lowBit uint) []uint64 {
	if len(a) < 256 {
		slices.SortStableFunc(a, func(x, y uint64) int { return cmp.Compare(x>>lowBit, y>>lowBit) })
		return a
	}
	src, dst := a, buf
	const digit = 14
	count := make([]int, 1<<digit)
	for sh := lowBit; sh < 64; sh += digit {
		mask := uint64(1)<<min(digit, 64-sh) - 1
		clear(count)
		for _, x := range src {
			count[(x>>sh)&mask]++
		}
		sum := 0
		for d, c := range count {
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
