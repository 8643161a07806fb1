package cli

import (
	"bytes"
	"fmt"
	"io"

	"github.com/charmbracelet/x/ansi"
)

// A list command's table: its columns, and the writer that sizes them on
// the first screenful of rows and streams the rest in those widths.

// column is one column of a list table.
type column[T any] struct {
	title string
	cell  func(*T) string
	right bool // amounts align on the right
	max   int  // cells; 0 means no limit
}

// tableWriter buffers the first screenful of rows to size the columns, then
// streams every later row in those widths (cells cut with "…").
type tableWriter[T any] struct {
	w         io.Writer
	cols      []column[T]
	screenful int
	pending   [][]cell // rows held until the widths are known
	widths    []int
	row       []cell // the streamed row being written, reused
	buf       bytes.Buffer
}

// cell is one cell's text and its width in terminal cells, measured once:
// measuring is most of a table's cost.
type cell struct {
	text  string
	width int
}

// fit is text as a cell of at most limit terminal cells (0: no limit),
// cut with "…"; "-" when empty.
func fit(text string, limit int) cell {
	if text == "" {
		text = "-"
	}
	w := textWidth(text)
	if limit > 0 && w > limit {
		text = ansi.Truncate(text, limit, "…")
		w = textWidth(text)
	}
	return cell{text, w}
}

// textWidth is ansi.StringWidth with a shortcut for printable ASCII, where
// each byte is one cell: most of what a list shows (ids, amounts, dates).
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

func (t *tableWriter[T]) write(items []T) error {
	for i := range items {
		row := t.row
		if t.widths == nil {
			row = make([]cell, len(t.cols))
		}
		for c, col := range t.cols {
			row[c] = fit(col.cell(&items[i]), col.max)
		}
		if t.widths == nil {
			t.pending = append(t.pending, row)
			continue
		}
		t.line(row)
	}
	if t.widths == nil && len(t.pending) >= t.screenful {
		t.flushPending()
	}
	return t.emit()
}

func (t *tableWriter[T]) close() error {
	if t.widths == nil && len(t.pending) == 0 {
		return nil // no row: no header either
	}
	if t.widths == nil {
		t.flushPending()
	}
	return t.emit()
}

func (t *tableWriter[T]) partial() error {
	if t.widths == nil && len(t.pending) == 0 {
		return nil // nothing was listed: no header over an error
	}
	return t.close()
}

// flushPending fixes the widths from the header and the buffered rows.
func (t *tableWriter[T]) flushPending() {
	t.widths = make([]int, len(t.cols))
	header := make([]cell, len(t.cols))
	for c, col := range t.cols {
		header[c] = fit(col.title, 0)
		t.widths[c] = header[c].width
	}
	for _, row := range t.pending {
		for c, cell := range row {
			t.widths[c] = max(t.widths[c], cell.width)
		}
	}
	t.line(header)
	for _, row := range t.pending {
		t.line(row)
	}
	t.pending = nil
	t.row = make([]cell, len(t.cols))
}

func (t *tableWriter[T]) line(row []cell) {
	for c, cl := range row {
		if w := t.widths[c]; cl.width > w {
			cl = fit(ansi.Truncate(cl.text, w, "…"), 0)
		}
		pad := t.widths[c] - cl.width
		last := c == len(row)-1
		switch {
		case t.cols[c].right:
			t.spaces(pad)
			t.buf.WriteString(cl.text)
			if !last {
				t.spaces(2)
			}
		case last:
			t.buf.WriteString(cl.text)
		default:
			t.buf.WriteString(cl.text)
			t.spaces(pad + 2)
		}
	}
	t.buf.WriteByte('\n')
}

func (t *tableWriter[T]) spaces(n int) {
	for range n {
		t.buf.WriteByte(' ')
	}
}

func (t *tableWriter[T]) emit() error {
	if t.buf.Len() == 0 {
		return nil
	}
	err := writeAll(t.w, t.buf.Bytes())
	t.buf.Reset()
	return err
}

func writeAll(w io.Writer, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("could not write the output: %w", err)
	}
	return nil
}
