package output

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// box draws cells (the header first) as a table with light box-drawing
// borders: the header centred and upper-cased by the caller, every other
// cell left-aligned, one space of padding each side, and a cell's "\n"
// starting a new line within its row. It replaced the tablewriter module,
// whose package initialisation (width tables, an LRU cache, a logger) cost
// a fifth of privamp's start-up (issue 27); the output is byte-identical
// for privamp's tables (TestBoxMatchesTablewriter held both side by side).
func box(w io.Writer, cells [][]string) error {
	if len(cells) == 0 {
		return nil
	}
	ncol := 0
	for _, row := range cells {
		ncol = max(ncol, len(row))
	}
	lines := make([][][]string, len(cells)) // row, column, line
	widths := make([]int, ncol)
	for i, row := range cells {
		lines[i] = make([][]string, ncol)
		for j := range ncol {
			c := ""
			if j < len(row) {
				c = row[j]
			}
			ls := strings.Split(strings.TrimSpace(c), "\n")
			for _, l := range ls {
				widths[j] = max(widths[j], displayWidth(l))
			}
			lines[i][j] = ls
		}
	}
	var b strings.Builder
	rule := func(left, mid, right string) {
		b.WriteString(left)
		for j, wd := range widths {
			if j > 0 {
				b.WriteString(mid)
			}
			b.WriteString(strings.Repeat("─", wd+2))
		}
		b.WriteString(right + "\n")
	}
	row := func(r [][]string, centre bool) {
		height := 0
		for _, ls := range r {
			height = max(height, len(ls))
		}
		for k := range height {
			blank := true
			for _, ls := range r {
				blank = blank && (k >= len(ls) || strings.TrimSpace(ls[k]) == "")
			}
			if blank && !centre && k > 0 { // a line blank in every cell, below the header
				continue
			}
			b.WriteString("│")
			for j, ls := range r {
				s := ""
				if k < len(ls) {
					s = ls[k]
				}
				gap := widths[j] - displayWidth(s)
				left := 0
				if centre {
					left = gap / 2
				}
				b.WriteString(" " + strings.Repeat(" ", left) + s + strings.Repeat(" ", gap-left) + " │")
			}
			b.WriteString("\n")
		}
	}
	rule("┌", "┬", "┐")
	row(lines[0], true)
	rule("├", "┼", "┤")
	for _, r := range lines[1:] {
		row(r, false)
	}
	rule("└", "┴", "┘")
	_, err := io.WriteString(w, b.String())
	return err
}

// displayWidth is the number of terminal columns s takes: 0 for combining
// marks and format characters, 2 for East Asian wide and full-width
// characters, 1 for every other rune.
func displayWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r < 0x300:
			n++
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		case wide(r):
			n += 2
		default:
			n++
		}
	}
	return n
}

// wide reports whether r is an East Asian wide or full-width character
// (Unicode's EastAsianWidth W and F, in their main blocks).
func wide(r rune) bool {
	return r >= 0x1100 && r <= 0x115F || r >= 0x2E80 && r <= 0x303E || r >= 0x3041 && r <= 0x33FF ||
		r >= 0x3400 && r <= 0x4DBF || r >= 0x4E00 && r <= 0x9FFF || r >= 0xA000 && r <= 0xA4CF ||
		r >= 0xAC00 && r <= 0xD7A3 || r >= 0xF900 && r <= 0xFAFF || r >= 0xFE30 && r <= 0xFE4F ||
		r >= 0xFF00 && r <= 0xFF60 || r >= 0xFFE0 && r <= 0xFFE6 || r >= 0x1F300 && r <= 0x1F64F ||
		r >= 0x1F900 && r <= 0x1F9FF || r >= 0x20000 && r <= 0x3FFFD
}
