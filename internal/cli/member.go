package cli

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/app"
)

// NewCmdMember shows one account membership, as the app's `:member ID`
// does.
func NewCmdMember(f *Factory) *cobra.Command {
	return newCmdItem(f, itemCommand[api.AccountMembership]{
		use:   "member ID",
		short: "Show one account membership: who, status and its reason, the five rights, the account",
		long: "Shows an account membership (members lists an account's). RIGHTS reads V B P M C for the five\n" +
			"rights: view the account, manage beneficiaries, initiate payments, manage memberships, manage\n" +
			"cards (· when missing).",
		example: "  partnertui member 5d0e…\n  partnertui member 5d0e… --jq .statusInfo.status",
		args:    exactlyOne("member", "membership ID", "members ACCOUNT_ID"),
		read: func(ctx context.Context, e *app.Env, id string) (*api.AccountMembership, error) {
			return e.API.AccountMembership(ctx, id)
		},
		lines: writeMemberDetail,
	})
}

// writeMemberDetail writes a membership as aligned lines.
func writeMemberDetail(w io.Writer, m *api.AccountMembership) error {
	status := m.StatusInfo.Status
	if m.StatusInfo.Reason != "" {
		status += ": " + m.StatusInfo.Reason
	}
	if cs := m.StatusInfo.Consent; cs != nil && cs.ConsentURL != "" {
		status += " (consent at " + cs.ConsentURL + ")"
	}
	account := m.AccountID
	if a := m.Account; a != nil && a.Name != "" {
		account = a.Name + " (" + a.ID + ")"
	}
	user := ""
	if u := m.User; u != nil {
		user = u.ID
	}
	lines := [][2]string{
		{"ID", m.ID},
		{"Name", memberName(m)},
		{"Email", m.Email},
		{"Status", status},
		{"Rights", rightsGrid(m) + "  (V view, B beneficiaries, P payments, M members, C cards)"},
		{"Legal rep", yesNo(m.LegalRepresentative)},
		{"Account", account},
		{"User", user},
		{"Created", stamp(m.CreatedAt)},
		{"Updated", stamp(m.UpdatedAt)},
		{"Disabled", stamp(m.DisabledAt)},
	}
	return writeAll(w, []byte(detailLines(lines)))
}
