package ui

import (
	"context"

	"github.com/partnertui/partnertui/api"
)

// ProjectAPI is what the UI needs from an environment's project-token
// client (*api.Client): the webhook event log and looking a transaction up
// by id belong to the project, whatever token the rest of the UI uses.
type ProjectAPI interface {
	Transaction(ctx context.Context, id string) (*api.TransactionDetail, error)
	WebhookEventLogs(ctx context.Context, p api.WebhookEventLogsParams) (*api.Page[api.WebhookEventLog], error)
	WebhookEventLog(ctx context.Context, id string) (*api.WebhookEventLog, error)
	ReplayWebhookEvent(ctx context.Context, eventID, subscriptionID string) (*api.WebhookReplay, error)
	// Do sends an operation built at run time (the view of anything's,
	// read with the project's token), its answer's strings made safe.
	Do(ctx context.Context, r api.Request) (*api.Response, error)
	Status() api.Status
}

// openMsg asks the root to open the screen of one resource, by id, on top
// of the stack: every way in (the command palette, an event's resource, a
// transaction's account) opens resources the same way.
type openMsg struct {
	envTag
	kind resourceKind
	id   string
}
