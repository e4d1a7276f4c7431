package main

import "strconv"

func parse(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}
