package main

import (
	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/internal/flagconfig"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/tables"
	"github.com/spf13/cobra"
)

func init() { register("dpsgd", func(a *app) *cobra.Command { return newDPSGDCmd(a, nil) }) }

// dpsgdDefaults is the embedded example: MNIST-sized DP-SGD as in the
// TF-Privacy tutorial (60,000 examples, batch 256, 60 epochs, noise 1.1).
var dpsgdDefaults = struct{ n, batch, epochs, noise, delta float64 }{60000, 256, 60, 1.1, 1e-5}

// user returns v if the user set the flag, else 0 ("not given").
func user(cmd *cobra.Command, name string, v float64) float64 {
	if changed(cmd, name) {
		return v
	}
	return 0
}

// dpsgdOptions is what `privamp dpsgd` was asked: every flag parsed and its
// combinations checked; nothing computed.
type dpsgdOptions struct {
	IO *app
	// Run is the DP-SGD run: its rate, steps, noise or target, δ,
	// relation (Neighbours), sampling (Sampling) and conversion.
	Run rdp.DPSGD
	// Accountant is rdp, pld or best.
	Accountant string
	// Profile asks for δ(ε) (--at-epsilon, the curve); Plot is --plot.
	Profile composition.ProfileQuery
	Plot    string
	// NoiseFlag is the flag that gave the noise multiplier (noise-multiplier,
	// or its alias noise): errors name it.
	NoiseFlag string
}

