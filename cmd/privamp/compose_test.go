package main

import (
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/internal/quantity"
)

// composeCLI runs privamp compose with args (runCLI is in accounting_test.go).
func composeCLI(args ...string) (stdout, stderr string, code int) {
	return runCLI(append([]string{"compose"}, args...)...)
}

// composeJSON runs privamp compose --json and decodes its single object.
func composeJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	return jsonOf(t, append([]string{"compose"}, args...)...)
}

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Abs(b) }

func TestComposeBestDefault(t *testing.T) {
	obj := composeJSON(t, "--epsilon", "0.1", "--compositions", "100", "--target-delta", "1e-5")
	want, _ := composition.Best(0.1, 0, 100, 1e-5)
	if obj["epsilon"].(float64) != float64(want.Epsilon) || obj["method"] != "optimal" || obj["command"] != "compose" {
		t.Errorf("best: %v via %v, want %v via optimal", obj["epsilon"], obj["method"], want.Epsilon)
	}
	ms := obj["methods"].([]any)
	if len(ms) != 4 {
		t.Fatalf("methods: %v", ms)
	}
	names := []string{"basic", "advanced", "filter", "optimal"}
	for i, m := range ms {
		mm := m.(map[string]any)
		for _, key := range []string{"method", "epsilon", "delta", "source", "valid", "chosen"} {
			if _, ok := mm[key]; !ok {
				t.Errorf("method %d has no %q", i, key)
			}
		}
		if mm["method"] != names[i] {
			t.Errorf("method %d = %v", i, mm["method"])
		}
		if mm["valid"] != true || mm["epsilon"].(float64) < obj["epsilon"].(float64) {
			t.Errorf("method %v: %v", mm["method"], mm)
		}
	}
	// the docs/seeds.md#seed-001-amplification-and-composition vector appears as the advanced row.
	if a := ms[1].(map[string]any)["epsilon"].(float64); math.Abs(a-5.850235) > 5e-7 {
		t.Errorf("advanced = %v, want 5.850235", a)
	}
	if obj["compositions"].(float64) != 100 || obj["mechanism_epsilon"].(float64) != 0.1 || obj["target_delta"].(float64) != 1e-5 {
		t.Errorf("inputs echoed wrongly: %v", obj)
	}
	// 1e5 and "1e5" style k are accepted.
	obj = composeJSON(t, "--epsilon", "0.001", "--compositions", "1e5", "--target-delta", "1e-6")
	if obj["method"] != "optimal" || obj["epsilon"].(float64) >= 0.001*1e5 {
		t.Errorf("k = 1e5: %v via %v", obj["epsilon"], obj["method"])
	}
}

func TestComposeSingleMethods(t *testing.T) {
	for _, c := range []struct {
		args   []string
		method string
		eps    float64
		delta  float64
	}{
		{[]string{"--method", "advanced", "--epsilon", "0.1", "--compositions", "100", "--delta-prime", "1e-5"}, "advanced", 5.850235, 1e-5},
		{[]string{"--method", "advanced", "--epsilon", "0.01", "--compositions", "10000", "--delta-prime", "1e-6"}, "advanced", 6.261538, 1e-6},
		{[]string{"--method", "advanced", "--epsilon", "1", "--compositions", "10", "--delta-prime", "1e-5"}, "advanced", 32.357090, 1e-5},
		{[]string{"--method", "advanced", "--epsilon", "0.1", "--delta", "1e-7", "--compositions", "100", "--target-delta", "2e-5"}, "advanced",
			math.Sqrt(200*math.Log(1e5))*0.1 + 10*math.Expm1(0.1), 2e-5},
		{[]string{"--method", "basic", "--epsilon", "0.1", "--delta", "1e-7", "--compositions", "100"}, "basic", 10, 1e-5},
		{[]string{"--method", "filter", "--epsilon", "0.1", "--compositions", "100", "--delta-prime", "1e-5"}, "filter",
			0.1*math.Sqrt(200*math.Log(1e5)) + 0.5, 1e-5},
	} {
		obj := composeJSON(t, c.args...)
		if obj["method"] != c.method || !near(obj["epsilon"].(float64), c.eps, 1e-6) || !near(obj["delta"].(float64), c.delta, 1e-9) {
			t.Errorf("%v: (%v, %v) via %v, want (%v, %v) via %s", c.args, obj["epsilon"], obj["delta"], obj["method"], c.eps, c.delta, c.method)
		}
		if n := len(obj["methods"].([]any)); n != 1 {
			t.Errorf("%v: %d methods", c.args, n)
		}
	}
	// optimal with --delta-prime: target = kδ + δ'.
	obj := composeJSON(t, "--method", "optimal", "--epsilon", "0.01", "--delta", "1e-9", "--compositions", "100000", "--delta-prime", "1e-5")
	want, _ := composition.OptimalEpsilon(0.01, 1e-9, 100000, 1e-4+1e-5)
	if obj["epsilon"].(float64) != want || obj["delta"].(float64) > 1.1e-4*(1+1e-12) {
		t.Errorf("optimal k=1e5: %v, want %v (δ %v)", obj["epsilon"], want, obj["delta"])
	}
}

