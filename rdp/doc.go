// Package rdp implements Rényi differential privacy (Mironov 2017): RDP
// curves ε(α) for the Gaussian, Laplace, pure-DP and Poisson-subsampled
// Gaussian mechanisms, their composition, conversion to (ε, δ)-DP, and
// calibration of noise for a target.
//
// A Curve is a function of the order α > 1. Analytic curves (closed forms and
// the subsampled Gaussian, which is computed exactly at any real order) can be
// evaluated anywhere; conversion then optimises over continuous α. Gridded
// curves are known at finitely many orders only; between grid points they are
// bounded by the value at the next order above, which is sound because D_α is
// non-decreasing in α (van Erven–Harremoës 2014, Thm 3).
//
// Every ε printed by privamp is an upper bound that a published proof
// supports: conversion evaluates a valid bound at each candidate order and
// keeps the smallest, so an imperfect optimiser can only cost tightness.
//
// Floating point never makes a value optimistic: every curve value and
// every conversion is at least the exact real value of its formula at the
// order it reports. Closed forms carry a running bound on their rounding
// error (numeric.Approx) and are rounded up; products and sums of curves
// round up exactly (numeric.MulUp, AddUp); the subsampled Gaussian sums
// A_α − 1 directly, so ln A_α = log1p(A_α − 1) has no cancellation however
// small the sampling rate; ln(1/δ) is taken with numeric.Log, right for
// subnormal δ. The tests check this against 200-bit evaluations
// (precision_test.go).
package rdp
