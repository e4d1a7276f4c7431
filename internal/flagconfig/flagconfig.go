// Package flagconfig sets command-line flags from a JSON object (privamp run
// --config FILE): the object's keys are the flags' names with "_" for "-",
// each value has its flag's type, and flags already set on the command line
// win. The object is read by the strict decoder every privamp input goes
// through (internal/jsonin: exact, unique snake_case keys, whole numbers as
// 1e3, a size limit).
package flagconfig

import (
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/privamp/privamp/internal/jsonin"
	"github.com/spf13/pflag"
)

// MaxBytes is the largest configuration accepted.
const MaxBytes = 1 << 20

// types maps a pflag value type to the JSON type read for it.
var types = map[string]reflect.Type{"string": reflect.TypeFor[*string](), "float64": reflect.TypeFor[*float64](),
	"int": reflect.TypeFor[*int64](), "int64": reflect.TypeFor[*int64](), "uint64": reflect.TypeFor[*int64](), "bool": reflect.TypeFor[*bool](),
	"intSlice": reflect.TypeFor[*[]int64](), "int64Slice": reflect.TypeFor[*[]int64]()}

// Apply sets every flag of fs named in the JSON object read from r that the
// command line did not set; skip names flags that may not be configured.
// Errors name the key.
func Apply(fs *pflag.FlagSet, r io.Reader, skip ...string) error {
	var fields []reflect.StructField
	var flags []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) {
		typ, ok := types[f.Value.Type()]
		for _, s := range skip {
			ok = ok && f.Name != s
		}
		if ok {
			key := strings.ReplaceAll(f.Name, "-", "_")
			fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", len(fields)), Type: typ, Tag: reflect.StructTag(`json:"` + key + `"`)})
			flags = append(flags, f)
		}
	})
	v := reflect.New(reflect.StructOf(fields))
	if err := jsonin.Decode(r, MaxBytes, v.Interface()); err != nil {
		return err
	}
	for i, f := range flags {
		x := v.Elem().Field(i)
		if x.IsNil() || f.Changed {
			continue
		}
		val := fmt.Sprint(x.Elem().Interface())
		if sl, ok := x.Elem().Interface().([]int64); ok {
			val = strings.Trim(strings.Join(strings.Fields(fmt.Sprint(sl)), ","), "[]")
		}
		if err := fs.Set(f.Name, val); err != nil {
			msg := err.Error()
			if i := strings.Index(msg, ": strconv."); i > 0 {
				msg = msg[:i] + ": not a number"
			}
			return fmt.Errorf("key %q: %s", fields[i].Tag.Get("json"), msg)
		}
	}
	return nil
}

// WholeNumbers lets every int and int64 flag of fs take a whole number
// written as a float64 literal ("1e3", "2.5e4", "500.0"), as float flags
// take "1e12", and refuses any other number naming the flag's range where
// its usage writes one "(lo to hi)" (pflag's error names the flag). Values
// that parse as integers are set exactly as before.
func WholeNumbers(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		switch f.Value.Type() {
		case "int", "int64":
			if _, done := f.Value.(wholeNumber); !done {
				f.Value = wholeNumber{f.Value, f.Usage}
			}
		}
	})
}

// wholeNumber is an integer flag value that also reads exact integers in
// float notation.
type wholeNumber struct {
	pflag.Value
	usage string
}

