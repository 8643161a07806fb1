package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/partnertui/partnertui/internal/apicall"
	"github.com/partnertui/partnertui/internal/ledger"
)

// The writers of a list command's items, a page at a time: a JSON array,
// JSON lines, or a table whose columns are sized on its first screenful.

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
