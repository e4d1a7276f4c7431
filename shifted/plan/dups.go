package plan

import (
	"cmp"
	"hash/maphash"
	"slices"
)

// duplicates returns, for every id that repeats an earlier one, the pair
// (index of the first occurrence, index of the repeat), ordered by the
// repeat. Instead of a map of strings it sorts one 64-bit word per id — the
// top 32 bits of a seeded hash above the index — by the hash bits (two
// radix passes, which keep the index order within equal hashes), and
// compares the strings only inside runs of equal hash bits: linear time,
// 16 bytes per id. For 10⁷ random ids about 10⁴ pairs share their 32 hash
// bits by chance; each costs one string comparison.
func duplicates(ids []string) [][2]int {
	n := len(ids)
	if n < 2 {
		return nil
	}
	seed := maphash.MakeSeed()
	w := make([]uint64, n)
	parallel(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			w[i] = maphash.String(seed, ids[i])&^(1<<32-1) | uint64(i)
		}
	})
	radixHigh32(w)
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
				if w[b] != done && ids[ia] == ids[w[b]&low] {
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
