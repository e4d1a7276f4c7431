package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
)

func planCLI(args ...string) (string, string, int) {
	var out, errw bytes.Buffer
	code := run(append([]string{"plan"}, args...), &out, &errw)
	return out.String(), errw.String(), code
}

var planTiers = []string{"--tier", "0.01:0.1", "--tier", "0.09:1", "--tier", "0.9:4", "--n", "100000",
	"--lipschitz", "1", "--radius", "1", "--dimension", "10", "--delta", "1e-6"}

func planJSONOut(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, errs, code := planCLI(append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&obj); err != nil || dec.More() {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	return obj
}

// TestPlanCommandTiers: the README example, against the library and an
// independent recomputation of the binding person with package shifted.
func TestPlanCommandTiers(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "plan.json")
	png := filepath.Join(dir, "plan.png")
	obj := planJSONOut(t, append(planTiers, "--out", out, "--plot", png)...)
	sigma := obj["sigma"].(float64)
	// The last person (ε = 4, local guarantee 2L²/σ²) binds: ε_n = 4 up to the margin.
	e, _ := rdp.LinearEpsilon(2/(sigma*sigma), 1e-6, rdp.Improved)
	if e > 4 || e < 4*(1-2e-9) {
		t.Errorf("σ = %v gives the last person ε = %.12g, want just below 4", sigma, e)
	}
	uni := obj["uniform"].(map[string]any)
	us := uni["sigma"].(float64)
	ue, _ := rdp.LinearEpsilon(2/(us*us), 1e-6, rdp.Improved)
	if ue > 0.1 || ue < 0.1*(1-2e-9) {
		t.Errorf("uniform σ = %v gives ε = %v, want just below 0.1", us, ue)
	}
	if r := obj["noise_ratio"].(float64); !ampClose(r, sigma/us, 1e-12) || r > 0.04 {
		t.Errorf("noise ratio %v", r)
	}
	if len(obj["groups"].([]any)) != 3 || obj["feasible"] != true || obj["optimal"] != true {
		t.Errorf("groups/feasible/optimal: %v", obj)
	}
	// The plan file: loads, verifies, and matches.
	fh, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Load(fh)
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	if p.Sigma != sigma || p.N != 100000 || len(p.Tiers) != 3 || p.Tiers[0].Epsilon != 0.1 {
		t.Errorf("plan file %+v", p)
	}
	if v, err := p.Verify(); err != nil || !v.OK {
		t.Errorf("verify: %+v %v", v, err)
	}
	if b, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("plot: %v", err)
	}
	// The human table names the tiers and the sources.
	text, _, code := planCLI(planTiers...)
	for _, s := range []string{"tier1", "1–1000", "Thm 30", "exchange argument", "less noise"} {
		if code != 0 || !strings.Contains(text, s) {
			t.Errorf("output lacks %q (exit %d)", s, code)
		}
	}
}

// TestPlanCommandPeopleCSV: a people file, --csv with every person, and an
// SVG plot; each printed ε recomputed with package shifted.
func TestPlanCommandPeopleCSV(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "p.svg")
	out, errs, code := planCLI("--people", "../../examples/plan/people.csv", "--radius", "1", "--dimension", "10", "--delta", "1e-6", "--csv", "--plot", svg)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 25 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	if strings.Join(rows[0], ",") != "position,id,tier,target_epsilon,delta,achieved_epsilon,slack" {
		t.Errorf("header %v", rows[0])
	}
	// Recompute σ from the JSON and every achieved ε from package shifted.
	obj := planJSONOut(t, "--people", "../../examples/plan/people.csv", "--radius", "1", "--dimension", "10", "--delta", "1e-6")
	sigma := obj["sigma"].(float64)
	g := shifted.SGD{N: 24, Sigma: sigma, Loss: shifted.Loss{Lipschitz: 1}}
	seen := map[string]bool{}
	for i, r := range rows[1:] {
		pos, _ := strconv.Atoi(r[0])
		target, del, ach := parse(r[3]), parse(r[4]), parse(r[5])
		dp, err := shifted.Epsilon(g, int64(pos), del, rdp.Improved)
		if err != nil || pos != i+1 || !ampClose(dp.Epsilon, ach, 1e-9) || ach > target {
			t.Errorf("row %v: recomputed ε %v", r, dp.Epsilon)
		}
		if seen[r[1]] {
			t.Errorf("id %s twice", r[1])
		}
		seen[r[1]] = true
		if i > 0 && parse(rows[i][3]) > target && parse(rows[i][4]) == del {
			t.Errorf("row %d: budgets with one δ out of order", i+1)
		}
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.Contains(b[:min(len(b), 200)], []byte("<svg")) {
		t.Errorf("svg plot: %v", err)
	}
}

