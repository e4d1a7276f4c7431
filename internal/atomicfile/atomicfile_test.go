package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
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
	var ce *CreateError
	if err := Write(filepath.Join(dir, "missing", "x"), nil); !errors.As(err, &ce) {
		t.Errorf("missing directory: %v, want a CreateError", err)
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
