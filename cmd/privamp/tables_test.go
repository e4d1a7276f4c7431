package main

import (
	"encoding/csv"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// runTables runs privamp and returns the exit status, stdout and stderr.
func runTables(args ...string) (int, string, string) {
	out, errw, code := runCLI(args...)
	return code, out, errw
}

var snakeKey = regexp.MustCompile(`^[a-z0-9_]+$`)

// checkSnake walks a decoded JSON value and reports keys that are not snake_case.
func checkSnake(t *testing.T, v any, path string) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !snakeKey.MatchString(k) {
				t.Errorf("JSON key %q at %s is not snake_case", k, path)
			}
			checkSnake(t, e, path+"."+k)
		}
	case []any:
		for _, e := range x {
			checkSnake(t, e, path+"[]")
		}
	}
}

func decodeOne(t *testing.T, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("JSON: %v\n%s", err, s)
	}
	if dec.More() {
		t.Fatal("more than one JSON value")
	}
	checkSnake(t, obj, "$")
	return obj
}

func TestTablesList(t *testing.T) {
	code, out, errw := runTables("tables")
	if code != 0 || errw != "" {
		t.Fatalf("exit %d, stderr %q", code, errw)
	}
	for _, name := range []string{"fmtt18", "bst14", "gtu-rashomon", "gtu-erm-sco", "ggp-l1", "lr-heavy-tailed", "reconstructed"} {
		if !strings.Contains(out, name) {
			t.Errorf("list lacks %q", name)
		}
	}
	code, out, _ = runTables("tables", "--json")
	obj := decodeOne(t, out)
	if code != 0 || len(obj["tables"].([]any)) != 6 {
		t.Errorf("JSON list: %v", obj)
	}
}

func TestTablesRender(t *testing.T) {
	code, out, _ := runTables("tables", "bst14")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"p√n/ε", "√p·log²(n/δ)/ε", "(log³(n/δ)/Δ)·p/(nε²)", "Thm 3.2", "δ < 1/n", "hidden in the printed forms: constants"} {
		if !strings.Contains(out, want) {
			t.Errorf("bst14 render lacks %q", want)
		}
	}
	code, out, _ = runTables("tables", "seed-004", "--markdown")
	if code != 0 || !strings.HasPrefix(out, "## ") || !strings.Contains(out, "RECONSTRUCTED") || !strings.Contains(out, "|---|") {
		t.Errorf("markdown render (exit %d):\n%s", code, out)
	}
	code, out, _ = runTables("tables", "ggp-l1", "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 7 || recs[0][0] != "row" {
		t.Errorf("CSV grid: exit %d, err %v, %d records", code, err, len(recs))
	}
}

