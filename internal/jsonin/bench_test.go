package jsonin

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
)

// peopleDoc is a plan-like document: n ids and n floats.
func peopleDoc(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"name": "people", "ids": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"person-` + strconv.Itoa(i) + `"`)
	}
	b.WriteString(`], "xs": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(0.1+float64(i)*1.2345e-7, 'g', -1, 64))
	}
	b.WriteString("]}")
	return b.Bytes()
}

// BenchmarkDecodePeople1e6 decodes 10⁶ ids and 10⁶ floats.
func BenchmarkDecodePeople1e6(b *testing.B) {
	data := peopleDoc(1_000_000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var d doc
		if err := Decode(bytes.NewReader(data), 1<<30, &d); err != nil || len(d.Xs) != 1_000_000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingJSONPeople1e6 is the same document through
// encoding/json's Decoder, for comparison.
func BenchmarkEncodingJSONPeople1e6(b *testing.B) {
	data := peopleDoc(1_000_000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var d doc
		if err := json.NewDecoder(bytes.NewReader(data)).Decode(&d); err != nil || len(d.Xs) != 1_000_000 {
			b.Fatal(err)
		}
	}
}
