package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// StatementsOptions are `partnertui statements`'s.
type StatementsOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	AccountID string
}

// NewCmdStatements lists an account's statements.
func NewCmdStatements(f *Factory) *cobra.Command {
	opts := &StatementsOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:               "statements ACCOUNT_ID",
		Short:             "List an account's statements: period, opening and closing balances, totals",
		Example:           "  partnertui statements 3f2a…\n  partnertui statements 3f2a… --all --json",
		Args:              exactlyOne("statements", "account ID", "accounts"),
		ValidArgsFunction: f.completeAccountIDs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.AccountID = args[0]
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			return runStatements(cmd.Context(), opts)
		},
	}
	registerList[api.Statement](&opts.Output, cmd, "statements")
	return f.withSession(cmd, true)
}

func statementColumns() []column[api.Statement] {
	return []column[api.Statement]{
		{title: "FROM", cell: func(s *api.Statement) string { return day(s.OpeningDate) }},
		{title: "TO", cell: func(s *api.Statement) string { return day(s.ClosingDate) }},
		{title: "OPENING", right: true, cell: func(s *api.Statement) string { return amountText(s.OpeningBalance) }},
		{title: "CREDITS", right: true, cell: func(s *api.Statement) string { return amountText(s.TotalCredits) }},
		{title: "DEBITS", right: true, cell: func(s *api.Statement) string { return amountText(s.TotalDebits) }},
		{title: "CLOSING", right: true, cell: func(s *api.Statement) string { return amountText(s.ClosingBalance) }},
		{title: "STATUS", cell: func(s *api.Statement) string { return s.StatusInfo.Status }},
		{title: "PERIOD", cell: func(s *api.Statement) string { return s.Period }},
		{title: "ID", cell: func(s *api.Statement) string { return s.ID }},
	}
}

func runStatements(ctx context.Context, opts *StatementsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p := api.StatementsParams{First: opts.Output.First, AccountID: opts.AccountID}
	return listItems(ctx, opts.IO, opts.F, opts.Output, statementColumns(), read(e.API.ListStatements(p), opts.Output))
}
