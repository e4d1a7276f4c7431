package plan

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/privamp/privamp/dp"
)

func TestReadCSV(t *testing.T) {
	in := "\ufeffId, Epsilon ,delta,name\n" +
		"alice,0.1,,Alice\n" +
		"\"bob, jr\",1,1e-8,Bob\n" +
		"carol,4,,\"C\nmultiline\"\n"
	p, err := ReadCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &People{ID: NewIDs("alice", "bob, jr", "carol"), Epsilon: []float64{0.1, 1, 4}, Delta: []float64{0, 1e-8, 0}}
	if !samePeople(p, want) {
		t.Errorf("got %+v, want %+v", p, want)
	}
	// Without a delta column: Delta stays nil.
	p, err = ReadCSV(strings.NewReader("epsilon,id\n2,x\n3,y\n"))
	if err != nil || p.Delta != nil || p.ID.At(1) != "y" || p.Epsilon[0] != 2 {
		t.Errorf("%+v %v", p, err)
	}
}

func TestReadCSVErrorsByLine(t *testing.T) {
	cases := []struct {
		name, in string
		lines    []int
		contains []string
	}{
		{"empty", "", []int{1}, []string{"empty file"}},
		{"no rows", "id,epsilon\n", []int{2}, []string{"no people"}},
		{"missing column", "id,eps\na,1\n", []int{1}, []string{"epsilon"}},
		{"duplicate column", "id,epsilon,ID\n", []int{1}, []string{"twice"}},
		{"bad values", "id,epsilon,delta\n" +
			"a,0.1,\n" + // 2 ok
			"b,-1,\n" + // 3 negative
			"c,0,\n" + // 4 zero
			"d,abc,\n" + // 5 not a number
			"e,inf,\n" + // 6 not finite
			"f,NaN,\n" + // 7 not finite
			"g,1,1.5\n" + // 8 delta out of range
			"h,1,0\n" + // 9 delta zero
			",1,\n" + // 10 empty id
			"i\n" + // 11 missing columns
			"a,2,\n" + // 12 duplicate of line 2
			"j,1,1e-6,extra\n" + // 13 too many fields
			"k,0x1p-2,\n" + // 14 hex float refused
			"l,2,\n", // 15 ok
			[]int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14},
			[]string{"12 invalid rows", "line 3: epsilon must be > 0, got -1", "line 5: epsilon \"abc\" is not a number", "line 6: epsilon must be a finite number > 0", "line 8: delta must be in (0, 1)", "line 10: empty id", "line 11: missing column(s) epsilon, delta", "line 12: duplicate id \"a\" (first on line 2)"}},
		{"bare quote", "id,epsilon\na,1\nb\"x,2\nc,3\n", []int{3}, []string{"malformed CSV"}},
		{"multiline record lines", "id,epsilon\n\"a\nb\",1\nc,-2\n", []int{4}, []string{"line 4"}},
	}
	for _, c := range cases {
		_, err := ReadCSV(strings.NewReader(c.in))
		var pe dp.Errors
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v is not a dp.Errors", c.name, err)
			continue
		}
		var lines []int
		for _, r := range pe {
			lines = append(lines, r.Line)
		}
		if !reflect.DeepEqual(lines, c.lines) {
			t.Errorf("%s: lines %v, want %v (%v)", c.name, lines, c.lines, err)
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("%s: message spans lines: %q", c.name, msg)
		}
		for _, s := range c.contains {
			if !strings.Contains(msg, s) {
				t.Errorf("%s: %q lacks %q", c.name, msg, s)
			}
		}
	}
}

// TestReadCSVFullList: every invalid row is reported, even thousands.
func TestReadCSVFullList(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,epsilon\n")
	bad := 0
	for i := 0; i < 40000; i++ {
		if i%3 == 0 {
			fmt.Fprintf(&b, "p%d,-%d\n", i, i+1)
			bad++
		} else {
			fmt.Fprintf(&b, "p%d,%d\n", i, i+1)
		}
	}
	_, err := ReadCSV(strings.NewReader(b.String()))
	var pe dp.Errors
	if !errors.As(err, &pe) || len(pe) != bad {
		t.Fatalf("%d rows reported, want %d", len(pe), bad)
	}
	for i, r := range pe {
		if r.Line != 2+3*i {
			t.Fatalf("row %d at line %d, want %d", i, r.Line, 2+3*i)
		}
	}
	msg := err.Error()
	more := fmt.Sprintf("; … and %d more", bad-MaxListed)
	if !strings.HasPrefix(msg, fmt.Sprintf("%d invalid rows: line 2: ", bad)) || !strings.HasSuffix(msg, more) || strings.Count(msg, "; line ") != MaxListed-1 {
		t.Errorf("message %.200q … (%d bytes)", msg, len(msg))
	}
}

