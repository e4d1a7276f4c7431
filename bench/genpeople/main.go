// Command genpeople writes the people CSV that BENCHMARKS.md's plan and
// verify rows at 10⁷ people are measured on: "person-i,ε," for i = 0..n−1
// with ε ∈ {0.1, 1, 4} in shares 1%, 9%, 90% (seeded, so every run writes the
// same file; package internal/benchdata, which shifted/plan's benchmarks use too).
//
//	go run ./bench/genpeople -n 10000000 > /tmp/people1e7.csv
package main

import (
	"flag"
	"fmt"
	"github.com/privamp/privamp/internal/benchdata"
	"os"
)

func main() {
	n := flag.Int("n", 10_000_000, "number of people")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "genpeople: -n must be at least 1")
		os.Exit(2)
	}
	if err := benchdata.WritePeople(os.Stdout, *n); err != nil {
		fmt.Fprintln(os.Stderr, "genpeople:", err)
		os.Exit(1)
	}
}
