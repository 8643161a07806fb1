package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operation names of the webhooks: the event log, the subscriptions, a
// replay.
const (
	OpWebhookEventLogs          = "WebhookEventLogs"
	OpWebhookEventLog           = "WebhookEventLog"
	OpWebhookSubscriptions      = "WebhookSubscriptions"
	OpWebhookSubscription       = "WebhookSubscription"
	OpWebhookEventTypes         = "WebhookEventTypes"
	OpAddWebhookSubscription    = "AddWebhookSubscription"
	OpUpdateWebhookSubscription = "UpdateWebhookSubscription"
	OpRemoveWebhookSubscription = "RemoveWebhookSubscription"
	OpReplayWebhookEvent        = "ReplayWebhookEvent"
)

var (
	webhookEventLogsOp = declareQuery[webhookEventLogsQuery](OpWebhookEventLogs, func() map[string]any {
		return WebhookEventLogsParams{}.vars(platform.PageMax)
	})
	webhookEventLogOp      = declareQuery[webhookEventLogQuery](OpWebhookEventLog, idVars)
	webhookSubscriptionsOp = declareQuery[webhookSubscriptionsQuery](OpWebhookSubscriptions, func() map[string]any {
		return map[string]any{"first": platform.PageMax, "after": cursorVar("")}
	})
	webhookSubscriptionOp       = declareQuery[webhookSubscriptionQuery](OpWebhookSubscription, idVars)
	webhookEventTypesOp         = declareQuery[webhookEventTypesQuery](OpWebhookEventTypes, nil)
	addWebhookSubscriptionOp    = declareMutation[addWebhookSubscriptionMutation](OpAddWebhookSubscription, func() map[string]any { return WebhookSubscriptionInput{}.vars("") })
	updateWebhookSubscriptionOp = declareMutation[updateWebhookSubscriptionMutation](OpUpdateWebhookSubscription, func() map[string]any {
		return WebhookSubscriptionInput{}.vars("x")
	})
	removeWebhookSubscriptionOp = declareMutation[removeWebhookSubscriptionMutation](OpRemoveWebhookSubscription, input(webhookSubscriptionIDInput{}))
	replayWebhookEventOp        = declareMutation[replayWebhookEventMutation](OpReplayWebhookEvent, input(replayWebhookEventInput{}))
)

// Secret is a webhook subscription's shared secret (sent by the platform in
// the x-swan-secret header). It prints, logs and marshals as "[hidden]", so
// that it reaches no log, error or screen by accident; Reveal returns it
// for the one place that needs it.
type Secret string

const hidden = "[hidden]"

// Reveal returns the secret itself.
func (s Secret) Reveal() string { return string(s) }

func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return hidden
}

// GoString hides the secret from %#v.
func (s Secret) GoString() string { return fmt.Sprintf("%q", s.String()) }

// Format hides the secret from every fmt verb.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, s.String()) }

// MarshalText hides the secret from encoding/json and every other text
// encoder (an empty secret stays empty, so omitempty still omits it).
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// LogValue hides the secret from log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// WebhookSubscriptionStatusInfo is WebhookSubscription.statusInfo with the
// date of its concrete type.
type WebhookSubscriptionStatusInfo struct {
	Status     string    `json:"status"` // Enabled | Disabled | Broken
	EnabledAt  time.Time `json:"enabledAt,omitzero"`
	DisabledAt time.Time `json:"disabledAt,omitzero"`
	BrokenAt   time.Time `json:"brokenAt,omitzero"`
}

// WebhookSubscription is the schema's WebhookSubscription.
type WebhookSubscription struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Endpoint string `json:"endpoint"`
	// Secret is fetched only by WebhookSubscription(id) and returned by the
	// add and update mutations; elsewhere it is empty.
	Secret     Secret                        `json:"secret,omitempty"`
	EventTypes []string                      `json:"eventTypes"`
	StatusInfo WebhookSubscriptionStatusInfo `json:"statusInfo"`
	CreatedAt  time.Time                     `json:"createdAt,omitzero"`
	UpdatedAt  time.Time                     `json:"updatedAt,omitzero"`
}

