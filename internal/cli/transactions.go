package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// TransactionsOptions are `partnertui transactions`'s.
type TransactionsOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	First     int
	AccountID string
	Status    []string
	Type      []string
	Since     string
	Until     string
	Min, Max  string
	Search    string
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
			"Dates filter on the execution date. --min and --max include their bounds and compare the\n" +
			"amount without its sign (the platform's amounts have none; the side says which way the money\n" +
			"went): --min 100 lists a credit of +150.00 and a debit of -125.60 alike.",
		Example: "  partnertui transactions --account 3f2a… --since 2026-11-01\n" +
			"  partnertui transactions --project --status Booked --status Pending --min 100 --all --jsonl\n" +
			"  partnertui transactions --type SepaCreditTransferIn --search Acme",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFirst(cmd, opts.First); err != nil {
				return err
			}
			if _, err := opts.params(); err != nil {
				return err
			}
			return runTransactions(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	opts.Output.register(cmd, "transactions")
	opts.Output.registerOrdered(cmd)
	registerFirst(cmd, &opts.First, "transactions")
	fl.StringVar(&opts.AccountID, "account", "", "only this account's transactions (`id`)")
	fl.StringSliceVar(&opts.Status, "status", nil, "only these statuses (`status`, repeat or comma-separate): "+joinComma(api.TransactionStatuses()))
	fl.StringSliceVar(&opts.Type, "type", nil, "only these types (`type`, repeat or comma-separate), e.g. SepaCreditTransferIn, CardOutDebit, FeesOut")
	fl.StringVar(&opts.Since, "since", "", "executed on or after this `date` (YYYY-MM-DD or RFC 3339)")
	fl.StringVar(&opts.Until, "until", "", "executed before this `date` (YYYY-MM-DD or RFC 3339)")
	fl.StringVar(&opts.Min, "min", "", "amount at least this `amount` (e.g. 100.00), credit or debit")
	fl.StringVar(&opts.Max, "max", "", "amount at most this `amount`, credit or debit")
	fl.StringVar(&opts.Search, "search", "", "server-side search in label, reference and counterparty (`text`)")
	completeChoices(cmd, "status", api.TransactionStatuses())
	completeChoices(cmd, "type", api.TransactionTypes())
	_ = cmd.RegisterFlagCompletionFunc("account", f.completeAccountIDs)
	return f.withSession(cmd, true)
}

// params turns the flags into the API's parameters, refusing bad values as
// usage errors before anything is sent.
func (o *TransactionsOptions) params() (api.TransactionsParams, error) {
	p := api.TransactionsParams{First: o.First, AccountID: o.AccountID, Status: o.Status, Type: o.Type, Search: o.Search}
	if _, err := o.Output.format(); err != nil {
		return p, err
	}
	if err := checkChoices("--status", o.Status, api.TransactionStatuses()); err != nil {
		return p, err
	}
	if err := checkChoices("--type", o.Type, api.TransactionTypes()); err != nil {
		return p, err
	}
	var err error
	if p.IsAfterExecutionDate, err = parseDate("--since", o.Since); err != nil {
		return p, err
	}
	if p.IsBeforeExecutionDate, err = parseDate("--until", o.Until); err != nil {
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

func transactionColumns() []column[api.TransactionDetail] {
	return []column[api.TransactionDetail]{
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
}

func runTransactions(ctx context.Context, opts *TransactionsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p, _ := opts.params()
	// An account's list, the project's (in parts when any order will do)
	// or, for a user token, every account's merged: api's choice.
	return listItems(ctx, opts.IO, opts.F, opts.Output, transactionColumns(), read(e.API.ListTransactions(p), opts.Output))
}
