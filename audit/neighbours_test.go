package audit_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/privamp/privamp/audit"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/algorithms"
	"github.com/privamp/privamp/shifted"
)

// audit --data reads the private data too (issue 22, neighbour invariance):
// on replace-one neighbours the audit refuses or runs alike, and the proven
// upper bound, its source, the exact ε and every declared, derived and
// certified value of the audited run are the same; the lower bound and the
// test's counts are measured.
func TestTrainingNeighbourInvariance(t *testing.T) {
	dir := t.TempDir()
	var rows []string
	for i := range 30 {
		y := 1
		if i%3 == 0 {
			y = -1
		}
		rows = append(rows, fmt.Sprintf("%.4f,%.4f,%d", math.Sin(float64(i)), math.Cos(2*float64(i)), y))
	}
	write := func(name string, rows []string) string {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name, "d.csv")
		if err := os.WriteFile(p, []byte("a,b,y\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a", rows)
	rows[4] = "-0.7,0.7,-1"
	b := write("b", rows)
	run := func(path string) (*audit.Report, error) {
		spec := optimizer.Spec{Data: optimizer.DataSpec{Path: path, Label: "y", Normalize: true}, Radius: 1, Target: 1, Seed: 1,
			Training: shifted.Training{Variant: shifted.VariantPNSGD, Delta: 1e-3, Batch: 1, Epochs: 1, Tasks: 1}, MaxPoints: 10}
		return audit.Training(spec, audit.Spec{Trials: 40, Workers: 1, Confidence: 0.95}, nil)
	}
	ra, errA := run(a)
	rb, errB := run(b)
	if errA != nil || errB != nil {
		t.Fatalf("audit refused: %v / %v", errA, errB)
	}
	if r := ra.Answer(); r.Rows[0].Quantity != "verdict" || r.Command != "audit" || len(r.Table.Rows) != 1 || r.Table.Rows[0][0] != ra.Check.Name {
		t.Errorf("answer: rows %+v, table %+v", r.Rows, r.Table)
	}
	if ra.Guarantee.Epsilon != rb.Guarantee.Epsilon || ra.Source != rb.Source || ra.Index != rb.Index || fmt.Sprint(ra.Exact) != fmt.Sprint(rb.Exact) {
		t.Errorf("proven bound differs: %v (%s, index %d, exact %v) vs %v (%s, index %d, exact %v)", ra.Guarantee.Epsilon, ra.Source, ra.Index, ra.Exact, rb.Guarantee.Epsilon, rb.Source, rb.Index, rb.Exact)
	}
	diffs, k := algorithms.CompareNeighbours(algorithms.TrainReport(ra.Run), algorithms.TrainReport(rb.Run), "w")
	for _, d := range diffs {
		t.Errorf("audited run: %s", d)
	}
	if k < 20 {
		t.Errorf("only %d values compared", k)
	}
}
