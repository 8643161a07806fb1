package cli

import (
	"context"
	"io"
	"reflect"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// CardOptions are `partnertui card`'s.
type CardOptions struct {
	IO   IO
	F    *Factory
	ID   string
	JSON jsonFlags
}

// NewCmdCard shows one card, as the app's `:card ID` does.
func NewCmdCard(f *Factory) *cobra.Command {
	opts := &CardOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:     "card ID",
		Short:   "Show one card: masked number, holder, status and its reason, expiry, options, limits",
		Example: "  partnertui card 8b6fa8fb-…\n  partnertui card 8b6fa8fb-… --json id,statusInfo",
		Args:    exactlyOne("card", "card ID", "cards"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return runCard(cmd.Context(), opts)
		},
	}
	opts.JSON.register(cmd, reflect.TypeFor[api.Card](), "print one JSON object on stdout")
	return f.withSession(cmd, true)
}

func runCard(ctx context.Context, opts *CardOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	c, err := e.API.Card(ctx, opts.ID)
	if err != nil {
		return err
	}
	return opts.F.writeItem(ctx, opts.JSON, c, func(w io.Writer) error { return writeCardDetail(w, c) })
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
