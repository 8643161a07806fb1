package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// CardsOptions are `partnertui cards`'s.
type CardsOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	AccountID string
	Status    []string
}

// NewCmdCards lists cards.
func NewCmdCards(f *Factory) *cobra.Command {
	opts := &CardsOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "cards",
		Short: "List cards: masked number, holder, type, status, expiry and options",
		Long: "Lists the cards the token can see, or one account's (--account). OPTIONS reads W I E for\n" +
			"withdrawal, international and e-commerce (· when off).",
		Example: "  partnertui cards\n  partnertui cards --account 3f2a… --status Enabled\n  partnertui cards --project --all --jsonl",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			if err := foldChoices("--status", "card status", opts.Status, api.CardStatuses()); err != nil {
				return err
			}
			return runCards(cmd.Context(), opts)
		},
	}
	registerList[api.Card](&opts.Output, cmd, "cards")
	accountFlag(f, cmd, &opts.AccountID, "only this account's cards (`id`)")
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.CardStatuses())
	return f.withSession(cmd, true)
}

// cardOptions writes the three options as "W I E", a dot for each off.
func cardOptions(c *api.Card) string { return marks("WIE", c.Withdrawal, c.International, c.ECommerce) }

func cardHolder(c *api.Card) string {
	if m := c.AccountMembership; m != nil {
		if m.User != nil && m.User.FullName != "" {
			return m.User.FullName
		}
		return m.Email
	}
	return ""
}

func cardColumns() []column[api.Card] {
	return []column[api.Card]{
		{title: "NUMBER", cell: func(c *api.Card) string { return c.CardMaskedNumber }},
		{title: "NAME", max: 24, cell: func(c *api.Card) string { return c.Name }},
		{title: "HOLDER", max: 28, cell: cardHolder},
		{title: "TYPE", cell: func(c *api.Card) string { return c.Type }},
		{title: "STATUS", cell: func(c *api.Card) string { return c.StatusInfo.Status }},
		{title: "EXPIRY", cell: func(c *api.Card) string { return c.ExpiryDate }},
		{title: "OPTIONS", cell: cardOptions},
		{title: "ID", cell: func(c *api.Card) string { return c.ID }},
	}
}

func runCards(ctx context.Context, opts *CardsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p := api.CardsParams{First: opts.Output.First, AccountID: opts.AccountID, Statuses: opts.Status}
	return listItems(ctx, opts.IO, opts.F, opts.Output, cardColumns(), read(e.API.ListCards(p), opts.Output))
}
