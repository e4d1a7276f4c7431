package events

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// Phase is one mechanism of the file with everything it runs under: the
// flat list of phases is what a table of the accounted run shows.
type Phase struct {
	// Path is where the mechanism is in the file
	// ("event.events[0].event").
	Path string `json:"path"`
	// Mechanism is Gaussian, Laplace, RandomizedResponse or NoOp.
	Mechanism string `json:"mechanism"`
	// Sampling is how the mechanism's input is drawn: in JSON
	// "poisson", "without_replacement", "balls_in_bins" or "none".
	Sampling dp.Sampling `json:"sampling"`
	// SamplingProbability is q (Poisson), or sample_size/source_dataset_size.
	SamplingProbability dp.Num `json:"sampling_probability"`
	SourceDatasetSize   int64  `json:"source_dataset_size,omitempty"`
	SampleSize          int64  `json:"sample_size,omitempty"`
	// NumSteps is a RandomAllocation's steps per epoch (balls-in-bins).
	NumSteps        int64    `json:"num_steps,omitempty"`
	NoiseMultiplier dp.Noise `json:"noise_multiplier,omitempty"`
	NoiseParameter  dp.Num   `json:"noise_parameter,omitempty"`
	// Parameters are the parameters of a mechanism of the rest of
	// dp_accounting's vocabulary (EpsilonDelta, ZCDp, …) as the file
	// names them ("epsilon = 1, delta = 1e-06"); empty for the others.
	Parameters string `json:"parameters,omitempty"`
	// Sensitivity is the sensitivity the noise is measured against: 1, or 2
	// under replace_one (a record replaced moves a sum by g − g′); 0 for
	// randomized response and NoOp.
	Sensitivity dp.Num `json:"sensitivity,omitempty"`
	// Count is how many times the mechanism runs: the product of the counts
	// of the SelfComposed events around it.
	Count dp.Num `json:"count"`
	// PLD and RDP say which accountants cover this phase.
	PLD bool `json:"pld"`
	RDP bool `json:"rdp"`
}

// Sampling schemes of a Phase (dp.Sampling).
const (
	SamplingNone               = dp.None
	SamplingPoisson            = dp.Poisson
	SamplingWithoutReplacement = dp.WithoutReplacement
)

// phaseOf describes the validated mechanism or sampling event e.
func phaseOf(e *Event, path string, count float64, rel dp.Relation) Phase {
	ph := Phase{Path: path, Mechanism: e.Type, Sampling: SamplingNone, SamplingProbability: 1,
		Count: dp.Num(count), Sensitivity: 1, PLD: true, RDP: true}
	if rel == dp.ReplaceOne {
		ph.Sensitivity = 2
	}
	m := e
	switch e.Type {
	case TypePoissonSampled:
		ph.Sampling, ph.SamplingProbability = SamplingPoisson, dp.Num(*e.SamplingProbability)
		m = e.Event
	case TypeSampledWithoutReplacement:
		ph.Sampling = SamplingWithoutReplacement
		ph.SourceDatasetSize, ph.SampleSize = *e.SourceDatasetSize, *e.SampleSize
		ph.SamplingProbability = dp.Num(float64(*e.SampleSize) / float64(*e.SourceDatasetSize))
		m = e.Event
	case TypeRandomAllocation:
		ph.Sampling, ph.NumSteps = dp.BallsInBins, *e.NumSteps
		ph.SamplingProbability, ph.Count = dp.Num(1/float64(*e.NumSteps)), dp.Num(count*float64(*e.NumSteps))
		m = e.Event
	}
	ph.Mechanism = m.Type
	switch m.Type {
	case TypeGaussian, TypeLaplace:
		ph.NoiseMultiplier = dp.Noise(*m.NoiseMultiplier)
	case TypeRandomizedResponse:
		ph.NoiseParameter = dp.Num(*m.NoiseParameter)
		ph.Sensitivity = 0
	case TypeNoOp:
		ph.Sensitivity = 0
	}
	if _, vocab := vocabTypes[m.Type]; vocab {
		ph.Parameters = parameters(m)
		if m.NoiseMultiplier != nil {
			ph.NoiseMultiplier = dp.Noise(*m.NoiseMultiplier)
		}
		switch m.Type {
		case TypeEpsilonDelta, TypeZCDp, TypeExponentialMechanism, TypePermuteAndFlip, TypeNonPrivate, TypeUnsupported:
			ph.Sensitivity = 0 // a declared guarantee, or none
		}
		x := m.dp()
		ph.PLD = pld.Accountant{}.Supports(x, rel) == nil
		ph.RDP = rdp.Accountant{}.Supports(x, rel) == nil
	}
	if count > pld.MaxRuns {
		ph.PLD = false
	}
	return ph
}

// parameters lists the parameters a vocabulary event sets, in the order of
// its type (validate.go's types), as "name = value".
func parameters(e *Event) string {
	var b strings.Builder
	v := reflect.ValueOf(e).Elem()
	for _, t := range types {
		if t.name != e.Type {
			continue
		}
		for _, p := range t.params {
			p = strings.TrimSuffix(p, "?")
			if p == "event" {
				continue
			}
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				if f.Tag.Get("json") != p || v.Field(i).IsNil() {
					continue
				}
				if b.Len() > 0 {
					b.WriteString(", ")
				}
				x := v.Field(i)
				if x.Kind() == reflect.Pointer {
					x = x.Elem()
				}
				fmt.Fprintf(&b, "%s = %v", p, x.Interface())
			}
		}
	}
	return b.String()
}

// Noise describes the phase's noise for a table: a vocabulary event's
// parameters, the noise multiplier, the randomized-response parameter p,
// or "none" for NoOp.
func (p Phase) Noise() string {
	switch {
	case p.Parameters != "":
		return p.Parameters
	case p.Mechanism == TypeRandomizedResponse:
		return "p = " + p.NoiseParameter.String()
	case p.NoiseMultiplier > 0:
		return p.NoiseMultiplier.String()
	}
	return "none"
}
