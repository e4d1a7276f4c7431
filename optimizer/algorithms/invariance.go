package algorithms

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Covered reports whether a line of this kind must be the same on every
// pair of neighbouring data sets: declared, derived, certified and given
// values come from the declared bounds and the parameters only (a
// certificate, or a release decision, read from the private data would not
// be one). Measured values come from the run and are labelled as such; they
// are not covered by the certificate.
func Covered(kind string) bool {
	return kind == Declared || kind == Derived || kind == Certified || kind == Given
}

// Kinds lists the kinds a Line may carry.
var Kinds = []string{Declared, Derived, Certified, Measured, Given}

// Difference is one value that differs between the reports of two
// neighbouring data sets although it may not.
type Difference struct {
	// Where names the value: a line's quantity, or a JSON path of the result.
	Where string `json:"where"`
	A     string `json:"a"`
	B     string `json:"b"`
}

func (d Difference) String() string { return fmt.Sprintf("%s: %q vs %q", d.Where, d.A, d.B) }

// CompareNeighbours compares the reports of one algorithm run with the same
// parameters and seed on two neighbouring data sets. It returns every line
// that may not differ and does (a covered kind: Covered), every line without
// a known kind, a different set of lines, and every leaf of the JSON result
// that differs outside a measured part: a path through a "measured" key, a
// check's value, status or detail (a check compares a measured value with a
// derived bound; the bound is compared), and the keys in released (the
// algorithm's private output, protected by the certificate, e.g. "w").
// It also returns how many values it compared.
func CompareNeighbours(a, b *Report, released ...string) (diffs []Difference, compared int) {
	if len(a.Lines) != len(b.Lines) {
		diffs = append(diffs, Difference{"lines", fmt.Sprint(len(a.Lines)), fmt.Sprint(len(b.Lines))})
	}
	for i := 0; i < min(len(a.Lines), len(b.Lines)); i++ {
		la, lb := a.Lines[i], b.Lines[i]
		for _, l := range []Line{la, lb} {
			if !slices.Contains(Kinds, l.Kind) {
				diffs = append(diffs, Difference{"kind of " + l.Quantity, l.Kind, "want one of " + strings.Join(Kinds, ", ")})
			}
		}
		if la.Quantity != lb.Quantity || la.Kind != lb.Kind {
			diffs = append(diffs, Difference{fmt.Sprintf("line %d", i+1), la.Quantity + " (" + la.Kind + ")", lb.Quantity + " (" + lb.Kind + ")"})
			continue
		}
		if !Covered(la.Kind) {
			continue
		}
		compared++
		if va, vb := fmt.Sprint(la.Value), fmt.Sprint(lb.Value); va != vb || la.Source != lb.Source {
			diffs = append(diffs, Difference{la.Quantity + " (" + la.Kind + ")", va + " [" + la.Source + "]", vb + " [" + lb.Source + "]"})
		}
	}
	ja, jb := flatten(a.Result), flatten(b.Result)
	keys := map[string]bool{}
	for k := range ja {
		keys[k] = true
	}
	for k := range jb {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		if measuredPath(k, released) {
			continue
		}
		compared++
		if ja[k] != jb[k] && !strings.HasPrefix(ja[k], "measured") && !strings.HasPrefix(jb[k], "measured") {
			diffs = append(diffs, Difference{"JSON " + k, ja[k], jb[k]})
		}
	}
	return diffs, compared
}

// measuredPath tells whether a JSON path lies in a measured part of a
// result (CompareNeighbours).
func measuredPath(path string, released []string) bool {
	segs := strings.Split(path, ".")
	for i, s := range segs {
		if s == "measured" || strings.HasPrefix(s, "measured_") || slices.Contains(released, s) {
			return true
		}
		if s == "checks" && i+2 < len(segs) && (segs[i+2] == "value" || segs[i+2] == "status" || segs[i+2] == "detail" || segs[i+2] == "bound") {
			return true
		}
	}
	return false
}

// flatten maps a JSON value's leaves to their paths (keys and indices
// joined by dots).
func flatten(v any) map[string]string {
	out := map[string]string{}
	data, err := json.Marshal(v)
	if err != nil {
		out[""] = "unencodable: " + err.Error()
		return out
	}
	var x any
	_ = json.Unmarshal(data, &x)
	var walk func(prefix string, x any)
	walk = func(prefix string, x any) {
		switch t := x.(type) {
		case map[string]any:
			for k, v := range t {
				walk(strings.TrimPrefix(prefix+"."+k, "."), v)
			}
		case []any:
			for i, v := range t {
				walk(fmt.Sprintf("%s.%d", prefix, i), v)
			}
		default:
			out[prefix] = fmt.Sprint(t)
		}
	}
	walk("", x)
	return out
}