// TestPlanCommandInfeasible: under a cap the command names the unreachable
// people, the remedies (recomputed), writes no plan and exits with 1.
func TestPlanCommandInfeasible(t *testing.T) {
	if testing.Short() {
		t.Skip("make test only: shifted/plan's errors tests refuse infeasible tiers under -short")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "plan.json")
	stdout, errs, code := planCLI(append(planTiers, "--max-sigma", "1", "--out", out, "--json")...)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errs)
	}
	if lines := strings.Split(strings.TrimSpace(errs), "\n"); len(lines) != 1 || !strings.Contains(errs, "plan infeasible under --max-sigma 1") {
		t.Errorf("stderr %q", errs)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a plan was written for an infeasible cap")
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(stdout), &obj); err != nil {
		t.Fatal(err)
	}
	inf := obj["infeasible"].(map[string]any)
	un := inf["unreachable"].([]any)
	u := un[0].(map[string]any)
	if inf["unreachable_count"].(float64) != 6 || u["first"].(float64) != 99995 || u["tier"] != "tier3" {
		t.Errorf("unreachable %v", inf)
	}
	// The people at the end get 2L²/(σ²(n − t + 1)) at σ = 1: the last one's
	// achievable ε is the local guarantee.
	want, _ := rdp.LinearEpsilon(2, 1e-6, rdp.Improved)
	if got := u["achievable"].(float64); !ampClose(got, want, 1e-9) {
		t.Errorf("achievable %v, want %v", got, want)
	}
	pub := inf["public_remedy"].(map[string]any)
	if pub["count"].(float64) != 6 || pub["verified"] != true {
		t.Errorf("public remedy %v", pub)
	}
	// With the remedy the same command succeeds under the same cap.
	if _, errs, code := planCLI(append(planTiers, "--max-sigma", "1", "--public", "6")...); code != 0 {
		t.Errorf("with 6 public records: exit %d %s", code, errs)
	}
	if _, _, code := planCLI(append(planTiers, "--max-sigma", "1", "--public", "5")...); code != 1 {
		t.Errorf("with 5 public records: exit %d, want 1", code)
	}
	// A utility target: infeasible, then met with the reported public records.
	stdout, _, code = planCLI(append(planTiers, "--target-excess-risk", "0.1", "--json")...)
	if code != 1 {
		t.Fatalf("utility target: exit %d", code)
	}
	json.Unmarshal([]byte(stdout), &obj)
	cnt := obj["infeasible"].(map[string]any)["public_remedy"].(map[string]any)["count"].(float64)
	ok := planJSONOut(t, append(planTiers, "--target-excess-risk", "0.1", "--public", strconv.Itoa(int(cnt)))...)
	if b := ok["utility"].(map[string]any)["bound"].(float64); b > 0.1 {
		t.Errorf("utility bound %v above the target", b)
	}
}

