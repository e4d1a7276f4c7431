package main

import (
	"math"

	"github.com/privamp/privamp/rdp"
	"github.com/spf13/cobra"
)

func init() { register(newDPSGDCmd) }

// dpsgdDefaults is the embedded example: MNIST-sized DP-SGD as in the
// TF-Privacy tutorial (60,000 examples, batch 256, 60 epochs, noise 1.1).
var dpsgdDefaults = struct{ n, batch, epochs, noise, delta float64 }{60000, 256, 60, 1.1, 1e-5}

func newDPSGDCmd(a *app) *cobra.Command {
	var n, batch, epochs, steps, noise, delta, target float64
	var neighbours string
	cmd := &cobra.Command{
		Use:   "dpsgd",
		Short: "ε of DP-SGD (Poisson-subsampled Gaussian), or the noise multiplier for a target ε",
		Long: `The (ε, δ) of DP-SGD: T steps of the Poisson-subsampled Gaussian mechanism with sampling rate
q = batch/n and noise multiplier z, accounted exactly in RDP at every real order (Mironov–Talwar–Zhang
2019) and converted with the optimal order. T = ⌈epochs·n/batch⌉, or --steps.
With --target-epsilon instead of --noise: the smallest noise multiplier that meets (ε, δ).`,
		Args: cobra.NoArgs,
		Example: `  privamp dpsgd --n 60000 --batch 256 --epochs 60 --noise 1.1 --delta 1e-5
  privamp dpsgd --n 60000 --batch 256 --epochs 60 --target-epsilon 3 --delta 1e-5 --json`,
	}
	conv := conversionFlag(cmd)
	f := cmd.Flags()
	f.Float64Var(&n, "n", dpsgdDefaults.n, "number of training examples (whole number ≥ 1)")
	f.Float64Var(&batch, "batch", dpsgdDefaults.batch, "expected batch size (whole number, ≤ n)")
	f.Float64Var(&epochs, "epochs", dpsgdDefaults.epochs, "epochs > 0 (steps = ⌈epochs·n/batch⌉)")
	f.Float64Var(&steps, "steps", 0, "number of steps T instead of --epochs (whole number ≥ 1)")
	f.Float64Var(&noise, "noise", dpsgdDefaults.noise, "noise multiplier z = σ/C > 0")
	f.Float64Var(&delta, "delta", dpsgdDefaults.delta, "δ in (0, 1)")
	f.Float64Var(&target, "target-epsilon", 0, "calibrate the noise multiplier for this ε > 0 instead of taking --noise")
	f.StringVar(&neighbours, "neighbours", "add-remove", "neighbouring relation: add-remove or replace-one")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		c, err := conv()
		if err != nil {
			return err
		}
		if changed(cmd, "noise") && changed(cmd, "target-epsilon") {
			return badInput("give only one of --noise or --target-epsilon")
		}
		if changed(cmd, "steps") && changed(cmd, "epochs") {
			return badInput("give only one of --epochs or --steps")
		}
		if err := firstErr(positiveInt("n", n, 1e12), positiveInt("batch", batch, 1e12), openUnit("delta", delta)); err != nil {
			return err
		}
		if batch > n {
			return badInput("--batch must be ≤ --n (%v), got %v", n, batch)
		}
		T := steps
		if changed(cmd, "steps") {
			if err := positiveInt("steps", steps, 1e12); err != nil {
				return err
			}
		} else {
			if err := positive("epochs", epochs); err != nil {
				return err
			}
			T = math.Ceil(epochs * n / batch)
			if T > 1e12 {
				return badInput("--epochs gives %v steps; at most 1e12 are supported", T)
			}
		}
		if neighbours != "add-remove" && neighbours != "replace-one" {
			return badInput("--neighbours must be add-remove or replace-one, got %q", neighbours)
		}
		calibrate := changed(cmd, "target-epsilon")
		if calibrate {
			if err := positive("target-epsilon", target); err != nil {
				return err
			}
		} else if err := positive("noise", noise); err != nil {
			return err
		}
		r, err := dpsgdReport(n, batch, T, noise, delta, target, calibrate, neighbours == "replace-one", c)
		if err != nil {
			return err
		}
		return render(a.out, a.mode, r)
	}
	return cmd
}

// dpsgdCurve is the RDP curve of T DP-SGD steps.
func dpsgdCurve(q, z, T float64, replaceOne bool) rdp.Curve {
	if replaceOne {
		return rdp.Repeat(rdp.SampledGaussianReplaceOne{Q: q, Z: z}, T)
	}
	return rdp.Repeat(rdp.SampledGaussian{Q: q, Z: z}, T)
}

func dpsgdReport(n, batch, T, z, delta, target float64, calibrate, replaceOne bool, conv rdp.Conversion) (*report, error) {
	q := batch / n
	if calibrate {
		var err error
		z, _, err = rdp.Calibrate(func(z float64) rdp.Curve { return dpsgdCurve(q, z, T, replaceOne) }, target, delta, conv)
		if err != nil {
			return nil, badInput("--target-epsilon %v cannot be met with a noise multiplier in [1e-3, 1e6]", target)
		}
	}
	dp, err := rdp.EpsilonFor(dpsgdCurve(q, z, T, replaceOne), delta, conv)
	if err != nil {
		return nil, err
	}
	method := "rdp-poisson-subsampled-gaussian"
	src := "Mironov–Talwar–Zhang 2019, §3 + " + conv.Source()
	nb := "add/remove one example"
	if replaceOne {
		method += "-replace-one"
		src = "Mironov–Talwar–Zhang 2019 + Mironov 2017, Prop. 11 (replace = remove then add) + " + conv.Source()
		nb = "replace one example (bounded through remove-then-add, Mironov 2017, Prop. 11)"
	}
	zSrc := "input"
	if calibrate {
		zSrc = "calibrated: smallest z with ε ≤ target (bisection, verified)"
	}
	r := &report{
		Title: "DP-SGD (Poisson-subsampled Gaussian)",
		Rows: []row{
			{"n (examples)", fmtInt(n), "", "input"},
			{"q = batch/n", fmtNum(q), "sampling rate", "input"},
			{"T (steps)", fmtInt(T), "", "⌈epochs·n/batch⌉ or --steps"},
			{"z (noise multiplier)", fmtUp(z), "σ/C", zSrc},
			{"ε", fmtEps(dp.Epsilon), "at δ = " + fmtNum(delta), src},
			{"optimal order α", fmtOrder(dp.Order), "", "minimised over real α > 1"},
		},
		Assumptions: []string{
			"every example enters each batch independently with probability q (Poisson sampling); shuffled fixed-size batches are not covered by this analysis, although common practice reports them so",
			"per-example gradients are clipped to ℓ2 norm ≤ C and the summed batch gradient gets N(0, (zC)²I) noise",
			"neighbouring data sets: " + nb,
			"all intermediate models may be released (no amplification by iteration is assumed)",
		},
	}
	r.JSON = map[string]any{
		"command": "dpsgd", "n": n, "batch": batch, "sampling_rate": q, "steps": T, "noise_multiplier": z,
		"delta": delta, "order": num(dp.Order), "method": method, "source": src, "conversion": conv.String(),
		"neighbours": map[bool]string{true: "replace-one", false: "add-remove"}[replaceOne], "calibrated": calibrate,
	}
	epsJSON(r.JSON, "epsilon", dp.Epsilon)
	if calibrate {
		r.JSON["target_epsilon"] = target
	}
	return r, nil
}
