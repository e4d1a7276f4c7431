package main

import (
	"strings"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/composition/events"
	"github.com/privamp/privamp/dp"
	"github.com/spf13/cobra"
)

func init() { register("compose", func(a *app) *cobra.Command { return newComposeCmd(a, nil) }) }

// composeOptions is what `privamp compose` was asked: every flag parsed and
// its combinations checked; nothing computed. Either Events is set (an
// events file, accounted at TargetDelta by Accountant) or Query is.
type composeOptions struct {
	IO    *app
	Query composition.Query
	// ListFlag names the flag the list came from ("list" or "guarantee").
	ListFlag string
	// Events is the events file read from EventsPath (nil: Query).
	Events      *events.Events
	EventsPath  string
	Accountant  string
	TargetDelta float64
	Plot        string // --plot: the ε–δ curve's file
}

func newComposeCmd(a *app, runF func(*composeOptions) error) *cobra.Command {
	var (
		q                           composition.Query
		dPrime, target, tEps        float64
		listFlag, evPath, acc, plot string
		guarantees                  []string
	)
	cmd := &cobra.Command{
		Use:   "compose",
		Short: "(ε, δ) of composed (ε, δ)-DP mechanisms: basic, advanced, optimal, filter, or the best of them",
		Long: `The (ε, δ) guarantee of running several (ε, δ)-DP mechanisms on the same data, adaptively.

Homogeneous: --compositions k mechanisms, each (--epsilon, --delta)-DP. Heterogeneous:
--list "e1:d1,e2:d2,..." or repeated --guarantee e:d (an entry "e" alone means δ = 0).

Methods (--method, default best):
  basic     (Σε, Σδ)                                     Dwork–Roth 2014, Thm 3.16
  advanced  √(2k ln(1/δ'))ε + kε(e^ε − 1), δ = kδ + δ'    Dwork–Rothblum–Vadhan 2010 (seed 001, Lemma 2.3)
  optimal   exact optimal composition, δ(ε') in log space  Kairouz–Oh–Viswanath 2015, Thm 3.3
  filter    √(2 ln(1/δ') Σε²) + ½Σε², δ = δ' + Σδ         Whitehouse et al. 2023 (seed 003, Thm 3.5)
  pld       worst (ε, δ) pairs composed as PLDs (lists)    KOV 2015, Thm 2.1; Doroshenko et al. 2022
  best      every method that applies; the smallest ε is chosen

The total δ budget is --target-delta (δ' = target − Σδ is then left for advanced/filter), or
--delta-prime (target = Σδ + δ'). With --list and --method filter, --target-epsilon runs the
fully adaptive privacy filter over the list and reports which mechanisms it lets run
(δ' = --delta-prime for the ε budget, δ'' = --target-delta − δ' for Σδ_m).

--events FILE accounts what ran, described in dp_accounting's DpEvent vocabulary (Gaussian, Laplace,
PoissonSampled, SampledWithoutReplacement, SelfComposed, Composed; docs/accounting.md), by the PLD and
the RDP accountant (--accountant rdp|pld|best) at --target-delta.

` + exitStatuses,
		Args: cobra.NoArgs,
		Example: `  privamp compose --epsilon 0.1 --compositions 100 --target-delta 1e-5
  privamp compose --method advanced --epsilon 0.1 --compositions 100 --delta-prime 1e-5
  privamp compose --list "0.5:1e-6,0.2:0,1:1e-7" --target-delta 1e-5
  privamp compose --events examples/events-two-phase.json --target-delta 1e-6
  privamp compose --method filter --list "0.1:0,0.3:0,0.2:1e-7" --target-epsilon 1 --delta-prime 1e-5 --target-delta 2e-5`,
	}
	f := cmd.Flags()
	f.StringVar(&q.Method, "method", "best", strings.Join(composition.Methods, ", "))
	f.Float64Var(&q.Epsilon, "epsilon", 0, "ε of each mechanism (finite, ≥ 0)")
	f.Float64Var(&q.Delta, "delta", 0, "δ of each mechanism, in [0, 1) (0 means pure DP)")
	f.Float64Var(&q.Compositions, "compositions", 0, "number of mechanisms k (whole number in [1, 1e7])")
	f.Float64Var(&dPrime, "delta-prime", 0, "δ' in (0, 1): the extra δ of advanced composition and of the filter")
	f.Float64Var(&target, "target-delta", 0, "total δ budget in (0, 1)")
	f.Float64Var(&tEps, "target-epsilon", 0, "filter: target ε > 0 (with --list: run the filter over the list)")
	f.StringVar(&listFlag, "list", "", `heterogeneous guarantees "e1:d1,e2:d2,..."`)
	f.StringArrayVar(&guarantees, "guarantee", nil, "one guarantee e:d (repeatable)")
	f.StringVar(&evPath, "events", "", "a JSON events file (dp_accounting's DpEvent names; docs/accounting.md): PLD and RDP at --target-delta")
	f.StringVar(&acc, "accountant", "best", "with --events: rdp, pld, or best (the smaller sound value)")
	prof := accountingFlags(a, cmd, &q.Profile, &plot) // compose has no RDP conversion of its own: the default
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if _, err := prof(); err != nil {
			return err
		}
		opts := &composeOptions{IO: a, Accountant: acc, TargetDelta: target, EventsPath: evPath, Plot: plot, Query: q}
		if changed(cmd, "events") {
			if n := firstChanged(cmd, "epsilon", "delta", "compositions", "list", "guarantee", "method", "delta-prime", "target-epsilon"); n != "" {
				return badInput("--events cannot be combined with --%s (the file says what ran; give --target-delta)", n)
			}
			ev, err := events.Load(evPath)
			if err != nil {
				return badInput("--events %s: %v", evPath, err)
			}
			opts.Events = &ev
		} else {
			listName := "list"
			hasList := firstChanged(cmd, "list", "guarantee") != ""
			switch {
			case hasList && firstChanged(cmd, "epsilon", "compositions", "delta") != "":
				return badInput("--list/--guarantee cannot be combined with --epsilon, --delta or --compositions")
			case hasList:
				if !changed(cmd, "list") {
					listName = "guarantee"
				}
				items := guarantees
				if changed(cmd, "list") {
					items = append(strings.Split(listFlag, ","), guarantees...)
				}
				q.List = []dp.Guarantee{}
				for i, it := range items {
					g, err := composition.ParseGuarantee(it)
					if err != nil {
						return badInput("--%s item %d (%q): %v", listName, i+1, strings.TrimSpace(it), err)
					}
					q.List = append(q.List, g)
				}
			case !changed(cmd, "epsilon"):
				return badInput("--epsilon is required (ε of each of --compositions mechanisms), or give --list/--guarantee")
			case !changed(cmd, "compositions"):
				return badInput("--compositions is required with --epsilon (number of mechanisms)")
			}
			q.DeltaPrime, q.TargetDelta, q.TargetEpsilon = given(cmd, "delta-prime", dPrime), given(cmd, "target-delta", target), given(cmd, "target-epsilon", tEps)
			opts.Query, opts.ListFlag = q, listName
		}
		if runF != nil {
			return runF(opts)
		}
		return composeRun(opts)
	}
	return cmd
}

// composeRun composes the guarantees, or accounts the events file, and
// renders the result to opts.IO.
func composeRun(opts *composeOptions) error {
	if opts.Events != nil {
		return composeEvents(opts)
	}
	res, err := composition.Compose(opts.Query)
	if err != nil {
		return flagError(err, map[string]string{"guarantees": opts.ListFlag})
	}
	return withProfile(opts.IO, opts.Plot, res.Profile, res.Report(opts.Query.List == nil, flagSpelling))
}

// given returns &v if the user set the flag, else nil.
func given(cmd *cobra.Command, name string, v float64) *float64 {
	if changed(cmd, name) {
		return &v
	}
	return nil
}

// composeEvents accounts an events file (package composition/events).
func composeEvents(opts *composeOptions) error {
	bar := newBar(opts.IO)
	res, err := events.Account(*opts.Events, events.Query{Delta: opts.TargetDelta, Accountant: opts.Accountant, Profile: opts.Query.Profile.WithProgress(func(done, total int64) { bar.set("composing the events", done, total) })})
	if bar.finish(); err != nil {
		return flagError(err, map[string]string{"delta": "target-delta"})
	}
	return withProfile(opts.IO, opts.Plot, res.Profile, res.Report(opts.EventsPath))
}
