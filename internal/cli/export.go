package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/ledger"
)

// Export formats.
const (
	exportCSV     = "csv"
	exportCamt053 = "camt053"
)

// ExportOptions are `partnertui export`'s.
type ExportOptions struct {
	IO        IO
	F         *Factory
	AccountID string
	From, To  string
	Format    string
	Output    string // -o; "" for stdout
	Now       func() time.Time
	// SpoolDir is where the bookings wait, on disk, to be written in
	// booking order ("" for the system's temporary directory).
	SpoolDir string
}

// NewCmdExport writes an account's statement for a period, checked.
func NewCmdExport(f *Factory) *cobra.Command {
	opts := &ExportOptions{IO: f.IO, F: f, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "export --account ID --from DATE [--to DATE] --format csv|camt053 [-o FILE]",
		Short: "An account's booked transactions over a period, as CSV or an ISO 20022 camt.053 statement",
		Long: "Writes the transactions booked in the period (UTC days, both included), oldest first:\n" +
			"  csv      RFC 4180, one header row: date (booked), value date, counterparty, label, reference,\n" +
			"           signed amount, currency, status, running booked balance, transaction id\n" +
			"  camt053  ISO 20022 BankToCustomerStatement (camt.053.001.08): the account and its IBAN, the\n" +
			"           opening and closing booked balances, the totals, one entry per booking with its\n" +
			"           references and counterparty\n" +
			"Amounts are exact decimals. The export checks itself before writing anything: the opening\n" +
			"balance plus the entries must be the closing balance, and every balance the platform reports\n" +
			"after a booking must agree. When they do not (a page missing, a transaction changed during the\n" +
			"read) it says by how much and exits 1, and writes nothing. The bookings wait on disk (a\n" +
			"temporary file, removed at once) to be sorted, so memory stays flat however many there are.",
		Example: "  partnertui export --account 3f2a… --from 2026-10-01 --to 2026-10-31 --format csv -o october.csv\n" +
			"  partnertui export --account 3f2a… --from 2026-01-01 --format camt053 > 2026.xml",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := opts.period()
			if err != nil {
				return err
			}
			return runExport(cmd.Context(), opts, p)
		},
	}
	fl := cmd.Flags()
	accountFlag(f, cmd, &opts.AccountID, "the account (`id`)")
	fl.StringVar(&opts.From, "from", "", "the first day (`YYYY-MM-DD`, UTC)")
	fl.StringVar(&opts.To, "to", "", "the last day (`YYYY-MM-DD`, UTC; default today)")
	fl.StringVar(&opts.Format, "format", "", "`csv` or camt053")
	fl.StringVarP(&opts.Output, "output", "o", "", "write to `FILE` (replaced whole, only once the statement adds up) instead of stdout")
	completeChoices(cmd, "format", []string{exportCSV, exportCamt053})
	return f.withSession(cmd, true)
}

// period checks the flags and returns the days to export.
func (o *ExportOptions) period() (ledger.Period, error) {
	var p ledger.Period
	if o.AccountID == "" {
		return p, usageErrorf("--account is required: the account to export (partnertui accounts lists them)")
	}
	if o.Format != exportCSV && o.Format != exportCamt053 {
		return p, usageErrorf("--format must be %s or %s, not %q", exportCSV, exportCamt053, o.Format)
	}
	if o.From == "" {
		return p, usageErrorf("--from is required: the first day of the statement (YYYY-MM-DD)")
	}
	today := ledger.Day(o.Now())
	day := func(flag, v string) (time.Time, error) {
		t, err := time.Parse(time.DateOnly, v)
		if err != nil {
			return t, usageErrorf("%s %q is not a day: write YYYY-MM-DD", flag, v)
		}
		return t, nil
	}
	var err error
	if p.First, err = day("--from", o.From); err != nil {
		return p, err
	}
	p.Last = today
	if o.To != "" {
		if p.Last, err = day("--to", o.To); err != nil {
			return p, err
		}
	}
	switch {
	case p.Last.After(today):
		return p, usageErrorf("--to %s is after today (%s): a statement ends on a day that has passed or today", o.To, today.Format(time.DateOnly))
	case p.First.After(p.Last):
		return p, usageErrorf("--from %s is after --to %s", o.From, p.Last.Format(time.DateOnly))
	}
	return p, nil
}

func runExport(ctx context.Context, opts *ExportOptions, period ledger.Period) error {
	e, acct, bal, err := ledgerAccount(ctx, opts.F, opts.AccountID)
	if err != nil {
		return err
	}
	info := ledger.Account{ID: acct.ID, Name: acct.Name, IBAN: acct.IBAN, BIC: acct.BIC, Currency: bal.Currency, Holder: acct.Holder.Info.Name}
	st, err := ledger.NewStatement(info, period, bal, opts.Now().UTC(), opts.SpoolDir)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := readBooked(ctx, opts.F, e.API, acct.ID, st, "the period's bookings"); err != nil {
		return err
	}
	h, _ := st.Finish()
	if h.Mismatch != nil {
		return &UnbalancedError{h.Mismatch}
	}
	write := st.WriteCSV
	if opts.Format == exportCamt053 {
		write = st.WriteCamt053
	}
	if opts.Output == "" {
		out := bufio.NewWriterSize(opts.IO.Out, 64<<10)
		if err := write(out); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return fmt.Errorf("could not write the output: %w", err)
		}
	} else if err := writeFileAtomically(opts.Output, write); err != nil {
		return err
	}
	cur := h.Currency
	_, _ = fmt.Fprintf(opts.IO.Err, "✓ %s, %d bookings: opening %s %s, in %s, out %s, closing %s %s, as the platform reports it (checked against %d balances)\n",
		period, h.Bookings, ledger.Format(h.Opening, cur), cur, ledger.FormatSigned(h.In, cur), ledger.FormatSigned(h.Out.Neg(), cur),
		ledger.Format(h.Closing, cur), cur, h.Checked)
	return nil
}

// writeFileAtomically writes path through a temporary file beside it,
// synced and renamed over it: path holds the whole statement or what it
// held before, never half of one. The statement is the user's data: 0600.
func writeFileAtomically(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 64<<10)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	done = true
	return nil
}
