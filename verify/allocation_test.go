package verify

import (
	"strconv"
	"strings"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

const ballsClaim = `{"algorithm": "dpsgd", "sampling": "balls-in-bins", "n": 60000, "batch_size": 250, "noise_multiplier": 1.1,
  "epochs": 3, "delta": 1e-5, "epsilon": EPS NB}`

// A balls-in-bins claim is decided by the PLD or RDP of random allocation: VALID
// at or above the certified ε (the number dpsgd --sampling balls-in-bins
// prints), INVALID below with the noise dpsgd calibrates, UNSUPPORTED under
// replace-one; a rate whose 1/q is not whole is refused naming the field.
func TestDPSGDBallsInBins(t *testing.T) {
	d := rdp.DPSGD{N: 60000, Batch: 250, Epochs: 3, Noise: 1.1, Delta: 1e-5, Sampling: dp.BallsInBins}
	name, o := composition.AccountBest, Options{}
	if testing.Short() { // the same certified ε, without the PLD's Poisson comparison
		name, o.Accountant = composition.AccountRDP, composition.Tight{Only: composition.AccountRDP}
	}
	want, err := composition.DPSGDWith(d, name)
	if err != nil {
		t.Fatal(err)
	}
	eps := float64(want.Epsilon)
	doc := func(e float64, nb string) string {
		return strings.NewReplacer("EPS", strconv.FormatFloat(e, 'g', -1, 64), "NB", nb).Replace(ballsClaim)
	}
	v := verifyDPSGDString(t, doc(eps, ""), o)
	if v.Verdict != dp.Valid || v.WorstEpsilon != want.Epsilon {
		t.Errorf("at the certified ε %g: %v, certified %v", eps, v.Verdict, v.WorstEpsilon)
	}
	v = verifyDPSGDString(t, doc(eps*0.9, ""), o)
	if v.Verdict != dp.Invalid || !(float64(v.NoiseMultiplierNeeded) > 1.1) {
		t.Errorf("below: %v, noise needed %v", v.Verdict, v.NoiseMultiplierNeeded)
	}
	if v.Verdict.ExitStatus() == 0 {
		t.Error("INVALID exits 0")
	}
	v = verifyDPSGDString(t, doc(100, `, "neighbours": "replace-one"`), o)
	if v.Verdict != dp.Unsupported || v.Via != ViaNoAccountant {
		t.Errorf("replace-one: %v via %q", v.Verdict, v.Via)
	}
	_, err = ParseClaim(strings.NewReader(strings.Replace(doc(1, ""), `"batch_size": 250`, `"batch_size": 256`, 1)))
	if err == nil || !strings.Contains(err.Error(), "batch_size") {
		t.Errorf("n/batch not whole: %v", err)
	}
}
