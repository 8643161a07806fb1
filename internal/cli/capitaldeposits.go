package cli

import (
	"context"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// CapitalDepositsOptions are `partnertui capital-deposits`'s.
type CapitalDepositsOptions struct {
	IO     IO
	F      *Factory
	Output listFlags
	Status []string
	Search string
}

// NewCmdCapitalDeposits lists the project's capital deposit cases.
func NewCmdCapitalDeposits(f *Factory) *cobra.Command {
	opts := &CapitalDepositsOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "capital-deposits",
		Short: "List capital deposit cases: company, amount, status, shareholders and documents",
		Long: "Lists the project's capital deposit cases, the newest first (read with the project's token,\n" +
			"whatever the session's). DOCUMENTS counts them by status; --json has each document, its review\n" +
			"and where to download it.",
		Example: "  partnertui capital-deposits\n  partnertui capital-deposits --status WaitingForRegisterExtract --json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			if err := foldChoices("--status", "capital deposit case status", opts.Status, api.CapitalDepositStatuses()); err != nil {
				return err
			}
			return runCapitalDeposits(cmd.Context(), opts)
		},
	}
	registerList[api.CapitalDeposit](&opts.Output, cmd, "capital deposit cases")
	fl := cmd.Flags()
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.CapitalDepositStatuses())
	fl.StringVar(&opts.Search, "search", "", "search the cases (`text`)")
	return f.withSession(cmd, true)
}

// documentCounts counts a case's documents by status, in the order of
// their review: "2 Validated, 1 Refused".
func documentCounts(d *api.CapitalDeposit) string {
	n := map[string]int{}
	for _, doc := range d.Documents {
		n[doc.Status]++
	}
	var parts []string
	for _, s := range []string{"Validated", "Uploaded", "Pending", "Refused"} {
		if n[s] > 0 {
			parts = append(parts, strconv.Itoa(n[s])+" "+s)
		}
	}
	return joinComma(parts)
}

func capitalDepositColumns() []column[api.CapitalDeposit] {
	return []column[api.CapitalDeposit]{
		{title: "COMPANY", max: 28, cell: func(d *api.CapitalDeposit) string { return d.CompanyName }},
		{title: "AMOUNT", right: true, cell: func(d *api.CapitalDeposit) string { return amountText(d.Amount) }},
		{title: "STATUS", cell: func(d *api.CapitalDeposit) string { return d.Status }},
		{title: "SHAREHOLDERS", right: true, cell: func(d *api.CapitalDeposit) string { return strconv.Itoa(len(d.Shareholders)) }},
		{title: "DOCUMENTS", cell: documentCounts},
		{title: "ID", cell: func(d *api.CapitalDeposit) string { return d.ID }},
	}
}

func runCapitalDeposits(ctx context.Context, opts *CapitalDepositsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	// The platform lists capital deposit cases to a project token only.
	p := api.CapitalDepositsParams{First: opts.Output.First, Statuses: opts.Status, Search: opts.Search,
		OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return listItems(ctx, opts.IO, opts.F, opts.Output, capitalDepositColumns(), read(e.ProjectAPI.ListCapitalDeposits(p), opts.Output))
}
