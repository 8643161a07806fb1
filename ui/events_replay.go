package ui

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

// Replaying an event: Sandbox only, after a confirmation.

// replayMsg answers a replay of one event.
type replayMsg struct {
	envTag
	id     int
	ev     api.WebhookEventLog
	replay *api.WebhookReplay
	err    error
}

// canReplay: replaying is a mutation, and Live is read-only (the key is
// not bound there at all; the API client refuses too).
func canReplay(e *envState) bool { return !e.ReadOnly }

// replayCmd replays ev to the subscription it was delivered to.
func replayCmd(c *common, e *envState, ctx context.Context, id int, ev api.WebhookEventLog) tea.Cmd {
	p, env := e.ProjectAPI, e.Name
	sub := ""
	if ev.WebhookSubscription != nil {
		sub = ev.WebhookSubscription.ID
	}
	c.log.Info("replaying a webhook event", "env", string(env), "event", ev.EventID, "subscription", sub)
	return c.task(func() tea.Msg {
		r, err := p.ReplayWebhookEvent(ctx, ev.EventID, sub)
		return replayMsg{envTag{env}, id, ev, r, err}
	})
}

// replayFlash words a replay's outcome for the flash line.
func replayFlash(c *common, msg replayMsg, at where) tea.Cmd {
	if msg.err != nil {
		text := "The replay failed. " + c.explain(msg.err, at)
		return func() tea.Msg { return flashMsg{text: text, bad: true} }
	}
	text := "Replayed " + msg.ev.EventType
	if s := msg.ev.WebhookSubscription; s != nil && s.Label != "" {
		text += " to " + s.Label
	}
	switch {
	case msg.replay == nil || msg.replay.EndpointStatus == nil:
		text += ": the endpoint gave no answer"
	default:
		text += fmt.Sprintf(": the endpoint answered %d", *msg.replay.EndpointStatus)
	}
	return func() tea.Msg { return flashMsg{text: text} }
}

// replayQuestion is the confirmation a replay waits for.
func replayQuestion(ev api.WebhookEventLog, yes key.Binding) string {
	to := ""
	if s := ev.WebhookSubscription; s != nil && s.Label != "" {
		to = " to " + s.Label
	}
	return "Replay " + ev.EventType + " " + ev.EventID + to + "? " + yes.Help().Key + " replays, any other key keeps it."
}

func replayKey() key.Binding {
	return key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "replay"))
}

func confirmReplayKey() key.Binding {
	return key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "replay · any other key keeps it"))
}
