package main

import (
	"math"
	"testing"

	"github.com/privamp/privamp/composition"
)

// convert's flags select one of five conversions; incomplete or
// contradictory combinations are refused before anything is computed.
func TestConvertFlags(t *testing.T) {
	for want, args := range map[composition.ConvertKind][]string{
		composition.RhoToEpsilon:      {"--rho", "0.5", "--delta", "1e-6"},
		composition.RhoToDelta:        {"--rho", "0.5", "--epsilon", "1"},
		composition.PointToEpsilon:    {"--order", "10", "--rdp-epsilon", "0.5", "--delta", "1e-5"},
		composition.PointToDelta:      {"--order", "10", "--rdp-epsilon", "0.5", "--epsilon", "2"},
		composition.EpsilonDeltaToRho: {"--epsilon", "1", "--delta", "1e-6"},
	} {
		if o := mustParse(t, newConvertCmd, args...); o.Kind != want {
			t.Errorf("%v: conversion %d, want %d", args, o.Kind, want)
		}
	}
	o := mustParse(t, newConvertCmd, "--order", "10", "--rdp-epsilon", "0.5", "--delta", "1e-5")
	if o.Order != 10 || o.RDPEpsilon != 0.5 || o.Delta != 1e-5 {
		t.Errorf("options %+v", o)
	}
	refused(t, newConvertCmd, "--rdp-epsilon", "--order", "2", "--delta", "0.1")
	refused(t, newConvertCmd, "--rho", "--order", "2", "--rdp-epsilon", "1", "--rho", "1", "--delta", "0.1")
	refused(t, newConvertCmd, "exactly one of --delta or --epsilon", "--rho", "1")
	refused(t, newConvertCmd, "exactly one of --delta or --epsilon", "--rho", "1", "--delta", "0.1", "--epsilon", "1")
	refused(t, newConvertCmd, "--rho")
	refused(t, newConvertCmd, "--rho", "--delta", "0.1")
}

func TestConvertRoundTrip(t *testing.T) {
	convert := func(o convertOptions) map[string]any {
		return runJSONOf(t, func(a *app) error { o.IO = a; return convertRun(&o) })
	}
	obj := convert(convertOptions{ConvertQuery: composition.ConvertQuery{Kind: composition.EpsilonDeltaToRho, Epsilon: 1, Delta: 1e-6}})
	if z := obj["noise_multiplier"].(float64); math.Abs(z-4.530877117)/4.530877117 > 1e-6 {
		t.Errorf("noise multiplier %v, dp_accounting 4.530877117", z)
	}
	rho := obj["rho"].(float64)
	if e := convert(convertOptions{ConvertQuery: composition.ConvertQuery{Kind: composition.RhoToEpsilon, Rho: rho, Delta: 1e-6}})["epsilon"].(float64); math.Abs(e-1) > 1e-6 {
		t.Errorf("round trip ε = %v", e)
	}
	if dd := convert(convertOptions{ConvertQuery: composition.ConvertQuery{Kind: composition.RhoToDelta, Rho: rho, Epsilon: 1}})["delta"].(float64); math.Abs(dd-1e-6)/1e-6 > 1e-4 {
		t.Errorf("round trip δ = %v", dd)
	}
	// the RDP point's two directions agree: ε at δ, then δ at that ε
	e := convert(convertOptions{ConvertQuery: composition.ConvertQuery{Kind: composition.PointToEpsilon, Order: 10, RDPEpsilon: 0.5, Delta: 1e-5}})["epsilon"].(float64)
	if dd := convert(convertOptions{ConvertQuery: composition.ConvertQuery{Kind: composition.PointToDelta, Order: 10, RDPEpsilon: 0.5, Epsilon: e}})["delta"].(float64); dd > 1e-5*(1+1e-6) {
		t.Errorf("RDP point: δ(ε(1e-5) = %v) = %v > 1e-5", e, dd)
	}
}
