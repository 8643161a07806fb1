package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// MembersOptions are `partnertui members`'s.
type MembersOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	AccountID string
}

// NewCmdMembers lists who can access an account, with which rights.
func NewCmdMembers(f *Factory) *cobra.Command {
	opts := &MembersOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "members ACCOUNT_ID",
		Short: "List an account's members: user, email, status and rights",
		Long: "Lists the account's memberships. RIGHTS reads V B P M C for the five rights: view the account,\n" +
			"manage beneficiaries, initiate payments, manage memberships, manage cards (· when missing).",
		Example:           "  partnertui members 3f2a…\n  partnertui members 3f2a… --all --json",
		Args:              exactlyOne("members", "account ID", "accounts"),
		ValidArgsFunction: f.completeAccountIDs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.AccountID = args[0]
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			return runMembers(cmd.Context(), opts)
		},
	}
	registerList[api.AccountMembership](&opts.Output, cmd, "memberships")
	return f.withSession(cmd, true)
}

// rightsGrid writes the five rights as "V B P M C", a dot for each missing.
func rightsGrid(m *api.AccountMembership) string {
	return marks("VBPMC", m.CanViewAccount, m.CanManageBeneficiaries, m.CanInitiatePayments, m.CanManageAccountMembership, m.CanManageCards)
}

// memberName is who holds the membership: the bound user, else whom the
// invitation is for.
func memberName(m *api.AccountMembership) string {
	if m.User != nil {
		if m.User.FullName != "" {
			return m.User.FullName
		}
		return strings.TrimSpace(m.User.FirstName + " " + m.User.LastName)
	}
	if r := m.StatusInfo.RestrictedTo; r != nil {
		return strings.TrimSpace(r.FirstName + " " + r.LastName)
	}
	return ""
}

func memberColumns() []column[api.AccountMembership] {
	return []column[api.AccountMembership]{
		{title: "NAME", max: 28, cell: memberName},
		{title: "EMAIL", max: 32, cell: func(m *api.AccountMembership) string { return m.Email }},
		{title: "STATUS", cell: func(m *api.AccountMembership) string { return m.StatusInfo.Status }},
		{title: "RIGHTS", cell: rightsGrid},
		{title: "LEGAL REP", cell: func(m *api.AccountMembership) string { return yesNo(m.LegalRepresentative) }},
		{title: "ID", cell: func(m *api.AccountMembership) string { return m.ID }},
	}
}

func runMembers(ctx context.Context, opts *MembersOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p := api.MembershipsParams{First: opts.Output.First, AccountID: opts.AccountID}
	return listItems(ctx, opts.IO, opts.F, opts.Output, memberColumns(), read(e.API.ListMemberships(p), opts.Output))
}
