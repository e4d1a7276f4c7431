package plan

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestReadCSVParallelSameAsSequential: readParallel (every input, blocks of
// a few bytes to 64 kB, 4 workers) gives read's people and read's error,
// byte for byte, on the reference inputs and on files with a quote, a
// repeat or an overlong line in a late block.
func TestReadCSVParallelSameAsSequential(t *testing.T) {
	ins := referenceInputs()
	var b strings.Builder
	b.WriteString("id,epsilon,delta\n")
	rows := 30000
	if testing.Short() {
		rows = 4000
	}
	for i := range rows {
		fmt.Fprintf(&b, "q%d,%d,\n", i, 1+i%3)
	}
	base := b.String()
	ins = append(ins, base,
		base+"q7,1,\n",           // a repeat at the end
		base+"\"r\",2,\nq7,1,\n", // a quote, then a repeat
		base+"x,1,1e-9\n",        // δ appears late
		base+"y,"+strings.Repeat("1", 1<<20+5)+"\nz,1,\n", // a line over the limit
		strings.Replace(base, "q2000,", "q2000,,", 1),     // a bad row early
		strings.TrimSuffix(base, "\n"),                    // no final newline
	)
	seq := make([]struct {
		p   *People
		err error
	}, len(ins))
	for i, in := range ins {
		seq[i].p, seq[i].err = ReadCSV(strings.NewReader(in))
	}
	defer func(m int64, s, procs int) {
		csvParallelMin, csvBlockSize = m, s
		runtime.GOMAXPROCS(procs)
	}(csvParallelMin, csvBlockSize, runtime.GOMAXPROCS(4))
	csvParallelMin = 0
	checks := 0
	for _, size := range []int{1, 7, 300, 1 << 16} {
		csvBlockSize = size
		for i, in := range ins {
			if size < 300 && len(in) > 1<<16 {
				continue // a block per line: slow, and the same code as larger blocks
			}
			got, err := ReadCSV(strings.NewReader(in))
			want, werr := seq[i].p, seq[i].err
			checks++
			if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) || !samePeople(got, want) {
				t.Errorf("blocks of %d, %.60q: parallel %.300v (%d people), sequential %.300v (%d)", size, in, err, peopleLen(got), werr, peopleLen(want))
			}
			if err == nil && (!got.idsChecked() || !got.movable) {
				t.Errorf("blocks of %d, input %d: not marked as checked", size, i)
			}
		}
	}
	t.Logf("%d inputs, %d comparisons", len(ins), checks)
}
