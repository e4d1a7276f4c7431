package verify_test

import (
	"fmt"
	"strings"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/verify"
)

// Verify a claim without a trajectory (n written as 1e3, a whole number): the constants are taken on trust, the
// claimed worst-case ε is compared with the bound of amplification by
// iteration, and a claim below the bound comes with the σ that would make it
// true.
func ExampleVerify() {
	const doc = `{
	  "algorithm": "pnsgd", "n": 1e3, "eta": 0.5, "sigma": 2,
	  "lipschitz": 1, "smoothness": 1, "delta": 1e-5, "epsilon": 5
	}`
	c, err := verify.ParseClaim(strings.NewReader(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := verify.Verify(c, nil)
	fmt.Printf("%s via %s: certified ε = %s at index %d\n", v.Verdict, v.Via, v.WorstEpsilon, v.WorstIndex)

	c.Sigma = 1
	v, _ = verify.Verify(c, nil)
	fmt.Printf("σ = 1: %s, certified ε = %s, σ needed %s\n", v.Verdict, v.WorstEpsilon, v.SigmaNeeded)
	// Output:
	// VALID via amplification by iteration: certified ε = 4.72839 at index 1000
	// σ = 1: INVALID, certified ε = 10.7249, σ needed 1.90524
}

// Verify a DP-SGD claim as TF-Privacy's compute_dp_sgd_privacy writes its
// parameters (the MNIST tutorial), first with the RDP accountant; a claim
// below its bound comes with the noise multiplier that would make it true.
func ExampleVerifyDPSGD() {
	const doc = `{"algorithm": "dpsgd", "sampling": "poisson", "n": 60000, "batch_size": 256, "noise_multiplier": 1.1,
	  "epochs": 60, "delta": 1e-5, "epsilon": 2.5}`
	c, err := verify.ParseClaim(strings.NewReader(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := verify.VerifyDPSGD(c.DPSGD, verify.Options{Accountant: composition.Tight{Only: composition.AccountRDP}})
	fmt.Printf("%s via %s: %d steps, certified ε = %s, noise multiplier needed %s\n", v.Verdict, v.Via, v.DPSGD.Steps, v.WorstEpsilon, v.NoiseMultiplierNeeded)
	v, _ = verify.VerifyDPSGD(c.DPSGD, verify.Options{}) // the tightest accountant: the PLD here
	fmt.Printf("%s via %s: certified ε = %s\n", v.Verdict, v.Via, v.WorstEpsilon)
	// Output:
	// INVALID via RDP accountant: 14063 steps, certified ε = 2.59665, noise multiplier needed 1.12499
	// VALID via tightest accountant (PLD or RDP): certified ε = 2.38178
}

// A DP-SGD claim with fixed-size batches (sampling without replacement)
// under replace-one neighbours (examples/dpsgd-fixed-size-claim.json): the
// PLD's replace-one pair with γ = batch_size/n certifies it; RDP has no
// bound for it here. Under add/remove it is dp.Unsupported.
func ExampleVerifyDPSGD_fixedSize() {
	const doc = `{"algorithm": "dpsgd", "sampling": "fixed-size", "n": 60000, "batch_size": 256,
	  "noise_multiplier": 1.1, "epochs": 60, "neighbours": "replace-one", "delta": 1e-5, "epsilon": 18.6}`
	c, err := verify.ParseClaim(strings.NewReader(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := verify.VerifyDPSGD(c.DPSGD, verify.Options{})
	fmt.Printf("%s: certified ε = %s\n", v.Verdict, v.WorstEpsilon)
	c.DPSGD.Neighbours = "add-remove"
	v, _ = verify.VerifyDPSGD(c.DPSGD, verify.Options{})
	fmt.Println(v.Verdict)
	// Output:
	// VALID: certified ε = 18.4545
	// UNSUPPORTED
}
