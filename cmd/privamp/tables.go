package main

import (
	"reflect"
	"strings"

	"github.com/privamp/privamp/tables"
	"github.com/spf13/cobra"
)

func init() { register("tables", func(a *app) *cobra.Command { return newTablesCmd(a, nil) }) }

// tablesOptions is what `privamp tables [NAME]` was asked: the table (nil:
// list them), the parameters given and the format; nothing evaluated.
type tablesOptions struct {
	IO       *app
	Table    *tables.Table
	Params   tables.Params
	Given    map[string]bool // the parameters given, by json name: evaluate at them
	Markdown bool
}

func newTablesCmd(a *app, runF func(*tablesOptions) error) *cobra.Command {
	opts := &tablesOptions{IO: a}
	cmd := &cobra.Command{
		Use:   "tables [NAME]",
		Short: "The seed papers' rate tables, rendered and instantiated at your numbers",
		Long: `Without NAME, lists the rate tables reproduced from the five seed papers. With NAME, renders one
table cell by cell in the paper's form, with the hidden constants and logarithms marked, the
source of every cell, the assumptions and the validity range.

With --n (and --dimension, --epsilon, and --delta where the table needs it), every cell is evaluated
at your numbers: cells with explicit constants get a number marked "exact"; cells whose constants are
hidden get the rate's value marked "up to constants" (indicative only, never a bound). Where a theorem
behind a cell states explicit constants, that bound is shown too. The output names the best row
(smallest upper bound) and the gap to the paper's lower bound where it has one. Inputs outside a
table's validity range (e.g. seed 001's δ < 1/n, seed 003's ε < 8 ln(1/δ)) are refused.

Output: a table (default), --markdown, --csv or --json (one object).

` + exitStatuses,
		Args: cobra.MaximumNArgs(1), ValidArgs: tables.Names(),
		Example: `  privamp tables
  privamp tables bst14 --n 10000 --dimension 10 --epsilon 1 --delta 1e-6
  privamp tables ggp-l1 --n 1e5 --dimension 1000 --epsilon 1 --delta 1e-5 --markdown
  privamp tables lr-heavy-tailed --n 1e6 --dimension 100 --rho 1 --moment-order 4 --json`,
	}
	var names []string // flag names, json names
	v := reflect.ValueOf(&opts.Params).Elem()
	for i := 0; i < v.NumField(); i++ {
		if tag := v.Type().Field(i).Tag.Get("json"); tag != "" {
			names = append(names, tag)
			cmd.Flags().Float64Var(v.Field(i).Addr().Interface().(*float64), strings.ReplaceAll(tag, "_", "-"), 0, v.Type().Field(i).Tag.Get("doc"))
		}
	}
	cmd.Flags().BoolVar(&opts.Markdown, "markdown", false, "print Markdown")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if opts.Markdown && (a.mode.json || a.mode.csv) {
			return badInput("--markdown cannot be used with --json or --csv")
		}
		opts.Given = map[string]bool{}
		for _, n := range names {
			if changed(cmd, strings.ReplaceAll(n, "_", "-")) {
				opts.Given[n] = true
			}
			if opts.Given[n] && len(args) == 0 {
				return badInput("--%s needs a table name (run 'privamp tables' to list them)", strings.ReplaceAll(n, "_", "-"))
			}
		}
		if len(args) > 0 {
			t, ok := tables.Lookup(args[0])
			if !ok {
				return badInput("unknown table %q (available: %s)", args[0], strings.Join(tables.Names(), ", "))
			}
			opts.Table = t
		}
		return runWith(runF, tablesRun, opts)
	}
	return cmd
}

// tablesRun lists the tables, or renders one (evaluated at the parameters
// given), to opts.IO.
func tablesRun(opts *tablesOptions) error {
	m := opts.IO.mode
	m.markdown = opts.Markdown
	if opts.Table == nil {
		return render(opts.IO.out, m, tables.ListReport())
	}
	var ev *tables.Evaluation
	if len(opts.Given) > 0 {
		var err error
		if ev, err = opts.Table.EvaluateGiven(opts.Params, opts.Given); err != nil {
			return err
		}
	}
	return render(opts.IO.out, m, opts.Table.Describe(ev).Report(flagSpelling))
}
