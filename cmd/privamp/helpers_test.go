package main

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func parse(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// The two kinds of command test (gh's pattern): parseFlags runs only a
// command's flag parsing and combination checks, with a runF that records
// the options and computes nothing; the computation tests call a command's
// xRun with options built in Go (runOut, runJSON).

// parseFlags builds the command with newCmd, executes it on args with a
// runF that records the options, and returns them (nil when the flags were
// refused) with the error. It computes nothing.
func parseFlags[O any](newCmd func(*app, func(*O) error) *cobra.Command, args ...string) (*O, error) {
	var got *O
	a := &app{out: io.Discard, errw: io.Discard}
	cmd := newCmd(a, func(o *O) error { got = o; return nil })
	cmd.SetArgs(append([]string{}, args...)) // never nil: cobra reads os.Args for nil
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	completeEnums(cmd) // integer flags read 1e3, as under the root
	err := cmd.Execute()
	return got, err
}

// mustParse is parseFlags for flags that must be accepted.
func mustParse[O any](t *testing.T, newCmd func(*app, func(*O) error) *cobra.Command, args ...string) *O {
	t.Helper()
	o, err := parseFlags(newCmd, args...)
	if err != nil || o == nil {
		t.Fatalf("%v: %v", args, err)
	}
	return o
}

// refused checks that the flags args are refused as bad input (exit status
// 2) with a message naming mention, before anything is computed.
func refused[O any](t *testing.T, newCmd func(*app, func(*O) error) *cobra.Command, mention string, args ...string) {
	t.Helper()
	o, err := parseFlags(newCmd, args...)
	if o != nil || err == nil {
		t.Errorf("%v: accepted, want refused naming %s", args, mention)
		return
	}
	var ie *inputError
	if !errors.As(err, &ie) && exitCode(err) != exitBadInput {
		t.Errorf("%v: %v is not bad input (exit %d)", args, err, exitCode(err))
	}
	if !strings.Contains(err.Error(), mention) {
		t.Errorf("%v: %q does not name %s", args, err, mention)
	}
}

// testApp returns an app that writes to buffers, in JSON when json is set.
func testApp(json bool) (*app, *bytes.Buffer, *bytes.Buffer) {
	var out, errw bytes.Buffer
	a := &app{out: &out, errw: &errw, quiet: true}
	a.mode.json = json
	return a, &out, &errw
}

// runOut calls a command's run function with its text output and returns it.
func runOut(t *testing.T, run func(a *app) error) string {
	t.Helper()
	a, out, _ := testApp(false)
	if err := run(a); err != nil {
		t.Fatalf("exit %d: %v", exitCode(err), err)
	}
	return out.String()
}

// runJSONOf calls a command's run function with --json output and returns
// the one object it printed (its keys checked as jsonOf checks them).
func runJSONOf(t *testing.T, run func(a *app) error) map[string]any {
	t.Helper()
	a, out, _ := testApp(true)
	if err := run(a); err != nil {
		t.Fatalf("exit %d: %v", exitCode(err), err)
	}
	return decodeOne(t, out.String())
}

// withFlags returns base with the flags of extra ("--name value" pairs, or
// "--name" alone before another flag or at the end) set: a flag already in
// base gets extra's value in place, others are appended. A flag may be
// given once on a command line (issue 27), so tests that vary one flag of
// a base command line replace it rather than repeat it.
func withFlags(base []string, extra ...string) []string {
	out := append([]string(nil), base...)
	for i := 0; i < len(extra); i++ {
		name, val, hasVal := extra[i], "", i+1 < len(extra) && !strings.HasPrefix(extra[i+1], "--")
		if hasVal {
			val, i = extra[i+1], i+1
		}
		j := slices.Index(out, name)
		switch {
		case j < 0 && hasVal:
			out = append(out, name, val)
		case j < 0:
			out = append(out, name)
		case hasVal:
			out[j+1] = val
		}
	}
	return out
}
