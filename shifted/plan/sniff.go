package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// IsFile reports whether the file at path is a plan file: a JSON object
// whose key "format" — spelt exactly so, the first such key; "Format" is
// not it — has the value Format. It reads the file only up to that key, so
// a caller can tell a plan from another JSON input (a claim) before
// choosing a reader; Load then applies the strict rules to the whole file.
func IsFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	d := json.NewDecoder(f)
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for d.More() {
		k, err := d.Token()
		var val json.RawMessage
		if err != nil || d.Decode(&val) != nil {
			return false
		}
		if k == "format" {
			return string(bytes.TrimSpace(val)) == `"`+Format+`"`
		}
	}
	return false
}

// LoadFile reads the plan file at path (Load). Errors name the file
// ("plan.json: line 3: …", "cannot open plan.json: …").
func LoadFile(path string) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot open %s: %w", path, err)
	}
	defer f.Close()
	p, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
