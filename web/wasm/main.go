//go:build js && wasm

// Command wasm is the engine of privamp's planning page (web/static): the
// library compiled with GOOS=js GOARCH=wasm. It answers through package
// query, the layer the Python package also calls, so that every number on
// the page is the number the command line prints for the same question.
// It sets four JavaScript functions on the global object, each taking and
// returning strings (JSON where structured):
//
//   - privamp(method, request) → {"result": …} with the object the command
//     of that name prints with --json, or {"error": {kind, field, value,
//     reason, message, flag}} where message reads as the command line's
//     (the field named as its flag) and flag is that flag's name;
//   - privampNumbers(command, {"flag": "text", …}) → {"values": {"flag": x,
//     …}} or {"error": {flag, message}}: the text a person typed, read as
//     the command line reads its flags' values (strconv.ParseFloat);
//   - privampFormat(kind, x) → x printed as the command line prints a
//     number of that kind (loss and noise rounded up, max down, num to
//     nearest; int without exponent);
//   - privampMethods() → the query methods, as a JSON array.
//
// The page calls it on its main thread for the fast answers and, loaded a
// second time, in a Web Worker (web/static/worker.js) for the long ones.
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/query"
)

func main() {
	g := js.Global()
	g.Set("privamp", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return encode(map[string]any{"error": map[string]any{"kind": query.KindFailure, "message": "privamp(method, request): two strings"}})
		}
		return call(args[0].String(), args[1].String())
	}))
	g.Set("privampNumbers", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return encode(map[string]any{"error": map[string]any{"message": "privampNumbers(command, fields): two strings"}})
		}
		return numbers(args[0].String(), args[1].String())
	}))
	g.Set("privampFormat", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 || args[1].Type() != js.TypeNumber {
			return "privampFormat(kind, x): x must be a number"
		}
		return format(args[0].String(), args[1].Float())
	}))
	g.Set("privampMethods", js.FuncOf(func(js.Value, []js.Value) any { return encode(query.Methods()) }))
	if ready := g.Get("privampReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // the functions stay callable for the page's lifetime
}

// call answers one query and wraps the answer or the error.
func call(method, request string) string {
	out, err := query.Do(method, []byte(request))
	if err != nil {
		e, ok := err.(*query.Error)
		if !ok {
			e = &query.Error{Kind: query.KindFailure, Message: err.Error()}
		}
		msg, flag := flagMessage(e)
		return encode(map[string]any{"error": map[string]any{"kind": e.Kind, "field": e.Field, "value": e.Value,
			"reason": e.Reason, "line": e.Line, "message": msg, "flag": flag}})
	}
	return `{"result":` + string(out) + `}`
}

// flagMessage words a refused request as the command line words the same
// refusal (cmd/privamp's flagError): a request key is the flag with "_"
// for "-", so "--" + the key with "-" reads "--noise must be a finite
// number > 0, got 0". A field that names no flag keeps the library's
// message.
func flagMessage(e *query.Error) (msg, flag string) {
	if e.Kind != query.KindBadInput || e.Field == "" || strings.Trim(e.Field, "abcdefghijklmnopqrstuvwxyz0123456789_.-") != "" {
		return e.Error(), ""
	}
	flag = strings.NewReplacer("_", "-", ".", "-").Replace(e.Field)
	if e.Line > 0 { // the request's JSON refused (a fraction for a count): its reason holds the value
		return "--" + flag + ": " + e.Reason, flag
	}
	got := ""
	if e.Value != nil {
		got = ", got " + field.FormatValue(e.Value)
	}
	return "--" + flag + " " + e.Reason + got, flag
}

// numbers reads typed text as the command line reads a float flag: pflag's
// strconv.ParseFloat, its refusal shortened as privamp's root command does.
func numbers(command, fields string) string {
	var in map[string]string
	if err := json.Unmarshal([]byte(fields), &in); err != nil {
		return encode(map[string]any{"error": map[string]any{"message": err.Error()}})
	}
	out := make(map[string]float64, len(in))
	for flag, text := range in {
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return encode(map[string]any{"error": map[string]any{"flag": flag,
				"message": fmt.Sprintf("invalid argument %q for \"--%s\" flag: not a number (see 'privamp %s --help')", text, flag, command)}})
		}
		if math.IsNaN(x) || math.IsInf(x, 0) { // cmd/privamp's finite: JSON cannot carry the value on
			return encode(map[string]any{"error": map[string]any{"flag": flag,
				"message": fmt.Sprintf("--%s must be a finite number, got %v", flag, x)}})
		}
		out[flag] = x
	}
	return encode(map[string]any{"values": out})
}

// format prints x as the command line prints a number of the given kind.
func format(kind string, x float64) string {
	switch kind {
	case "loss":
		return dp.Loss(x).String()
	case "max":
		return dp.Max(x).String()
	case "noise":
		return dp.Noise(x).String()
	case "int":
		return quantity.Int(x)
	default:
		return dp.Num(x).String()
	}
}

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{"error":{"kind":"failure","message":` + strconv.Quote(err.Error()) + `}}`
	}
	return string(b)
}
