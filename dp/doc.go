// Package dp is privamp's vocabulary of differential privacy: the words
// every other package uses to say what happened in a run and what is
// guaranteed about it.
//
//   - the neighbouring relation a guarantee is stated for ([Relation]);
//   - the rounding kinds of printed numbers ([Loss], [Max], [Noise], [Num]):
//     a privacy loss is printed rounded up, a largest admissible value
//     rounded down, a noise level a user will set rounded up;
//   - checks and verdicts ([Check], [Status], [Verdict]): the one check type of runs, algorithms, claim verification and audits, and each verdict's exit status.
//
// It sits on the ground floor: it imports nothing of privamp outside
// internal/, and everything else may import it.
package dp
