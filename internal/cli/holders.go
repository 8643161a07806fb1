package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// HoldersOptions are `partnertui account-holders`'s.
type HoldersOptions struct {
	IO           IO
	F            *Factory
	Output       listFlags
	Type         []string
	Verification []string
	Status       []string
	Search       string
}

// NewCmdHolders lists account holders.
func NewCmdHolders(f *Factory) *cobra.Command {
	opts := &HoldersOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "account-holders",
		Short: "List account holders: name, type, verification status and why, status",
		Long: "Lists the account holders the token sees, the newest first: a project token every holder of the\n" +
			"project, a user token those of the user's accounts. WHY says what a holder waiting for information\n" +
			"must still provide, or why it was refused.",
		Example: "  partnertui account-holders\n  partnertui account-holders --verification WaitingForInformation,Refused --json\n" +
			"  partnertui account-holders --project --type Company --all --jsonl",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			for _, c := range []struct {
				flag, what     string
				values, choice []string
			}{{"--type", "account holder type", opts.Type, api.HolderTypes()}, {"--verification", "verification status", opts.Verification, api.VerificationStatuses()}, {"--status", "account holder status", opts.Status, api.HolderStatuses()}} {
				if err := foldChoices(c.flag, c.what, c.values, c.choice); err != nil {
					return err
				}
			}
			return runHolders(cmd.Context(), opts)
		},
	}
	registerList[api.AccountHolder](&opts.Output, cmd, "account holders")
	fl := cmd.Flags()
	choicesFlag(cmd, &opts.Type, "type", "only these types", "type", api.HolderTypes())
	choicesFlag(cmd, &opts.Verification, "verification", "only these verification statuses", "status", api.VerificationStatuses())
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.HolderStatuses())
	fl.StringVar(&opts.Search, "search", "", "search the holders (`text`)")
	return f.withSession(cmd, true)
}

// verificationWhy is what a holder still lacks, or why it was refused.
func verificationWhy(h *api.AccountHolder) string {
	v := &h.VerificationStatusInfo
	if len(v.Requirements) > 0 {
		return strings.Join(v.Requirements, ", ")
	}
	return v.Reason
}

func holderColumns() []column[api.AccountHolder] {
	return []column[api.AccountHolder]{
		{title: "NAME", max: 28, cell: func(h *api.AccountHolder) string { return h.Info.Name }},
		{title: "TYPE", cell: func(h *api.AccountHolder) string { return h.Info.Type }},
		{title: "VERIFICATION", cell: func(h *api.AccountHolder) string { return h.VerificationStatusInfo.Status }},
		{title: "WHY", max: 40, cell: verificationWhy},
		{title: "STATUS", cell: func(h *api.AccountHolder) string {
			if h.StatusInfo == nil {
				return ""
			}
			return h.StatusInfo.Status
		}},
		{title: "CREATED", cell: func(h *api.AccountHolder) string { return day(h.CreatedAt) }},
		{title: "ID", cell: func(h *api.AccountHolder) string { return h.ID }},
	}
}

func runHolders(ctx context.Context, opts *HoldersOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p := api.AccountHoldersParams{First: opts.Output.First, Types: opts.Type, VerificationStatuses: opts.Verification,
		Statuses: opts.Status, Search: opts.Search, OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return listItems(ctx, opts.IO, opts.F, opts.Output, holderColumns(), read(e.API.ListAccountHolders(p), opts.Output))
}