func newDPSGDCmd(a *app, runF func(*dpsgdOptions) error) *cobra.Command {
	e := dpsgdDefaults
	d := rdp.DPSGD{N: e.n, Batch: e.batch, Epochs: e.epochs, Noise: e.noise, Delta: e.delta}
	var neighbours, accountant, sampling, plot string
	var pq composition.ProfileQuery
	cmd := &cobra.Command{
		Use:   "dpsgd",
		Short: "ε of DP-SGD (Poisson-subsampled Gaussian), or the noise multiplier for a target ε",
		Long: `The (ε, δ) of DP-SGD: T steps of the Poisson-subsampled Gaussian mechanism with sampling rate
q = batch/n (or --sampling-rate) and noise multiplier z, accounted exactly in RDP at every real order
(Mironov–Talwar–Zhang 2019) and converted with the optimal order. T = ⌈epochs·n/batch⌉, or --steps.
The defaults are the MNIST example (n 60000, batch 256, 60 epochs, noise 1.1, δ 1e-5): n and batch
apply only as a pair and epochs only with them; with --sampling-rate give --steps or --epochs (⌈epochs/q⌉).
--noise is an alias of --noise-multiplier. With --target-epsilon instead of --noise-multiplier: the
smallest noise multiplier that meets (ε, δ).
At q = 1 (full batches) DP-SGD is the Gaussian mechanism: the headline is its exact ε (μ = √T·Δ/z,
Balle–Wang 2018), with the RDP value beside it. --accountant best (default) reports the smaller of the
RDP and the PLD bound (privacy loss distribution, connect-the-dots at interval 1e-4, Doroshenko et al.
2022), with the PLD's optimistic estimate beside it; rdp or pld choose one. Under --neighbours
replace-one, Poisson or --sampling fixed-size (batches of exactly --batch drawn without replacement)
are bounded by a symmetrized PLD that privamp proves (docs/accounting.md), and Poisson also by RDP.

` + exitStatuses,
		Args: cobra.NoArgs,
		Example: `  privamp dpsgd --n 60000 --batch 256 --epochs 60 --noise-multiplier 1.1 --delta 1e-5
  privamp dpsgd --sampling-rate 0.01 --steps 10000 --noise-multiplier 1.0
  privamp dpsgd --n 60000 --batch 256 --epochs 60 --target-epsilon 3 --delta 1e-5 --json`,
	}
	conv := accountingFlags(a, cmd, &pq, &plot)
	f := cmd.Flags()
	f.Float64Var(&d.N, "n", d.N, "number of training examples (whole number ≥ 1)")
	f.Float64Var(&d.Batch, "batch", d.Batch, "expected batch size (whole number, ≤ n)")
	f.Float64Var(&d.SamplingRate, "sampling-rate", 0, "sampling rate q in (0, 1] instead of --batch/--n (with --steps, or --epochs: ⌈epochs/q⌉ steps)")
	f.Float64Var(&d.Epochs, "epochs", d.Epochs, "epochs > 0 (steps = ⌈epochs·n/batch⌉)")
	f.Float64Var(&d.Steps, "steps", 0, "number of steps T instead of --epochs (whole number ≥ 1)")
	f.Float64Var(&d.Noise, "noise-multiplier", d.Noise, "noise multiplier z = σ/C > 0: N(0, (zC)²I) on the summed batch gradient, C the clip norm (TF-Privacy's and Opacus's noise_multiplier)")
	f.Float64Var(&d.Noise, "noise", d.Noise, "the same as --noise-multiplier (an alias kept for earlier scripts)")
	f.Float64Var(&d.Delta, "delta", d.Delta, "δ in (0, 1)")
	f.Float64Var(&d.TargetEpsilon, "target-epsilon", 0, "calibrate the noise multiplier for this ε > 0 instead of taking --noise-multiplier")
	f.StringVar(&neighbours, "neighbours", "add-remove", "neighbouring relation: add-remove or replace-one")
	f.StringVar(&accountant, "accountant", "best", "rdp, pld, or best (the smaller sound value)")
	f.StringVar(&sampling, "sampling", "poisson", "poisson, fixed-size (without replacement; needs --neighbours replace-one and --n, --batch), shuffle (one shuffle per epoch, consecutive batches: lower and upper bounds), or balls-in-bins (each example in one of an epoch's n/batch steps; add-remove)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var err error
		if d.Conversion, err = conv(); err != nil {
			return err
		}
		noiseFlag := map[bool]string{true: "noise", false: "noise-multiplier"}[changed(cmd, "noise")]
		for _, p := range [][2]string{{"noise-multiplier", "noise"}, {noiseFlag, "target-epsilon"}, {"epochs", "steps"}, {"sampling-rate", "n"}, {"sampling-rate", "batch"}} {
			if changed(cmd, p[0]) && changed(cmd, p[1]) {
				return badInput("give only one of --%s or --%s", p[0], p[1])
			}
		}
		if err := flagconfig.Positive(f, "n", "batch", "epochs", "steps", "sampling-rate"); err != nil { // 0 is not "not given"
			return badInput("%v", err)
		}
		// The defaults are one example: n and batch only as a pair, epochs only
		// with them; a route the user chose never takes a default they did not
		// give (no "--batch must be ≤ n = 60000" for a batch of 100,000).
		if changed(cmd, "n") || changed(cmd, "batch") || changed(cmd, "sampling-rate") {
			d.N, d.Batch = user(cmd, "n", d.N), user(cmd, "batch", d.Batch)
		}
		if changed(cmd, "steps") || changed(cmd, "sampling-rate") || d.N != e.n || d.Batch != e.batch {
			d.Epochs = user(cmd, "epochs", d.Epochs)
		}
		rel, err := dp.ParseRelation("neighbours", neighbours)
		if err != nil {
			return err
		}
		smp, err := dp.ParseSampling("sampling", sampling)
		if err != nil || smp == dp.None {
			return badInput("--sampling must be poisson, fixed-size, shuffle or balls-in-bins, got %q", sampling)
		}
		d.Neighbours, d.Calibrate, d.Sampling = rel, changed(cmd, "target-epsilon"), smp
		if _, err := composition.Named(accountant); err != nil {
			return err
		}
		if smp == dp.Shuffle && (pq.At != nil || plot != "") { // an interval of ε, not one accounting: no δ(ε)
			return badInput("--at-epsilon and --plot do not apply to --sampling shuffle (an interval of ε, not one accounting)")
		}
		opts := &dpsgdOptions{IO: a, Run: d, Accountant: accountant, NoiseFlag: noiseFlag, Profile: pq, Plot: plot}
		if runF != nil {
			return runF(opts)
		}
		return dpsgdRun(opts)
	}
	return cmd
}

// dpsgdRun accounts the run and renders it to opts.IO.
func dpsgdRun(opts *dpsgdOptions) error {
	a, d := opts.IO, opts.Run
	if d.Sampling == dp.Shuffle { // an interval, not one ε (composition/shuffle)
		ans, err := tables.ShuffledDPSGD(d, opts.Accountant)
		if err != nil {
			return flagError(err, nil)
		}
		return render(a.out, a.mode, ans.Report("dpsgd", ans.Title))
	}
	bar := newBar(a)
	opts.Profile.Progress = func(done, total int64) { bar.set("calibrating the noise", done, total) }
	res, err := composition.DPSGDProfile(d, opts.Accountant, opts.Profile)
	bar.finish()
	if err != nil {
		return flagError(err, map[string]string{"noise": opts.NoiseFlag})
	}
	return withProfile(a, opts.Plot, res.Profile, res.Report(d, flagSpelling))
}
