package verify

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer/bst14"
)

// A bst14-sgd claim is verified with the accounting the run certified with:
// the same ε as bst14.SGDPLD for one record per step, replace-one.
func TestBST14Claim(t *testing.T) {
	const n, sigma, L = 100, 500.0, 0.75
	want, err := bst14.SGDPLD(n, sigma/(n*L), n*n, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		eps     float64
		verdict dp.Verdict
	}{{float64(want.Epsilon) * 1.001, dp.Valid}, {float64(want.Epsilon) * 0.9, dp.Invalid}} {
		js := `{"algorithm": "bst14-sgd", "n": 100, "sigma": 500, "lipschitz": 0.75, "delta": 1e-5, "epsilon": ` + strconv.FormatFloat(c.eps, 'g', 17, 64) + `}`
		cl, err := ParseClaim(strings.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		v, err := VerifyDPSGD(cl.DPSGD, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v.Verdict != c.verdict || math.Abs(float64(v.WorstEpsilon)-float64(want.Epsilon)) > 1e-9*float64(want.Epsilon) {
			t.Errorf("claim ε %v: verdict %v, certified %v; want %v, %v", c.eps, v.Verdict, v.WorstEpsilon, c.verdict, want.Epsilon)
		}
	}
	for field, js := range map[string]string{
		"sigma":     `{"algorithm": "bst14-sgd", "n": 100, "sigma": -1, "lipschitz": 1, "delta": 1e-5, "epsilon": 1}`,
		"n":         `{"algorithm": "bst14-sgd", "n": 1, "sigma": 5, "lipschitz": 1, "delta": 1e-5, "epsilon": 1}`,
		"lipschitz": `{"algorithm": "bst14-sgd", "n": 10, "sigma": 5, "delta": 1e-5, "epsilon": 1}`,
		"eta":       `{"algorithm": "bst14-sgd", "n": 10, "sigma": 5, "lipschitz": 1, "delta": 1e-5, "epsilon": 1, "eta": 1}`,
	} {
		_, err := ParseClaim(strings.NewReader(js))
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: want an error naming %q, got %v", js, field, err)
		}
	}
}
