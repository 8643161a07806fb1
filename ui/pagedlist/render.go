package pagedlist

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/ui/internal/termline"
)

// renderer lays out the columns and keeps the window's lines formatted, so
// that a key press formats at most the rows that scrolled in.
type renderer[T any] struct {
	all      []Column[T]
	noHeader bool
	styles   Styles

	w, h   int
	cols   []Column[T]
	widths []int
	// narrow: a column was dropped for the width (Column.Narrow).
	narrow bool

	header             string // styled
	gapPlain, gapShown string // a row not loaded yet, plain and styled
	sel                termline.Paint

	// The window: lines[i] is row start+i (plain, exactly w wide), with
	// loaded[i] false for a placeholder. spare is the other buffer, so a
	// scroll rebuilds the window without allocating.
	start       int
	lines       []string
	loaded      []bool
	spareLines  []string
	spareLoaded []bool
	valid       bool
}

func (r *renderer[T]) init(cols []Column[T], s Styles, noHeader bool) {
	r.all, r.noHeader = cols, noHeader
	r.w, r.h = 80, 24
	r.restyle(s)
}

func (r *renderer[T]) restyle(s Styles) {
	r.styles = s
	r.sel = termline.New(s.Selected)
	r.layout()
}

func (r *renderer[T]) resize(w, h int) {
	if w == r.w && h == r.h {
		return
	}
	r.w, r.h = max(w, 0), max(h, 0)
	r.layout()
}

// visible is the number of row lines, at least one so that page keys move.
func (r *renderer[T]) visible() int {
	if r.noHeader {
		return max(r.h, 1)
	}
	return max(r.h-1, 1)
}

// layout keeps the most important columns that fit the width (each takes
// its width plus a one-cell gap), then shares what is left between the
// flexible ones.
func (r *renderer[T]) layout() {
	w := max(r.w, 1)
	prios := make([]int, 0, len(r.all))
	for _, c := range r.all {
		prios = append(prios, c.Drop)
	}
	slices.Sort(prios)
	prios = slices.Compact(prios)
	keep := make([]bool, len(r.all))
	used := 0
	for _, p := range prios {
		for i, c := range r.all {
			if c.Drop == p && used+c.Width+1 <= w {
				keep[i] = true
				used += c.Width + 1
			}
		}
	}
	r.cols, r.widths = r.cols[:0], r.widths[:0]
	flex := 0
	for i, c := range r.all {
		if keep[i] {
			r.cols = append(r.cols, c)
			r.widths = append(r.widths, c.Width)
			if c.Flex {
				flex++
			}
		}
	}
	r.narrow = len(r.cols) < len(r.all)
	if len(r.cols) == 0 && len(r.all) > 0 {
		r.cols = append(r.cols, r.all[0])
		r.widths = append(r.widths, w)
	}
	if spare := w - used; spare > 0 && flex > 0 {
		first := true
		for i, c := range r.cols {
			if !c.Flex {
				continue
			}
			share := spare / flex
			if first {
				share += spare % flex
				first = false
			}
			r.widths[i] += share
		}
	}
	titles := make([]string, len(r.cols))
	for i, c := range r.cols {
		titles[i] = c.Title
	}
	r.header = r.styles.Header.Render(r.cells(titles))
	r.gapPlain = r.pad("…")
	r.gapShown = r.styles.Placeholder.Render(r.gapPlain)
	r.valid = false
}

// cells pads or truncates each cell to its column and joins them into a
// line exactly as wide as the list.
func (r *renderer[T]) cells(cells []string) string {
	var b strings.Builder
	b.Grow(r.w + 8)
	for i, c := range cells {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := r.widths[i]
		c = trunc(c, w)
		pad := w - ansi.StringWidth(c)
		if r.cols[i].Right {
			spaces(&b, pad)
			b.WriteString(c)
		} else {
			b.WriteString(c)
			spaces(&b, pad)
		}
	}
	line := b.String()
	if lw := ansi.StringWidth(line); lw < r.w {
		return line + strings.Repeat(" ", r.w-lw)
	}
	return trunc(line, r.w)
}

func (r *renderer[T]) pad(s string) string {
	s = trunc(s, r.w)
	return s + strings.Repeat(" ", max(r.w-ansi.StringWidth(s), 0))
}

// line formats one row.
func (r *renderer[T]) line(row *T) string {
	var cells [8]string
	cs := cells[:0]
	if len(r.cols) > len(cells) {
		cs = make([]string, 0, len(r.cols))
	}
	for _, c := range r.cols {
		if r.narrow && c.Narrow != nil {
			cs = append(cs, c.Narrow(row))
			continue
		}
		cs = append(cs, c.Cell(row))
	}
	return r.cells(cs)
}

func spaces(b *strings.Builder, n int) {
	for ; n > 0; n-- {
		b.WriteByte(' ')
	}
}

// trunc cuts s to w cells with an ellipsis.
func trunc(s string, w int) string { return termline.Trunc(s, w) }

func (r *renderer[T]) invalidate() { r.valid = false }

// prepare formats the window starting at row offset of n rows, reusing the
// lines of rows that were already in it.
func (r *renderer[T]) prepare(offset, n int, format func(int) (string, bool)) {
	count := min(r.visible(), max(n-offset, 0))
	if r.valid && r.start == offset && len(r.lines) == count {
		return
	}
	lines, loaded := r.spareLines[:0], r.spareLoaded[:0]
	for i := range count {
		abs := offset + i
		if j := abs - r.start; r.valid && j >= 0 && j < len(r.lines) {
			lines, loaded = append(lines, r.lines[j]), append(loaded, r.loaded[j])
			continue
		}
		l, ok := format(abs)
		lines, loaded = append(lines, l), append(loaded, ok)
	}
	r.spareLines, r.spareLoaded = r.lines, r.loaded
	r.lines, r.loaded = lines, loaded
	r.start, r.valid = offset, true
}

// view assembles the window with the cursor on line sel: exactly h lines.
// wait, when not empty, takes the place of the first row not loaded (of
// the first line when there are no rows).
func (r *renderer[T]) view(sel int, wait string) string {
	if r.h <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow((r.w + 24) * r.h)
	lines := 0
	if !r.noHeader {
		b.WriteString(r.header)
		lines++
	}
	for i := 0; lines < r.h; i++ {
		if lines > 0 {
			b.WriteByte('\n')
		}
		lines++
		if i >= len(r.lines) {
			if wait != "" && i == 0 {
				b.WriteString(r.styles.Placeholder.Render(r.pad(wait)))
			}
			continue
		}
		switch {
		case !r.loaded[i] && wait != "":
			b.WriteString(r.styles.Placeholder.Render(r.pad(wait)))
			wait = ""
		case i == sel && r.loaded[i]:
			r.sel.Write(&b, r.lines[i])
		case i == sel:
			r.sel.Write(&b, r.gapPlain)
		case r.loaded[i]:
			b.WriteString(r.lines[i])
		default:
			b.WriteString(r.gapShown)
		}
	}
	return b.String()
}
