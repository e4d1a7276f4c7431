package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/audit"
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
	return reportVerdict(a, ev.Answer(s.Path, flagSpelling), ev.Verdict())
}
