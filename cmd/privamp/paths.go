package main

import (
	"os"
	"path/filepath"
)

// checkOutputs refuses output files that would overwrite an input or each
// other, and outputs that are directories (issue 9, holes 6 and 11): bad
// input naming the flags. outs and ins are {flag, path} pairs; empty paths
// and "-" (standard input or output) are skipped.
func checkOutputs(outs, ins [][2]string) error {
	for i, o := range outs {
		if o[1] == "" || o[1] == "-" {
			continue
		}
		if fi, err := os.Stat(o[1]); err == nil && fi.IsDir() {
			return badInput("--%s %s is a directory; give a file name", o[0], o[1])
		}
		for _, in := range append(ins[:len(ins):len(ins)], outs[:i]...) {
			if samePath(o[1], in[1]) {
				return badInput("--%s %s is the --%s file: refusing to overwrite it", o[0], o[1], in[0])
			}
		}
	}
	return nil
}

// samePath reports whether two paths name the same file: equal once cleaned
// and made absolute, or the same existing file (links, other spellings).
func samePath(a, b string) bool {
	if a == "" || b == "" || a == "-" || b == "-" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ab {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
