package jsonin

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/privamp/privamp/internal/field"
)

// maxDepth bounds the nesting of objects and lists.
const maxDepth = 64

// Decode reads one JSON object of at most limit bytes from r into v, a
// non-nil pointer to a struct, under the rules of the package
// documentation. Fields absent from the input keep the values v had, so
// defaults can be set before the call. Errors in the input are *field.Error.
func Decode(r io.Reader, limit int64, v any) error {
	return DecodeSized(r, limit, v, nil)
}

// DecodeSized is Decode with a capacity hint for long lists: before a list
// of numbers or strings is read, size (if not nil) is called with the
// list's path ("people.id"), and a positive answer k makes the list's
// slice be allocated once with capacity k and filled in place, instead of
// being collected in blocks and copied at the end (which holds the list
// twice). It is only a hint: a list longer than k still grows, a shorter
// one leaves the rest unused, so the caller bounds k by what the input can
// hold.
func DecodeSized(r io.Reader, limit int64, v any, size func(path string) int) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("jsonin: Decode needs a non-nil pointer to a struct, got %T", v)
	}
	s := newScanner(r, limit)
	d := &decoder{s: s, size: size}
	err := d.document(rv.Elem())
	return d.wrap(err, limit)
}

type decoder struct {
	s     *scanner
	depth int
	path  []pathElem            // where the decoder is, rendered only for errors
	size  func(path string) int // capacity hint for lists (DecodeSized), or nil
}

// pathElem is a key of an object or (key "") an index of a list.
type pathElem struct {
	key   string
	index int
}

func (d *decoder) push(key string, index int) { d.path = append(d.path, pathElem{key, index}) }
func (d *decoder) pop()                       { d.path = d.path[:len(d.path)-1] }

