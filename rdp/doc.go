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
package rdp
