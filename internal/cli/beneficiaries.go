package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// BeneficiariesOptions are `partnertui beneficiaries`'s.
type BeneficiariesOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	AccountID string
	Status    []string
	Type      []string
}

// NewCmdBeneficiaries lists an account's trusted beneficiaries.
func NewCmdBeneficiaries(f *Factory) *cobra.Command {
	opts := &BeneficiariesOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:     "beneficiaries --account ID",
		Short:   "List an account's trusted beneficiaries: label, name, type, IBAN or route, status",
		Long:    "Lists the trusted beneficiaries of one account (--account), by label: whom its members send transfers to.",
		Example: "  partnertui beneficiaries --account 3f2a…\n  partnertui beneficiaries --account 3f2a… --type Sepa --status Enabled --json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := needAccount(opts.AccountID, "beneficiaries"); err != nil {
				return err
			}
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			if err := foldChoices("--status", "beneficiary status", opts.Status, api.BeneficiaryStatuses()); err != nil {
				return err
			}
			if err := foldChoices("--type", "beneficiary type", opts.Type, api.BeneficiaryTypes()); err != nil {
				return err
			}
			return runBeneficiaries(cmd.Context(), opts)
		},
	}
	registerList[api.Beneficiary](&opts.Output, cmd, "beneficiaries")
	accountFlag(f, cmd, &opts.AccountID, "the account whose trusted beneficiaries to list (`id`; required)")
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.BeneficiaryStatuses())
	choicesFlag(cmd, &opts.Type, "type", "only these types", "type", api.BeneficiaryTypes())
	return f.withSession(cmd, true)
}

// beneficiaryAccount is where a beneficiary is paid: a SEPA one's IBAN,
// an international one's route and currency.
func beneficiaryAccount(b *api.Beneficiary) string {
	if b.IBAN != "" {
		return b.IBAN
	}
	return joinNonEmpty(" ", b.Route, b.Currency)
}

func beneficiaryColumns() []column[api.Beneficiary] {
	return []column[api.Beneficiary]{
		{title: "LABEL", max: 24, cell: func(b *api.Beneficiary) string { return b.Label }},
		{title: "NAME", max: 28, cell: func(b *api.Beneficiary) string { return b.Name }},
		{title: "TYPE", cell: func(b *api.Beneficiary) string { return b.Type }},
		{title: "IBAN/ROUTE", cell: beneficiaryAccount},
		{title: "STATUS", cell: func(b *api.Beneficiary) string { return b.StatusInfo.Status }},
		{title: "ID", cell: func(b *api.Beneficiary) string { return b.ID }},
	}
}

func runBeneficiaries(ctx context.Context, opts *BeneficiariesOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p := api.BeneficiariesParams{First: opts.Output.First, AccountID: opts.AccountID, Statuses: opts.Status, Types: opts.Type,
		OrderBy: "label", Direction: api.DirectionAsc}
	return listItems(ctx, opts.IO, opts.F, opts.Output, beneficiaryColumns(), read(e.API.ListBeneficiaries(p), opts.Output))
}
