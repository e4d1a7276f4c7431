// Package lowerbound is the Monte Carlo oracle of privamp's tests: it runs
// a randomised algorithm many times on two neighbouring data sets, takes a
// scalar statistic of every output, and turns the two samples into an
// empirical lower bound on ε at δ with package audit's estimator (the
// threshold attack with one-sided Clopper–Pearson bounds, audit.Evaluate),
// set beside the certified ε (audit.Compare). It writes no estimator of its
// own: a lower bound above the certificate at the stated confidence shows
// that the certificate, its assumptions or the implementation is wrong
// (issue 22, "Monte Carlo lower bounds as a second oracle"). It stands
// beside the audit it uses (it was internal/lowerbound, an upward arrow from
// the ground floor); the algorithms' tests import it.
package lowerbound

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/privamp/privamp/audit"
)

// Sample runs the algorithm once, on D (onD) or on its neighbour D′, with
// the given seed, and returns the statistic of the output. It must be safe
// for concurrent use.
type Sample func(onD bool, seed uint64) (float64, error)

// Seeds: trial i runs on D with seed 2i + 1 and on D′ with seed 2i + 2, so
// every run has its own seed and the result does not depend on scheduling.
func seed(i int, onD bool) uint64 {
	if onD {
		return uint64(2*i + 1)
	}
	return uint64(2*i + 2)
}

// Audit runs sample trials times on each of D (members) and D′ (non-members)
// and evaluates the statistics with audit.Evaluate at o: the threshold and
// its side are chosen on one half of the runs (audit.Half, fixed in
// advance) and the bound is evaluated on the other, at o.Confidence. The
// statistics are returned too (D's, then D′'s), for the caller's messages.
func Audit(trials int, sample Sample, o audit.Options) (*audit.Evaluation, []float64, []float64, error) {
	if trials < 4 {
		return nil, nil, nil, fmt.Errorf("trials %d: need at least 4", trials)
	}
	member := make([]bool, 2*trials)
	score := make([]float64, 2*trials)
	workers := min(runtime.GOMAXPROCS(0), 4)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := k; j < 2*trials; j += workers {
				i, onD := j/2, j%2 == 0
				s, err := sample(onD, seed(i, onD))
				if err != nil {
					errs[k] = fmt.Errorf("trial %d (on D: %v): %w", i, onD, err)
					return
				}
				member[j], score[j] = onD, s
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, nil, err
		}
	}
	c, err := audit.NewScoreCanaries(member, score)
	if err != nil {
		return nil, nil, nil, err
	}
	// Every row is its own run with its own seed (the seed is its id), so
	// rows that score alike (a discrete statistic, a refusal) are distinct
	// canaries, not one canary written twice.
	c.IDs = true
	ev, err := audit.Evaluate(c, o)
	if err != nil {
		return nil, nil, nil, err
	}
	var in, out []float64
	for j, s := range score {
		if member[j] {
			in = append(in, s)
		} else {
			out = append(out, s)
		}
	}
	return ev, in, out, nil
}
