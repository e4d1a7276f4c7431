package verify

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// Names the tests share with package optimizer's.
type (
	Config    = optimizer.Config
	Constants = optimizer.Constants
	Tracer    = optimizer.Tracer
)

const (
	Final = shifted.VariantPNSGD
	Skip  = shifted.VariantSkip
	Stop  = shifted.VariantStop
)

var (
	NewRunner  = optimizer.NewRunner
	Minimize   = optimizer.Minimize
	WriteTrace = optimizer.WriteTrace
)

func strconvFormat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// synthData draws n records of a synthetic generator with the objective of
// its label model.
func synthData(t testing.TB, kind string, n, d int) (*dataset.Dataset, optimizer.Objective) {
	g, err := dataset.NewSynthetic(kind, d, 7)
	if err != nil {
		t.Fatal(err)
	}
	l, l2, err := optimizer.ParseLoss(g.LossName(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return g.Sample(rand.New(rand.NewPCG(1, 1)), n), optimizer.Objective{Loss: l, L2: l2}
}

// linearEps is the (ε, δ) of ρ-zCDP by the improved conversion (package rdp).
func linearEps(rho, delta float64) (float64, float64) {
	return rdp.LinearEpsilon(rho, delta, rdp.Improved)
}