func TestComposeList(t *testing.T) {
	obj := composeJSON(t, "--list", "0.5:1e-6, 0.2:0,1:1e-7")
	if obj["method"] != "basic" || !near(obj["epsilon"].(float64), 1.7, 1e-15) || !near(obj["delta"].(float64), 1.1e-6, 1e-12) {
		t.Errorf("basic list: %v", obj)
	}
	if len(obj["guarantees"].([]any)) != 3 || obj["notes"] == nil {
		t.Errorf("guarantees/notes missing: %v", obj)
	}
	// The same via repeated --guarantee, an entry without δ meaning pure.
	obj2 := composeJSON(t, "--guarantee", "0.5:1e-6", "--guarantee", "0.2", "--guarantee", "1:1e-7")
	if obj2["epsilon"] != obj["epsilon"] || obj2["delta"] != obj["delta"] {
		t.Errorf("--guarantee differs from --list: %v vs %v", obj2, obj)
	}
	// Many small guarantees with a δ budget: the PLD wins, far below the filter bound.
	items := make([]string, 400)
	for i := range items {
		items[i] = strconv.FormatFloat(0.01+0.005*float64(i%4), 'g', -1, 64) + ":0"
	}
	obj = composeJSON(t, "--list", strings.Join(items, ","), "--target-delta", "1e-6")
	if obj["method"] != "pld" || obj["epsilon"].(float64) >= 0.25*400*0.0175 {
		t.Errorf("400 small: %v via %v", obj["epsilon"], obj["method"])
	}
	// CSV: the methods table.
	out, _, code := composeCLI("--list", "0.5:1e-6,0.2:0,1:1e-7", "--target-delta", "1e-5", "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 4 || strings.Join(recs[0], ",") != "method,epsilon,delta,valid,chosen,source,reason" {
		t.Errorf("csv: %v %v\n%s", code, err, out)
	}
	if recs[1][0] != "basic" || recs[2][0] != "pld" || recs[3][0] != "filter" {
		t.Errorf("csv rows %v", recs)
	}
}

func TestComposeFilterCheck(t *testing.T) {
	obj := composeJSON(t, "--method", "filter", "--list", "0.1:0,0.1:1e-6,0.3:0,0.05:0",
		"--target-epsilon", "1", "--delta-prime", "1e-5", "--target-delta", "2e-5")
	// Σε² after two steps: 0.02 → √(2 ln(1e5)·0.02) + 0.01 = 0.689 ≤ 1;
	// with 0.3 added: 0.11 → 1.646 > 1, so the filter halts at step 3.
	if obj["allowed"].(float64) != 2 || obj["halted"] != true || obj["epsilon"].(float64) != 1 || !near(obj["delta"].(float64), 2e-5, 1e-12) {
		t.Errorf("filter check: %v", obj)
	}
	steps := obj["filter_steps"].([]any)
	if len(steps) != 4 || steps[1].(map[string]any)["allowed"] != true || steps[2].(map[string]any)["allowed"] != false || steps[3].(map[string]any)["allowed"] != false {
		t.Errorf("steps %v", steps)
	}
	want := math.Sqrt(2*math.Log(1e5)*0.02) + 0.01
	if !near(obj["filter_bound"].(float64), want, 1e-12) || !near(obj["sum_delta"].(float64), 1e-6, 1e-12) {
		t.Errorf("bound %v (want %v), Σδ %v", obj["filter_bound"], want, obj["sum_delta"])
	}
	out, _, code := composeCLI("--method", "filter", "--list", "0.1:0,0.3:0", "--target-epsilon", "1", "--delta-prime", "1e-5", "--target-delta", "2e-5")
	if code != 0 || !strings.Contains(out, "filter halts here") {
		t.Errorf("table: %d\n%s", code, out)
	}
}

