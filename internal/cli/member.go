package cli

import (
	"context"
	"io"
	"reflect"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// MemberOptions are `partnertui member`'s.
type MemberOptions struct {
	IO   IO
	F    *Factory
	ID   string
	JSON jsonFlags
}

// NewCmdMember shows one account membership, as the app's `:member ID`
// does.
func NewCmdMember(f *Factory) *cobra.Command {
	opts := &MemberOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "member ID",
		Short: "Show one account membership: who, status and its reason, the five rights, the account",
		Long: "Shows an account membership (members lists an account's). RIGHTS reads V B P M C for the five\n" +
			"rights: view the account, manage beneficiaries, initiate payments, manage memberships, manage\n" +
			"cards (· when missing).",
		Example: "  partnertui member 5d0e…\n  partnertui member 5d0e… --jq .statusInfo.status",
		Args:    exactlyOne("member", "membership ID", "members ACCOUNT_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return runMember(cmd.Context(), opts)
		},
	}
	opts.JSON.register(cmd, reflect.TypeFor[api.AccountMembership](), "print one JSON object on stdout")
	return f.withSession(cmd, true)
}

func runMember(ctx context.Context, opts *MemberOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	m, err := e.API.AccountMembership(ctx, opts.ID)
	if err != nil {
		return err
	}
	return opts.F.writeItem(ctx, opts.JSON, m, func(w io.Writer) error { return writeMemberDetail(w, m) })
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
