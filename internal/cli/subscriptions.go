package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
)

// SubscriptionsOptions are `partnertui subscriptions`'s.
type SubscriptionsOptions struct {
	IO     IO
	F      *Factory
	Output listFlags
}

// NewCmdSubscriptions lists the project's webhook subscriptions; its
// remove subcommand deletes one (what `listen --create` leaves behind when
// it cannot remove its own).
func NewCmdSubscriptions(f *Factory) *cobra.Command {
	opts := &SubscriptionsOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:     "subscriptions",
		Short:   "List the project's webhook subscriptions: id, status, label, endpoint, event types",
		Long:    "Lists webhookSubscriptions, read with the project's token (client credentials). Secrets are never shown.",
		Example: "  partnertui subscriptions\n  partnertui subscriptions --json\n  partnertui subscriptions remove 1c3f…",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Output.check(cmd); err != nil {
				return err
			}
			return runSubscriptions(cmd.Context(), opts)
		},
	}
	registerList[api.WebhookSubscription](&opts.Output, cmd, "webhook subscriptions")
	cmd.AddCommand(newCmdSubscriptionRemove(f))
	return f.withSession(cmd, true)
}

func subscriptionColumns() []column[api.WebhookSubscription] {
	return []column[api.WebhookSubscription]{
		{title: "ID", cell: func(s *api.WebhookSubscription) string { return s.ID }},
		{title: "STATUS", cell: func(s *api.WebhookSubscription) string { return s.StatusInfo.Status }},
		{title: "LABEL", cell: func(s *api.WebhookSubscription) string { return s.Label }},
		{title: "ENDPOINT", cell: func(s *api.WebhookSubscription) string { return s.Endpoint }},
		{title: "EVENT TYPES", cell: func(s *api.WebhookSubscription) string { return eventTypesText(s.EventTypes) }},
	}
}

// listedTypes is how many event types a subscription's row names; more
// are counted (--json lists them all).
const listedTypes = 3

// eventTypesText is a subscription's event types for its row: "all 70"
// when it has every type the platform knows, a count when they are many,
// else the types.
func eventTypesText(types []string) string {
	known := platform.WebhookEventTypes()
	all := len(types) >= len(known)
	for _, k := range known {
		all = all && slices.Contains(types, k)
	}
	switch {
	case all:
		return fmt.Sprintf("all %d", len(known))
	case len(types) > listedTypes:
		return fmt.Sprintf("%d types", len(types))
	}
	return strings.Join(types, ", ")
}

func runSubscriptions(ctx context.Context, opts *SubscriptionsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	return listItems(ctx, opts.IO, opts.F, opts.Output, subscriptionColumns(), read(e.ProjectAPI.ListWebhookSubscriptions(api.WebhookSubscriptionsParams{First: opts.Output.First}), opts.Output))
}

func newCmdSubscriptionRemove(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "remove ID",
		Short:   "Remove a webhook subscription",
		Example: "  partnertui subscriptions remove 1c3f… --env sandbox",
		Args:    exactlyOne("subscriptions remove", "subscription ID", "subscriptions"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := f.Env(cmd.Context())
			if err != nil {
				return err
			}
			if err := e.ProjectAPI.RemoveWebhookSubscription(cmd.Context(), args[0]); err != nil {
				return err
			}
			fmt.Fprintf(f.IO.Err, "Removed webhook subscription %s.\n", args[0])
			return nil
		},
	}
	return f.withSession(cmd, true)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./~+:@%,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
