package verify

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/privamp/privamp/internal/lines"
)

// randomTrace writes a trajectory of n rows for baseClaim (η = 0.5, L = 1):
// mostly genuine values, with faults (a row out of order, a gradient norm
// above L, another step size, blanked fields) sprinkled in at random.
func randomTrace(r *rand.Rand, n int, faults bool) []byte {
	var b bytes.Buffer
	b.WriteString("step,loss,grad_norm,step_size,contraction,dist_to_opt\n")
	for i := 1; i <= n; i++ {
		step, g, eta := i*1000/n, 0.9*r.Float64(), "0.5"
		loss, c, d := fmt.Sprint(0.5+0.1*r.Float64()), fmt.Sprint(r.Float64()), fmt.Sprint(0.5*r.Float64())
		if faults {
			switch r.IntN(40) {
			case 0:
				step = 0
			case 1:
				g = 1.5
			case 2:
				eta = "0.25"
			case 3:
				loss = ""
			case 4:
				d = "3"
			case 5:
				loss = "9"
			}
		}
		fmt.Fprintf(&b, "%d,%s,%g,%s,%s,%s\n", step, loss, g, eta, c, d)
	}
	return b.Bytes()
}

// TestScanTraceMatchesRows: the constant-memory summary (ScanTrace) gives
// the same verification as every row held in memory (ReadTrace), on
// genuine and faulty trajectories; and the rows' maxima agree with a
// direct scan written here.
func TestScanTraceMatchesRows(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for k := 0; k < 60; k++ {
		data := randomTrace(r, 1+r.IntN(300), k%3 != 0)
		for _, cl := range []string{baseClaim, strings.Replace(baseClaim, `"epsilon": 3`, `"epsilon": 3, "radius": 2`, 1)} {
			c := parseClaimString(t, cl)
			rows, err := ReadTrace(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			sum, err := ScanTrace(bytes.NewReader(data), c)
			if err != nil {
				t.Fatal(err)
			}
			v1, err1 := Verify(c, rows)
			v2, err2 := Verify(c, sum)
			if err1 != nil || err2 != nil || fmt.Sprintf("%+v", v1) != fmt.Sprintf("%+v", v2) {
				t.Fatalf("trace %d: rows %v %+v\nsummary %v %+v", k, err1, v1, err2, v2)
			}
			maxG, gLine := 0.0, rows[0].Line
			for _, p := range rows {
				if p.GradNorm > maxG {
					maxG, gLine = p.GradNorm, p.Line
				}
			}
			if sum.maxG != maxG || sum.gLine != gLine || sum.Len() != len(rows) || sum.last != rows[len(rows)-1].Step {
				t.Fatalf("trace %d: max grad %v line %d, want %v line %d", k, sum.maxG, sum.gLine, maxG, gLine)
			}
		}
	}
	// A summary is made for one claim's L and η.
	c := parseClaimString(t, baseClaim)
	sum, _ := ScanTrace(bytes.NewReader(randomTrace(r, 10, false)), c)
	other := parseClaimString(t, strings.Replace(baseClaim, `"lipschitz": 1`, `"lipschitz": 2`, 1))
	if _, err := Verify(other, sum); err == nil {
		t.Error("a summary made for L = 1 verified a claim with L = 2")
	}
}

// TestReadTraceFastPath: lines split by hand (no quotes) and lines read by
// encoding/csv (from the first quote on) give the same rows and lines, with
// comments, blank lines, CRLF and empty fields; errors keep their line.
func TestReadTraceFastPath(t *testing.T) {
	body := "1,0.5,0.9,0.5,,0.3\r\n# a comment\n\n2, 0.4 ,0.95,0.5,,0.2\n3,,0.1,0.5,,\n4,0.3,0.2,0.5,0.1,0.1"
	plain, err := ReadTrace(strings.NewReader("step,loss,grad_norm,step_size,contraction,dist_to_opt\n" + body))
	if err != nil {
		t.Fatal(err)
	}
	quoted, err := ReadTrace(strings.NewReader(`"step",loss,grad_norm,step_size,contraction,dist_to_opt` + "\n" + body))
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) != 4 || plain[3].Line != 7 || plain[1].Loss != 0.4 || !math.IsNaN(plain[2].Loss) {
		t.Fatalf("rows %+v", plain)
	}
	// NaN ≠ NaN: compare the printed rows.
	if fmt.Sprint(plain) != fmt.Sprint(quoted) {
		t.Fatalf("fast path %+v\nencoding/csv %+v", plain, quoted)
	}
	// A quote half way: the rest is read by encoding/csv, lines continue.
	mixed, err := ReadTrace(strings.NewReader("step,loss,grad_norm,step_size,contraction,dist_to_opt\n1,0.5,0.9,0.5,,0.3\n\n\"2\",0.4,0.95,0.5,,0.2\n3,x,1,1,,\n"))
	if err == nil || err.Error() != `line 5: column "loss": "x" is not a number` {
		t.Fatalf("mixed: %v %+v", err, mixed)
	}
	for _, in := range []string{"step,grad_norm,step_size\n1,0.5,0.5\n2,\"0.5,0.5\n", "step,grad_norm,step_size\n1,0.5,0.5\n2,0.5\"x,0.5\n"} {
		if _, err := ReadTrace(strings.NewReader(in)); err == nil || !strings.HasPrefix(err.Error(), "line 3: not valid CSV") {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// TestReadTraceRowErrors: each bad row is named as before the fast path
// (the step is checked before the other columns, an empty step is not a
// whole number).
func TestReadTraceRowErrors(t *testing.T) {
	for in, want := range map[string]string{
		"step,grad_norm,step_size\n,x,1\n":       `line 2: column "step": NaN is not a whole number of steps`,
		"step,grad_norm,step_size\n1.5,x,1\n":    `line 2: column "step": 1.5 is not a whole number of steps`,
		"step,grad_norm,step_size\ns,1,1\n":      `line 2: column "step": "s" is not a number`,
		"step,grad_norm,step_size\n1,1\n":        `line 2: missing column "step_size"`,
		"step,grad_norm,step_size\n1,1,0x1p3\n":  ``,
		"# c\nstep,grad_norm,step_size\n\n1,1\n": `line 4: missing column "step_size"`,
		"step,grad_norm,step_size\n":             `line 2: no rows after the header`,
		"":                                       `line 1: no header line`,
		"step,Grad_norm,step_size\n1,1,1\n":      `line 1: header column "Grad_norm": column names are case-sensitive; did you mean "grad_norm"?`,
	} {
		_, err := ReadTrace(strings.NewReader(in))
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("%q: got %v, want %s", in, err, want)
		}
	}
}

// TestTraceLineLimit: a line past lines.MaxBytes is refused naming its line
// and the limit, read by hand or by encoding/csv (after a quote).
func TestTraceLineLimit(t *testing.T) {
	long := strings.Repeat("9", lines.MaxBytes+1)
	for _, head := range []string{"step,grad_norm,step_size\n", "\"step\",grad_norm,step_size\n", "step,grad_norm,step_size\n\"0\",0.5,0.5\n"} {
		_, err := ReadTrace(strings.NewReader(head + "2,0.5," + long + "\n"))
		want := 2 + strings.Count(head, "\n") - 1
		if err == nil || err.Error() != fmt.Sprintf("line %d: longer than %d bytes, the most a line may hold", want, lines.MaxBytes) {
			t.Errorf("%q: %v", head, err)
		}
	}
}
