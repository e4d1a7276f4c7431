package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/privamp/privamp/query"
)

// TestQueryEqualsCLI asks package query (what Python and the web page call)
// and the command line the same questions: the JSON objects must be equal,
// key for key and number for number, except the keys only one side has
// (the file names the command line read or wrote; the plan file and the
// exit status query returns in the object).
func TestQueryEqualsCLI(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct {
		name    string
		args    []string
		method  string
		request string
		long    bool // not under -short
	}{
		{"dpsgd MNIST", []string{"dpsgd"}, "dpsgd", `{"n":60000,"batch":256,"epochs":60,"noise":1.1,"delta":1e-5}`, true},
		{"dpsgd rdp replace-one", []string{"dpsgd", "--sampling-rate", "0.01", "--steps", "1000", "--noise", "1", "--neighbours", "replace-one", "--accountant", "rdp", "--conversion", "classic"},
			"dpsgd", `{"sampling_rate":0.01,"steps":1000,"noise":1,"delta":1e-5,"neighbours":"replace-one","accountant":"rdp","conversion":"classic"}`, false},
		{"dpsgd fixed-size", []string{"dpsgd", "--n", "1000", "--batch", "100", "--steps", "50", "--noise", "2", "--neighbours", "replace-one", "--sampling", "fixed-size", "--delta", "1e-6"},
			"dpsgd", `{"n":1000,"batch":100,"steps":50,"noise":2,"delta":1e-6,"neighbours":"replace-one","sampling":"fixed-size"}`, true},
		{"dpsgd calibrate", []string{"dpsgd", "--target-epsilon", "3"}, "dpsgd", `{"n":60000,"batch":256,"epochs":60,"target_epsilon":3,"delta":1e-5}`, true},
		{"dpsgd full batch", []string{"dpsgd", "--sampling-rate", "1", "--steps", "10", "--noise", "5", "--delta", "1e-6"}, "dpsgd", `{"sampling_rate":1,"steps":10,"noise":5,"delta":1e-6}`, false},
		{"dpsgd shuffle", []string{"dpsgd", "--n", "6000", "--batch", "256", "--epochs", "1", "--sampling", "shuffle"}, "dpsgd",
			`{"n":6000,"batch":256,"epochs":1,"noise":1.1,"delta":1e-5,"sampling":"shuffle"}`, true},
		{"events", []string{"compose", "--events", "../../examples/events-two-phase.json", "--target-delta", "1e-6", "--accountant", "rdp"},
			"events", `{"events":` + read("../../examples/events-two-phase.json") + `,"delta":1e-6,"accountant":"rdp"}`, false},
		{"events pld", []string{"compose", "--events", "../../examples/events-two-phase.json", "--target-delta", "1e-6"},
			"events", `{"events":` + read("../../examples/events-two-phase.json") + `,"delta":1e-6}`, true},
		{"curve", []string{"curve", "--n", "2000", "--sigma", "4", "--variants", "pnsgd,skip", "--points", "20"}, "curve", `{"n":2000,"sigma":4,"variants":["pnsgd","skip"],"points":20}`, false},
		{"curve all", []string{"curve", "--n", "300", "--sigma", "2", "--eta", "0.5", "--smoothness", "1", "--radius", "1", "--epochs", "3", "--all", "--no-sampling"},
			"curve", `{"n":300,"sigma":2,"eta":0.5,"smoothness":1,"radius":1,"epochs":3,"all":true,"no_sampling":true}`, true},
		{"plan", []string{"plan", "--tier", "0.1:0.5", "--tier", "0.9:2", "--n", "1000", "--radius", "1", "--dimension", "10", "--delta", "1e-6"},
			"plan", `{"tiers":["0.1:0.5","0.9:2"],"n":1000,"radius":1,"dimension":10,"delta":1e-6}`, false},
		{"verify dpsgd claim", []string{"verify", "../../examples/dpsgd-claim.json"}, "verify", read("../../examples/dpsgd-claim.json"), false},
		{"verify plan", []string{"verify", "../../examples/plan/tiers-plan.json"}, "verify", read("../../examples/plan/tiers-plan.json"), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("-short: the fast cases cover every method (query's own tests hold the rest)")
			}
			t.Parallel()
			out, errs, code := runCLI(append(c.args, "--json")...)
			if code != 0 && code != 1 && code != 3 { // verdicts exit 1 (invalid) or 3 (unsupported)
				t.Fatalf("privamp %v: exit %d: %s", c.args, code, errs)
			}
			var cli map[string]any
			if err := json.Unmarshal([]byte(out), &cli); err != nil {
				t.Fatalf("privamp %v: %v", c.args, err)
			}
			b, err := query.Do(c.method, []byte(c.request))
			if err != nil {
				t.Fatalf("query.Do(%s): %v", c.method, err)
			}
			var got map[string]any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if st, ok := got["exit_status"]; ok && st != float64(code) {
				t.Errorf("exit_status %v, the command line exits %d", st, code)
			}
			for _, k := range []string{"file", "trajectory", "plan_file", "plot_file"} {
				delete(cli, k)
			}
			for _, k := range []string{"plan", "exit_status"} {
				delete(got, k)
			}
			if !reflect.DeepEqual(cli, got) {
				for k := range cli {
					if !reflect.DeepEqual(cli[k], got[k]) {
						t.Errorf("key %q: command line %v, query %v", k, short(cli[k]), short(got[k]))
					}
				}
				for k := range got {
					if _, ok := cli[k]; !ok {
						t.Errorf("key %q only in query's answer", k)
					}
				}
			}
		})
	}
}

func short(v any) string {
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return strings.TrimSpace(s)
}
