package plan

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"testing"
)

// TestProfileAndCSV: the profile's achieved and uniform ε and every CSV
// row agree with package shifted at the plan's and the uniform plan's σ.
func TestProfileAndCSV(t *testing.T) {
	s := baseSetting(Skip)
	tiers := []Tier{{Name: "a", Count: 30, Epsilon: 0.4, Delta: 1e-8}, {Name: "b", Count: 170, Epsilon: 2}}
	res, err := Make(s, Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	pts, err := res.Profile(8)
	if err != nil || len(pts) < 8 {
		t.Fatalf("%d points: %v", len(pts), err)
	}
	for _, pt := range pts {
		a := epsDirect(t, s, 200, float64(res.Sigma), pt.Index, pt.Delta)
		u := epsDirect(t, s, 200, float64(res.Uniform.Sigma), pt.Index, pt.Delta)
		if !relClose(float64(pt.Achieved), a, 1e-9) || !relClose(float64(pt.Uniform), u, 1e-9) || float64(pt.Achieved) > pt.Epsilon {
			t.Errorf("%+v: want achieved %v, uniform %v", pt, a, u)
		}
		if want := map[bool]string{true: "a", false: "b"}[pt.Index <= 30]; pt.Tier != want {
			t.Errorf("position %d in tier %q", pt.Index, pt.Tier)
		}
	}
	var buf bytes.Buffer
	if err := res.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 201 {
		t.Fatalf("%d rows: %v", len(rows), err)
	}
	for _, r := range rows[1:] {
		pos, _ := strconv.ParseInt(r[0], 10, 64)
		d, _ := strconv.ParseFloat(r[4], 64)
		ach, _ := strconv.ParseFloat(r[5], 64)
		if e := epsDirect(t, s, 200, float64(res.Sigma), pos, d); ach != res.Achieved[pos-1] || !relClose(ach, e, 1e-9) {
			t.Errorf("row %v: recomputed %v", r, e)
		}
	}
}
