package main

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/privamp/privamp/tables"
	"github.com/spf13/cobra"
)

func init() { register("calc", func(a *app) *cobra.Command { return newCalcCmd(a, nil, nil) }) }

// calcOptions is what `privamp calc NAME` was asked: the calculator and its
// query with every flag given set; nothing computed. Without NAME (listing
// the calculators) Query is nil.
type calcOptions struct {
	IO         *app
	Calculator tables.Calculator
	Query      tables.Query
}

// calcExamples are the calculators' --help examples.
var calcExamples = map[string]string{
	"langevin": `  privamp calc langevin --beta 100 --sensitivity 0.01 --horizon 1 --delta 1e-5
  privamp calc langevin --target-epsilon 1 --delta 1e-5 --sensitivity 0.01 --steps 1000 --eta 0.01`,
	"expmech":             `  privamp calc expmech --epsilon 1 --sensitivity 0.5 --candidates 1000 --alpha 0.05`,
	"expmech-convex":      `  privamp calc expmech-convex --epsilon 1 --lipschitz 1 --diameter 1 --dimension 10 --n 1000 --failure 0.05`,
	"output-perturbation": `  privamp calc output-perturbation --epsilon 0.5 --delta 1e-5 --strong-convexity 1 --n 1000 --dimension 10`,
	"bst14-sgd":           `  privamp calc bst14-sgd --n 1000 --epsilon 1 --delta 1e-5`,
	"clipped-mean":        `  privamp calc clipped-mean --moment-order 4 --moment-bound 3.78 --second-moment 2 --batch 1000 --rho 0.5 --dimension 100`,
	"zcdp-budget":         `  privamp calc zcdp-budget --n 100000 --steps 100 --tau 1 --rho 0.5 --dimension 10 --delta 1e-5`,
	"strong-composition": `  privamp calc strong-composition --step-epsilon 0.1 --steps 100 --delta 1e-5
  privamp calc strong-composition --target-epsilon 1 --steps 100 --delta 1e-5`,
	"fully-adaptive": `  privamp calc fully-adaptive --target-epsilon 1 --steps 100 --delta 1e-5`,
}

// newCalcCmd makes calc and a subcommand per calculator; runF receives the
// listing's options (no Query), runCalc a calculator's.
func newCalcCmd(a *app, runF, runCalc func(*calcOptions) error) *cobra.Command {
	calcs := tables.Calculators()
	var lines []string
	for _, c := range calcs {
		lines = append(lines, fmt.Sprintf("  %-20s %s (seed %s, %s)", c.Name, c.Short, c.Source.Seed, c.Source.Theorem))
	}
	cmd := &cobra.Command{
		Use:   "calc NAME",
		Short: "Calculators for the seed papers' privacy statements (Langevin, exponential mechanism, …)",
		Long: "Calculators for the privacy statements of the five seed papers. Each prints its paper, theorem,\n" +
			"assumptions and validity range, and refuses inputs outside the range.\n\n" + strings.Join(lines, "\n") +
			"\n\nWhere a paper's constant is wrong or loose, the sound value is computed and the paper's shown beside it.\n\n" + exitStatuses,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, calcListRun, &calcOptions{IO: a})
		},
	}
	for _, c := range calcs {
		cmd.AddCommand(newCalculator(a, c, runCalc))
	}
	return cmd
}

// calcListRun lists the calculators to opts.IO.
func calcListRun(opts *calcOptions) error {
	return render(opts.IO.out, opts.IO.mode, tables.CatalogueReport(flagSpelling))
}

// newCalculator makes the subcommand of one calculator: a flag per field of
// its query (named by the json tag, "_" read as "-"; pointer fields are set
// only when the flag is given), one library call, the answer rendered.
func newCalculator(a *app, c tables.Calculator, runF func(*calcOptions) error) *cobra.Command {
	query := c.New()
	cmd := &cobra.Command{Use: c.Name, Short: c.Short, Long: c.Doc + "\n\n" + exitStatuses, Args: cobra.NoArgs, Example: calcExamples[c.Name]}
	v := reflect.ValueOf(query).Elem()
	var bind []func() // set the optional (pointer) fields whose flags were given
	for i := 0; i < v.NumField(); i++ {
		sf := v.Type().Field(i)
		name := strings.ReplaceAll(sf.Tag.Get("json"), "_", "-")
		switch p := v.Field(i).Addr().Interface().(type) {
		case *float64:
			cmd.Flags().Float64Var(p, name, *p, sf.Tag.Get("help"))
		case *string:
			cmd.Flags().StringVar(p, name, *p, sf.Tag.Get("help"))
		case **float64:
			x := cmd.Flags().Float64(name, 0, sf.Tag.Get("help"))
			bind = append(bind, func() {
				if changed(cmd, name) {
					*p = x
				}
			})
		}
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		for _, b := range bind {
			b()
		}
		opts := &calcOptions{a, c, query}
		return runWith(runF, calcRun, opts)
	}
	return cmd
}

// calcRun answers the calculator's query and renders it to opts.IO.
func calcRun(opts *calcOptions) error {
	ans, err := opts.Query.Answer()
	if err != nil {
		return err
	}
	return render(opts.IO.out, opts.IO.mode, ans.CalcReport(opts.Calculator.Name))
}
