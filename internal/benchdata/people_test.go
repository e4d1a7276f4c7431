package benchdata

import (
	"bytes"
	"strings"
	"testing"
)

func TestWritePeopleSameBytes(t *testing.T) {
	var a, b bytes.Buffer
	if err := WritePeople(&a, 1000); err != nil {
		t.Fatal(err)
	}
	_ = WritePeople(&b, 1000)
	lines := strings.Split(strings.TrimSuffix(a.String(), "\n"), "\n")
	if !bytes.Equal(a.Bytes(), b.Bytes()) || len(lines) != 1001 || lines[0] != "id,epsilon,delta" || !strings.HasPrefix(lines[1], "person-0,") {
		t.Fatalf("%d lines, first %q", len(lines), lines[:2])
	}
}
