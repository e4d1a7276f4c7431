package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer/algorithms"
	"github.com/privamp/privamp/plots"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// dataFlags are the problem flags every catalogued algorithm takes.
var dataFlags = []string{"noise", "algorithm", "config", "plot", "data", "label", "normalize", "feature-bound", "label-bound", "standardize", "scaling", "synthetic",
	"n", "dimension", "data-seed", "loss", "huber-delta", "smoothing", "l2", "radius", "no-projection"}

func kebab(s string) string { return strings.ReplaceAll(s, "_", "-") }

// registerAlgorithmFlags adds one flag per parameter of the catalogued
// algorithms that run does not already have, and returns run --help's list.
func registerAlgorithmFlags(f *pflag.FlagSet) string {
	users, docs, params := map[string][]string{}, map[string][]string{}, map[string]algorithms.Param{}
	list := "\n\nAlgorithms (--algorithm NAME): pnsgd, skip, stop (FMTT18; also --variant, whose default is skip)"
	for _, a := range algorithms.All() {
		list += fmt.Sprintf("\n  %s: %s [%s]", a.Name, a.Summary, a.Source)
		ps, _ := algorithms.Describe(a.Params())
		for _, p := range ps {
			users[p.Name], params[p.Name] = append(users[p.Name], a.Name), p
			docs[p.Name] = append(docs[p.Name], p.Doc)
		}
	}
	for name, p := range params {
		if fl := f.Lookup(kebab(name)); fl != nil { // a run flag the algorithms reuse
			fl.Usage += fmt.Sprintf("; also --algorithm %s", strings.Join(users[name], ", "))
			continue
		}
		help := fmt.Sprintf("%s (--algorithm %s)", p.Doc, strings.Join(users[name], ", "))
		if len(slices.Compact(slices.Sorted(slices.Values(docs[name])))) > 1 { // shared name, different meanings
			for i, u := range users[name] {
				help = map[bool]string{true: "", false: help + "; "}[i == 0] + u + ": " + docs[name][i]
			}
		}
		switch p.Type {
		case "float":
			v, _ := strconv.ParseFloat(p.Default, 64)
			f.Float64(kebab(name), v, help)
		case "int", "uint":
			v, _ := strconv.ParseInt(p.Default, 10, 64)
			f.Int64(kebab(name), v, help)
		case "bool":
			f.Bool(kebab(name), p.Default == "true", help)
		default:
			f.String(kebab(name), p.Default, help)
		}
	}
	refused := algorithms.Refused()
	for _, name := range slices.Sorted(maps.Keys(refused)) {
		list += fmt.Sprintf("\nNot runnable as a certified algorithm: %s, because %s.", name, refused[name])
	}
	return list
}

// algorithmOptions fills opts with the catalogued algorithm rf.algorithm:
// the problem flags and the algorithm's own parameters go to the library,
// any other flag is refused.
func algorithmOptions(cmd *cobra.Command, rf *runFlags, opts *runOptions) error {
	name := rf.algorithm
	alg, err := algorithms.Lookup(name)
	if err != nil {
		return err
	}
	params, set, allowed := alg.Params(), map[string]bool{}, map[string]bool{}
	ps, _ := algorithms.Describe(params)
	for _, p := range ps {
		allowed[kebab(p.Name)] = true
		if fl := cmd.Flags().Lookup(kebab(p.Name)); fl.Changed {
			if err := algorithms.Set(params, p.Name, fl.Value.String()); err != nil {
				return err
			}
		}
	}
	var bad string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		set[strings.ReplaceAll(f.Name, "-", "_")] = true // every flag given, the algorithm's parameters among them: its defaults may depend on them
		if !allowed[f.Name] && (!slices.Contains(dataFlags, f.Name) || slices.Contains(alg.Ignores, strings.ReplaceAll(f.Name, "-", "_"))) && bad == "" && cmd.InheritedFlags().Lookup(f.Name) == nil {
			bad = f.Name
		}
	})
	if bad != "" {
		return badInput("--%s does not apply to --algorithm %s (see run --help)", bad, name)
	}
	s := rf.build(cmd, false) // the data, the loss and the domain (+Inf with --no-projection)
	opts.Algorithm, opts.Params, opts.Input = &alg, params, algorithms.Input{Data: s.Data, Loss: s.Loss, Radius: s.Radius, Set: set}
	return nil
}

// runAlgorithm runs opts' catalogued algorithm and renders its report.
func runAlgorithm(opts *runOptions) error {
	in, name, bar := opts.Input, opts.Algorithm.Name, newBar(opts.IO)
	in.Progress = func(done, total int64) { bar.set(name, done, total) }
	rep, err := opts.Algorithm.Run(in, opts.Params)
	bar.finish()
	if err == nil && opts.Plot != "" && rep.Figure == nil {
		err = badInput("--plot: --algorithm %s draws no figure", name)
	} else if err == nil && opts.Plot != "" {
		err = plotTo(opts.Plot)(plots.Figure(rep.Figure))
	}
	if err != nil {
		return err
	}
	return reportVerdict(opts.IO, rep.Answer(), rep.Verdict())
}

// reportVerdict renders r and exits with the verdict's dp.Verdict.ExitStatus.
func reportVerdict(a *app, r *report, v dp.Verdict) error {
	if err := render(a.out, a.mode, r); err != nil {
		return err
	}
	if c := v.ExitStatus(); c != exitOK {
		return &exitError{code: c}
	}
	return nil
}