// usageRange reads a flag usage's "(a to b)" range; compiled on first use, not at
// every start of privamp.
var usageRange = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\((-?[0-9][0-9.e+]*) to (-?[0-9][0-9.e+]*)\)`)
})

func (w wholeNumber) Set(s string) error {
	if w.Value.Set(s) == nil {
		return nil
	}
	lo, hi, rng := -0x1p63, 0x1p63, "" // int64, and int on 64-bit platforms
	if math.MaxInt == math.MaxInt32 && w.Value.Type() == "int" {
		lo, hi = math.MinInt32, math.MaxInt32+1
	}
	if m := usageRange().FindStringSubmatch(w.usage); m != nil {
		rng = " in [" + m[1] + ", " + m[2] + "]"
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f != math.Trunc(f) || !(f >= lo && f < hi) {
		return fmt.Errorf("must be a whole number%s (written 1000 or 1e3)", rng)
	}
	return w.Value.Set(strconv.FormatInt(int64(f), 10))
}

// Once makes every flag of fs refuse a second value on one command line
// ("--delta 1e-5 --delta 1e-6" would silently use 1e-6), as JSON inputs
// refuse a repeated key. List flags (pflag's slice and array types, such
// as --index and --tier) are meant to repeat and are left as they are.
// Calling it again on the same flags does nothing more.
func Once(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		t := f.Value.Type()
		if strings.HasSuffix(t, "Slice") || strings.HasSuffix(t, "Array") {
			return
		}
		if _, done := f.Value.(*once); !done {
			f.Value = &once{Value: f.Value, name: f.Name}
		}
	})
}

// Repeated begins the error of a flag given twice; a caller that shortens
// pflag's "invalid argument … for … flag: " prefix looks for it.
const Repeated = "repeated flag: "

// once is a flag value that may be set once.
type once struct {
	pflag.Value
	name  string
	first string // the first value given, "" before
	set   bool
}

func (o *once) Set(s string) error {
	if o.set {
		if o.IsBoolFlag() {
			return fmt.Errorf("%s--%s is given twice: give it once", Repeated, o.name)
		}
		return fmt.Errorf("%s--%s is given twice (%s, then %s): give it once", Repeated, o.name, o.first, s)
	}
	if err := o.Value.Set(s); err != nil {
		return err
	}
	o.first, o.set = s, true
	return nil
}

// IsBoolFlag keeps a boolean flag usable without a value.
func (o *once) IsBoolFlag() bool {
	b, ok := o.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// CleanError shortens a pflag parse error to one line that names the flag:
// a repeated flag's own message, and "not a number" for strconv's.
func CleanError(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, Repeated); i > 0 {
		msg = msg[i+len(Repeated):]
	}
	// invalid argument "x" for "--delta" flag: strconv.ParseFloat: parsing "x": invalid syntax
	if i := strings.Index(msg, ": strconv."); i > 0 {
		msg = msg[:i] + ": not a number"
	}
	return strings.ReplaceAll(msg, "\n", " ")
}

// IsUsageError recognises cobra's own argument errors (unknown command,
// wrong number of arguments, flag syntax), which are bad input.
func IsUsageError(msg string) bool {
	for _, s := range []string{"unknown command", "accepts ", "requires at least", "unknown flag", "unknown shorthand", "invalid argument", "flag needs an argument", "required flag"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// Alias adds a hidden flag old to fs that sets the flag name (so that
// both together are a repeated flag, refused by Once) and, when used,
// writes note to w: a deprecated spelling kept for earlier scripts.
func Alias(fs *pflag.FlagSet, old, name string, w io.Writer, note string) {
	fs.Var(&alias{fs: fs, name: name, w: w, note: note}, old, note)
	_ = fs.MarkHidden(old)
}

type alias struct {
	fs         *pflag.FlagSet
	name, note string
	w          io.Writer
}

func (a *alias) String() string { return "" }
func (a *alias) Type() string   { return "string" }
func (a *alias) Set(s string) error {
	fmt.Fprintln(a.w, a.note)
	return a.fs.Set(a.name, s)
}

// Positive refuses a value ≤ 0 (or not a number) of the named numeric
// flags of fs that the command line set: a count or a size given as 0
// that the library would read as "not given" (or as 1).
func Positive(fs *pflag.FlagSet, names ...string) error {
	for _, n := range names {
		f := fs.Lookup(n)
		if f == nil || !f.Changed {
			continue
		}
		if v, err := strconv.ParseFloat(f.Value.String(), 64); err != nil || !(v > 0) {
			return fmt.Errorf("--%s must be > 0, got %s", n, f.Value.String())
		}
	}
	return nil
}
