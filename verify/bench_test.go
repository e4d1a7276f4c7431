package verify

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// BenchmarkScanTrace1e6 reads a trajectory of 10⁶ rows (about 60 MB) into
// the summary Verify needs (issue 17: a 200 MB trajectory verified in
// under 3 s with under 100 MB; memory here is the read buffer).
func BenchmarkScanTrace1e6(b *testing.B) {
	data := randomTrace(rand.New(rand.NewPCG(1, 1)), 1_000_000, false)
	c := &Claim{Lipschitz: 1, Eta: 0.5}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s, err := ScanTrace(bytes.NewReader(data), c); err != nil || s.Len() != 1_000_000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadTrace1e6 is the same trajectory kept row by row.
func BenchmarkReadTrace1e6(b *testing.B) {
	data := randomTrace(rand.New(rand.NewPCG(1, 1)), 1_000_000, false)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rows, err := ReadTrace(bytes.NewReader(data)); err != nil || len(rows) != 1_000_000 {
			b.Fatal(err)
		}
	}
}
