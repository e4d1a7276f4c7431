package dp

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"
)

// exactCmp compares the float nearest to the printed decimal with x (the
// contract of the package: values arrive rounded outward by at least an ulp).
func exactCmp(t *testing.T, s string, x float64) int {
	t.Helper()
	d, _, err := big.ParseFloat(s, 10, 53, big.ToNearestEven)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return d.Cmp(new(big.Float).SetFloat64(x))
}

func TestDirectedRounding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		x := math.Exp(rng.Float64()*80 - 40)
		if i%3 == 0 { // values that sit on a 6-digit boundary
			x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'e', 5, 64), 64)
			x = math.Nextafter(x, float64(1-2*(i%2)))
		}
		if u := Loss(x).String(); exactCmp(t, u, x) < 0 {
			t.Fatalf("Loss(%v) printed %s, below the value", x, u)
		}
		if u := Noise(x).String(); exactCmp(t, u, x) < 0 {
			t.Fatalf("Noise(%v) printed %s, below the value", x, u)
		}
		if d := Max(x).String(); exactCmp(t, d, x) > 0 {
			t.Fatalf("Max(%v) printed %s, above the value", x, d)
		}
	}
	// The remedy of issue 9 hole 5: σ = 0.98607845… must not print as 0.986078.
	if got := Noise(0.9860784).String(); got != "0.986079" {
		t.Errorf("Noise(0.9860784) = %s, want 0.986079", got)
	}
	if got := Max(0.9999999).String(); got != "0.999999" {
		t.Errorf("Max(0.9999999) = %s", got)
	}
	if got := Loss(0.99999951).String(); got != "1" {
		t.Errorf("Loss(0.99999951) = %s, want 1", got)
	}
	if got := Loss(math.Inf(1)).String(); got != NoFinite {
		t.Errorf("Loss(+Inf) = %s", got)
	}
	if got := Loss(-2.5e-7).String(); exactCmp(t, got, -2.5e-7) < 0 {
		t.Errorf("Loss(-2.5e-7) = %s rounds down", got)
	}
}

func TestJSON(t *testing.T) {
	b, err := json.Marshal(struct {
		E Loss  `json:"e"`
		M Max   `json:"m"`
		N Noise `json:"n"`
	}{Loss(math.Inf(1)), Max(0.1), Noise(1.0000000000000002)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"e":null,"m":0.1,"n":1.0000000000000002}`; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}
