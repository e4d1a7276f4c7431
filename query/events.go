package query

import (
	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/composition/events"
	"github.com/privamp/privamp/internal/field"
)

func init() { Register("events", accountEvents) }

// EventsRequest is the "events" request: an events object as privamp
// compose --events reads it (dp_accounting's DpEvent vocabulary; package
// composition/events), accounted at delta by accountant (rdp, pld or best;
// default best), with δ(ε) at each of epsilons too. Discretization is the
// PLD's grid interval (0: 1e-4, as on the command line). SoundOnly asks for
// the headline alone (events.Query.SoundOnly): the answer then has no
// optimistic estimate and, under the pld accountant, no RDP value; the
// headline is the same. Python's accountants ask so in get_epsilon and
// fetch the rest only when it is read.
type EventsRequest struct {
	Events         events.Events `json:"events" jsonin:"required"`
	Delta          float64       `json:"delta"`
	Epsilons       []float64     `json:"epsilons"`
	Accountant     string        `json:"accountant"`
	Discretization float64       `json:"discretization"`
	SoundOnly      bool          `json:"sound_only"`
}

func accountEvents(request []byte, _ bool) (*Result, error) {
	var q EventsRequest
	if err := decode(request, &q); err != nil {
		return nil, err
	}
	if err := q.Events.Validate(); err != nil {
		if e, ok := field.As(err); ok && e.Field != "" { // the file's key, inside the request
			e2 := *e
			e2.Field = "events." + e.Field
			return nil, &e2
		}
		return nil, err
	}
	res, err := events.Account(q.Events, events.Query{Delta: q.Delta, Accountant: q.Accountant, Discretization: q.Discretization, Epsilons: q.Epsilons, SoundOnly: q.SoundOnly})
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, s := range []string{res.PLDNote, res.RDPNote} {
		if s != "" {
			notes = append(notes, s)
		}
	}
	return &Result{Command: "compose", Value: res, Notes: notes}, nil
}

func init() { Register("supports", supports) }

// SupportsRequest is the "supports" request: whether accountant (rdp, pld
// or best; default best) accounts the events object (composition.Tight's
// Supports, after the events are validated).
type SupportsRequest struct {
	Events     events.Events `json:"events" jsonin:"required"`
	Accountant string        `json:"accountant"`
}

// SupportsResult is the "supports" answer: Reason says why not.
type SupportsResult struct {
	Command    string `json:"command"`
	Accountant string `json:"accountant"`
	Supported  bool   `json:"supported"`
	Reason     string `json:"reason,omitempty"`
}

func supports(request []byte, _ bool) (*Result, error) {
	var q SupportsRequest
	if err := decode(request, &q); err != nil {
		return nil, err
	}
	a := def(q.Accountant, composition.AccountBest)
	t, err := composition.Named(a)
	if err != nil {
		return nil, err
	}
	out := SupportsResult{Command: "supports", Accountant: a, Supported: true}
	if err := q.Events.Validate(); err != nil {
		out.Supported, out.Reason = false, err.Error()
	} else if e, rel := q.Events.DP(); t.Supports(e, rel) != nil {
		out.Supported, out.Reason = false, t.Supports(e, rel).Error()
	}
	return &Result{Command: "supports", Value: out}, nil
}
