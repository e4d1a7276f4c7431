package main

import "strconv"

func fmtFull(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func parse(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}
