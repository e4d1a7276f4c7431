package query

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
)

// TestBadInputNamesTheField: every refusal is an *Error of kind bad_input
// that names the request's key, never a panic or a bare message.
func TestBadInputNamesTheField(t *testing.T) {
	for _, c := range []struct{ method, request, field string }{
		{"dpsgd", `{"n":60000,"batch":256,"epochs":60,"noise":1.1,"delta":2}`, "delta"},
		{"dpsgd", `{"n":60000,"batch":256,"epochs":60,"noise":-1,"delta":1e-5}`, "noise"},
		{"dpsgd", `{"n":60000,"batch":256,"epochs":60,"delta":1e-5}`, "noise"},
		{"dpsgd", `{"n":60000,"batch":256,"epochs":60,"noise":1,"target_epsilon":1,"delta":1e-5}`, "target_epsilon"},
		{"dpsgd", `{"n":60000,"batch":256,"epochs":60,"noise":1,"delta":1e-5,"accountant":"moments"}`, "accountant"},
		{"dpsgd", `{"n":60000,"batch":256,"epochs":60,"noise":1,"delta":1e-5,"nosie":1}`, "nosie"},
		{"dpsgd", `{"n":60000,"batch":256,"epochs":60,"noise":"1","delta":1e-5}`, "noise"},
		{"dpsgd", `[1,2]`, ""},
		{"dpsgd", `{"n":60000,"batch":256,"epochs":60,"noise":1.1,"delta":1e-5,"sampling":"shuffled"}`, "sampling"},
		{"events", `{"events":{"event":{"type":"Gaussian","noise_multiplier":0}},"delta":1e-5}`, "events.event.noise_multiplier"},
		{"events", `{"delta":1e-5}`, "events"},
		{"curve", `{"n":0,"sigma":1}`, "n"},
		{"curve", `{"n":10,"sigma":1,"variants":["nope"]}`, "variants"},
		{"plan", `{"tiers":["0.5:1"],"n":10,"radius":1}`, "dimension"},
		{"verify", `{"algorithm":"dpsgd"}`, ""},
		{"nothing", `{}`, "method"},
	} {
		_, err := Do(c.method, []byte(c.request))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s %s: %v is not a *query.Error", c.method, c.request, err)
			continue
		}
		if e.Kind != KindBadInput || !strings.Contains(e.Field+" "+e.Message, c.field) || e.Message == "" {
			t.Errorf("%s %s: %+v, want bad input naming %q", c.method, c.request, e, c.field)
		}
		if _, err := json.Marshal(e); err != nil {
			t.Errorf("%s: the error is not JSON-able: %v", c.method, err)
		}
	}
}

// TestFloatsEqualJSON: the bulk path's arrays are the JSON answer's numbers.
func TestFloatsEqualJSON(t *testing.T) {
	req := []byte(`{"n":500,"sigma":3,"variants":["pnsgd","stop"],"all":true}`)
	b, err := Do("curve", req)
	if err != nil {
		t.Fatal(err)
	}
	var js struct {
		Index   []float64 `json:"index"`
		Columns []struct {
			Column  string     `json:"column"`
			Epsilon []*float64 `json:"epsilon"`
		} `json:"columns"`
	}
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatal(err)
	}
	meta, cols, err := Floats("curve", req)
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) != 1+len(js.Columns) || cols[0].Name != "index" || len(cols[0].Values) != 500 {
		t.Fatalf("columns %d, first %q of %d values", len(cols), cols[0].Name, len(cols[0].Values))
	}
	for i, x := range cols[0].Values {
		if x != js.Index[i] {
			t.Fatalf("index[%d] = %v, JSON %v", i, x, js.Index[i])
		}
	}
	for j, c := range js.Columns {
		got := cols[j+1]
		if got.Name != c.Column {
			t.Errorf("column %d named %q, JSON %q", j, got.Name, c.Column)
		}
		for i, e := range c.Epsilon {
			if (e == nil) != math.IsInf(got.Values[i], 1) || e != nil && *e != got.Values[i] {
				t.Fatalf("%s[%d] = %v, JSON %v", c.Column, i, got.Values[i], e)
			}
		}
	}
	if strings.Contains(string(meta), `"epsilon":[`) || !strings.Contains(string(meta), `"epsilon_pnsgd"`) {
		t.Errorf("meta should name the columns without their arrays: %.300s", meta)
	}
	if _, _, err := Floats("curve", []byte(`{"n":20000001,"sigma":1,"all":true}`)); err == nil || err.(*Error).Field != "n" {
		t.Errorf("a bulk curve over MaxCurveBulk: %v", err)
	}
	if _, _, err := Floats("dpsgd", []byte(`{}`)); err == nil {
		t.Error("dpsgd has no bulk result, yet Floats answered")
	}
}

