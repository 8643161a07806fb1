package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/internal/apicall"
	"github.com/partnertui/partnertui/internal/ledger"
)

// The writers of a list command's items, a page at a time: a JSON array,
// JSON lines, or a table whose columns are sized on its first screenful.

// column is one column of a list table.
type column[T any] struct {
	title string
	cell  func(*T) string
	right bool // amounts align on the right
	max   int  // cells; 0 means no limit
}

// itemWriter writes a list one page at a time, so a long list never sits
// in memory whole.
type itemWriter[T any] interface {
	write(items []T) error
	// close ends the output; after a failure it is not called, so a JSON
	// array stays unclosed and no script can take a partial list for a
	// whole one.
	close() error
	// partial writes what is held back after a failure (a table's first
	// screenful), so that what was counted as written was written.
	partial() error
}

// newItemWriter picks the writer for f. screenful is how many rows a table
// buffers to size its columns before it streams.
func newItemWriter[T any](w io.Writer, f listFormat, cols []column[T], screenful int) itemWriter[T] {
	return newItemWriterIndent(w, f, cols, screenful, true)
}

// newItemWriterIndent is newItemWriter with the choice of an indented JSON
// array (for people: a terminal) or a compact one (for programs: a pipe, a
// file), as gh does; indenting is a fifth of the cost of a long listing.
func newItemWriterIndent[T any](w io.Writer, f listFormat, cols []column[T], screenful int, indent bool) itemWriter[T] {
	return newItemWriterJSON(context.Background(), w, f, jsonOutput{}, cols, screenful, indent)
}

// newItemWriterJSON is newItemWriterIndent with --json's fields and --jq's
// filter: the filter runs on the whole array once the list is complete
// (as gh's --jq), or with --jsonl on each item as it comes.
func newItemWriterJSON[T any](ctx context.Context, w io.Writer, f listFormat, o jsonOutput, cols []column[T], screenful int, indent bool) itemWriter[T] {
	switch {
	case f == formatJSON && o.jq != nil:
		return &jqWriter[T]{ctx: ctx, w: w, o: o, indent: indent, whole: true}
	case f == formatJSONL && o.jq != nil:
		return &jqWriter[T]{ctx: ctx, w: w, o: o}
	case f == formatJSON:
		return &jsonArrayWriter[T]{w: w, indent: indent, fields: o}
	case f == formatJSONL:
		return &jsonLinesWriter[T]{w: w, fields: o}
	}
	return &tableWriter[T]{w: w, cols: cols, screenful: max(screenful, 1)}
}

// jqWriter runs --jq on the list: on the whole array at its end, or on
// each item as it comes.
type jqWriter[T any] struct {
	ctx    context.Context
	w      io.Writer
	o      jsonOutput
	indent bool
	whole  bool
	items  []any // whole: the items so far, decoded
}

func (j *jqWriter[T]) write(items []T) error {
	for i := range items {
		b, err := j.o.encode(&items[i])
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("could not filter the JSON output: %w", err)
		}
		if j.whole {
			j.items = append(j.items, v)
			continue
		}
		if err := apicall.WriteJQ(j.ctx, j.o.jq, v, j.w, false); err != nil {
			return err
		}
	}
	return nil
}

func (j *jqWriter[T]) close() error {
	if !j.whole {
		return nil
	}
	if j.items == nil {
		j.items = []any{}
	}
	return apicall.WriteJQ(j.ctx, j.o.jq, j.items, j.w, j.indent)
}

func (j *jqWriter[T]) partial() error { return nil }

// jsonArrayWriter writes exactly what encoding one []T would (with
// two-space indentation when indent is set), element by element.
type jsonArrayWriter[T any] struct {
	w      io.Writer
	indent bool
	fields jsonOutput // --json's fields; none: every field
	n      int
	buf    bytes.Buffer
	enc    *json.Encoder
}

func (j *jsonArrayWriter[T]) write(items []T) error {
	if len(items) == 0 {
		return nil
	}
	if j.enc == nil {
		j.enc = json.NewEncoder(&j.buf)
		j.enc.SetEscapeHTML(false)
		if j.indent {
			// Elements of an indented array sit one level in.
			j.enc.SetIndent("  ", "  ")
		}
	}
	open, sep := "[", ","
	if j.indent {
		open, sep = "[\n  ", ",\n  "
	}
	j.buf.Reset()
	for i := range items {
		if j.n == 0 {
			j.buf.WriteString(open)
		} else {
			j.buf.WriteString(sep)
		}
		if err := j.encode(&items[i]); err != nil {
			return err
		}
		j.n++
	}
	return writeAll(j.w, j.buf.Bytes())
}

// encode writes one item to buf: the encoder's own output (the fast way),
// or with fields the fields asked for, indented as the encoder would.
func (j *jsonArrayWriter[T]) encode(item *T) error {
	if j.fields.fields == nil {
		if err := j.enc.Encode(item); err != nil {
			return fmt.Errorf("could not encode the JSON output: %w", err)
		}
		j.buf.Truncate(j.buf.Len() - 1) // Encode's newline
		return nil
	}
	b, err := j.fields.encode(item)
	if err != nil {
		return err
	}
	if !j.indent {
		j.buf.Write(b)
		return nil
	}
	return json.Indent(&j.buf, b, "  ", "  ")
}

func (j *jsonArrayWriter[T]) partial() error { return nil }

func (j *jsonArrayWriter[T]) close() error {
	switch {
	case j.n == 0:
		return writeAll(j.w, []byte("[]\n"))
	case j.indent:
		return writeAll(j.w, []byte("\n]\n"))
	}
	return writeAll(j.w, []byte("]\n"))
}

// jsonLinesWriter writes one compact JSON object per line.
type jsonLinesWriter[T any] struct {
	w      io.Writer
	fields jsonOutput // --json's fields; none: every field
	buf    bytes.Buffer
	enc    *json.Encoder
}

func (j *jsonLinesWriter[T]) write(items []T) error {
	if j.enc == nil {
		j.enc = json.NewEncoder(&j.buf)
		j.enc.SetEscapeHTML(false)
	}
	j.buf.Reset()
	for i := range items {
		if j.fields.fields != nil {
			b, err := j.fields.encode(&items[i])
			if err != nil {
				return err
			}
			j.buf.Write(append(b, '\n'))
			continue
		}
		if err := j.enc.Encode(&items[i]); err != nil {
			return fmt.Errorf("could not encode the JSON output: %w", err)
		}
	}
	return writeAll(j.w, j.buf.Bytes())
}

func (j *jsonLinesWriter[T]) close() error   { return nil }
func (j *jsonLinesWriter[T]) partial() error { return nil }

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

// csvItemWriter writes items as a CSV export's rows (ledger.CSVWriter),
// the header before the first page.
type csvItemWriter[T any] struct {
	w   io.Writer
	row csvRowFunc[T]
	cw  *ledger.CSVWriter
}

func (c *csvItemWriter[T]) start() error {
	if c.cw != nil {
		return nil
	}
	var err error
	c.cw, err = ledger.NewCSVWriter(c.w)
	return err
}

func (c *csvItemWriter[T]) write(items []T) error {
	if err := c.start(); err != nil {
		return err
	}
	for i := range items {
		e, date, balance, err := c.row(&items[i])
		if err != nil {
			return err
		}
		if err := c.cw.Row(&e, date, balance); err != nil {
			return err
		}
	}
	return c.cw.Flush()
}

func (c *csvItemWriter[T]) close() error {
	if err := c.start(); err != nil {
		return err
	}
	return c.cw.Flush()
}

func (c *csvItemWriter[T]) partial() error { return nil }
