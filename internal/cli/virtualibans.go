package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// VirtualIbansOptions are `partnertui virtual-ibans`'s.
type VirtualIbansOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	AccountID string
	Status    []string
}

// NewCmdVirtualIbans lists an account's virtual IBANs.
func NewCmdVirtualIbans(f *Factory) *cobra.Command {
	opts := &VirtualIbansOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "virtual-ibans --account ID",
		Short: "List an account's virtual IBANs: IBAN, BIC, status, whether they take direct debits",
		Long: "Lists the virtual IBANs of one account (--account): other IBANs that receive transfers into it.\n" +
			"SDD reads whether SEPA direct debits are taken (allowed) or refused (blocked).",
		Example: "  partnertui virtual-ibans --account 3f2a…\n  partnertui virtual-ibans --account 3f2a… --status Enabled --json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := needAccount(opts.AccountID, "virtual-ibans"); err != nil {
				return err
			}
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			if err := foldChoices("--status", "virtual IBAN status", opts.Status, api.VirtualIbanStatuses()); err != nil {
				return err
			}
			return runVirtualIbans(cmd.Context(), opts)
		},
	}
	registerList[api.VirtualIban](&opts.Output, cmd, "virtual IBANs")
	accountFlag(f, cmd, &opts.AccountID, "the account whose virtual IBANs to list (`id`; required)")
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.VirtualIbanStatuses())
	return f.withSession(cmd, true)
}

// needAccount refuses a list that belongs to one account without one.
func needAccount(id, cmd string) error {
	if id == "" {
		return usageErrorf("%s needs --account ID: run `partnertui accounts` to find one", cmd)
	}
	return nil
}

func sddText(v *api.VirtualIban) string {
	if v.BlockSDD {
		return "blocked"
	}
	return "allowed"
}

func virtualIbanColumns() []column[api.VirtualIban] {
	return []column[api.VirtualIban]{
		{title: "IBAN", cell: func(v *api.VirtualIban) string { return v.IBAN }},
		{title: "BIC", cell: func(v *api.VirtualIban) string { return v.BIC }},
		{title: "LABEL", max: 28, cell: func(v *api.VirtualIban) string { return v.Label }},
		{title: "STATUS", cell: func(v *api.VirtualIban) string { return v.Status }},
		{title: "SDD", cell: sddText},
		{title: "ID", cell: func(v *api.VirtualIban) string { return v.ID }},
	}
}

func runVirtualIbans(ctx context.Context, opts *VirtualIbansOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p := api.VirtualIbansParams{First: opts.Output.First, AccountID: opts.AccountID, Statuses: opts.Status}
	return listItems(ctx, opts.IO, opts.F, opts.Output, virtualIbanColumns(), read(e.API.ListVirtualIbans(p), opts.Output))
}
