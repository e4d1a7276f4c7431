package pld

import "errors"

// SubsampledGaussianReplaceOne is a stub: the real PLD of the subsampled
// Gaussian under replace-one neighbours (sampling rate or fraction gamma,
// noise multiplier z) is written in branch h-replace and replaces this file
// at merge. Until then it refuses every input.
func SubsampledGaussianReplaceOne(gamma, z float64, opt Options) (*PLD, error) {
	return nil, errors.New("pld.SubsampledGaussianReplaceOne: not yet implemented")
}