// at renders the current path ("per_index[2].epsilon").
func (d *decoder) at() string {
	var b strings.Builder
	for _, e := range d.path {
		if e.key == "" {
			fmt.Fprintf(&b, "[%d]", e.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.key)
	}
	return b.String()
}

// atKey renders the path of key in the current object.
func (d *decoder) atKey(key string) string {
	d.push(key, 0)
	defer d.pop()
	return d.at()
}

// atIndex renders the path of element i of the current list.
func (d *decoder) atIndex(i int) string {
	d.push("", i)
	defer d.pop()
	return d.at()
}

func (d *decoder) document(v reflect.Value) error {
	s := d.s
	if err := s.skipSpace(); err != nil {
		if err == io.EOF {
			return &field.Error{Where: field.InputFile, Line: 1, Reason: "empty input: expected a JSON object"}
		}
		return err
	}
	if c := s.buf[s.pos]; c != '{' {
		return &field.Error{Where: field.InputFile, Line: s.line, Reason: "expected a JSON object {…}, got " + describeValue(c)}
	}
	if err := d.object(v); err != nil {
		return err
	}
	switch err := s.skipSpace(); err {
	case io.EOF:
		return nil
	case nil:
		return &field.Error{Where: field.InputFile, Line: s.line, Reason: "extra data after the object: the input must hold exactly one JSON object"}
	default:
		return err
	}
}

// wrap turns scanner errors into *field.Error; past the limit, whatever went
// wrong, the error says the input is too large.
func (d *decoder) wrap(err error, limit int64) error {
	if err == nil {
		return nil
	}
	if d.s.err == errTooLarge {
		return &field.Error{Where: field.InputFile, Line: d.s.line, Reason: fmt.Sprintf("the input exceeds the %d-byte%s limit", limit, sizeName(limit))}
	}
	var e *field.Error
	var se *syntaxError
	switch {
	case errors.As(err, &e) && e.Where == field.InputFile:
		return e
	case errors.As(err, &se):
		return &field.Error{Where: field.InputFile, Line: se.line, Reason: se.msg}
	case err == io.ErrUnexpectedEOF:
		return &field.Error{Where: field.InputFile, Line: d.s.line, Reason: "unexpected end of input: the JSON object is not closed"}
	}
	return &field.Error{Where: field.InputFile, Line: d.s.line, Reason: "cannot read the input: " + err.Error()}
}

// sizeName is " (8 MiB)" for round sizes, "" otherwise.
func sizeName(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf(" (%d GiB)", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf(" (%d MiB)", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf(" (%d KiB)", n>>10)
	}
	return ""
}

// structField is a struct field as the decoder sees it.
type structField struct {
	name     string
	index    int
	required bool
}

type structInfo struct {
	fields  []structField
	byName  map[string]int // exact key → position in fields
	byLower map[string]int // lower-case key → position in fields
}

var infoCache sync.Map // reflect.Type → *structInfo

func infoOf(t reflect.Type) *structInfo {
	if si, ok := infoCache.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{byName: map[string]int{}, byLower: map[string]int{}}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("json"); ok {
			n, _, _ := strings.Cut(tag, ",")
			if n == "-" && !strings.HasPrefix(tag, "-,") {
				continue
			}
			if n != "" {
				name = n
			}
		}
		si.byName[name] = len(si.fields)
		si.byLower[strings.ToLower(name)] = len(si.fields)
		si.fields = append(si.fields, structField{name: name, index: i, required: f.Tag.Get("jsonin") == "required"})
	}
	infoCache.Store(t, si)
	return si
}

// object decodes the object at the scanner into the struct v.
func (d *decoder) object(v reflect.Value) error {
	s := d.s
	if d.depth++; d.depth > maxDepth {
		return &field.Error{Where: field.InputFile, Field: d.at(), Line: s.line, Reason: fmt.Sprintf("nested more than %d deep", maxDepth)}
	}
	defer func() { d.depth-- }()
	si := infoOf(v.Type())
	s.pos++ // '{'
	var seenBuf [32]int
	var seen []int
	if len(si.fields) <= len(seenBuf) {
		seen = seenBuf[:len(si.fields)] // line of each key's first occurrence
	} else {
		seen = make([]int, len(si.fields))
	}
	if err := s.members(func(kb []byte, line int) error {
		fi, ok := si.byName[string(kb)]
		if !ok {
			key := string(kb)
			return &field.Error{Where: field.InputFile, Field: d.atKey(key), Line: line, Reason: unknownReason(si, key)}
		}
		f := si.fields[fi]
		if seen[fi] > 0 {
			return &field.Error{Where: field.InputFile, Field: d.atKey(f.name), Line: line,
				Reason: fmt.Sprintf("repeated key (first on line %d): each key may appear once", seen[fi])}
		}
		seen[fi] = line
		if err := s.expect(':', "after a key (expected ':')"); err != nil {
			return err
		}
		d.push(f.name, 0)
		if err := d.value(v.Field(f.index)); err != nil {
			return err
		}
		d.pop()
		return nil
	}); err != nil {
		return err
	}
	for i, f := range si.fields {
		if f.required && seen[i] == 0 {
			return &field.Error{Where: field.InputFile, Field: d.atKey(f.name), Reason: "is required"}
		}
	}
	return nil
}

func unknownReason(si *structInfo, key string) string {
	if i, ok := si.byLower[strings.ToLower(key)]; ok {
		return fmt.Sprintf("unknown field: keys are case-sensitive; did you mean %q?", si.fields[i].name)
	}
	best, bd := "", 3
	for _, f := range si.fields {
		if dd := editDistance(key, f.name, bd); dd < bd {
			best, bd = f.name, dd
		}
	}
	if best != "" {
		return fmt.Sprintf("unknown field; did you mean %q?", best)
	}
	return "unknown field"
}

// editDistance is the Levenshtein distance of a and b, or max when it is
// at least max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d >= max || -d >= max {
		return max
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], max)
}

var (
	float64Type = reflect.TypeFor[float64]()
	stringType  = reflect.TypeFor[string]()
)

