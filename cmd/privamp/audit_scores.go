package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/answer"

	"github.com/privamp/privamp/audit"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/plots"
	"github.com/privamp/privamp/verify"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// scoresOptions is what `privamp audit --scores` was asked (a run privamp
// did not execute): the flags, parsed and checked; nothing read or computed.
type scoresOptions struct {
	Path, Claim, Plot string    // --scores ('-': In), --claim, --plot
	In                io.Reader // standard input
	Epsilon           float64   // --epsilon, when EpsilonGiven
	EpsilonGiven, GDP bool      // --epsilon given; --assume-gdp
	Grid              []float64 // --thresholds
	Confidence, Delta float64   // --confidence, --delta
}

func (s *scoresOptions) register(f *pflag.FlagSet) {
	f.StringVar(&s.Path, "scores", "", "audit any pipeline from its canary scores: a CSV with header member,score (or member,guess for one-run auditing; '-' for standard input); docs/audit.md")
	f.StringVar(&s.Claim, "claim", "", "with --scores: the claim (privamp's claim JSON) whose ε at its δ is set beside the lower bound")
	f.Float64Var(&s.Epsilon, "epsilon", 0, "with --scores: a claimed or proven ε (at --delta) to set beside the lower bound")
	f.StringVar(&s.Plot, "plot", "", "with --scores: write the empirical trade-off curve and the claimed ε's curve (.png or .svg)")
	f.BoolVar(&s.GDP, "assume-gdp", false, "with --scores: let the Gaussian-DP estimate into the lower bound (valid only if the run is μ-GDP)")
	f.Float64SliceVar(&s.Grid, "thresholds", nil, "with --scores: a threshold grid fixed in advance (union bound) instead of the split into halves")
}

// checkScoresFlags refuses flags and combinations --scores does not take.
func checkScoresFlags(cmd *cobra.Command, s *scoresOptions) error {
	s.EpsilonGiven = changed(cmd, "epsilon")
	allowed := "scores claim epsilon plot assume-gdp thresholds delta confidence json csv quiet"
	var other string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if other == "" && !strings.Contains(" "+allowed+" ", " "+f.Name+" ") {
			other = f.Name
		}
	})
	switch ext := strings.ToLower(filepath.Ext(s.Plot)); {
	case other != "":
		return badInput("--%s does not apply to --scores (which audits scores of a run privamp did not execute)", other)
	case s.EpsilonGiven && s.Claim != "":
		return badInput("give --epsilon or --claim, not both")
	case s.Plot != "" && ext != ".png" && ext != ".svg":
		return badInput("--plot must name a .png or .svg file, got %q", s.Plot)
	}
	return nil
}

// auditScores audits canary scores (audit.Evaluate) and sets the lower
// bound beside an upper one; VIOLATED exits 1.
func auditScores(a *app, s *scoresOptions) error {
	o, claimTrajectory := audit.Options{Confidence: s.Confidence, Delta: s.Delta, GDPInMax: s.GDP, Grid: s.Grid}, ""
	if s.EpsilonGiven {
		o.Upper = audit.UpperBound(s.Epsilon, o.Delta, "given (--epsilon)")
	} else if s.Claim != "" {
		c, _, tpath, err := verify.Load(s.Claim, "")
		if err != nil {
			return badInput("--claim %v", err)
		}
		e, d := c.Claimed()
		o.Delta, o.Upper, claimTrajectory = d, audit.UpperBound(e, d, "claimed in "+s.Claim), tpath
	}
	if err := checkOutputs([][2]string{{"plot", s.Plot}}, [][2]string{{"scores", s.Path}, {"claim", s.Claim}, {"claim trajectory", claimTrajectory}}); err != nil {
		return err
	}
	fh, err := openInput(s.Path, s.In)
	if err != nil {
		return badInput("--scores: %v", err)
	}
	defer fh.Close()
	cs, err := audit.ReadCanaries(fh)
	if err != nil {
		return badInput("--scores %s: %v", s.Path, err)
	}
	ev, err := audit.Evaluate(cs, o)
	if err != nil {
		return flagError(err, nil)
	}
	if s.Plot != "" {
		if err := plotTo(s.Plot)(plots.Tradeoff(ev)); err != nil {
			return err
		}
	}
	return reportVerdict(a, scoresReport(s.Path, ev), ev.Verdict())
}