// TestPlanCommandBadInput: exit 2 with one line naming the flag or line.
func TestPlanCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "plan.json")
	base := []string{"--radius", "1", "--dimension", "10"}
	tiers := []string{"--tier", "0.5:1", "--tier", "0.5:2", "--n", "100"}
	cases := []struct {
		args []string
		want string
	}{
		{append([]string{"--tier", "0.5:1", "--n", "10"}, "--dimension", "10"), "--radius"},
		{append([]string{"--tier", "0.5:1", "--n", "10"}, "--radius", "1"), "--dimension"},
		{base, "--people FILE.csv"},
		{append(append([]string{}, base...), "--tier", "0.5:1", "--tier", "0.4:2", "--n", "100"), "sum to 1, got 0.9"},
		{append(append([]string{}, base...), "--tier", "0.5:x"), "--tier"},
		{append(append([]string{}, base...), "--tier", "0.5:-1", "--n", "2"), "epsilon must be > 0"},
		{append(append([]string{}, base...), "--tier", "2.5:1"), "whole number"},
		{append(append(append([]string{}, base...), tiers...), "--people", "x.csv"), "not both"},
		{append(append(append([]string{}, base...), tiers...), "--delta", "1"), "--delta"},
		{append(append(append([]string{}, base...), tiers...), "--variant", "sgd"), "--variant"},
		{append(append(append([]string{}, base...), tiers...), "--variant", "skip", "--batch", "2"), "--batch"},
		{append(append(append([]string{}, base...), tiers...), "--tasks", "3"), "--tasks"},
		{append(append(append([]string{}, base...), tiers...), "--max-sigma", "-1"), "--max-sigma"},
		{append(append(append([]string{}, base...), tiers...), "--plot", "x.pdf"), "--plot"},
		{append(append(append([]string{}, base...), tiers...), "--strong-convexity", "0.1"), "--strong-convexity"},
		{append(append(append([]string{}, base...), tiers...), "--smoothness", "1", "--eta", "3"), "2/β"},
		{append(append(append([]string{}, base...), tiers...), "--variant", "minibatch"), "--variant"},
		{append(append(append([]string{}, base...), tiers...), "--epochs", "2", "--target-excess-risk", "0.5"), "target-excess-risk needs a utility bound"},
		{append(append([]string{}, base...), "--people", "../../examples/plan/people.csv", "--n", "5"), "--n"},
		{append(append([]string{}, base...), "--people", filepath.Join(dir, "missing.csv")), "cannot open"},
		{append(append([]string{}, base...), "--people", "../../examples/plan/bad.csv", "--out", out), "8 invalid rows: line 3: epsilon must be > 0, got -1; line 4:"},
	}
	for _, c := range cases {
		stdout, errs, code := planCLI(c.args...)
		lines := strings.Split(strings.TrimRight(errs, "\n"), "\n")
		if code != 2 || len(lines) != 1 || !strings.Contains(errs, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q (want one line with %q), stdout %d bytes", c.args, code, errs, c.want, len(stdout))
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a plan file was written for bad input")
	}
	// The bad-rows message lists every line.
	_, errs, _ := planCLI(append(append([]string{}, base...), "--people", "../../examples/plan/bad.csv")...)
	for _, l := range []string{"line 3", "line 4", "line 5", "line 6: duplicate id \"ada\" (first on line 2)", "line 7", "line 8: missing column", "line 9", "line 10: empty id"} {
		if !strings.Contains(errs, l) {
			t.Errorf("stderr lacks %q: %s", l, errs)
		}
	}
}

