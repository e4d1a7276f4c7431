package shifted_test

import (
	"fmt"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// The issue's example: n = 1000, σ = L = η = 1, R = 1, fixed-order PNSGD.
// FMTT18's ε grows with the passes; on the ball it stops after the burn-in.
func ExampleDomain() {
	tr := shifted.Training{Variant: shifted.VariantPNSGD, N: 1000, Sigma: 1, Delta: 1e-5, Radius: 1,
		Loss: shifted.Loss{Lipschitz: 1, Eta: 1}}
	for _, e := range []int64{1, 10, 100, 1000} {
		tr.Epochs = e
		g, _ := tr.Guarantee()
		plain := tr
		plain.Radius = 0
		p, _ := plain.Guarantee()
		fmt.Printf("E=%d:", e)
		for _, t := range []int64{1, 500, 1000} {
			a, _ := shifted.Epsilon(p, t, tr.Delta, rdp.Improved)
			b, _ := shifted.Epsilon(g, t, tr.Delta, rdp.Improved)
			fmt.Printf("  t=%d %.4g → %.4g", t, a.Epsilon, b.Epsilon)
		}
		fmt.Println()
	}
	c, _ := shifted.EpsilonByEpochs(tr, []int64{1, 10, 100, 1000}, rdp.Improved, false)
	fmt.Printf("burn-in %d pass(es), limit ε %v (first record: %d, %v)\n", c.BurnIn, *c.LimitEpsilon, c.BurnInFirst, *c.LimitEpsilonFirst)
	tr.Loss.Eta = 0.05 // the diameter is now 20 steps' sensitivity
	c, _ = shifted.EpsilonByEpochs(tr, []int64{1, 10, 100, 1000}, rdp.Improved, false)
	fmt.Printf("η = 0.05: burn-in %d pass(es), limit ε %v (first record: %d, %v)\n", c.BurnIn, *c.LimitEpsilon, c.BurnInFirst, *c.LimitEpsilonFirst)
	for _, p := range c.Points {
		fmt.Printf("E=%d: FMTT18 %v, domain %v\n", p.Epochs, p.FMTT18, *p.Domain)
	}
	// Output:
	// E=1:  t=1 0.2288 → 0.2288  t=500 0.3323 → 0.3323  t=1000 10.72 → 10.72
	// E=10:  t=1 0.7943 → 0.2289  t=500 0.8363 → 0.3327  t=1000 10.78 → 10.73
	// E=100:  t=1 2.814 → 0.2289  t=500 2.829 → 0.3327  t=1000 11.36 → 10.73
	// E=1000:  t=1 10.72 → 0.2289  t=500 10.73 → 0.3327  t=1000 16.51 → 10.73
	// burn-in 1 pass(es), limit ε 10.7314 (first record: 1, 0.228941)
	// η = 0.05: burn-in 60 pass(es), limit ε 11.2162 (first record: 75, 2.41422)
	// E=1: FMTT18 10.7249, domain 10.7249
	// E=10: FMTT18 10.7837, domain 10.7837
	// E=100: FMTT18 11.3625, domain 11.2162
	// E=1000: FMTT18 16.5062, domain 11.2162
}