// value decodes the value at the scanner into v.
func (d *decoder) value(v reflect.Value) error {
	s := d.s
	c, err := s.peek()
	if err != nil {
		return err
	}
	line := s.line
	if v.Kind() != reflect.Pointer && v.CanAddr() { // a list read element by element: null or […]
		var list func() error
		switch pt := reflect.PointerTo(v.Type()); {
		case pt.Implements(stringElementsType):
			list = func() error { return d.stringElements(v.Addr().Interface().(StringElements)) }
		case pt.Implements(elementsType):
			list = func() error { return d.elements(v.Addr().Interface().(Elements)) }
		}
		if list != nil {
			switch c {
			case 'n':
				_, err := s.literal()
				return err
			case '[':
				return list()
			}
			return d.mismatch(c, "a list […]")
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		if c == 'n' {
			if _, err := s.literal(); err != nil {
				return err
			}
			v.SetZero()
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return d.value(v.Elem())
	case reflect.Struct:
		if c != '{' {
			return d.mismatch(c, "an object {…}")
		}
		return d.object(v)
	case reflect.Slice:
		switch c {
		case 'n':
			if _, err := s.literal(); err != nil {
				return err
			}
			v.SetZero()
			return nil
		case '[':
		default:
			return d.mismatch(c, "a list […]")
		}
		return d.list(v)
	case reflect.String:
		if c != '"' {
			return d.mismatch(c, "a string")
		}
		b, err := s.str()
		if err != nil {
			return err
		}
		v.SetString(string(b))
		return nil
	case reflect.Bool:
		if c != 't' && c != 'f' {
			return d.mismatch(c, "true or false")
		}
		w, err := s.literal()
		if err != nil {
			return err
		}
		if w == "null" {
			return &field.Error{Where: field.InputFile, Field: d.at(), Line: line, Reason: "expected true or false, got null"}
		}
		v.SetBool(w == "true")
		return nil
	case reflect.Float64, reflect.Float32:
		if c != '-' && (c < '0' || c > '9') {
			return d.mismatch(c, "a number")
		}
		text, err := s.number()
		if err != nil {
			return err
		}
		x, err := strconv.ParseFloat(unsafeString(text), v.Type().Bits())
		if err != nil {
			return &field.Error{Where: field.InputFile, Field: d.at(), Line: line, Value: Number(text),
				Reason: fmt.Sprintf("%s is outside the range of a %d-bit float", truncate(text), v.Type().Bits())}
		}
		v.SetFloat(x)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if c != '-' && (c < '0' || c > '9') {
			return d.mismatch(c, "a whole number")
		}
		text, err := s.number()
		if err != nil {
			return err
		}
		x, reason := parseInt(text, v.Type().Bits())
		if reason != "" {
			return &field.Error{Where: field.InputFile, Field: d.at(), Line: line, Value: Number(text), Reason: reason}
		}
		v.SetInt(x)
		return nil
	}
	return fmt.Errorf("jsonin: cannot decode into a field of type %s", v.Type())
}

// list decodes the list at the scanner into the slice v, element by
// element; lists of numbers and strings skip reflection.
func (d *decoder) list(v reflect.Value) error {
	s := d.s
	if d.depth++; d.depth > maxDepth {
		return &field.Error{Where: field.InputFile, Field: d.at(), Line: s.line, Reason: fmt.Sprintf("nested more than %d deep", maxDepth)}
	}
	defer func() { d.depth-- }()
	s.pos++ // '['
	c, err := s.peek()
	if err != nil {
		return err
	}
	if c == ']' {
		s.pos++
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		return nil
	}
	var fs blocks[float64]
	var ss stringBlocks
	var lastText []byte // the last number's text and value (a list of numbers)
	var lastValue float64
	et := v.Type().Elem()
	fast := et == float64Type || et == stringType
	if fast && d.size != nil {
		if k := d.size(d.at()); k > 0 {
			if et == float64Type {
				fs.pre = make([]float64, 0, k)
			} else {
				ss.pre = make([]string, 0, k)
			}
		}
	}
	if !fast {
		v.Set(reflect.MakeSlice(v.Type(), 0, 4)) // never reuse what v held
	}
	n := 0
	for {
		switch {
		case et == float64Type:
			if c != '-' && (c < '0' || c > '9') {
				d.push("", n)
				return d.mismatch(c, "a number")
			}
			line := s.line
			text, err := s.number()
			if err != nil {
				return err
			}
			// Long lists repeat values (a plan's budgets): the text
			// of the last number is kept and not parsed again.
			if n > 0 && bytes.Equal(text, lastText) {
				fs.add(lastValue)
				break
			}
			x, err := strconv.ParseFloat(unsafeString(text), 64)
			if err != nil {
				return &field.Error{Where: field.InputFile, Field: d.atIndex(n), Line: line, Value: Number(text),
					Reason: fmt.Sprintf("%s is outside the range of a 64-bit float", truncate(text))}
			}
			lastText, lastValue = append(lastText[:0], text...), x
			fs.add(x)
		case et == stringType:
			if c != '"' {
				d.push("", n)
				return d.mismatch(c, "a string")
			}
			b, err := s.str()
			if err != nil {
				return err
			}
			ss.add(b)
		default:
			if n == v.Len() {
				v.Grow(max(4, n) - (v.Cap() - v.Len()))
				v.SetLen(v.Cap())
			}
			d.push("", n)
			if err := d.value(v.Index(n)); err != nil {
				return err
			}
			d.pop()
		}
		n++
		if c, err = s.peek(); err != nil {
			return err
		}
		s.pos++
		if c == ']' {
			break
		}
		if c != ',' {
			return s.errorf("invalid JSON: %s after a list element (expected ',' or ']')", describeByte(c))
		}
		if c, err = s.peek(); err != nil {
			return err
		}
	}
	switch {
	case !fast:
		v.SetLen(n)
	case et == float64Type:
		v.Set(reflect.ValueOf(fs.slice()).Convert(v.Type()))
	default:
		v.Set(reflect.ValueOf(ss.slice()).Convert(v.Type()))
	}
	return nil
}

// blocks collects a long list in blocks of 2¹⁶ elements, so that it grows
// without copying; slice copies it once into a slice of exactly its length.
type blocks[T any] struct {
	full [][]T
	cur  []T
	n    int
	pre  []T // when not nil, the elements are appended here (DecodeSized)
}

const listBlock = 1 << 16

func (b *blocks[T]) add(x T) {
	if b.pre != nil {
		b.pre = append(b.pre, x)
		return
	}
	if len(b.cur) == cap(b.cur) {
		if b.cur != nil {
			b.full = append(b.full, b.cur)
		}
		b.cur = make([]T, 0, min(listBlock, max(8, 2*cap(b.cur))))
	}
	b.cur = append(b.cur, x)
	b.n++
}

func (b *blocks[T]) slice() []T {
	if b.pre != nil {
		return b.pre
	}
	if len(b.full) == 0 {
		return b.cur
	}
	out := make([]T, 0, b.n)
	for _, c := range b.full {
		out = append(out, c...)
	}
	return append(out, b.cur...)
}

// stringBlocks collects a list of strings whose bytes are stored in shared
// blocks of up to a megabyte (one allocation per block, not per string).
type stringBlocks struct {
	blocks[string]
	arena []byte // bytes of the strings not yet flushed
	ends  []int  // end of each of them in arena
}

const stringArena = 1 << 20

func (b *stringBlocks) add(s []byte) {
	if len(b.arena)+len(s) > stringArena && len(b.arena) > 0 {
		b.flush()
	}
	b.arena = append(b.arena, s...)
	b.ends = append(b.ends, len(b.arena))
}

// flush turns the pending strings into substrings of one string.
func (b *stringBlocks) flush() {
	all := string(b.arena)
	start := 0
	for _, e := range b.ends {
		b.blocks.add(all[start:e])
		start = e
	}
	b.arena, b.ends = b.arena[:0], b.ends[:0]
}

func (b *stringBlocks) slice() []string {
	b.flush()
	return b.blocks.slice()
}

// mismatch reports a value of the wrong kind; scalars are read to show
// them.
func (d *decoder) mismatch(c byte, want string) error {
	s := d.s
	e := &field.Error{Where: field.InputFile, Field: d.at(), Line: s.line}
	switch {
	case c == '"':
		b, err := s.str()
		if err != nil {
			return err
		}
		e.Value = string(b)
		e.Reason = fmt.Sprintf("expected %s, got the string %q", want, truncate(b))
	case c == '-' || c >= '0' && c <= '9':
		text, err := s.number()
		if err != nil {
			return err
		}
		e.Value = Number(text)
		e.Reason = fmt.Sprintf("expected %s, got the number %s", want, truncate(text))
	case c == 't' || c == 'f' || c == 'n':
		w, err := s.literal()
		if err != nil {
			return err
		}
		if w != "null" {
			e.Value = w == "true"
		}
		e.Reason = fmt.Sprintf("expected %s, got %s", want, w)
	case c == '{' || c == '[':
		e.Reason = fmt.Sprintf("expected %s, got %s", want, describeValue(c))
	default:
		return s.errorf("invalid JSON: %s where a value belongs", describeByte(c))
	}
	return e
}

func describeValue(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	if c == '-' || c >= '0' && c <= '9' {
		return "a number"
	}
	if c >= 0x21 && c < 0x7f {
		return fmt.Sprintf("%q, which is not JSON", c)
	}
	return fmt.Sprintf("byte 0x%02x, which is not JSON", c)
}

// Number is the text of a JSON number, as an Error's Value shows it.
type Number string

func (n Number) String() string { return string(n) }

// unsafeString views b as a string for a call that does not keep it
// (strconv.ParseFloat copies the text into any error it returns).
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// parseInt parses a JSON number that must be a whole number within a
// signed integer of the given bits, however it is written (1e12, 500.0,
// 5E2). It returns the reason it is refused, "" when it is accepted.
func parseInt(text []byte, bits int) (int64, string) {
	neg, mag, whole, ok := wholeValue(text)
	switch {
	case !whole:
		return 0, fmt.Sprintf("expected a whole number, got %s", truncate(text))
	case !ok:
		return 0, fmt.Sprintf("%s is outside the range of a %d-bit integer", truncate(text), bits)
	}
	lim := uint64(1) << (bits - 1) // |min|; max is lim − 1
	if neg {
		if mag > lim {
			return 0, fmt.Sprintf("%s is outside the range of a %d-bit integer", truncate(text), bits)
		}
		return int64(-mag), "" // two's complement: −2^63 wraps correctly
	}
	if mag >= lim {
		return 0, fmt.Sprintf("%s is outside the range of a %d-bit integer", truncate(text), bits)
	}
	return int64(mag), ""
}

// wholeValue reads a JSON number (already checked against the grammar)
// exactly, without rounding through a float: whole reports that its value
// is an integer, ok that its magnitude fits in a uint64 (mag).
func wholeValue(text []byte) (neg bool, mag uint64, whole, ok bool) {
	i := 0
	if text[0] == '-' {
		neg = true
		i++
	}
	// digits of the integer and fraction parts, and the decimal exponent
	var digits []byte
	var buf [40]byte
	digits = buf[:0]
	exp := int64(0)
	for ; i < len(text) && text[i] >= '0' && text[i] <= '9'; i++ {
		digits = append(digits, text[i])
	}
	if i < len(text) && text[i] == '.' {
		for i++; i < len(text) && text[i] >= '0' && text[i] <= '9'; i++ {
			digits = append(digits, text[i])
			exp--
		}
	}
	if i < len(text) {
		i++ // e or E
		esign := int64(1)
		if text[i] == '+' || text[i] == '-' {
			if text[i] == '-' {
				esign = -1
			}
			i++
		}
		var e int64
		for ; i < len(text); i++ {
			if e < 1e9 {
				e = e*10 + int64(text[i]-'0')
			}
		}
		exp += esign * e
	}
	// strip leading zeros, then trailing zeros into the exponent
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if len(digits) == 0 {
		return neg, 0, true, true // zero, however written
	}
	if exp < 0 {
		return neg, 0, false, false
	}
	if int64(len(digits))+exp > 20 {
		return neg, 0, true, false
	}
	for _, c := range digits {
		if mag > (math.MaxUint64-uint64(c-'0'))/10 {
			return neg, 0, true, false
		}
		mag = mag*10 + uint64(c-'0')
	}
	for ; exp > 0; exp-- {
		if mag > math.MaxUint64/10 {
			return neg, 0, true, false
		}
		mag *= 10
	}
	return neg, mag, true, true
}

// TopString checks that data is one syntactically valid JSON object of at
// most limit bytes and returns the value of its top-level key when that
// value is a string ("" and line 0 when the key is absent or not a
// string), with the key's line. Readers that choose a format by one key
// (a claim's "algorithm") call it first, so that a syntax error (a
// trailing or missing comma) is reported as such, with its line, rather
// than as a field the wrong format does not know. Errors are
// *field.Error.
func TopString(data []byte, limit int64, key string) (value string, line int, err error) {
	s := newScanner(bytes.NewReader(data), limit)
	d := &decoder{s: s}
	err = d.topString(key, &value, &line)
	return value, line, d.wrap(err, limit)
}

func (d *decoder) topString(key string, value *string, line *int) error {
	s := d.s
	if err := s.skipSpace(); err != nil {
		if err == io.EOF {
			return &field.Error{Where: field.InputFile, Line: 1, Reason: "empty input: expected a JSON object"}
		}
		return err
	}
	if c := s.buf[s.pos]; c != '{' {
		return &field.Error{Where: field.InputFile, Line: s.line, Reason: "expected a JSON object {…}, got " + describeValue(c)}
	}
	s.pos++
	if err := s.members(func(kb []byte, l int) error {
		k := string(kb)
		if err := s.expect(':', "after a key (expected ':')"); err != nil {
			return err
		}
		c, err := s.peek()
		if err != nil {
			return err
		}
		if k == key && c == '"' && *line == 0 {
			v, err := s.str()
			if err != nil {
				return err
			}
			*value, *line = string(v), l
			return nil
		}
		return s.skipValue(1)
	}); err != nil {
		return err
	}
	switch err := s.skipSpace(); err {
	case io.EOF:
		return nil
	case nil:
		return &field.Error{Where: field.InputFile, Line: s.line, Reason: "extra data after the object: the input must hold exactly one JSON object"}
	default:
		return err
	}
}

// members reads the members of an object whose '{' has been read, through
// its closing '}': for each key it calls member with the key and the key's
// line, and member reads the ':' and the value. The separators between
// members are checked here, once for every object the package reads.
func (s *scanner) members(member func(key []byte, line int) error) error {
	c, err := s.peek()
	if err != nil {
		return err
	}
	if c == '}' {
		s.pos++
		return nil
	}
	for {
		if c != '"' {
			return s.errorf("invalid JSON: %s where a key belongs (keys are quoted strings)", describeByte(c))
		}
		line := s.line
		kb, err := s.str()
		if err != nil {
			return err
		}
		if err := member(kb, line); err != nil {
			return err
		}
		if c, err = s.peek(); err != nil {
			return err
		}
		s.pos++
		if c == '}' {
			return nil
		}
		if c != ',' {
			return s.errorf("invalid JSON: %s after a value (expected ',' or '}')", describeByte(c))
		}
		if c, err = s.peek(); err != nil {
			return err
		}
	}
}
