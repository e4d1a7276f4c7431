package events_test

import (
	"fmt"
	"strings"

	"github.com/privamp/privamp/composition/events"
)

// A run whose noise changes: 1000 DP-SGD steps with noise 2, then 500 with
// noise 1.5 at twice the sampling rate, accounted by both accountants.
func ExampleAccount() {
	ev, err := events.Read(strings.NewReader(`{
	  "event": {"type": "Composed", "events": [
	    {"type": "SelfComposed", "count": 1000,
	     "event": {"type": "PoissonSampled", "sampling_probability": 0.01,
	               "event": {"type": "Gaussian", "noise_multiplier": 2}}},
	    {"type": "SelfComposed", "count": 500,
	     "event": {"type": "PoissonSampled", "sampling_probability": 0.02,
	               "event": {"type": "Gaussian", "noise_multiplier": 1.5}}}
	  ]}
	}`))
	if err != nil {
		panic(err)
	}
	r, err := events.Account(ev, events.Query{Delta: 1e-6})
	if err != nil {
		panic(err)
	}
	fmt.Printf("ε ≤ %v by %s (PLD %v, optimistic %v; RDP %v)\n", r.Epsilon, r.Accountant, *r.PLDEpsilon, *r.EpsilonOptimistic, *r.RDPEpsilon)
	for _, p := range r.Phases {
		fmt.Printf("%s: %v × %s, %s sampling q = %v, noise %v\n", p.Path, p.Count, p.Mechanism, p.Sampling, p.SamplingProbability, p.NoiseMultiplier)
	}
	// Output:
	// ε ≤ 1.74935 by pld (PLD 1.74935, optimistic 1.67432; RDP 1.89919)
	// event.events[0].event: 1000 × Gaussian, poisson sampling q = 0.01, noise 2
	// event.events[1].event: 500 × Gaussian, poisson sampling q = 0.02, noise 1.5
}

// Errors name the field by its path in the file.
func ExampleRead() {
	_, err := events.Read(strings.NewReader(`{"event": {"type": "Composed", "events": [
	  {"type": "Gaussian", "noise_multiplier": 1},
	  {"type": "SelfComposed", "count": 10,
	   "event": {"type": "PoissonSampled", "sampling_probability": 0.01,
	             "event": {"type": "Gaussian", "noise_multiplier": -1}}}]}}`))
	fmt.Println(err)
	_, err = events.Read(strings.NewReader(`{"event": {"type": "SelfComposed", "count": 2.5, "event": {"type": "NoOp"}}}`))
	fmt.Println(err)
	// Output:
	// field "event.events[1].event.event.noise_multiplier": must be a finite number > 0, got -1 (0 would be no noise and no privacy, ε = ∞)
	// line 1: field "event.count": expected a whole number, got 2.5
}
