package zcdp_test

import (
	"fmt"

	"github.com/privamp/privamp/zcdp"
)

// Convert ρ = 0.5 to (ε, δ) by both methods, and invert a target.
func Example() {
	for _, m := range []zcdp.Method{zcdp.BunSteinke, zcdp.RDP} {
		e, _ := zcdp.Epsilon(0.5, 1e-6, m)
		r, _ := zcdp.RhoFor(1, 1e-6, m)
		fmt.Printf("%-11s ε(ρ=0.5) = %.4f   ρ*(ε=1) = %.5f\n", m, e, r)
	}
	// Output:
	// bun-steinke ε(ρ=0.5) = 5.7565   ρ*(ε=1) = 0.01747
	// rdp         ε(ρ=0.5) = 5.2215   ρ*(ε=1) = 0.02436
}
