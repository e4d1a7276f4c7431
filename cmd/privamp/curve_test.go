package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// curveCSV parses curve's flags args (no root, no computation), then runs
// the computation on the options: the CSV and the comments on stderr.
func curveCSV(t *testing.T, args ...string) (string, string) {
	t.Helper()
	o := mustParse(t, newCurveCmd, args...)
	a, out, errw := testApp(false)
	a.quiet, o.IO = false, a
	if err := curveRun(o); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return out.String(), errw.String()
}

// curve's flags: the variants in order, --all as every index, --no-sampling.
func TestCurveFlags(t *testing.T) {
	o := mustParse(t, newCurveCmd, "--n", "100", "--sigma", "2", "--variants", "stop, skip,pnsgd", "--points", "7", "--plot", "c.svg")
	if !reflect.DeepEqual(o.Variants, []shifted.Variant{shifted.VariantStop, shifted.VariantSkip, shifted.VariantPNSGD}) || o.Points != 7 || o.NoSampling || o.Plot != "c.svg" || !reflect.DeepEqual(o.ampRun, ampDefaults(100, 2)) {
		t.Errorf("curve options %+v", o)
	}
	if o := mustParse(t, newCurveCmd, "--n", "100", "--sigma", "2", "--all", "--no-sampling"); o.Points != 0 || !o.NoSampling || len(o.Variants) != 1 {
		t.Errorf("curve --all options %+v", o)
	}
	refused(t, newCurveCmd, "only one", "--n", "100", "--sigma", "2", "--all", "--points", "3")
	refused(t, newCurveCmd, "--plot", "--n", "100", "--sigma", "2", "--plot", "x.pdf")
	refused(t, newCurveCmd, "--variants epochs was removed", "--n", "100", "--sigma", "2", "--variants", "pnsgd,epochs")
}

func TestCurveCSV(t *testing.T) {
	out, errs := curveCSV(t, "--n", "5000", "--sigma", "3", "--variants", "pnsgd,skip,stop", "--points", "20")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"index", "steps_to_end", "epsilon_pnsgd", "epsilon_skip", "epsilon_stop", "epsilon_sampling_replace_one"}
	if strings.Join(recs[0], ",") != strings.Join(want, ",") {
		t.Fatalf("header %v", recs[0])
	}
	if len(recs) < 15 || len(recs) > 40 {
		t.Fatalf("%d rows", len(recs))
	}
	g := shifted.SGD{N: 5000, Sigma: 3, Loss: shifted.Loss{Lipschitz: 1}}
	for _, r := range recs[1:] {
		idx, _ := strconv.ParseInt(r[0], 10, 64)
		m, _ := strconv.ParseInt(r[1], 10, 64)
		if m != 5000-idx+1 {
			t.Fatalf("steps_to_end %d for index %d", m, idx)
		}
		e, _ := strconv.ParseFloat(r[2], 64)
		want, _ := rdp.LinearEpsilon(g.Rho(idx), 1e-5, rdp.Improved)
		if !ampClose(e, want, 1e-8) {
			t.Errorf("index %d: %g, want %g", idx, e, want)
		}
	}
	// Sources and assumptions go to stderr as comments.
	if !strings.Contains(errs, "# epsilon_stop (Stop-PNSGD): FMTT18 Thm 26") || !strings.Contains(errs, "assumes:") {
		t.Errorf("stderr:\n%s", errs)
	}
	_, errs, _ = runCLI("curve", "--n", "50", "--sigma", "3", "--quiet") // the wiring of --quiet, end to end
	if errs != "" {
		t.Errorf("--quiet printed %q", errs)
	}
}

// Hole 10 (issue 9): the pnsgd column meant 5 passes alone and 1 pass when
// "epochs" was also listed. Now every column is the run the flags describe,
// whatever else is listed: pnsgd with --epochs 5 is 5 passes, beside skip
// (1 pass, as the flags say) it is 1 pass, and skip with --epochs 5 is
// refused rather than drawn as another run.
func TestCurveColumnOneMeaning(t *testing.T) {
	column := func(variants, epochs string) map[int64]float64 {
		out, _ := curveCSV(t, "--n", "1000", "--sigma", "2", "--variants", variants, "--epochs", epochs, "--points", "5")
		recs, _ := csv.NewReader(strings.NewReader(out)).ReadAll()
		if recs[0][2] != "epsilon_pnsgd" {
			t.Fatalf("header %v", recs[0])
		}
		col := map[int64]float64{}
		for _, r := range recs[1:] {
			idx, _ := strconv.ParseInt(r[0], 10, 64)
			col[idx], _ = strconv.ParseFloat(r[2], 64)
		}
		return col
	}
	for _, c := range []struct {
		variants, epochs string
		run              shifted.SGD
	}{
		{"pnsgd", "5", shifted.SGD{N: 1000, Epochs: 5, Sigma: 2, Loss: shifted.Loss{Lipschitz: 1}}},
		{"pnsgd", "1", shifted.SGD{N: 1000, Sigma: 2, Loss: shifted.Loss{Lipschitz: 1}}},
		{"pnsgd,skip,stop", "1", shifted.SGD{N: 1000, Sigma: 2, Loss: shifted.Loss{Lipschitz: 1}}},
	} {
		for idx, e := range column(c.variants, c.epochs) {
			w, _ := shifted.Epsilon(c.run, idx, 1e-5, rdp.Improved)
			if !ampClose(e, w.Epsilon, 1e-12) {
				t.Errorf("--variants %s --epochs %s, index %d: %g, want %g", c.variants, c.epochs, idx, e, w.Epsilon)
			}
		}
	}
	for _, c := range []struct{ variants, want string }{
		{"pnsgd,stop", "--epochs must be 1 for the stop variant"},
		{"pnsgd,epochs", "--variants epochs was removed: use --variants pnsgd --epochs E"},
	} {
		_, errs, code := runCLI("curve", "--n", "1000", "--sigma", "2", "--variants", c.variants, "--epochs", "5")
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d: %s", c.variants, code, errs)
		}
	}
}

