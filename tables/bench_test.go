package tables

import "testing"

func BenchmarkEvaluateAll(b *testing.B) {
	p := Params{N: 1e5, D: 100, Epsilon: 1, Delta: 1e-6}
	for i := 0; i < b.N; i++ {
		for _, t := range All() {
			if _, err := t.Evaluate(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkLangevinBetaFor(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_, _ = LangevinBetaFor(1, 1e-5, 0.01, 10)
	}
}

func BenchmarkBST14SGD(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := BST14SGD(1000, 1, 1e-5, 1); err != nil {
			b.Fatal(err)
		}
	}
}
