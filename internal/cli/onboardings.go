package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// OnboardingsOptions are `partnertui onboardings`'s.
type OnboardingsOptions struct {
	IO     IO
	F      *Factory
	Output listFlags
	Status []string
	Type   []string
}

// NewCmdOnboardings lists the project's account holder onboardings.
func NewCmdOnboardings(f *Factory) *cobra.Command {
	opts := &OnboardingsOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "onboardings",
		Short: "List onboardings: status, what is still missing, the onboarding page",
		Long: "Lists the project's account holder onboardings, the newest first (read with the project's token,\n" +
			"whatever the session's). MISSING names the fields an Invalid onboarding lacks or has wrong, and\n" +
			"the supporting documents its collection still needs; URL is the page the future holder fills in.",
		Example: "  partnertui onboardings\n  partnertui onboardings --status Invalid --json | jq '.[].errors'",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			if err := foldChoices("--status", "onboarding status", opts.Status, api.OnboardingStatuses()); err != nil {
				return err
			}
			if err := foldChoices("--type", "onboarding type", opts.Type, api.HolderTypes()); err != nil {
				return err
			}
			return runOnboardings(cmd.Context(), opts)
		},
	}
	registerList[api.Onboarding](&opts.Output, cmd, "onboardings")
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.OnboardingStatuses())
	choicesFlag(cmd, &opts.Type, "type", "only onboardings of these holders", "type", api.HolderTypes())
	return f.withSession(cmd, true)
}

// onboardingMissing names the fields at fault and the documents lacking.
func onboardingMissing(o *api.Onboarding) string {
	var out []string
	for _, e := range o.Errors {
		out = append(out, e.Field)
	}
	if d := o.Documents; d != nil {
		out = append(out, d.Missing()...)
	}
	return strings.Join(out, ", ")
}

// onboardingName is whom an onboarding opens an account for.
func onboardingName(o *api.Onboarding) string {
	if o.CompanyName != "" {
		return o.CompanyName
	}
	if a := o.AccountAdmin; a != nil {
		if n := joinNonEmpty(" ", a.FirstName, a.LastName); n != "" {
			return n
		}
		return a.Email
	}
	return o.AccountName
}

func onboardingColumns() []column[api.Onboarding] {
	return []column[api.Onboarding]{
		{title: "NAME", max: 28, cell: onboardingName},
		{title: "TYPE", cell: func(o *api.Onboarding) string { return o.HolderType() }},
		{title: "STATUS", cell: func(o *api.Onboarding) string { return o.Status }},
		{title: "MISSING", max: 40, cell: onboardingMissing},
		{title: "URL", cell: func(o *api.Onboarding) string { return o.OnboardingURL }},
		{title: "ID", cell: func(o *api.Onboarding) string { return o.ID }},
	}
}

func runOnboardings(ctx context.Context, opts *OnboardingsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	// The platform lists onboardings to a project token only.
	p := api.OnboardingsParams{First: opts.Output.First, Statuses: opts.Status, Types: opts.Type,
		OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return listItems(ctx, opts.IO, opts.F, opts.Output, onboardingColumns(), read(e.ProjectAPI.ListOnboardings(p), opts.Output))
}