func TestCurveAll(t *testing.T) {
	t.Parallel() // no run(): touches no package-level state (atomicfile.Stdout, working directory)
	out, _ := curveCSV(t, "--n", "3000", "--sigma", "2", "--variants", "pnsgd,stop", "--all", "--no-sampling")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 3001 || len(recs[0]) != 4 {
		t.Fatalf("%d rows, err %v", len(recs), err)
	}
	g := shifted.Stop{N: 3000, Sigma: 2, Loss: shifted.Loss{Lipschitz: 1}}
	for _, idx := range []int64{1, 1500, 3000} {
		e, _ := strconv.ParseFloat(recs[idx][3], 64)
		want, _ := shifted.Epsilon(g, idx, 1e-5, rdp.Improved)
		if !ampClose(e, want.Epsilon, 1e-6) {
			t.Errorf("stop index %d: %g, want %g", idx, e, want.Epsilon)
		}
	}
	o := mustParse(t, newCurveCmd, "--n", "100", "--sigma", "2", "--all")
	obj := runJSONOf(t, func(a *app) error { o.IO = a; return curveRun(o) })
	cols := obj["columns"].([]any)
	if len(obj["index"].([]any)) != 100 || obj["sampling"] == nil || obj["command"] != "curve" || len(cols) != 1 {
		t.Fatalf("%v", obj)
	}
	col := cols[0].(map[string]any)
	g1 := shifted.SGD{N: 100, Sigma: 2, Loss: shifted.Loss{Lipschitz: 1}}
	e100, _ := shifted.Epsilon(g1, 100, 1e-5, rdp.Improved)
	if eps := col["epsilon"].([]any); col["column"] != "epsilon_pnsgd" || len(eps) != 100 || !ampClose(eps[99].(float64), e100.Epsilon, 1e-9) {
		t.Fatalf("%v", col)
	}
}

func TestCurvePlot(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{"png", "svg"} {
		path := filepath.Join(dir, "curve."+ext)
		_, errs, code := runCLI("curve", "--n", "1000", "--sigma", "3", "--variants", "pnsgd,skip,stop", "--plot", path, "--quiet")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if ext == "png" && !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
			t.Error("not a PNG")
		}
		if ext == "svg" && !bytes.Contains(data, []byte("<svg")) {
			t.Error("not an SVG")
		}
	}
	// Nothing half-written: a failed write leaves no file and no temporary.
	bad := filepath.Join(dir, "missing", "curve.png")
	_, errs, code := runCLI("curve", "--n", "100", "--sigma", "3", "--plot", bad, "--quiet")
	if code == 0 || !strings.Contains(errs, "curve.png") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Fatal("file written despite the error")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".privamp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	// An existing file is replaced whole.
	path := filepath.Join(dir, "curve.png")
	before, _ := os.ReadFile(path)
	if _, _, code := runCLI("curve", "--n", "20", "--sigma", "3", "--plot", path, "--quiet"); code != 0 {
		t.Fatal(code)
	}
	after, _ := os.ReadFile(path)
	if bytes.Equal(before, after) || !bytes.HasPrefix(after, []byte("\x89PNG")) {
		t.Error("plot not replaced")
	}
}

func TestCurveBadInput(t *testing.T) {
	base := []string{"curve", "--n", "1000", "--sigma", "2"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(base, "--plot", "x.pdf"), "--plot"},
		{append(base, "--points", "1"), "--points"},
		{append(base, "--all", "--points", "10"), "only one"},
		{append(base, "--variants", "pnsgd,nope"), "--variants must be one of"},
		{append(base, "--variants", ","), "--variants"},
		{append(base, "--variants", "pnsgd,pnsgd"), "--variants must list each variant once"},
		{[]string{"curve", "--n", "1e9", "--sigma", "2", "--all"}, "--n must be ≤ 200000000 to list every index"},
		{[]string{"curve", "--n", "2e6", "--sigma", "2", "--all", "--json"}, "--json"},
		{append(base, "--eta", "3", "--smoothness", "1"), "does not contract"},
		{append(base, "--variants", "stop,skip", "--batch", "10"), "--batch must be 1"},
		{append(base, "--variants", "pnsgd", "--tasks", "2"), "--tasks must be 1"},
	} {
		_, errs, code := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
}
