// Package dataset holds the records that package optimizer trains on: a
// Dataset of n examples (x_i, y_i) with d numeric features, read from CSV
// files or drawn from seeded generators with a known population.
//
// # CSV files
//
// ReadCSV (ReadCSVFile for a path) reads a header line of column names and
// one example per line with a finite number in every column; CSVOptions
// names the label column and an optional text key column (an id, or a
// privacy plan's tier). Empty lines and lines starting with '#' are skipped.
// A malformed line is a *dp.Error carrying its line number, and nothing is
// returned then.
//
// # Preprocessing
//
// NormalizeRows scales every row longer than a bound down to it, one record
// at a time — the clipping that lets a declared feature bound ‖x‖ ≤ X hold
// for every possible record, as the constants of a privacy guarantee
// require (FMTT18 Def. 12 quantifies over all neighbouring data sets).
// Standardize centres and scales each column with the data's own mean and
// spread; those statistics are not privatised, so a report that uses them
// must say so. MapBinaryLabels maps labels 0/1 to −1/+1 for classification
// losses.
//
// # Synthetic data
//
// Synthetic draws examples with ‖x‖ ≤ 1 from a seeded distribution whose
// label model is known (logistic, linear, or none for the quadratic loss), so
// that the population risk of a trained model can be estimated on a large
// fresh sample. A generator names the loss of its label model (LossName) and
// does not build it: losses and objectives belong to package optimizer,
// which imports this package and not the other way round.
package dataset
