package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 22, hole 3 through the CLI: a CSV x,y of 2051 rows "1,1" and the
// same with the first label −1 are replace-one neighbours. bst14-expmech
// refused one ("density span e^700") and released θ on the other; now both
// exit alike in every output format, and every CSV row that is not measured
// is the same.
func TestExpMechNeighboursCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("two runs on 2051 records per format")
	}
	dir := t.TempDir()
	rows := strings.Repeat("1,1\n", 2051)
	a, b := filepath.Join(dir, "a", "d.csv"), filepath.Join(dir, "b", "d.csv")
	for p, body := range map[string]string{a: rows, b: "1,-1\n" + rows[4:]} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x,y\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, alg := range [][]string{{"--algorithm", "bst14-expmech"}, {"--algorithm", "bst14-localize", "--l2", "0.1"}} {
		for _, mode := range []string{"", "--json", "--csv"} {
			args := func(path string) []string {
				x := append([]string{"run", "--data", path, "--label", "y", "--feature-bound", "1", "--target-epsilon", "1", "--quiet"}, alg...)
				if mode != "" {
					x = append(x, mode)
				}
				return x
			}
			outA, errA, codeA := runCLI(args(a)...)
			outB, errB, codeB := runCLI(args(b)...)
			if codeA != codeB || codeA == 2 {
				t.Errorf("%v %s: exit %d / %d (%s / %s): want the same release decision on neighbours", alg, mode, codeA, codeB, errA, errB)
			}
			if mode != "--csv" {
				continue
			}
			la, lb := strings.Split(outA, "\n"), strings.Split(outB, "\n")
			for i := 0; i < min(len(la), len(lb)); i++ {
				if la[i] == "" || strings.HasPrefix(la[i], "table,") {
					break // the checks table follows (the long CSV format's "table" rows): measured values against derived bounds
				}
				if la[i] != lb[i] && !strings.Contains(la[i], ",measured,") {
					t.Errorf("%v: row %d differs between neighbours and is not measured:\n%s\n%s", alg, i+1, la[i], lb[i])
				}
			}
		}
	}
}

// Issue 22, hole 9: with declared centres and scales (--scaling) the run
// certifies the raw records, and says so; with --standardize it says the
// certificate covers the standardized records only; both together are
// refused.
func TestScalingCertifiesRawRecords(t *testing.T) {
	base := []string{"run", "--data", "../../testdata/breast_cancer.csv", "--label", "malignant", "--normalize", "--variant", "pnsgd", "--quiet"}
	out, errs, code := runCLI(append(base, "--scaling", "../../testdata/breast_cancer.scale.csv")...)
	if code != 0 || !strings.Contains(out, "the certificate covers the raw records") || strings.Contains(out, "standardized records only") {
		t.Errorf("--scaling: exit %d, %s\n%s", code, errs, out)
	}
	out, _, code = runCLI(append(base, "--standardize")...)
	if code != 0 || !strings.Contains(out, "standardized records only") {
		t.Errorf("--standardize: exit %d\n%s", code, out)
	}
	_, errs, code = runCLI(append(base, "--standardize", "--scaling", "../../testdata/breast_cancer.scale.csv")...)
	if code != 2 || !strings.Contains(errs, "--scaling") {
		t.Errorf("both: exit %d, %s", code, errs)
	}
	_, errs, code = runCLI(append(base, "--scaling", "../../README.md")...)
	if code != 2 || !strings.Contains(errs, "--scaling") || !strings.Contains(errs, "feature,center,scale") {
		t.Errorf("a bad scaling file: exit %d, %s", code, errs)
	}
}
