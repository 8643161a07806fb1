package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
)

// manyAccounts are n accounts with varied content (unicode, missing
// balances, HTML-ish characters JSON must not escape).
func manyAccounts(n int) []api.Account {
	out := make([]api.Account, n)
	for i := range out {
		out[i] = api.Account{
			ID: fmt.Sprintf("acc-%05d", i), Name: fmt.Sprintf("Compte <%d> & Zoë", i), IBAN: "FR7630006000011234567890189",
			Currency: "EUR", StatusInfo: api.StatusInfo{Status: "Opened"}, Holder: api.Holder{Info: api.HolderInfo{Name: "Holder"}},
		}
		if i%3 != 0 {
			out[i].Balances = &api.Balances{Available: api.Amount{Value: fmt.Sprintf("%d.00", i), Currency: "EUR"}}
		}
	}
	return out
}

// pagesOf walks items in pages of size, then fails with failAfter's error
// once that many pages were given (0: never).
func pagesOf[T any](items []T, size, failAfter int, fail error) walkFunc[T] {
	return func(ctx context.Context, each func([]T, int) error) error {
		pages := 0
		for from := 0; from < len(items); from += size {
			if failAfter > 0 && pages == failAfter {
				return fail
			}
			if err := each(items[from:min(from+size, len(items))], len(items)); err != nil {
				return err
			}
			pages++
		}
		return nil
	}
}

// TestStreamedJSONEqualsBufferedJSON: writing page by page gives, byte for
// byte, what encoding the whole list at once gives: compact for a pipe (as
// the command writes it when stdout is not a terminal), indented for people.
func TestStreamedJSONEqualsBufferedJSON(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 7, 250} {
		items := manyAccounts(n)
		var indented bytes.Buffer
		if err := writeJSON(&indented, items); err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		enc := json.NewEncoder(&compact)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(items); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			indented.Reset()
			indented.WriteString("[]\n")
			compact.Reset()
			compact.WriteString("[]\n")
		}
		var streamed bytes.Buffer
		r := &listRun[api.Account]{io: IO{Out: &streamed, Err: &bytes.Buffer{}}, format: formatJSON, noun: "accounts", cols: accountColumns()}
		if err := r.run(context.Background(), pagesOf(items, 100, 0, nil), nil); err != nil {
			t.Fatal(err)
		}
		if streamed.String() != compact.String() {
			t.Fatalf("n=%d: streamed JSON differs from the buffered encoding:\n%s\n--- want ---\n%s", n, streamed.String(), compact.String())
		}
		var pretty bytes.Buffer
		w := newItemWriterIndent(&pretty, formatJSON, accountColumns(), 100, true)
		for from := 0; from < n; from += 100 {
			if err := w.write(items[from:min(from+100, n)]); err != nil {
				t.Fatal(err)
			}
		}
		_ = w.close()
		if pretty.String() != indented.String() {
			t.Fatalf("n=%d: streamed indented JSON differs from the buffered encoding", n)
		}
	}
}

func TestJSONLinesParse(t *testing.T) {
	t.Parallel()
	items := manyAccounts(205)
	var out bytes.Buffer
	r := &listRun[api.Account]{io: IO{Out: &out, Err: &bytes.Buffer{}}, format: formatJSONL, noun: "accounts", cols: accountColumns()}
	if err := r.run(context.Background(), pagesOf(items, 100, 0, nil), nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(items) {
		t.Fatalf("%d lines for %d items", len(lines), len(items))
	}
	for i, l := range lines {
		var a api.Account
		if err := json.Unmarshal([]byte(l), &a); err != nil || a.ID != items[i].ID {
			t.Fatalf("line %d %q: %v", i, l, err)
		}
	}
}

// TestFailureMidListing: the error says how many items were written, a JSON
// array stays unclosed (no script can take it for the whole list), and JSON
// lines keep every complete line.
func TestFailureMidListing(t *testing.T) {
	t.Parallel()
	items := manyAccounts(350)
	cause := &api.NetworkError{Env: "sandbox", Host: "api.example", Err: errors.New("connection reset")}
	for _, f := range []listFormat{formatJSON, formatJSONL, formatTable} {
		var out bytes.Buffer
		r := &listRun[api.Account]{io: IO{Out: &out, Err: &bytes.Buffer{}}, format: f, noun: "accounts", cols: accountColumns(), screenful: 500}
		err := r.run(context.Background(), pagesOf(items, 100, 2, cause), nil)
		var pe *PartialListError
		if !errors.As(err, &pe) || pe.Written != 200 || !errors.Is(err, cause) || exitCode(err) != ExitFailure {
			t.Fatalf("format %d: err = %v", f, err)
		}
		if !strings.Contains(err.Error(), "200 accounts had been written") {
			t.Errorf("format %d: %q does not say how many were written", f, err)
		}
		text := out.String()
		switch f {
		case formatJSON:
			if !strings.Contains(err.Error(), "left unclosed") {
				t.Errorf("message %q does not say the array is unclosed", err)
			}
			if json.Valid(out.Bytes()) || strings.HasSuffix(strings.TrimSpace(text), "]") {
				t.Errorf("a partial JSON array was closed: ...%s", text[max(len(text)-40, 0):])
			}
			var partial []api.Account
			if json.Unmarshal([]byte(text+"\n]"), &partial) != nil || len(partial) != 200 {
				t.Errorf("the written part is not the first 200 elements")
			}
		case formatJSONL:
			if n := strings.Count(text, "\n"); n != 200 || !strings.HasSuffix(text, "\n") {
				t.Errorf("%d complete lines, want 200", n)
			}
		case formatTable:
			if n := strings.Count(text, "\n"); n != 201 {
				t.Errorf("table has %d lines after the failure, want the header and 200 rows", n)
			}
		}
	}
}

// TestTableStreamsAfterAScreenful: the first screenful sizes the columns;
// later rows keep those widths (cut with an ellipsis) and are written at
// once.
func TestTableStreamsAfterAScreenful(t *testing.T) {
	t.Parallel()
	items := manyAccounts(30)
	items[25].Name = strings.Repeat("W", 31)
	var out bytes.Buffer
	w := newItemWriter(&out, formatTable, accountColumns(), 10)
	if err := w.write(items[:5]); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Fatal("rows were written before a screenful was there to size the columns")
	}
	if err := w.write(items[5:12]); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "\n"); got != 13 {
		t.Fatalf("after a screenful: %d lines, want the header and 12 rows", got)
	}
	if err := w.write(items[12:]); err != nil {
		t.Fatal(err)
	}
	_ = w.close()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if !strings.Contains(lines[26], "…") {
		t.Errorf("a name longer than the sized column was not cut: %q", lines[26])
	}
	if len(lines[26]) != len(lines[25]) && !strings.Contains(lines[26], "…") {
		t.Errorf("rows are not aligned")
	}
}

// BenchmarkTableWriter writes 10,000 accounts as a table in pages of 100,
// the first screenful buffered: the per-row cost of `accounts --all` when
// stdout is a file.
func BenchmarkTableWriter(b *testing.B) {
	items := manyAccounts(10_000)
	for i := range items {
		if i%7 == 0 {
			items[i].Name = strings.Repeat("Très long nom ", 4) // cut at the column's maximum
		}
	}
	cols := accountColumns()
	b.ReportAllocs()
	for b.Loop() {
		w := newItemWriter(io.Discard, formatTable, cols, 100)
		for from := 0; from < len(items); from += 100 {
			if err := w.write(items[from : from+100]); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.close(); err != nil {
			b.Fatal(err)
		}
	}
}
