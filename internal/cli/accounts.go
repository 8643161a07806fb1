package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
)

// AccountsOptions are `partnertui accounts`'s.
type AccountsOptions struct {
	IO     IO
	F      *Factory
	JSON   bool
	All    bool
	First  int
	Search string
}

// NewCmdAccounts lists accounts.
func NewCmdAccounts(f *Factory, runF func(context.Context, *AccountsOptions) error) *cobra.Command {
	opts := &AccountsOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "accounts",
		Short: "List accounts (one page, or --all)",
		Long: "Lists the accounts the token can see: a user token sees the accounts the user is a member of,\n" +
			"a project token (--project) every account of the project. A table on a terminal, JSON with --json.",
		Example: "  partnertui accounts\n  partnertui accounts --search Dupont --first 20\n  partnertui accounts --project --all --json > accounts.json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.First < 1 || opts.First > platform.PageMax {
				return usageErrorf("--first must be between 1 and %d (the API's page maximum), not %d", platform.PageMax, opts.First)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runAccounts(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.JSON, "json", false, "print one JSON array of accounts on stdout")
	fl.BoolVar(&opts.All, "all", false, "walk every page of the list")
	fl.IntVar(&opts.First, "first", platform.PageMax, "accounts per page, `N` from 1 to 100")
	fl.StringVar(&opts.Search, "search", "", "server-side search in holder, account name, number and id (`text`)")
	return f.withSession(cmd, true)
}

func runAccounts(ctx context.Context, opts *AccountsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	params := api.AccountsParams{First: opts.First, Search: opts.Search}
	var accounts []api.Account
	if opts.All {
		if accounts, err = e.API.AllAccounts(ctx, params); err != nil {
			return err
		}
	} else {
		page, err := e.API.Accounts(ctx, params)
		if err != nil {
			return err
		}
		accounts = page.Accounts
	}
	if opts.JSON {
		return WriteAccountsJSON(opts.IO.Out, accounts)
	}
	return WriteAccountsTable(opts.IO.Out, accounts)
}
