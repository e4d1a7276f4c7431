package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/privamp/privamp/internal/flagconfig"
)

// TestRegistryNames checks that each registered name is its command's
// name: run builds only the command named on the command line (start-up
// time, issue 27), so a wrong name would make that command unknown.
func TestRegistryNames(t *testing.T) {
	for name, f := range registry {
		if got := f(&app{}).Name(); got != name {
			t.Errorf("registered as %q, but the command's name is %q", name, got)
		}
	}
}

// TestSubcommand checks which commands run builds for a command line.
func TestSubcommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"--json"}, "*"},
		{[]string{"--help"}, "*"},
		{[]string{"--version"}, "*"},
		{[]string{"version"}, "version"},
		{[]string{"--json", "gaussian", "--sigma", "1"}, "gaussian"},
		{[]string{"dpsgd", "--help"}, "dpsgd"},
		{[]string{"help", "dpsgd"}, "*"},
		{[]string{"completion", "bash"}, "*"},
		{[]string{"__complete", "dpsgd", ""}, "*"},
		{[]string{"gausian"}, "*"},
		{[]string{"--", "gaussian"}, "*"},
	} {
		if got := flagconfig.Subcommand(c.args, known); got != c.want {
			t.Errorf("Subcommand(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// TestLazyRootSameOutput checks that building one command gives the same
// output as building all of them, for a command's result, its help and a
// refused flag.
func TestLazyRootSameOutput(t *testing.T) {
	for _, args := range [][]string{
		{"gaussian", "--sigma", "2", "--delta", "1e-6"},
		{"laplace", "--help"},
		{"gaussian", "--sigma", "2", "--sigma", "3"},
		{"version", "--json"},
		{"version", "--help"},
		{"gaussian", "--version"},
		{"gaussian", "--sigma", "2", "--delta", "1e-6", "--csv"},
	} {
		var lazyOut, lazyErr, fullOut, fullErr bytes.Buffer
		lazy := runRoot(newRootFor(&app{out: &lazyOut, errw: &lazyErr}, flagconfig.Subcommand(args, known)), args, &lazyErr)
		full := runRoot(newRootFor(&app{out: &fullOut, errw: &fullErr}, "*"), args, &fullErr)
		if lazy != full || lazyOut.String() != fullOut.String() || lazyErr.String() != fullErr.String() {
			t.Errorf("%q: one command built: exit %d, %q %q; all built: exit %d, %q %q", args, lazy, lazyOut.String(), lazyErr.String(), full, fullOut.String(), fullErr.String())
		}
	}
}

// initTrace matches a line of GODEBUG=inittrace=1: a package's
// initialisation and the bytes it allocated.
var initTrace = regexp.MustCompile(`^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, ([0-9]+) bytes, ([0-9]+) allocs`)

// TestPackageInitsStaySmall runs this test binary again with
// GODEBUG=inittrace=1 and no test, so that only package initialisation runs,
// and bounds what privamp's own packages allocate there: every process pays
// it, whichever command it runs (issue 27, start-up). Bytes are counted, not
// time, so the check does not depend on the machine's load. The rate tables
// built at init (19.6 KB) failed it; a catalogue or cache needed by a few
// commands belongs in a sync.OnceValue.
func TestPackageInitsStaySmall(t *testing.T) {
	const perPackage, total = 8 << 10, 16 << 10
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	sum, seen := 0, 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		m := initTrace.FindStringSubmatch(line)
		// cmd/privamp itself is left out: in this binary it also holds the
		// tests' own package variables.
		if m == nil || !strings.HasPrefix(m[1], "github.com/privamp/privamp/") || m[1] == "github.com/privamp/privamp/cmd/privamp" {
			continue
		}
		seen++
		b, _ := strconv.Atoi(m[2])
		sum += b
		if b > perPackage {
			t.Errorf("package %s allocates %d bytes (%s allocations) at initialisation, above %d: make what few commands need lazy", m[1], b, m[3], perPackage)
		}
	}
	if seen < 5 {
		t.Fatalf("found %d privamp packages in the init trace: %q", seen, stderr.String())
	}
	if sum > total {
		t.Errorf("privamp's packages allocate %d bytes at initialisation, above %d", sum, total)
	}
	t.Logf("%d privamp packages allocate %d bytes at initialisation", seen, sum)
}

// TestMakeBuildIsStatic checks that make build keeps what BENCHMARKS.md's
// start-up figures rest on: CGO_ENABLED=0 (pflag links net, and net with cgo
// makes every start load libc through the dynamic linker) and -tags minimal
// (gonum/plot without the PDF, EPS and TeX writers privamp never offers).
func TestMakeBuildIsStatic(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	_, recipe, ok := strings.Cut(string(mk), "\nbuild:\n")
	recipe, _, _ = strings.Cut(recipe, "\n\n")
	if !ok || !strings.Contains(recipe, "CGO_ENABLED=0 ") || !strings.Contains(recipe, "-tags minimal") {
		t.Errorf("make build's recipe %q lacks CGO_ENABLED=0 or -tags minimal", recipe)
	}
}
