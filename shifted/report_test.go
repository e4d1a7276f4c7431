package shifted

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// The answers of pnsgd, cni and epochs state the library's numbers: the
// worst record's ε, the every-iterate ε, K and the file written, the
// curve's last pass; options are named as the caller spells them.
func TestReports(t *testing.T) {
	run := Training{Variant: VariantPNSGD, N: 1000, Sigma: 4, Delta: 1e-5, Loss: Loss{Lipschitz: 1}}
	a, err := Analyze(run, Options{Conversion: rdp.Improved, Target: 0.5, Indices: []int64{1, 1000}})
	if err != nil {
		t.Fatal(err)
	}
	r := a.Report()
	if r.Value("ε at index 1000") != a.Indices[1].Epsilon.String() || r.Value("ε if every iterate were released (worst record)") != a.AllIteratesEpsilon.String() {
		t.Errorf("pnsgd rows %v", r.Rows)
	}

	sch, err := ParseSchedule(strings.NewReader(`{"variance": 0.01, "steps": [{"count": 99}, {"sensitivity": 0.2}, {"count": 900}]}`))
	if err != nil {
		t.Fatal(err)
	}
	sol, err := Solve(sch)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sol.Report(1e-6, rdp.Improved, []float64{2}, 5)
	if err != nil {
		t.Fatal(err)
	}
	r = res.Answer("shifts.csv")
	if r.Value("K (zCDP: D_α ≤ αK for all α > 1)") != res.Rho.String() || r.Value("RDP ε(α = 2)") == "" || len(r.Table.Rows) != len(res.Segments) || !r.CSVAll {
		t.Errorf("cni rows %v, table %+v", r.Rows, r.Table)
	}

	run.Loss.Eta = 0.05
	c, err := EpsilonByEpochs(run, []int64{1, 10}, rdp.Improved, false)
	if err != nil {
		t.Fatal(err)
	}
	r = c.Report(run, func(n string) string { return "<" + n + ">" })
	if r.Value("ε after 10 passes (FMTT18)") != c.Points[1].FMTT18.String() || len(r.Table.Rows) != 2 {
		t.Errorf("epochs rows %v", r.Rows)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "give <radius> R") {
		t.Errorf("epochs notes %q", r.Notes)
	}
}
