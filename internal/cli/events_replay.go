package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

// newCmdEventReplay replays one event of the log, as the app's R does.
func newCmdEventReplay(f *Factory) *cobra.Command {
	var sub string
	cmd := &cobra.Command{
		Use:   "replay EVENT_ID",
		Short: "Have the platform deliver one event again (Sandbox)",
		Long: "Calls replayWebhookEvent: the platform POSTs the event's payload again, to the subscription it was\n" +
			"first delivered to or to --subscription, logs the attempt, and says what the endpoint answered.\n" +
			"It is a mutation: Live refuses it.",
		Example: "  partnertui events replay 7a1e…\n  partnertui events replay 7a1e… --subscription 1c3f…",
		Args:    exactlyOne("events replay", "event ID", "events"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := f.Env(cmd.Context())
			if err != nil {
				return err
			}
			// The log and its replays belong to the project.
			r, err := e.ProjectAPI.ReplayWebhookEvent(cmd.Context(), args[0], sub)
			if err != nil {
				return err
			}
			answer := "the endpoint gave no answer"
			if r.EndpointStatus != nil {
				answer = fmt.Sprintf("the endpoint answered %d", *r.EndpointStatus)
			}
			to := ""
			if sub != "" {
				to = " to subscription " + sub
			}
			fmt.Fprintf(f.IO.Out, "Replayed event %s%s: %s (log entry %s).\n", args[0], to, answer, r.WebhookEventLogEntryID)
			return nil
		},
	}
	cmd.Flags().StringVar(&sub, "subscription", "", "deliver to this webhook subscription (`id`) instead of the event's own")
	return f.withSession(cmd, true)
}
