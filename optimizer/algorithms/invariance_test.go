package algorithms

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
)

// neighbourFiles writes a small labelled data set (n rows, two features in
// [−1, 1], labels ±1) and its replace-one neighbour (row `row` replaced by
// the record `with`, or by a record of norm 1.2 with the other label, which
// the declared bound clips, when with is empty), under the same file name in two directories, and
// a declared identity scaling file.
func neighbourFiles(t *testing.T, n, row int, with string) (a, b, scaling string) {
	t.Helper()
	var rows []string
	for i := range n {
		x1 := math.Sin(1.3*float64(i) + 0.2)
		x2 := math.Cos(0.7*float64(i) + 1)
		y := 1
		if x1+0.5*x2+0.3*math.Sin(5*float64(i)) < 0 {
			y = -1
		}
		rows = append(rows, fmt.Sprintf("%.6f,%.6f,%d", x1, x2, y))
	}
	write := func(dir string, rows []string) string {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "d.csv")
		if err := os.WriteFile(p, []byte("a,b,y\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	root := t.TempDir()
	a = write(filepath.Join(root, "a"), rows)
	other := append([]string(nil), rows...)
	other[row] = "-0.9,0.8,-1"
	if strings.HasSuffix(rows[row], ",-1") {
		other[row] = "0.9,-0.8,1"
	}
	if with != "" {
		other[row] = with
	}
	b = write(filepath.Join(root, "b"), other)
	scaling = filepath.Join(root, "scale.csv")
	if err := os.WriteFile(scaling, []byte("feature,center,scale\na,0,1\nb,0,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return a, b, scaling
}

// flipped is row `row` of neighbourFiles' data with its label flipped.
func flipped(row int) string {
	x1 := math.Sin(1.3*float64(row) + 0.2)
	x2 := math.Cos(0.7*float64(row) + 1)
	y := -1
	if x1+0.5*x2+0.3*math.Sin(5*float64(row)) < 0 {
		y = 1
	}
	return fmt.Sprintf("%.6f,%.6f,%d", x1, x2, y)
}

// fast are parameters that keep each run small (by algorithm; a parameter
// an algorithm does not have is skipped).
var fast = map[string]map[string]string{"langevin": {"steps": "200"}, "bst14-localize-gaussian": {"steps": "200"}, "": {"repeats": "3"}}

// released names the JSON keys of each algorithm's private output: the
// value the certificate protects, which differs between neighbours by
// design.
var released = []string{"w", "x", "y", "x_tilde", "y_tilde", "w_hat", "output"}

// Neighbour invariance (issue 22): every catalogued algorithm, and projected
// noisy SGD (pnsgd, skip, stop), run on replace-one neighbours with the same
// parameters and seed, makes the same release decision (run, or refuse with
// the same error) and reports the same declared, derived, certified and
// given values and the same JSON outside its measured parts and its private
// output (CompareNeighbours). Every line carries a known kind.
func TestNeighbourInvariance(t *testing.T) {
	n := 40
	// the row replaced and its replacement (each pair takes about 1 s): a
	// clipped record of the other label, the same features with the label
	// flipped, and the zero record
	pairs := []struct {
		row  int
		with string
	}{{0, ""}, {17, ""}, {39, ""}, {5, "flip"}, {22, "0,0,1"}}
	if testing.Short() {
		pairs = []struct {
			row  int
			with string
		}{pairs[0], pairs[3]} // a removed-row and a flipped-label neighbour; all five in make test
	}
	var algorithms, runs, values int
	for _, pr := range pairs {
		row, with := pr.row, pr.with
		if with == "flip" {
			with = flipped(row)
		}
		a, b, scaling := neighbourFiles(t, n, row, with)
		input := func(path string) Input {
			return Input{Data: optimizer.DataSpec{Path: path, Label: "y", Normalize: true, Scaling: scaling},
				Loss: optimizer.LossSpec{L2: 0.1}, Radius: 1, Set: map[string]bool{}}
		}
		type runner struct {
			name string
			run  func(path string) (*Report, error)
		}
		var all []runner
		for _, alg := range All() {
			all = append(all, runner{alg.Name, func(path string) (*Report, error) {
				p := alg.Params()
				ps, _ := Describe(p)
				for _, q := range ps {
					v, ok := fast[alg.Name][q.Name]
					if !ok {
						v, ok = fast[""][q.Name]
					}
					if ok {
						if err := Set(p, q.Name, v); err != nil {
							t.Fatal(err)
						}
					}
				}
				return alg.Run(input(path), p)
			}})
		}
		for _, v := range []shifted.Variant{shifted.VariantPNSGD, shifted.VariantSkip, shifted.VariantStop} {
			all = append(all, runner{string(v), func(path string) (*Report, error) {
				in := input(path)
				res, err := optimizer.Train(optimizer.Spec{Data: in.Data, Loss: in.Loss, Radius: 1, Target: 1, Seed: 1,
					Training: shifted.Training{Variant: v, Delta: 1e-5, Batch: 1, Epochs: 1, Tasks: 1}, MaxPoints: 100})
				if err != nil {
					return nil, err
				}
				return TrainReport(res), nil
			}})
		}
		algorithms = len(all)
		for _, r := range all {
			ra, errA := r.run(a)
			rb, errB := r.run(b)
			runs += 2
			if (errA == nil) != (errB == nil) {
				t.Errorf("%s, row %d replaced: one neighbour runs and the other refuses: %v / %v", r.name, row+1, errA, errB)
				continue
			}
			if errA != nil {
				fa, _ := field.As(errA)
				fb, _ := field.As(errB)
				if errA.Error() != errB.Error() || fa != nil && fb != nil && fa.Field != fb.Field {
					t.Errorf("%s: the neighbours refuse differently: %v / %v", r.name, errA, errB)
				}
				values++
				t.Logf("%s refuses on both neighbours: %v", r.name, errA)
				continue
			}
			if ra.OK != rb.OK {
				t.Errorf("%s, row %d replaced: exit status differs (OK %v vs %v): checks %+v / %+v", r.name, row+1, ra.OK, rb.OK, ra.Checks, rb.Checks)
			}
			diffs, k := CompareNeighbours(ra, rb, released...)
			values += k + 1
			for _, d := range diffs {
				t.Errorf("%s, row %d replaced: %s", r.name, row+1, d)
			}
		}
	}
	t.Logf("neighbour invariance: %d algorithms × %d replace-one pairs (%d runs), %d values compared", algorithms, len(pairs), runs, values)
}

// CompareNeighbours can fail: a covered line or JSON leaf that differs, a
// line without a known kind and a different set of lines are reported;
// measured lines, measured JSON parts and the released output are not.
func TestCompareNeighboursFails(t *testing.T) {
	type res struct {
		Epsilon  float64            `json:"epsilon"`
		Measured map[string]float64 `json:"measured"`
		Gap      float64            `json:"measured_gap"`
		W        []float64          `json:"w"`
		Checks   []map[string]any   `json:"checks"`
	}
	mk := func(eps, risk, sigma float64, kind string) *Report {
		r := &Report{Result: res{eps, map[string]float64{"risk": risk}, risk, []float64{risk}, []map[string]any{{"value": risk, "bound": 1.0}}}}
		r.Add("ε", eps, Certified, "")
		r.Add("risk", risk, Measured, "")
		r.Add("σ", sigma, kind, "")
		return r
	}
	if d, k := CompareNeighbours(mk(1, 0.1, 2, Derived), mk(1, 0.2, 2, Derived), "w"); len(d) != 0 || k != 2+1 {
		t.Errorf("measured values differ only: got %v (%d compared)", d, k)
	}
	for _, c := range []struct {
		b    *Report
		want string
	}{
		{mk(1, 0.1, 3, Derived), "σ (derived)"},
		{mk(1.5, 0.1, 2, Derived), "JSON epsilon"},
		{mk(1, 0.1, 2, ""), "kind of σ"},
		{&Report{Result: res{Epsilon: 1}}, "lines"},
	} {
		d, _ := CompareNeighbours(mk(1, 0.1, 2, Derived), c.b, "w")
		found := false
		for _, x := range d {
			found = found || strings.HasPrefix(x.Where, c.want)
		}
		if !found {
			t.Errorf("want a difference at %q, got %v", c.want, d)
		}
	}
}
