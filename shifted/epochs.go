package shifted

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"
	"sort"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/rdp"
)

// BurnInTolerance is the relative variation of ε that EpsilonByEpochs's
// burn-in allows after it.
const BurnInTolerance = 0.01

// EpochPoint is the worst private record's ε after Epochs passes of the run.
type EpochPoint struct {
	Epochs int64 `json:"epochs"`
	// FMTT18 is today's bound (SGD: Thm 22 over the whole run).
	FMTT18 dp.Loss `json:"fmtt18_epsilon"`
	// Domain is the bounded-domain bound (Domain); null when it does not
	// apply (EpochCurve.DomainNote says why). DomainStart is the start of
	// the window that gives it (0: FMTT18's bound is the smaller).
	Domain      *dp.Loss `json:"domain_epsilon"`
	DomainStart int64    `json:"domain_window_start"`
	// Sampling is DP-SGD's accounting of the same run with Poisson
	// sampling under replace-one neighbours, the relation of the per-person
	// curves (the smaller of RDP and the PLD's provable pair); null unless
	// asked for.
	Sampling *dp.Loss `json:"sampling_epsilon"`
}

// EpochCurve is ε against the number of passes for one run (the run's
// Epochs field is ignored).
type EpochCurve struct {
	N          int64        `json:"n"`
	Delta      float64      `json:"delta"`
	Radius     float64      `json:"radius"`
	Conversion string       `json:"conversion"`
	Points     []EpochPoint `json:"points"`
	// WorstIndex is the record the points are for (the last private one:
	// every bound here is non-decreasing in the index).
	WorstIndex int64 `json:"worst_index"`
	// BurnIn is the smallest number of passes E after which the
	// bounded-domain ε varies by less than BurnInTolerance whatever the
	// number of further passes: max_{E' ≥ E} ε(E') ≤ (1 + tol)·min_{E' ≥ E} ε(E').
	// With c = 1 it is exact over every whole number of passes (ε is
	// constant from a computable E on); with c < 1 it is taken over the
	// listed pass counts and the limit (BurnInExact false). 0 when the
	// domain bound does not apply.
	BurnIn      int64 `json:"burn_in_epochs"`
	BurnInExact bool  `json:"burn_in_exact"`
	// LimitEpsilon is the bounded-domain ε as the passes grow without bound.
	LimitEpsilon *dp.Loss `json:"limit_epsilon"`
	// BurnInFirst and LimitEpsilonFirst are the same for the first record,
	// whose FMTT18 ε grows the most in relative terms.
	BurnInFirst       int64    `json:"burn_in_epochs_first"`
	LimitEpsilonFirst *dp.Loss `json:"limit_epsilon_first"`
	FMTT18Source      string   `json:"fmtt18_source"`
	DomainSource      string   `json:"domain_source,omitempty"`
	DomainNote        string   `json:"domain_note,omitempty"`
	SamplingSource    string   `json:"sampling_source,omitempty"`
}

