package plan

import (
	"encoding/json"
	"fmt"
	"unsafe"
)

// IDs are the people's identifiers, stored compactly: the bytes of all of
// them in blocks of a megabyte, and one 32-bit end offset per id (plus a
// byte of high bits per id once the bytes pass 4 GiB), instead of a string
// header of 16 bytes and a string per id. For 10⁷ ids such as "person-1234567"
// that is about 180 MB instead of 300 MB, and appending never copies the
// bytes already stored. An id's text is never changed once appended; a Make
// that reorders People (in position order) only reorders an index, so the
// ids are never moved either.
//
// The zero value is an empty list. IDs decode from a JSON list of strings
// (package internal/jsonin, one string at a time) and encode as one. Like a
// slice, a copied IDs value shares its storage: append to one copy only (or
// make a new list with NewIDs(ids.Strings()...)).
type IDs struct {
	blocks [][]byte // the bytes of the ids, in order of appending; every block but the last is full
	lo     []uint32 // end offset of each id in the concatenated bytes: low 32 bits
	hi     []uint8  // its high bits; nil while the bytes stay under 4 GiB
	total  uint64   // bytes appended
	order  []int32  // position i holds appended id order[i]; nil: appended order
}

// idsBlock is the size of the blocks the bytes are stored in.
const idsBlock = 1 << 20

// NewIDs returns the list of ids, in order.
func NewIDs(ids ...string) IDs {
	var s IDs
	s.grow(len(ids))
	for _, id := range ids {
		s.Append(id)
	}
	return s
}

// Len returns the number of ids.
func (s *IDs) Len() int { return len(s.lo) }

// At returns the id at position i. The string shares the list's storage
// (which is never changed once written), so it costs no copy.
func (s *IDs) At(i int) string {
	b := s.bytes(i)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Strings returns the ids as a slice of strings (sharing the list's
// storage), in order.
func (s *IDs) Strings() []string {
	out := make([]string, s.Len())
	for i := range out {
		out[i] = s.At(i)
	}
	return out
}

// Append adds an id at the end (a list in position order, from Make, gets
// it at the next position).
func (s *IDs) Append(id string) { s.appendBytes(unsafe.Slice(unsafe.StringData(id), len(id))) }

// grow makes room for n more ids without copying their offsets again.
func (s *IDs) grow(n int) {
	if n <= cap(s.lo)-len(s.lo) {
		return
	}
	lo := make([]uint32, len(s.lo), len(s.lo)+n)
	copy(lo, s.lo)
	s.lo = lo
	if s.hi != nil {
		hi := make([]uint8, len(s.hi), len(s.hi)+n)
		copy(hi, s.hi)
		s.hi = hi
	}
}

func (s *IDs) appendBytes(b []byte) {
	if s.order != nil {
		s.order = append(s.order, int32(len(s.lo)))
	}
	s.putBytes(b)
	s.putEnd(s.total)
}

// appendPacked appends the ids packed in data: id k ends at ends[k]
// (offsets into data, non-decreasing), and data holds nothing after the
// last. It is appendBytes of each id, with one copy of all their bytes.
func (s *IDs) appendPacked(data []byte, ends []uint32) {
	if s.order != nil {
		var start uint32
		for _, e := range ends {
			s.appendBytes(data[start:e])
			start = e
		}
		return
	}
	base := s.total
	s.putBytes(data)
	for _, e := range ends {
		s.putEnd(base + uint64(e))
	}
}

// putBytes copies b after the bytes stored.
func (s *IDs) putBytes(b []byte) {
	for len(b) > 0 {
		k := len(s.blocks)
		if k == 0 || len(s.blocks[k-1]) == idsBlock {
			s.blocks = append(s.blocks, make([]byte, 0, idsBlock))
			k++
		}
		last := s.blocks[k-1]
		m := copy(last[len(last):idsBlock], b)
		s.blocks[k-1] = last[:len(last)+m]
		b = b[m:]
		s.total += uint64(m)
	}
}

// putEnd records the end offset of the next id.
func (s *IDs) putEnd(end uint64) {
	if end>>32 != 0 && s.hi == nil {
		s.hi = make([]uint8, len(s.lo), cap(s.lo))
	}
	s.lo = append(s.lo, uint32(end))
	if s.hi != nil {
		s.hi = append(s.hi, uint8(end>>32))
	}
}

// end returns the end offset of appended id k.
func (s *IDs) end(k int) uint64 {
	e := uint64(s.lo[k])
	if s.hi != nil {
		e |= uint64(s.hi[k]) << 32
	}
	return e
}

// bytes returns the id at position i; it shares the list's storage unless
// the id straddles two blocks (a copy then).
func (s *IDs) bytes(i int) []byte {
	k := i
	if s.order != nil {
		k = int(s.order[i])
	}
	var start uint64
	if k > 0 {
		start = s.end(k - 1)
	}
	stop := s.end(k)
	if start == stop {
		return nil
	}
	if b := start / idsBlock; b == (stop-1)/idsBlock {
		return s.blocks[b][start%idsBlock : start%idsBlock+(stop-start)]
	}
	out := make([]byte, 0, stop-start)
	for p := start; p < stop; {
		b := s.blocks[p/idsBlock]
		m := min(uint64(idsBlock)-p%idsBlock, stop-p)
		out = append(out, b[p%idsBlock:p%idsBlock+m]...)
		p += m
	}
	return out
}

// reorder puts the list in the order perm: position pos then holds the id
// that was at position perm[pos]. Only the index changes; perm is kept (and
// must not be changed after).
func (s *IDs) reorder(perm []int32) {
	if s.order == nil {
		s.order = perm
		return
	}
	for pos, from := range perm {
		perm[pos] = s.order[from]
	}
	s.order = perm
}

// MarshalJSON encodes the ids as a JSON list of strings.
func (s IDs) MarshalJSON() ([]byte, error) { return json.Marshal(s.Strings()) }

// StartStrings begins decoding a JSON list of ids (jsonin.StringElements):
// the list replaces what s held.
func (s *IDs) StartStrings(hint int) error {
	*s = IDs{}
	s.grow(hint)
	return nil
}

// AddString appends one decoded id (jsonin.StringElements).
func (s *IDs) AddString(b []byte) error {
	if int64(len(s.lo)) >= MaxPeople {
		return fmt.Errorf("more than %d people", MaxPeople)
	}
	s.appendBytes(b)
	return nil
}
