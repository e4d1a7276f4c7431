package shifted

import (
	"fmt"
	"math"
	"strings"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// SGD is projected noisy (minibatch, multi-epoch) SGD over records in a
// fixed order, releasing only its final iterate (FMTT18 Alg. 1 and 2):
//
//	w ← Π_K(w − η(g + Z)),  Z ~ N(0, σ²I),
//
// where g is the sum of the gradients of the step's batch divided by the
// nominal batch size b (as DP-SGD divides by its expected batch size; a
// smaller last batch of a pass is not re-weighted). Positions 1..N hold the
// private records, N+1..N+Public the public ones (Cor 31); batches are
// consecutive blocks of Batch positions (the last may be smaller), and the
// whole order is repeated Epochs times (Thm 35).
//
// Index t is the private record in position t. It is ρ_t-zCDP with
// ρ_t = 2L²/(b_j²σ²)·F, b_j the size of its batch j and F the geometry of the
// optimal shift allocation of Theorem 22 (docs/amplification.md#fixed-order-noisy-sgd): with M steps per
// epoch, E epochs and contraction c,
//
//	c = 1:  F = (E − 1)/M + 1/(M − j + 1)
//
// (Thm 23 for b = E = 1; for E = M = n it is the value inside the proof of
// Thm 35, below its stated 4αL²/σ²), and for c < 1 the greatest convex
// minorant has at most two segments — from the person's first step to the
// end, or to its last participation and then to the end — whose costs are
// geometric sums evaluated in log space (derived in docs/amplification.md#fixed-order-noisy-sgd). Each form
// is checked against Solve in the tests.
//
// With public records (Cor 31) the last private index has Public + 1 steps
// to go. Cor 31's noise σ = 2L√(ln(1.25/δ)/m)/ε treats that RDP bound as a
// Gaussian mechanism; privamp cannot certify its (ε, δ) claim: for m = 100,
// ε = 1, δ = 1e−5 the sound per-index ε is 1.19 (see the tests).
type SGD struct {
	N      int64   // private records, ≥ 1
	Public int64   // public records after the private ones (Cor 31), ≥ 0
	Batch  int64   // records per step; 0 or 1: one record per step (PNSGD)
	Epochs int64   // passes in the same order; 0 or 1: a single pass
	Sigma  float64 // standard deviation σ of the gradient noise, > 0
	Loss   Loss
}

func (g SGD) batch() int64 { return max(g.Batch, 1) }

// PartialBatch returns the size b′ of the last batch of a pass when it is
// smaller than the nominal b (b does not divide N + Public), and 0 when
// every batch is full.
func (g SGD) PartialBatch() int64 { return (g.N + g.Public) % g.batch() }

// LogContraction returns ln of the Lipschitz constant c_eff that every step
// of the run is known to have, the one the closed forms use at every step.
// A full step maps w to w − (η/b)Σ∇f(w, x_i) over b records: a gradient
// step of size η/b on a bm-strongly convex, bβ-smooth sum, so it is
// c-Lipschitz with c = max(|1 − ηm|, |1 − ηβ|) (Loss.LogContraction). The
// last step of a pass with b′ < b records still divides by b: it is a
// gradient step of size ηb′/b on a sum of b′ losses, c′-Lipschitz with
// c′ = max(|1 − ηm·b′/b|, |1 − ηβ·b′/b|), which is above c when 1 − ηm
// dominates (docs/amplification.md#a-smaller-last-batch). Every step is
// then c_eff = max(c, c′)-Lipschitz. It equals Loss.LogContraction() when
// b divides N + Public or the loss is not strongly convex (c = c′ = 1).
func (g SGD) LogContraction() float64 {
	lc := g.Loss.LogContraction()
	r := g.PartialBatch()
	if lc == 0 || r == 0 {
		return lc
	}
	return math.Max(lc, g.partialLoss(r).LogContraction())
}

// partialLoss is the loss with the step size ηb′/b of a batch of b′
// records divided by b: its LogContraction is ln c′.
func (g SGD) partialLoss(size int64) Loss {
	l := g.Loss
	l.Eta = l.Eta * float64(size) / float64(g.batch())
	return l
}

// Contraction returns c_eff = exp(LogContraction()).
func (g SGD) Contraction() float64 { return math.Exp(g.LogContraction()) }

func (g SGD) epochs() int64 { return max(g.Epochs, 1) }

// StepsPerEpoch returns M = ⌈(N + Public)/Batch⌉.
func (g SGD) StepsPerEpoch() int64 {
	b := g.batch()
	return (g.N + g.Public + b - 1) / b
}

// Len returns N.
func (g SGD) Len() int64 { return g.N }

// Monotone returns +1: later records are less protected.
func (g SGD) Monotone() int { return 1 }

// Check validates the parameters and the contraction assumption.
func (g SGD) Check() error {
	if err := g.checkCounts(); err != nil {
		return err
	}
	return g.Loss.Check()
}

func (g SGD) checkCounts() error {
	if err := checkN(g.N); err != nil {
		return err
	}
	if g.Public < 0 || g.Public > MaxN {
		return fmt.Errorf("public records must be in [0, %d], got %d", MaxN, g.Public)
	}
	if g.Batch < 0 || g.Batch > g.N+g.Public {
		return fmt.Errorf("batch size must be in [1, %d] (the records in a pass), got %d", g.N+g.Public, g.Batch)
	}
	if g.Epochs < 0 || g.Epochs > MaxN {
		return fmt.Errorf("epochs must be in [1, %d], got %d", MaxN, g.Epochs)
	}
	if float64(g.epochs())*float64(g.StepsPerEpoch()) > float64(MaxSteps) {
		return fmt.Errorf("epochs × steps per epoch = %g exceeds %d steps", float64(g.epochs())*float64(g.StepsPerEpoch()), MaxSteps)
	}
	if err := finitePositive("noise σ", g.Sigma); err != nil {
		return err
	}
	return finitePositive("Lipschitz constant L", g.Loss.Lipschitz)
}

// batchOf returns the step j (1-based, within an epoch) that processes
// position t, and the divisor of its batch's gradient sum: the nominal batch
// size b for every step, the last (possibly smaller) one of a pass included.
// That is what DP-SGD does (it divides the clipped sum by the expected batch
// size), and it keeps every step's sensitivity at 2ηL/b; dividing a last
// batch of 96 by 96 instead of by b = 256 would lower its effective noise
// multiplier from σb/L to σ·96/L.
func (g SGD) batchOf(t int64) (j, size int64) {
	b := g.batch()
	return (t-1)/b + 1, b
}

// logKappa returns ln(s²/(2v)) = ln(2L²/(b_j²σ²)) for a record in a batch of
// the given size: the zCDP of one Gaussian step that uses it.
func (g SGD) logKappa(size int64) float64 {
	return math.Ln2 + 2*math.Log(g.Loss.Lipschitz) - 2*math.Log(float64(size)) - 2*math.Log(g.Sigma)
}

// lnGeomRatio returns ln((1 − e^{a·l})/(1 − e^{b·l})) for l < 0.
func lnGeomRatio(a, b, l float64) float64 {
	return math.Log(-math.Expm1(a*l)) - math.Log(-math.Expm1(b*l))
}

// logF returns ln F, the allocation geometry of the doc comment, for a
// record in step j of M per epoch, E epochs, contraction e^{lc}.
func logF(j, M, E int64, lc float64) float64 {
	jf, Mf, Ef := float64(j), float64(M), float64(E)
	switch {
	case lc == 0:
		return math.Log((Ef-1)/Mf + 1/(Mf-jf+1))
	case math.IsInf(lc, -1):
		// c = 0: the last map forgets everything before the last step.
		if j == M {
			return 0
		}
		return math.Inf(-1)
	}
	// One segment from the first participation to the end.
	lsA := (Mf-jf)*lc + lnGeomRatio(Ef*Mf, Mf, lc)
	lvA := lnGeom(Ef*Mf-jf+1, 2*lc)
	fA := 2*lsA - lvA
	if E == 1 {
		return fA
	}
	// Two segments: to the last participation's corner, then to the end.
	ls1 := (2*Mf-jf)*lc + lnGeomRatio((Ef-1)*Mf, Mf, lc)
	lv1 := 2*(Mf-jf+1)*lc + lnGeom((Ef-1)*Mf, 2*lc)
	ls2 := (Mf - jf) * lc
	lv2 := lnGeom(Mf-jf+1, 2*lc)
	if ls1-lv1 <= ls2-lv2 {
		return numeric.LogAdd(2*ls1-lv1, 2*ls2-lv2)
	}
	return fA
}

// logFPlan is logF for one (M, E, c) with the terms that do not depend on
// the record's step j computed once; at(j) performs the remaining
// operations of logF in the same order, so its values are logF's.
type logFPlan struct {
	M, E             int64
	lc               float64
	rA, r1, lv1, den float64
}

func newLogFPlan(M, E int64, lc float64) logFPlan {
	p := logFPlan{M: M, E: E, lc: lc}
	if lc == 0 || math.IsInf(lc, -1) {
		return p
	}
	Mf, Ef := float64(M), float64(E)
	p.rA = lnGeomRatio(Ef*Mf, Mf, lc)
	p.den = math.Log(-math.Expm1(2 * lc))
	if E > 1 {
		p.r1 = lnGeomRatio((Ef-1)*Mf, Mf, lc)
		p.lv1 = lnGeom((Ef-1)*Mf, 2*lc)
	}
	return p
}

func (p logFPlan) at(j int64) float64 {
	lc := p.lc
	if lc == 0 || math.IsInf(lc, -1) {
		return logF(j, p.M, p.E, lc)
	}
	jf, Mf, Ef := float64(j), float64(p.M), float64(p.E)
	lsA := (Mf-jf)*lc + p.rA
	lvA := geomDen(Ef*Mf-jf+1, 2*lc, p.den)
	fA := 2*lsA - lvA
	if p.E == 1 {
		return fA
	}
	ls1 := (2*Mf-jf)*lc + p.r1
	lv1 := 2*(Mf-jf+1)*lc + p.lv1
	ls2 := (Mf - jf) * lc
	lv2 := geomDen(Mf-jf+1, 2*lc, p.den)
	if ls1-lv1 <= ls2-lv2 {
		return numeric.LogAdd(2*ls1-lv1, 2*ls2-lv2)
	}
	return fA
}

// LogRho returns ln ρ_t for index t ∈ [1, N] (see the type's doc comment).
// It is finite even where ρ_t underflows (c < 1, early indices). When the
// smaller last batch of a pass contracts less than the full ones (c′ > c)
// the closed form uses c_eff = c′ at every step (LogContraction); on runs
// short enough (exactPartial) it is also Theorem 22 solved on the per-step
// schedule (Schedule: c′ only at the last step of each pass), and the
// smaller of the two bounds is returned.
func (g SGD) LogRho(t int64) float64 {
	j, size := g.batchOf(t)
	lr := g.logKappa(size) + logF(j, g.StepsPerEpoch(), g.epochs(), g.LogContraction())
	if g.exactPartial() {
		if sol, err := Solve(g.Schedule(t)); err == nil && sol.LogK < lr {
			lr = sol.LogK
		}
	}
	return lr
}

// Limits of exactPartial: Solve on a schedule of about 4E runs per index,
// and M·E ≤ 2^18 steps (EpsilonsAll solves one schedule per step of a pass,
// the indices of a batch sharing it: about 1 s at most on 2 cores).
const (
	exactPartialEpochs = 64
	exactPartialSteps  = 1 << 18
)

// exactPartial reports whether LogRho also solves the per-step schedule:
// the last batch of a pass is smaller and contracts less (c′ > c), and the
// run has at most exactPartialEpochs passes and exactPartialSteps steps. It
// depends on the run only (not on σ or the index), so ρ_t stays ∝ 1/σ² and
// every path (one index, all indices, the planner) gives the same value.
func (g SGD) exactPartial() bool {
	return g.LogContraction() != g.Loss.LogContraction() && g.epochs() <= exactPartialEpochs &&
		g.epochs()*g.StepsPerEpoch() <= exactPartialSteps
}

// Rho returns ρ_t.
func (g SGD) Rho(t int64) float64 { return math.Exp(g.LogRho(t)) }

// Curve returns the zCDP curve α·ρ_t.
func (g SGD) Curve(t int64) rdp.Curve { return rdp.Linear(g.Rho(t)) }

// Schedule returns the contractive noisy iteration of index t for Solve, as
// the algorithm runs it: E·M steps of variance η²σ², contraction c at the
// full steps and c′ at the last step of each pass when its batch is smaller
// (SGD.LogContraction), and sensitivity 2ηL/b at the steps that use the
// record (η = Loss.Eta, or 1 when not given: ρ does not depend on η once
// the contractions are fixed). LogRho is Theorem 22 on uniformSchedule (c_eff
// at every step), never below Solve on this schedule.
func (g SGD) Schedule(t int64) Schedule {
	c, cLast := g.Loss.Contraction(), g.Loss.Contraction()
	if r := g.PartialBatch(); r > 0 {
		cLast = g.partialLoss(r).Contraction()
	}
	return g.schedule(t, c, cLast)
}

// uniformSchedule is the schedule whose Theorem 22 value LogRho is: c_eff at
// every step.
func (g SGD) uniformSchedule(t int64) Schedule {
	c := g.Contraction()
	return g.schedule(t, c, c)
}

func (g SGD) schedule(t int64, c, cLast float64) Schedule {
	eta := g.Loss.Eta
	if eta == 0 {
		eta = 1
	}
	j, size := g.batchOf(t)
	M := g.StepsPerEpoch()
	v := eta * eta * g.Sigma * g.Sigma
	s := 2 * eta * g.Loss.Lipschitz / float64(size)
	var sch Schedule
	for e := int64(0); e < g.epochs(); e++ {
		sch = sch.Append(Step{Variance: v, Contraction: c}, j-1)
		if j == M {
			sch = sch.Append(Step{Variance: v, Contraction: cLast, Sensitivity: s}, 1)
			continue
		}
		sch = sch.Append(Step{Variance: v, Contraction: c, Sensitivity: s}, 1)
		sch = sch.Append(Step{Variance: v, Contraction: c}, M-j-1)
		sch = sch.Append(Step{Variance: v, Contraction: cLast}, 1)
	}
	return sch
}

// Source names the theorem behind ρ_t.
func (g SGD) Source() string {
	plain := g.batch() == 1 && g.epochs() == 1 && g.LogContraction() == 0
	var feats []string
	if g.batch() > 1 {
		feats = append(feats, "minibatch")
	}
	if e := g.epochs(); e > 1 {
		if e <= g.N && g.batch() == 1 && g.Public == 0 {
			feats = append(feats, fmt.Sprintf("%d fixed-order passes, below Thm 35's 4αL²/σ²", e))
		} else {
			feats = append(feats, fmt.Sprintf("%d fixed-order passes (Thm 35's setting generalised)", e))
		}
	}
	if g.LogContraction() < 0 {
		feats = append(feats, "strongly convex, contraction c < 1")
		if g.LogContraction() != g.Loss.LogContraction() {
			feats = append(feats, fmt.Sprintf("the smaller last batch of a pass (%d of %d records) contracts by c′ = %.6g > c, used at every step", g.PartialBatch(), g.batch(), g.Contraction()))
		}
	}
	src := "FMTT18 Thm 23"
	if !plain {
		src = "derived from FMTT18 Thm 22 (" + strings.Join(feats, "; ") + "; derivation: docs/amplification.md §Fixed-order noisy SGD)"
	}
	if g.Public > 0 {
		src += fmt.Sprintf("; %d public records at the end (Cor 31)", g.Public)
	}
	return src
}

// Assumptions lists the assumptions of the analysis.
func (g SGD) Assumptions() []string {
	out := []string{
		"replace-one neighbours: the datasets differ in the record at the given position",
		"only the final iterate is released; intermediate iterates stay secret",
		"records processed in a fixed order; " + g.noiseAssumption(),
	}
	if g.Public > 0 {
		out = append(out, fmt.Sprintf("the %d public records follow the private ones in every pass and need no protection", g.Public))
	}
	out = append(out, g.Loss.assumptions()...)
	if r := g.PartialBatch(); r > 0 && g.Loss.LogContraction() < 0 {
		cp := g.partialLoss(r).Contraction()
		use := "c′ ≤ c: every step is c-Lipschitz"
		if g.LogContraction() != g.Loss.LogContraction() {
			use = fmt.Sprintf("c′ > c, so the bound uses c_eff = c′ = %.10g at every step", cp)
		}
		out = append(out, fmt.Sprintf("the last step of each pass has b′ = %d < b = %d records and divides by b: a gradient step of size ηb′/b, c′-Lipschitz with c′ = max(|1 − ηm·b′/b|, |1 − ηβ·b′/b|) = %.10g; %s (docs/amplification.md §A smaller last batch)", r, g.batch(), cp, use))
	}
	return out
}

// noiseAssumption describes the noisy step the analysis accounts: the noise
// is added to the batch's gradient sum divided by the nominal b, the last,
// smaller batch of a pass included.
func (g SGD) noiseAssumption() string {
	if g.batch() == 1 {
		return fmt.Sprintf("each step adds N(0, σ²I) noise (σ = %v) to the gradient of its one record: w ← Π_K(w − η(∇f(w, x) + Z))", g.Sigma)
	}
	s := fmt.Sprintf("each step adds N(0, σ²I) noise (σ = %v) to the sum of its batch's gradients divided by the nominal batch size b = %d: w ← Π_K(w − η((1/b)Σ_{i∈batch} ∇f(w, x_i) + Z))", g.Sigma, g.batch())
	if r := g.PartialBatch(); r > 0 {
		s += fmt.Sprintf("; the last batch of a pass has %d records and its sum is divided by b = %d as well, not by %d", r, g.batch(), r)
	}
	return s
}

// CompositionLogRho returns ln of the zCDP of index t when every iterate is
// released: the E Gaussian steps that use the record, composed (FMTT18
// Lemma 27 for E = b = 1; Mironov 2017 Prop. 1). It needs neither smoothness
// nor contraction.
func (g SGD) CompositionLogRho(t int64) float64 {
	_, size := g.batchOf(t)
	return g.logKappa(size) + math.Log(float64(g.epochs()))
}