// LogSpacedEpochs returns about points pass counts from 1 to max, increasing,
// log-spaced, with 1 and max included.
func LogSpacedEpochs(max int64, points int) []int64 {
	if max < 1 {
		return nil
	}
	points = int(math.Max(float64(points), 2))
	set := map[int64]bool{1: true, max: true}
	for i := 0; i < points; i++ {
		set[int64(math.Round(math.Pow(float64(max), float64(i)/float64(points-1))))] = true
	}
	out := make([]int64, 0, len(set))
	for e := range set {
		if e >= 1 && e <= max {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// EpsilonByEpochs returns the worst private record's ε after each number of
// passes in epochs (sorted, each ≥ 1) for the fixed-order PNSGD run r:
// FMTT18's bound, the bounded-domain bound when r declares a radius and it
// applies (Training.DomainNote), and, when sampling is set, DP-SGD's
// accounting of the same run with Poisson sampling. Errors are *dp.Error.
func EpsilonByEpochs(r Training, epochs []int64, conv rdp.Conversion, sampling bool) (EpochCurve, error) {
	if r.Variant != VariantPNSGD {
		return EpochCurve{}, field.New("variant", string(r.Variant), "must be pnsgd: the other variants are analysed for one pass")
	}
	if len(epochs) == 0 {
		return EpochCurve{}, field.New("epochs", nil, "needs at least one number of passes")
	}
	for i, e := range epochs {
		if e < 1 || e > MaxN || (i > 0 && e <= epochs[i-1]) {
			return EpochCurve{}, field.New("epochs", e, "must be increasing whole numbers in [1, %d]", MaxN)
		}
	}
	out := EpochCurve{N: r.N, Delta: r.Delta, Radius: r.Radius, Conversion: conv.String(), WorstIndex: r.N, DomainNote: r.DomainNote()}
	applies, _ := r.domainApplies()
	for _, e := range epochs {
		tr := r
		tr.Epochs = e
		if err := tr.Validate(); err != nil {
			return EpochCurve{}, err
		}
		g := tr.sgd()
		if err := g.Check(); err != nil {
			return EpochCurve{}, field.New("loss", nil, "%v", err)
		}
		p := EpochPoint{Epochs: e}
		lr := g.LogRho(r.N)
		eps, _ := epsFromLogRho(lr, r.Delta, conv)
		p.FMTT18 = dp.Loss(eps)
		out.FMTT18Source = g.Source() + "; " + conv.Source()
		if applies {
			dg := Domain{SGD: g, Radius: r.Radius}
			b := dg.Bound(r.N)
			de, _ := epsFromLogRho(b.LogRho, r.Delta, conv)
			q := dp.Loss(de)
			p.Domain, p.DomainStart = &q, b.Start
			out.DomainSource = dg.Source() + "; " + conv.Source()
		}
		if sampling {
			// Replace-one by RDP (remove then add) only: the PLD's replace-one
			// pair at every pass count costs seconds and hundreds of MB (and
			// the add/remove accounting of samplingOf, unused here, cost
			// 49 s and 3.3 GB at n = 100, z = 0.25: issue 23).
			smp := samplingRun(g)
			ro, err := rdp.EpsilonFor(rdp.Repeat(rdp.SampledGaussianReplaceOne{Q: smp.Q, Z: smp.Z}, float64(smp.Steps)), r.Delta, conv)
			if err != nil {
				return EpochCurve{}, err
			}
			q := dp.Loss(ro.Epsilon)
			p.Sampling = &q
			out.SamplingSource = fmt.Sprintf("replace-one neighbours, like the per-person curves: Poisson sampling q = b/n, z = bσ/L, RDP of removal then addition (Mironov–Talwar–Zhang 2019, Mironov 2017 Prop. 11); %s", conv.Source())
		}
		out.Points = append(out.Points, p)
	}
	if applies {
		out.burnIn(r, epochs, conv)
	}
	return out, nil
}

// burnIn fills BurnIn, LimitEpsilon and their first-record counterparts.
func (out *EpochCurve) burnIn(r Training, epochs []int64, conv rdp.Conversion) {
	var lim float64
	out.BurnIn, out.BurnInExact, lim = domainBurnIn(r, r.N, epochs, conv)
	q := dp.Loss(lim)
	out.LimitEpsilon = &q
	out.BurnInFirst, _, lim = domainBurnIn(r, 1, epochs, conv)
	q1 := dp.Loss(lim)
	out.LimitEpsilonFirst = &q1
}

// domainBurnIn returns index t's burn-in (see EpochCurve.BurnIn), whether
// it is exact, and its ε in the limit of many passes.
func domainBurnIn(r Training, t int64, epochs []int64, conv rdp.Conversion) (burn int64, exact bool, limitEps float64) {
	at := func(E int64) float64 { // ln ρ_t after E passes
		tr := r
		tr.Epochs = E
		return Domain{SGD: tr.sgd(), Radius: r.Radius}.LogRho(t)
	}
	eps := func(lr float64) float64 {
		e, _ := epsFromLogRho(lr, r.Delta, conv)
		return e
	}
	tol := 1 + BurnInTolerance
	g := Domain{SGD: r.sgd(), Radius: r.Radius}
	M := g.StepsPerEpoch()
	big := min(MaxN, MaxSteps/M)
	limit := at(big)
	limitEps = eps(limit)
	listed := func() int64 {
		hi, lo := limit, limit
		b := int64(0)
		for i := len(epochs) - 1; i >= 0; i-- {
			lr := at(epochs[i])
			hi, lo = math.Max(hi, lr), math.Min(lo, lr)
			if eps(hi) > tol*eps(lo) {
				break
			}
			b = epochs[i]
		}
		return b
	}
	if g.LogContraction() != 0 {
		return listed(), false, limitEps // c < 1: over the listed counts and the limit
	}
	// c = 1: ρ(E) = min(K₀(E), min_{u<E} G(u)); K₀ increases with E and the
	// window minimum is reached at u* + 1 passes, so ρ is constant from
	// Es = max(u* + 1, the first E with K₀(E) ≥ the limit) on.
	j, _ := g.batchOf(t)
	d := r.Radius * float64(g.batch()) / (r.Loss.Eta * r.Loss.Lipschitz)
	uStar, _ := bestWindow1(big, M, M-j, d)
	Es := uStar + 1
	lk := g.logKappa(g.batch())
	for Es < big && logF(j, M, Es, 0)+lk < limit {
		if Es > 1<<20 {
			Es *= 2 // coarse: ρ is constant beyond the true Es
		} else {
			Es++
		}
	}
	Es = min(Es, big)
	if Es > 1<<22 {
		return listed(), false, limitEps // too long to scan exactly
	}
	hi, lo := at(Es), at(Es)
	eHi, eLo := eps(hi), eps(lo)
	burn = Es
	for E := Es - 1; E >= 1; E-- {
		lr := at(E)
		if lr > hi {
			hi, eHi = lr, eps(lr)
		}
		if lr < lo {
			lo, eLo = lr, eps(lr)
		}
		if eHi > tol*eLo {
			break
		}
		burn = E
	}
	return burn, true, limitEps
}

// String summarises the curve in one line.
func (c EpochCurve) String() string {
	return fmt.Sprintf("%d pass counts, burn-in %s, limit ε %v", len(c.Points), quantity.Count(c.BurnIn, "pass", "passes"), c.LimitEpsilon)
}
