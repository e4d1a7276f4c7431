package shifted

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/privamp/privamp/dp"
	"io"
	"math"
	"strconv"

	"github.com/privamp/privamp/internal/field"
)

// CurveColumn is the per-person curve ε_t(δ) of one variant of a run.
type CurveColumn struct {
	// Name is "epsilon_" followed by the variant: the column's one meaning is
	// the run of the Training with this variant, whatever else is drawn.
	Name    string  `json:"column"`
	Variant Variant `json:"variant"`
	// RunName describes the run in words (Training.Name, and what it releases).
	RunName             string   `json:"name"`
	CompositionFallback bool     `json:"composition_fallback"`
	Source              string   `json:"source"`
	Assumptions         []string `json:"assumptions"`
	Notes               []string `json:"notes"`
	// Epsilon[i] is ε at the i-th index of Curves.Index.
	Epsilon []float64 `json:"-"`
}

// Curves holds the per-person curves of one run under several variants and,
// optionally, the sampling baseline of the same run.
type Curves struct {
	N          int64   `json:"n"`
	Delta      float64 `json:"delta"`
	Conversion string  `json:"conversion"`
	// ConversionSource cites the RDP → (ε, δ) conversion.
	ConversionSource string `json:"conversion_source"`
	// Index lists the indices of the rows; nil means every index 1..N
	// (ExpandIndex lists them).
	Index    []int64         `json:"index"`
	Columns  []CurveColumn   `json:"columns"`
	Sampling *SamplingColumn `json:"sampling,omitempty"`
}

// SamplingColumn is the sampling baseline of the run (replace-one, like for
// like with the columns: the smaller of RDP remove-then-add and the PLD's
// provable replace-one pair, and loose: see Sampling.LoosenessNote; Order is
// null when the PLD gave it).
type SamplingColumn struct {
	Column     string      `json:"column"`
	Neighbours dp.Relation `json:"neighbours"`
	dp.Guarantee
	Order     dp.Num   `json:"order"`
	Looseness dp.Num   `json:"looseness"`
	Notes     []string `json:"notes"`
}

// MarshalJSON adds the column's ε values (key "epsilon", null for no
// finite guarantee).
func (c CurveColumn) MarshalJSON() ([]byte, error) {
	type plain CurveColumn
	eps := make([]dp.Loss, len(c.Epsilon))
	for i, e := range c.Epsilon {
		eps[i] = dp.Loss(e)
	}
	return json.Marshal(struct {
		plain
		Epsilon []dp.Loss `json:"epsilon"`
	}{plain(c), eps})
}

// ExpandIndex lists every index 1..N when Index is nil.
func (c *Curves) ExpandIndex() {
	if c.Index != nil {
		return
	}
	c.Index = make([]int64, c.N)
	for i := range c.Index {
		c.Index[i] = int64(i) + 1
	}
}

// Rows returns the number of rows.
func (c Curves) Rows() int64 {
	if c.Index == nil {
		return c.N
	}
	return int64(len(c.Index))
}

// At returns the index of row i.
func (c Curves) At(i int64) int64 {
	if c.Index == nil {
		return i + 1
	}
	return c.Index[i]
}

