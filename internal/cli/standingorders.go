package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// StandingOrdersOptions are `partnertui standing-orders`'s.
type StandingOrdersOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	AccountID string
	Status    []string
}

// NewCmdStandingOrders lists an account's standing orders.
func NewCmdStandingOrders(f *Factory) *cobra.Command {
	opts := &StandingOrdersOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "standing-orders --account ID",
		Short: "List an account's standing orders: amount, period, next execution, beneficiary, status",
		Long: "Lists the standing orders of one account (--account), the newest first: each a transfer the\n" +
			"platform makes every period, of a fixed amount or of what tops the balance up to a target.\n" +
			"What will leave the account otherwise is its upcoming transactions:\n" +
			"partnertui transactions --account ID --status Upcoming.",
		Example: "  partnertui standing-orders --account 3f2a…\n  partnertui standing-orders --account 3f2a… --status Enabled --jsonl",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := needAccount(opts.AccountID, "standing-orders"); err != nil {
				return err
			}
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			if err := foldChoices("--status", "standing order status", opts.Status, api.StandingOrderStatuses()); err != nil {
				return err
			}
			return runStandingOrders(cmd.Context(), opts)
		},
	}
	registerList[api.StandingOrder](&opts.Output, cmd, "standing orders")
	accountFlag(f, cmd, &opts.AccountID, "the account whose standing orders to list (`id`; required)")
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.StandingOrderStatuses())
	return f.withSession(cmd, true)
}

// standingOrderAmount is what each execution sends, or the balance it
// tops the account up to.
func standingOrderAmount(o *api.StandingOrder) string {
	switch {
	case o.Amount != nil:
		return amountText(*o.Amount)
	case o.TargetAvailableBalance != nil:
		return "up to " + amountText(*o.TargetAvailableBalance)
	}
	return ""
}

func standingOrderColumns() []column[api.StandingOrder] {
	return []column[api.StandingOrder]{
		{title: "LABEL", max: 24, cell: func(o *api.StandingOrder) string { return o.Label }},
		{title: "AMOUNT", right: true, cell: standingOrderAmount},
		{title: "PERIOD", cell: func(o *api.StandingOrder) string { return o.Period }},
		{title: "NEXT", cell: func(o *api.StandingOrder) string { return day(o.NextExecutionDate) }},
		{title: "BENEFICIARY", max: 28, cell: func(o *api.StandingOrder) string { return o.SepaBeneficiary.Name }},
		{title: "STATUS", cell: func(o *api.StandingOrder) string { return o.StatusInfo.Status }},
		{title: "ID", cell: func(o *api.StandingOrder) string { return o.ID }},
	}
}

func runStandingOrders(ctx context.Context, opts *StandingOrdersOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p := api.StandingOrdersParams{First: opts.Output.First, AccountID: opts.AccountID, Statuses: opts.Status,
		OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return listItems(ctx, opts.IO, opts.F, opts.Output, standingOrderColumns(), read(e.API.ListStandingOrders(p), opts.Output))
}
