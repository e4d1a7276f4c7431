package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

func roundTrip(t *testing.T, p *Plan) *Plan {
	t.Helper()
	var buf bytes.Buffer
	n, err := p.WriteTo(&buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("WriteTo: %d bytes of %d, %v", n, buf.Len(), err)
	}
	if !json.Valid(buf.Bytes()) {
		t.Fatalf("not JSON:\n%s", buf.String())
	}
	q, err := Load(&buf)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return q
}

func TestPlanRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	pp := randomPeople(r, 50, true)
	ids := pp.ID.Strings()
	ids[3] = "quote\"and\\back\nslash<é>"
	pp.ID = NewIDs(ids...)
	res, err := Make(baseSetting(PNSGD), Budgets{People: pp})
	if err != nil {
		t.Fatal(err)
	}
	q := roundTrip(t, res.Plan)
	if !reflect.DeepEqual(q, res.Plan) {
		t.Errorf("round trip changed the plan:\n%+v\n%+v", q, res.Plan)
	}
	tr, err := Make(baseSetting(Skip), Budgets{Tiers: exampleTiers(t, 1000)})
	if err != nil {
		t.Fatal(err)
	}
	q = roundTrip(t, tr.Plan)
	if !reflect.DeepEqual(q, tr.Plan) {
		t.Errorf("tier plan changed:\n%+v\n%+v", q, tr.Plan)
	}
	if v, err := q.Verify(); err != nil || !v.OK || v.Checked != 1000 {
		t.Errorf("verify loaded plan: %+v %v", v, err)
	}
}

