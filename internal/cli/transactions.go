package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/ledger"
)

// TransactionsOptions are `partnertui transactions`'s.
type TransactionsOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	AccountID string
	Status    []string
	Type      []string
	Since     string
	Until     string
	Min, Max  string
	Search    string

	now time.Time // when --since and --until durations count back from
}

// NewCmdTransactions lists transactions, filtered.
func NewCmdTransactions(f *Factory) *cobra.Command {
	opts := &TransactionsOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "transactions",
		Short: "List transactions, across accounts or of one (--account), filtered",
		Long: "Lists transactions newest first. With a project token the whole project's (one list); with a\n" +
			"user token every account's merged into one list by execution date (a hundred accounts read\n" +
			"per request with their first rows; past 10,000 accounts, one account after another), or the\n" +
			"one given by --account.\n" +
			"Dates filter on the execution date: --since and --until take a duration back (2h, 3d), a date\n" +
			"or a time, and --until D includes the day D, as the app's To does. --min and --max include their bounds and compare the\n" +
			"amount without its sign (the platform's amounts have none; the side says which way the money\n" +
			"went): --min 100 lists a credit of +150.00 and a debit of -125.60 alike.",
		Example: "  partnertui transactions --account 3f2a… --since 2026-11-01\n" +
			"  partnertui transactions --project --status Booked --status Pending --min 100 --all --jsonl\n" +
			"  partnertui transactions --type SepaCreditTransferIn --search Acme\n" +
			"  partnertui transactions --account 3f2a… --status Booked --all --csv > booked.csv",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFirst(cmd, opts.Output.First); err != nil {
				return err
			}
			if _, err := opts.params(); err != nil {
				return err
			}
			return runTransactions(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	registerList[api.TransactionDetail](&opts.Output, cmd, "transactions")
	opts.Output.registerOrdered(cmd)
	opts.Output.registerCSV(cmd)
	accountFlag(f, cmd, &opts.AccountID, "only this account's transactions (`id`)")
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.TransactionStatuses())
	fl.StringSliceVar(&opts.Type, "type", nil, "only these types (`type`, repeat or comma-separate; any case), e.g. SepaCreditTransferIn, CardOutDebit, FeesOut")
	fl.StringVar(&opts.Since, "since", "", timeFlagUsage("executed at or after", false))
	fl.StringVar(&opts.Until, "until", "", timeFlagUsage("executed up to", true))
	fl.StringVar(&opts.Min, "min", "", "amount at least this `amount` (e.g. 100.00), credit or debit")
	fl.StringVar(&opts.Max, "max", "", "amount at most this `amount`, credit or debit")
	fl.StringVar(&opts.Search, "search", "", "server-side search in label, reference and counterparty (`text`)")
	completeChoices(cmd, "type", api.TransactionTypes())
	return f.withSession(cmd, true)
}

// params turns the flags into the API's parameters, refusing bad values as
// usage errors before anything is sent.
func (o *TransactionsOptions) params() (api.TransactionsParams, error) {
	p := api.TransactionsParams{First: o.Output.First, AccountID: o.AccountID, Status: o.Status, Type: o.Type, Search: o.Search}
	if _, err := o.Output.format(); err != nil {
		return p, err
	}
	if err := foldChoices("--status", "transaction status", o.Status, api.TransactionStatuses()); err != nil {
		return p, err
	}
	if err := foldChoices("--type", "transaction type", o.Type, api.TransactionTypes()); err != nil {
		return p, err
	}
	if o.now.IsZero() {
		o.now = time.Now()
	}
	var err error
	if p.IsAfterExecutionDate, err = parseTime("--since", o.Since, o.now, false); err != nil {
		return p, err
	}
	if p.IsBeforeExecutionDate, err = parseTime("--until", o.Until, o.now, true); err != nil {
		return p, err
	}
	if !p.IsAfterExecutionDate.IsZero() && !p.IsBeforeExecutionDate.IsZero() && !p.IsAfterExecutionDate.Before(p.IsBeforeExecutionDate) {
		return p, usageErrorf("--since %s is not before --until %s", o.Since, o.Until)
	}
	if p.IsAboveAmount, err = parseAmount("--min", o.Min); err != nil {
		return p, err
	}
	if p.IsBelowAmount, err = parseAmount("--max", o.Max); err != nil {
		return p, err
	}
	return p, nil
}

// transactionColumns are the transactions table's; across (a list of
// several accounts' transactions) adds the ACCOUNT each is of, as the
// app's list does.
func transactionColumns(across bool) []column[api.TransactionDetail] {
	cols := []column[api.TransactionDetail]{
		{title: "DATE", cell: func(t *api.TransactionDetail) string { return day(t.ExecutionDate) }},
		{title: "AMOUNT", right: true, cell: func(t *api.TransactionDetail) string {
			return signedAmount(t.Side, t.Amount.Value, t.Amount.Currency)
		}},
		{title: "STATUS", cell: func(t *api.TransactionDetail) string { return t.StatusInfo.Status }},
		{title: "TYPE", max: 28, cell: func(t *api.TransactionDetail) string { return t.Type }},
		{title: "COUNTERPARTY", max: 28, cell: func(t *api.TransactionDetail) string { return t.Counterparty }},
		{title: "LABEL", max: 32, cell: func(t *api.TransactionDetail) string { return t.Label }},
		{title: "ID", cell: func(t *api.TransactionDetail) string { return t.ID }},
	}
	if !across {
		return cols
	}
	account := column[api.TransactionDetail]{title: "ACCOUNT", max: 24, cell: func(t *api.TransactionDetail) string {
		if a := t.Account; a != nil {
			return a.Name
		}
		return ""
	}}
	// Before the ID, which stays last: what a script cuts off a row.
	return append(cols[:len(cols)-1:len(cols)-1], account, cols[len(cols)-1])
}

func runTransactions(ctx context.Context, opts *TransactionsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p, _ := opts.params()
	// An account's list, the project's (in parts when any order will do)
	// or, for a user token, every account's merged: api's choice.
	return listItemsCSV(ctx, opts.IO, opts.F, opts.Output, transactionColumns(p.AccountID == ""), transactionCSVRow,
		read(e.API.ListTransactions(p), opts.Output))
}

// transactionCSVRow is a transaction as a CSV export's row: dated by its
// booking when booked (else its execution), with the booked balance after
// it as the platform reports it (booked ones only).
func transactionCSVRow(t *api.TransactionDetail) (ledger.Entry, time.Time, string, error) {
	e, err := api.BookedEntry(t)
	if err != nil {
		return e, time.Time{}, "", err
	}
	balance := ""
	if e.HasBalanceAfter {
		balance = ledger.Format(e.BalanceAfter, e.Currency)
	}
	return e, e.BookingDate, balance, nil
}
