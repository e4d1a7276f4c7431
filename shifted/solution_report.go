package shifted

import (
	"bufio"
	"fmt"
	"github.com/privamp/privamp/dp"
	"io"
	"math"
	"strconv"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// SolutionReport is a Solution ready to print: the zCDP parameter K (key
// "rho": D_α ≤ αρ for every α > 1), its (ε, δ), the RDP values at chosen
// orders, the first segments of the convex minorant, sources, assumptions
// and notes.
type SolutionReport struct {
	Steps int64   `json:"steps"`
	Runs  int     `json:"runs"`
	Rho   dp.Loss `json:"rho"`
	// RhoNote says when ρ underflows a float64 (its logarithm is exact).
	RhoNote string `json:"rho_note,omitempty"`
	LogRho  dp.Num `json:"log_rho"`
	dp.Guarantee
	Order      dp.Num `json:"order"`
	Conversion string `json:"conversion"`
	// EpsilonSource adds the conversion's citation to Source.
	EpsilonSource string          `json:"epsilon_source"`
	RDP           []RDPValue      `json:"rdp,omitempty"`
	Segments      []SegmentReport `json:"segments"`
	SegmentCount  int             `json:"segment_count"`
	Notes         []string        `json:"notes"`
}

// RDPValue is ε(α) of an RDP curve.
type RDPValue struct {
	Alpha   float64 `json:"alpha"`
	Epsilon dp.Loss `json:"epsilon"`
}

// SegmentReport is one segment with its share ρ of K and the shift at its
// first step.
type SegmentReport struct {
	First      int64   `json:"first"`
	Last       int64   `json:"last"`
	Rho        dp.Loss `json:"rho"`
	LogSlope   dp.Num  `json:"log_slope"`
	FirstShift dp.Num  `json:"first_shift"`
}

// Report converts the solution at δ, evaluates the RDP curve αK at alphas
// and lists at most segments segments. Errors are *dp.Error values
// ("delta", "alpha", "segments").
func (s Solution) Report(delta float64, conv rdp.Conversion, alphas []float64, segments int) (SolutionReport, error) {
	if err := field.OpenUnit("delta", delta); err != nil {
		return SolutionReport{}, err
	}
	if segments < 0 || segments > 10000 {
		return SolutionReport{}, field.New("segments", segments, "must be in [0, 10000]")
	}
	eps, order := s.Epsilon(delta, conv)
	r := SolutionReport{Guarantee: dp.Guarantee{Epsilon: dp.Loss(eps), Delta: dp.Loss(delta), Source: "FMTT18 Thm 22 with the optimal shift allocation (derivation: docs/amplification.md §Optimal shift allocation)", Assumptions: []string{
		"X_t = ψ_t(X_{t−1}) + Z_t with Z_t ~ N(0, v_t I) independent of everything else, both runs from the same X_0",
		"every ψ_t (and ψ'_t) is c_t-Lipschitz with c_t ≤ 1 (contractions: Lemma 21, docs/amplification.md §Contraction factor below one)",
		"sup_x ‖ψ_t(x) − ψ'_t(x)‖ ≤ s_t at every step (the person's influence)",
		"only the final iterate X_T is released",
	}}, Steps: s.Steps, Runs: len(s.sched), Rho: dp.Loss(s.K), LogRho: dp.Num(s.LogK), Order: dp.Num(order), Conversion: conv.String(), SegmentCount: len(s.Segments),
		EpsilonSource: "FMTT18 Thm 22 with the optimal shift allocation (derivation: docs/amplification.md §Optimal shift allocation); " + conv.Source()}
	if s.K == 0 && !math.IsInf(s.LogK, -1) {
		r.RhoNote = fmt.Sprintf("underflows: ln K = %v", s.LogK)
	}
	for _, a := range alphas {
		if !(a > 1) || math.IsInf(a, 0) {
			return SolutionReport{}, field.New("alpha", a, "must be a finite number > 1")
		}
		r.RDP = append(r.RDP, RDPValue{a, dp.Loss(a * s.K)})
	}
	for i, g := range s.Segments {
		if i >= segments {
			r.Notes = append(r.Notes, fmt.Sprintf("%d more segments not listed", len(s.Segments)-segments))
			break
		}
		r.Segments = append(r.Segments, SegmentReport{g.First, g.Last, dp.Loss(g.K), dp.Num(g.LogSlope), dp.Num(s.Shift(g.First))})
	}
	r.Notes = append(r.Notes, "segments are the pieces of the greatest convex minorant; the shift z_t returns to 0 at the end of each (the string touches the staircase there), and a_t = 0 on segments with K share 0")
	return r, nil
}

// WriteShiftsCSV writes the optimal allocation as CSV lines "step,shift"
// (with a header), every shift with all its digits (Shifts' limits apply).
func (s Solution) WriteShiftsCSV(w io.Writer) (int64, error) {
	shifts, err := s.Shifts()
	if err != nil {
		return 0, field.New("allocation", s.Steps, "must have at most %d steps to expand", MaxAllocation)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("step,shift\n")
	var line []byte
	for i, a := range shifts {
		line = strconv.AppendInt(line[:0], int64(i)+1, 10)
		line = strconv.AppendFloat(append(line, ','), a, 'g', 17, 64)
		if _, err := bw.Write(append(line, '\n')); err != nil {
			return 0, err
		}
	}
	return s.Steps, bw.Flush()
}
