package optimizer

import (
	"errors"
	"fmt"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// This file wires Accountant to package shifted, which owns every
// amplification-by-iteration bound (closed forms of FMTT18 Thm 23–35 with
// the sound repairs, and the Theorem 22 engine).

func init() { Accountant = shiftedPrivacy }

// Guarantee returns the shifted.Guarantee of a setting and the number of
// private indices it covers.
func Guarantee(s Setting) (shifted.Guarantee, error) {
	loss := shifted.Loss{Lipschitz: s.L, Smoothness: s.Beta, StrongConvexity: s.M, Eta: s.Eta}
	priv := int64(s.N - s.Public)
	if priv < 1 {
		return nil, errors.New("no private examples")
	}
	if s.Tasks > 1 && s.Variant != Stop {
		return nil, errors.New("k tasks (Thm 32) are analysed for Stop-PNSGD only")
	}
	if s.Variant != Final && (s.Batch > 1 || s.Epochs > 1) {
		return nil, fmt.Errorf("%s-PNSGD is analysed (Thm 24/26 and the mixtures of notes §3) for one pass with one example per step; got batch %d, epochs %d", s.Variant, s.Batch, s.Epochs)
	}
	var g shifted.Guarantee
	switch s.Variant {
	case Final:
		g = shifted.SGD{N: priv, Public: int64(s.Public), Batch: int64(s.Batch), Epochs: int64(s.Epochs), Sigma: s.Sigma, Loss: loss}
	case Skip:
		g = shifted.Skip{N: int64(s.N), Sigma: s.Sigma, Loss: loss}
	case Stop:
		st := shifted.Stop{N: int64(s.N), Sigma: s.Sigma, Loss: loss}
		g = st
		if s.Tasks > 1 {
			g = shifted.Tasks{Stop: st, K: int64(s.Tasks)}
		}
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	return g, nil
}

type shiftedPriv struct {
	g    shifted.Guarantee
	s    Setting
	priv int
}

func shiftedPrivacy(s Setting) (Privacy, error) {
	g, err := Guarantee(s)
	if err != nil {
		return nil, err
	}
	return &shiftedPriv{g: g, s: s, priv: s.N - s.Public}, nil
}

func (p *shiftedPriv) index(t int) error {
	if t < 1 || t > p.priv {
		return fmt.Errorf("index %d outside the private indices [1, %d]", t, p.priv)
	}
	return nil
}

func (p *shiftedPriv) Curve(t int) (rdp.Curve, error) {
	if err := p.index(t); err != nil {
		return nil, err
	}
	return p.g.Curve(int64(t)), nil
}

func (p *shiftedPriv) Epsilon(t int, delta float64) (float64, error) {
	c, err := p.Curve(t)
	if err != nil {
		return 0, err
	}
	dp, err := rdp.EpsilonFor(c, delta, rdp.Improved)
	if err != nil {
		return 0, err
	}
	return dp.Epsilon, nil
}

func (p *shiftedPriv) Worst(delta float64) (int, float64, error) {
	t := 1
	switch p.g.Monotone() {
	case 1:
		t = p.priv
	case -1, 0:
		t = 1
	}
	e, err := p.Epsilon(t, delta)
	return t, e, err
}

func (p *shiftedPriv) Source() string {
	src := p.g.Source()
	if p.s.Public > 0 && p.s.Variant != Final {
		src += fmt.Sprintf("; the last %d examples are public (Cor 31): only indices 1..%d are private", p.s.Public, p.priv)
	}
	return src
}

func (p *shiftedPriv) Assumptions() []string { return p.g.Assumptions() }
