package meter

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Progress reported out of order by concurrent workers never moves the bar
// back (audit's bar used to stop at 99%).
func TestNeverMovesBack(t *testing.T) {
	p := &Bar{w: io.Discard}
	p.Set("audit", 9, 10)
	p.Set("audit", 8, 10)
	if p.done != 9 {
		t.Errorf("bar at %d after a late report, want 9", p.done)
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
	p := &Bar{w: io.Discard}
	n, err := io.Copy(io.Discard, p.Reader("reading", f))
	if err != nil || n != 100000 || p.done != 100000 {
		t.Errorf("read %d (%v), bar at %d; want 100000", n, err, p.done)
	}
}

// A writer that is not a terminal, or quiet, gets a bar that draws nothing.
func TestNoTerminalNoBar(t *testing.T) {
	for _, b := range []*Bar{New(io.Discard, false), New(os.Stderr, true)} {
		if b.w != nil {
			t.Error("a bar drawn on a non-terminal or quiet writer")
		}
		b.Set("x", 1, 2) // no-ops
		b.Finish()
	}
}

// The bar draws its first state and its last (throttled in between) and
// Finish clears the line.
func TestDraws(t *testing.T) {
	var b bytes.Buffer
	p := &Bar{w: &b}
	for i := int64(0); i <= 1000; i++ {
		p.Set("steps", i, 1000)
	}
	out := b.String()
	if !strings.HasPrefix(out, "\rsteps   0% |") || !strings.Contains(out, "steps 100% |████████████████████| (1000/1000)") {
		t.Errorf("drawn %q", out)
	}
	if n := strings.Count(out, "\r"); n > 5 {
		t.Errorf("drawn %d times in well under a second, want the first and last only", n)
	}
	p.Finish()
	if !strings.HasSuffix(b.String(), "\r\x1b[K") {
		t.Errorf("Finish did not clear the line: %q", b.String()[len(out):])
	}
}
