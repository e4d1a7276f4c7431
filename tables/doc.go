// Package tables presents what privamp's five seed papers prove, as data and
// as calculators. It only presents: a formula that an algorithm or an
// accountant computes with lives in that algorithm's or accountant's package
// (optimizer/bst14, optimizer/clipped, optimizer/langevin, composition), and
// the calculators here check the user's inputs, call it and add the paper's
// source; no package but the CLI imports tables.
//
// Rate tables. Each paper's summary table is reproduced cell by cell as Go
// data (a Table of Rows of Cells). A cell keeps the paper's printed form,
// says which constants and logarithms the paper hides, cites the theorem it
// summarises, and carries an evaluator that instantiates the rate at the
// user's numbers (Params). Cells whose printed form hides constants are
// evaluated "up to constants": the number is the rate's value with every
// hidden constant and logarithm set to 1, useful for comparing rows and for
// scaling in n, never as a bound. Where a theorem behind a cell states the
// bound with explicit constants, the cell also carries that Explicit bound,
// which is a true upper bound under the theorem's assumptions. Evaluate
// picks the best row (smallest upper bound) and the gap to the paper's lower
// bound where it has one. The tables are:
//
//	fmtt18          seed 002, Feldman–Mironov–Talwar–Thakurta 2018, Table 1
//	bst14           seed 001, Bassily–Smith–Thakurta 2014, Table 1
//	gtu-rashomon    seed 000, Ganesh–Thakurta–Upadhyay, Table 1
//	gtu-erm-sco     seed 000, Ganesh–Thakurta–Upadhyay, Table 2
//	ggp-l1          seed 003, González–Guzmán–Paquette, Table 1
//	lr-heavy-tailed seed 004, Lowy–Razaviyayn, Figure 1 (lost in the text
//	                dump; rebuilt from the theorems and marked as such)
//
// Calculators. The papers' privacy statements with explicit constants are
// functions here, one file per seed: langevin.go (seed 000, Lemmas 2.2 and
// 3.1), expmech.go (exponential mechanism, seeds 001 and 003, and output
// perturbation, seed 001), bst14.go (seed 001's noisy-SGD noise rule beside
// the RDP accountant), clipped.go (seed 004's clipped mean oracle and its
// zCDP budgets) and composition.go (seed 001's strong composition, seed
// 003's fully adaptive composition). The arithmetic of composition and of
// the exact Gaussian profile is privamp's composition package, and the
// formulas the algorithms run with are theirs (bst14.SGDPaperSigma,
// bst14.ExpMechBound, clipped.MSEBound, langevin.HorizonRho, …); this
// package adds the papers' forms beside them. Every result names its paper, theorem,
// assumptions and validity range, and every function refuses inputs outside
// that range with an error that says why.
//
// Where docs/errata.md shows a step of the paper to be wrong or
// loose, the sound version is implemented, and the doc comment and the
// result's notes say so: seed 000's Lemma 3.1 condition on β is about 2×
// loose; seed 001's noise constant 32 does not close the paper's own chain;
// seed 001's (ε, δ) output perturbation uses an optimistic Gaussian constant;
// seed 002's Theorem 32 relies on Theorem 26, whose ln n should be the
// harmonic number H_n.
package tables
