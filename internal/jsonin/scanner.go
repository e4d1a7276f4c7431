package jsonin

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// errTooLarge marks an input that goes past its byte limit.
var errTooLarge = errors.New("too large")

// syntaxError is malformed JSON at a line.
type syntaxError struct {
	line int
	msg  string
}

func (e *syntaxError) Error() string { return e.msg }

// scanner reads JSON tokens from a reader with a bounded buffer, counting
// lines (newlines can only occur in white space in valid JSON) and the bytes
// read against a limit.
type scanner struct {
	r     io.Reader
	limit int64 // the input may hold at most limit bytes
	read  int64 // bytes read from r
	buf   []byte
	pos   int // next unread byte of buf
	mark  int // start of the token being scanned (kept on refill), -1 none
	line  int
	eof   bool
	err   error // sticky read error: errTooLarge or the reader's
	sb    []byte
}

func newScanner(r io.Reader, limit int64) *scanner {
	size := 64 << 10
	if l, ok := r.(interface{ Len() int }); ok { // an in-memory input (package query's requests): no more than it holds
		size = min(size, max(l.Len()+1, 512))
	}
	return &scanner{r: r, limit: limit, buf: make([]byte, 0, size), mark: -1, line: 1}
}

// fill reads more input, keeping the bytes from mark (or pos) on. It
// returns io.EOF at the end of the input, errTooLarge past the limit.
func (s *scanner) fill() error {
	if s.err != nil {
		return s.err
	}
	if s.eof {
		return io.EOF
	}
	keep := s.pos
	if s.mark >= 0 {
		keep = s.mark
	}
	if keep > 0 {
		n := copy(s.buf, s.buf[keep:])
		s.buf = s.buf[:n]
		s.pos -= keep
		if s.mark >= 0 {
			s.mark -= keep
		}
	}
	if len(s.buf) == cap(s.buf) {
		nb := make([]byte, len(s.buf), 2*cap(s.buf))
		copy(nb, s.buf)
		s.buf = nb
	}
	for tries := 0; ; tries++ {
		// Read at most one byte past the limit.
		room := s.buf[len(s.buf):cap(s.buf)]
		if rem := s.limit + 1 - s.read; int64(len(room)) > rem {
			room = room[:rem]
		}
		n, err := s.r.Read(room)
		s.read += int64(n)
		s.buf = s.buf[:len(s.buf)+n]
		if s.read > s.limit {
			s.err = errTooLarge
			return s.err
		}
		if n > 0 {
			return nil
		}
		if err == io.EOF {
			s.eof = true
			return io.EOF
		}
		if err != nil {
			s.err = err
			return err
		}
		if tries > 100 {
			s.err = io.ErrNoProgress
			return s.err
		}
	}
}

