package events

import (
	"io"
	"os"

	"github.com/privamp/privamp/internal/jsonin"
)

// MaxBytes is the largest events file Read accepts (1 MiB).
const MaxBytes = 1 << 20

// Read reads an events file in the format of the package documentation
// (one JSON object of at most MaxBytes bytes, keys exact and unique, counts
// whole numbers in any notation) and validates it. Errors in the input are
// *dp.Error naming the field.
func Read(r io.Reader) (Events, error) {
	var ev Events
	if err := jsonin.Decode(r, MaxBytes, &ev); err != nil {
		return Events{}, err
	}
	if err := ev.Validate(); err != nil {
		return Events{}, err
	}
	return ev, nil
}

// Load reads the events file at path (see Read).
func Load(path string) (Events, error) {
	f, err := os.Open(path)
	if err != nil {
		return Events{}, err
	}
	defer f.Close()
	return Read(f)
}
