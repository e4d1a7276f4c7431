package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
)

func runJSON(t *testing.T, args ...string) (map[string]any, int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append(args, "--json", "--quiet"), &out, &errb)
	if code != 0 && code != 1 && code != 3 {
		return nil, code, errb.String()
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%v: not one JSON object: %v\n%s\nstderr: %s", args, err, out.String(), errb.String())
	}
	return m, code, errb.String()
}

func checksByName(m map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, c := range m["checks"].([]any) {
		cm := c.(map[string]any)
		out[cm["name"].(string)] = cm
	}
	return out
}

const bc = "../../testdata/breast_cancer.csv"

func privacyOf(m map[string]any) map[string]any { return m["privacy"].(map[string]any) }

func TestRunBreastCancer(t *testing.T) {
	dir := t.TempDir()
	tr, png := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.png")
	m, code, stderr := runJSON(t, "run", "--data", bc, "--label", "malignant", "--standardize", "--normalize",
		"--variant", "skip", "--target-epsilon", "1", "--repeats", "8", "--trace", tr, "--plot", png)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if m["command"] != "run" || m["ok"] != true {
		t.Fatalf("command/ok: %v %v", m["command"], m["ok"])
	}
	pr := privacyOf(m)
	if pr["worst_epsilon"].(float64) > 1 || pr["worst_index"].(float64) != 569 || pr["first_epsilon"].(float64) >= pr["worst_epsilon"].(float64) {
		t.Fatalf("privacy %v", pr)
	}
	for _, f := range []string{tr, png} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if !strings.Contains(fmt.Sprint(m["assumptions"]), "standardized records only") {
		t.Error("--standardize: the assumptions must say the certificate covers the transformed records only")
	}
}

// Hole 1: the constants come from the declared bounds only, so two
// neighbouring data sets (200 rows of norm 0.1; one replaced by a row of
// norm 1) get identical certificates. On the old code index 1's ε went from
// 0.022 to 0.389.
func TestRunCertificateIndependentOfData(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, big bool) string {
		var b strings.Builder
		b.WriteString("x1,x2,y\n")
		for i := 0; i < 200; i++ {
			x := 0.1
			if big && i == 0 {
				x = 1
			}
			fmt.Fprintf(&b, "%g,0,%d\n", x, i%2)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(b.String()), 0o644)
		return p
	}
	a, b := write("a.csv", false), write("b.csv", true)
	var privs []map[string]any
	for _, f := range []string{a, b} {
		m, code, stderr := runJSON(t, "run", "--data", f, "--label", "y", "--normalize", "--variant", "skip", "--sigma", "2", "--eta", "1", "--index", "1,100")
		if code > 1 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		privs = append(privs, privacyOf(m))
	}
	if !reflect.DeepEqual(privs[0], privs[1]) {
		t.Fatalf("certificates differ:\n%v\n%v", privs[0], privs[1])
	}
	// Without --normalize the feature bound must be declared.
	if _, code, stderr := runJSON(t, "run", "--data", a, "--label", "y", "--sigma", "2"); code != 2 || !strings.Contains(stderr, "--feature-bound") {
		t.Errorf("undeclared feature bound: exit %d %s", code, stderr)
	}
	// A declared bound of 0.5 clips the norm-1 row: the same certificate as the norm-0.1 data.
	m1, _, _ := runJSON(t, "run", "--data", a, "--label", "y", "--feature-bound", "0.5", "--variant", "skip", "--sigma", "2", "--eta", "1")
	m2, _, _ := runJSON(t, "run", "--data", b, "--label", "y", "--feature-bound", "0.5", "--variant", "skip", "--sigma", "2", "--eta", "1")
	if !reflect.DeepEqual(privacyOf(m1), privacyOf(m2)) || m2["measured"].(map[string]any)["max_grad_norm"].(float64) > m2["derived"].(map[string]any)["lipschitz"].(float64) {
		t.Error("declared feature bound: certificates differ or clipping failed")
	}
	// Standardizing with the data's own statistics: the verdict says what
	// the certificate covers.
	m3, _, _ := runJSON(t, "run", "--data", a, "--label", "y", "--standardize", "--normalize", "--variant", "skip", "--sigma", "2", "--eta", "1")
	if v, _ := m3["verdict"].(string); !strings.Contains(v, "standardized records only") {
		t.Errorf("--standardize: verdict %q does not limit the certificate", v)
	}
	if v, _ := m1["verdict"].(string); strings.Contains(v, "standardized") {
		t.Errorf("verdict %q mentions standardizing without --standardize", v)
	}
}

