// Package meter draws a progress bar on a terminal: the long computations
// of privamp (training runs, audits, plans, schedules read from large
// files) report their progress to a Bar, which draws nothing unless its
// writer is a terminal.
//
// The bar is drawn here rather than by github.com/schollz/progressbar,
// which privamp used until issue 27: that module imports net/http (and a
// colour-markup and a Unicode-segmentation package), whose initialisation
// every privamp command paid at start-up.
package meter

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Bar is a progress bar, or nothing when its writer is not a terminal.
type Bar struct {
	w           io.Writer // nil: draws nothing
	mu          sync.Mutex
	stage       string
	done, total int64
	start, last time.Time
	drawn       bool
}

// throttle is the least time between two drawings of a bar.
const throttle = 100 * time.Millisecond

// New returns a bar drawn on w when w is a terminal and not quiet, and a
// bar that draws nothing otherwise.
func New(w io.Writer, quiet bool) *Bar {
	if f, ok := w.(*os.File); quiet || !ok {
		return &Bar{}
	} else if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return &Bar{}
	}
	return &Bar{w: w}
}

// Set moves the bar to done of total; a report that arrives late from a
// concurrent worker never moves it back (the audit bar stopped at 99%).
// It may be called from several goroutines.
func (p *Bar) Set(stage string, done, total int64) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if stage == p.stage && done < p.done {
		return
	}
	now := time.Now()
	if stage != p.stage || p.start.IsZero() {
		p.start = now
	}
	p.stage, p.done, p.total = stage, done, total
	if now.Sub(p.last) >= throttle || done >= total {
		p.last, p.drawn = now, true
		_, _ = io.WriteString(p.w, "\r"+line(stage, done, total, now.Sub(p.start))+"\x1b[K")
	}
}

// Finish completes the bar and clears its line.
func (p *Bar) Finish() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		_, _ = io.WriteString(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// line is the bar's text: the stage, the percentage, a 20-cell bar, the
// count and the elapsed and (once something is done) remaining time.
func line(stage string, done, total int64, elapsed time.Duration) string {
	frac := 1.0
	if total > 0 {
		frac = min(max(float64(done)/float64(total), 0), 1)
	}
	cells := int(frac * 20)
	eta := "?"
	if done > 0 && total >= done {
		eta = (time.Duration(float64(elapsed) * float64(total-done) / float64(done))).Round(time.Second).String()
	}
	return fmt.Sprintf("%s %3d%% |%s%s| (%d/%d) [%s:%s]", stage, int(frac*100), strings.Repeat("█", cells), strings.Repeat(" ", 20-cells),
		done, total, elapsed.Round(time.Second), eta)
}

// Reader reports the bytes read from f against its size on the bar (a
// regular file only). It keeps the file's remaining length visible (Len),
// so readers that size their buffers from it still can.
func (p *Bar) Reader(stage string, f *os.File) io.Reader {
	st, err := f.Stat()
	if p.w == nil || err != nil || !st.Mode().IsRegular() {
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
