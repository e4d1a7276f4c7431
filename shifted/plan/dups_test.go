package plan

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/privamp/privamp/internal/lines"
)

// TestSortHashWords: the radix sort orders by the top 32 bits and keeps
// the order of equal ones, as a stable sort does, on uniform words and on
// words crowded into a few values of the top bits.
func TestSortHashWords(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	sizes := []int{0, 1, 2, 100, 70_000, 300_000}
	if testing.Short() {
		sizes = sizes[:5]
	}
	for _, n := range sizes {
		for _, mask := range []uint64{^uint64(0), 0x0003_ffff_ffff_ffff, 0xffff_0000_0000_00ff, 0x0000_0007_ffff_ffff} {
			a := make([]uint64, n)
			for i := range a {
				a[i] = r.Uint64() & mask
			}
			for _, lowBit := range []uint{32, 36} {
				b := slices.Clone(a)
				want := slices.Clone(a)
				slices.SortStableFunc(want, func(x, y uint64) int { return cmp.Compare(x>>lowBit, y>>lowBit) })
				if got := sortHashWords(b, make([]uint64, n), lowBit); !slices.Equal(got, want) {
					t.Fatalf("n = %d, mask %x, key from bit %d: not sorted stably", n, mask, lowBit)
				}
			}
		}
	}
}

// TestDuplicatesMatchMap: duplicates finds exactly the repeats a map of
// strings finds (each repeat paired with the first occurrence), on ids
// drawn with many repeats.
func TestDuplicatesMatchMap(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{2, 10, 1000, 200_000} {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = "id" + strconv.Itoa(r.IntN(n))
		}
		var want [][2]int
		first := map[string]int{}
		for i, id := range ids {
			if f, ok := first[id]; ok {
				want = append(want, [2]int{f, i})
			} else {
				first[id] = i
			}
		}
		if got := duplicates(new(NewIDs(ids...))); !reflect.DeepEqual(got, want) {
			t.Fatalf("n = %d: %d pairs, want %d", n, len(got), len(want))
		}
		// Split into passes by hash bits (as for 10⁷ ids): the same pairs.
		defer func(m int) { dupsPassMin = m }(dupsPassMin)
		for _, m := range []int{n / 2, n / 4, 1} {
			dupsPassMin = m
			if got := duplicates(new(NewIDs(ids...))); !reflect.DeepEqual(got, want) {
				t.Fatalf("n = %d, passes of ≥ %d ids: %d pairs, want %d", n, m, len(got), len(want))
			}
		}
		dupsPassMin = 1 << 20
	}
}

// TestOrderByKey: the in-place order agrees with a stable radix sort of
// (key, index) pairs, on keys that repeat, keys that are all distinct and
// keys that share their top 32 bits but not the rest.
func TestOrderByKey(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for _, n := range []int{1, 2, 300, 100_000} {
		for _, gen := range []func() uint64{
			func() uint64 { return floatKey([]float64{0.1, 1, 4}[r.IntN(3)]) },
			func() uint64 { return floatKey(0.1 + 4*r.Float64()) },
			func() uint64 { return 7<<32 | uint64(r.IntN(5)) },
			func() uint64 { return uint64(r.IntN(3))<<32 | uint64(r.IntN(3)) },
			// more than orderFewKeys takes: the radix path, with runs of
			// equal top bits whose low bits differ
			func() uint64 { return 7<<32 | uint64(r.IntN(1000)) },
			func() uint64 { return uint64(r.IntN(100))<<32 | uint64(r.IntN(100)) },
		} {
			keys := make([]uint64, n)
			pairs := make([]keyed, n)
			for i := range keys {
				keys[i] = gen()
				pairs[i] = keyed{keys[i], int32(i)}
			}
			radixSort(pairs)
			got := orderByKey(keys)
			for pos := range pairs {
				if got[pos] != pairs[pos].i {
					t.Fatalf("n = %d: position %d holds %d, want %d", n, pos, got[pos], pairs[pos].i)
				}
			}
		}
	}
}

// TestReadCSVLineLimit: a line past lines.MaxBytes is refused naming its
// line and the limit, without reading the rest.
func TestReadCSVLineLimit(t *testing.T) {
	long := strings.Repeat("x", lines.MaxBytes+1)
	for _, head := range []string{"id,epsilon\n", "\"id\",epsilon\n", "id,epsilon\n\"q\",3\n"} {
		_, err := ReadCSV(strings.NewReader(head + "a,1\n" + long + ",1\nb,2\n"))
		want := strings.Count(head, "\n") + 2
		if err == nil || err.Error() != fmt.Sprintf("line %d: longer than %d bytes, the most a line may hold", want, lines.MaxBytes) {
			t.Errorf("%q: %v", head, err)
		}
	}
}
