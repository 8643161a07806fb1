package cli

import (
	"context"
	"io"
	"reflect"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// AccountOptions are `partnertui account`'s.
type AccountOptions struct {
	IO   IO
	F    *Factory
	ID   string
	JSON jsonFlags
}

// NewCmdAccount shows one account.
func NewCmdAccount(f *Factory) *cobra.Command {
	opts := &AccountOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:               "account ID",
		Short:             "Show one account in full",
		Example:           "  partnertui account 3f2a…\n  partnertui account 3f2a… --json",
		Args:              exactlyOne("account", "account ID", "accounts"),
		ValidArgsFunction: f.completeAccountIDs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return runAccount(cmd.Context(), opts)
		},
	}
	opts.JSON.register(cmd, reflect.TypeFor[api.AccountDetail](), "print one JSON object on stdout")
	return f.withSession(cmd, true)
}

func runAccount(ctx context.Context, opts *AccountOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	a, err := e.API.AccountDetail(ctx, opts.ID, e.Project)
	if err != nil {
		return err
	}
	return opts.F.writeItem(ctx, opts.JSON, a, func(w io.Writer) error { return writeAccountDetail(w, a) })
}

// completionTimeout bounds the API call behind a shell completion: a Tab
// press must never hang.
const completionTimeout = 3 * time.Second

// completeAccountIDs completes account ids from the first page of accounts
// matching what is typed, with the account's name as the description. It
// only uses a session that already exists: a Tab press never signs in.
func (f *Factory) completeAccountIDs(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), completionTimeout)
	defer cancel()
	if err := f.loadApp(ctx, cmd); err != nil || f.Session.Demo {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	e, err := f.selected()
	if err != nil || (!e.Project && !e.Session.SignedIn()) {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	page, err := e.API.Accounts(ctx, api.AccountsParams{Search: toComplete})
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	out := make([]string, 0, len(page.Items))
	for _, a := range page.Items {
		out = append(out, a.ID+"\t"+a.Name)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
