// Package benchdata writes the synthetic inputs that BENCHMARKS.md's scale
// rows are measured on (bench/genpeople and shifted/plan's benchmarks use
// the same writer, so both measure the same file).
package benchdata

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"
)

// WritePeople writes a people CSV of n rows "person-i,ε," (header
// id,epsilon,delta) with ε ∈ {0.1, 1, 4} in shares 1%, 9%, 90%, drawn from a
// fixed seed, so every call writes the same bytes.
func WritePeople(out io.Writer, n int) error {
	w := bufio.NewWriterSize(out, 1<<20)
	w.WriteString("id,epsilon,delta\n")
	r := rand.New(rand.NewPCG(1, 1))
	var buf []byte
	for i := 0; i < n; i++ {
		e := "4"
		switch u := r.Float64(); {
		case u < 0.01:
			e = "0.1"
		case u < 0.1:
			e = "1"
		}
		buf = append(strconv.AppendInt(append(buf[:0], "person-"...), int64(i), 10), ',')
		buf = append(append(buf, e...), ",\n"...)
		w.Write(buf)
	}
	return w.Flush()
}
