package lines

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/privamp/privamp/internal/field"
)

func TestLimit(t *testing.T) {
	ok := "a,b\n" + strings.Repeat("x", 10) + "\n\n" + strings.Repeat("y", 10)
	got, err := io.ReadAll(Limit(iotest.OneByteReader(strings.NewReader(ok)), 10))
	if err != nil || string(got) != ok {
		t.Fatalf("lines of 10 bytes at a limit of 10: %v", err)
	}
	for in, line := range map[string]int{"a\n" + strings.Repeat("x", 11) + "\nb": 2, "a\nb\n" + strings.Repeat("x", 100): 3} {
		for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
			_, err := io.ReadAll(Limit(r, 10))
			var tl *field.Error
			if !errors.As(err, &tl) || tl.Where != field.InputFile || tl.Line != line || err.Error() != fmt.Sprintf("line %d: longer than 10 bytes, the most a line may hold", line) {
				t.Errorf("%q: %v", in[:8], err)
			}
		}
	}
}
