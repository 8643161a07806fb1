package cli

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/listen"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/suggest"
)

// EventsOptions are `partnertui events`'s.
type EventsOptions struct {
	IO           IO
	F            *Factory
	Output       listFlags
	Types        []string
	Resource     string
	Subscription string
	Since        string

	now time.Time // when a --since duration counts back from
}

// NewCmdEvents lists the webhook event log: every delivery the platform
// attempted.
func NewCmdEvents(f *Factory) *cobra.Command {
	opts := &EventsOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "events",
		Short: "List the webhook event log: each delivery the platform attempted, newest first",
		Long: "Lists webhookEventLogs: one line per delivery attempt, with the event's type and resource, the\n" +
			"endpoint's HTTP status, retries and duration. The log belongs to the project: it is read with the\n" +
			"project's token (client credentials) whatever token the other commands use.",
		Example: "  partnertui events\n  partnertui events --type Transaction.Booked --since 2026-11-22\n" +
			"  partnertui events --resource bosci_… --json",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFirst(cmd, opts.Output.First); err != nil {
				return err
			}
			if _, err := opts.params(); err != nil {
				return err
			}
			return runEvents(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	registerList[api.WebhookEventLog](&opts.Output, cmd, "event log entries")
	fl.StringSliceVar(&opts.Types, "type", nil, "only these event types (`type`, repeat or comma-separate; any case), e.g. Transaction.Booked")
	fl.StringVar(&opts.Resource, "resource", "", "only events about this resource (`id`: an account, transaction, card…)")
	fl.StringVar(&opts.Subscription, "subscription", "", "only deliveries to this webhook subscription (`id`)")
	fl.StringVar(&opts.Since, "since", "", timeFlagUsage("only events logged at or after", false))
	completeChoices(cmd, "type", platform.WebhookEventTypes())
	cmd.AddCommand(newCmdEventReplay(f))
	return f.withSession(cmd, true)
}

func (o *EventsOptions) params() (api.WebhookEventLogsParams, error) {
	p := api.WebhookEventLogsParams{First: o.Output.First, ResourceID: o.Resource, WebhookSubscriptionID: o.Subscription}
	if _, err := o.Output.format(); err != nil {
		return p, err
	}
	if o.now.IsZero() {
		o.now = time.Now()
	}
	var err error
	if p.StartDate, err = parseTime("--since", o.Since, o.now, false); err != nil {
		return p, err
	}
	if err := foldEventTypes("--type", o.Types); err != nil {
		return p, err
	}
	p.EventType = listen.ServerType(o.Types)
	return p, nil
}

// foldEventTypes checks types, in place, against the platform's webhook
// event types, case aside (transaction.booked is Transaction.Booked); one
// it does not know is a usage error naming flag and the closest types.
func foldEventTypes(flag string, types []string) error {
	for i, t := range types {
		k, ok := suggest.Fold(t, platform.WebhookEventTypes())
		if !ok {
			return unknownEventType(flag, t)
		}
		types[i] = k
	}
	return nil
}

// unknownEventType is the usage error of an event type the platform does
// not know, given to flag, naming the closest types it does.
func unknownEventType(flag, t string) error {
	if near := suggest.Closest(t, platform.WebhookEventTypes(), 3); len(near) > 0 {
		return usageErrorf("%s %q is not a webhook event type: did you mean %s?", flag, t, suggest.JoinOr(near))
	}
	return usageErrorf("%s %q is not a webhook event type: they are named Resource.Event, such as Transaction.Booked (press tab after %s for all of them)", flag, t, flag)
}

func eventColumns() []column[api.WebhookEventLog] {
	return []column[api.WebhookEventLog]{
		{title: "DATE", cell: func(l *api.WebhookEventLog) string { return stampSeconds(l.EventDate) }},
		{title: "TYPE", max: 30, cell: func(l *api.WebhookEventLog) string { return l.EventType }},
		{title: "RESOURCE", cell: func(l *api.WebhookEventLog) string { return l.ResourceID }},
		{title: "STATUS", right: true, cell: func(l *api.WebhookEventLog) string { return intOrDash(l.StatusCode) }},
		{title: "RETRIES", right: true, cell: func(l *api.WebhookEventLog) string { return intOrDash(l.RetryCount) }},
		{title: "MS", right: true, cell: func(l *api.WebhookEventLog) string { return fmt.Sprint(l.Duration) }},
		{title: "EVENT ID", cell: func(l *api.WebhookEventLog) string { return l.EventID }},
		{title: "SUBSCRIPTION", max: 24, cell: func(l *api.WebhookEventLog) string {
			if l.WebhookSubscription == nil {
				return ""
			}
			return l.WebhookSubscription.Label
		}},
	}
}

func intOrDash(n *int) string {
	if n == nil {
		return "-"
	}
	return fmt.Sprint(*n)
}

func runEvents(ctx context.Context, opts *EventsOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	p, _ := opts.params()
	// The event log belongs to the project, whatever token the rest uses.
	walk := read(e.ProjectAPI.ListWebhookEventLogs(p), opts.Output)
	if len(opts.Types) > 1 {
		inner := walk
		walk = func(ctx context.Context, each func([]api.WebhookEventLog, int) error) error {
			return inner(ctx, func(items []api.WebhookEventLog, total int) error {
				kept := slices.DeleteFunc(items, func(l api.WebhookEventLog) bool { return !listen.Wanted(opts.Types, l.EventType) })
				return each(kept, total)
			})
		}
	}
	return listItems(ctx, opts.IO, opts.F, opts.Output, eventColumns(), walk)
}
