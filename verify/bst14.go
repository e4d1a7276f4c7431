package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/jsonin"
)

// AlgorithmBST14SGD is the "algorithm" of a claim about seed 001's noisy SGD
// (privamp run --algorithm bst14-sgd).
const AlgorithmBST14SGD = "bst14-sgd"

// BST14Claim is a claimed (ε, δ) of seed 001's Algorithm 1: steps updates,
// each on ONE record drawn uniformly from n, with N(0, σ²I) added to
// n∇ℓ(θ; d), where every per-record gradient has norm ≤ lipschitz (privamp
// run reports it as record_sensitivity). It is verified as the DP-SGD run it
// is: fixed-size batches of one record (γ = 1/n), replace-one neighbours,
// noise multiplier z = σ/(n·lipschitz), with the PLD's replace-one pair
// (bst14.SGDPLD).
type BST14Claim struct {
	Algorithm   string   `json:"algorithm" jsonin:"required"` // "bst14-sgd"
	N           int64    `json:"n" jsonin:"required"`
	Sigma       float64  `json:"sigma" jsonin:"required"`
	Lipschitz   float64  `json:"lipschitz" jsonin:"required"`
	Steps       *int64   `json:"steps"` // default n²
	Delta       float64  `json:"delta" jsonin:"required"`
	Epsilon     *float64 `json:"epsilon" jsonin:"required"`
	Description string   `json:"description"`
}

func isBST14(data []byte) bool {
	var peek struct {
		Algorithm json.RawMessage `json:"algorithm"`
	}
	return bytes.Contains(data, []byte(`"`+AlgorithmBST14SGD+`"`)) &&
		json.Unmarshal(data, &peek) == nil && string(bytes.TrimSpace(peek.Algorithm)) == `"`+AlgorithmBST14SGD+`"`
}

// parseBST14 reads a bst14-sgd claim and returns the DP-SGD claim it is.
func parseBST14(r io.Reader) (*DPSGDClaim, error) {
	b := &BST14Claim{}
	if err := jsonin.Decode(r, MaxBytes, b); err != nil {
		return nil, err
	}
	bad := func(f string, value any, format string, a ...any) error {
		return &dp.Error{Where: dp.InputFile, Field: f, Value: value, Reason: fmt.Sprintf(format, a...)}
	}
	switch {
	case b.N < 2:
		return nil, bad("n", b.N, "must be a whole number ≥ 2")
	case !(b.Sigma > 0) || b.Sigma > 1e300:
		return nil, bad("sigma", b.Sigma, "must be finite and > 0")
	case !(b.Lipschitz > 0) || b.Lipschitz > 1e300:
		return nil, bad("lipschitz", b.Lipschitz, "must be finite and > 0 (the bound on every per-record gradient norm)")
	}
	steps := b.N * b.N
	if b.Steps != nil {
		steps = *b.Steps
	}
	if steps < 1 || steps > 1e12 {
		return nil, bad("steps", steps, "must be a whole number in [1, 1e12] (default n²)")
	}
	n, one := b.N, int64(1)
	desc := fmt.Sprintf("bst14-sgd (seed 001 Algorithm 1): σ = %g on n·∇ℓ, n = %d, L = %g, %d steps of one record each, verified as DP-SGD with fixed-size batches of 1, replace-one, z = σ/(nL) = %g", b.Sigma, b.N, b.Lipschitz, steps, b.Sigma/(float64(b.N)*b.Lipschitz))
	if b.Description != "" {
		desc = b.Description + "; " + desc
	}
	d := &DPSGDClaim{Algorithm: AlgorithmDPSGD, Sampling: SamplingFixedSize, N: &n, BatchSize: &one, Steps: &steps,
		NoiseMultiplier: b.Sigma / (float64(b.N) * b.Lipschitz), Delta: b.Delta, Epsilon: b.Epsilon, Neighbours: "replace-one", Description: desc}
	if _, err := d.Run(); err != nil {
		return nil, err
	}
	return d, nil
}