func TestTablesEvaluate(t *testing.T) {
	code, out, errw := runTables("tables", "bst14", "--n", "1e4", "--dimension", "10", "--epsilon", "1", "--delta", "1e-6", "--diameter", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	obj := decodeOne(t, out)
	if obj["evaluated"] != true || obj["table"] != "bst14" {
		t.Fatalf("evaluated JSON: %v", obj)
	}
	row0 := obj["rows"].([]any)[0].(map[string]any)
	cells := row0["cells"].([]any)
	v := cells[4].(map[string]any) // (ε,δ) This work
	if x := v["value"].(float64); x < 1676.6 || x > 1676.61 {
		t.Errorf("√p·log²(n/δ)/ε = %v, want 1676.607", x)
	}
	if v["exact"] != false || !strings.Contains(v["label"].(string), "up to constants") {
		t.Errorf("cell label %v", v)
	}
	ex := cells[1].(map[string]any)["explicit"].(map[string]any)
	if x := ex["value"].(float64); x < 104.677 || x > 104.679 {
		t.Errorf("explicit Thm 3.2 = %v", x)
	}
	best := obj["best"].([]any)
	if len(best) != 8 || best[0].(map[string]any)["gap"].(float64) != 1 {
		t.Errorf("best: %v", best)
	}
	// Long-form CSV: one record per evaluated cell (plus explicit bounds).
	code, out, _ = runTables("tables", "ggp-l1", "--n", "1e5", "--dimension", "1000", "--epsilon", "1", "--delta", "1e-5", "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 14 || recs[0][3] != "value" {
		t.Errorf("CSV long: exit %d, err %v, %d records", code, err, len(recs))
	}
	// Text output names the best row and the gap.
	code, out, _ = runTables("tables", "fmtt18", "--n", "1e5", "--dimension", "10", "--epsilon", "0.5", "--delta", "1e-6")
	if code != 0 || !strings.Contains(out, "best row: Noisy SGD + sampling") || !strings.Contains(out, "(explicit)") {
		t.Errorf("fmtt18 text:\n%s", out)
	}
	code, out, _ = runTables("tables", "lr-heavy-tailed", "--n", "1e6", "--dimension", "100", "--rho", "1", "--moment-order", "4", "--markdown")
	if code != 0 || !strings.Contains(out, "gap to the lower bound") {
		t.Errorf("lr markdown (exit %d):\n%s", code, out)
	}
	// ∞ (output perturbation's LDP) is exact and null in JSON with a reason.
	code, out, _ = runTables("tables", "fmtt18", "--n", "100", "--dimension", "1", "--epsilon", "1", "--delta", "1e-3", "--json")
	obj = decodeOne(t, out)
	c := obj["rows"].([]any)[2].(map[string]any)["cells"].([]any)[2].(map[string]any)
	if code != 0 || c["value"] != nil || c["value_reason"] == nil {
		t.Errorf("∞ cell: %v", c)
	}
}

func TestTablesBadInput(t *testing.T) {
	cases := [][]string{
		{"tables", "nope"},
		{"tables", "bst14", "--n", "1000", "--dimension", "10", "--epsilon", "1", "--delta", "0.01"},   // δ ≥ 1/n
		{"tables", "ggp-l1", "--n", "1000", "--dimension", "10", "--epsilon", "60", "--delta", "1e-3"}, // ε ≥ 8 ln(1/δ)
		{"tables", "bst14", "--n", "10.5", "--dimension", "10", "--epsilon", "1", "--delta", "0.01"},
		{"tables", "bst14", "--n", "1000", "--dimension", "10", "--epsilon", "1"}, // δ missing
		{"tables", "bst14", "--n", "1000", "--dimension", "10", "--epsilon", "-1", "--delta", "1e-4"},
		{"tables", "bst14", "--n", "1000", "--dimension", "10", "--epsilon", "1", "--delta", "1e-4", "--lipschitz", "0"},
		{"tables", "bst14", "--n", "1000", "--dimension", "10", "--epsilon", "1", "--delta", "1e-4", "--radius", "NaN"},
		{"tables", "bst14", "--n", "x"},
		{"tables", "--n", "10"},
		{"tables", "bst14", "--markdown", "--json"},
		{"tables", "fmtt18", "--n", "10", "--dimension", "1", "--epsilon", "1", "--delta", "0.1", "--tasks", "11"},
		{"tables", "lr-heavy-tailed", "--n", "100", "--dimension", "1", "--rho", "1", "--moment-order", "1"},
		{"tables", "a", "b"},
	}
	for _, args := range cases {
		code, out, errw := runTables(args...)
		if code != 2 || out != "" || strings.Count(errw, "\n") != 1 || !strings.HasPrefix(errw, "privamp: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errw)
		}
	}
	_, _, errw := runTables("tables", "bst14", "--n", "1000", "--dimension", "10", "--epsilon", "1", "--delta", "0.01")
	if !strings.Contains(errw, "--delta") || !strings.Contains(errw, "1/n") {
		t.Errorf("δ refusal does not name the flag and range: %q", errw)
	}
}

// tables' flags: the table looked up, the parameters given named; nothing
// evaluated.
func TestTablesFlags(t *testing.T) {
	if o := mustParse(t, newTablesCmd); o.Table != nil || len(o.Given) != 0 {
		t.Errorf("list options %+v", o)
	}
	o := mustParse(t, newTablesCmd, "seed-001", "--n", "1e4", "--dimension", "10", "--epsilon", "1", "--delta", "1e-6", "--markdown")
	if o.Table == nil || o.Table.Name != "bst14" || !o.Markdown || o.Params.N != 1e4 || o.Params.Delta != 1e-6 ||
		len(o.Given) != 4 || !o.Given["n"] || !o.Given["dimension"] || !o.Given["epsilon"] || !o.Given["delta"] {
		t.Errorf("bst14 options %+v", o)
	}
	refused(t, newTablesCmd, "unknown table", "nope")
	refused(t, newTablesCmd, "--n needs a table name", "--n", "10")
}
