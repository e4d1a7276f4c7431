package events

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
)

// vocabCase is one case of testdata/dp_accounting_vocab.json
// (bench/dp_accounting_vocab.py): dp_accounting's ε(δ) and δ(ε) by its PLD
// and RDP accountants (nil: refused or infinite, with the note).
type vocabCase struct {
	Name         string          `json:"name"`
	Neighbouring string          `json:"neighbouring"`
	Event        json.RawMessage `json:"event"`
	Delta        float64         `json:"delta"`
	Epsilon      float64         `json:"epsilon"`
	PLDEpsilon   *float64        `json:"pld_epsilon"`
	PLDDelta     *float64        `json:"pld_delta"`
	PLDNote      string          `json:"pld_note"`
	RDPEpsilon   *float64        `json:"rdp_epsilon"`
	RDPDelta     *float64        `json:"rdp_delta"`
	RDPNote      string          `json:"rdp_note"`
}

// How privamp's value relates to dp_accounting's, per accountant:
//
//	same     within 0.5% (ε) and 2% (δ)
//	le       at most dp_accounting's (privamp's RDP conversion is tighter), within 2%
//	above    above dp_accounting's: dp_accounting is below the sound value (see why)
//	refused  privamp's accountant refuses (so does dp_accounting's)
//	extra    dp_accounting refuses; privamp answers (checked elsewhere)
//	inf      no finite ε, δ = 1
var vocabWant = map[string]struct{ pld, rdp, why string }{
	"epsilon-delta":      {"same", "same", ""},
	"epsilon-delta-pure": {"same", "le", ""},
	"zcdp":               {"refused", "le", ""},
	"zcdp-xi":            {"refused", "le", ""},
	"discrete-laplace":   {"same", "extra", "privamp's RDP bounds the discrete Laplace as aΔ-DP"},
	"discrete-gaussian":  {"refused", "le", ""},
	// dp_accounting accounts tree aggregation under its REPLACE_SPECIAL
	// relation (sensitivity 1), privamp under add-remove (sensitivity 1):
	// the same Gaussian of sensitivity √depth, which privamp's PLD accounts
	// exactly (TestTreeAggregationIsOneGaussian).
	"tree-aggregation": {"extra", "le", ""},
	// dp_accounting's RDP adds the exponential mechanism's curve once
	// whatever the count (rdp_privacy_accountant.py: no `count *`): ten
	// runs get the ε of one.
	"exponential":      {"same", "above", "dp_accounting's RDP ignores SelfComposed's count for ExponentialMechanism"},
	"exponential-once": {"same", "le", ""},
	// dp_accounting gives permute-and-flip the Laplace mechanism's PLD and
	// RDP; privamp, without a proof of that domination, the worst ε-DP
	// pair's (and randomized response's curve).
	"permute-and-flip":         {"above", "above", "privamp treats permute-and-flip as any ε-DP mechanism, not as Laplace"},
	"non-private":              {"inf", "inf", ""},
	"unsupported":              {"refused", "refused", ""},
	"sampled-with-replacement": {"refused", "refused", ""},
	// privamp bounds a mixture by the Poisson-subsampled Gaussian whose pair
	// it post-processes (q = P(C > 0), z = σ/c_max): looser than
	// dp_accounting's own mixture PLD with several positive sensitivities,
	// the same where they are 0 and one value.
	"mixture-of-gaussians": {"above", "extra", "privamp's mixture bound is the dominating subsampled Gaussian"},
	"mixture-two-values":   {"same", "extra", ""},
	"truncated-subsampled-gaussian": {"refused", "refused",
		"privamp has no sound accounting of truncated Poisson sampling"},
	"repeat-and-select": {"refused", "refused", "privamp does not implement Papernot–Steinke's bound yet"},
	// dp_accounting's PLD applies a self-composed randomized response once
	// (pld_privacy_accountant.py composes rr_pld without self_compose(count)):
	// its ε for ten runs is one run's, ln 3 = 1.0986.
	"randomized-response-self-composed": {"above", "same", "dp_accounting's PLD composes a self-composed randomized response once"},
	// dp_accounting's REPLACE_ONE RDP takes a Gaussian's sensitivity to be
	// 1 (its PLD takes 2): its RDP ε is about half the true one.
	"gaussian-replace-one": {"same", "above", "dp_accounting's REPLACE_ONE RDP uses sensitivity 1"},
}

