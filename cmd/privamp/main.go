// Command privamp computes differential-privacy guarantees: RDP, zCDP and
// (ε, δ) accounting, DP-SGD, composition, calibration, and per-person
// privacy under amplification by iteration. Run "privamp help" for commands.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
