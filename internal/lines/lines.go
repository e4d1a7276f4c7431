// Package lines bounds the length of the lines a text input may hold, so a
// reader that keeps one line in memory at a time (the people CSV of
// shifted/plan, the trajectory CSV of optimizer/claim) uses bounded memory
// whatever the input: a file without newlines is refused at its limit, not
// read whole.
package lines

import (
	"bytes"
	"fmt"
	"io"
)

// MaxBytes is the longest line (without its newline) the CSV readers
// accept: 1 MiB, far more than a row of budgets or of a trajectory needs.
const MaxBytes = 1 << 20

// TooLong is the error of a line longer than the limit: its 1-based
// number and the limit.
type TooLong struct {
	Line, Max int
}

func (e *TooLong) Error() string {
	return fmt.Sprintf("line %d is longer than %d bytes, the most a line may hold", e.Line, e.Max)
}

// Limit returns a reader that reads r and fails with *TooLong as soon as a
// line grows past max bytes.
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
		l.err = &TooLong{Line: l.line + 1, Max: l.max}
		return 0, l.err
	}
	return n, err
}