func TestDPAccountingVocabulary(t *testing.T) {
	data, err := os.ReadFile("testdata/dp_accounting_vocab.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []vocabCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &ref); err != nil || len(ref.Cases) == 0 {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range ref.Cases {
		w, ok := vocabWant[c.Name]
		if !ok {
			t.Fatalf("case %s has no expectation", c.Name)
		}
		switch c.Name {
		case "discrete-laplace", "exponential-once", "permute-and-flip", "epsilon-delta-pure", "gaussian-replace-one", "mixture-of-gaussians":
			if testing.Short() {
				// The same paths as other cases' (TestDiscreteLaplaceAgainstEnumeration
				// checks the discrete Laplace; mixture-two-values the mixtures, whose
				// three-value case takes 1.2 s of CPU).
				continue
			}
		}
		file := `{"neighbouring": "` + c.Neighbouring + `", "event": ` + string(c.Event) + `}`
		ev, err := Read(strings.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		e, _ := ev.DP()
		_ = dp.Leaves(e, func(l dp.Event, _ float64) error { seen[l.EventType()] = true; return nil })
		r, err := Account(ev, Query{Delta: c.Delta, Epsilons: []float64{c.Epsilon}})
		if w.pld == "refused" && w.rdp == "refused" {
			if err == nil || !strings.Contains(err.Error(), "refused by both accountants") {
				t.Errorf("%s: want a refusal by both accountants, got %v", c.Name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		var d DeltaAt
		if len(r.Deltas) == 1 {
			d = r.Deltas[0]
		}
		check := func(acc, want string, eps *dp.Loss, del *dp.Loss, refE, refD *float64, note string) {
			t.Helper()
			if want == "inf" {
				if !math.IsInf(float64(r.Epsilon), 1) || d.Delta != 1 {
					t.Errorf("%s: ε %v, δ(ε) %v, want ∞ and 1", c.Name, r.Epsilon, d.Delta)
				}
				return
			}
			if want == "refused" || want == "extra" {
				if (eps == nil) != (want == "refused") {
					t.Errorf("%s: %s ε %v, want %s (%s)", c.Name, acc, eps, want, note)
				}
				return
			}
			if eps == nil || refE == nil {
				t.Errorf("%s: %s ε %v, dp_accounting %v (%s)", c.Name, acc, eps, refE, note)
				return
			}
			e, re := float64(*eps), *refE
			t.Logf("%s %s: ε %.6g (dp_accounting %.6g, %+.2e); δ(%g) %.4g (dp_accounting %v)", c.Name, acc, e, re, e/re-1, c.Epsilon, *del, *refD)
			switch want {
			case "same":
				if math.Abs(e/re-1) > 0.005 || refD != nil && math.Abs(float64(*del) / *refD - 1) > 0.02 {
					t.Errorf("%s: %s ε %v δ %v, dp_accounting %v %v", c.Name, acc, e, *del, re, *refD)
				}
			case "le":
				if e > re*(1+1e-6) || e < re*0.98 {
					t.Errorf("%s: %s ε %v, dp_accounting %v: want at most it, within 2%%", c.Name, acc, e, re)
				}
			case "above":
				if !(e > re*1.001) {
					t.Errorf("%s: %s ε %v, dp_accounting %v: want above (%s)", c.Name, acc, e, re, w.why)
				}
			}
		}
		check("pld", w.pld, r.PLDEpsilon, d.PLDDelta, c.PLDEpsilon, c.PLDDelta, c.PLDNote)
		check("rdp", w.rdp, r.RDPEpsilon, d.RDPDelta, c.RDPEpsilon, c.RDPDelta, c.RDPNote)
	}
	if !testing.Short() {
		for _, typ := range []string{"EpsilonDelta", "ZCDp", "DiscreteLaplace", "DiscreteGaussian", "SampledWithReplacement",
			"RepeatAndSelect", "MixtureOfGaussians", "TruncatedSubsampledGaussian", "SingleEpochTreeAggregation",
			"ExponentialMechanism", "PermuteAndFlip", "NonPrivate", "Unsupported"} {
			if !seen[typ] {
				t.Errorf("no golden case for %s", typ)
			}
		}
	}
}

// Tree aggregation with every record in one leaf is one Gaussian of
// sensitivity √depth: the PLD's ε lies within its grid error above the
// exact profile's (Balle–Wang 2018), never below.
func TestTreeAggregationIsOneGaussian(t *testing.T) {
	for _, c := range []struct {
		rel   string
		sens  float64
		steps string
		depth float64
	}{{"add_or_remove_one", 1, "[100, 37]", 7}, {"replace_one", 2, "[1]", 1}, {"add_or_remove_one", 1, "[4]", 3}} {
		ev, err := Read(strings.NewReader(`{"neighbouring": "` + c.rel + `", "event": {"type": "SingleEpochTreeAggregation", "noise_multiplier": 3, "step_counts": ` + c.steps + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Account(ev, Query{Delta: 1e-5})
		if err != nil {
			t.Fatal(err)
		}
		exact, err := composition.GaussianEpsilon(c.sens*math.Sqrt(c.depth)/3, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		if e := float64(r.Epsilon); e < exact || e > exact*1.001 {
			t.Errorf("%s %s: ε %v, exact %v", c.rel, c.steps, e, exact)
		}
	}
}

// The discrete Laplace's loss takes D + 1 values, so ten runs' exact δ(ε)
// is a finite sum: the certified δ(ε) is at least it and the certified ε
// at δ at least the exact ε (principle 2).
func TestDiscreteLaplaceAgainstEnumeration(t *testing.T) {
	const a, runs = 0.5, 10
	for _, c := range []struct {
		rel  string
		sens int
	}{{"add_or_remove_one", 2}, {"replace_one", 1}} {
		if testing.Short() && c.rel == "replace_one" {
			continue
		}
		d := c.sens
		if c.rel == "replace_one" {
			d *= 2
		}
		// One run: loss a(D − 2x) with P-mass p_x (x ≤ 0 at x = 0, x ≥ D
		// at x = D); under Q the same losses with mass p_x·e^{−loss}.
		c0 := 1 + math.Exp(-a)
		mass := make([]float64, d+1)
		for x := 0; x <= d; x++ {
			switch x {
			case 0:
				mass[x] = 1 / c0 // P(X ≤ 0)
			case d:
				mass[x] = math.Exp(-a*float64(d)) / c0 // P(X ≥ D)
			default:
				mass[x] = math.Tanh(a/2) * math.Exp(-a*float64(x))
			}
		}
		// Ten runs: the sum of the x's, loss a(runs·D − 2s).
		dist := []float64{1}
		for range runs {
			next := make([]float64, len(dist)+d)
			for s, p := range dist {
				for x, m := range mass {
					next[s+x] += p * m
				}
			}
			dist = next
		}
		exactDelta := func(eps float64) float64 {
			s := 0.0
			for k, p := range dist {
				if l := a * float64(runs*d-2*k); l > eps {
					s += p * (1 - math.Exp(eps-l))
				}
			}
			return s
		}
		ev, err := Read(strings.NewReader(`{"neighbouring": "` + c.rel + `", "event": {"type": "SelfComposed", "count": 10, "event": {"type": "DiscreteLaplace", "noise_parameter": 0.5, "sensitivity": ` + string(rune('0'+c.sens)) + `}}}`))
		if err != nil {
			t.Fatal(err)
		}
		epsilons := []float64{0, 1, 3, 5, 8}
		if testing.Short() {
			epsilons = []float64{1, 5}
		}
		for _, eps := range epsilons {
			r, err := Account(ev, Query{Delta: 1e-5, Accountant: "pld", Epsilons: []float64{eps}})
			if err != nil {
				t.Fatal(err)
			}
			got, want := float64(r.Deltas[0].Delta), exactDelta(eps)
			if got < want || got > want*1.01+1e-12 {
				t.Errorf("%s: δ(%g) = %v, exact %v", c.rel, eps, got, want)
			}
		}
		// ε at δ = 1e-5: the exact ε is where exactDelta crosses it.
		r, err := Account(ev, Query{Delta: 1e-5})
		if err != nil {
			t.Fatal(err)
		}
		if e := float64(r.Epsilon); exactDelta(e) > 1e-5 || e > 10 {
			t.Errorf("%s: ε %v, where the exact δ is %v > 1e-5", c.rel, e, exactDelta(e))
		}
	}
}

// An (ε, δ)-DP event's δ is carried: at a δ no larger than the events'
// total δ there is no finite RDP bound, and the PLD's δ(ε) is at least it.
func TestEpsilonDeltaCarriesDelta(t *testing.T) {
	ev, err := Read(strings.NewReader(`{"event": {"type": "SelfComposed", "count": 10, "event": {"type": "EpsilonDelta", "epsilon": 0.1, "delta": 1e-6}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Account(ev, Query{Delta: 1e-5, Epsilons: []float64{100}})
	if err != nil {
		t.Fatal(err)
	}
	if r.RDPEpsilon == nil || !math.IsInf(float64(*r.RDPEpsilon), 1) {
		t.Errorf("RDP ε %v at δ = the events' total δ 1e-5, want ∞", r.RDPEpsilon)
	}
	if d := r.Deltas[0]; float64(*d.PLDDelta) < 1e-5 || float64(*d.RDPDelta) < 1e-5 {
		t.Errorf("δ(100) = %v (pld), %v (rdp), want ≥ 1e-5", *d.PLDDelta, *d.RDPDelta)
	}
}

// Bad parameters of the new types name the field by its path in the file.
func TestVocabularyFieldErrors(t *testing.T) {
	for _, c := range []struct{ event, field string }{
		{`{"type": "EpsilonDelta", "epsilon": -1, "delta": 0}`, "event.epsilon"},
		{`{"type": "EpsilonDelta", "epsilon": 1, "delta": 1}`, "event.delta"},
		{`{"type": "EpsilonDelta", "epsilon": 1}`, "event.delta"},
		{`{"type": "ZCDp", "rho": -0.1}`, "event.rho"},
		{`{"type": "ZCDp", "rho": 0.1, "sigma": 1}`, "event.sigma"},
		{`{"type": "DiscreteLaplace", "noise_parameter": 1, "sensitivity": 1.5}`, "event.sensitivity"},
		{`{"type": "DiscreteGaussian", "sigma": 0}`, "event.sigma"},
		{`{"type": "MixtureOfGaussians", "standard_deviation": 1, "sensitivities": [0, 1], "sampling_probs": [0.5, 0.6]}`, "event.sampling_probs"},
		{`{"type": "SingleEpochTreeAggregation", "noise_multiplier": 1, "step_counts": []}`, "event.step_counts"},
		{`{"type": "SampledWithReplacement", "source_dataset_size": 10, "sample_size": 1, "event": {"type": "Gaussian", "noise_multiplier": 0}}`, "event.event.noise_multiplier"},
		{`{"type": "RepeatAndSelect", "mean": 0.5, "shape": 1, "event": {"type": "NoOp"}}`, "event.mean"},
	} {
		_, err := Read(strings.NewReader(`{"event": ` + c.event + `}`))
		fe, ok := err.(*dp.Error)
		if !ok || fe.Field != c.field || fe.Where != dp.InputFile {
			t.Errorf("%s: %v, want a field error on %s", c.event, err, c.field)
		}
	}
}
