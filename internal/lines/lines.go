// Package lines bounds the length of the lines a text input may hold, so a
// reader that keeps one line in memory at a time (the people CSV of
// shifted/plan, the trajectory CSV of verify) uses bounded memory
// whatever the input: a file without newlines is refused at its limit, not
// read whole.
package lines

import (
	"bytes"
	"io"

	"github.com/privamp/privamp/internal/field"
)

// MaxBytes is the longest line (without its newline) the CSV readers
// accept: 1 MiB, far more than a row of budgets or of a trajectory needs.
const MaxBytes = 1 << 20

// Limit returns a reader that reads r and fails as soon as a line grows
// past max bytes, with the *field.Error of that line (1-based): "line 7:
// longer than 1048576 bytes, the most a line may hold".
func Limit(r io.Reader, max int) io.Reader { return &limited{r: r, max: max} }

type limited struct {
	r         io.Reader
	max       int
	run, line int // bytes of the current line so far; complete lines before it
	err       error
}

func (l *limited) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for b := p[:n]; len(b) > 0; {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.run += len(b)
			break
		}
		if l.run+i > l.max {
			l.run += i
			break
		}
		l.run, l.line, b = 0, l.line+1, b[i+1:]
	}
	if l.run > l.max {
		l.err = field.AtLine(l.line+1, "longer than %d bytes, the most a line may hold", l.max)
		return 0, l.err
	}
	return n, err
}

// Fields is the fast path of the CSV readers. It reads r line by line,
// splits each line at commas and calls row with its 1-based number and
// its fields (which view an internal buffer: valid only during the call).
// A trailing "\r" is dropped; empty lines, and lines starting with comment
// when comment is not 0, are skipped (as encoding/csv does). At the first
// line holding a double quote it hands the rest of the input, that line
// first, to slow (encoding/csv, which reads quoted and multi-line fields)
// and returns what slow returns, so every error keeps its line number.
// row returning stop ends the scan. refill, if not nil, is told how many
// bytes were consumed before each refill of the buffer.
func Fields(r io.Reader, comment byte, row func(line int, fields [][]byte) (stop bool, err error),
	slow func(rest io.Reader, line int) error, refill func(consumed int64)) error {
	buf := make([]byte, 1<<20)
	lo, hi := 0, 0 // unread bytes: buf[lo:hi]
	eof := false
	line := 0
	var consumed int64
	var fields [][]byte
	for {
		nl := bytes.IndexByte(buf[lo:hi], '\n')
		if nl < 0 && !eof {
			consumed += int64(lo)
			if refill != nil {
				refill(consumed)
			}
			hi = copy(buf, buf[lo:hi])
			lo = 0
			if hi == len(buf) {
				buf = append(buf, make([]byte, len(buf))...)
			}
			k, err := r.Read(buf[hi:])
			hi += k
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return err
			}
			continue
		}
		if nl < 0 { // the last line, without a newline
			if lo == hi {
				return nil
			}
			nl = hi - lo
		}
		text := buf[lo : lo+nl]
		line++
		if bytes.IndexByte(text, '"') >= 0 {
			return slow(io.MultiReader(bytes.NewReader(buf[lo:hi]), r), line)
		}
		lo = min(lo+nl+1, hi)
		text = TrimCR(text)
		if len(text) == 0 || (comment != 0 && text[0] == comment) {
			continue
		}
		fields = Split(fields[:0], text)
		if stop, err := row(line, fields); stop || err != nil {
			return err
		}
	}
}

// TrimCR drops one trailing "\r" from a line (CRLF files).
func TrimCR(text []byte) []byte {
	if n := len(text); n > 0 && text[n-1] == '\r' {
		return text[:n-1]
	}
	return text
}

// Split appends the comma-separated fields of an unquoted line to fields
// (they alias text) and returns it: the split the fast paths share.
func Split(fields [][]byte, text []byte) [][]byte {
	for {
		i := bytes.IndexByte(text, ',')
		if i < 0 {
			return append(fields, text)
		}
		fields = append(fields, text[:i])
		text = text[i+1:]
	}
}
