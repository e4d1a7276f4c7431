package jsonin

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/privamp/privamp/internal/field"
)

// Elements is implemented (with pointer receivers) by a field type that
// takes the elements of a JSON list one at a time as they are read, instead
// of keeping them as a slice: a list of millions of entries is then folded
// into whatever the caller keeps (a compact record, a running total) and
// never held as decoded values. The rules are those of the package: each
// element is decoded under them into what Element returns.
//
// At the list's '[' Start is called; for each element i, Element(i)
// returns a non-nil pointer to decode it into (the same one may be reused:
// its fields keep the values they had where the input does not set them,
// so reset it), and Added(i) is called once it is decoded. An error from
// Start or Added stops decoding; one that is not already an input file's
// *field.Error becomes one naming the list or element and its line. A null list calls
// nothing, as if the key were absent.
type Elements interface {
	Start() error
	Element(i int) any
	Added(i int) error
}

var elementsType = reflect.TypeFor[Elements]()

// elements decodes the list at the scanner into e, element by element.
func (d *decoder) elements(e Elements) error {
	s := d.s
	if d.depth++; d.depth > maxDepth {
		return &field.Error{Where: field.InputFile, Field: d.at(), Line: s.line, Reason: fmt.Sprintf("nested more than %d deep", maxDepth)}
	}
	defer func() { d.depth-- }()
	line := s.line
	s.pos++ // '['
	if err := e.Start(); err != nil {
		return d.callerError(err, line)
	}
	c, err := s.peek()
	if err != nil {
		return err
	}
	if c == ']' {
		s.pos++
		return nil
	}
	for n := 0; ; n++ {
		d.push("", n)
		line := s.line
		p := e.Element(n)
		v := reflect.ValueOf(p)
		if v.Kind() != reflect.Pointer || v.IsNil() {
			return fmt.Errorf("jsonin: Element(%d) returned %T, not a non-nil pointer", n, p)
		}
		if err := d.value(v.Elem()); err != nil {
			return err
		}
		if err := e.Added(n); err != nil {
			return d.callerError(err, line)
		}
		d.pop()
		if c, err = s.peek(); err != nil {
			return err
		}
		s.pos++
		if c == ']' {
			return nil
		}
		if c != ',' {
			return s.errorf("invalid JSON: %s after a list element (expected ',' or ']')", describeByte(c))
		}
		if _, err = s.peek(); err != nil { // to the next element: its line
			return err
		}
	}
}

// callerError makes an error of an Elements method an input file's
// *field.Error at the current path (a parameter's *field.Error too: its
// field is not a key of the file).
func (d *decoder) callerError(err error, line int) error {
	var e *field.Error
	if errors.As(err, &e) && e.Where == field.InputFile {
		return e
	}
	return &field.Error{Where: field.InputFile, Field: d.at(), Line: line, Reason: err.Error()}
}