func TestClaimsAndArrange(t *testing.T) {
	pp := &People{ID: NewIDs("a", "b", "c", "d", "e"), Epsilon: []float64{4, 0.5, 4, 0.1, 0.5}}
	res, err := Make(baseSetting(PNSGD), Budgets{People: pp})
	if err != nil {
		t.Fatal(err)
	}
	pl := res.Plan
	if got := pl.People.ID.Strings(); !reflect.DeepEqual(got, []string{"d", "b", "e", "a", "c"}) {
		t.Fatalf("order %v", got)
	}
	want := []Claim{{1, 1, 0.1, 1e-6}, {2, 3, 0.5, 1e-6}, {4, 5, 4, 1e-6}}
	if got := pl.Claims(); !reflect.DeepEqual(got, want) {
		t.Errorf("claims %v", got)
	}
	rows, err := pl.Arrange([]string{"a", "b", "c", "d", "e"}, nil)
	if err != nil || !reflect.DeepEqual(rows, []int{3, 1, 4, 0, 2}) {
		t.Errorf("arrange %v %v", rows, err)
	}
	// Each mismatch is a *dp.Error: a record by its file line (given
	// lines, here record i on line i+2) or its number, a position by its
	// number.
	for _, c := range []struct {
		keys []string
		want []string
	}{
		{[]string{"a", "b", "c", "d"}, []string{`position 3: planned person "e" is not in the data`}},
		{[]string{"a", "b", "c", "d", "x"}, []string{`line 6: id "x" is not in the plan`, `position 3: planned person "e" is not in the data`}},
		{[]string{"a", "b", "c", "d", "d", "e"}, []string{`line 6: id "d" appears twice in the data (first at record 4)`}},
		{[]string{"a", "b", "c", "d", "e", "f", "g"}, []string{`line 7: id "f" is not in the plan`, `line 8: id "g" is not in the plan`}},
	} {
		lines := make([]int, len(c.keys))
		for i := range lines {
			lines[i] = i + 2
		}
		_, err := pl.Arrange(c.keys, lines)
		var ae dp.Errors
		if !errors.As(err, &ae) || len(ae) != len(c.want) {
			t.Errorf("Arrange(%v): %v, want %v", c.keys, err, c.want)
			continue
		}
		for i, is := range ae {
			got := is.Field + ": " + is.Reason
			if is.Line > 0 {
				got = is.Error()
			}
			if got != c.want[i] {
				t.Errorf("Arrange(%v): mismatch %d is %q, want %q", c.keys, i, got, c.want[i])
			}
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, c.want[0]) {
			t.Errorf("message %q", msg)
		}
		var first *dp.Error
		if !errors.As(err, &first) || first != ae[0] {
			t.Errorf("errors.As finds %v, want the first mismatch", first)
		}
	}
	_, err = pl.Arrange([]string{"a", "b", "c", "d", "x"}, nil)
	if msg := err.Error(); msg != `1 record of the data: no place in the plan and 1 planned position: no record in the data: record 5: id "x" is not in the plan; position 3: planned person "e" is not in the data` {
		t.Errorf("message %q", msg)
	}
	// Tier plan: records keyed by tier name keep their order within a tier.
	tiers := []Tier{{Name: "loose", Count: 2, Epsilon: 4}, {Name: "strict", Count: 1, Epsilon: 0.1}}
	tr, err := Make(baseSetting(PNSGD), Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	rows, err = tr.Plan.Arrange([]string{"loose", "strict", "loose"}, nil)
	if err != nil || !reflect.DeepEqual(rows, []int{1, 0, 2}) {
		t.Errorf("tier arrange %v %v", rows, err)
	}
	_, err = tr.Plan.Arrange([]string{"loose", "loose", "loose", "vip"}, nil)
	var ae dp.Errors
	if !errors.As(err, &ae) || len(ae) != 3 || ae[0].Field != "record 3" || ae[1].Field != "record 4" || ae[2].Field != "position 1" {
		t.Errorf("too many records of a tier, an unknown tier and a short one: %v", err)
	}
	if got := tr.Plan.Claims(); len(got) != 2 || got[0] != (Claim{1, 1, 0.1, 1e-6}) {
		t.Errorf("tier claims %v", got)
	}
}

func TestLoadRefuses(t *testing.T) {
	res, err := Make(baseSetting(PNSGD), Budgets{Tiers: []Tier{{Name: "a", Count: 3, Epsilon: 1}, {Name: "b", Count: 2, Epsilon: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res.Plan.WriteTo(&buf)
	good := buf.String()
	cases := map[string]string{
		"":   "empty",
		"{}": "format",
		strings.Replace(good, `"version": 1`, `"version": 2`, 1):           "version",
		strings.Replace(good, `"format"`, `"extra": 1, "format"`, 1):       "unknown field",
		replaceLast(good, `"first": 4`, `"first": 5`):                      "positions",
		strings.Replace(good, `"n": 5`, `"n": 6`, 1):                       "lists 5",
		strings.Replace(good, `"variant": "pnsgd"`, `"variant": "sgd"`, 1): "variant",
		good + "{}": "extra data",
	}
	for in, want := range cases {
		if _, err := Load(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%.60q…): %v, want %q", in, err, want)
		}
	}
	// A hand-edited plan that breaks a promise fails Verify.
	bad := replaceLast(good, `"epsilon": 2`, `"epsilon": 0.01`)
	p, err := Load(strings.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.Verify()
	if err != nil || v.OK || v.ViolationCount != 2 || v.Violations[0].Tier != "b" {
		t.Errorf("verify of a broken plan: %+v %v", v, err)
	}
	// The groups agree with the violations and with package shifted.
	if len(v.Groups) != 2 || v.Groups[1].Tier != "b" || v.Groups[1].First != 4 || !(v.Groups[1].SlackMin < 0) || !(v.Groups[0].SlackMin > 0) {
		t.Fatalf("groups %+v", v.Groups)
	}
	s, _ := p.Options()
	if e := epsDirect(t, s, 5, p.Sigma, 5, 1e-6); !relClose(v.Groups[1].AchievedMax, e, 1e-9) || !relClose(v.Violations[1].Achieved, e, 1e-9) {
		t.Errorf("position 5: %v, %v; shifted %v", v.Groups[1].AchievedMax, v.Violations[1].Achieved, e)
	}
}

func replaceLast(s, old, new string) string {
	i := strings.LastIndex(s, old)
	if i < 0 {
		return s
	}
	return s[:i] + new + s[i+len(old):]
}

// TestExampleFiles: the plans under examples/plan load and verify.
func TestExampleFiles(t *testing.T) {
	for _, f := range []string{"../../examples/plan/plan.json", "../../examples/plan/tiers-plan.json", "../../examples/plan/breast-cancer-plan.json"} {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Load(fh)
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if v, err := p.Verify(); err != nil || !v.OK {
			t.Errorf("%s: %+v %v", f, v, err)
		}
	}
}

// TestLoadStrict: the rules every privamp JSON input shares (internal/jsonin).
// encoding/json matched "Sigma" to "sigma" and kept the last of a repeated
// key, so a hand-edited plan could carry two σ and be verified at the one
// read last; it refused "n": 5.0; and it read a plan of any size.
func TestLoadStrict(t *testing.T) {
	res, err := Make(baseSetting(PNSGD), Budgets{Tiers: []Tier{{Name: "a", Count: 3, Epsilon: 1}, {Name: "b", Count: 2, Epsilon: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res.Plan.WriteTo(&buf)
	good := buf.String()
	line := func(key string) int { return 1 + strings.Count(good[:strings.Index(good, key)], "\n") }
	cases := []struct {
		in, field string
		line      int
		reason    string
	}{
		{strings.Replace(good, `"sigma"`, `"Sigma"`, 1), "Sigma", line(`"sigma"`), `case-sensitive; did you mean "sigma"?`},
		{strings.Replace(good, `"sigma": `, `"sigma": 100, "sigma": `, 1), "sigma", line(`"sigma"`), fmt.Sprintf("repeated key (first on line %d)", line(`"sigma"`))},
		{strings.Replace(good, `"name": "a"`, `"name": "a", "Count": 3`, 1), "tiers[0].Count", line(`"name": "a"`), "case-sensitive"},
		{strings.Replace(good, `"n": 5`, `"n": 5.5`, 1), "n", line(`"n": 5`), "expected a whole number, got 5.5"},
		{strings.Replace(good, `"sigma": `, `"sigma": -`, 1), "sigma", 0, "must be a finite number > 0"},
		{replaceLast(good, `"first": 4`, `"first": 5`), "tiers[1]", 0, "positions 4–5"},
	}
	for _, c := range cases {
		_, err := Load(strings.NewReader(c.in))
		var fe *dp.Error
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Line != c.line || !strings.Contains(fe.Reason, c.reason) {
			t.Errorf("%v, want line %d field %q: …%s", err, c.line, c.field, c.reason)
		}
	}
	// Whole numbers in any notation.
	p, err := Load(strings.NewReader(strings.Replace(strings.Replace(good, `"n": 5`, `"n": 5.0`, 1), `"count": 3`, `"count": 3e0`, 1)))
	if err != nil || p.N != 5 || p.Tiers[0].Count != 3 {
		t.Fatalf("whole numbers: %v", err)
	}
	// The size limit.
	defer func(l int64) { planLimit = l }(planLimit)
	planLimit = int64(len(good))
	if _, err := Load(strings.NewReader(good)); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	planLimit--
	if _, err := Load(strings.NewReader(good)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("exceeds the %d-byte limit", planLimit)) {
		t.Errorf("over the limit: %v", err)
	}
}

// BenchmarkLoad1e6 reads a plan of 10⁶ people (ids, ε and δ columns).
func BenchmarkLoad1e6(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	res, err := Make(baseSetting(PNSGD), Budgets{People: randomPeople(r, 1_000_000, true)})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	res.Plan.WriteTo(&buf)
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Load(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLoadSizesPeopleFromN: Load allocates the people's columns once from
// the plan's n (capacity n), but a plan whose n is far beyond what the file
// can hold is refused without allocating for n: the hint is capped by the
// file's size.
func TestLoadSizesPeopleFromN(t *testing.T) {
	pp := &People{ID: NewIDs("a", "b", "c", "d", "e"), Epsilon: []float64{1, 2, 1, 3, 1}}
	res, err := Make(baseSetting(PNSGD), Budgets{People: pp})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res.Plan.WriteTo(&buf)
	p, err := Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if cap(p.People.ID.lo) != 5 || cap(p.People.Epsilon) != 5 {
		t.Errorf("capacities %d, %d, want 5 (from n)", cap(p.People.ID.lo), cap(p.People.Epsilon))
	}
	lying := strings.Replace(buf.String(), `"n": 5,`, `"n": 5000000,`, 1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Load(strings.NewReader(lying))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "lists 5") {
		t.Fatalf("a plan declaring n = 5000000 with 5 people: %v", err)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 20<<20 {
		t.Errorf("Load allocated %d bytes for a %d-byte file declaring n = 5000000", a, len(lying))
	}
	if k := peopleHint(&Plan{N: MaxPeople}, 1000)("people.id"); k > 1000/minPersonBytes {
		t.Errorf("hint %d for n = MaxPeople in 1000 bytes", k)
	}
	if k := peopleHint(&Plan{N: 7}, -1)("people.id"); k != 0 {
		t.Errorf("hint %d for an input of unknown size", k)
	}
}

// Issue 23, item 6: a tier plan over VerifyAllMax is verified through
// monotonicity (verifyEnds) in O(log n) evaluations per tier; on plans
// small enough to recompute in full (the threshold lowered) it gives the
// full verification's verdict, violation count, first violations, worst
// ratio and group ranges, for ε_t increasing (PNSGD) and decreasing (Stop),
// valid plans and plans whose σ was lowered by hand.
func TestVerifyEndsMatchesFull(t *testing.T) {
	for _, v := range []Variant{PNSGD, Stop} {
		res, err := Make(baseSetting(v), Budgets{Tiers: exampleTiers(t, 3000)})
		if err != nil {
			t.Fatal(err)
		}
		for _, scale := range []float64{1, 0.9, 0.5} {
			pl := *res.Plan
			pl.Sigma *= scale
			full, err := pl.Verify()
			if err != nil {
				t.Fatal(err)
			}
			verifyAllMax = 10
			ends, err := pl.Verify()
			verifyAllMax = VerifyAllMax
			if err != nil {
				t.Fatal(err)
			}
			if ends.OK != full.OK || ends.ViolationCount != full.ViolationCount || ends.Checked != full.Checked ||
				math.Abs(ends.WorstRatio/full.WorstRatio-1) > 1e-9 || len(ends.Violations) != len(full.Violations) || len(ends.Groups) != len(full.Groups) ||
				!strings.Contains(ends.Source, "positions evaluated") {
				t.Fatalf("%s σ×%v: ends %+v\nfull %+v", v, scale, ends, full)
			}
			for i := range full.Violations {
				e, f := ends.Violations[i], full.Violations[i]
				if e.Position != f.Position || e.Tier != f.Tier || e.Epsilon != f.Epsilon || math.Abs(e.Achieved/f.Achieved-1) > 1e-9 {
					t.Errorf("%s σ×%v: violation %d: %+v, full %+v", v, scale, i, ends.Violations[i], full.Violations[i])
				}
			}
			for i, g := range full.Groups {
				e := ends.Groups[i]
				// (per-position and all-index evaluation round differently, ~1e-11)
				if math.Abs(e.AchievedMin/g.AchievedMin-1) > 1e-9 || math.Abs(e.AchievedMax/g.AchievedMax-1) > 1e-9 || e.Tier != g.Tier {
					t.Errorf("%s σ×%v: group %d: %+v, full %+v", v, scale, i, e, g)
				}
			}
			t.Logf("%s σ×%v: OK %v, %d violations", v, scale, full.OK, full.ViolationCount)
		}
	}
}

// TestWriteToParallelSameBytes: a plan of 200,000 people (lists of several
// writeChunks chunks) is written the same with 1 and with 4 threads.
func TestWriteToParallelSameBytes(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 3*writeChunk + 17
	}
	pp := &People{Epsilon: make([]float64, n), Delta: make([]float64, n)}
	for i := range n {
		pp.ID.Append("p\"" + strconv.Itoa(i))
		pp.Epsilon[i] = []float64{0.1, 1, 4}[i%7%3]
		pp.Delta[i] = []float64{1e-6, 1e-7}[i%11%2]
	}
	p := &Plan{Format: Format, Version: Version, N: int64(n), People: pp}
	write := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var b bytes.Buffer
		if _, err := p.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	one, four := write(1), write(4)
	if !bytes.Equal(one, four) {
		t.Fatal("the plan's text depends on the number of threads")
	}
	var back struct {
		People struct {
			ID      []string  `json:"id"`
			Epsilon []float64 `json:"epsilon"`
			Delta   []float64 `json:"delta"`
		} `json:"people"`
	}
	if err := json.Unmarshal(four, &back); err != nil || len(back.People.ID) != n || back.People.ID[n-1] != pp.ID.At(n-1) ||
		!slices.Equal(back.People.Epsilon, pp.Epsilon) || !slices.Equal(back.People.Delta, pp.Delta) {
		t.Fatalf("the written lists do not read back: %v", err)
	}
}

// TestJSONPlain: the table of bytes written as they are agrees with
// encoding/json on every byte.
func TestJSONPlain(t *testing.T) {
	for c := range 256 {
		s := string([]byte{'a', byte(c)})
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("byte %#x: %s, encoding/json %s", c, got, want)
		}
	}
}