// TestConcurrentCalls: several goroutines at once get the answers one alone gets.
func TestConcurrentCalls(t *testing.T) {
	reqs := []struct{ method, request string }{
		{"dpsgd", `{"sampling_rate":0.01,"steps":1000,"noise":1,"delta":1e-5,"accountant":"rdp"}`},
		{"curve", `{"n":1000,"sigma":4,"points":10}`},
		{"plan", `{"tiers":["0.1:0.5","0.9:2"],"n":1000,"radius":1,"dimension":10}`},
		{"dpsgd", `{"noise":-1}`},
		{"dpsgd", `{"sampling_rate":0.05,"steps":30,"noise":1,"delta":1e-5,"accountant":"pld"}`}, // the PLD's shared FFT cache
	}
	want := make([]string, len(reqs))
	for i, r := range reqs {
		b, err := Do(r.method, []byte(r.request))
		want[i] = fmt.Sprint(string(b), err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	goroutines := 8
	if testing.Short() {
		goroutines = 3 // still every request at once
	}
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 2 {
				i := (g*2 + k) % len(reqs)
				b, err := Do(reqs[i].method, []byte(reqs[i].request))
				if got := fmt.Sprint(string(b), err); got != want[i] {
					errs <- fmt.Sprintf("goroutine %d, %s: %.200s, alone %.200s", g, reqs[i].method, got, want[i])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestPanicIsAFailure: a method that panics gives a failure, not a crash.
func TestPanicIsAFailure(t *testing.T) {
	Register("test-panic", func([]byte, bool) (*Result, error) { panic("boom") })
	_, err := Do("test-panic", nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindFailure || !strings.Contains(e.Message, "boom") {
		t.Errorf("got %v", err)
	}
}

// BenchmarkDoFormat is the Go side of the Python per-query overhead
// (bench/python_vs_dp_accounting.py): the cheapest method, in process.
func BenchmarkDoFormat(b *testing.B) {
	req := []byte(`{"kind":"loss","values":[1.5]}`)
	for b.Loop() {
		if _, err := Do("format", req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDoMNIST is the MNIST example through query (what Python's
// privamp.dpsgd pays in Go): composition.DPSGDWith by the tightest accountant.
func BenchmarkDoMNIST(b *testing.B) {
	req := []byte(`{"n":60000,"batch":256,"epochs":60,"noise":1.1,"delta":1e-5}`)
	for b.Loop() {
		if _, err := Do("dpsgd", req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDoEventsMNIST is the MNIST example as Python's drop-in
// privamp.PLDAccountant asks it (method events, accountant pld, the events
// of dp_accounting's DP-SGD description, interval 1e-4).
func BenchmarkDoEventsMNIST(b *testing.B) {
	req := []byte(`{"events": {"neighbouring": "add_or_remove_one", "event": {"type": "SelfComposed", "event": {"type": "PoissonSampled", "sampling_probability": 0.004266666666666667, "event": {"type": "Gaussian", "noise_multiplier": 1.1}}, "count": 14063}}, "delta": 1e-05, "accountant": "pld", "discretization": 0.0001}`)
	for b.Loop() {
		if _, err := Do("events", req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEventsSoundOnly: sound_only gives the same headline without the
// optimistic estimate (and, under pld, without RDP's value beside it).
func TestEventsSoundOnly(t *testing.T) {
	ev := `{"events":{"event":{"type":"SelfComposed","count":300,"event":{"type":"PoissonSampled","sampling_probability":0.01,"event":{"type":"Gaussian","noise_multiplier":1.1}}}},"delta":1e-5,"accountant":"%s"%s}`
	for _, acc := range []string{"pld", "best"} {
		var full, so map[string]any
		for _, c := range []struct {
			extra string
			out   *map[string]any
		}{{"", &full}, {`,"sound_only":true`, &so}} {
			b, err := Do("events", []byte(fmt.Sprintf(ev, acc, c.extra)))
			if err != nil {
				t.Fatal(acc, err)
			}
			if err := json.Unmarshal(b, c.out); err != nil {
				t.Fatal(err)
			}
		}
		if full["epsilon"] != so["epsilon"] || full["accountant"] != so["accountant"] || full["source"] != so["source"] {
			t.Errorf("%s: sound-only %v %v, full %v %v", acc, so["epsilon"], so["accountant"], full["epsilon"], full["accountant"])
		}
		if full["epsilon_optimistic"] == nil || so["epsilon_optimistic"] != nil {
			t.Errorf("%s: optimistic %v in full, %v sound-only (want a value and none)", acc, full["epsilon_optimistic"], so["epsilon_optimistic"])
		}
		if full["rdp_epsilon"] == nil || (so["rdp_epsilon"] == nil) != (acc == "pld") {
			t.Errorf("%s: rdp_epsilon %v in full, %v sound-only", acc, full["rdp_epsilon"], so["rdp_epsilon"])
		}
	}
}
