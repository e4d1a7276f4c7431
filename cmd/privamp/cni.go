package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"

	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

func init() { register(newCNICmd) }

// cniMaxAllocation is the longest schedule whose allocation --allocation writes.
const cniMaxAllocation = 10_000_000

func newCNICmd(a *app) *cobra.Command {
	var path, allocPath string
	var delta float64
	var alphas []float64
	var show int
	cmd := &cobra.Command{
		Use:   "cni --schedule FILE.json",
		Short: "The optimal Theorem 22 bound for a contractive noisy iteration given as a schedule",
		Long: `The general engine of amplification by iteration (FMTT18 Theorem 22, with contraction factors c ≤ 1 as
in notes §2.1): for X_t = ψ_t(X_{t−1}) + N(0, v_t I) with c_t-Lipschitz maps, where the neighbouring
run's maps differ by at most s_t, the final iterates satisfy D_α ≤ α·K for all α > 1 (K-zCDP). privamp
finds the smallest such K — the optimal shift allocation a_t, the greatest convex minorant of the
rescaled cumulative sensitivities — and converts it to (ε, δ).

Schedule file (JSON; runs of identical steps keep 1e7-step schedules small):
  {
    "variance": 0.01,          optional default v_t (> 0) for entries that omit it
    "contraction": 1,          optional default c_t in [0, 1] (default 1)
    "steps": [                 in time order
      {"count": 4999},                             4999 steps with the defaults, s_t = 0
      {"sensitivity": 0.2},                        one step (count defaults to 1)
      {"variance": 0.02, "contraction": 0.99, "sensitivity": 0, "count": 5000},
      {"repeat": 3, "steps": [{"count": 9}, {"sensitivity": 0.2}]}
    ]
  }
An entry is a run — "variance", "contraction", "sensitivity" (≥ 0, default 0), "count" (≥ 1, default
1) — or a group {"repeat": k, "steps": [...]} repeated k times (nesting up to 8 deep). Unknown keys are
refused; a contraction above 1 is refused (the step does not contract; Theorem 22 does not apply).
--json prints the zCDP parameter K under the key "rho".
For PNSGD with step size η, noise σ and L-Lipschitz losses: v_t = η²σ², c_t = 1 (or
max(|1 − ηm|, |1 − ηβ|) for m-strongly convex, β-smooth losses), s_t = 2ηL/b at the person's steps.

Exit status: 0 success, 1 failure (e.g. --allocation cannot be written), 2 bad input (a flag out of
range, or a schedule that is unreadable or invalid, named by its line or key).`,
		Args: cobra.NoArgs,
		Example: `  privamp cni --schedule person.json --delta 1e-6
  privamp cni --schedule person.json --alpha 2,8,32 --allocation shifts.csv --json`,
	}
	fl := cmd.Flags()
	fl.StringVar(&path, "schedule", "", "schedule file in the JSON format above ('-' for standard input; required)")
	fl.Float64Var(&delta, "delta", 1e-5, "δ in (0, 1)")
	fl.Float64SliceVar(&alphas, "alpha", nil, "also print the RDP ε(α) = αK at these orders (> 1; repeatable or comma list)")
	fl.StringVar(&allocPath, "allocation", "", "write the optimal shifts a_t as CSV (step,shift) to this file (schedules up to 1e7 steps)")
	fl.IntVar(&show, "segments", 20, "how many segments of the convex minorant to list (0 to 10000)")
	conv := conversionFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		c, err := conv()
		switch {
		case err != nil:
			return err
		case path == "":
			return badInput("--schedule is required: a JSON schedule file (see 'privamp cni --help')")
		case !(delta > 0 && delta < 1):
			return badInput("--delta must be in (0, 1), got %v", delta)
		case show < 0 || show > 10000:
			return badInput("--segments must be in [0, 10000], got %d", show)
		case allocPath != "" && path != "-" && sameFile(path, allocPath):
			return badInput("--allocation %s would overwrite the input --schedule %s", allocPath, path)
		}
		for _, al := range alphas {
			if !(al > 1) || math.IsInf(al, 0) {
				return badInput("--alpha must be a finite number > 1, got %v", al)
			}
		}
		rd := cmd.InOrStdin()
		if path != "-" {
			fh, err := os.Open(path)
			if err != nil {
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				return badInput("--schedule: cannot read %s: %v", path, err)
			}
			defer fh.Close()
			rd = fh
		}
		sch, err := shifted.ParseSchedule(rd)
		if err != nil {
			return badInput("--schedule %s: %v", path, err)
		}
		if allocPath != "" && sch.Len() > cniMaxAllocation {
			return badInput("--allocation writes schedules of at most %d steps; this one has %d", cniMaxAllocation, sch.Len())
		}
		sol, err := shifted.Solve(sch)
		if err != nil {
			return badInput("--schedule %s: %v", path, err)
		}
		if allocPath != "" {
			if err := cniWriteAllocation(sol, allocPath); err != nil {
				return err
			}
		}
		return render(a.out, a.mode, cniReport(sol, len(sch), delta, c, alphas, show, allocPath))
	}
	return cmd
}