// skipSpace skips white space; it returns io.EOF at the end of the input.
func (s *scanner) skipSpace() error {
	for {
		for s.pos < len(s.buf) {
			switch s.buf[s.pos] {
			case ' ', '\t', '\r':
				s.pos++
			case '\n':
				s.line++
				s.pos++
			default:
				return nil
			}
		}
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// peek returns the next non-space byte without consuming it. At the end of
// the input it returns an error: io.ErrUnexpectedEOF, errTooLarge or a read
// error.
func (s *scanner) peek() (byte, error) {
	if err := s.skipSpace(); err != nil {
		if err == io.EOF {
			return 0, io.ErrUnexpectedEOF
		}
		return 0, err
	}
	return s.buf[s.pos], nil
}

// expect consumes the next non-space byte, which must be c.
func (s *scanner) expect(c byte, what string) error {
	b, err := s.peek()
	if err != nil {
		return err
	}
	if b != c {
		return s.errorf("invalid JSON: %s %s", describeByte(b), what)
	}
	s.pos++
	return nil
}

func (s *scanner) errorf(format string, a ...any) error {
	return &syntaxError{line: s.line, msg: fmt.Sprintf(format, a...)}
}

func describeByte(c byte) string {
	switch {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "a list"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	case c >= 0x21 && c < 0x7f:
		return fmt.Sprintf("unexpected %q", c)
	}
	return fmt.Sprintf("unexpected byte 0x%02x", c)
}

// byteAt returns the byte at pos, reading more input if needed (keeping
// the token from mark); ok is false at the end of the input (s.err or eof
// says why).
func (s *scanner) byteAt() (byte, error) {
	for s.pos >= len(s.buf) {
		if err := s.fill(); err != nil {
			if err == io.EOF {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
	}
	return s.buf[s.pos], nil
}

// str scans a string whose opening quote is at pos and returns its decoded
// value. The returned slice is valid until the next call into the scanner.
// Invalid UTF-8 and lone surrogates become U+FFFD, as in encoding/json.
func (s *scanner) str() ([]byte, error) {
	s.pos++ // opening quote
	s.mark = s.pos
	defer func() { s.mark = -1 }()
	simple := true
	for {
		// fast path: plain ASCII inside the buffer
		i, buf := s.pos, s.buf
		for i < len(buf) {
			if c := buf[i]; c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
				break
			}
			i++
		}
		s.pos = i
		c, err := s.byteAt()
		if err != nil {
			return nil, err
		}
		switch {
		case c == '"':
			raw := s.buf[s.mark:s.pos]
			s.pos++
			if simple {
				return raw, nil
			}
			return s.unescape(raw)
		case c == '\\':
			simple = false
			s.pos++
			if _, err := s.byteAt(); err != nil {
				return nil, err
			}
			s.pos++
		case c < 0x20:
			return nil, s.errorf("invalid JSON: control character 0x%02x in a string (write it as an escape)", c)
		case c >= utf8.RuneSelf:
			simple = false
			s.pos++
		default:
			s.pos++
		}
	}
}

// unescape decodes the body of a string with escapes or non-ASCII bytes.
func (s *scanner) unescape(raw []byte) ([]byte, error) {
	out := s.sb[:0]
	for i := 0; i < len(raw); {
		c := raw[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(raw[i:])
			out = utf8.AppendRune(out, r) // RuneError for invalid bytes
			i += size
			continue
		}
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return nil, s.errorf("invalid JSON: a string ends in a backslash")
		}
		e := raw[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(raw[i:])
			if !ok {
				return nil, s.errorf("invalid JSON: \\u must be followed by 4 hexadecimal digits")
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok := rune(-1), false
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2, ok = hex4(raw[i+2:])
				}
				if d := utf16.DecodeRune(r, r2); ok && d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, s.errorf("invalid JSON: unknown escape \\%c in a string", e)
		}
	}
	s.sb = out
	return out, nil
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number scans a number starting at pos and returns its text, checked
// against the JSON grammar -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
// The slice is valid until the next call into the scanner.
func (s *scanner) number() ([]byte, error) {
	s.mark = s.pos
	defer func() { s.mark = -1 }()
	for {
		i, buf := s.pos, s.buf
		for i < len(buf) {
			if c := buf[i]; !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
				break
			}
			i++
		}
		s.pos = i
		c, err := s.byteAt()
		if err == io.ErrUnexpectedEOF && s.eof {
			break // a number may end the input (it is then not in an object)
		}
		if err != nil {
			return nil, err
		}
		if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
			break
		}
		s.pos++
	}
	text := s.buf[s.mark:s.pos]
	if !validNumber(text) {
		return nil, s.errorf("invalid JSON: %q is not a number", truncate(text))
	}
	return text, nil
}

func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == j {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == j {
			return false
		}
	}
	return i == len(b)
}

// literal scans true, false or null at pos.
func (s *scanner) literal() (string, error) {
	s.mark = s.pos
	defer func() { s.mark = -1 }()
	for {
		c, err := s.byteAt()
		if err == io.ErrUnexpectedEOF && s.eof {
			break
		}
		if err != nil {
			return "", err
		}
		if c < 'a' || c > 'z' {
			break
		}
		s.pos++
		if s.pos-s.mark > 5 {
			break
		}
	}
	w := string(s.buf[s.mark:s.pos])
	switch w {
	case "true", "false", "null":
		return w, nil
	}
	if w == "" {
		c, _ := s.byteAt()
		return "", s.errorf("invalid JSON: %s where a value belongs", describeByte(c))
	}
	return "", s.errorf("invalid JSON: %q is not a value (strings are quoted; the literals are true, false and null)", w)
}

// skipValue skips one value of any kind (for values whose type does not
// matter, as in the checks of tests); depth bounds the nesting.
func (s *scanner) skipValue(depth int) error {
	if depth > maxDepth {
		return s.errorf("invalid JSON: nested more than %d deep", maxDepth)
	}
	c, err := s.peek()
	if err != nil {
		return err
	}
	switch {
	case c == '"':
		_, err = s.str()
		return err
	case c == '-' || c >= '0' && c <= '9':
		_, err = s.number()
		return err
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		s.pos++
		if c, err := s.peek(); err != nil {
			return err
		} else if c == end {
			s.pos++
			return nil
		}
		for {
			if end == '}' {
				if c, err := s.peek(); err != nil {
					return err
				} else if c != '"' {
					return s.errorf("invalid JSON: %s where a key belongs", describeByte(c))
				}
				if _, err := s.str(); err != nil {
					return err
				}
				if err := s.expect(':', "after an object key (expected ':')"); err != nil {
					return err
				}
			}
			if err := s.skipValue(depth + 1); err != nil {
				return err
			}
			c, err := s.peek()
			if err != nil {
				return err
			}
			s.pos++
			if c == end {
				return nil
			}
			if c != ',' {
				return s.errorf("invalid JSON: %s after a value (expected ',' or '%c')", describeByte(c), end)
			}
		}
	}
	_, err = s.literal()
	return err
}

func truncate(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
