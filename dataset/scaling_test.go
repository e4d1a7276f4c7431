package dataset

import (
	"slices"
	"strings"
	"testing"
)

// Issue 22, hole 9: declared scaling maps each record by itself, so
// replacing one record changes no other transformed record; Standardize
// (the data's own statistics) changes every one of them.
func TestScalingIsPerRecord(t *testing.T) {
	sc, err := ReadScaling(strings.NewReader("feature,center,scale\na,1,2\nb,-1,0.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	mk := func(first float64) *Dataset {
		return &Dataset{D: 2, Names: []string{"a", "b"}, X: []float64{first, 0, 3, 1, 5, -1}, Y: []float64{1, -1, 1}}
	}
	x, y := mk(0), mk(100)
	if err := x.ApplyScaling(sc); err != nil {
		t.Fatal(err)
	}
	if err := y.ApplyScaling(sc); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x.X[2:], y.X[2:]) || !slices.Equal(x.X[2:4], []float64{1, 4}) {
		t.Errorf("declared scaling: other records %v vs %v, want equal and (x − c)/s", x.X[2:], y.X[2:])
	}
	u, v := mk(0), mk(100)
	u.Standardize()
	v.Standardize()
	if slices.Equal(u.X[2:], v.X[2:]) {
		t.Error("standardize: the other records did not move, so this test cannot tell the two apart")
	}
}

func TestReadScalingRefuses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"feature,centre,scale\na,0,1\n", "line 1"},
		{"feature,center,scale\n", "no feature rows"},
		{"feature,center,scale\na,0,1\na,0,1\n", "line 3: feature \"a\" appears twice"},
		{"feature,center,scale\na,x,1\n", "line 2: center"},
		{"feature,center,scale\na,0,0\n", "line 2: scale"},
		{"feature,center,scale\na,0,-1\n", "line 2: scale"},
		{"feature,center,scale\na,0,Inf\n", "line 2: scale"},
		{"feature,center,scale\na,0\n", "line 2"},
		{"feature,center,scale\n,0,1\n", "line 2: no feature name"},
	} {
		if _, err := ReadScaling(strings.NewReader(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.in, err, c.want)
		}
	}
	sc, _ := ReadScaling(strings.NewReader("feature,center,scale\na,0,1\n"))
	d := &Dataset{D: 2, Names: []string{"a", "b"}, X: []float64{1, 2}, Y: []float64{1}}
	if err := d.ApplyScaling(sc); err == nil || !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("a feature without a row: got %v", err)
	}
}
