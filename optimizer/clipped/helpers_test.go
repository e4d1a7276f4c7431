package clipped

import (
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/optimizer"
)

func numericNorm(x []float64) float64 { return numeric.Norm(x) }

func dataSpec(n int) optimizer.DataSpec {
	return optimizer.DataSpec{Synthetic: HeavyTailedKind, N: n, Dimension: 5, Seed: 1}
}
