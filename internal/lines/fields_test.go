package lines

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// Fields splits unquoted lines, skips empty and comment lines, drops a
// trailing \r, and hands the rest of the input from the first quoted line
// on to slow with that line's number.
func TestFields(t *testing.T) {
	in := "a,b\r\n\n# note\n1,2\n3,\"x\"\n4,5\n"
	var got []string
	var slowLine int
	var slowRest string
	err := Fields(strings.NewReader(in), '#', func(line int, f [][]byte) (bool, error) {
		got = append(got, string(f[0])+"|"+string(f[1])+"@"+string(rune('0'+line)))
		return false, nil
	}, func(rest io.Reader, line int) error {
		b, _ := io.ReadAll(rest)
		slowLine, slowRest = line, string(b)
		return nil
	}, nil)
	if err != nil || strings.Join(got, " ") != "a|b@1 1|2@4" || slowLine != 5 || slowRest != "3,\"x\"\n4,5\n" {
		t.Fatalf("rows %v, slow at %d with %q, %v", got, slowLine, slowRest, err)
	}
	// without a comment byte '#' lines are rows; stop ends the scan; errors pass through
	rows := 0
	err = Fields(strings.NewReader("#x,1\ny,2\nz,3"), 0, func(line int, f [][]byte) (bool, error) {
		rows++
		return line == 2, nil
	}, nil, nil)
	if err != nil || rows != 2 {
		t.Fatalf("stop: %d rows, %v", rows, err)
	}
	boom := errors.New("boom")
	if err := Fields(strings.NewReader("a\nb"), 0, func(int, [][]byte) (bool, error) { return false, boom }, nil, nil); err != boom {
		t.Fatalf("row error: %v", err)
	}
	// a last line without a newline, and the refill hook's byte count
	var consumed int64
	rows = 0
	err = Fields(strings.NewReader("p,q\nr,s"), 0, func(int, [][]byte) (bool, error) { rows++; return false, nil }, nil,
		func(c int64) { consumed = c })
	if err != nil || rows != 2 || consumed != 4 {
		t.Fatalf("%d rows, consumed %d, %v", rows, consumed, err)
	}
}
