package dp

// Progress is the library's one progress-callback signature: it is told
// that done of total units of work are finished (training steps, repeats,
// audit runs, positions whose ε is computed). A nil Progress is allowed
// everywhere one is taken and means nobody is listening. Work done by
// several goroutines may report from any of them, and a late report may
// carry a smaller done than one already seen; a listener that draws a bar
// keeps the largest.
type Progress func(done, total int64)

// Report calls p with done and total if p is not nil.
func (p Progress) Report(done, total int64) {
	if p != nil {
		p(done, total)
	}
}
