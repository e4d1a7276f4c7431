// Package meter draws a progress bar on a terminal: the long computations
// of privamp (training runs, audits, plans, schedules read from large
// files) report their progress to a Bar, which draws nothing unless its
// writer is a terminal.
package meter

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Bar is a progress bar, or nothing when its writer is not a terminal.
type Bar struct {
	bar   *progressbar.ProgressBar
	stage string
	done  int64
}

// New returns a bar drawn on w when w is a terminal and not quiet, and a
// bar that draws nothing otherwise.
func New(w io.Writer, quiet bool) *Bar {
	if f, ok := w.(*os.File); quiet || !ok {
		return &Bar{}
	} else if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return &Bar{}
	}
	return &Bar{bar: progressbar.NewOptions64(1, progressbar.OptionSetWriter(w), progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true))}
}

// Set moves the bar to done of total; a report that arrives late from a
// concurrent worker never moves it back (the audit bar stopped at 99%).
func (p *Bar) Set(stage string, done, total int64) {
	if p.bar != nil && (stage != p.stage || done >= p.done) {
		p.stage, p.done = stage, done
		p.bar.Describe(stage)
		p.bar.ChangeMax64(total)
		_ = p.bar.Set64(done)
	}
}

// Finish completes the bar (and clears it).
func (p *Bar) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// Reader reports the bytes read from f against its size on the bar (a
// regular file only). It keeps the file's remaining length visible (Len),
// so readers that size their buffers from it still can.
func (p *Bar) Reader(stage string, f *os.File) io.Reader {
	st, err := f.Stat()
	if p.bar == nil || err != nil || !st.Mode().IsRegular() {
		return f
	}
	return &countingFile{f: f, p: p, stage: stage, size: st.Size()}
}

// countingFile does not embed the file: its WriteTo would bypass Read.
type countingFile struct {
	f           *os.File
	p           *Bar
	stage       string
	size, count int64
}

func (c *countingFile) Read(b []byte) (int, error) {
	n, err := c.f.Read(b)
	c.count += int64(n)
	c.p.Set(c.stage, c.count, c.size)
	return n, err
}

// Len is the number of bytes not yet read.
func (c *countingFile) Len() int { return int(c.size - c.count) }
