// Package atomicfile writes output files so that a failure never leaves half
// a file behind, and tells whether two paths name the same file (an output
// must never overwrite an input).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// CreateError is a file that cannot be created at all (a missing directory,
// no permission): bad input rather than a failure while writing.
type CreateError struct {
	Path string
	Err  error
}

func (e *CreateError) Error() string { return fmt.Sprintf("cannot write %s: %v", e.Path, e.Err) }

// Write writes data to path through a temporary file in the same directory
// and a rename.
func Write(path string, data []byte) error {
	return Stream(path, func(w io.Writer) (int64, error) {
		n, err := w.Write(data)
		return int64(n), err
	})
}

// Stream writes what write produces to a temporary file in the same
// directory and renames it into place: never half-written, and streamed, so
// a large output is not held in memory twice.
func Stream(path string, write func(io.Writer) (int64, error)) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".privamp-*")
	if err != nil {
		return &CreateError{path, err}
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
			err = fmt.Errorf("writing %s: %v", path, err)
		}
	}()
	_, werr := write(tmp)
	if err = errors.Join(werr, tmp.Close()); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Same reports whether two paths name the same file: equal once cleaned and
// made absolute, or the same existing file (links, other spellings). Empty
// paths and "-" (standard input or output) name no file.
func Same(a, b string) bool {
	if a == "" || b == "" || a == "-" || b == "-" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ab {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
