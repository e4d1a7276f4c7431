package e2e

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/privamp/privamp/dp"
)

// moduleRoot is the repository's root (this package is web/e2e).
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root %s: %v", root, err)
	}
	return root
}

// cli runs the privamp binary and returns its standard output; want is the
// exit status expected.
func cli(t *testing.T, bin string, want int, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "COLUMNS=0") // tables unwrapped, as the README's examples are read
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("privamp %s: %v", strings.Join(args, " "), err)
	}
	if code != want {
		t.Fatalf("privamp %s: exit %d, want %d; stderr: %s", strings.Join(args, " "), code, want, e.String())
	}
	return o.String(), e.String()
}

// tableRows reads the box-drawn tables of the command line's output: the
// cells of every row, trimmed, keyed by their first cell.
func tableRows(out string) map[string][]string {
	rows := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "│") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "│"), "│") {
			cells = append(cells, strings.TrimSpace(c))
		}
		if _, dup := rows[cells[0]]; !dup {
			rows[cells[0]] = cells
		}
	}
	return rows
}

// args splits a command line the page shows (no quoting needed: the page
// quotes only words with other characters, and the test's inputs have none).
func args(t *testing.T, line string) []string {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "privamp" {
		t.Fatalf("the page's command line %q does not start with privamp", line)
	}
	return f[1:]
}