func TestDuplicates(t *testing.T) {
	ids := []string{"a", "b", "a", "c", "b", "a"}
	got := duplicates(new(NewIDs(ids...)))
	want := [][2]int{{0, 2}, {1, 4}, {0, 5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// Against a map, with many repeats and 10⁵ ids.
	r := rand.New(rand.NewPCG(3, 4))
	ids = make([]string, 100_000)
	for i := range ids {
		ids[i] = "id" + strconv.Itoa(r.IntN(150_000))
	}
	first := map[string]int{}
	want = nil
	for i, id := range ids {
		if f, ok := first[id]; ok {
			want = append(want, [2]int{f, i})
		} else {
			first[id] = i
		}
	}
	if got := duplicates(new(NewIDs(ids...))); !reflect.DeepEqual(got, want) || len(want) < 10_000 {
		t.Errorf("%d repeats found, the map finds %d", len(got), len(want))
	}
}

func TestParseTier(t *testing.T) {
	good := map[string]TierSpec{
		"0.01:0.1":              {Size: 0.01, Epsilon: 0.1},
		"strict=0.01:0.1:1e-8":  {Name: "strict", Size: 0.01, Epsilon: 0.1, Delta: 1e-8},
		"1000:4":                {Size: 1000, Epsilon: 4},
		" vip = 3 : 0.5 : 1e-9": {Name: "vip", Size: 3, Epsilon: 0.5, Delta: 1e-9},
	}
	for in, want := range good {
		got, err := ParseTier(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v %v", in, got, err)
		}
	}
	for _, in := range []string{"0.1", "0.1:x", "a:1", "0.1:0", "0.1:-1", "0.1:inf", "0.1:1:2", "0.1:1:0", "=0.1:1", "0:1", "-1:1", "1:2:3:4", "a,b=1:1"} {
		if _, err := ParseTier(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestResolveTiers(t *testing.T) {
	specs := []TierSpec{{Size: 1 / 3.0, Epsilon: 1}, {Size: 1 / 3.0, Epsilon: 2}, {Size: 1 / 3.0, Epsilon: 3}}
	tiers, notes, err := ResolveTiers(specs, 100)
	if err != nil || tiers[0].Count != 34 || tiers[1].Count != 33 || tiers[2].Count != 33 || len(notes) != 3 {
		t.Errorf("%+v %v %v", tiers, notes, err)
	}
	if _, _, err := ResolveTiers([]TierSpec{{Size: 0.5, Epsilon: 1}, {Size: 0.4, Epsilon: 2}}, 100); err == nil {
		t.Error("shares summing to 0.9 accepted")
	}
	if _, _, err := ResolveTiers([]TierSpec{{Size: 0.999, Epsilon: 1}, {Size: 0.001, Epsilon: 2}}, 100); err == nil {
		t.Error("a tier rounding to nobody accepted")
	}
	if _, _, err := ResolveTiers([]TierSpec{{Size: 1.5, Epsilon: 1}}, 0); err == nil {
		t.Error("a fractional count accepted")
	}
	tiers, _, err = ResolveTiers([]TierSpec{{Size: 10, Epsilon: 1}, {Name: "b", Size: 5, Epsilon: 2}}, 0)
	if err != nil || tiers[0].Count != 10 || tiers[1].Name != "b" || tiers[0].Name != "tier1" {
		t.Errorf("%+v %v", tiers, err)
	}
	if _, _, err := ResolveTiers([]TierSpec{{Name: "x", Size: 1, Epsilon: 1}, {Name: "x", Size: 1, Epsilon: 2}}, 0); err == nil {
		t.Error("duplicate tier names accepted")
	}
}

// TestRadixSort compares the radix sort with a stable comparison sort,
// including equal keys (stability) and negative floats (floatKey).
func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, n := range []int{0, 1, 100, 5000} {
		a := make([]keyed, n)
		for i := range a {
			x := math.Round((r.Float64()-0.5)*40) / 4 // many ties, both signs
			a[i] = keyed{floatKey(x), int32(i)}
		}
		b := append([]keyed(nil), a...)
		radixSort(a)
		slices.SortStableFunc(b, func(x, y keyed) int { return cmp.Compare(x.k, y.k) })
		if !slices.Equal(a, b) {
			t.Errorf("n = %d: radix sort differs from a stable sort", n)
		}
	}
	for _, p := range [][2]float64{{-2, -1}, {-1, 0}, {0, 1e-300}, {1, 2}, {-math.MaxFloat64, math.MaxFloat64}} {
		if !(floatKey(p[0]) < floatKey(p[1])) {
			t.Errorf("floatKey(%v) ≥ floatKey(%v)", p[0], p[1])
		}
	}
}

// readCSVReference reads the whole input with encoding/csv (ReadCSV's slow
// path from line 1), as ReadCSV did before the hand-written splitter:
// FuzzReadCSV and TestReadCSVMatchesReference compare the two.
func readCSVReference(r io.Reader) (*People, error) {
	return (&peopleReader{p: &People{}, size: -1}).slow(r, 1)
}

func samePeople(a, b *People) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.Equal(a.ID.Strings(), b.ID.Strings()) && slices.Equal(a.Epsilon, b.Epsilon) && slices.Equal(a.Delta, b.Delta)
}

// TestReadCSVMatchesReference: the fast path and encoding/csv agree on the
// people and on every error line, including files that switch to the slow
// path half-way, CRLF line ends, blank lines and a last line without a
// newline.
func TestReadCSVMatchesReference(t *testing.T) {
	ins := referenceInputs()
	for _, in := range ins {
		got, err := ReadCSV(strings.NewReader(in))
		want, werr := readCSVReference(strings.NewReader(in))
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) || !samePeople(got, want) {
			t.Errorf("%.60q: ReadCSV %v (%d people), reference %v", in, err, peopleLen(got), werr)
		}
	}
	// Read through a plain io.Reader (no size known) in small pieces.
	got, err := ReadCSV(iotest.OneByteReader(strings.NewReader(ins[0])))
	want, _ := readCSVReference(strings.NewReader(ins[0]))
	if err != nil || !samePeople(got, want) || got.Len() != 2 {
		t.Errorf("one byte at a time: %+v %v", got, err)
	}
}

// referenceInputs are people CSVs that exercise the fast path, the switch
// to encoding/csv and the errors.
func referenceInputs() []string {
	ins := []string{
		"id,epsilon\r\na,1\r\n\r\nb,2\r\n",
		"id,epsilon,delta\na,1,\n\nb,2,1e-9\nc,3",
		"id , epsilon\n  a , 1 \n b,2\n",
		"x,id,epsilon,y\n1,a,1,2\n,b,2,\n3,c,-1,\n4,a,5,\n",
		"id,epsilon\na,1\nb,2\n\"c,\",3\nd,\"4\"\na,5\n",
		"\"id\",epsilon\na,1\n",
		"id,epsilon\na,1\nb\"x,2\nc,3\n",
		"id,epsilon\na,1e400\nb,1_0\nc,0x10\nd,\t7\n",
		"id,epsilon\n\u00a0a,1\nb\u00a0,2\n",
		"id,epsilon\r",
		"\n\nid,epsilon\n\na,1\n",
		"id,epsilon,delta\na,1,,\nb\n,\n",
	}
	var long strings.Builder
	long.WriteString("id,epsilon,delta\n")
	for i := 0; i < 120000; i++ { // beyond the first buffer: preallocation and line marks
		switch {
		case i%9973 == 0:
			long.WriteString("\n")
		case i%7919 == 0:
			fmt.Fprintf(&long, "p%d,-1,\n", i)
		case i%5003 == 0:
			fmt.Fprintf(&long, "p%d,2,\n", i-1)
		default:
			fmt.Fprintf(&long, "p%d,%d,1e-%d\n", i, i%5+1, i%9+2)
		}
	}
	return append(ins, long.String(), strings.Replace(long.String(), "p100000,", "\"p100000\",", 1))
}

func peopleLen(p *People) int {
	if p == nil {
		return -1
	}
	return p.Len()
}

// TestReadCSVChecked: Make does not check ReadCSV's ids again, but a
// replaced ID column is checked.
func TestReadCSVChecked(t *testing.T) {
	p, err := ReadCSV(strings.NewReader("id,epsilon\na,1\nb,2\n"))
	if err != nil || !p.idsChecked() {
		t.Fatalf("%v %v", p, err)
	}
	p.ID = NewIDs("a", "a")
	if p.idsChecked() || (Budgets{People: p}).Validate() == nil {
		t.Error("a replaced ID column with a repeat passed")
	}
}
