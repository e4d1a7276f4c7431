package plan

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"id,epsilon\na,1\n",
		"id,epsilon,delta\na,0.1,1e-6\nb,2,\n",
		"epsilon,id\n1,a\n1,a\n",
		"id,epsilon\n\"a\nb\",1\nc,-1\n",
		"id,epsilon\na,\"1\nb,2\n",
		"\ufeffID,EPSILON\nx,inf\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p, err := ReadCSV(strings.NewReader(in))
		if err != nil {
			if _, rerr := readCSVReference(strings.NewReader(in)); rerr == nil || rerr.Error() != err.Error() {
				t.Fatalf("ReadCSV: %v\nreference: %v", err, rerr)
			}
			var pe dp.Errors
			if !errors.As(err, &pe) || len(pe) == 0 {
				t.Fatalf("error %v is not a non-empty dp.Errors", err)
			}
			for i, r := range pe {
				if r.Line < 1 || (i > 0 && r.Line < pe[i-1].Line) {
					t.Fatalf("bad line numbers: %v", pe)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line message %q", err.Error())
			}
			return
		}
		// A copy without ReadCSV's mark: Validate checks the ids again.
		cp := &People{ID: NewIDs(p.ID.Strings()...), Epsilon: p.Epsilon, Delta: p.Delta}
		if err := (Budgets{People: cp}).Validate(); err != nil {
			t.Fatalf("accepted invalid people: %v", err)
		}
		// The same result as encoding/csv on every input.
		ref, rerr := readCSVReference(strings.NewReader(in))
		if rerr != nil || !samePeople(p, ref) {
			t.Fatalf("ReadCSV %+v, reference %+v %v", p, ref, rerr)
		}
	})
}

// FuzzMake plans three people and checks every position with package
// shifted: no NaN, σ finite, every target met.
func FuzzMake(f *testing.F) {
	f.Add(0.1, 1.0, 4.0, uint8(0), uint8(0))
	f.Add(0.5, 0.5, 0.01, uint8(1), uint8(3))
	f.Add(9.0, 0.2, 2.0, uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, e1, e2, e3 float64, variant, public uint8) {
		for _, e := range []float64{e1, e2, e3} {
			if !(e >= 1e-3 && e <= 100) {
				return
			}
		}
		s := baseSetting([]Variant{PNSGD, Skip, Stop}[variant%3])
		s.Training.Public = int64(public % 5)
		pp := &People{ID: NewIDs("a", "b", "c"), Epsilon: []float64{e1, e2, e3}}
		res, err := Make(s, Budgets{People: pp})
		if err != nil {
			t.Fatal(err)
		}
		if !(res.Plan.Sigma > 0) || math.IsInf(res.Plan.Sigma, 0) || math.IsNaN(float64(res.Utility.Bound)) {
			t.Fatalf("σ = %v, utility %v", res.Plan.Sigma, float64(res.Utility.Bound))
		}
		for pos := int64(1); pos <= 3; pos++ {
			target, del, _ := res.Plan.Target(pos)
			if e := epsDirect(t, s, 3, res.Plan.Sigma, pos, del); !(e <= target) {
				t.Fatalf("position %d: ε = %v > %v", pos, e, target)
			}
		}
	})
}