// TestPageInChromium builds the page and the command line, and checks the
// page in Chromium against the command line: the MNIST example it opens
// on, a calibration, a per-person curve with its bounded-domain curve, a
// plan from two tiers and its plan file, two bad values' messages and a
// non-default run set through the URL query. Each state is screenshot into
// web/e2e/artefacts.
func TestPageInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("builds privamp.wasm and drives Chromium: not under -short")
	}
	browser, drv, ok := browserPaths()
	if !ok {
		t.Skip("no chromium and chromium-driver found (Debian: apt-get install chromium chromium-driver; or set " +
			"PRIVAMP_CHROMIUM and PRIVAMP_CHROMEDRIVER): the planning page is not tested here")
	}
	root := moduleRoot(t)
	art := filepath.Join(root, "web", "e2e", "artefacts")
	dist := filepath.Join(art, "dist")
	if err := os.RemoveAll(art); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	goCmd := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		goCmd = "go"
	}
	start := time.Now()
	for _, c := range [][]string{{"run", "./web/build", "-o", dist}, {"build", "-o", filepath.Join(art, "privamp"), "./cmd/privamp"}} {
		cmd := exec.Command(goCmd, c...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(c, " "), err, out)
		}
	}
	bin := filepath.Join(art, "privamp")
	wasm, err := os.Stat(filepath.Join(dist, "privamp.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built the page and the command line in %v; privamp.wasm %.1f MB", time.Since(start).Round(time.Millisecond), float64(wasm.Size())/1e6)

	srv := httptest.NewServer(http.FileServer(http.Dir(dist)))
	defer srv.Close()
	d := startDriver(t, browser, drv, 1280, 2000)
	shot := func(name string) { d.screenshot(filepath.Join(art, name+".png")) }
	val := func(key string) string { return d.text(`#` + key) }
	rowVal := func(table, key string) string { return d.text(fmt.Sprintf(`#%s td.v[data-key="%s"]`, table, key)) }
	// done waits for a section's answer to the command line want.
	done := func(section, want string, timeout time.Duration) {
		t.Helper()
		d.wait(section+" answering "+want, `const s = document.getElementById(arguments[0]);
			return s.dataset.state === "done" && s.dataset.cmd === arguments[1];`, timeout, section, want)
	}

	// 1. The page opens on the MNIST example with its answer shown.
	d.get(srv.URL + "/")
	d.wait("privamp.wasm to load and answer", `return document.body.dataset.ready === "true";`, 30*time.Second)
	mnist := "privamp dpsgd --n 60000 --batch 256 --epochs 60 --noise 1.1 --delta 1e-5"
	if got := val("dpsgd-cmd"); got != mnist {
		t.Fatalf("the page opens on %q, want %q", got, mnist)
	}
	done("dpsgd", mnist, 5*time.Second)
	out, _ := cli(t, bin, 0, args(t, mnist)...)
	want := tableRows(out)
	if got := rowVal("dpsgd-rows", "epsilon"); got != "2.38178" || got != want["ε"][1] {
		t.Errorf("MNIST ε on the page %q, command line %q, want 2.38178", got, want["ε"][1])
	}
	for key, label := range map[string]string{"rdp": "ε by RDP (beside)", "pld": "ε by PLD / optimistic estimate", "noise": "z (noise multiplier)"} {
		if got := rowVal("dpsgd-rows", key); got != want[label][1] {
			t.Errorf("MNIST %s: page %q, command line %q", label, got, want[label][1])
		}
	}
	d.wait("ε against epochs", `return document.getElementById("dpsgd").dataset.sweep === "done";`, 60*time.Second)
	var timings map[string]float64
	d.exec(`return window.privampTimings;`, &timings)
	// The MNIST answer again, three times on the page's main thread: the
	// first answer above also paid for the engine's warm-up.
	var again []float64
	d.exec(`const out = [];
		for (let i = 0; i < 3; i++) {
			const t0 = performance.now();
			privamp("dpsgd", JSON.stringify({n: 60000, batch: 256, epochs: 60, noise: 1.1, delta: 1e-5}));
			out.push(performance.now() - t0);
		}
		return out;`, &again)
	timings["dpsgd_again_min"] = min(again[0], again[1], again[2])
	shot("1-mnist")

	// 2. Calibrate the noise for ε = 3.
	d.exec(`const m = document.getElementById("mode"); m.value = "calibrate"; m.dispatchEvent(new Event("input", {bubbles: true}));`, nil)
	d.typeInto("#target", "3")
	calib := "privamp dpsgd --n 60000 --batch 256 --epochs 60 --target-epsilon 3 --delta 1e-5"
	done("dpsgd", calib, 20*time.Second)
	out, _ = cli(t, bin, 0, args(t, calib)...)
	want = tableRows(out)
	for key, label := range map[string]string{"noise": "z (noise multiplier)", "epsilon": "ε"} {
		if got := rowVal("dpsgd-rows", key); got != want[label][1] {
			t.Errorf("calibration %s: page %q, command line %q", label, got, want[label][1])
		}
	}
	var calT map[string]float64
	d.exec(`return window.privampTimings;`, &calT)
	timings["calibrate"] = calT["calibrate"]
	t.Logf("calibrated for ε = 3 in %.0f ms: z = %s, ε = %s", calT["calibrate"], want["z (noise multiplier)"][1], want["ε"][1])
	shot("2-calibrate")

	// 3. A per-person curve of 50 passes on a bounded domain, beside the
	// unbounded one and the sampling bound.
	// First a run cancelled at once (in the same turn of the page's event
	// loop, so the answer cannot have come): the section says so, and the
	// next run gets a new worker.
	d.exec(`document.getElementById("curve-go").click(); document.getElementById("curve-cancel").click();`, nil)
	if st, msg := d.text("#curve-status"), ""; st != "cancelled" {
		d.exec(`return document.getElementById("curve").dataset.state;`, &msg)
		t.Errorf("after cancel the curve's status is %q (state %q), want cancelled", st, msg)
	}
	for sel, v := range map[string]string{"#c-n": "1000", "#c-epochs": "50", "#c-radius": "0.1", "#c-eta": "0.05"} {
		d.typeInto(sel, v)
	}
	d.click("#curve-go")
	curveCmd := "privamp curve --n 1000 --sigma 4 --batch 1 --epochs 50 --delta 1e-5 --radius 0.1 --eta 0.05 --points 60"
	done("curve", curveCmd, 60*time.Second)
	lines := strings.Split(val("curve-cmd"), "\n")
	if len(lines) != 2 || lines[0] != curveCmd {
		t.Fatalf("curve command lines %q, want %q and the same without --radius", lines, curveCmd)
	}
	csvCol := func(line string) (first, last, sampling float64) {
		out, _ := cli(t, bin, 0, append(args(t, line), "--quiet")...)
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 3 {
			t.Fatalf("%s: CSV %v: %q", line, err, out)
		}
		col := func(rec []string, name string) float64 {
			for i, h := range recs[0] {
				if h == name {
					x, err := strconv.ParseFloat(rec[i], 64)
					if err != nil {
						t.Fatal(err)
					}
					return x
				}
			}
			t.Fatalf("%s: no column %s in %v", line, name, recs[0])
			return 0
		}
		return col(recs[1], "epsilon_pnsgd"), col(recs[len(recs)-1], "epsilon_pnsgd"), col(recs[1], "epsilon_sampling_replace_one")
	}
	first, last, samp := csvCol(lines[0])
	freeFirst, freeLast, _ := csvCol(lines[1])
	for key, x := range map[string]float64{"first-pnsgd": first, "last-pnsgd": last, "sampling": samp, "free-first-pnsgd": freeFirst, "free-last-pnsgd": freeLast} {
		if got, w := rowVal("curve-rows", key), dp.Loss(x).String(); got != w {
			t.Errorf("curve %s: page %q, command line %q", key, got, w)
		}
	}
	if first >= freeFirst {
		t.Errorf("the bounded-domain ε of the first record %v is not below the unbounded %v: the case shows nothing", first, freeFirst)
	}
	var paths int
	d.exec(`return document.querySelectorAll("#curve-plot svg path[data-series]").length;`, &paths)
	if paths != 3 {
		t.Errorf("the curve plot draws %d curves, want 3 (bounded, unbounded, sampling)", paths)
	}
	d.exec(`document.getElementById("curve").scrollIntoView();`, nil)
	shot("3-curve")

	// 4. A plan from two tiers, and its plan file.
	d.typeInto("#p-smoothness", "10")
	d.click("#plan-go")
	planCmd := "privamp plan --tier strict=0.1:0.5 --tier rest=0.9:2 --n 10000 --radius 1 --dimension 10 --delta 1e-6 --smoothness 10"
	done("plan", planCmd, 60*time.Second)
	planFile := filepath.Join(art, "plan-cli.json")
	out, _ = cli(t, bin, 0, append(args(t, planCmd), "--out", planFile)...)
	want = tableRows(out)
	for key, label := range map[string]string{"sigma": "noise σ", "eta": "step size η", "utility": "utility bound E[F(W)] − F*",
		"met": "every target met", "uniform": "uniform plan σ (everyone ε = 0.5, δ = 1e-06)"} {
		if c := want[label]; len(c) < 2 || rowVal("plan-rows", key) != c[1] {
			t.Errorf("plan %s: page %q, command line %q", label, rowVal("plan-rows", key), c)
		}
	}
	for _, tier := range []string{"strict", "rest"} {
		var cells []string
		for _, r := range want {
			if len(r) == 7 && r[2] == tier {
				cells = r
			}
		}
		if cells == nil {
			t.Fatalf("no row for tier %s in the command line's plan:\n%s", tier, out)
		}
		for i, key := range []string{"positions", "count", "who", "target", "delta", "achieved", "slack"} {
			if got := d.text(fmt.Sprintf(`#plan-groups tr[data-tier="%s"] td[data-key="%s"]`, tier, key)); got != cells[i] {
				t.Errorf("plan tier %s %s: page %q, command line %q", tier, key, got, cells[i])
			}
		}
	}
	var pageFile string
	d.exec(`return window.privampPlanFile;`, &pageFile)
	cliFile, err := os.ReadFile(planFile)
	if err != nil {
		t.Fatal(err)
	}
	// The page's plan file is the command line's up to the last bits of its
	// floats (wasm's pure-Go math against amd64's assembly: the printed
	// digits above agree), and privamp verify reads it as it reads its own.
	var a, b any
	if err := json.Unmarshal([]byte(pageFile), &a); err != nil {
		t.Fatalf("the page's plan file: %v", err)
	}
	if err := json.Unmarshal(cliFile, &b); err != nil {
		t.Fatal(err)
	}
	if diff := jsonDiff("", a, b, 1e-12); diff != "" {
		t.Errorf("the page's plan file differs from privamp plan --out's: %s", diff)
	}
	pagePlan := filepath.Join(art, "plan-page.json")
	if err := os.WriteFile(pagePlan, []byte(pageFile), 0o644); err != nil {
		t.Fatal(err)
	}
	// privamp verify finds the page's plan file VALID (exit 0), as the
	// command line's, its summary equal to the recomputation.
	for _, f := range []string{pagePlan, planFile} {
		v, _ := cli(t, bin, 0, "verify", f)
		r := tableRows(v)
		if c := r["verdict"]; len(c) < 2 || c[1] != "VALID" {
			t.Errorf("privamp verify %s: verdict %q, want VALID", filepath.Base(f), c)
		}
		if c := r["check: summary = recomputation"]; len(c) < 2 || c[1] != "PASS" {
			t.Errorf("privamp verify %s: summary check %q, want PASS", filepath.Base(f), c)
		}
	}
	d.exec(`document.getElementById("plan").scrollIntoView();`, nil)
	shot("4-plan")

	// 4b. A calibration under way when a refused value is typed is
	// cancelled, so its answer cannot land beside the refusal (one event-loop
	// turn: the worker cannot have answered).
	var pending struct {
		Started, Left bool
		Rows          string
	}
	d.exec(`const m = document.getElementById("mode"), tg = document.getElementById("target");
		m.value = "calibrate"; dpsgdEnable(); tg.value = "2.5"; dpsgdCompute();
		const started = calib.runner !== null && calib.runner.job !== null;
		tg.value = "abc"; dpsgdCompute();
		return {Started: started, Left: calib.runner.job !== null, Rows: document.getElementById("dpsgd-rows").textContent};`, &pending)
	if !pending.Started || pending.Left || pending.Rows != "" {
		t.Errorf("a calibration then a refused target: started %v, still pending %v, answer shown %q; want true, false, none",
			pending.Started, pending.Left, pending.Rows)
	}

	// 5. Bad values: the command line's message, next to the field.
	d.exec(`const m = document.getElementById("mode"); m.value = "epsilon"; m.dispatchEvent(new Event("input", {bubbles: true}));
		window.scrollTo(0, 0);`, nil)
	for _, bad := range []string{"0", "abc"} {
		d.typeInto("#noise", bad)
		d.wait("the message for --noise "+bad, `const s = document.getElementById("dpsgd");
			return s.dataset.state === "error" && s.dataset.cmd === arguments[0];`, 10*time.Second,
			"privamp dpsgd --n 60000 --batch 256 --epochs 60 --noise "+bad+" --delta 1e-5")
		_, stderr := cli(t, bin, 2, "dpsgd", "--noise", bad)
		if got, w := val("noise-err"), strings.TrimPrefix(strings.TrimSpace(stderr), "privamp: "); got != w {
			t.Errorf("--noise %s: the page says %q, the command line %q", bad, got, w)
		}
		if stale := val("dpsgd-rows") + val("epochs-plot"); stale != "" {
			t.Errorf("--noise %s: the page still shows an earlier answer beside the refusal: %.80q", bad, stale)
		}
	}
	shot("5-bad-value")

	// 6. A non-default run set through the URL query.
	q := "?n=50000&batch=500&epochs=20&noise=0.9&delta=1e-6&neighbours=replace-one"
	d.get(srv.URL + "/" + q)
	d.wait("the URL's run", `return document.body.dataset.ready === "true";`, 30*time.Second)
	urlCmd := "privamp dpsgd --n 50000 --batch 500 --epochs 20 --noise 0.9 --delta 1e-6 --neighbours replace-one"
	done("dpsgd", urlCmd, 20*time.Second)
	out, _ = cli(t, bin, 0, args(t, urlCmd)...)
	want = tableRows(out)
	for key, label := range map[string]string{"epsilon": "ε", "noise": "z (noise multiplier)"} {
		if got := rowVal("dpsgd-rows", key); got != want[label][1] {
			t.Errorf("URL query %s: page %q, command line %q", label, got, want[label][1])
		}
	}
	t.Logf("URL query %s: ε = %s", q, want["ε"][1])
	shot("6-url-query")

	b2, _ := json.MarshalIndent(timings, "", "  ")
	if err := os.WriteFile(filepath.Join(art, "timings.json"), b2, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("in Chromium: privamp.wasm loaded in %.0f ms, the MNIST answer in %.0f ms (again: %.0f ms), ε against epochs (6 runs) in %.0f ms (performance.now)",
		timings["load"], timings["dpsgd"], timings["dpsgd_again_min"], timings["sweep"])
}

// jsonDiff describes the first difference between two decoded JSON values,
// numbers equal within tol relative to the larger of them and 1 (a slack,
// a difference of nearly equal values, keeps only an absolute accuracy);
// "" when there is none.
func jsonDiff(path string, a, b any, tol float64) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return path + ": different objects"
		}
		for k, v := range x {
			if d := jsonDiff(path+"."+k, v, y[k], tol); d != "" {
				return d
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return path + ": different arrays"
		}
		for i := range x {
			if d := jsonDiff(fmt.Sprintf("%s[%d]", path, i), x[i], y[i], tol); d != "" {
				return d
			}
		}
	case float64:
		y, ok := b.(float64)
		if !ok || math.Abs(x-y) > tol*math.Max(1, math.Max(math.Abs(x), math.Abs(y))) {
			return fmt.Sprintf("%s: %v, %v", path, a, b)
		}
	default:
		if a != b {
			return fmt.Sprintf("%s: %v, %v", path, a, b)
		}
	}
	return ""
}