func scoresReport(path string, ev *audit.Evaluation) *report {
	at := fmt.Sprintf("at δ = %g, %s%% confidence", ev.Delta, quantity.Nearest(100*ev.Confidence))
	r := &report{Title: fmt.Sprintf("privamp audit --scores %s: %s (%d members, %d non-members)", path, quantity.Count(ev.Canaries, "canary", "canaries"), ev.Members, ev.NonMembers),
		Result: withCommand{"audit", ev}, CSVAll: true, Notes: ev.Notes, Table: &table{Header: []string{"estimator", "epsilon_lower", "detail", "reason"}}}
	add := func(q string, v any, u, s string) { r.Rows = append(r.Rows, row{q, v, u, s}) }
	if c := ev.Comparison; c != nil {
		r.Title += ": " + c.Verdict.String()
		add("verdict", c.Verdict.String(), "", c.Statement)
		add("ε upper bound", c.EpsilonUpper, fmt.Sprintf("at δ = %g", c.Delta), c.Source)
	}
	add("ε lower bound", ev.EpsilonLower, at, answer.JoinNonEmpty("", map[bool]string{true: "estimator: " + ev.Estimator}[ev.Estimator != ""], ev.Reason))
	if t := ev.Threshold; t != nil {
		op := map[bool]string{true: "≥", false: "≤"}[t.Greater]
		d := fmt.Sprintf("member when score %s %s: %d of %d members, %d of %d non-members (TPR ≥ %s, FPR ≤ %s)", op, quantity.Nearest(t.Threshold), t.TP, t.Members, t.FP, t.NonMembers, quantity.Nearest(t.TPRLow), quantity.Nearest(t.FPRHigh))
		add("ε lower, threshold attack", t.EpsilonLower, map[string]string{"grid": "union bound over the grid"}[t.Method]+map[string]string{"split": "threshold chosen on the other half"}[t.Method], t.Source)
		r.Table.Rows = append(r.Table.Rows, []string{"threshold", t.EpsilonLower.String(), d, t.Reason})
	}
	if g := ev.GDP; g != nil {
		add("μ (Gaussian DP)", fmt.Sprintf("[%s, %s]", g.MuLower, g.MuUpper), quantity.Nearest(100*g.IntervalConfidence)+"% interval", g.Source)
		add("ε if the run is μ-GDP", fmt.Sprintf("[%s, %s]", g.EpsilonLower, g.EpsilonUpper), quantity.Nearest(100*g.IntervalConfidence)+fmt.Sprintf("%% interval at δ = %g", ev.Delta), g.Assumption)
		r.Table.Rows = append(r.Table.Rows, []string{"gdp", g.EpsilonLower.String(), fmt.Sprintf("μ in [%s, %s]; a bound on ε only if the run is μ-GDP", g.MuLower, g.MuUpper), g.Reason})
	}
	if o := ev.OneRun; o != nil {
		add("ε lower, one run", o.EpsilonLower, fmt.Sprintf("%d of %d guesses right, %d canaries", o.Correct, o.Guesses, o.Canaries), o.Source)
		r.Table.Rows = append(r.Table.Rows, []string{"one_run", o.EpsilonLower.String(), fmt.Sprintf("%d of %d guesses right, %d canaries", o.Correct, o.Guesses, o.Canaries), o.Reason})
	}
	return r
}

// withCommand is a typed result with the command's name beside its keys.
type withCommand struct {
	Command string `json:"command"`
	*audit.Evaluation
}