func TestComposeFilterInverse(t *testing.T) {
	// docs/seeds.md#seed-003-test-vectors, first row: ε = 1, k = 100, δ = 1e-5.
	obj := composeJSON(t, "--method", "filter", "--epsilon", "0.02", "--compositions", "100", "--target-delta", "1e-5", "--target-epsilon", "1")
	if !near(obj["max_step_epsilon"].(float64), 0.0204059, 1e-5) || !near(obj["cor36_step_epsilon"].(float64), 0.0104199, 1e-5) {
		t.Errorf("inverse: %v", obj)
	}
	// Outside Cor. 3.6's range (ε > 8 ln(1/δ) = 55.3): no number, a reason.
	obj = composeJSON(t, "--method", "filter", "--epsilon", "1", "--compositions", "10", "--target-delta", "1e-3", "--target-epsilon", "60")
	if obj["cor36_step_epsilon"] != nil || !strings.Contains(obj["cor36_reason"].(string), "8 ln(1/delta)") {
		t.Errorf("Cor 3.6 out of range: %v", obj)
	}
}

func TestComposeTableOutput(t *testing.T) {
	out, errs, code := composeCLI("--epsilon", "0.1", "--compositions", "100", "--target-delta", "1e-5")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range []string{"Kairouz–Oh–Viswanath 2015", "Dwork–Rothblum–Vadhan 2010", "Whitehouse et al. 2023", "Dwork–Roth 2014",
		"4.3068", "Assumptions:"} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
	// Not applicable methods are labelled, never given a number.
	out, _, code = composeCLI("--epsilon", "0.1", "--delta", "0.125", "--compositions", "4", "--target-delta", "0.5")
	if code != 0 || !strings.Contains(out, "not applicable") || !strings.Contains(out, "needs delta' = target") {
		t.Errorf("not-applicable rows: %d\n%s", code, out)
	}
	obj := composeJSON(t, "--epsilon", "0.1", "--delta", "0.125", "--compositions", "4", "--target-delta", "0.5")
	for _, m := range obj["methods"].([]any) {
		mm := m.(map[string]any)
		if mm["valid"] == false && (mm["epsilon"] != nil || mm["reason"] == nil) {
			t.Errorf("invalid method with a number: %v", mm)
		}
	}
	// An infinite ε is "no finite guarantee", JSON null plus a reason.
	obj = composeJSON(t, "--method", "advanced", "--epsilon", "800", "--compositions", "2", "--delta-prime", "1e-5")
	if obj["epsilon"] != nil || obj["epsilon_reason"] != noFinite {
		t.Errorf("infinite ε: %v", obj)
	}
	out, _, _ = composeCLI("--method", "advanced", "--epsilon", "800", "--compositions", "2", "--delta-prime", "1e-5")
	if !strings.Contains(out, noFinite) || strings.Contains(out, "Inf") || strings.Contains(out, "NaN") {
		t.Errorf("infinite ε table:\n%s", out)
	}
}

