package plan

import (
	"bytes"
	"fmt"
	"io"
	"runtime"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/lines"
)

// csvParallelMin is the smallest input (in bytes, when its size is known)
// that ReadCSV splits into blocks parsed on all cores (readParallel);
// csvBlockSize is the size of a block. Both are lowered by tests.
var (
	csvParallelMin = int64(8 << 20)
	csvBlockSize   = 1 << 20
)

// csvBlock is a run of whole lines of a people CSV and what parseBlock
// found in it.
type csvBlock struct {
	data  []byte
	line0 int // the file's lines before the block
	// The valid rows: their ids packed (ids, ends), ε, δ (0: the default)
	// and file lines; the invalid rows; the first line holding a double
	// quote (0: none) and its offset in data, where parsing stopped.
	ids       []byte
	ends      []uint32
	eps, del  []float64
	hasDel    bool
	lines     []int
	bad       dp.Errors
	quoteLine int
	quoteOff  int
	done      chan struct{}
}

// parseBlock splits b's lines as lines.Fields does (a trailing "\r"
// dropped, empty lines skipped, lines numbered from b.line0 + 1) and checks
// each row with pr.check, up to the first line with a double quote.
func (pr *peopleReader) parseBlock(b *csvBlock) {
	b.ids, b.ends, b.eps, b.del, b.lines, b.bad = b.ids[:0], b.ends[:0], b.eps[:0], b.del[:0], b.lines[:0], b.bad[:0]
	b.hasDel, b.quoteLine, b.quoteOff = false, 0, 0
	data, line := b.data, b.line0
	// The start of the first line with a double quote (none: past the end).
	quote := len(data) + 1
	if q := bytes.IndexByte(data, '"'); q >= 0 {
		quote = bytes.LastIndexByte(data[:q], '\n') + 1
	}
	var fields [][]byte
	var nums budgetNums
	for off := 0; off < len(data); {
		text, next := data[off:], len(data)
		if nl := bytes.IndexByte(text, '\n'); nl >= 0 {
			text, next = text[:nl], off+nl+1
		}
		line++
		if off == quote {
			b.quoteLine, b.quoteOff = line, off
			return
		}
		off = next
		if text = lines.TrimCR(text); len(text) == 0 {
			continue
		}
		fields = lines.Split(fields[:0], text)
		id, eps, del, bad := pr.check(line, fields, &nums)
		if bad != nil {
			b.bad = append(b.bad, bad)
			continue
		}
		b.ids = append(b.ids, id...)
		b.ends = append(b.ends, uint32(len(b.ids)))
		b.eps = append(b.eps, eps)
		b.del = append(b.del, del)
		b.hasDel = b.hasDel || del != 0
		b.lines = append(b.lines, line)
	}
}

// merge appends b's rows and invalid rows to the people read so far, as
// keep and row would one by one (line marks, δ, and the MaxPeople limit,
// which stops the reading).
func (pr *peopleReader) merge(b *csvBlock) {
	p := pr.p
	n, bad := len(b.eps), b.bad
	if room := MaxPeople - int64(len(p.Epsilon)); int64(n) > room {
		full := b.lines[room]
		n = int(room)
		bad = nil
		for _, e := range b.bad {
			if e.Line < full {
				bad = append(bad, e)
			}
		}
		bad = append(bad, badLine(full, fmt.Sprintf("more than %d people", MaxPeople)))
		pr.full = true
	}
	pr.bad = append(pr.bad, bad...)
	for k := range n {
		i, line := len(p.Epsilon)+k, b.lines[k]
		if m := len(pr.marks); m == 0 || pr.marks[m-1].line+i-pr.marks[m-1].row != line {
			pr.marks = append(pr.marks, lineMark{i, line})
		}
	}
	if b.hasDel && p.Delta == nil {
		p.Delta = make([]float64, len(p.Epsilon), cap(p.Epsilon))
	}
	end := uint32(0)
	if n > 0 {
		end = b.ends[n-1]
	}
	p.ID.appendPacked(b.ids[:end], b.ends[:n])
	p.Epsilon = append(p.Epsilon, b.eps[:n]...)
	if p.Delta != nil {
		p.Delta = append(p.Delta, b.del[:n]...)
	}
}

// blockReader cuts an input into blocks of whole lines.
type blockReader struct {
	r     io.Reader
	carry []byte // read, after the last newline of the last block
	eof   bool
}

