// Package jsonin reads privamp's JSON inputs — training-run claims
// (package optimizer), per-person plans (package shifted/plan) and
// contractive-noisy-iteration schedules (package shifted) — under one set of
// rules, so that every input is parsed the same way:
//
//   - The document is exactly one JSON object (RFC 8259); anything after it
//     other than white space is an error.
//   - Keys are exact: a key matches a field's json tag byte for byte. A key
//     that differs from a field's name only by case is refused and named
//     (encoding/json would silently accept "Epsilon" for "epsilon"), as is
//     any other unknown key.
//   - Keys are unique: a key repeated in one object is refused, with the line
//     of its first occurrence (encoding/json would keep the last value).
//   - Where an integer is expected, any JSON number whose value is a whole
//     number is accepted, however it is written: 1e12, 500.0 and 5E2 are
//     integers, 1.5 is refused naming the field. Where a float is expected,
//     a number outside the float64 range (1e400) is refused.
//   - null is accepted only for pointer and list fields (it leaves them nil).
//   - A field tagged `jsonin:"required"` must be present.
//   - Every input has a stated size limit in bytes. Reading stops one byte
//     past it and the error says the input exceeds the limit (not a
//     misleading "unexpected end of input" at the cut).
//   - Input is decoded as it is read: lists of numbers and strings go
//     straight into their slices, objects into their structs, so memory is
//     the decoded value plus a read buffer, never a copy of the file or a
//     tree of interfaces. Long lists grow in blocks copied once into an
//     exact slice; the strings of a list share megabyte blocks (one
//     allocation per block, so keeping one string of a list keeps its block).
//     A field implementing Elements takes a list one element at a time.
//
// Errors are *field.Error values (Where: field.InputFile) naming the field
// (a path such as "per_index[2].epsilon"), the line, the offending value and
// the reason.
// They never name a command-line flag: the caller adds that context.
package jsonin
