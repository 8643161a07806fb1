package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/internal/remedy"
	"github.com/partnertui/partnertui/ui/balancechart"
)

// maxHistoryDays bounds --days: ten years of days.
const maxHistoryDays = 3660

// BalanceHistoryOptions are `partnertui balance-history`'s.
type BalanceHistoryOptions struct {
	IO        IO
	F         *Factory
	AccountID string
	Days      int
	JSON, CSV bool
	Plot      bool
	// Now is the clock that says which days are the last ones.
	Now func() time.Time
}

// NewCmdBalanceHistory prints an account's booked balance day by day.
func NewCmdBalanceHistory(f *Factory) *cobra.Command {
	opts := &BalanceHistoryOptions{IO: f.IO, F: f, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "balance-history --account ID [--days N]",
		Short: "An account's booked balance day by day, rebuilt and checked",
		Long: "Prints the account's booked balance at the end of each of the last N days (UTC), with what was\n" +
			"booked in and out each day, then the period's totals, what went out by payment product, and the\n" +
			"pending and reserved money (not in the booked balance).\n" +
			"The history is rebuilt backwards from the booked balance now and the booked transactions of the\n" +
			"period (only their pages are read), with exact decimals, and checked against every balance the\n" +
			"platform reports after a booking: when they disagree (a page missing, a transaction changed\n" +
			"during the read) nothing is printed and the command exits 1, naming the difference.",
		Example: "  partnertui balance-history --account 3f2a…\n" +
			"  partnertui balance-history --account 3f2a… --days 90 --plot\n" +
			"  partnertui balance-history --account 3f2a… --days 365 --csv > balance.csv",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.check(); err != nil {
				return err
			}
			return runBalanceHistory(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	accountFlag(f, cmd, &opts.AccountID, "the account (`id`)")
	fl.IntVar(&opts.Days, "days", 30, "the last `N` days, today included")
	fl.BoolVar(&opts.JSON, "json", false, "print one JSON object (amounts as exact decimal strings)")
	fl.BoolVar(&opts.CSV, "csv", false, "print the daily series as RFC 4180 CSV")
	fl.BoolVar(&opts.Plot, "plot", false, "draw the chart in the terminal's width")
	return f.withSession(cmd, true)
}

func (o *BalanceHistoryOptions) check() error {
	if o.AccountID == "" {
		return usageErrorf("--account is required: the account whose balance to show (partnertui accounts lists them)")
	}
	if o.Days < 1 || o.Days > maxHistoryDays {
		return usageErrorf("--days must be between 1 and %d, not %d", maxHistoryDays, o.Days)
	}
	n := 0
	for _, b := range []bool{o.JSON, o.CSV, o.Plot} {
		if b {
			n++
		}
	}
	if n > 1 {
		return usageErrorf("--json, --csv and --plot cannot be used together")
	}
	return nil
}

// UnbalancedError is a period whose booked balance does not add up: the
// numbers are not printed. Reading again usually settles it (a transaction
// that changed during the read).
type UnbalancedError struct{ *ledger.Mismatch }

// Remedy is to read it again.
func (e *UnbalancedError) Remedy() remedy.Remedy { return remedy.Remedy{Kind: remedy.Retry} }

// ledgerAccount reads the account id of the environment the flags select,
// with its balances in the ledger's exact decimals: what a balance history
// and an export start from.
func ledgerAccount(ctx context.Context, f *Factory, id string) (*app.Env, *api.Account, ledger.Balances, error) {
	e, err := f.Env(ctx)
	if err != nil {
		return nil, nil, ledger.Balances{}, err
	}
	acct, err := e.API.Account(ctx, id)
	if err != nil {
		return nil, nil, ledger.Balances{}, err
	}
	bal, err := api.LedgerBalances(acct)
	return e, acct, bal, err
}

// readBooked reads the bookings sink needs (and the last one before them),
// saying on stderr how far it is.
func readBooked(ctx context.Context, f *Factory, c *api.Client, accountID string, sink api.BookedSink, what string) error {
	progress := f.progressLine()
	defer progress.clear()
	progress.set("reading " + what + "…")
	return c.ReadBooked(ctx, accountID, sink, func(pages, read int) {
		progress.set(fmt.Sprintf("reading %s · page %d · %d bookings", what, pages, read))
	})
}

func runBalanceHistory(ctx context.Context, opts *BalanceHistoryOptions) error {
	e, acct, bal, err := ledgerAccount(ctx, opts.F, opts.AccountID)
	if err != nil {
		return err
	}
	fold := ledger.NewFold(ledger.LastDays(opts.Now(), opts.Days), bal)
	if err := readBooked(ctx, opts.F, e.API, acct.ID, fold, "booked transactions"); err != nil {
		return err
	}
	fold.Done()
	h := fold.History()
	if h.Mismatch != nil {
		return &UnbalancedError{h.Mismatch}
	}
	out := bufio.NewWriter(opts.IO.Out)
	switch {
	case opts.JSON:
		err = writeJSON(out, historyJSON(acct.ID, &h))
	case opts.CSV:
		err = writeHistoryCSV(out, &h)
	case opts.Plot:
		w, rows := terminalSize(opts.IO)
		// Bold only where stdout shows it (a terminal, without NO_COLOR).
		cw := colorprofile.NewWriter(out, os.Environ())
		_, err = io.WriteString(cw, balancechart.Draw(&h, opts.Days, 0, w, rows, balancechart.PlainStyles())+"\n")
	default:
		err = writeHistoryTable(out, &h)
	}
	if err != nil {
		return err
	}
	return out.Flush()
}

// terminalSize is stdout's size for --plot; 80×24 when it is no terminal.
func terminalSize(s IO) (w, h int) {
	w, h = 80, 24
	if f, ok := s.Out.(interface{ Fd() uintptr }); ok && s.OutIsTerminal() {
		if tw, th, err := term.GetSize(f.Fd()); err == nil && tw > 20 && th > 8 {
			w, h = tw, th-1
		}
	}
	return w, h
}

// dayJSON, productJSON and historyOut are balance-history --json's shape:
// every amount an exact decimal string.
type dayJSON struct {
	Date     string `json:"date"`
	Balance  string `json:"balance"`
	In       string `json:"in"`
	Out      string `json:"out"`
	Bookings int    `json:"bookings"`
}

type productJSON struct {
	Product string `json:"product"`
	Amount  string `json:"amount"`
	Count   int    `json:"count"`
}

type historyOut struct {
	Account      string        `json:"account"`
	Currency     string        `json:"currency"`
	First        string        `json:"first"`
	Last         string        `json:"last"`
	Booked       string        `json:"booked"`
	Pending      string        `json:"pending"`
	Reserved     string        `json:"reserved"`
	Opening      string        `json:"opening"`
	Closing      string        `json:"closing"`
	In           string        `json:"in"`
	Out          string        `json:"out"`
	InByProduct  []productJSON `json:"inByProduct"`
	OutByProduct []productJSON `json:"outByProduct"`
	Bookings     int           `json:"bookings"`
	Checked      int           `json:"checkedBalances"`
	Days         []dayJSON     `json:"days"`
}

func historyJSON(accountID string, h *ledger.History) historyOut {
	cur := h.Currency
	products := func(ps []ledger.ProductTotal) []productJSON {
		out := make([]productJSON, len(ps))
		for i, p := range ps {
			out[i] = productJSON{Product: p.Product, Amount: ledger.Format(p.Amount, cur), Count: p.Count}
		}
		return out
	}
	o := historyOut{Account: accountID, Currency: cur, First: h.Period.First.Format(time.DateOnly), Last: h.Period.Last.Format(time.DateOnly),
		Booked: ledger.Format(h.Booked, cur), Pending: ledger.Format(h.Pending, cur), Reserved: ledger.Format(h.Reserved, cur),
		Opening: ledger.Format(h.Opening, cur), Closing: ledger.Format(h.Closing, cur), In: ledger.Format(h.In, cur), Out: ledger.Format(h.Out, cur),
		InByProduct: products(h.InBy), OutByProduct: products(h.OutBy), Bookings: h.Bookings, Checked: h.Checked,
		Days: make([]dayJSON, len(h.Days))}
	for i, d := range h.Days {
		o.Days[i] = dayJSON{Date: d.Date.Format(time.DateOnly), Balance: ledger.Format(d.Close, cur), In: ledger.Format(d.In, cur),
			Out: ledger.Format(d.Out, cur), Bookings: d.Bookings}
	}
	return o
}

// historyCSVHeader is balance-history --csv's header row.
var historyCSVHeader = []string{"Date", "Booked balance", "In", "Out", "Bookings", "Currency"}

func writeHistoryCSV(w io.Writer, h *ledger.History) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	_ = cw.Write(historyCSVHeader)
	cur := h.Currency
	for _, d := range h.Days {
		_ = cw.Write([]string{d.Date.Format(time.DateOnly), ledger.Format(d.Close, cur), ledger.Format(d.In, cur),
			ledger.Format(d.Out, cur), strconv.Itoa(d.Bookings), cur})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("could not write the output: %w", err)
	}
	return nil
}

func writeHistoryTable(w io.Writer, h *ledger.History) error {
	cur := h.Currency
	cols := []column[ledger.DayBalance]{
		{title: "DATE", cell: func(d *ledger.DayBalance) string { return d.Date.Format(time.DateOnly) }},
		{title: "BOOKED BALANCE", right: true, cell: func(d *ledger.DayBalance) string { return ledger.Format(d.Close, cur) }},
		{title: "IN", right: true, cell: func(d *ledger.DayBalance) string { return ledger.FormatSigned(d.In, cur) }},
		{title: "OUT", right: true, cell: func(d *ledger.DayBalance) string { return ledger.FormatSigned(d.Out.Neg(), cur) }},
		{title: "BOOKINGS", right: true, cell: func(d *ledger.DayBalance) string { return strconv.Itoa(d.Bookings) }},
	}
	tw := newItemWriter(w, formatTable, cols, len(h.Days))
	if err := tw.write(h.Days); err != nil {
		return err
	}
	if err := tw.close(); err != nil {
		return err
	}
	p := func(format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) }
	p("\n%s: opening %s, closing %s %s (%d bookings)\n", h.Period, ledger.Format(h.Opening, cur), ledger.Format(h.Closing, cur), cur, h.Bookings)
	p("In   %s %s\n", ledger.FormatSigned(h.In, cur), cur)
	for _, pt := range h.InBy {
		p("  %-24s %s (%d)\n", ledger.ProductLabel(pt.Product), ledger.FormatSigned(pt.Amount, cur), pt.Count)
	}
	p("Out  %s %s\n", ledger.FormatSigned(h.Out.Neg(), cur), cur)
	for _, pt := range h.OutBy {
		p("  %-24s %s (%d)\n", ledger.ProductLabel(pt.Product), ledger.FormatSigned(pt.Amount.Neg(), cur), pt.Count)
	}
	p("Now: booked %s, pending %s, reserved %s %s (pending and reserved are not in the booked balance)\n",
		ledger.Format(h.Booked, cur), ledger.FormatSigned(h.Pending, cur), ledger.Format(h.Reserved, cur), cur)
	p("Checked against %d balances the platform reports after a booking: they add up.\n", h.Checked)
	return nil
}