// plan's flags fill the options; combinations are refused before any file
// is read or anything computed.
func TestPlanFlags(t *testing.T) {
	o := mustParse(t, newPlanCmd, append(planTiers, "--variant", "stop", "--tasks", "2", "--public", "5", "--max-sigma", "3", "--out", "p.json", "--plot", "p.svg", "--conversion", "classic")...)
	po, tr := o.Options, o.Options.Training
	if o.N != 100000 || len(o.Tiers) != 3 || o.Tiers[2] != "0.9:4" || o.People != "" || o.Out != "p.json" || o.Plot != "p.svg" ||
		tr.Variant != shifted.VariantStop || tr.Tasks != 2 || tr.Public != 5 || tr.Delta != 1e-6 || tr.Loss.Lipschitz != 1 ||
		po.Radius != 1 || po.Dimension != 10 || po.MaxSigma != 3 || po.Conversion != rdp.Classic {
		t.Errorf("plan options %+v", o)
	}
	if o := mustParse(t, newPlanCmd, "--people", "nowhere.csv", "--radius", "1", "--dimension", "3"); o.People != "nowhere.csv" || o.N != 0 || o.Options.Training.Batch != 1 {
		t.Errorf("plan --people options %+v", o) // the file is read by planRun, not by the flags
	}
	base := []string{"--radius", "1", "--dimension", "10"}
	refused(t, newPlanCmd, "--radius", "--tier", "0.5:1", "--n", "10", "--dimension", "10")
	refused(t, newPlanCmd, "--people FILE.csv", base...)
	refused(t, newPlanCmd, "not both", append(base, "--tier", "1:1", "--people", "x.csv")...)
	refused(t, newPlanCmd, "--n divides", append(base, "--people", "x.csv", "--n", "5")...)
	refused(t, newPlanCmd, "--n", append(base, "--tier", "1:1", "--n", "0.5")...)
	refused(t, newPlanCmd, "--plot", append(base, "--tier", "1:1", "--plot", "x.pdf")...)
	refused(t, newPlanCmd, "--public", append(base, "--tier", "1:1", "--public", "-1")...)
}

// planJSONRun makes the plan that args describe (flags parsed without the
// root), computed in process, and returns its JSON object.
func planJSONRun(t *testing.T, args ...string) map[string]any {
	t.Helper()
	o := mustParse(t, newPlanCmd, args...)
	return runJSONOf(t, func(a *app) error { o.IO = a; return planRun(o) })
}

// TestPlanCommandVariants: skip, stop (descending order) and epochs run.
func TestPlanCommandVariants(t *testing.T) {
	small := []string{"--tier", "a=100:0.2", "--tier", "b=900:3", "--radius", "1", "--dimension", "5", "--delta", "1e-6"}
	for _, v := range [][]string{{"--variant", "skip"}, {"--variant", "stop"}, {"--variant", "pnsgd", "--epochs", "3"}, {"--variant", "pnsgd", "--batch", "10"}, {"--variant", "stop", "--tasks", "2"}} {
		obj := planJSONRun(t, append(append([]string{}, small...), v...)...)
		if obj["feasible"] != true || !(obj["sigma"].(float64) > 0) {
			t.Errorf("%v: %v", v, obj)
		}
		order := obj["order"].(string)
		if (v[1] == "stop") != (order == "descending") {
			t.Errorf("%v: order %s", v, order)
		}
		if len(v) > 2 && v[2] == "--epochs" && obj["utility"].(map[string]any)["bound"] != nil {
			t.Errorf("epochs: a utility bound %v", obj["utility"])
		}
	}
}

// TestPlanOutputOverInput (issue 9, hole 6): --out or --plot naming the
// --people file (by another spelling or a link) is refused with exit 2
// naming both flags, and the input is left as it was.
func TestPlanOutputOverInput(t *testing.T) {
	dir := t.TempDir()
	orig, err := os.ReadFile("../../examples/plan/people.csv")
	if err != nil {
		t.Fatal(err)
	}
	people := filepath.Join(dir, "people.csv")
	svg := filepath.Join(dir, "people.svg") // a people file whose name a plot may take
	link := filepath.Join(dir, "link.csv")
	for _, p := range []string{people, svg} {
		if err := os.WriteFile(p, orig, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(people, link); err != nil {
		t.Fatal(err)
	}
	base := []string{"--radius", "1", "--dimension", "10", "--delta", "1e-6"}
	for _, c := range [][]string{
		{"--people", people, "--out", people},
		{"--people", people, "--out", filepath.Join(dir, "sub", "..", "people.csv")},
		{"--people", link, "--out", people},
		{"--people", svg, "--plot", svg},
		{"--people", people, "--out", filepath.Join(dir, "p.svg"), "--plot", filepath.Join(dir, "p.svg")},
	} {
		_, errs, code := planCLI(append(append([]string{}, base...), c...)...)
		if code != 2 || !strings.Contains(errs, "refusing to overwrite") || strings.Count(errs, "--") < 2 {
			t.Errorf("%v: exit %d, stderr %q", c, code, errs)
		}
	}
	for _, p := range []string{people, svg} {
		if b, _ := os.ReadFile(p); !bytes.Equal(b, orig) {
			t.Errorf("%s was overwritten", p)
		}
	}
}

// TestPlanDirectories (issue 9, hole 11): a directory given to --people or
// --out is bad input (exit 2, naming the flag), not a failure (exit 1).
func TestPlanDirectories(t *testing.T) {
	dir := t.TempDir()
	base := []string{"--radius", "1", "--dimension", "10"}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--people", dir}, "--people"},
		{append(append([]string{}, planTiers...), "--out", dir), "--out"},
		{append(append([]string{}, planTiers...), "--plot", filepath.Join(dir, "d.png")), ""},
	} {
		if c.flag == "" {
			os.Mkdir(filepath.Join(dir, "d.png"), 0o755)
			c.flag = "--plot"
		}
		_, errs, code := planCLI(withFlags(base, c.args...)...)
		if code != 2 || !strings.HasPrefix(strings.TrimPrefix(errs, "privamp: "), c.flag) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errs)
		}
	}
}

