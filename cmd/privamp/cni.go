package main

import (
	"errors"
	"io"
	"os"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

func init() { register("cni", func(a *app) *cobra.Command { return newCNICmd(a, nil) }) }

// cniOptions is what `privamp cni` was asked: every flag parsed and its
// combinations checked; nothing read or computed.
type cniOptions struct {
	IO         *app
	Schedule   string    // the schedule file; '-': Stdin
	Stdin      io.Reader // the command's standard input
	Allocation string    // where to write the optimal shifts ('' none)
	Delta      float64
	Alphas     []float64 // RDP orders to print
	Segments   int       // how many segments of the minorant to list
	Conversion rdp.Conversion
}

// cniMaxAllocation is the longest schedule whose allocation --allocation writes.
const cniMaxAllocation = 10_000_000

func newCNICmd(a *app, runF func(*cniOptions) error) *cobra.Command {
	opts := &cniOptions{IO: a}
	cmd := &cobra.Command{
		Use:   "cni --schedule FILE.json",
		Short: "The optimal Theorem 22 bound for a contractive noisy iteration given as a schedule",
		Long: `The general engine of amplification by iteration (FMTT18 Theorem 22, contractions c ≤ 1 as in
docs/amplification.md §Contraction factor below one): for X_t = ψ_t(X_{t−1}) + N(0, v_t I) with c_t-Lipschitz
maps that differ between neighbouring runs by at most s_t, the final iterates satisfy D_α ≤ α·K for all α > 1.
privamp finds the smallest K (the optimal shift allocation a_t: the greatest convex minorant of the rescaled
cumulative sensitivities) and converts it to (ε, δ).

Schedule file (JSON, steps in time order; runs of identical steps keep 1e7-step schedules small):
  {"variance": 0.01, "contraction": 1, "steps": [{"count": 4999}, {"sensitivity": 0.2},
   {"variance": 0.02, "contraction": 0.99, "count": 5000}, {"repeat": 3, "steps": [{"count": 9}]}]}
Top-level "variance" (> 0) and "contraction" (in [0, 1], default 1) are defaults. An entry is a run —
"variance", "contraction", "sensitivity" (≥ 0, default 0), "count" (≥ 1, default 1) — or a group
{"repeat": k, "steps": [...]} (nesting up to 8 deep). Unknown keys and contractions above 1 are
refused. --json prints K under the key "rho".
PNSGD (step η, noise σ, L-Lipschitz loss): v_t = η²σ², c_t = 1 (max(|1 − ηm|, |1 − ηβ|) if m-strongly
convex and β-smooth), s_t = 2ηL/b at the person's steps.

Exit status: 0 success, 1 failure (e.g. --allocation fails while written), 2 bad input (a flag out of
range, a schedule that is unreadable or invalid, named by its line or key, or an output that cannot be created).` + "\n\n" + shifted.ScheduleLimits(),
		Args: cobra.NoArgs,
		Example: `  privamp cni --schedule person.json --delta 1e-6
  privamp cni --schedule person.json --alpha 2,8,32 --allocation shifts.csv --json`,
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Schedule, "schedule", "", "schedule file in the JSON format above ('-' for standard input; required)")
	fl.Float64Var(&opts.Delta, "delta", 1e-5, "δ in (0, 1)")
	fl.Float64SliceVar(&opts.Alphas, "alpha", nil, "also print the RDP ε(α) = αK at these orders (> 1; repeatable or comma list)")
	fl.StringVar(&opts.Allocation, "allocation", "", "write the optimal shifts a_t as CSV (step,shift) to this file ('-': standard output; schedules up to 1e7 steps)")
	fl.IntVar(&opts.Segments, "segments", 20, "how many segments of the convex minorant to list (0 to 10000)")
	conv := conversionFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var err error
		opts.Conversion, err = conv()
		switch {
		case err != nil:
			return err
		case opts.Schedule == "":
			return badInput("--schedule is required: a JSON schedule file (see 'privamp cni --help')")
		case opts.Allocation != "" && opts.Schedule != "-" && samePath(opts.Schedule, opts.Allocation):
			return badInput("--allocation %s would overwrite the input --schedule %s", opts.Allocation, opts.Schedule)
		}
		opts.Stdin = cmd.InOrStdin()
		return runWith(runF, cniRun, opts)
	}
	return cmd
}

// cniRun reads and solves the schedule, writes the allocation if asked and
// renders the bound to opts.IO.
func cniRun(opts *cniOptions) error {
	a, path, allocPath := opts.IO, opts.Schedule, opts.Allocation
	rd := opts.Stdin
	if path != "-" {
		fh, err := os.Open(path)
		if err != nil {
			return badInput("--schedule: cannot read %s: %v", path, errors.Unwrap(err))
		}
		defer fh.Close()
		bar := newBar(a)
		defer bar.finish()
		rd = bar.reader("reading "+path, fh)
	}
	sch, err := shifted.ParseSchedule(rd)
	if err == nil && allocPath != "" && sch.Len() > cniMaxAllocation {
		return badInput("--allocation writes schedules of at most %d steps; this one has %d", cniMaxAllocation, sch.Len())
	}
	var sol shifted.Solution
	if err == nil {
		sol, err = shifted.Solve(sch)
	}
	if err != nil {
		return badInput("--schedule %s: %v", path, err)
	}
	res, err := sol.Report(opts.Delta, opts.Conversion, opts.Alphas, opts.Segments)
	if err != nil {
		return err
	}
	if allocPath != "" {
		if err := streamFileAtomic(allocPath, sol.WriteShiftsCSV); err != nil {
			return flagged("allocation", err)
		}
		res.Notes = append(res.Notes, "optimal shifts a_t written to "+allocPath)
	}
	return render(a.out, a.mode, res.Answer(allocPath))
}
