package cli

import (
	"bufio"
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/internal/platform"
)

// listFormat is how a list command writes its items.
type listFormat int

const (
	formatTable listFormat = iota // aligned columns, for people
	formatJSON                    // one JSON array, written as the pages arrive
	formatJSONL                   // one JSON object per line, for pipelines
	formatCSV                     // RFC 4180 CSV (a list that registerCSV gave the flag)
)

// listFlags are the flags every list command has: the output format and
// --all.
type listFlags struct {
	jsonFlags // --json [fields], --jq
	JSONL     bool
	CSV       bool // only where registerCSV added --csv
	All       bool
	// First is --first, the page size (0 leaves it to api.List: the
	// configuration's page_size).
	First int
	// Ordered keeps --all --json/--jsonl in the list's order; without it
	// a list that can be walked in parts (registerOrdered) writes its
	// items as the pages arrive.
	Ordered bool
	noun    string // what the list holds ("accounts"), for help and messages
}

// registerList adds --json (with its fields), --jq, --jsonl and --all to
// cmd, a list of noun whose items are Ts.
func registerList[T any](l *listFlags, cmd *cobra.Command, noun string) {
	l.noun = noun
	l.jsonFlags.register(cmd, reflect.TypeFor[T](), "print one JSON array of "+noun+" on stdout")
	fl := cmd.Flags()
	fl.BoolVar(&l.JSONL, "jsonl", false, "print one JSON object per line (for pipelines; --jq filters each)")
	fl.BoolVar(&l.All, "all", false, "walk every page of the list")
	registerFirst(cmd, &l.First, noun)
}

// check refuses the flags of a list command that cannot work together,
// and a --first the API would refuse, before anything is sent.
func (l listFlags) check(cmd *cobra.Command) error {
	if _, err := l.format(); err != nil {
		return err
	}
	return checkFirst(cmd, l.First)
}

// registerOrdered adds --ordered to a list that --all walks in parts for
// --json and --jsonl, and says so in their help.
func (l *listFlags) registerOrdered(cmd *cobra.Command) {
	fl := cmd.Flags()
	const parts = "; with --all in the order pages arrive (parts of the list are read at once; --ordered keeps the list's order)"
	fl.Lookup("json").Usage += parts
	fl.Lookup("jsonl").Usage += parts
	fl.BoolVar(&l.Ordered, "ordered", false, "with --all --json/--jsonl, walk the list in its order, one page per request (the table always keeps it)")
}

// registerCSV adds --csv, for a list whose items are transactions.
func (l *listFlags) registerCSV(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&l.CSV, "csv", false, "print RFC 4180 CSV, one header row: date, value date, counterparty, label, reference, signed amount, currency, status, balance after (booked), id")
}

// inParts reports whether the listing may walk the list in parts: every
// item, for a program, in whatever order is fastest.
func (l listFlags) inParts() bool {
	f, err := l.format()
	return err == nil && l.All && !l.Ordered && f != formatTable
}

// registerFirst adds --first, the page size, for a list of noun.
func registerFirst(cmd *cobra.Command, first *int, noun string) {
	cmd.Flags().IntVar(first, "first", 0, fmt.Sprintf("%s per page, `N` from 1 to %d (default: the configuration's page_size, else %d)", noun, platform.PageMax, platform.PageMax))
}

// checkFirst refuses a --first the API would refuse; without --first the
// list's page size is the configuration's (api.List).
func checkFirst(cmd *cobra.Command, n int) error {
	if !cmd.Flags().Changed("first") {
		return nil
	}
	if n < 1 || n > platform.PageMax {
		return usageErrorf("--first must be between 1 and %d (the API's page maximum), not %d", platform.PageMax, n)
	}
	return nil
}

func (l listFlags) format() (listFormat, error) {
	n := 0
	for _, b := range []bool{l.on(), l.JSONL, l.CSV} {
		if b {
			n++
		}
	}
	switch {
	case l.CSV && n > 1:
		return 0, usageErrorf("--csv cannot be used with --json, --jq or --jsonl")
	case l.JSON.on && l.JSON.fields == nil && l.JSONL:
		return 0, usageErrorf("--json and --jsonl cannot be used together (--jsonl --json field,field writes those fields a line each)")
	case l.CSV:
		return formatCSV, nil
	case l.JSONL:
		return formatJSONL, nil
	case l.on(): // --json, or --jq alone: the list as one array
		return formatJSON, nil
	}
	return formatTable, nil
}