// PersonCurves evaluates the run r under each variant (r.Variant is
// replaced; every other field applies to every variant, and a variant the
// fields do not fit is refused) at about points indices (LogSpaced, 2 to
// 100000), or at every index when points is 0 (EpsilonsAll, n ≤ MaxAll).
// With sampling it adds the sampling baseline of r (SamplingOf).
func PersonCurves(r Training, variants []Variant, o Options, points int, sampling bool) (Curves, error) {
	c := Curves{N: r.N, Delta: r.Delta, Conversion: o.Conversion.String(), ConversionSource: o.Conversion.Source()}
	if points != 0 && (points < 2 || points > 100000) {
		return c, field.New("points", points, "must be in [2, 100000]")
	}
	idx := LogSpaced(r.N, points)
	if points == 0 {
		idx = nil
	}
	c.Index = idx
	if len(variants) == 0 {
		return c, field.New("variants", nil, "must list at least one of %s", variantList())
	}
	if idx == nil && r.N > MaxAll {
		return c, field.New("n", r.N, "must be ≤ %d to list every index (%d rows)", MaxAll, r.N)
	}
	seen := map[Variant]bool{}
	for _, v := range variants {
		if seen[v] {
			return c, field.New("variants", string(v), "must list each variant once")
		}
		seen[v] = true
		rv := r
		rv.Variant = v
		m, err := NewModel(rv, o)
		if err != nil {
			return c, err
		}
		col := CurveColumn{Name: "epsilon_" + string(v), Variant: v, RunName: m.Training.Name(), CompositionFallback: m.Fallback,
			Source: m.Source(), Assumptions: m.Guarantee.Assumptions(), Notes: m.Notes}
		if m.Fallback {
			col.RunName += ", every iterate released (the step does not contract)"
		}
		if idx == nil {
			k := int64(len(c.Columns)) // variants done
			total := int64(len(variants)) * r.N
			o.Progress.Report(k*r.N, total)
			col.Epsilon, err = EpsilonsAllProgress(m.Guarantee, r.Delta, o.Conversion, func(done, _ int64) { o.Progress.Report(k*r.N+done, total) })
		} else {
			col.Epsilon, err = Epsilons(m.Guarantee, idx, r.Delta, o.Conversion)
		}
		if err != nil {
			return c, err
		}
		c.Columns = append(c.Columns, col)
	}
	if sampling {
		s, err := SamplingOf(SGD{N: r.N, Batch: r.BatchSize(), Epochs: r.EpochCount(), Sigma: r.Sigma, Loss: r.Loss}, r.Delta, o.Conversion)
		if err != nil {
			return c, err
		}
		c.Sampling = &SamplingColumn{Guarantee: dp.Guarantee{Epsilon: dp.Loss(s.ReplaceOne.Epsilon), Delta: dp.Loss(r.Delta), Source: fmt.Sprintf("Poisson sampling q = b/n = %v, %d steps, z = bσ/L = %v, replace-one: %s", s.Q, s.Steps, s.Z, s.ReplaceOneSource(o.Conversion))}, Column: "epsilon_sampling_replace_one", Neighbours: dp.ReplaceOne, Order: dp.Num(s.ReplaceOne.Order), Looseness: dp.Num(s.Looseness()),
			Notes: []string{"every iterate may be released; the sampling must stay secret", s.LoosenessNote()}}
	}
	return c, nil
}

// WriteCSV streams the curves as CSV: index, steps_to_end = n − t + 1, one
// column per variant and the sampling column, every ε with all its digits
// (the float itself: no rounding in either direction) and "inf" for no
// finite guarantee.
func (c Curves) WriteCSV(w io.Writer) error { return c.WriteCSVProgress(w, nil) }

// WriteCSVProgress is WriteCSV that reports, if progress is not nil, the
// rows written of all of them: at the start, every 65,536 rows and at the
// end (with --all, writing takes as long as computing).
func (c Curves) WriteCSVProgress(w io.Writer, progress dp.Progress) error {
	progress.Report(0, c.Rows())
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("index,steps_to_end")
	for _, col := range c.Columns {
		bw.WriteString("," + col.Name)
	}
	if c.Sampling != nil {
		bw.WriteString("," + c.Sampling.Column)
	}
	bw.WriteByte('\n')
	var buf []byte
	num := func(x float64) {
		if math.IsInf(x, 1) || math.IsNaN(x) {
			buf = append(buf, ",inf"...)
		} else {
			buf = strconv.AppendFloat(append(buf, ','), x, 'g', -1, 64)
		}
	}
	for i := int64(0); i < c.Rows(); i++ {
		t := c.At(i)
		buf = strconv.AppendInt(buf[:0], t, 10)
		buf = strconv.AppendInt(append(buf, ','), c.N-t+1, 10)
		for _, col := range c.Columns {
			num(col.Epsilon[i])
		}
		if c.Sampling != nil {
			num(float64(c.Sampling.Epsilon))
		}
		if _, err := bw.Write(append(buf, '\n')); err != nil {
			return err
		}
		if i&0xffff == 0xffff {
			progress.Report(i+1, c.Rows())
		}
	}
	err := bw.Flush()
	progress.Report(c.Rows(), c.Rows())
	return err
}

// Describe returns one line per column (its run, source, assumptions and
// notes), for a reader of the CSV, which has room for numbers only.
func (c Curves) Describe() []string {
	out := []string{fmt.Sprintf("privamp curve: n = %d, δ = %v; ε by %s", c.N, c.Delta, c.ConversionSource)}
	for _, col := range c.Columns {
		out = append(out, fmt.Sprintf("%s (%s): %s", col.Name, col.RunName, col.Source))
		for _, a := range col.Assumptions {
			out = append(out, "  assumes: "+a)
		}
		for _, n := range col.Notes {
			out = append(out, "  note: "+n)
		}
	}
	if s := c.Sampling; s != nil {
		out = append(out, s.Column+": "+s.Source)
		for _, n := range s.Notes {
			out = append(out, "  note: "+n)
		}
	}
	return out
}
