package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/privamp/privamp/internal/field"
)

func TestStreamLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Stream(path, func(w io.Writer) (int64, error) {
		_, _ = w.Write([]byte("half"))
		return 4, errors.New("disk full")
	})
	if err == nil {
		t.Fatal("want the write error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the old file became %q", b)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("temporary files left: %v", es)
	}
	if err := Write(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("got %q", b)
	}
	var ce *field.Error
	if err := Write(filepath.Join(dir, "missing", "x"), nil); !errors.As(err, &ce) {
		t.Errorf("missing directory: %v, want a *field.Error", err)
	}
}

func TestSame(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	if err := os.WriteFile(a, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l")
	if err := os.Symlink(a, link); err != nil {
		t.Skip(err)
	}
	if !Same(a, link) || !Same(a, filepath.Join(dir, ".", "a")) || Same(a, filepath.Join(dir, "b")) || Same("-", "-") || Same("", "") {
		t.Error("Same is wrong")
	}
}

// Issue 23 item 7: "-" is standard output; a FIFO, a character device and
// links to them are written in place, not replaced by a regular file; a
// link to a regular file keeps the link; a file that cannot be created is
// a *field.Error naming the output, never the temporary file.
func TestSpecialOutputs(t *testing.T) {
	dir := t.TempDir()
	// "-": Stdout.
	var buf bytes.Buffer
	old := Stdout
	Stdout = &buf
	t.Cleanup(func() { Stdout = old })
	if err := Write("-", []byte("to stdout")); err != nil || buf.String() != "to stdout" {
		t.Errorf("-: %v, wrote %q", err, buf.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error("a file named - was created")
	}
	// A FIFO, directly and through a link (as /dev/stdout is a link to the
	// pipe a shell gives).
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	link := filepath.Join(dir, "stdout")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, link} {
		got := make(chan string)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- err.Error()
				return
			}
			b, _ := io.ReadAll(f)
			f.Close() // before the result: a reader still open would let the next writer in early
			got <- string(b)
		}()
		if err := Write(p, []byte("through the pipe")); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if s := <-got; s != "through the pipe" {
			t.Errorf("%s: the reader got %q", p, s)
		}
		if fi, err := os.Stat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%s: the FIFO was replaced: %v %v", p, fi.Mode(), err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced: %v", p, err)
		}
	}
	// A character device.
	if err := Write(os.DevNull, []byte("gone")); err != nil {
		t.Errorf("%s: %v", os.DevNull, err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a device: %v", os.DevNull, err)
	}
	null := filepath.Join(dir, "null")
	if err := os.Symlink(os.DevNull, null); err != nil {
		t.Fatal(err)
	}
	if err := Write(null, []byte("gone")); err != nil {
		t.Errorf("link to %s: %v", os.DevNull, err)
	}
	if fi, err := os.Lstat(null); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link to %s was replaced", os.DevNull)
	}
	// A link to a regular file: the target is replaced, the link stays.
	target := filepath.Join(dir, "target.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	tl := filepath.Join(dir, "tl.json")
	if err := os.Symlink(target, tl); err != nil {
		t.Fatal(err)
	}
	if err := Write(tl, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q", b)
	}
	if fi, err := os.Lstat(tl); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link to a regular file was replaced by a file")
	}
	// Cannot be created: the output is named, the temporary file is not.
	var ce *field.Error
	err := Flag("out", Write(filepath.Join(dir, "nodir", "x.json"), nil))
	if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), "--out "+filepath.Join(dir, "nodir", "x.json")+": cannot be created") || strings.Contains(err.Error(), ".privamp") {
		t.Errorf("missing directory: %v", err)
	}
	if err := Write(dir, nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	// Check: an output over an input or another output, naming both flags.
	in := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(in, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		outs, ins [][2]string
		want      string
	}{
		{[][2]string{{"out", in}}, [][2]string{{"people", in}}, "--out " + in + ": is the --people file"},
		{[][2]string{{"out", "-"}, {"plot", "-"}}, [][2]string{{"people", "-"}}, ""},
		{[][2]string{{"out", "x.svg"}, {"plot", "x.svg"}}, nil, "--plot x.svg: is the --out file"},
		{[][2]string{{"out", dir}}, nil, "--out " + dir + ": is a directory"},
	} {
		err := Check(c.outs, c.ins)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%v over %v: %v, want %q", c.outs, c.ins, err, c.want)
		}
	}
}