// WebhookEventLog is one delivery attempt of an event to a subscription.
type WebhookEventLog struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"createdAt,omitzero"`
	EventID    string    `json:"eventId"`
	EventDate  time.Time `json:"eventDate,omitzero"`
	EventType  string    `json:"eventType"`
	ResourceID string    `json:"resourceId"`
	Duration   int       `json:"duration"` // milliseconds
	// RequestPayload is the JSON body that was POSTed to the endpoint.
	RequestPayload  string `json:"requestPayload"`
	ResponsePayload string `json:"responsePayload,omitempty"`
	// StatusCode is the endpoint's HTTP status; nil when it gave none (not
	// reachable, no answer in time).
	StatusCode          *int                 `json:"statusCode,omitempty"`
	StatusText          string               `json:"statusText,omitempty"` // Success | Failure
	RetryCount          *int                 `json:"retryCount,omitempty"`
	WebhookSubscription *WebhookSubscription `json:"webhookSubscription,omitempty"` // without its secret
}

// WebhookEventLogsParams are the arguments of one webhookEventLogs request.
// The schema gives the list no order argument: it comes in the server's
// order (newest first).
type WebhookEventLogsParams struct {
	First                 int    // page size; 0 means the client's page size
	After                 string // cursor; "" for the first page
	EventType             string // filters.eventType
	EventID               string // filters.eventId
	ResourceID            string // filters.resourceId
	WebhookSubscriptionID string // filters.webhookSubscriptionId
	StatusCode            int    // filters.statusCode; 0 for any
	StatusText            string // filters.statusText: WebhookStatusTexts() or ""
	StartDate             time.Time
	EndDate               time.Time
}

// WithAfter returns p asking for the page after cursor after.
func (p WebhookEventLogsParams) WithAfter(after string) WebhookEventLogsParams {
	p.After = after
	return p
}

func (p WebhookEventLogsParams) check() error {
	if p.StatusText != "" {
		if err := checkEnum("filters.statusText", WebhookStatusTexts(), p.StatusText); err != nil {
			return err
		}
	}
	if p.StatusCode < 0 || p.StatusCode > 999 {
		return paramError("filters.statusCode", fmt.Sprint(p.StatusCode), "is not an HTTP status", nil)
	}
	return checkRange("filters.startDate", p.StartDate, p.EndDate)
}

// webhookEventLogFiltersInput is the schema's WebhookEventLogFiltersInput.
type webhookEventLogFiltersInput struct {
	StatusCode            *int   `json:"statusCode,omitempty"`
	StatusText            string `json:"statusText,omitempty"`
	StartDate             string `json:"startDate,omitempty"`
	EndDate               string `json:"endDate,omitempty"`
	EventType             string `json:"eventType,omitempty"`
	EventID               string `json:"eventId,omitempty"`
	ResourceID            string `json:"resourceId,omitempty"`
	WebhookSubscriptionID string `json:"webhookSubscriptionId,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*webhookEventLogFiltersInput) GetGraphQLType() string { return "WebhookEventLogFiltersInput" }

func (p WebhookEventLogsParams) vars(first int) map[string]any {
	f := webhookEventLogFiltersInput{
		StatusText: p.StatusText, StartDate: dateTimeVar(p.StartDate), EndDate: dateTimeVar(p.EndDate),
		EventType: p.EventType, EventID: p.EventID, ResourceID: p.ResourceID, WebhookSubscriptionID: p.WebhookSubscriptionID,
	}
	if p.StatusCode != 0 {
		f.StatusCode = &p.StatusCode
	}
	var filters *webhookEventLogFiltersInput
	if f != (webhookEventLogFiltersInput{}) {
		filters = &f
	}
	return map[string]any{"first": first, "after": cursorVar(p.After), "filters": filters}
}

// WebhookSubscriptionsParams are the arguments of one webhookSubscriptions
// request.
type WebhookSubscriptionsParams struct {
	First int    // page size; 0 means the client's page size
	After string // cursor; "" for the first page
}

