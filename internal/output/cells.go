package output

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// numberToken is a number standing on its own in a cell's text, not part
// of a name such as bst14-sgd, fmtt18, epsilon_2 or 0.1.0-dev. Compiled on
// first use: at package initialisation it cost every privamp process 6% of
// its start-up (issue 27).
var numberToken = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^\pL\pN_.])([-+]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)(%?)(?:$|[^\pL\pN_.])`)
})

// wordPattern is a word of a sentence: two letters or more.
var wordPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\pL\pL+`) })

// OneValue is the rule for a value cell of privamp's CSV (issue 27: one
// number per cell): it is empty, parses as one number (strconv.ParseFloat:
// inf and NaN too), is a word or label with no number standing on its own
// ("VALID", "add/remove", "bst14-sgd", "0.1.0-dev"), or is a statement of
// five words or more (a verdict's reason, an assumption). "58880 of 60000
// records (98.13%)", "2.38 / 1.67", "[0.67, 1.21]" and "75 passes, ε = 9.08"
// are not: writeCSV gives each of their numbers a row (numberRows).
func OneValue(c string) bool {
	c = strings.TrimSpace(c)
	if _, err := strconv.ParseFloat(c, 64); err == nil || c == "" {
		return true
	}
	return numbers(c) == nil || len(wordPattern().FindAllString(c, 5)) >= 5
}

// numbers returns the [start, end) of each number standing on its own in
// c (with its % sign, if any), or nil.
func numbers(c string) [][2]int {
	var out [][2]int
	for at := 0; at < len(c); {
		m := numberToken().FindStringSubmatchIndex(c[at:])
		if m == nil {
			break
		}
		out = append(out, [2]int{at + m[2], at + m[5]})
		at += m[5] // the next number may start right after the separator
	}
	return out
}

// numberRows splits a headline row (quantity, value, unit, source) whose
// value breaks OneValue into one row per number: the quantity names the
// number by the value's text with it replaced by "#" ("coverage [# of 60000
// records (98.13%)]"), the value is the number, and the unit is "%" for a
// percentage, else the row's unit.
func numberRows(x [4]string) [][4]string {
	if OneValue(x[1]) {
		return [][4]string{x}
	}
	var out [][4]string
	for _, n := range numbers(x[1]) {
		num, unit := x[1][n[0]:n[1]], x[2]
		if strings.HasSuffix(num, "%") {
			num, unit = strings.TrimSuffix(num, "%"), "%"
		}
		key := x[1][:n[0]] + "#" + x[1][n[0]+len(num):]
		out = append(out, [4]string{x[0] + " [" + key + "]", num, unit, x[3]})
	}
	return out
}