// walkFunc walks a list page by page, calling each with every page's items
// and the list's total count as soon as the page arrives (the walk
// fetches the next page meanwhile).
type walkFunc[T any] func(ctx context.Context, each func(items []T, total int) error) error

// read is the walk of list the flags ask for: its first page; with --all
// every page, or every item in whatever order comes fastest for a program
// (inParts). How the list is read, and how many items per request, is
// api's.
func read[T any](list *api.List[T], l listFlags) walkFunc[T] {
	how := api.FirstPage
	switch {
	case l.inParts():
		how = api.AllItems
	case l.All:
		how = api.AllPages
	}
	return func(ctx context.Context, each func([]T, int) error) error { return list.Read(ctx, how, each) }
}

// listItems writes what walk yields as the flags ask, with progress on the
// command's line of stderr: the end of every list command.
func listItems[T any](ctx context.Context, streams IO, f *Factory, l listFlags, cols []column[T], walk walkFunc[T]) error {
	return listItemsCSV(ctx, streams, f, l, cols, nil, walk)
}

// csvRowFunc turns an item into a CSV export's row: the entry, its date
// and its balance after ("" for none).
type csvRowFunc[T any] func(*T) (e ledger.Entry, date time.Time, balance string, err error)

// listItemsCSV is listItems for a list that --csv can write, row by row
// with csvRow.
func listItemsCSV[T any](ctx context.Context, streams IO, f *Factory, l listFlags, cols []column[T], csvRow csvRowFunc[T], walk walkFunc[T]) error {
	format, err := l.format()
	if err != nil {
		return err
	}
	o, err := l.output()
	if err != nil {
		return err
	}
	r := &listRun[T]{io: streams, format: format, json: o, noun: l.noun, cols: cols, csvRow: csvRow, screenful: screenful(streams)}
	return r.run(ctx, walk, f.progressLine())
}

// listRun is what one run of a list command needs.
type listRun[T any] struct {
	io        IO
	format    listFormat
	json      jsonOutput // --json's fields, --jq's filter
	noun      string     // "accounts", for messages
	cols      []column[T]
	csvRow    csvRowFunc[T]
	screenful int
}

// PartialListError reports that a listing failed after some items were written.
type PartialListError struct {
	Noun    string
	Written int
	Format  listFormat
	Err     error
}

func (e *PartialListError) Error() string {
	what := fmt.Sprintf("%d %s had been written", e.Written, e.Noun)
	if e.Format == formatJSON {
		what += " and the JSON array is left unclosed"
	}
	return fmt.Sprintf("%v (%s)", e.Err, what)
}

func (e *PartialListError) Unwrap() error { return e.Err }

// run writes everything walk yields, page by page, with progress on a
// terminal's stderr.
func (r *listRun[T]) run(ctx context.Context, walk walkFunc[T], progress *progressLine) error {
	bw := bufio.NewWriterSize(r.io.Out, 64<<10)
	var out itemWriter[T]
	if r.format == formatCSV {
		out = &csvItemWriter[T]{w: bw, row: r.csvRow}
	} else {
		out = newItemWriterJSON(ctx, bw, r.format, r.json, r.cols, r.screenful, r.io.OutIsTerminal())
	}
	written, pages := 0, 0
	err := walk(ctx, func(items []T, total int) error {
		if err := out.write(items); err != nil {
			return err
		}
		// Each page reaches stdout as soon as it is written: a pipeline
		// sees the first items while the next page is on the wire.
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("could not write the output: %w", err)
		}
		written += len(items)
		pages++
		progress.set(fmt.Sprintf("%d of %d %s · page %d", written, total, r.noun, pages))
		return nil
	})
	progress.clear()
	if err != nil {
		_ = out.partial()
		_ = bw.Flush() // every complete JSON line is kept
		if written > 0 {
			return &PartialListError{Noun: r.noun, Written: written, Format: r.format, Err: err}
		}
		return err
	}
	if err := out.close(); err != nil {
		return err
	}
	if written == 0 {
		// A table with no row writes nothing: a bare header reads as a
		// broken listing. Said on stderr, for people; exit 0.
		fmt.Fprintf(r.io.Err, "No %s found.\n", r.noun)
	}
	return bw.Flush()
}

// screenful is how many rows a table buffers to size its columns: the
// terminal's height, else one full page.
func screenful(s IO) int {
	if f, ok := s.Out.(interface{ Fd() uintptr }); ok && s.OutIsTerminal() {
		if _, h, err := term.GetSize(f.Fd()); err == nil && h > 2 {
			return h - 2
		}
	}
	return platform.PageMax
}
