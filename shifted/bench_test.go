package shifted

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// Speed targets (issue 3 §7): every index of n = 10⁷ in under 2 s, the engine
// on a 10⁷-step schedule in under 1 s, one per-index answer in under 50 µs.

func benchAll(b *testing.B, g PerPerson) {
	for i := 0; i < b.N; i++ {
		if _, err := EpsilonsAll(g, 1e-6, rdp.Improved); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAllIndicesPNSGD1e7(b *testing.B) {
	benchAll(b, SGD{N: 10_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1}})
}

func BenchmarkAllIndicesStronglyConvex1e7(b *testing.B) {
	benchAll(b, SGD{N: 10_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 1e-6, Eta: 1}})
}

func BenchmarkAllIndicesStop1e7(b *testing.B) {
	benchAll(b, Stop{N: 10_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1}})
}

func BenchmarkAllIndicesSkip1e7(b *testing.B) {
	benchAll(b, Skip{N: 10_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1}})
}

// A 10⁷-step schedule written as runs (one person, 100 epochs of 10⁵ steps).
func BenchmarkSolveRuns1e7(b *testing.B) {
	g := SGD{N: 100_000, Epochs: 100, Sigma: 1, Loss: Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 1e-5, Eta: 1}}
	sch := g.Schedule(50_000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Solve(sch); err != nil {
			b.Fatal(err)
		}
	}
}

// The same length with every step distinct (no two consecutive steps equal).
func BenchmarkSolveSteps1e7(b *testing.B) {
	const T = 10_000_000
	sch := make(Schedule, T)
	for t := range sch {
		sch[t] = Run{Step: Step{Variance: 1 + float64(t%7)*0.01, Contraction: 0.999999}, Count: 1}
		if t%100_000 == 3 {
			sch[t].Sensitivity = 0.1
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Solve(sch); err != nil {
			b.Fatal(err)
		}
	}
}

func benchOne(b *testing.B, g PerPerson) {
	n := g.Len()
	for i := 0; i < b.N; i++ {
		if _, err := Epsilon(g, 1+int64(i)%n, 1e-6, rdp.Improved); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOneIndexPNSGD(b *testing.B) {
	benchOne(b, SGD{N: 1_000_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1}})
}

func BenchmarkOneIndexSkip(b *testing.B) {
	benchOne(b, Skip{N: 1_000_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1}})
}

func BenchmarkOneIndexStop(b *testing.B) {
	benchOne(b, Stop{N: 1_000_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1}})
}

func BenchmarkSummarizeStop1e9(b *testing.B) {
	g := Stop{N: 1_000_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1}}
	for i := 0; i < b.N; i++ {
		if _, err := Summarize(g, 1e-6, rdp.Improved, 0.01); err != nil {
			b.Fatal(err)
		}
	}
}

// scheduleJSON writes n runs one entry each, as Schedule.MarshalJSON
// does, with distinct sensitivities (no two runs merge).
func scheduleJSON(n int) []byte {
	r := rand.New(rand.NewPCG(3, 3))
	var b bytes.Buffer
	b.WriteString(`{"variance": 0.01, "contraction": 1, "steps": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"variance":0.01,"contraction":0.999,"sensitivity":%.6f,"count":%d}`, r.Float64()*0.2, 1+r.IntN(9))
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// BenchmarkParseSchedule1e6 decodes a 72 MB schedule of 10⁶ runs (issue
// 17: privamp cni on a 184 MB schedule in under 5 s and 300 MB).
func BenchmarkParseSchedule1e6(b *testing.B) {
	data := scheduleJSON(1_000_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s, err := ParseSchedule(bytes.NewReader(data)); err != nil || len(s) < 999_000 {
			b.Fatal(err, len(s))
		}
	}
}

// BenchmarkCNI1e6 is privamp cni's library path: decode the same schedule
// and solve it.
func BenchmarkCNI1e6(b *testing.B) {
	data := scheduleJSON(1_000_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := ParseSchedule(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Solve(s); err != nil {
			b.Fatal(err)
		}
	}
}

// Stop with a strongly convex loss (c = 0.999): the c < 1 mixture beside
// the c = 1 one at every order.
func BenchmarkOneIndexStopContracted(b *testing.B) {
	benchOne(b, Stop{N: 1_000_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 0.001, Eta: 1}})
}

func BenchmarkAllIndicesStopContracted1e6(b *testing.B) {
	benchAll(b, Stop{N: 1_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 0.001, Eta: 1}})
}