// WithAfter returns p asking for the page after cursor after.
func (p WebhookSubscriptionsParams) WithAfter(after string) WebhookSubscriptionsParams {
	p.After = after
	return p
}

// WebhookSubscriptionInput is what addWebhookSubscription and
// updateWebhookSubscription take.
type WebhookSubscriptionInput struct {
	Label      string
	Endpoint   string // the URL the platform POSTs events to
	Secret     Secret // optional; sent as x-swan-secret with every delivery
	EventTypes []string
	Status     string // WebhookCreationStatuses(); "" means Enabled
}

func (in WebhookSubscriptionInput) check() error {
	if strings.TrimSpace(in.Label) == "" {
		return paramError("input.label", in.Label, "is required", nil)
	}
	if strings.TrimSpace(in.Endpoint) == "" {
		return paramError("input.endpoint", in.Endpoint, "is required", nil)
	}
	if p := platform.WebhookSecretProblem(in.Secret.Reveal()); p != "" {
		// The value itself stays out of the error: it is a secret.
		return paramError("input.secret", hidden, p, nil)
	}
	if in.Status != "" {
		return checkEnum("input.status", WebhookCreationStatuses(), in.Status)
	}
	return nil
}

// webhookSubscriptionInput is both AddWebhookSubscriptionInput and, with
// an id, UpdateWebhookSubscriptionInput.
type webhookSubscriptionInput struct {
	ID         string   `json:"id,omitempty"`
	Label      string   `json:"label"`
	Endpoint   string   `json:"endpoint"`
	Secret     *string  `json:"secret,omitempty"`
	EventTypes []string `json:"eventTypes"`
	Status     string   `json:"status"`
	typeName   string
}

// GetGraphQLType names the variable's type in the query text.
func (i webhookSubscriptionInput) GetGraphQLType() string { return i.typeName }

func (in WebhookSubscriptionInput) vars(id string) map[string]any {
	v := webhookSubscriptionInput{ID: id, Label: in.Label, Endpoint: in.Endpoint, EventTypes: in.EventTypes,
		Status: in.Status, typeName: "AddWebhookSubscriptionInput"}
	if id != "" {
		v.typeName = "UpdateWebhookSubscriptionInput"
	}
	if v.EventTypes == nil {
		v.EventTypes = []string{} // the schema's list is non-null
	}
	if v.Status == "" {
		v.Status = "Enabled"
	}
	if in.Secret != "" {
		s := in.Secret.Reveal()
		v.Secret = &s
	}
	return map[string]any{"input": v}
}

// webhookSubscriptionIDInput is the schema's WebhookSubscriptionIdInput.
type webhookSubscriptionIDInput struct {
	WebhookSubscriptionID string `json:"webhookSubscriptionId"`
}

// GetGraphQLType names the variable's type in the query text.
func (webhookSubscriptionIDInput) GetGraphQLType() string { return "WebhookSubscriptionIdInput" }

