package plan

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestMakeMovesReadPeople: people read by ReadCSV are put in position order
// in place and become the plan's People; the plan is the one Make gives on
// a copy of the same people (which it copies and leaves unchanged), with
// and without per-person δ; a second Make on the moved people copies them,
// leaving the first plan as it was.
func TestMakeMovesReadPeople(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, withDelta := range []bool{false, true} {
		var b bytes.Buffer
		b.WriteString("id,epsilon,delta\n")
		for i := 0; i < 5000; i++ {
			d := ""
			if withDelta && r.IntN(3) == 0 {
				d = fmt.Sprint([]float64{1e-7, 1e-8}[r.IntN(2)])
			}
			fmt.Fprintf(&b, "p%d,%v,%s\n", i, []float64{0.1, 0.5, 1, 2, 4}[r.IntN(5)], d)
		}
		read, err := ReadCSV(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		own := &People{ID: NewIDs(read.ID.Strings()...), Epsilon: append([]float64(nil), read.Epsilon...)}
		if read.Delta != nil {
			own.Delta = append([]float64(nil), read.Delta...)
		}
		ownBefore := &People{ID: NewIDs(own.ID.Strings()...), Epsilon: append([]float64(nil), own.Epsilon...), Delta: append([]float64(nil), own.Delta...)}
		s := baseSetting(PNSGD)
		copied, err := Make(s, Budgets{People: own})
		if err != nil {
			t.Fatal(err)
		}
		moved, err := Make(s, Budgets{People: read})
		if err != nil {
			t.Fatal(err)
		}
		if moved.Plan.People != read {
			t.Error("the people ReadCSV returned were copied, not moved into the plan")
		}
		if copied.Plan.People == own || !reflect.DeepEqual(own.ID.Strings(), ownBefore.ID.Strings()) || !reflect.DeepEqual(own.Epsilon, ownBefore.Epsilon) ||
			(own.Delta != nil && !reflect.DeepEqual(own.Delta, ownBefore.Delta)) {
			t.Error("Make changed or kept the caller's own people")
		}
		cp, mp := copied.Plan.People, moved.Plan.People
		if !reflect.DeepEqual(cp.ID.Strings(), mp.ID.Strings()) || !reflect.DeepEqual(cp.Epsilon, mp.Epsilon) || !reflect.DeepEqual(cp.Delta, mp.Delta) ||
			copied.Plan.Sigma != moved.Plan.Sigma || (cp.Delta == nil) == withDelta {
			t.Fatalf("δ %v: moved plan differs from the copied one (σ %v vs %v)", withDelta, moved.Plan.Sigma, copied.Plan.Sigma)
		}
		firstIDs := mp.ID.Strings()
		again, err := Make(s, Budgets{People: read})
		if err != nil || again.Plan.People == read || !reflect.DeepEqual(again.Plan.People.ID.Strings(), firstIDs) || !reflect.DeepEqual(read.ID.Strings(), firstIDs) {
			t.Fatalf("second Make: %v", err)
		}
		if v, err := moved.Plan.Verify(); err != nil || !v.OK {
			t.Fatalf("moved plan does not verify: %v", err)
		}
	}
}
