// Package dp is privamp's vocabulary of differential privacy: the words
// every other package uses to say what happened in a run and what is
// guaranteed about it.
//
//   - what happened in a run, as typed events ([Event]: [Gaussian],
//     [Laplace], [RandomizedResponse], [NoOp], [PoissonSampled],
//     [SampledWithoutReplacement], [SelfComposed], [Composed]; [DPSGD]
//     builds a DP-SGD run), in dp_accounting's DpEvent vocabulary;
//   - the sampling scheme of a batch ([Sampling]);
//   - the neighbouring relation a guarantee is stated for ([Relation]);
//   - a guarantee ([Guarantee]: ε, δ, the accountant, its source and
//     assumptions), which every result stating an upper bound embeds, and
//     an audit's empirical lower bound ([LowerBound]); the
//     one interface every accountant implements ([Accountant]: rdp's, pld's
//     and composition.Tightest), with the one calibration over any of them
//     and any family of events ([Calibrate], [Search]);
//   - the rounding kinds of printed numbers ([Loss], [Max], [Noise], [Num]):
//     a privacy loss is printed rounded up, a largest admissible value
//     rounded down, a noise level a user will set rounded up;
//   - checks and verdicts ([Check], [Status], [Verdict]): the one check type of runs, algorithms, claim verification and audits, and each verdict's exit status.
//
// It sits on the ground floor: it imports nothing of privamp outside
// internal/, and everything else may import it.
package dp