// next returns the next block (in buf's storage): at least csvBlockSize
// bytes ending with a newline, or the rest of the input (the last line may
// lack its newline); nil at the end.
func (br *blockReader) next(buf []byte) ([]byte, error) {
	buf = append(buf[:0], br.carry...)
	br.carry = br.carry[:0]
	for {
		if br.eof {
			if len(buf) == 0 {
				return nil, nil
			}
			return buf, nil
		}
		if len(buf) >= csvBlockSize {
			if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
				br.carry = append(br.carry, buf[i+1:]...)
				return buf[:i+1], nil
			}
		}
		if cap(buf)-len(buf) < csvBlockSize/2+1 {
			nb := make([]byte, len(buf), 2*cap(buf)+csvBlockSize)
			copy(nb, buf)
			buf = nb
		}
		k, err := br.r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			br.eof = true
		} else if err != nil {
			br.carry = append(br.carry, buf...) // read, not yet split
			return nil, err
		}
	}
}

// errReader is an input that fails with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// readParallel is read for a large input: the blocks up to the header are
// read by the fast path itself (and a quote there switches to encoding/csv);
// then blocks of about csvBlockSize bytes are parsed on all cores
// (parseBlock) and merged in file order (merge), so the people, the line
// numbers and every error are those of read. At a block's first line with a
// double quote the rest of the input, from that line, goes to slow, as in
// read.
func (pr *peopleReader) readParallel(r io.Reader) (*People, error) {
	br := &blockReader{r: r}
	// Blocks through the fast path itself until the header is read; a quote
	// there hands slow that block's rest and then the rest of the input.
	line := 0
	for pr.header == nil {
		blk, err := br.next(nil)
		if err != nil {
			return nil, err
		}
		if blk == nil {
			return pr.finish()
		}
		var rest io.Reader
		restLine := 0
		err = lines.Fields(bytes.NewReader(blk), 0, func(l int, fields [][]byte) (bool, error) {
			if pr.header == nil {
				return false, pr.setHeader(headerNames(fields))
			}
			pr.row(line+l, fields)
			return pr.full, nil
		}, func(r io.Reader, l int) error {
			rest, restLine = r, line+l
			return nil
		}, nil)
		switch {
		case err != nil:
			return nil, err
		case rest != nil:
			return pr.slow(io.MultiReader(rest, bytes.NewReader(br.carry), br.r), restLine)
		case pr.full:
			return pr.finish()
		}
		line += bytes.Count(blk, []byte{'\n'})
		pr.consumed += int64(len(blk))
	}
	pr.prealloc()

	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *csvBlock)
	defer close(jobs)
	for range workers {
		go func() {
			for b := range jobs {
				pr.parseBlock(b)
				close(b.done)
			}
		}()
	}
	var pending, free []*csvBlock
	var readErr error
	ended := false
	for {
		for !ended && readErr == nil && len(pending) < 2*workers {
			var b *csvBlock
			if k := len(free); k > 0 {
				b, free = free[k-1], free[:k-1]
			} else {
				b = &csvBlock{}
			}
			data, err := br.next(b.data)
			if err != nil {
				readErr = err
				break
			}
			if data == nil {
				ended = true
				break
			}
			b.data, b.line0, b.done = data, line, make(chan struct{})
			line += bytes.Count(data, []byte{'\n'})
			pending = append(pending, b)
			jobs <- b
		}
		if len(pending) == 0 {
			break
		}
		b := pending[0]
		pending = pending[1:]
		<-b.done
		pr.merge(b)
		if pr.full {
			break
		}
		if b.quoteLine > 0 {
			rs := []io.Reader{bytes.NewReader(b.data[b.quoteOff:])}
			for _, q := range pending {
				rs = append(rs, bytes.NewReader(q.data))
			}
			rs = append(rs, bytes.NewReader(br.carry))
			switch {
			case readErr != nil:
				rs = append(rs, errReader{readErr})
			case !ended:
				rs = append(rs, br.r)
			}
			for _, q := range pending {
				<-q.done // its worker no longer reads q (slow reads q.data only)
			}
			return pr.slow(io.MultiReader(rs...), b.quoteLine)
		}
		pr.consumed += int64(len(b.data))
		pr.prealloc()
		free = append(free, b)
	}
	for _, q := range pending {
		<-q.done
	}
	if readErr != nil && !pr.full {
		return nil, readErr
	}
	pending, free = nil, nil // garbage for finish's repeat check to reuse
	return pr.finish()
}
