package cli

import (
	"context"
	"io"

	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/app"
)

// NewCmdCard shows one card, as the app's `:card ID` does.
func NewCmdCard(f *Factory) *cobra.Command {
	return newCmdItem(f, itemCommand[api.Card]{
		use:     "card ID",
		short:   "Show one card: masked number, holder, status and its reason, expiry, options, limits",
		example: "  partnertui card 8b6fa8fb-…\n  partnertui card 8b6fa8fb-… --json id,statusInfo",
		args:    exactlyOne("card", "card ID", "cards"),
		read: func(ctx context.Context, e *app.Env, id string) (*api.Card, error) {
			return e.API.Card(ctx, id)
		},
		lines: writeCardDetail,
	})
}

// writeCardDetail writes a card as aligned lines.
func writeCardDetail(w io.Writer, c *api.Card) error {
	status := c.StatusInfo.Status
	if c.StatusInfo.Reason != "" {
		status += ": " + c.StatusInfo.Reason
	}
	if cs := c.StatusInfo.Consent; cs != nil && cs.ConsentURL != "" {
		status += " (consent at " + cs.ConsentURL + ")"
	}
	lines := [][2]string{
		{"ID", c.ID},
		{"Name", c.Name},
		{"Number", c.CardMaskedNumber},
		{"Type", c.Type},
		{"Status", status},
		{"Holder", cardHolder(c)},
	}
	if m := c.AccountMembership; m != nil {
		lines = append(lines, [2]string{"Email", m.Email}, [2]string{"Membership", m.ID}, [2]string{"Account", m.AccountID})
	}
	var limits []string
	for _, l := range c.SpendingLimits {
		limits = append(limits, amountText(l.Amount)+" "+strings.ToLower(l.Period)+" ("+l.Type+")")
	}
	lines = append(lines,
		[2]string{"Expiry", c.ExpiryDate},
		[2]string{"Options", cardOptions(c) + "  (W withdrawal, I international, E e-commerce)"},
		[2]string{"Limits", strings.Join(limits, ", ")},
		[2]string{"Created", stamp(c.CreatedAt)},
		[2]string{"Updated", stamp(c.UpdatedAt)},
	)
	return writeAll(w, []byte(detailLines(lines)))
}
