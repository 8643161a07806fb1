package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
)

// MerchantProfilesOptions are `partnertui merchant-profiles`'s.
type MerchantProfilesOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	AccountID string
	Status    []string
}

// NewCmdMerchantProfiles lists merchant profiles.
func NewCmdMerchantProfiles(f *Factory) *cobra.Command {
	opts := &MerchantProfilesOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "merchant-profiles",
		Short: "List merchant profiles: name, status, product, payment methods and theirs",
		Long: "Lists the merchant profiles the token sees, or one account's (--account), the newest first.\n" +
			"METHODS reads each payment method with its status; payment-links lists a profile's links.",
		Example: "  partnertui merchant-profiles\n  partnertui merchant-profiles --account 3f2a… --status Enabled --json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			if err := foldChoices("--status", "merchant profile status", opts.Status, api.MerchantProfileStatuses()); err != nil {
				return err
			}
			return runMerchantProfiles(cmd.Context(), opts)
		},
	}
	registerList[api.MerchantProfile](&opts.Output, cmd, "merchant profiles")
	accountFlag(f, cmd, &opts.AccountID, "only this account's merchant profiles (`id`)")
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.MerchantProfileStatuses())
	return f.withSession(cmd, true)
}

// paymentMethods reads "Card Enabled, SepaDirectDebitCore PendingReview".
func paymentMethods(p *api.MerchantProfile) string {
	parts := make([]string, len(p.PaymentMethods))
	for i, m := range p.PaymentMethods {
		parts[i] = m.Type + " " + m.Status
	}
	return strings.Join(parts, ", ")
}

func merchantProfileColumns() []column[api.MerchantProfile] {
	return []column[api.MerchantProfile]{
		{title: "MERCHANT", max: 28, cell: func(p *api.MerchantProfile) string { return p.MerchantName }},
		{title: "STATUS", cell: func(p *api.MerchantProfile) string { return p.Status }},
		{title: "PRODUCT", cell: func(p *api.MerchantProfile) string { return p.ProductType }},
		{title: "METHODS", max: 60, cell: paymentMethods},
		{title: "ACCOUNT", cell: func(p *api.MerchantProfile) string { return p.AccountID }},
		{title: "ID", cell: func(p *api.MerchantProfile) string { return p.ID }},
	}
}

func runMerchantProfiles(ctx context.Context, opts *MerchantProfilesOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p := api.MerchantProfilesParams{First: opts.Output.First, AccountID: opts.AccountID, Statuses: opts.Status,
		OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return listItems(ctx, opts.IO, opts.F, opts.Output, merchantProfileColumns(), read(e.API.ListMerchantProfiles(p), opts.Output))
}

// PaymentLinksOptions are `partnertui payment-links`'s.
type PaymentLinksOptions struct {
	IO        IO
	F         *Factory
	Output    listFlags
	ProfileID string
	Status    []string
	First     int
}

// NewCmdPaymentLinks lists a merchant profile's payment links.
func NewCmdPaymentLinks(f *Factory) *cobra.Command {
	opts := &PaymentLinksOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "payment-links MERCHANT_PROFILE_ID",
		Short: "List a merchant profile's payment links: amount, status, when paid, the link",
		Long: "Lists the payment links of one merchant profile, the newest first. PAID is when a Completed\n" +
			"link was paid; an Active one can be paid until its expiry.",
		Example: "  partnertui payment-links 7c1d…\n  partnertui payment-links 7c1d… --status Completed --jsonl",
		Args:    exactlyOne("payment-links", "merchant profile ID", "merchant-profiles"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ProfileID = args[0]
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			if err := foldChoices("--status", "payment link status", opts.Status, api.PaymentLinkStatuses()); err != nil {
				return err
			}
			return runPaymentLinks(cmd.Context(), opts)
		},
	}
	registerList[api.PaymentLink](&opts.Output, cmd, "payment links")
	choicesFlag(cmd, &opts.Status, "status", "only these statuses", "status", api.PaymentLinkStatuses())
	return f.withSession(cmd, true)
}

func paymentLinkColumns() []column[api.PaymentLink] {
	return []column[api.PaymentLink]{
		{title: "LABEL", max: 24, cell: func(l *api.PaymentLink) string { return l.Label }},
		{title: "AMOUNT", right: true, cell: func(l *api.PaymentLink) string { return amountText(l.Amount) }},
		{title: "STATUS", cell: func(l *api.PaymentLink) string { return l.StatusInfo.Status }},
		{title: "PAID", cell: func(l *api.PaymentLink) string { return stamp(l.StatusInfo.CompletedAt) }},
		{title: "EXPIRES", cell: func(l *api.PaymentLink) string { return day(l.StatusInfo.ExpiresAt) }},
		{title: "URL", cell: func(l *api.PaymentLink) string { return l.URL }},
		{title: "ID", cell: func(l *api.PaymentLink) string { return l.ID }},
	}
}

func runPaymentLinks(ctx context.Context, opts *PaymentLinksOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p := api.PaymentLinksParams{First: opts.Output.First, MerchantProfileID: opts.ProfileID, Statuses: opts.Status,
		OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return listItems(ctx, opts.IO, opts.F, opts.Output, paymentLinkColumns(), read(e.API.ListPaymentLinks(p), opts.Output))
}
