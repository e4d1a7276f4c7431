// Command _native is libprivamp, the C entry points of package query, built
// with cgo as a shared library for the Python package (python/privamp):
//
//	go build -buildmode=c-shared -o libprivamp.so ./python/_native
//
// Its directory starts with "_", so `go build ./...` and `go test ./...`
// skip it and the rest of privamp stays cgo-free (CGO_ENABLED=0 builds it
// all). The entry points, safe to call from several threads at once:
//
//	int privamp_call(const char *method, const char *request, size_t len, char **out, size_t *out_len);
//	int privamp_floats(const char *method, const char *request, size_t len, char **meta, size_t *meta_len,
//	                   double **data, size_t *columns, size_t *rows);
//	void privamp_free(void *p);
//
// privamp_call answers query.Do(method, request): status 0 with the answer
// (JSON) in *out, or 2 (bad input) or 1 (a failure) with the error as JSON
// (query.Error: kind, field, value, reason, message) in *out. privamp_floats
// answers query.Floats: *meta is the JSON beside the arrays, *data holds
// *columns arrays of *rows doubles one after the other (column-major), or on
// an error *meta holds the error's JSON and *data is NULL. Every buffer
// returned is malloc'd and freed by privamp_free.
package main

/*
#include <stdlib.h>
#include <string.h>
*/
import "C"

import (
	"encoding/json"
	"errors"
	"unsafe"

	"github.com/privamp/privamp/query"
)

func main() {}

// status of an error: 2 bad input, 1 failure; its JSON in b.
func status(err error) (C.int, []byte) {
	var e *query.Error
	if !errors.As(err, &e) {
		e = &query.Error{Kind: query.KindFailure, Message: err.Error()}
	}
	b, jerr := json.Marshal(e)
	if jerr != nil {
		b, _ = json.Marshal(&query.Error{Kind: e.Kind, Message: e.Message})
	}
	if e.Kind == query.KindBadInput {
		return 2, b
	}
	return 1, b
}

// cbytes copies b into a malloc'd buffer with a trailing NUL.
func cbytes(b []byte, out **C.char, n *C.size_t) {
	p := (*C.char)(C.malloc(C.size_t(len(b) + 1)))
	if len(b) > 0 {
		C.memcpy(unsafe.Pointer(p), unsafe.Pointer(&b[0]), C.size_t(len(b)))
	}
	*(*C.char)(unsafe.Add(unsafe.Pointer(p), len(b))) = 0
	*out, *n = p, C.size_t(len(b))
}

// request copies the request; one longer than query.MaxRequest is cut to
// one byte more, which query refuses as too long (C.GoBytes takes an int).
func request(p *C.char, n C.size_t) []byte {
	if n > query.MaxRequest+1 {
		n = query.MaxRequest + 1
	}
	return C.GoBytes(unsafe.Pointer(p), C.int(n))
}

//export privamp_call
func privamp_call(method, req *C.char, n C.size_t, out **C.char, outLen *C.size_t) C.int {
	res, err := query.Do(C.GoString(method), request(req, n))
	if err != nil {
		code, b := status(err)
		cbytes(b, out, outLen)
		return code
	}
	cbytes(res, out, outLen)
	return 0
}

//export privamp_floats
func privamp_floats(method, req *C.char, n C.size_t, meta **C.char, metaLen *C.size_t, data **C.double, columns, rows *C.size_t) C.int {
	*data, *columns, *rows = nil, 0, 0
	m, cols, err := query.Floats(C.GoString(method), request(req, n))
	if err != nil {
		code, b := status(err)
		cbytes(b, meta, metaLen)
		return code
	}
	r := 0
	if len(cols) > 0 {
		r = len(cols[0].Values)
	}
	total := len(cols) * r
	p := (*C.double)(C.malloc(C.size_t(max(total, 1)) * C.size_t(unsafe.Sizeof(C.double(0)))))
	dst := unsafe.Slice((*float64)(unsafe.Pointer(p)), max(total, 1))
	for i, c := range cols {
		copy(dst[i*r:(i+1)*r], c.Values)
	}
	cbytes(m, meta, metaLen)
	*data, *columns, *rows = p, C.size_t(len(cols)), C.size_t(r)
	return 0
}

//export privamp_free
func privamp_free(p unsafe.Pointer) { C.free(p) }
