package verify

import (
	"fmt"
	"io"
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// Trajectory is a trajectory as Verify reads it: Rows (every row in
// memory, as ReadTrace returns them) or a *TraceSummary (the running maxima
// and extremes ScanTrace gathers row by row, in constant memory). Both give
// the same verification.
type Trajectory interface {
	summary(c *Claim) (*TraceSummary, error)
}

// Rows is a trajectory held row by row.
type Rows []TracePoint

func (rs Rows) summary(c *Claim) (*TraceSummary, error) {
	s := newTraceSummary(c)
	for _, p := range rs {
		s.add(p)
	}
	return s, nil
}

// TraceSummary is what Verify needs of a trajectory, gathered one row at a
// time: the number of rows and the last step, the first row that makes the
// trajectory unusable as evidence, whether each optional column is recorded
// on every row or on none, the largest gradient norm, measured contraction
// and distance to the optimum (with their lines), the first row whose step
// size is not the claim's η, and the rows with the extreme loss (alone and
// shifted by ±L·dist_to_opt, for the claim's L), and the running sums of
// the noise columns (Σ noise_sq, Σ noise_dof). Its memory does not grow
// with the trajectory. It is made for one claim (ScanTrace): Verify refuses
// it for a claim with another L or η.
type TraceSummary struct {
	lipschitz, eta float64

	rows    int
	first   TracePoint
	prev    int         // the previous row's step
	bad     string      // why the trajectory cannot be evidence (the first row at fault)
	nonZero bool        // some grad_norm ≠ 0
	cols    [5]colCount // loss, contraction, dist_to_opt, noise_sq, noise_dof

	last      int // the last row's step
	maxG      float64
	gLine     int
	badEta    TracePoint
	hasBadEta bool
	maxC      float64
	cLine     int
	maxD      float64
	dLine     int
	distHi    TracePoint // argmax of loss − L·dist
	distLo    TracePoint // argmin of loss + L·dist
	lossHi    TracePoint // argmax of loss
	lossLo    TracePoint // argmin of loss

	noiseSq  numeric.Kahan // Σ noise_sq
	noiseDOF float64       // Σ noise_dof (whole numbers: exact below 2⁵³)
	dim      float64       // noise_dof/(steps of the row) on the rows after the first (0: none yet)
}

// colCount counts the rows that record an optional column and those that
// leave it empty (with the first of them).
type colCount struct {
	have, miss, missLine int
}

func newTraceSummary(c *Claim) *TraceSummary {
	return &TraceSummary{lipschitz: c.Lipschitz, eta: c.Eta}
}

// Len returns the number of rows.
func (s *TraceSummary) Len() int { return s.rows }

func (s *TraceSummary) summary(c *Claim) (*TraceSummary, error) {
	if !same(c.Lipschitz, s.lipschitz) || !same(c.Eta, s.eta) {
		return nil, fmt.Errorf("claim: the trajectory was summarised for L = %g, η = %g, not this claim's L = %g, η = %g", s.lipschitz, s.eta, c.Lipschitz, c.Eta)
	}
	return s, nil
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// ScanTrace reads a trajectory CSV in the format of ReadTrace, for the
// claim c, keeping only what Verify needs (TraceSummary): memory is a read
// buffer, whatever the number of rows (at most MaxTraceRows). Errors are
// *dp.Error (Line, Reason), as ReadTrace's.
func ScanTrace(r io.Reader, c *Claim) (*TraceSummary, error) {
	s := newTraceSummary(c)
	if err := scanTrace(r, s.add); err != nil {
		return nil, err
	}
	return s, nil
}

// add takes the next row into the summary.
func (s *TraceSummary) add(p TracePoint) {
	i := s.rows
	s.rows++
	if i == 0 {
		s.first = p
		s.gLine, s.cLine, s.dLine = p.Line, p.Line, p.Line
		s.distHi, s.distLo, s.lossHi, s.lossLo = p, p, p, p
	}
	// A row records the noise when noise_dof is a number other than 0 (a
	// TracePoint's zero value, in Rows built in code, records none).
	if p.NoiseDOF == 0 {
		p.NoiseDOF = math.NaN()
		if p.NoiseSq == 0 {
			p.NoiseSq = math.NaN()
		}
	}
	if s.bad == "" {
		s.bad = rowFault(p, i, s.prev)
	}
	if !math.IsNaN(p.NoiseDOF) {
		s.noiseDOF += p.NoiseDOF
		if k := p.Step - s.prev; i > 0 && k > 0 && s.bad == "" {
			d := p.NoiseDOF / float64(k)
			switch {
			case d != math.Trunc(d):
				s.bad = fmt.Sprintf("line %d: noise_dof %v is not a whole multiple of the %d steps since the previous row (it counts steps × d)", p.Line, p.NoiseDOF, k)
			case s.dim == 0:
				s.dim = d
			case d != s.dim:
				s.bad = fmt.Sprintf("line %d: noise_dof %v over %d steps gives dimension %v, but earlier rows give %v", p.Line, p.NoiseDOF, k, d, s.dim)
			}
		}
	}
	if !math.IsNaN(p.NoiseSq) {
		s.noiseSq.Add(p.NoiseSq)
	}
	s.prev = p.Step
	s.nonZero = s.nonZero || p.GradNorm != 0
	for k, x := range [5]float64{p.Loss, p.Contraction, p.Dist, p.NoiseSq, p.NoiseDOF} {
		cc := &s.cols[k]
		if math.IsNaN(x) {
			cc.miss++
			if cc.missLine == 0 {
				cc.missLine = p.Line
			}
		} else {
			cc.have++
		}
	}
	s.last = p.Step
	if p.GradNorm > s.maxG {
		s.maxG, s.gLine = p.GradNorm, p.Line
	}
	if !s.hasBadEta && math.Abs(p.StepSize-s.eta) > 1e-9*s.eta {
		s.badEta, s.hasBadEta = p, true
	}
	if p.Contraction > s.maxC {
		s.maxC, s.cLine = p.Contraction, p.Line
	}
	if p.Dist > s.maxD {
		s.maxD, s.dLine = p.Dist, p.Line
	}
	L := s.lipschitz
	if p.Loss-L*p.Dist > s.distHi.Loss-L*s.distHi.Dist {
		s.distHi = p
	}
	if p.Loss+L*p.Dist < s.distLo.Loss+L*s.distLo.Dist {
		s.distLo = p
	}
	if p.Loss > s.lossHi.Loss {
		s.lossHi = p
	}
	if p.Loss < s.lossLo.Loss {
		s.lossLo = p
	}
}

// rowFault returns why row i (step prev before it) makes a trajectory
// unusable as evidence, "" if it does not.
func rowFault(p TracePoint, i, prev int) string {
	switch {
	case p.Step < 1:
		return fmt.Sprintf("line %d: step %d is not ≥ 1", p.Line, p.Step)
	case i > 0 && p.Step <= prev:
		return fmt.Sprintf("line %d: step %d does not increase (previous %d)", p.Line, p.Step, prev)
	case !(p.GradNorm >= 0) || math.IsInf(p.GradNorm, 1):
		return fmt.Sprintf("line %d: grad_norm %v is not a finite number ≥ 0", p.Line, p.GradNorm)
	case !(p.StepSize > 0) || math.IsInf(p.StepSize, 1):
		return fmt.Sprintf("line %d: step_size %v is not a finite number > 0", p.Line, p.StepSize)
	case math.IsInf(p.Loss, 0):
		return fmt.Sprintf("line %d: loss %v is not finite", p.Line, p.Loss)
	case p.Contraction < 0 || math.IsInf(p.Contraction, 0):
		return fmt.Sprintf("line %d: contraction %v is not a finite number ≥ 0", p.Line, p.Contraction)
	case p.Dist < 0 || math.IsInf(p.Dist, 0):
		return fmt.Sprintf("line %d: dist_to_opt %v is not a finite number ≥ 0", p.Line, p.Dist)
	case p.NoiseSq < 0 || math.IsInf(p.NoiseSq, 0):
		return fmt.Sprintf("line %d: noise_sq %v is not a finite number ≥ 0", p.Line, p.NoiseSq)
	case !math.IsNaN(p.NoiseDOF) && (p.NoiseDOF < 1 || p.NoiseDOF != math.Trunc(p.NoiseDOF) || p.NoiseDOF > 1<<50):
		return fmt.Sprintf("line %d: noise_dof %v is not a whole number ≥ 1", p.Line, p.NoiseDOF)
	}
	return ""
}

// degenerate returns why the trajectory cannot be evidence, "" if it can.
func (s *TraceSummary) degenerate() string {
	switch {
	case s.rows == 0:
		return "the trajectory has no rows"
	case s.bad != "":
		return s.bad
	case !s.nonZero:
		return "every grad_norm is exactly 0 (no gradient was ever recorded)"
	}
	for k, name := range [5]string{"loss", "contraction", "dist_to_opt", "noise_sq", "noise_dof"} {
		if cc := s.cols[k]; cc.have > 0 && cc.miss > 0 {
			return fmt.Sprintf("line %d: column %q is empty on %d of %d rows (a column is recorded on every row or on none)", cc.missLine, name, cc.miss, s.rows)
		}
	}
	if (s.cols[3].have > 0) != (s.cols[4].have > 0) {
		return "the columns noise_sq and noise_dof go together (Σ‖Z‖² and the coordinates it sums): one is recorded without the other"
	}
	if f := s.first; s.dim > 0 && !math.IsNaN(f.NoiseDOF) && (math.Mod(f.NoiseDOF, s.dim) != 0 || f.NoiseDOF > float64(f.Step)*s.dim) {
		return fmt.Sprintf("line %d: noise_dof %v is not a whole number of steps (at most %d) of dimension %v", f.Line, f.NoiseDOF, f.Step, s.dim)
	}
	return ""
}

// hasNoise reports whether the trajectory records the noise drawn
// (noise_sq and noise_dof on every row).
func (s *TraceSummary) hasNoise() bool { return s.cols[3].have > 0 && s.cols[4].have > 0 }
