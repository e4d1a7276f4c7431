package meter

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/schollz/progressbar/v3"
)

// Progress reported out of order by concurrent workers never moves the bar
// back (audit's bar used to stop at 99%).
func TestNeverMovesBack(t *testing.T) {
	p := &Bar{bar: progressbar.NewOptions64(1, progressbar.OptionSetWriter(io.Discard))}
	p.Set("audit", 9, 10)
	p.Set("audit", 8, 10)
	if got := p.bar.State().CurrentNum; got != 9 {
		t.Errorf("bar at %d after a late report, want 9", got)
	}
}

// Reading a file through the bar moves it to the file's size.
func TestReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 100000), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := &Bar{bar: progressbar.NewOptions64(1, progressbar.OptionSetWriter(io.Discard))}
	n, err := io.Copy(io.Discard, p.Reader("reading", f))
	if err != nil || n != 100000 || p.done != 100000 {
		t.Errorf("read %d (%v), bar at %d; want 100000", n, err, p.done)
	}
}

// A writer that is not a terminal, or quiet, gets a bar that draws nothing.
func TestNoTerminalNoBar(t *testing.T) {
	for _, b := range []*Bar{New(io.Discard, false), New(os.Stderr, true)} {
		if b.bar != nil {
			t.Error("a bar drawn on a non-terminal or quiet writer")
		}
		b.Set("x", 1, 2) // no-ops
		b.Finish()
	}
}