// Hole 3: a failed check exits 1 (old code: "η ≤ 2/β FAIL" and exit 0).
func TestRunFailedCheckExits1(t *testing.T) {
	m, code, _ := runJSON(t, "run", "--data", bc, "--label", "malignant", "--standardize", "--normalize", "--variant", "pnsgd", "--eta", "20", "--sigma", "2")
	if code != 1 || m["ok"] != false || checksByName(m)["η ≤ 2/β"]["status"] != "FAIL" {
		t.Fatalf("exit %d, checks %v", code, m["checks"])
	}
	var out, errb bytes.Buffer
	run([]string{"run", "--help"}, &out, &errb)
	if !strings.Contains(out.String(), "Exit status: 0") {
		t.Error("--help does not document the exit statuses")
	}
}

// Hole 8: the pnsgd defaults give a model better than the start (old code:
// 33% accuracy, risk 0.727 above the zero model's 0.693, every check PASS),
// and a run that ends worse than it started is reported as WORSE in its
// check and its verdict (a fact about utility, not a broken assumption: it
// does not change the exit status).
func TestRunPNSGDDefaultsSensible(t *testing.T) {
	m, code, stderr := runJSON(t, "run", "--data", bc, "--label", "malignant", "--standardize", "--normalize", "--variant", "pnsgd")
	if code != 0 {
		t.Fatalf("exit %d: %s %v", code, stderr, m["checks"])
	}
	me := m["measured"].(map[string]any)
	if me["final_risk"].(float64) >= me["start_risk"].(float64) || me["accuracy"].(float64) <= me["majority_share"].(float64) {
		t.Errorf("pnsgd defaults: %v", me)
	}
	m, code, _ = runJSON(t, "run", "--data", bc, "--label", "malignant", "--standardize", "--normalize", "--variant", "pnsgd", "--eta", "4")
	if code != 0 || checksByName(m)["final risk ≤ risk at the start w0"]["status"] != "WORSE" {
		t.Errorf("a run worse than its start: exit %d, %v", code, m["checks"])
	}
	out, _, _ := runCLI("run", "--data", bc, "--label", "malignant", "--standardize", "--normalize", "--variant", "pnsgd", "--eta", "4")
	if !strings.Contains(out, "WORSE than the data-free output") {
		t.Errorf("the verdict does not report the worse risk:\n%s", out)
	}
}

