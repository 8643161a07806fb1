package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// AccountsOptions are `partnertui accounts`'s.
type AccountsOptions struct {
	IO     IO
	F      *Factory
	Output listFlags
	Search string
}

// NewCmdAccounts lists accounts.
func NewCmdAccounts(f *Factory) *cobra.Command {
	opts := &AccountsOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "accounts",
		Short: "List accounts (one page, or --all)",
		Long: "Lists the accounts the token can see, newest first: a user token sees the accounts the user is\n" +
			"a member of, a project token (--project) every account of the project. The ID column is what\n" +
			"account, members and statements take. A table for people; --json writes one JSON array and\n" +
			"--jsonl one object per line, each page as soon as it arrives.",
		Example: "  partnertui accounts\n  partnertui accounts --search Dupont --first 20\n  partnertui accounts --search 'FR76 3000 6000 0112 3456 7890 189'\n  partnertui accounts --search '7890 189'\n" +
			"  partnertui accounts --project --all --json > accounts.json\n  partnertui accounts --all --jsonl | jq -r .IBAN",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			return runAccounts(cmd.Context(), opts)
		},
	}
	registerList[api.Account](&opts.Output, cmd, "accounts")
	opts.Output.registerOrdered(cmd)
	cmd.Flags().StringVar(&opts.Search, "search", "", "search holder, account name, number and id, or find an IBAN, spaced or compact, whole or its start or last digits (`text`)")
	return f.withSession(cmd, true)
}

// partName says which part of an IBAN a search is: its start or its last
// digits.
func partName(part string) string {
	if strings.Trim(part, "0123456789") == "" {
		return "last digits " + part
	}
	return "start " + part
}

func runAccounts(ctx context.Context, opts *AccountsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	// The app's order and meaning of search: newest first, an IBAN
	// (spaced or compact) found by IBAN.
	params := api.AccountsQuery(opts.Search)
	params.First = opts.Output.First
	if params.IBANPart != "" {
		// The platform matches a whole IBAN only: a part of one is
		// matched here on every account read, which takes a request per
		// 100 accounts; the progress line says how far it has read.
		progress := opts.F.progressLine()
		ctx = api.WithScanProgress(ctx, func(read, of int) {
			progress.set(fmt.Sprintf("matching the IBAN's %s on every account: %d of %d read", partName(params.IBANPart), read, of))
		})
	}
	return listItems(ctx, opts.IO, opts.F, opts.Output, accountColumns(), read(e.API.ListAccounts(params), opts.Output))
}
