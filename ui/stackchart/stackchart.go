// Package stackchart draws counts by day as stacked columns, one pattern a
// series (█ ▓ ▒ ░ ·), so that the picture reads the same without colour
// (NO_COLOR): its legend with each series' total, the count axis, and the
// dates under it. Size and data in, lines out; it does no I/O.
package stackchart

import (
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/ui/balancechart"
)

// Glyphs are the series' patterns, in the series' order; the last
// (Other) stands for every series past the others.
var Glyphs = []string{"█", "▓", "▒", "░", "·"}

// Series is one stacked series: its name, its count each day, its style.
type Series struct {
	Name   string
	Counts []int // one a day, oldest first
	Style  lipgloss.Style
}

// Total is the series' count over every day.
func (s *Series) Total() int {
	n := 0
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// Fold keeps the len(Glyphs)-1 largest series and adds the others up into
// one named other: as many series as there are patterns.
func Fold(series []Series, other string, style lipgloss.Style) []Series {
	keep := len(Glyphs) - 1
	if len(series) <= len(Glyphs) {
		return series
	}
	rest := Series{Name: other, Counts: make([]int, len(series[0].Counts)), Style: style}
	for _, s := range series[keep:] {
		for d, c := range s.Counts {
			rest.Counts[d] += c
		}
	}
	return append(series[:keep:keep], rest)
}

// Draw is the series (largest first) over first..first+len(days)-1 in w
// cells and h lines: the legend, rows of columns with the count axis, the
// axis and the dates. Each column covers one day, or a few when the width
// is short, and counts them all.
func Draw(first time.Time, series []Series, w, h int, dim lipgloss.Style) []string {
	if h <= 0 || w <= 0 || len(series) == 0 {
		return nil
	}
	days := len(series[0].Counts)
	rows := h - 3
	if rows < 1 {
		return []string{legend(series, "", w, dim)}
	}
	all := 0
	for i := range series {
		all += series[i].Total()
	}
	// No column counts more than every day together: the axis's widest
	// label.
	lw := len(strconv.Itoa(all))
	pw := w - lw - 2
	if pw < 2 {
		return []string{legend(series, "", w, dim)}
	}
	cols, totals := columns(series, days, pw)
	top, span := 0, 1
	for j, t := range totals {
		top, span = max(top, t), max(span, cols[j][1]-cols[j][0]+1)
	}
	unit := ""
	if span > 1 {
		unit = " · ≤" + strconv.Itoa(span) + " days a column"
	}
	out := []string{legend(series, unit, w, dim)}
	// The highest column's count; a column's height is its count over it.
	labels := map[int]string{0: strconv.Itoa(top)}
	cells := stacks(series, cols, totals, top, rows)
	for r := range rows {
		var b strings.Builder
		label, marked := labels[r]
		b.WriteString(strings.Repeat(" ", lw-len(label)) + label)
		if marked {
			b.WriteString(" ┤")
		} else {
			b.WriteString(" │")
		}
		for j := range cols {
			k := cells[j][rows-1-r]
			if k < 0 {
				b.WriteByte(' ')
				continue
			}
			b.WriteString(series[k].Style.Render(Glyphs[min(k, len(Glyphs)-1)]))
		}
		out = append(out, b.String())
	}
	out = append(out, strings.Repeat(" ", lw+1)+"└"+strings.Repeat("─", len(cols)))
	out = append(out, strings.Repeat(" ", lw+2)+dates(first, cols))
	return out
}

// legend names each series with its pattern and total, then unit.
func legend(series []Series, unit string, w int, dim lipgloss.Style) string {
	parts := make([]string, len(series))
	for i, s := range series {
		parts[i] = s.Style.Render(Glyphs[min(i, len(Glyphs)-1)]) + " " + s.Name + " " + strconv.Itoa(s.Total())
	}
	return ansi.Truncate(strings.Join(parts, dim.Render(" · "))+dim.Render(unit), w, "…")
}

// columns maps width cells to the days: each column its first and last
// day (balancechart.Columns: a column covers one day, several on a short
// width), and how many the series count in it.
func columns(series []Series, days, width int) ([][2]int, []int) {
	last := balancechart.Columns(days, width)
	cols := make([][2]int, len(last))
	totals := make([]int, len(last))
	for j, d := range last {
		from := d
		if j > 0 && last[j-1] < d {
			from = last[j-1] + 1
		}
		cols[j] = [2]int{from, d}
		for _, s := range series {
			for day := from; day <= d; day++ {
				totals[j] += s.Counts[day]
			}
		}
	}
	return cols, totals
}

// stacks are each column's cells, bottom up: the series drawn there (-1
// for none). A column is as high as its count over top, in whole cells
// (at least one for a count above zero); the cells go to the series in
// proportion to their counts, the largest remainders first.
func stacks(series []Series, cols [][2]int, totals []int, top, rows int) [][]int {
	out := make([][]int, len(cols))
	for j, c := range cols {
		cells := make([]int, rows)
		for i := range cells {
			cells[i] = -1
		}
		out[j] = cells
		t := totals[j]
		if t == 0 || top == 0 {
			continue
		}
		height := max(1, (t*rows*2+top)/(top*2)) // rounded half up
		counts := make([]int, len(series))
		for k, s := range series {
			for day := c[0]; day <= c[1]; day++ {
				counts[k] += s.Counts[day]
			}
		}
		at := 0
		for k, n := range share(counts, t, height) {
			for range n {
				cells[at] = k
				at++
			}
		}
	}
	return out
}

// share splits height cells among counts (summing to total) by the
// largest remainder: exact, no floating point.
func share(counts []int, total, height int) []int {
	out := make([]int, len(counts))
	given := 0
	for k, c := range counts {
		out[k] = c * height / total
		given += out[k]
	}
	for given < height {
		best, rem := -1, -1
		for k, c := range counts {
			if r := c * height % total; r > rem && c > 0 {
				best, rem = k, r
			}
		}
		out[best]++
		given++
		counts[best] = 0 // each remainder counts once
	}
	return out
}

// dates writes the first and last day under the columns, and the middle
// one when there is room for the three apart.
func dates(first time.Time, cols [][2]int) string {
	if len(cols) == 0 {
		return ""
	}
	day := func(j int) string { return first.AddDate(0, 0, cols[j][1]).Format(time.DateOnly) }
	row := []byte(strings.Repeat(" ", len(cols)))
	n := len(day(0))
	switch {
	case len(row) >= 3*n+4:
		mid := len(cols) / 2
		copy(row[mid-n/2:], day(mid))
		fallthrough
	case len(row) >= 2*n+2:
		copy(row, day(0))
		copy(row[len(row)-n:], day(len(cols)-1))
	case len(row) >= n:
		copy(row, day(0))
	}
	return strings.TrimRight(string(row), " ")
}
