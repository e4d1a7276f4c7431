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
	_, done, err := d.openList(e.Start)
	if done || err != nil {
		return err
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
		if _, done, err = s.nextElement(); done || err != nil {
			return err
		}
	}
}

// openList steps over a list's '[' at the scanner, calls start (an error
// from it is the caller's, at the list's line), and returns the list's
// first byte, or done for an empty list (its ']' consumed).
func (d *decoder) openList(start func() error) (c byte, done bool, err error) {
	s := d.s
	line := s.line
	s.pos++ // '['
	if err := start(); err != nil {
		return 0, false, d.callerError(err, line)
	}
	if c, err = s.peek(); err != nil {
		return 0, false, err
	}
	if c == ']' {
		s.pos++
		return c, true, nil
	}
	return c, false, nil
}

// nextElement steps over the ',' after a list element and returns the
// next element's first byte (the scanner then at its line), or done at
// the list's ']' (consumed); any other byte is invalid JSON.
func (s *scanner) nextElement() (c byte, done bool, err error) {
	if c, err = s.peek(); err != nil {
		return 0, false, err
	}
	s.pos++
	if c == ']' {
		return c, true, nil
	}
	if c != ',' {
		return 0, false, s.errorf("invalid JSON: %s after a list element (expected ',' or ']')", describeByte(c))
	}
	c, err = s.peek()
	return c, false, err
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

// StringElements is implemented (with pointer receivers) by a field type
// that takes a JSON list of strings one string at a time, as its bytes:
// millions of short strings (a plan's people ids) are then stored however
// the caller stores them, without a string allocated for each. At the
// list's '[' StartStrings is called with DecodeSized's capacity hint for the
// list (0 when none); AddString gets each element, unescaped, in a buffer
// that is valid only during the call. An element that is not a string is
// refused like any mismatch; an error from either method stops decoding as
// Elements' do (naming the list or the element and its line). A null list
// calls nothing, as if the key were absent.
type StringElements interface {
	StartStrings(hint int) error
	AddString(b []byte) error
}

var stringElementsType = reflect.TypeFor[StringElements]()

// stringElements decodes the list of strings at the scanner into e.
func (d *decoder) stringElements(e StringElements) error {
	s := d.s
	hint := 0
	if d.size != nil {
		hint = d.size(d.at())
	}
	c, done, err := d.openList(func() error { return e.StartStrings(hint) })
	if done || err != nil {
		return err
	}
	for n := 0; ; n++ {
		if c != '"' {
			d.push("", n)
			return d.mismatch(c, "a string")
		}
		line := s.line
		b, err := s.str()
		if err != nil {
			return err
		}
		if err := e.AddString(b); err != nil {
			d.push("", n)
			return d.callerError(err, line)
		}
		if c, done, err = s.nextElement(); done || err != nil {
			return err
		}
	}
}