func TestFmtEpsRoundsUp(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{4.306791372532895, "4.30680"}, {10, "10"}, {1e-5, "1e-05"}, {9.999999999312937e-06, "1e-05"},
		{0.9999999, "1"}, {999999.5, "1e+06"}, {0, "0"}, {math.Inf(1), noFinite}, {0.1234561, "0.123457"}} {
		got := dp.Loss(c.x).String()
		if v, err := strconv.ParseFloat(got, 64); c.want != noFinite && (err != nil || v < c.x) {
			t.Errorf("quantity.Up(%v) = %q is below", c.x, got)
		}
		if got != c.want && !(c.want == "4.30680" && got == "4.3068") {
			t.Errorf("quantity.Up(%v) = %q, want %q", c.x, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100000; i++ {
		x := math.Exp(rng.NormFloat64() * 20)
		v, err := strconv.ParseFloat(quantity.Up(x), 64)
		if err != nil || v < x || v > x*(1+1.1e-5) {
			t.Fatalf("quantity.Up(%v) = %q", x, quantity.Up(x))
		}
	}
}

func TestComposeBadInput(t *testing.T) {
	cases := []struct {
		args []string
		flag string
	}{
		{[]string{"--method", "magic", "--epsilon", "1", "--compositions", "2"}, "--method"},
		{[]string{"--epsilon", "-1", "--compositions", "10"}, "--epsilon"},
		{[]string{"--epsilon", "NaN", "--compositions", "10"}, "--epsilon"},
		{[]string{"--epsilon", "Inf", "--compositions", "10"}, "--epsilon"},
		{[]string{"--epsilon", "x", "--compositions", "10"}, "--epsilon"},
		{[]string{"--epsilon", "1", "--compositions", "0"}, "--compositions"},
		{[]string{"--epsilon", "1", "--compositions", "2.5"}, "--compositions"},
		{[]string{"--epsilon", "1", "--compositions", "1e8"}, "--compositions"},
		{[]string{"--epsilon", "1", "--compositions", "-3"}, "--compositions"},
		{[]string{"--epsilon", "1", "--compositions", "10", "--delta", "1"}, "--delta"},
		{[]string{"--epsilon", "1", "--compositions", "10", "--delta", "-0.1"}, "--delta"},
		{[]string{"--epsilon", "1"}, "--compositions"},
		{[]string{"--compositions", "10"}, "--epsilon"},
		{[]string{}, "--epsilon"},
		{[]string{"--epsilon", "1", "--compositions", "10", "--delta-prime", "0"}, "--delta-prime"},
		{[]string{"--epsilon", "1", "--compositions", "10", "--delta-prime", "1"}, "--delta-prime"},
		{[]string{"--epsilon", "1", "--compositions", "10", "--target-delta", "0"}, "--target-delta"},
		{[]string{"--epsilon", "1", "--compositions", "10", "--target-delta", "1.5"}, "--target-delta"},
		{[]string{"--epsilon", "1", "--compositions", "10", "--delta-prime", "1e-5", "--target-delta", "1e-4"}, "--delta-prime"},
		{[]string{"--method", "advanced", "--epsilon", "1", "--compositions", "10"}, "--delta-prime"},
		{[]string{"--method", "optimal", "--epsilon", "1", "--compositions", "10"}, "--target-delta"},
		{[]string{"--method", "advanced", "--epsilon", "1", "--compositions", "10", "--delta", "1e-5", "--target-delta", "1e-5"}, "--target-delta"},
		{[]string{"--method", "filter", "--epsilon", "1", "--compositions", "10", "--delta", "1e-5", "--target-delta", "1e-5"}, "--target-delta"},
		{[]string{"--method", "optimal", "--epsilon", "1", "--compositions", "10", "--delta", "0.1", "--target-delta", "0.5"}, "--target-delta"},
		{[]string{"--epsilon", "0.1", "--compositions", "10", "--delta", "0.1", "--target-delta", "0.5"}, "--target-delta"},
		{[]string{"--epsilon", "0.1", "--compositions", "10", "--delta", "0.09", "--delta-prime", "0.5"}, "--delta-prime"},
		{[]string{"--list", "1:0,x:0"}, "--list"},
		{[]string{"--list", "1:2"}, "--list"},
		{[]string{"--list", "1:0,,2:0"}, "--list"},
		{[]string{"--list", ""}, "--list"},
		{[]string{"--list", "-1:0"}, "--list"},
		{[]string{"--list", "Inf:0"}, "--list"},
		{[]string{"--list", "1:NaN"}, "--list"},
		{[]string{"--list", "1:0", "--epsilon", "1"}, "--list"},
		{[]string{"--list", "1:0", "--compositions", "3"}, "--list"},
		{[]string{"--guarantee", "a:0"}, "--guarantee"},
		{[]string{"--method", "advanced", "--list", "1:0,2:0", "--target-delta", "1e-5"}, "--method"},
		{[]string{"--method", "optimal", "--list", "1:0"}, "--method"},
		{[]string{"--epsilon", "1", "--compositions", "2", "--target-delta", "1e-5", "--target-epsilon", "1"}, "--target-epsilon"},
		{[]string{"--method", "filter", "--list", "1:0", "--target-epsilon", "0", "--delta-prime", "1e-5", "--target-delta", "2e-5"}, "--target-epsilon"},
		{[]string{"--method", "filter", "--list", "1:0", "--target-epsilon", "1", "--target-delta", "1e-5"}, "--delta-prime"},
		{[]string{"--method", "filter", "--list", "1:0", "--target-epsilon", "1", "--delta-prime", "1e-5", "--target-delta", "1e-5"}, "--target-delta"},
		{[]string{"--method", "filter", "--list", "1:0"}, "--delta-prime"},
		{[]string{"--epsilon", "1", "--compositions", "2", "--json", "--csv"}, "--json"},
		{[]string{"--epsilon", "1", "--compositions", "2", "extra"}, "extra"},
	}
	for _, tc := range cases {
		expectBadInput(t, append([]string{"compose"}, tc.args...), tc.flag)
	}
}

// FuzzComposeFlags: no input panics or exits with anything but 0 or 2, and
// bad input never writes to stdout.
func FuzzComposeFlags(f *testing.F) {
	f.Add("best", "0.1", "0", "100", "1e-5", "")
	f.Add("filter", "", "", "", "2e-5", "0.1:0,0.3:1e-7")
	f.Add("advanced", "1e308", "0.5", "1e7", "0.999", "")
	f.Add("optimal", "-0", "1e-300", "1", "1e-300", "")
	f.Fuzz(func(t *testing.T, method, eps, delta, k, target, list string) {
		args := []string{"--method", method, "--target-delta", target}
		if list != "" {
			args = append(args, "--list", list)
		} else {
			args = append(args, "--epsilon", eps, "--delta", delta, "--compositions", k)
		}
		if v, err := strconv.ParseFloat(k, 64); err == nil && v > 1e6 {
			return // keep each run fast; k up to 10^7 is covered by the tests above
		}
		out, errs, code := composeCLI(args...)
		if code != 0 && code != 2 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		if code == 2 && (out != "" || strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0) {
			t.Fatalf("%q: bad input wrote stdout %q / stderr %q", args, out, errs)
		}
		if code == 0 && (strings.Contains(out, "NaN") || strings.Contains(out, "+Inf")) {
			t.Fatalf("%q: unlabelled NaN/Inf:\n%s", args, out)
		}
	})
}

// compose --events: the file's accounting, its bad input named (exit 2).
func TestComposeEvents(t *testing.T) {
	obj := composeJSON(t, "--events", "../../examples/events-two-phase.json", "--target-delta", "1e-6")
	pldEps, _ := obj["pld_epsilon"].(float64)
	rdpEps, _ := obj["rdp_epsilon"].(float64)
	if obj["accountant"] != "pld" || obj["epsilon"] != pldEps || !(pldEps > 2.6 && pldEps < rdpEps) || obj["epsilon_optimistic"].(float64) > pldEps {
		t.Errorf("two-phase file: %v", obj)
	}
	obj = composeJSON(t, "--events", "../../examples/events-two-phase.json", "--target-delta", "1e-6", "--accountant", "rdp")
	if obj["epsilon"] != rdpEps || obj["accountant"] != "rdp" {
		t.Errorf("--accountant rdp: %v", obj)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"event": {"type": "SelfComposed", "count": 3, "event": {"type": "Gaussian", "noise_multiplier": -1}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--events", bad, "--target-delta", "1e-6"}, "event.event.noise_multiplier"},
		{[]string{"--events", "../../examples/events-two-phase.json"}, "--target-delta"},
		{[]string{"--events", "../../examples/events-two-phase.json", "--target-delta", "1e-6", "--epsilon", "1"}, "--epsilon"},
		{[]string{"--events", "../../examples/events-two-phase.json", "--target-delta", "1e-6", "--accountant", "prv"}, "--accountant"},
		{[]string{"--events", "no-such-file.json", "--target-delta", "1e-6"}, "no-such-file.json"},
	} {
		_, errOut, code := composeCLI(c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, want 2 naming %s: %q", c.args, code, c.want, errOut)
		}
	}
}