// replayWebhookEventInput is the schema's ReplayWebhookEventInput.
type replayWebhookEventInput struct {
	WebhookEventID string `json:"webhookEventId"`
	SubscriptionID string `json:"subscriptionId,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (replayWebhookEventInput) GetGraphQLType() string { return "ReplayWebhookEventInput" }

// WebhookReplay is what replayWebhookEvent answers.
type WebhookReplay struct {
	WebhookEventLogEntryID string `json:"webhookEventLogEntryId"`
	EndpointStatus         *int   `json:"endpointStatus,omitempty"`
}

// ---- GraphQL shapes ----

func subscriptionFrom(f *fragments.WebhookSubscriptionFields, secret *string) *WebhookSubscription {
	if f == nil {
		return nil
	}
	s := &f.StatusInfo
	return &WebhookSubscription{
		ID:         f.ID,
		Label:      f.Label,
		Endpoint:   f.Endpoint,
		Secret:     Secret(deref(secret)),
		EventTypes: f.EventTypes,
		StatusInfo: WebhookSubscriptionStatusInfo{
			Status: s.Status, EnabledAt: parseTime(s.EnabledAt), DisabledAt: parseTime(s.DisabledAt), BrokenAt: parseTime(s.BrokenAt),
		},
		CreatedAt: parseTime(f.CreatedAt),
		UpdatedAt: parseTime(f.UpdatedAt),
	}
}

// subscriptionSecretNode is a subscription with its secret.
type subscriptionSecretNode struct {
	fragments.WebhookSubscriptionFields
	// The secret is kept as the platform stores it (never drawn, only
	// sent in x-swan-secret, where a changed byte fails the receiver's
	// check).
	Secret *string `graphql:"secret" safetext:"raw"`
}

func (n *subscriptionSecretNode) subscription() WebhookSubscription {
	return *subscriptionFrom(&n.WebhookSubscriptionFields, n.Secret)
}

func subscriptionNoSecret(f *fragments.WebhookSubscriptionFields) WebhookSubscription {
	return *subscriptionFrom(f, nil)
}

type eventLogNode struct {
	ID                  string                               `graphql:"id"`
	CreatedAt           string                               `graphql:"createdAt"`
	EventID             string                               `graphql:"eventId"`
	EventDate           string                               `graphql:"eventDate"`
	EventType           string                               `graphql:"eventType"`
	ResourceID          string                               `graphql:"resourceId"`
	Duration            int                                  `graphql:"duration"`
	RequestPayload      string                               `graphql:"requestPayload"`
	ResponsePayload     *string                              `graphql:"responsePayload"`
	StatusCode          *int                                 `graphql:"statusCode"`
	StatusText          *string                              `graphql:"statusText"`
	RetryCount          *int                                 `graphql:"retryCount"`
	WebhookSubscription *fragments.WebhookSubscriptionFields `graphql:"webhookSubscription"`
}

func (n *eventLogNode) eventLog() WebhookEventLog {
	return WebhookEventLog{
		ID:                  n.ID,
		CreatedAt:           parseTime(n.CreatedAt),
		EventID:             n.EventID,
		EventDate:           parseTime(n.EventDate),
		EventType:           n.EventType,
		ResourceID:          n.ResourceID,
		Duration:            n.Duration,
		RequestPayload:      n.RequestPayload,
		ResponsePayload:     deref(n.ResponsePayload),
		StatusCode:          n.StatusCode,
		StatusText:          deref(n.StatusText),
		RetryCount:          n.RetryCount,
		WebhookSubscription: subscriptionFrom(n.WebhookSubscription, nil),
	}
}

type webhookEventLogsQuery struct {
	WebhookEventLogs *connectionQL[eventLogNode] `graphql:"webhookEventLogs(first: $first, after: $after, filters: $filters)"`
}

type webhookEventLogQuery struct {
	WebhookEventLog *eventLogNode `graphql:"webhookEventLog(id: $id)"`
}

type webhookSubscriptionsQuery struct {
	WebhookSubscriptions connectionQL[fragments.WebhookSubscriptionFields] `graphql:"webhookSubscriptions(first: $first, after: $after)"`
}

type webhookSubscriptionQuery struct {
	WebhookSubscription *subscriptionSecretNode `graphql:"webhookSubscription(id: $id)"`
}

type webhookEventTypesQuery struct {
	WebhookEventTypes []string `graphql:"webhookEventTypes"`
}

// The rejections of the webhook mutations' unions. Mutations are decoded by
// the graphql client, which fills only the fragment __typename names, so
// each member is listed (a fragment on the Rejection interface would stay
// empty).
type rejectionQL struct {
	Message string `graphql:"message"`
}

type invalidArgumentQL struct {
	Message string `graphql:"message"`
	Fields  []struct {
		Name   string   `graphql:"name"`
		Errors []string `graphql:"errors"`
	} `graphql:"fields"`
}

func (r *invalidArgumentQL) message() string {
	parts := make([]string, 0, len(r.Fields))
	for _, f := range r.Fields {
		// A server that already names the field in its message is not
		// repeated.
		if p := f.Name + ": " + strings.Join(f.Errors, ", "); !strings.Contains(r.Message, p) {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return r.Message
	}
	return r.Message + " (" + strings.Join(parts, "; ") + ")"
}

type subscriptionLimitsQL struct {
	Message            string `graphql:"message"`
	SubscriptionLimits []struct {
		EventType         string `graphql:"eventType"`
		SubscriptionCount int    `graphql:"subscriptionCount"`
	} `graphql:"subscriptionLimits"`
}

func (r *subscriptionLimitsQL) message() string {
	parts := make([]string, 0, len(r.SubscriptionLimits))
	for _, l := range r.SubscriptionLimits {
		parts = append(parts, fmt.Sprintf("%s: %d subscriptions", l.EventType, l.SubscriptionCount))
	}
	if len(parts) == 0 {
		return r.Message
	}
	return r.Message + " (" + strings.Join(parts, "; ") + ")"
}

type subscriptionPayloadQL struct {
	Typename string `graphql:"__typename"`
	Success  struct {
		WebhookSubscription subscriptionSecretNode `graphql:"webhookSubscription"`
	} `graphql:"... on WebhookSubscriptionSuccessPayload"`
	NotFound        rejectionQL          `graphql:"... on WebhookSubscriptionNotFoundRejection"`
	InternalError   rejectionQL          `graphql:"... on InternalErrorRejection"`
	InvalidArgument invalidArgumentQL    `graphql:"... on InvalidArgumentRejection"`
	Limits          subscriptionLimitsQL `graphql:"... on SubscriptionLimitsRejection"`
}

func (p *subscriptionPayloadQL) rejection() string {
	switch p.Typename {
	case "WebhookSubscriptionNotFoundRejection":
		return p.NotFound.Message
	case "InternalErrorRejection":
		return p.InternalError.Message
	case "InvalidArgumentRejection":
		return p.InvalidArgument.message()
	case "SubscriptionLimitsRejection":
		return p.Limits.message()
	}
	return ""
}

type addWebhookSubscriptionMutation struct {
	Payload subscriptionPayloadQL `graphql:"addWebhookSubscription(input: $input)"`
}

type updateWebhookSubscriptionMutation struct {
	Payload subscriptionPayloadQL `graphql:"updateWebhookSubscription(input: $input)"`
}

type removeWebhookSubscriptionMutation struct {
	Payload struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			SubscriptionRemovedSuccessfully bool `graphql:"subscriptionRemovedSuccessfully"`
		} `graphql:"... on RemoveWebhookSubscriptionSuccessPayload"`
		NotFound        rejectionQL       `graphql:"... on WebhookSubscriptionNotFoundRejection"`
		InternalError   rejectionQL       `graphql:"... on InternalErrorRejection"`
		InvalidArgument invalidArgumentQL `graphql:"... on InvalidArgumentRejection"`
	} `graphql:"removeWebhookSubscription(input: $input)"`
}

type replayWebhookEventMutation struct {
	Payload struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			WebhookEventLogEntryID string `graphql:"webhookEventLogEntryId"`
			EndpointStatus         *int   `graphql:"endpointStatus"`
		} `graphql:"... on ReplayWebhookEventSuccessPayload"`
		EventLogNotFound    rejectionQL       `graphql:"... on WebhookEventLogNotFoundRejection"`
		SubscriptionMissing rejectionQL       `graphql:"... on WebhookSubscriptionNotFoundRejection"`
		InternalError       rejectionQL       `graphql:"... on InternalErrorRejection"`
		InvalidArgument     invalidArgumentQL `graphql:"... on InvalidArgumentRejection"`
	} `graphql:"replayWebhookEvent(input: $input)"`
}

// ---- Client methods ----

// WebhookEventLogs fetches one page of webhook delivery attempts
// (Query.webhookEventLogs), newest first.
func (c *Client) WebhookEventLogs(ctx context.Context, p WebhookEventLogsParams) (*Page[WebhookEventLog], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return listPage(ctx, c, webhookEventLogsOp, p.vars(c.first(p.First)),
		func(q *webhookEventLogsQuery) (*connectionQL[eventLogNode], bool) { return q.WebhookEventLogs, true },
		(*eventLogNode).eventLog, nil)
}

// WebhookEventLog fetches one delivery attempt; a missing one is
// ErrNotFound.
func (c *Client) WebhookEventLog(ctx context.Context, id string) (*WebhookEventLog, error) {
	return one(ctx, c, webhookEventLogOp, map[string]any{"id": graphql.ID(id)},
		func(q *webhookEventLogQuery) *eventLogNode { return q.WebhookEventLog },
		(*eventLogNode).eventLog, c.notFound("webhook event log", id))
}

// WebhookSubscriptions fetches one page of the project's webhook
// subscriptions, without their secrets.
func (c *Client) WebhookSubscriptions(ctx context.Context, p WebhookSubscriptionsParams) (*Page[WebhookSubscription], error) {
	vars := map[string]any{"first": c.first(p.First), "after": cursorVar(p.After)}
	return listPage(ctx, c, webhookSubscriptionsOp, vars,
		func(q *webhookSubscriptionsQuery) (*connectionQL[fragments.WebhookSubscriptionFields], bool) {
			return &q.WebhookSubscriptions, true
		},
		subscriptionNoSecret, nil)
}

// WebhookSubscription fetches one subscription with its secret; a missing
// one is ErrNotFound.
func (c *Client) WebhookSubscription(ctx context.Context, id string) (*WebhookSubscription, error) {
	return one(ctx, c, webhookSubscriptionOp, map[string]any{"id": graphql.ID(id)},
		func(q *webhookSubscriptionQuery) *subscriptionSecretNode { return q.WebhookSubscription },
		(*subscriptionSecretNode).subscription, c.notFound("webhook subscription", id))
}

// WebhookEventTypes lists the event types a subscription can name.
func (c *Client) WebhookEventTypes(ctx context.Context) ([]string, error) {
	q, err := webhookEventTypesOp.query(ctx, c, nil)
	if q == nil {
		return nil, err
	}
	return q.WebhookEventTypes, err
}

// rejectionErr is the error for a union member other than the success payload.
func (c *Client) rejectionErr(typename, message string, secret Secret) error {
	if message == "" {
		message = "no message"
	}
	return &RejectionError{Env: c.env, Type: typename, Message: redact(message, secret)}
}

// AddWebhookSubscription creates a subscription and returns it (with the
// secret it was given). A Rejection union member is a *RejectionError.
func (c *Client) AddWebhookSubscription(ctx context.Context, in WebhookSubscriptionInput) (*WebhookSubscription, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	m, err := addWebhookSubscriptionOp.mutate(ctx, c, in.vars(""), in.Secret)
	if err != nil {
		return nil, err
	}
	return c.subscriptionResult(&m.Payload, in.Secret)
}

// UpdateWebhookSubscription replaces subscription id's label, endpoint,
// secret, event types and status.
func (c *Client) UpdateWebhookSubscription(ctx context.Context, id string, in WebhookSubscriptionInput) (*WebhookSubscription, error) {
	if id == "" {
		return nil, paramError("input.id", "", "is required", nil)
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	m, err := updateWebhookSubscriptionOp.mutate(ctx, c, in.vars(id), in.Secret)
	if err != nil {
		return nil, err
	}
	return c.subscriptionResult(&m.Payload, in.Secret)
}

func (c *Client) subscriptionResult(p *subscriptionPayloadQL, secret Secret) (*WebhookSubscription, error) {
	if p.Typename != "WebhookSubscriptionSuccessPayload" {
		return nil, c.rejectionErr(p.Typename, p.rejection(), secret)
	}
	s := p.Success.WebhookSubscription.subscription()
	return &s, nil
}

// RemoveWebhookSubscription deletes subscription id.
func (c *Client) RemoveWebhookSubscription(ctx context.Context, id string) error {
	if id == "" {
		return paramError("input.webhookSubscriptionId", "", "is required", nil)
	}
	vars := map[string]any{"input": webhookSubscriptionIDInput{WebhookSubscriptionID: id}}
	m, err := removeWebhookSubscriptionOp.mutate(ctx, c, vars, "")
	if err != nil {
		return err
	}
	p := &m.Payload
	switch p.Typename {
	case "RemoveWebhookSubscriptionSuccessPayload":
		if !p.Success.SubscriptionRemovedSuccessfully {
			return c.rejectionErr(p.Typename, "the platform answered that the subscription was not removed", "")
		}
		return nil
	case "WebhookSubscriptionNotFoundRejection":
		return c.rejectionErr(p.Typename, p.NotFound.Message, "")
	case "InternalErrorRejection":
		return c.rejectionErr(p.Typename, p.InternalError.Message, "")
	default:
		return c.rejectionErr(p.Typename, p.InvalidArgument.message(), "")
	}
}

// ReplayWebhookEvent asks the platform to deliver event eventID again, to
// subscriptionID or ("") to the subscription it was first delivered to.
func (c *Client) ReplayWebhookEvent(ctx context.Context, eventID, subscriptionID string) (*WebhookReplay, error) {
	if eventID == "" {
		return nil, paramError("input.webhookEventId", "", "is required", nil)
	}
	vars := map[string]any{"input": replayWebhookEventInput{WebhookEventID: eventID, SubscriptionID: subscriptionID}}
	m, err := replayWebhookEventOp.mutate(ctx, c, vars, "")
	if err != nil {
		return nil, err
	}
	p := &m.Payload
	switch p.Typename {
	case "ReplayWebhookEventSuccessPayload":
		return &WebhookReplay{WebhookEventLogEntryID: p.Success.WebhookEventLogEntryID, EndpointStatus: p.Success.EndpointStatus}, nil
	case "WebhookEventLogNotFoundRejection":
		return nil, c.rejectionErr(p.Typename, p.EventLogNotFound.Message, "")
	case "WebhookSubscriptionNotFoundRejection":
		return nil, c.rejectionErr(p.Typename, p.SubscriptionMissing.Message, "")
	case "InternalErrorRejection":
		return nil, c.rejectionErr(p.Typename, p.InternalError.Message, "")
	default:
		return nil, c.rejectionErr(p.Typename, p.InvalidArgument.message(), "")
	}
}

// redact hides secret wherever a server echoed it, including its start
// at the end of a truncated snippet.
func redact(s string, secret Secret) string { return redactText(s, secret.Reveal()) }

// redactText hides sec in s, and its start at the end of s.
func redactText(s, sec string) string {
	if sec == "" {
		return s
	}
	s = strings.ReplaceAll(s, sec, hidden)
	// A snippet cut in the middle of the secret ends with its first bytes;
	// three are already worth hiding.
	for k := len(sec) - 1; k >= min(3, len(sec)); k-- {
		if strings.HasSuffix(s, sec[:k]) {
			return s[:len(s)-k] + hidden
		}
	}
	return s
}

// redactErr hides secret in the server text that err carries.
func redactErr(err error, secret Secret) error {
	if secret == "" {
		return err
	}
	var (
		ge *GraphQLError
		se *ServerError
		be *BadResponseError
		le *OperationLimitError
		ue *UnauthorizedError
	)
	if errors.As(err, &ge) {
		for i := range ge.Errors {
			ge.Errors[i].Message = redact(ge.Errors[i].Message, secret)
		}
	}
	if errors.As(err, &se) {
		se.Message = redact(se.Message, secret)
	}
	if errors.As(err, &be) {
		be.Snippet = redact(be.Snippet, secret)
	}
	if errors.As(err, &le) {
		le.Message = redact(le.Message, secret)
	}
	if errors.As(err, &ue) {
		ue.Message = redact(ue.Message, secret)
	}
	return err
}
