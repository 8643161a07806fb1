package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/listen"
)

// eventReplayOptions are `partnertui events replay`'s.
type eventReplayOptions struct {
	f            *Factory
	subscription string
	forwardTo    string
	secrets      secretFlags
}

// newCmdEventReplay replays one event of the log, as the app's R does, or
// to a local endpoint.
func newCmdEventReplay(f *Factory) *cobra.Command {
	o := &eventReplayOptions{f: f}
	cmd := &cobra.Command{
		Use:   "replay EVENT_ID",
		Short: "Have the platform deliver one event again (Sandbox), or POST it to a local URL",
		Long: "Calls replayWebhookEvent: the platform POSTs the event's payload again, to the subscription it was\n" +
			"first delivered to or to --subscription, logs the attempt, and says what the endpoint answered.\n" +
			"It is a mutation: Live refuses it. With --forward-to, the platform is not asked: the payload the\n" +
			"log holds is POSTed to your local endpoint with the subscription's secret, as listen does, or\n" +
			"with the one --secret-env or --secret-file gives (a subscription listen --create made is gone\n" +
			"once listen stops, and its secret with it).",
		Example: "  partnertui events replay 7a1e…\n  partnertui events replay 7a1e… --subscription 1c3f…\n" +
			"  partnertui events replay 7a1e… --forward-to http://localhost:8080/webhooks\n" +
			"  partnertui events replay 7a1e… --forward-to http://localhost:8080/webhooks --secret-env HANDLER_SECRET",
		Args: exactlyOne("events replay", "event ID", "events"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.forwardTo != "" {
				if err := checkForwardURL(o.forwardTo); err != nil {
					return err
				}
			}
			if flag, ok := o.secrets.given(); ok && o.forwardTo == "" {
				return usageErrorf("%s is the secret --forward-to sends to your endpoint; the platform's replay uses the subscription's own: add --forward-to, or drop %s", flag, flag)
			}
			secret, err := o.secrets.read(f.IO.In, f.env)
			if err != nil {
				return err
			}
			e, err := f.Env(cmd.Context())
			if err != nil {
				return err
			}
			if o.forwardTo != "" {
				return o.forward(cmd.Context(), e, args[0], secret)
			}
			return o.replay(cmd.Context(), e, args[0])
		},
	}
	cmd.Flags().StringVar(&o.subscription, "subscription", "", "deliver to this webhook subscription (`id`), or with its secret, instead of the event's own")
	cmd.Flags().StringVar(&o.forwardTo, "forward-to", "", "POST the event to this local `url` instead of having the platform deliver it")
	o.secrets.register(cmd, "with --forward-to, send this secret in x-swan-secret instead of the subscription's")
	return f.withSession(cmd, true)
}

// replay asks the platform, with the project's token (the log and its
// replays belong to the project).
func (o *eventReplayOptions) replay(ctx context.Context, e *app.Env, id string) error {
	r, err := e.ProjectAPI.ReplayWebhookEvent(ctx, id, o.subscription)
	if err != nil {
		return err
	}
	answer := "the endpoint gave no answer"
	if r.EndpointStatus != nil {
		answer = fmt.Sprintf("the endpoint answered %d", *r.EndpointStatus)
	}
	to := ""
	if o.subscription != "" {
		to = " to subscription " + o.subscription
	}
	fmt.Fprintf(o.f.IO.Out, "Replayed event %s%s: %s (log entry %s).\n", id, to, answer, r.WebhookEventLogEntryID)
	return nil
}

// forward POSTs the logged payload to --forward-to, once, as listen would.
func (o *eventReplayOptions) forward(ctx context.Context, e *app.Env, id, secret string) error {
	page, err := e.ProjectAPI.WebhookEventLogs(ctx, api.WebhookEventLogsParams{First: 1, EventID: id})
	if err != nil {
		return err
	}
	if len(page.Items) == 0 {
		return usageErrorf("the %s event log has no event %q: run `partnertui events --env %s` to list them", e.Name, id, e.Name)
	}
	ev := page.Items[0]
	if o.subscription != "" {
		ev.WebhookSubscription = &api.WebhookSubscription{ID: o.subscription}
	}
	return listen.ForwardOnce(ctx, listen.Options{ForwardTo: o.forwardTo, Secret: secret}, listen.Env{Name: string(e.Name), API: e.ProjectAPI},
		listen.Streams{Out: o.f.IO.Out, Err: o.f.IO.Err}, ev)
}
