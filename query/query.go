// Package query answers privamp's questions asked as JSON, in process: the
// layer that the Python package (python/privamp, through the c-shared
// library in cmd/libprivamp) and the web page call, so that every caller
// outside Go reaches the same library functions the command line uses.
//
// Do(method, request) decodes the request (one JSON object, keys exact and
// unique, internal/jsonin's rules), calls the library function the command
// of the same name calls, and returns the object that command prints with
// --json (internal/output.Object of the same typed result): the numbers are
// the command line's by construction. The methods:
//
//   - "dpsgd": composition.DPSGDWith, as privamp dpsgd (DPSGDRequest);
//   - "events": events.Account of a dp_accounting-style events object, as
//     privamp compose --events, plus δ at given ε (EventsRequest);
//   - "curve": shifted.PersonCurves, as privamp curve (CurveRequest);
//   - "plan": plan.Make from tiers, as privamp plan --tier (PlanRequest);
//   - "verify": verify.Verify of a claim, or verify.VerifyPlan of a plan,
//     as privamp verify (the request is the claim or plan file's content).
//
// Floats(method, request) is the bulk path: "curve" returns every ε of a
// per-person curve as float arrays, without JSON numbers in between.
//
// Errors are *Error: bad input carries the field, value and reason of the
// library's dp.Error (the field as the request spells it); anything else
// is a failure with its message. Methods are registered at init time, one
// file per method (Register), so that new methods need no shared edit.
// Every method is safe to call from several goroutines at once.
package query

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/jsonin"
	"github.com/privamp/privamp/internal/output"
)

// MaxRequest is the largest request Do accepts (16 MiB).
const MaxRequest = 16 << 20

var inf = math.Inf(1)

// Result is what a method computes: the typed result the command prints
// with --json, and the command's name, assumptions and notes where the
// result does not carry them (output.Doc's rules).
type Result struct {
	Command     string
	Value       any
	Assumptions []string
	Notes       []string
	// Floats are the bulk arrays (Floats only): named columns of equal
	// length, in order; Meta is what the bulk answer says beside them (the
	// result without its arrays).
	Floats []Column
	Meta   any
}

// Column is one named float array of a bulk result.
type Column struct {
	Name   string    `json:"name"`
	Values []float64 `json:"-"`
}

// Method answers one kind of request; bulk is set when the caller asked
// for float arrays (Floats), which may then be larger than JSON allows.
type Method func(request []byte, bulk bool) (*Result, error)

var (
	mu      sync.RWMutex
	methods = map[string]Method{}
)

// Register adds a method; it panics on a duplicate name (a programming
// error, found at init).
func Register(name string, m Method) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := methods[name]; dup {
		panic("query: method registered twice: " + name)
	}
	methods[name] = m
}

// Methods lists the registered methods' names, sorted.
func Methods() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, 0, len(methods))
	for k := range methods {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func lookup(method string) (Method, error) {
	mu.RLock()
	m, ok := methods[method]
	mu.RUnlock()
	if !ok {
		return nil, &Error{Kind: KindBadInput, Field: "method", Value: method, Reason: fmt.Sprintf("must be one of %v", Methods())}
	}
	return m, nil
}

// Do answers request by method and returns the JSON object the command
// line prints with --json for the same question. A panic inside a method is
// returned as a failure, never a crash of the caller's process.
func Do(method string, request []byte) (out []byte, err error) {
	res, err := call(method, request, false)
	if err != nil {
		return nil, err
	}
	obj, err := output.Object(output.Doc{Result: res.Value, Command: res.Command, Assumptions: res.Assumptions, Notes: res.Notes})
	if err != nil {
		return nil, wrap(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		return nil, wrap(err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Floats answers request by method through the bulk path: the JSON object
// of Do without the arrays, and the arrays. Only methods with a bulk result
// (curve) support it.
func Floats(method string, request []byte) (meta []byte, cols []Column, err error) {
	res, err := call(method, request, true)
	if err != nil {
		return nil, nil, err
	}
	if res.Floats == nil {
		return nil, nil, &Error{Kind: KindBadInput, Field: "method", Value: method, Reason: "has no bulk (float array) result"}
	}
	m := map[string]any{"command": res.Command, "columns": res.Floats}
	if res.Meta != nil {
		m["result"] = res.Meta
	}
	meta, err = json.Marshal(m)
	if err != nil {
		return nil, nil, wrap(err)
	}
	return meta, res.Floats, nil
}

func call(method string, request []byte, bulk bool) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, &Error{Kind: KindFailure, Message: fmt.Sprintf("internal error in %s: %v", method, p)}
		}
	}()
	m, err := lookup(method)
	if err != nil {
		return nil, wrap(err)
	}
	if len(request) > MaxRequest {
		return nil, &Error{Kind: KindBadInput, Field: "request", Reason: fmt.Sprintf("must be at most %d bytes", MaxRequest)}
	}
	res, err = m(request, bulk)
	if err != nil {
		return nil, wrap(err)
	}
	return res, nil
}

// decode reads the request into v (a pointer to a struct whose absent
// fields keep their values): jsonin's strict rules, errors naming the key.
func decode(request []byte, v any) error {
	if len(bytes.TrimSpace(request)) == 0 {
		request = []byte("{}")
	}
	return jsonin.Decode(bytes.NewReader(request), MaxRequest, v)
}

// The kinds of Error.
const (
	KindBadInput = "bad_input" // the request: Field, Value, Reason (the command line's exit status 2)
	KindFailure  = "failure"   // anything else (exit status 1)
)

// Error is a refused request or a failed computation, as JSON: for bad
// input the library's dp.Error (Field as the request spells it, Value,
// Reason, and Line for a line of an embedded file); Message reads as the
// library's error does.
type Error struct {
	Kind    string `json:"kind"`
	Field   string `json:"field,omitempty"`
	Value   any    `json:"value,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

func (e *Error) Error() string {
	if e.Message == "" {
		m := e.Field + " " + e.Reason
		if e.Value != nil {
			m += ", got " + field.FormatValue(e.Value)
		}
		return m
	}
	return e.Message
}

// wrap makes err an *Error: a dp.Error anywhere in its chain is bad input
// with its field, value and reason; the message is err's own.
func wrap(err error) *Error {
	var qe *Error
	if errors.As(err, &qe) {
		if qe.Message == "" {
			qe.Message = qe.Error()
		}
		return qe
	}
	var de *dp.Error
	if errors.As(err, &de) {
		v := de.Value
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			v = field.FormatValue(f) // JSON has no NaN or ∞
		}
		return &Error{Kind: KindBadInput, Field: de.Field, Value: v, Reason: de.Reason, Line: de.Line, Message: err.Error()}
	}
	return &Error{Kind: KindFailure, Message: err.Error()}
}

// badInput is a refusal of a request's value that no library checks (a
// combination of keys).
func badInput(fieldName string, value any, reason string) error {
	return &Error{Kind: KindBadInput, Field: fieldName, Value: value, Reason: reason}
}