// cniResult is cni's --json object. Rho is the schedule's zCDP parameter
// (the help's K: D_α ≤ αρ for every α > 1).
type cniResult struct {
	Command        string        `json:"command"`
	Steps          int64         `json:"steps"`
	Runs           int           `json:"runs"`
	Rho            quantity.Loss `json:"rho"`
	LogRho         quantity.Num  `json:"log_rho"`
	Epsilon        quantity.Loss `json:"epsilon"`
	Delta          float64       `json:"delta"`
	Order          quantity.Num  `json:"order"`
	Conversion     string        `json:"conversion"`
	Source         string        `json:"source"`
	RDP            []cniRDP      `json:"rdp,omitempty"`
	Segments       []cniSegment  `json:"segments"`
	SegmentCount   int           `json:"segment_count"`
	AllocationFile string        `json:"allocation_file,omitempty"`
	Assumptions    []string      `json:"assumptions"`
	Notes          []string      `json:"notes"`
}

type cniRDP struct {
	Alpha   float64       `json:"alpha"`
	Epsilon quantity.Loss `json:"epsilon"`
}

type cniSegment struct {
	First      int64         `json:"first"`
	Last       int64         `json:"last"`
	Rho        quantity.Loss `json:"rho"`
	LogSlope   quantity.Num  `json:"log_slope"`
	FirstShift quantity.Num  `json:"first_shift"`
}

func cniReport(sol shifted.Solution, runs int, delta float64, c rdp.Conversion, alphas []float64, show int, allocPath string) *report {
	eps, order := sol.Epsilon(delta, c)
	src := "FMTT18 Thm 22 with the optimal shift allocation (notes §2.1–2.2)"
	res := cniResult{Command: "cni", Steps: sol.Steps, Runs: runs, Rho: quantity.Loss(sol.K), LogRho: quantity.Num(sol.LogK), Epsilon: quantity.Loss(eps),
		Delta: delta, Order: quantity.Num(order), Conversion: c.String(), Source: src, SegmentCount: len(sol.Segments), AllocationFile: allocPath,
		Assumptions: []string{
			"X_t = ψ_t(X_{t−1}) + Z_t with Z_t ~ N(0, v_t I) independent of everything else, both runs from the same X_0",
			"every ψ_t (and ψ'_t) is c_t-Lipschitz with c_t ≤ 1 (contractions: Lemma 21, notes §2.1)",
			"sup_x ‖ψ_t(x) − ψ'_t(x)‖ ≤ s_t at every step (the person's influence)",
			"only the final iterate X_T is released",
		}}
	r := &report{
		Title: fmt.Sprintf("Contractive noisy iteration: %s steps in %d runs", fmtInt(float64(sol.Steps)), runs),
		Rows: []row{
			{"K (zCDP: D_α ≤ αK for all α > 1)", res.Rho, cniLogK(sol), src},
			{"ε", res.Epsilon, "at δ = " + fmtNum(delta), src + "; " + c.Source()},
			{"optimal order α", fmtOrder(order), "", "minimised over real α > 1"},
		},
		Table: &table{Header: []string{"segment", "first step", "last step", "K share", "shift at first step"}},
	}
	for _, al := range alphas {
		res.RDP = append(res.RDP, cniRDP{al, quantity.Loss(al * sol.K)})
		r.Rows = append(r.Rows, row{fmt.Sprintf("RDP ε(α = %s)", fmtNum(al)), quantity.Loss(al * sol.K), "αK", src})
	}
	for i, s := range sol.Segments {
		if i >= show {
			res.Notes = append(res.Notes, fmt.Sprintf("%d more segments not listed (--segments)", len(sol.Segments)-show))
			break
		}
		a := sol.Shift(s.First)
		r.Table.Rows = append(r.Table.Rows, []string{strconv.Itoa(i + 1), fmtInt(float64(s.First)), fmtInt(float64(s.Last)), fmtEps(s.K), fmtNum(a)})
		res.Segments = append(res.Segments, cniSegment{s.First, s.Last, quantity.Loss(s.K), quantity.Num(s.LogSlope), quantity.Num(a)})
	}
	res.Notes = append(res.Notes, "segments are the pieces of the greatest convex minorant; the shift z_t returns to 0 at the end of each (the string touches the staircase there), and a_t = 0 on segments with K share 0")
	if allocPath != "" {
		res.Notes = append(res.Notes, "optimal shifts a_t written to "+allocPath)
	}
	r.Result, r.Assumptions, r.Notes, r.CSVAll = res, res.Assumptions, res.Notes, true
	return r
}

// sameFile reports whether two paths name the same existing file.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// cniLogK shows ln K when K underflows.
func cniLogK(s shifted.Solution) string {
	if s.K == 0 && !math.IsInf(s.LogK, -1) {
		return "underflows: ln K = " + fmtNum(s.LogK)
	}
	return ""
}

func cniWriteAllocation(sol shifted.Solution, path string) error {
	shifts, err := sol.Shifts()
	if err != nil {
		return badInput("--allocation: %v", err)
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	w.WriteString("step,shift\n")
	var line []byte
	for i, a := range shifts {
		line = strconv.AppendInt(line[:0], int64(i)+1, 10)
		line = append(line, ',')
		line = strconv.AppendFloat(line, a, 'g', 17, 64)
		line = append(line, '\n')
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}