// planRowValue returns the value column of a text table row.
func planRowValue(t *testing.T, text, quantity string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Split(l, "│"); len(f) > 3 && strings.TrimSpace(f[1]) == quantity {
			return strings.TrimSpace(f[2])
		}
	}
	t.Fatalf("no row %q in\n%s", quantity, text)
	return ""
}

// TestPlanPrintedSigmaMeetsTargets (issue 9, hole 5): every σ the plan
// prints — the plan's and a remedy's — meets every target when used as
// printed: ε recomputed with package shifted at the printed σ. Before, σ
// was printed to nearest (2.53565 for 2.5356509, 0.497282 for a remedy σ
// of 0.49728205), giving ε above the target.
func TestPlanPrintedSigmaMeetsTargets(t *testing.T) {
	check := func(what string, sigma float64, public int64) {
		g := shifted.SGD{N: 100000, Public: public, Sigma: sigma, Loss: shifted.Loss{Lipschitz: 1}}
		for _, c := range []struct {
			pos  int64
			goal float64
		}{{1000, 0.1}, {10000, 1}, {100000, 4}} {
			dp, err := shifted.Epsilon(g, c.pos, 1e-6, rdp.Improved)
			if err != nil || dp.Epsilon > c.goal {
				t.Errorf("%s: printed σ = %v gives position %d ε = %.12g > %g (%v)", what, sigma, c.pos, dp.Epsilon, c.goal, err)
			}
		}
	}
	text, errs, code := planCLI(planTiers...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	check("plan", parse(planRowValue(t, text, "noise σ")), 0)
	for _, c := range []string{"0.5", "1", "1.5"} {
		text, _, code := planCLI(append(planTiers, "--max-sigma", c)...)
		v := planRowValue(t, text, "remedy: public records at the end")
		var count int64
		var sigma float64
		if _, err := fmt.Sscanf(v, "%d (then σ = %g,", &count, &sigma); code != 1 || err != nil {
			t.Fatalf("cap %s: exit %d, remedy %q: %v", c, code, v, err)
		}
		check("remedy under --max-sigma "+c, sigma, count)
	}
}

// TestPlanJSONKeys (issue 9): one key per concept (worst_index, not
// binding_position), "command" in the object, and --help documents the exit
// statuses.
func TestPlanJSONKeys(t *testing.T) {
	obj := planJSONRun(t, planTiers...)
	if obj["command"] != "plan" || obj["worst_index"] != 100000.0 || obj["binding_position"] != nil {
		t.Errorf("command %v, worst_index %v, binding_position %v", obj["command"], obj["worst_index"], obj["binding_position"])
	}
	out, _, code := planCLI("--help")
	if code != 0 || !strings.Contains(out, "Exit status: 0") || !strings.Contains(out, "2 bad input") {
		t.Errorf("--help lacks the exit statuses (exit %d)", code)
	}
}
