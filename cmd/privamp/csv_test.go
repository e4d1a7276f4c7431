package main

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/privamp/privamp/internal/output"
	"github.com/spf13/cobra"
)

// csvRuns is a small run of every command that prints data, for
// TestEveryCSVIsOneTable; the test fails when a command is missing.
var csvRuns = map[string][]string{
	"privamp":                  {},
	"audit":                    {"--scores", "../../examples/canary-scores.csv", "--claim", "../../examples/claim.json"},
	"calc":                     {},
	"calc bst14-sgd":           {"--n", "100", "--epsilon", "1", "--delta", "1e-5"},
	"calc clipped-mean":        {"--moment-order", "4", "--moment-bound", "3.78", "--second-moment", "2", "--batch", "1000", "--rho", "0.5"},
	"calc expmech":             {"--epsilon", "1", "--sensitivity", "0.5", "--candidates", "100", "--alpha", "0.05"},
	"calc expmech-convex":      {"--epsilon", "1", "--dimension", "10", "--n", "1000"},
	"calc fully-adaptive":      {"--target-epsilon", "1", "--steps", "100", "--delta", "1e-5"},
	"calc langevin":            {"--beta", "100", "--sensitivity", "0.01", "--horizon", "1", "--delta", "1e-5"},
	"calc output-perturbation": {"--epsilon", "0.5", "--delta", "1e-5", "--strong-convexity", "1", "--n", "1000", "--dimension", "10"},
	"calc strong-composition":  {"--step-epsilon", "0.1", "--steps", "100", "--delta", "1e-5"},
	"calc zcdp-budget":         {"--n", "1000", "--steps", "100", "--tau", "1", "--rho", "0.5"},
	"cni":                      {"--schedule", "../../examples/schedule.json", "--alpha", "2,4"},
	"compare":                  {"--n", "1000", "--batch", "10", "--noise-multiplier", "1"},
	"compose":                  {"--epsilon", "0.1", "--compositions", "100"},
	"convert":                  {"--epsilon", "1", "--delta", "1e-6"},
	"curve":                    {"--n", "1000", "--sigma", "1", "--points", "5", "--quiet"},
	"dpsgd":                    {},
	"epochs":                   {"--n", "100", "--sigma", "1", "--eta", "0.05", "--radius", "1", "--max-epochs", "10", "--points", "3"},
	"gaussian":                 {"--sigma", "10", "--delta", "1e-6"},
	"laplace":                  {"--scale", "10", "--delta", "1e-6"},
	"plan":                     {"--people", "../../examples/plan/people.csv", "--radius", "1", "--dimension", "10", "--delta", "1e-6", "--quiet"},
	"pnsgd":                    {"--n", "1000", "--sigma", "1"},
	"run":                      {"--synthetic", "logistic", "--n", "200", "--quiet"},
	"tables":                   {},
	"verify":                   {"../../examples/dpsgd-claim.json"},
	"version":                  {},
}

// Issue 27: every --csv output is one table (one header, the same number of
// fields on every row, no blank line), so that pandas and DictReader read
// it; a command with several tables prints them in the long format
// (section, row, key, value, unit, source). Every command is run; a
// command without an entry in csvRuns fails the test.
func TestEveryCSVIsOneTable(t *testing.T) {
	t.Parallel()
	extra := map[string][]string{ // the other outputs of commands with several
		"verify plan":      {"verify", "../../examples/plan/plan.json", "--quiet"},
		"audit --data":     {"audit", "--synthetic", "quadratic", "--loss", "linear", "--no-projection", "--variant", "pnsgd", "--eta", "0.1", "--sigma", "0.3", "--index", "1", "--trials", "200", "--quiet"},
		"compose --events": {"compose", "--events", "../../examples/events-two-phase.json", "--target-delta", "1e-6"},
		"tables NAME":      {"tables", "fmtt18"},
	}
	runs := map[string][]string{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		path := c.CommandPath()
		name := strings.TrimPrefix(strings.TrimPrefix(path, "privamp"), " ")
		if name == "" {
			name = "privamp"
		}
		args, ok := csvRuns[name]
		if !ok {
			t.Errorf("%s: no --csv run in csvRuns", path)
		}
		runs[name] = append(strings.Fields(strings.TrimPrefix(path, "privamp")), args...)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(&app{}))
	for k, v := range extra {
		runs[k] = v
	}
	for name, args := range runs {
		if testing.Short() && strings.Contains(" audit --data run privamp compare audit compose --events calc bst14-sgd verify curve ", " "+name+" ") { // over 0.3 s each
			continue
		}
		out, errs, code := runCLI(append(args, "--csv")...)
		if code != 0 && !(name == "verify plan" && code == 3) { // the example plan states no β: UNSUPPORTED
			t.Errorf("%s: exit %d: %s", name, code, errs)
			continue
		}
		checkOneTable(t, name, out)
	}
}

// textColumns hold text in tables without a value column (tables, calc,
// compose --events): citations, titles, descriptions, JSON paths.
var textColumns = map[string]bool{"source": true, "paper": true, "title": true, "what": true, "path": true}

// checkOneTable fails unless out is one CSV table: a header, then rows with
// as many fields, no blank line, the header not repeated, and one number
// per value cell (output.OneValue: the value column, but for the first
// cell of a table row in the long format, which names the row, or every
// column but text in a table without one).
func checkOneTable(t *testing.T, name, out string) {
	t.Helper()
	if strings.Contains(out, "\n\n") || strings.TrimSpace(out) == "" {
		t.Errorf("%s: a blank line or no output:\n%s", name, out)
		return
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll() // equal field counts, or an error
	if err != nil {
		t.Errorf("%s: %v:\n%s", name, err, out)
		return
	}
	head := strings.Join(recs[0], ",")
	value := slices.Index(recs[0], "value") // the value column; -1: every column but text holds values
	for i, r := range recs[1:] {
		if strings.Join(r, ",") == head {
			t.Errorf("%s: the header again on row %d", name, i+2)
		}
		label := value >= 0 && len(r) > 1 && r[0] == "table" && (recs[i][0] != r[0] || recs[i][1] != r[1]) // a table row's first cell names it
		for j, c := range r {
			if (value == j && !label || value < 0 && !textColumns[recs[0][j]]) && !output.OneValue(c) {
				t.Errorf("%s: row %d, column %q: %q is neither one number nor a word", name, i+2, recs[0][j], c)
			}
		}
	}
}
