// Command genpeople writes the people CSV that BENCHMARKS.md's plan and
// verify rows at 10⁷ people are measured on: "person-i,ε," for i = 0..n−1
// with ε ∈ {0.1, 1, 4} in shares 1%, 9%, 90% (seeded, so every run writes the
// same file; the same rows as shifted/plan's writePeopleCSV benchmark helper).
//
//	go run ./bench/genpeople -n 10000000 > /tmp/people1e7.csv
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

func main() {
	n := flag.Int("n", 10_000_000, "number of people")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "genpeople: -n must be at least 1")
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	w.WriteString("id,epsilon,delta\n")
	r := rand.New(rand.NewPCG(1, 1))
	var buf []byte
	for i := 0; i < *n; i++ {
		e := "4"
		switch u := r.Float64(); {
		case u < 0.01:
			e = "0.1"
		case u < 0.1:
			e = "1"
		}
		buf = append(strconv.AppendInt(append(buf[:0], "person-"...), int64(i), 10), ',')
		buf = append(append(buf, e...), ",\n"...)
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "genpeople:", err)
		os.Exit(1)
	}
}