func TestRunExactQuadratic(t *testing.T) {
	m, code, stderr := runJSON(t, "run", "--synthetic", "quadratic", "--no-projection", "--variant", "pnsgd", "--eta", "0.05", "--sigma", "2", "--n", "200", "--dimension", "3")
	if code != 0 { // w0 = 0 is the population optimum here: noise can only make it worse
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ex := privacyOf(m)["exact"].([]any)
	if len(ex) == 0 {
		t.Fatal("no exact rows")
	}
	for _, e := range ex {
		e := e.(map[string]any)
		if e["exact_epsilon"].(float64) > e["bound_epsilon"].(float64)*(1+1e-9) {
			t.Errorf("exact ε above the bound: %v", e)
		}
	}
}

func TestRunVariantsAndRules(t *testing.T) {
	t.Parallel() // no run(): touches no package-level state (atomicfile.Stdout, working directory)
	type config struct {
		variant              shifted.Variant
		rule                 optimizer.Rule
		public, tasks, epoch int64
		batch                int64
	}
	n, configs := 5000, []config{
		{shifted.VariantStop, "thm29", 0, 1, 1, 1}, {shifted.VariantPNSGD, "", 0, 1, 3, 10},
		{shifted.VariantSkip, "thm30", 0, 1, 1, 1}, {shifted.VariantSkip, "cor31", 100, 1, 1, 1}, {shifted.VariantStop, "", 0, 3, 1, 1},
	}
	if testing.Short() { // each run certifies every index (≈ 0.4 s); package optimizer tests each rule
		n, configs = 600, configs[:2]
	}
	for _, c := range configs {
		spec := optimizer.Spec{Data: optimizer.DataSpec{Synthetic: "logistic", N: n, Dimension: 5, Seed: 1}, Radius: 1, Rule: c.rule, Target: 1, Seed: 1, Confidence: 0.95, MaxPoints: 2000,
			Training: shifted.Training{Variant: c.variant, Batch: c.batch, Epochs: c.epoch, Tasks: c.tasks, Public: c.public, Delta: 1e-5}}
		spec.Loss.HuberDelta, spec.Loss.Smoothing = 1, 0.1
		a, out := jsonApp()
		if err := runRun(&runOptions{IO: a, Spec: spec}); err != nil { // the paper's η can leave a small model worse than w0 (hole 8's check)
			t.Errorf("%+v: exit %d %v %v", c, exitCode(err), err, decodeJSON(t, out)["checks"])
		}
	}
}

func TestRunConfigFile(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"synthetic": "logistic", "n": 300, "dimension": 4, "variant": "stop", "target_epsilon": 0.5}`), 0o644)
	o, code := parseOnlyOptions(newRunCmd, "--config", cfg, "--n", "4000") // the command line wins
	if code != 0 || o.Spec.Data.N != 4000 || o.Spec.Data.Dimension != 4 || o.Spec.Training.Variant != "stop" || o.Spec.Target != 0.5 {
		t.Fatalf("exit %d %+v", code, o)
	}
}

// Parsing rules shared by every input: --config goes through the strict
// decoder (a repeated or differently cased key, or a fractional count, is
// bad input naming the key).
func TestRunConfigStrict(t *testing.T) {
	dir := t.TempDir()
	for i, body := range []string{
		`{"variant": "stop", "variant": "skip"}`,
		`{"Variant": "stop"}`,
		`{"n": 300.5}`,
		`{"no_such_flag": 1}`,
	} {
		cfg := filepath.Join(dir, fmt.Sprintf("c%d.json", i))
		os.WriteFile(cfg, []byte(body), 0o644)
		expectBadInput(t, []string{"run", "--config", cfg}, "--config")
	}
	cfg := filepath.Join(dir, "ok.json")
	os.WriteFile(cfg, []byte(`{"synthetic": "logistic", "n": 3e2, "dimension": 4, "index": [1, 2]}`), 0o644)
	if m, code, stderr := runJSON(t, "run", "--config", cfg); code != 0 || m["training"].(map[string]any)["n"].(float64) != 300 {
		t.Fatalf("exit %d %s", code, stderr)
	}
}

// Hole 7: run --csv keeps the answer (the verdict and the certified ε)
// before the checks.
func TestRunCSVKeepsAnswer(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"run", "--synthetic", "logistic", "--n", "300", "--dimension", "3", "--csv", "--quiet"}, &out, &errb)
	for _, s := range []string{"verdict", "ε worst case", "table,1,check,", "table,1,status,"} {
		if code != 0 || !strings.Contains(out.String(), s) {
			t.Errorf("--csv: exit %d, lacks %q:\n%s", code, s, out.String())
		}
	}
}

// Holes 6 and 11: bad input names its own flag; an output never
// overwrites an input.
func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	os.WriteFile(data, []byte("x,y\n0.1,1\n0.2,0\n0.3,1\n"), 0o644)
	syn := []string{"run", "--synthetic", "logistic", "--n", "100", "--dimension", "2"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--data", data, "--label", "y", "--normalize", "--sigma", "1", "--trace", data}, "--trace"},
		{[]string{"run", "--data", data, "--label", "y", "--normalize", "--sigma", "1", "--trace", filepath.Join(dir, ".", "d.csv")}, "--data"},
		{[]string{"run", "--data", data, "--label", "y", "--normalize", "--sigma", "1", "--plot", data}, "--plot"},
		{append(syn, "--loss", "foo"), "--loss"},
		{append(syn, "--loss", "huber", "--huber-delta", "-1"), "--huber-delta"},
		{append(syn, "--no-projection"), "--no-projection"},
		{append(syn, "--variant", "nope"), "--variant"},
		{append(syn, "--eta", "-1", "--sigma", "1"), "--eta"},
		{append(syn, "--sigma", "1", "--target-epsilon", "2"), "--sigma"},
		{append(syn, "--delta", "2"), "--delta"},
		{append(syn, "--repeats", "1"), "--repeats"},
		{append(syn, "--batch", "5"), "--batch"},
		{append(syn, "--index", "101"), "--index"},
		{[]string{"run", "--data", data, "--label", "y", "--loss", "squared", "--normalize"}, "--label-bound"},
		{[]string{"run", "--data", data, "--label", "y", "--feature-bound", "-1"}, "--feature-bound"},
		{append(syn, "--id", "x"), "--id"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append(c.args, "--quiet"), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) || strings.Count(strings.TrimSpace(errb.String()), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q (want %s)", c.args, code, errb.String(), c.want)
		}
	}
	if b, _ := os.ReadFile(data); !strings.HasPrefix(string(b), "x,y") {
		t.Error("the input was overwritten")
	}
}

type planFixture struct {
	dir                  string
	data, tiered         string // rows with an id column; the same rows with a tier column
	people, public       string
	peoplePlan, tierPlan string
	publicPlan           string
	ids                  []string // data order
	tiers                []string
	rows                 []string // feature and label part of each data row
	publicRows           []string
}

func newPlanFixture(t *testing.T) *planFixture {
	t.Helper()
	f := &planFixture{dir: t.TempDir()}
	r := rand.New(rand.NewPCG(7, 8))
	const n = 30
	var data, people, public strings.Builder
	var tiered strings.Builder
	data.WriteString("x1,id,x2,x3,y\n")
	tiered.WriteString("x1,x2,tier,x3,y\n")
	people.WriteString("id,epsilon\n")
	row := func() string {
		x := []float64{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5}
		return fmt.Sprintf("%.4f,%.4f,%.4f,%d", x[0], x[1], x[2], r.IntN(2))
	}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("p%02d", r.IntN(1000)*100+i) // distinct, not sorted
		eps := []string{"0.5", "1", "3"}[i%3]
		tier := []string{"strict", "mid", "loose"}[i%3]
		xs := row()
		parts := strings.Split(xs, ",")
		fmt.Fprintf(&data, "%s,%s,%s,%s,%s\n", parts[0], id, parts[1], parts[2], parts[3])
		fmt.Fprintf(&tiered, "%s,%s,%s,%s,%s\n", parts[0], parts[1], tier, parts[2], parts[3])
		fmt.Fprintf(&people, "%s,%s\n", id, eps)
		f.ids, f.tiers, f.rows = append(f.ids, id), append(f.tiers, tier), append(f.rows, xs)
	}
	public.WriteString("x1,x2,x3,y\n")
	for i := 0; i < 3; i++ {
		xs := row()
		public.WriteString(xs + "\n")
		f.publicRows = append(f.publicRows, xs)
	}
	f.data, f.tiered, f.people, f.public = f.path("data.csv"), f.path("tiered.csv"), f.path("people.csv"), f.path("public.csv")
	for p, s := range map[string]string{f.data: data.String(), f.tiered: tiered.String(), f.people: people.String(), f.public: public.String()} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := []string{"--lipschitz", "1", "--smoothness", "0.25", "--radius", "1", "--dimension", "3", "--delta", "1e-5"}
	f.peoplePlan, f.tierPlan, f.publicPlan = f.path("people-plan.json"), f.path("tier-plan.json"), f.path("public-plan.json")
	for _, args := range [][]string{
		append([]string{"--people", f.people, "--out", f.peoplePlan}, base...),
		append([]string{"--tier", "strict=10:0.5", "--tier", "mid=10:1", "--tier", "loose=10:3", "--variant", "skip", "--out", f.tierPlan}, base...),
		append([]string{"--people", f.people, "--public", "3", "--out", f.publicPlan}, base...),
	} {
		if _, errs, code := planCLI(args...); code != 0 {
			t.Fatalf("plan %v: exit %d %s", args, code, errs)
		}
	}
	return f
}

func (f *planFixture) path(name string) string { return filepath.Join(f.dir, name) }

func loadPlanFile(t *testing.T, path string) *plan.Plan {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	p, err := plan.Load(fh)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// writeOrdered writes the data rows (without id and tier) in the order
// given by idx, then the public rows, and returns the file.
func (f *planFixture) writeOrdered(t *testing.T, name string, idx []int, public bool) string {
	var b strings.Builder
	b.WriteString("x1,x2,x3,y\n")
	for _, i := range idx {
		b.WriteString(f.rows[i] + "\n")
	}
	if public {
		for _, r := range f.publicRows {
			b.WriteString(r + "\n")
		}
	}
	p := f.path(name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func weights(m map[string]any) []any { return m["w"].([]any) }

func fullNum(x any) string { return strconv.FormatFloat(x.(float64), 'g', -1, 64) }

// TestRunPlan: run --plan orders the rows as planned (the same weights as
// a plain run on the data sorted by hand with the plan's σ and η), shows
// that the plan was followed and every group's recomputed ε, for people
// plans (--id, --row-ids), tier plans (--tier) and public records
// (--public-data).
func TestRunPlan(t *testing.T) {
	f := newPlanFixture(t)
	pos := map[string]int{}
	for i, id := range f.ids {
		pos[id] = i
	}
	pp := loadPlanFile(t, f.peoplePlan)
	byPlan := make([]int, pp.People.Len())
	for t, id := range pp.People.ID.Strings() {
		byPlan[t] = pos[id]
	}
	tp := loadPlanFile(t, f.tierPlan)
	var byTier []int
	for _, tr := range tp.Tiers {
		for i, name := range f.tiers {
			if name == tr.Name {
				byTier = append(byTier, i)
			}
		}
	}
	cases := []struct {
		name    string
		args    []string
		p       *plan.Plan
		order   []int
		public  bool
		variant string
		groups  int
	}{
		{"people by id", []string{"--plan", f.peoplePlan, "--id", "id"}, pp, byPlan, false, "pnsgd", 3},
		{"tiers", []string{"--plan", f.tierPlan, "--tier", "tier", "--data", f.tiered}, tp, byTier, false, "skip", 3},
		{"public", []string{"--plan", f.publicPlan, "--id", "id", "--public-data", f.public}, loadPlanFile(t, f.publicPlan), byPlan, true, "pnsgd", 3},
	}
	for _, c := range cases {
		args := withFlags([]string{"run", "--data", f.data, "--label", "y", "--seed", "5", "--normalize"}, c.args...) // the case's --data replaces the base's
		m, code, stderr := runJSON(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
		}
		al := m["training"].(map[string]any)
		al["eta"] = al["loss"].(map[string]any)["eta"]
		if al["sigma"].(float64) != c.p.Sigma || al["eta"].(float64) != c.p.Eta || al["variant"] != c.variant {
			t.Errorf("%s: σ, η, variant %v %v %v, plan %v %v", c.name, al["sigma"], al["eta"], al["variant"], c.p.Sigma, c.p.Eta)
		}
		pj := m["plan"].(map[string]any)
		groups := pj["groups"].([]any)
		if pj["worst_ratio"].(float64) > 1 || len(groups) != c.groups {
			t.Fatalf("%s: plan %v", c.name, pj)
		}
		for _, g := range groups {
			g := g.(map[string]any)
			if g["achieved_max"].(float64) > g["epsilon"].(float64) {
				t.Errorf("%s: group %v above its target", c.name, g)
			}
		}
		// A followed plan's constants and ratios are refused when broken, so
		// they are assumptions of the run, not checks that cannot fail.
		checks, as := checksByName(m), fmt.Sprint(m["assumptions"])
		for _, name := range []string{"declared constants within the plan", "achieved/target ≤ 1 at every position"} {
			if _, ok := checks[name]; ok || !strings.Contains(as, name+"'s (refused otherwise)") && !strings.Contains(as, name+" (refused otherwise)") {
				t.Errorf("%s: %q must be an assumption, not a check: %v", c.name, name, as)
			}
		}
		// The same run by hand: rows sorted in the plan's order.
		sorted := f.writeOrdered(t, "sorted.csv", c.order, c.public)
		hand := []string{"run", "--data", sorted, "--label", "y", "--seed", "5", "--normalize", "--variant", c.variant,
			"--sigma", fullNum(al["sigma"]), "--eta", fullNum(al["eta"])}
		if c.public {
			hand = append(hand, "--public", "3")
		}
		m2, code, stderr := runJSON(t, hand...)
		if code != 0 {
			t.Fatalf("%s by hand: exit %d %s", c.name, code, stderr)
		}
		if w1, w2 := weights(m), weights(m2); !reflect.DeepEqual(w1, w2) {
			t.Errorf("%s: weights differ from the hand-sorted run:\n%v\n%v", c.name, w1, w2)
		}
	}
	// A strongly convex plan (contraction c < 1) runs with --l2 m.
	strong := f.path("strong.json")
	if _, errs, code := planCLI("--people", f.people, "--radius", "1", "--dimension", "3", "--strong-convexity", "0.1", "--smoothness", "0.5", "--eta", "0.5", "--out", strong); code != 0 {
		t.Fatal(errs)
	}
	m, code, stderr := runJSON(t, "run", "--data", f.data, "--label", "y", "--plan", strong, "--id", "id", "--l2", "0.1", "--normalize")
	if (code != 0) || m["plan"].(map[string]any)["worst_ratio"].(float64) > 1 || checksByName(m)["measured contraction ≤ c"]["bound"].(float64) >= 1 {
		t.Errorf("strongly convex plan: exit %d %s %v", code, stderr, m["checks"])
	}
	// Row numbers as ids: a people CSV whose ids are 1..n.
	var people strings.Builder
	people.WriteString("id,epsilon\n")
	for i := range f.ids {
		fmt.Fprintf(&people, "%d,%s\n", i+1, []string{"3", "0.5", "1"}[i%3])
	}
	pc, rp := f.path("rows.csv"), f.path("rows-plan.json")
	os.WriteFile(pc, []byte(people.String()), 0o644)
	if _, errs, code := planCLI("--people", pc, "--radius", "1", "--dimension", "3", "--lipschitz", "1", "--out", rp); code != 0 {
		t.Fatal(errs)
	}
	var out, errb bytes.Buffer
	plain := f.writeOrdered(t, "plain.csv", byPlan, false) // no text columns
	code = run([]string{"run", "--data", plain, "--label", "y", "--plan", rp, "--row-ids", "--quiet", "--normalize"}, &out, &errb)
	for _, s := range []string{"following plan", "plan followed", "matched by row number", "ε of positions 1–10", "target 0.5"} {
		if code > 1 || !strings.Contains(out.String(), s) {
			t.Errorf("row ids: exit %d, output lacks %q:\n%s%s", code, s, out.String(), errb.String())
		}
	}
}

// TestRunPlanBadInput: every mismatch between data, flags and plan exits
// with status 2 and one line naming it.
func TestRunPlanBadInput(t *testing.T) {
	f := newPlanFixture(t)
	lines, _ := os.ReadFile(f.data)
	all := strings.SplitAfter(strings.TrimSuffix(string(lines), "\n"), "\n")
	write := func(name, s string) string {
		p := f.path(name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	missing := write("missing.csv", strings.Join(all[:len(all)-1], "")) // the last person's row removed
	extra := write("extra.csv", string(lines)+"0.1,zz9,0.1,0.1,1\n")    // a row for nobody in the plan
	tierExtra := write("tier-extra.csv", mustRead(t, f.tiered)+"0.1,0.1,loose,0.1,1\n")
	twice := write("twice.csv", string(lines)+strings.Replace(all[1], "\n", "", 1)+"\n")                       // a person twice
	big := write("big.csv", strings.Replace(string(lines), all[2], "9,"+strings.SplitN(all[2], ",", 2)[1], 1)) // ‖x‖ = 9
	tiers := mustRead(t, f.tierPlan)
	i := strings.LastIndex(tiers, `"epsilon": 3`) // the tier's target, not the summary's
	edited := write("edited.json", tiers[:i]+`"epsilon": 0.01`+tiers[i+len(`"epsilon": 3`):])
	pub2 := write("pub2.csv", "x1,x2,x3,y\n0.1,0.1,0.1,1\n")
	strong, bigEta := f.path("strong.json"), f.path("big-eta.json")
	for _, args := range [][]string{
		{"--people", f.people, "--radius", "1", "--dimension", "3", "--strong-convexity", "0.1", "--smoothness", "0.5", "--eta", "0.5", "--out", strong},
		{"--people", f.people, "--radius", "1", "--dimension", "3", "--eta", "20", "--out", bigEta},
	} {
		if _, errs, code := planCLI(args...); code != 0 {
			t.Fatalf("plan %v: %s", args, errs)
		}
	}
	lastID := f.ids[len(f.ids)-1]
	cases := []struct {
		args []string
		frag []string
	}{
		{[]string{"--plan", f.peoplePlan, "--id", "id", "--data", missing}, []string{"planned person \"" + lastID + "\" is not in the data", "position"}},
		{[]string{"--plan", f.peoplePlan, "--id", "id", "--data", extra}, []string{"line 32: id \"zz9\" is not in the plan", "1 record of the data"}},
		{[]string{"--plan", f.peoplePlan, "--id", "id", "--data", twice}, []string{"line 32", "appears twice"}},
		{[]string{"--plan", f.tierPlan, "--tier", "tier", "--data", tierExtra}, []string{"line 32: more records of tier \"loose\""}},
		{[]string{"--plan", f.peoplePlan, "--data", f.data}, []string{"--id COLUMN", "--row-ids"}},
		{[]string{"--plan", f.peoplePlan, "--id", "nope", "--data", f.data}, []string{`no column "nope"`}},
		{[]string{"--plan", f.tierPlan, "--id", "id", "--data", f.tiered}, []string{"tier plan", "--tier COLUMN"}},
		{[]string{"--plan", f.peoplePlan, "--id", "id", "--data", f.data, "--sigma", "2"}, []string{"--sigma cannot be used with --plan"}},
		{[]string{"--plan", f.peoplePlan, "--id", "id", "--data", f.data, "--radius", "2"}, []string{"--radius 2 exceeds the plan's radius"}},
		{[]string{"--plan", f.peoplePlan, "--id", "id", "--data", big, "--feature-bound", "9"}, []string{"--feature-bound", "above the plan's 1"}},
		{[]string{"--plan", f.peoplePlan, "--id", "id", "--data", f.data, "--l2", "0.2"}, []string{"β = 0.45", "above the plan's 0.25"}},
		{[]string{"--plan", strong, "--id", "id", "--data", f.data}, []string{"--l2", "below the plan's 0.1"}},
		{[]string{"--plan", bigEta, "--id", "id", "--data", f.data}, []string{"--plan", "does not contract"}},
		{[]string{"--plan", f.publicPlan, "--id", "id", "--data", f.data}, []string{"3 public records", "--public-data"}},
		{[]string{"--plan", f.publicPlan, "--id", "id", "--data", f.data, "--public-data", pub2}, []string{"1 rows, but the plan has 3 public records"}},
		{[]string{"--plan", f.peoplePlan, "--id", "id", "--data", f.data, "--public-data", pub2}, []string{"no public records"}},
		{[]string{"--plan", edited, "--tier", "tier", "--data", f.tiered}, []string{"breaks 10 of its own targets", "privamp verify"}},
		{[]string{"--plan", f.path("none.json"), "--id", "id", "--data", f.data}, []string{"--plan: cannot open"}},
		{[]string{"--plan", f.data, "--id", "id", "--data", f.data}, []string{"--plan", "not a valid plan"}},
		{[]string{"--id", "id", "--data", f.data}, []string{"--id goes with --plan"}},
		{[]string{"--plan", f.peoplePlan, "--id", "id", "--synthetic", "logistic"}, []string{"--synthetic cannot be used with --plan"}},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"run", "--label", "y", "--quiet", "--normalize"}, c.args...), &out, &errb)
		msg := errb.String()
		ok := code == 2 && strings.Count(strings.TrimSpace(msg), "\n") == 0 && out.Len() == 0 && strings.Contains(msg, "--")
		if f := strings.TrimSuffix(strings.Fields(c.frag[0])[0], ":"); strings.HasPrefix(f, "--") {
			ok = ok && strings.Contains(msg, f)
		}
		if !ok {
			t.Errorf("%v: exit %d, stderr %q (want 2, one line with %q)", c.args, code, msg, c.frag)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
