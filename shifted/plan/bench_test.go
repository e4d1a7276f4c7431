package plan

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// Speed target (issue 6): 10⁷ people planned in under 10 s, memory linear
// in n.

func benchTiers(b *testing.B, v Variant, n int64) {
	s := baseSetting(v)
	tiers, _, err := ResolveTiers([]TierSpec{{Size: 0.01, Epsilon: 0.1}, {Size: 0.09, Epsilon: 1}, {Size: 0.9, Epsilon: 4}}, n)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res, err := Make(s, Budgets{Tiers: tiers}, Options{})
		if err != nil || res.Plan == nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMakeTiersPNSGD1e7(b *testing.B) { benchTiers(b, PNSGD, 10_000_000) }
func BenchmarkMakeTiersSkip1e7(b *testing.B)  { benchTiers(b, Skip, 10_000_000) }
func BenchmarkMakeTiersStop1e7(b *testing.B)  { benchTiers(b, Stop, 10_000_000) }

// 10⁷ individual budgets, each different (per-person ε; the worst case
// for sorting and for ρ*).
func BenchmarkMakePeople1e7(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	n := 10_000_000
	pp := &People{ID: make([]string, n), Epsilon: make([]float64, n)}
	for i := range pp.ID {
		pp.ID[i] = "p" + strconv.Itoa(i)
		pp.Epsilon[i] = 0.1 + 4*r.Float64()
	}
	s := baseSetting(PNSGD)
	b.ResetTimer()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Make(s, Budgets{People: pp}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadCSV1e6(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("id,epsilon,delta\n")
	for i := 0; i < 1_000_000; i++ {
		fmt.Fprintf(&buf, "person-%d,%g,\n", i, []float64{0.1, 1, 4}[i%3])
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ReadCSV(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
