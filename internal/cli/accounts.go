package cli

import (
	"context"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
)

// AccountsOptions are `partnertui accounts`'s.
type AccountsOptions struct {
	IO     IO
	F      *Factory
	Output listFlags
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
			"a project token (--project) every account of the project. A table for people; --json writes one\n" +
			"JSON array and --jsonl one object per line, each page as soon as it arrives.",
		Example: "  partnertui accounts\n  partnertui accounts --search Dupont --first 20\n" +
			"  partnertui accounts --project --all --json > accounts.json\n  partnertui accounts --all --jsonl | jq -r .IBAN",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.First < 1 || opts.First > platform.PageMax {
				return usageErrorf("--first must be between 1 and %d (the API's page maximum), not %d", platform.PageMax, opts.First)
			}
			if _, err := opts.Output.format(); err != nil {
				return err
			}
			return pick(runF, runAccounts)(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	opts.Output.register(cmd, "accounts")
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
	format, _ := opts.Output.format()
	params := api.AccountsParams{First: opts.First, Search: opts.Search}
	r := &listRun[api.Account]{io: opts.IO, format: format, noun: "accounts", cols: accountColumns(), screenful: screenful(opts.IO)}
	return r.run(ctx, walkPages(e.API.AccountList, params, opts.All), opts.F.progressLine())
}

// register adds --json and --jsonl for a list of noun.
func (l *listFlags) register(cmd *cobra.Command, noun string) {
	cmd.Flags().BoolVar(&l.JSON, "json", false, "print one JSON array of "+noun+" on stdout")
	cmd.Flags().BoolVar(&l.JSONL, "jsonl", false, "print one JSON object per line (for pipelines)")
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
