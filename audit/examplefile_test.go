package audit

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// exampleCanaryPath is the example file of the package docs.
const exampleCanaryPath = "../examples/canary-scores.csv"

// exampleCanaryCSV makes examples/canary-scores.csv: 4000 canaries, each a
// member with probability 1/2 (rng.IntN(2)), non-members scoring N(0, 1)
// and members N(1, 1) — the trade-off of 1-GDP — from
// rand.NewPCG(2026, 11), scores printed with 6 significant digits, ids
// c0001 … c4000.
func exampleCanaryCSV() []byte {
	rng := rand.New(rand.NewPCG(2026, 11))
	var b bytes.Buffer
	b.WriteString("id,member,score\n")
	for i := 1; i <= 4000; i++ {
		m := rng.IntN(2)
		s := rng.NormFloat64() + float64(m)
		fmt.Fprintf(&b, "c%04d,%d,%s\n", i, m, strconv.FormatFloat(s, 'g', 6, 64))
	}
	return b.Bytes()
}

// TestExampleCanaryFile checks that examples/canary-scores.csv is what
// exampleCanaryCSV makes (PRIVAMP_WRITE_EXAMPLE=1 rewrites it) and pins the
// bounds it gives.
func TestExampleCanaryFile(t *testing.T) {
	want := exampleCanaryCSV()
	if os.Getenv("PRIVAMP_WRITE_EXAMPLE") == "1" {
		if err := os.WriteFile(exampleCanaryPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(exampleCanaryPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from exampleCanaryCSV()", exampleCanaryPath)
	}
	c, err := ReadCanaries(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Evaluate(c, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ε_lower %v (%s), threshold %v greater %v TP %d/%d FP %d/%d; GDP μ ∈ [%v, %v], ε_GDP %v",
		float64(ev.EpsilonLower), ev.Estimator, ev.Threshold.Threshold, ev.Threshold.Greater, ev.Threshold.TP, ev.Threshold.Members,
		ev.Threshold.FP, ev.Threshold.NonMembers, float64(ev.GDP.MuLower), float64(ev.GDP.MuUpper), float64(ev.GDP.EpsilonLower))
	// pinned (docs/README quote them): a change here changes the documented example
	if d := float64(ev.EpsilonLower) - 1.1120926691550663; d > 1e-12 || d < -1e-12 || ev.Threshold.TP != 62 || ev.Threshold.FP != 9 {
		t.Errorf("example file: ε_lower %v (TP %d FP %d), pinned 1.1120926691550663 (62, 9)", float64(ev.EpsilonLower), ev.Threshold.TP, ev.Threshold.FP)
	}
	if d := float64(ev.GDP.MuLower) - 0.6715316193746034; d > 1e-9 || d < -1e-9 {
		t.Errorf("example file: μ_lower %v, pinned 0.6715316193746034", float64(ev.GDP.MuLower))
	}
}
