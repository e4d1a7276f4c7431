// Package algorithms is the catalogue of the seeds' algorithms that privamp
// runs on data besides projected noisy SGD (package optimizer, FMTT18): the
// Langevin chain of seed 000, and the algorithms of seeds 001, 003 and 004
// as they land. One entry describes one algorithm once:
//
//   - its Name (privamp run --algorithm NAME) and the paper and theorem its
//     guarantee comes from;
//   - its parameters, a struct whose fields carry a `param:"snake_name"` tag
//     and a `doc:"..."` tag (the CLI makes one flag per parameter from them,
//     and a field error names the parameter, so it names the flag);
//   - Run, which builds what it needs from the Input (records clipped to the
//     declared bounds, constants derived from the declared bounds only),
//     certifies the guarantee with privamp's own accounting, runs, measures
//     and checks, and returns a Report.
//
// A Report keeps declared, derived, certified and measured values apart: each
// Line has a Kind, and a measured value never enters a guarantee. A failed
// check makes Report.OK false, and the CLI exits 1.
package algorithms
