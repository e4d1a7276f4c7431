// Package atomicfile writes output files so that a failure never leaves half
// a file behind, and tells whether two paths name the same file (an output
// must never overwrite an input).
//
// What an output path means (one rule for every writer):
//   - "-" is standard output (Stdout), as it is standard input for the
//     inputs that read a stream; a file named "-" is written as ./-.
//   - A path naming standard output itself (/dev/stdout, /proc/self/fd/1,
//     any link to the same file) is Stdout too, so that the output joins the
//     stream rather than racing it from offset 0.
//   - A character device, FIFO or socket (or a symlink to one: /dev/null,
//     a named pipe) is opened and written directly: a temporary file and a
//     rename would replace it with a regular file.
//   - A symlink to a regular file is followed: the target is replaced
//     atomically and the link stays.
//   - Anything else is written to a temporary file in the same directory
//     and renamed into place.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/privamp/privamp/internal/field"
)

// Stdout is where the path "-" (and a path naming the process's standard
// output) is written. A program that captures its output (privamp's tests,
// through run) sets it; it is process-wide.
var Stdout io.Writer = os.Stdout

// A file that cannot be created at all (a missing directory, no
// permission, a directory) or must not be (an input) is bad input rather
// than a failure while writing: a *field.Error (Where: field.OutputFile)
// whose Value is the path and whose Reason never names a temporary file;
// its Field, if set (by Flag), is the option that named it.
func createError(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err // drop the operation and path (which may be the temporary file's)
	}
	return refused("", path, fmt.Sprintf("cannot be created: %v", err))
}

func refused(flag, path, reason string) *field.Error {
	return &field.Error{Field: flag, Value: path, Reason: reason, Where: field.OutputFile}
}

// Write writes data to path as Stream does.
func Write(path string, data []byte) error {
	return Stream(path, func(w io.Writer) (int64, error) {
		n, err := w.Write(data)
		return int64(n), err
	})
}

// Stream writes what write produces to path by the rules of the package
// comment: a regular file through a temporary file in the same directory
// and a rename (never half-written; streamed, so a large output is not held
// in memory twice), "-" and special files directly.
func Stream(path string, write func(io.Writer) (int64, error)) (err error) {
	if path == "-" || isStdout(path) {
		_, err = write(Stdout)
		if err != nil {
			err = fmt.Errorf("writing %s: %v", path, err)
		}
		return err
	}
	if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
		return refused("", path, "is a directory: give a file name")
	} else if serr == nil && !fi.Mode().IsRegular() {
		return direct(path, write)
	}
	if target, lerr := filepath.EvalSymlinks(path); lerr == nil {
		path = target // a link to a regular file: replace the target, keep the link
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".privamp-*")
	if err != nil {
		return createError(path, err)
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

// direct writes to an existing special file (device, FIFO, socket) in place.
func direct(path string, write func(io.Writer) (int64, error)) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return createError(path, err)
	}
	_, werr := write(f)
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("writing %s: %v", path, err)
	}
	return nil
}

// isStdout reports whether path names the file the process's standard
// output is (/dev/stdout, /proc/self/fd/1 or a link to the same file),
// while Stdout is still os.Stdout.
func isStdout(path string) bool {
	if Stdout != io.Writer(os.Stdout) {
		return false
	}
	a, err1 := os.Stat(path)
	b, err2 := os.Stdout.Stat()
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// Flag names the option (without dashes) that gave the path of a failed
// write: a file that cannot be created gets it as its Field, any other error
// is prefixed "--flag: ". nil stays nil.
func Flag(flag string, err error) error {
	var ce *field.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce) && ce.Where == field.OutputFile:
		c := *ce
		c.Field = flag
		return &c
	}
	return fmt.Errorf("--%s: %w", flag, err)
}

// Check refuses output paths that would overwrite an input or another
// output, and outputs that are directories: a *field.Error naming the
// output's flag. outs and ins are {flag, path} pairs (flags without
// dashes); empty paths and "-" (standard input or output) are skipped.
func Check(outs, ins [][2]string) error {
	for i, o := range outs {
		if o[1] == "" || o[1] == "-" {
			continue
		}
		if fi, err := os.Stat(o[1]); err == nil && fi.IsDir() {
			return refused(o[0], o[1], "is a directory: give a file name")
		}
		for _, in := range append(ins[:len(ins):len(ins)], outs[:i]...) {
			if Same(o[1], in[1]) {
				return refused(o[0], o[1], fmt.Sprintf("is the --%s file: refusing to overwrite it", in[0]))
			}
		}
	}
	return nil
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

// Open opens an input: "-" is standard input (in, which the caller gives:
// a command's stdin), anything else the named file. Closing standard input
// does nothing.
func Open(path string, in io.Reader) (io.ReadCloser, error) {
	if path == "-" {
		return io.NopCloser(in), nil
	}
	return os.Open(path)
}
