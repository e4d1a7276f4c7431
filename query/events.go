package query

import (
	"github.com/privamp/privamp/composition/events"
	"github.com/privamp/privamp/internal/field"
)

func init() { Register("events", accountEvents) }

// EventsRequest is the "events" request: an events object as privamp
// compose --events reads it (dp_accounting's DpEvent vocabulary; package
// composition/events), accounted at delta by accountant (rdp, pld or best;
// default best), with δ(ε) at each of epsilons too. Discretization is the
// PLD's grid interval (0: 1e-4, as on the command line).
type EventsRequest struct {
	Events         events.Events `json:"events" jsonin:"required"`
	Delta          float64       `json:"delta"`
	Epsilons       []float64     `json:"epsilons"`
	Accountant     string        `json:"accountant"`
	Discretization float64       `json:"discretization"`
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
	res, err := events.Account(q.Events, events.Query{Delta: q.Delta, Accountant: q.Accountant, Discretization: q.Discretization, Epsilons: q.Epsilons})
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
