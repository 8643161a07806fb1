package gql

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// partnerRoot is the partner schema's root: the banking data and the
// webhook operations of one environment.
type partnerRoot struct {
	*partnerResolver
	*webhookResolver
}

// webhookResolver serves schema/partner/webhooks.graphql.
type webhookResolver struct {
	hub *webhooks.Hub
}

// errWebhooksProjectOnly: webhooks are configured per project, not per user.
var errWebhooksProjectOnly = errors.New("webhooks belong to the project: call this with a project access token (client_credentials grant)")

func projectOnly(ctx context.Context) error {
	if !callerFrom(ctx).viewer.Project {
		return errWebhooksProjectOnly
	}
	return nil
}

func (r *webhookResolver) WebhookEventTypes() []string { return webhooks.EventTypes() }

func (r *webhookResolver) WebhookSubscription(ctx context.Context, args struct{ ID ID }) (*webhookSubR, error) {
	if err := projectOnly(ctx); err != nil {
		return nil, err
	}
	s, ok := r.hub.Subscription(string(args.ID))
	if !ok {
		return nil, nil
	}
	return &webhookSubR{s: s, hub: r.hub}, nil
}

func (r *webhookResolver) WebhookSubscriptions(ctx context.Context, args struct {
	First int32
	After *string
}) (*connR[webhooks.Subscription, *webhookSubR], error) {
	if err := projectOnly(ctx); err != nil {
		return nil, err
	}
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	page, err := r.hub.Subscriptions(int(args.First), deref(args.After))
	if err != nil {
		return nil, fmt.Errorf("webhookSubscriptions: %w", err)
	}
	return newConn(data.Page[webhooks.Subscription]{TotalCount: page.TotalCount, Items: page.Subscriptions,
		HasNextPage: page.HasNextPage, HasPreviousPage: page.HasPreviousPage}, webhooks.SubscriptionCursor,
		func(s *webhooks.Subscription) *webhookSubR { return &webhookSubR{s: *s, hub: r.hub} }), nil
}

func (r *webhookResolver) WebhookEventLog(ctx context.Context, args struct{ ID ID }) (*webhookLogR, error) {
	if err := projectOnly(ctx); err != nil {
		return nil, err
	}
	l, ok := r.hub.Log(string(args.ID))
	if !ok {
		return nil, nil
	}
	return &webhookLogR{l: l, hub: r.hub}, nil
}

// nestedLogFiltersInput is NestedWebhookEventLogFiltersInput;
// logFiltersInput (WebhookEventLogFiltersInput) adds the subscription.
type nestedLogFiltersInput struct {
	StatusCode *int32
	StatusText *string
	StartDate  *scalar
	EndDate    *scalar
	EventType  *string
	EventID    *ID
	ResourceID *ID
}

type logFiltersInput struct {
	nestedLogFiltersInput
	WebhookSubscriptionID *ID
}

func (f *nestedLogFiltersInput) filter() (webhooks.LogFilter, error) {
	var lf webhooks.LogFilter
	if f == nil {
		return lf, nil
	}
	if f.StatusCode != nil {
		c := int(*f.StatusCode)
		lf.StatusCode = &c
	}
	lf.StatusText, lf.EventType = deref(f.StatusText), deref(f.EventType)
	lf.EventID, lf.ResourceID = string(deref(f.EventID)), string(deref(f.ResourceID))
	var err error
	if lf.Start, err = parseDateTime("startDate", f.StartDate); err != nil {
		return lf, err
	}
	if lf.End, err = parseDateTime("endDate", f.EndDate); err != nil {
		return lf, err
	}
	return lf, nil
}

func (r *webhookResolver) WebhookEventLogs(ctx context.Context, args struct {
	First   int32
	After   *string
	Filters *logFiltersInput
}) (*webhookLogConnR, error) {
	if err := projectOnly(ctx); err != nil {
		return nil, err
	}
	var f webhooks.LogFilter
	if args.Filters != nil {
		var err error
		if f, err = args.Filters.filter(); err != nil {
			return nil, err
		}
		f.SubscriptionID = string(deref(args.Filters.WebhookSubscriptionID))
	}
	return logConnection(r.hub, f, args.First, args.After)
}

type webhookLogConnR = connR[webhooks.Log, *webhookLogR]

func logConnection(hub *webhooks.Hub, f webhooks.LogFilter, first int32, after *string) (*webhookLogConnR, error) {
	if err := checkFirst(first); err != nil {
		return nil, err
	}
	page, err := hub.Logs(f, int(first), deref(after))
	if err != nil {
		return nil, fmt.Errorf("webhookEventLogs: %w", err)
	}
	return newConn(data.Page[webhooks.Log]{TotalCount: page.TotalCount, Items: page.Logs,
		HasNextPage: page.HasNextPage, HasPreviousPage: page.HasPreviousPage}, webhooks.LogCursor,
		func(l *webhooks.Log) *webhookLogR { return &webhookLogR{l: *l, hub: hub} }), nil
}

// subscriptionInput is AddWebhookSubscriptionInput; the update input adds
// the id.
type subscriptionInput struct {
	Label      string
	Endpoint   string
	Secret     *string
	EventTypes []ID
	Status     string
}

func (in subscriptionInput) hubInput() webhooks.SubscriptionInput {
	types := make([]string, len(in.EventTypes))
	for i, t := range in.EventTypes {
		types[i] = string(t)
	}
	return webhooks.SubscriptionInput{Label: in.Label, Endpoint: in.Endpoint, Secret: in.Secret, EventTypes: types, Status: in.Status}
}

func (r *webhookResolver) AddWebhookSubscription(ctx context.Context, args struct{ Input subscriptionInput }) (*webhookPayloadR, error) {
	if err := projectOnly(ctx); err != nil {
		return nil, err
	}
	s, err := r.hub.Add(args.Input.hubInput())
	if err != nil {
		return rejection(err)
	}
	return &webhookPayloadR{kind: kindSuccess, sub: &webhookSubR{s: s, hub: r.hub}}, nil
}

func (r *webhookResolver) UpdateWebhookSubscription(ctx context.Context, args struct {
	Input struct {
		ID ID
		subscriptionInput
	}
}) (*webhookPayloadR, error) {
	if err := projectOnly(ctx); err != nil {
		return nil, err
	}
	s, err := r.hub.Update(string(args.Input.ID), args.Input.hubInput())
	if err != nil {
		return rejection(err)
	}
	return &webhookPayloadR{kind: kindSuccess, sub: &webhookSubR{s: s, hub: r.hub}}, nil
}

func (r *webhookResolver) RemoveWebhookSubscription(ctx context.Context, args struct {
	Input struct{ WebhookSubscriptionID ID }
}) (*webhookPayloadR, error) {
	if err := projectOnly(ctx); err != nil {
		return nil, err
	}
	if err := r.hub.Remove(string(args.Input.WebhookSubscriptionID)); err != nil {
		return rejection(err)
	}
	return &webhookPayloadR{kind: kindSuccess}, nil
}

// ReplayWebhookEvent delivers at once and waits for the endpoint (at most
// the answer window), since the payload reports the endpoint's status.
func (r *webhookResolver) ReplayWebhookEvent(ctx context.Context, args struct {
	Input struct {
		WebhookEventID ID
		SubscriptionID *ID
	}
}) (*webhookPayloadR, error) {
	if err := projectOnly(ctx); err != nil {
		return nil, err
	}
	l, err := r.hub.Replay(ctx, string(args.Input.WebhookEventID), string(deref(args.Input.SubscriptionID)))
	if err != nil {
		return rejection(err)
	}
	return &webhookPayloadR{kind: kindSuccess, log: &l}, nil
}

// Payload kinds: the success member of each union and the rejections.
const (
	kindSuccess         = "Success"
	kindSubNotFound     = "WebhookSubscriptionNotFoundRejection"
	kindLogNotFound     = "WebhookEventLogNotFoundRejection"
	kindInternal        = "InternalErrorRejection"
	kindInvalidArgument = "InvalidArgumentRejection"
	kindLimits          = "SubscriptionLimitsRejection"
)

// rejection turns a hub error into its rejection; other errors stay
// GraphQL errors.
func rejection(err error) (*webhookPayloadR, error) {
	var inv *webhooks.InvalidInputError
	var lim *webhooks.LimitError
	switch {
	case errors.As(err, &inv):
		return &webhookPayloadR{kind: kindInvalidArgument, message: err.Error(), fields: inv.Fields}, nil
	case errors.As(err, &lim):
		return &webhookPayloadR{kind: kindLimits, message: err.Error(), limits: lim.Limits}, nil
	case errors.Is(err, webhooks.ErrSubscriptionNotFound):
		return &webhookPayloadR{kind: kindSubNotFound, message: err.Error()}, nil
	case errors.Is(err, webhooks.ErrLogNotFound):
		return &webhookPayloadR{kind: kindLogNotFound, message: err.Error()}, nil
	case errors.Is(err, webhooks.ErrTooManySubscriptions):
		return &webhookPayloadR{kind: kindInternal, message: err.Error()}, nil
	}
	return nil, err
}

// webhookPayloadR serves every member of the three payload unions; only
// the fields of the member it converts to are read.
type webhookPayloadR struct {
	kind    string
	message string
	fields  []webhooks.FieldError
	limits  []webhooks.EventTypeCount
	sub     *webhookSubR
	log     *webhooks.Log
}

func (p *webhookPayloadR) Message() string                       { return p.message }
func (p *webhookPayloadR) Code() string                          { return "INVALID_INPUT" }
func (p *webhookPayloadR) WebhookSubscription() *webhookSubR     { return p.sub }
func (p *webhookPayloadR) SubscriptionRemovedSuccessfully() bool { return true }
func (p *webhookPayloadR) WebhookEventLogEntryID() ID            { return ID(p.log.ID) }
func (p *webhookPayloadR) EndpointStatus() *int32                { return optInt(p.log.StatusCode) }

func (p *webhookPayloadR) Fields() []*fieldErrorR {
	out := make([]*fieldErrorR, len(p.fields))
	for i := range p.fields {
		out[i] = &fieldErrorR{f: p.fields[i]}
	}
	return out
}

func (p *webhookPayloadR) SubscriptionLimits() []*limitR {
	out := make([]*limitR, len(p.limits))
	for i := range p.limits {
		out[i] = &limitR{l: p.limits[i]}
	}
	return out
}

func (p *webhookPayloadR) as(kind string) (*webhookPayloadR, bool) { return p, p.kind == kind }
func (p *webhookPayloadR) ToWebhookSubscriptionSuccessPayload() (*webhookPayloadR, bool) {
	return p.as(kindSuccess)
}
func (p *webhookPayloadR) ToRemoveWebhookSubscriptionSuccessPayload() (*webhookPayloadR, bool) {
	return p.as(kindSuccess)
}
func (p *webhookPayloadR) ToReplayWebhookEventSuccessPayload() (*webhookPayloadR, bool) {
	return p.as(kindSuccess)
}
func (p *webhookPayloadR) ToWebhookSubscriptionNotFoundRejection() (*webhookPayloadR, bool) {
	return p.as(kindSubNotFound)
}
func (p *webhookPayloadR) ToWebhookEventLogNotFoundRejection() (*webhookPayloadR, bool) {
	return p.as(kindLogNotFound)
}
func (p *webhookPayloadR) ToInternalErrorRejection() (*webhookPayloadR, bool) {
	return p.as(kindInternal)
}
func (p *webhookPayloadR) ToInvalidArgumentRejection() (*webhookPayloadR, bool) {
	return p.as(kindInvalidArgument)
}
func (p *webhookPayloadR) ToSubscriptionLimitsRejection() (*webhookPayloadR, bool) {
	return p.as(kindLimits)
}

type fieldErrorR struct{ f webhooks.FieldError }

func (f *fieldErrorR) Name() string     { return f.f.Name }
func (f *fieldErrorR) Errors() []string { return f.f.Errors }

type limitR struct{ l webhooks.EventTypeCount }

func (l *limitR) EventType() string        { return l.l.EventType }
func (l *limitR) SubscriptionCount() int32 { return int32(l.l.Count) }

func optInt(p *int) *int32 {
	if p == nil {
		return nil
	}
	v := int32(*p)
	return &v
}

type webhookSubR struct {
	s   webhooks.Subscription
	hub *webhooks.Hub
}

func (s *webhookSubR) ID() ID               { return ID(s.s.ID) }
func (s *webhookSubR) Label() string        { return s.s.Label }
func (s *webhookSubR) Endpoint() string     { return s.s.Endpoint }
func (s *webhookSubR) Secret() *string      { return optString(s.s.Secret) }
func (s *webhookSubR) EventTypes() []string { return s.s.EventTypes }
func (s *webhookSubR) CreatedAt() scalar    { return dateTime(s.s.CreatedAt) }
func (s *webhookSubR) UpdatedAt() scalar    { return dateTime(s.s.UpdatedAt) }
func (s *webhookSubR) StatusInfo() *webhookSubStatusR {
	return &webhookSubStatusR{status: s.s.Status, at: s.s.StatusChangedAt}
}

func (s *webhookSubR) Kpi() *webhookKPIR { return &webhookKPIR{k: s.hub.KPI(s.s.ID)} }

func (s *webhookSubR) WebhookEventLogs(args struct {
	First   int32
	After   *string
	Filters *nestedLogFiltersInput
}) (*webhookLogConnR, error) {
	f, err := args.Filters.filter()
	if err != nil {
		return nil, err
	}
	f.SubscriptionID = s.s.ID
	return logConnection(s.hub, f, args.First, args.After)
}

type webhookSubStatusR struct {
	status string
	at     time.Time
}

func (s *webhookSubStatusR) Status() string     { return s.status }
func (s *webhookSubStatusR) EnabledAt() scalar  { return dateTime(s.at) }
func (s *webhookSubStatusR) DisabledAt() scalar { return dateTime(s.at) }
func (s *webhookSubStatusR) BrokenAt() scalar   { return dateTime(s.at) }
func (s *webhookSubStatusR) ToWebhookSubscriptionEnabledStatusInfo() (*webhookSubStatusR, bool) {
	return s, s.status == webhooks.StatusEnabled
}
func (s *webhookSubStatusR) ToWebhookSubscriptionDisabledStatusInfo() (*webhookSubStatusR, bool) {
	return s, s.status == webhooks.StatusDisabled
}
func (s *webhookSubStatusR) ToWebhookSubscriptionBrokenStatusInfo() (*webhookSubStatusR, bool) {
	return s, false
}

type webhookKPIR struct{ k webhooks.KPI }

func (k *webhookKPIR) TotalHits() int32   { return int32(k.k.TotalHits) }
func (k *webhookKPIR) ErrorRate() float64 { return k.k.ErrorRate }

type webhookLogR struct {
	l   webhooks.Log
	hub *webhooks.Hub
}

func (l *webhookLogR) ID() ID                   { return ID(l.l.ID) }
func (l *webhookLogR) CreatedAt() scalar        { return dateTime(l.l.CreatedAt) }
func (l *webhookLogR) EventID() ID              { return ID(l.l.EventID) }
func (l *webhookLogR) EventDate() scalar        { return dateTime(l.l.EventDate) }
func (l *webhookLogR) EventType() string        { return l.l.EventType }
func (l *webhookLogR) ResourceID() ID           { return ID(l.l.ResourceID) }
func (l *webhookLogR) Duration() int32          { return int32(l.l.Duration.Milliseconds()) }
func (l *webhookLogR) RequestPayload() string   { return l.l.RequestPayload }
func (l *webhookLogR) ResponsePayload() *string { return l.l.ResponsePayload }
func (l *webhookLogR) StatusCode() *int32       { return optInt(l.l.StatusCode) }
func (l *webhookLogR) StatusText() *string {
	s := l.l.StatusText()
	return &s
}
func (l *webhookLogR) RetryCount() *int32                { return optInt(l.l.RetryCount) }
func (l *webhookLogR) WebhookSubscriptionLabel() *string { return optString(l.l.SubscriptionLabel) }
func (l *webhookLogR) WebhookSubscriptionEndpoint() *string {
	return optString(l.l.SubscriptionEndpoint)
}

// WebhookSubscription is the subscription as it is now; null once removed.
func (l *webhookLogR) WebhookSubscription() *webhookSubR {
	s, ok := l.hub.Subscription(l.l.SubscriptionID)
	if !ok {
		return nil
	}
	return &webhookSubR{s: s, hub: l.hub}
}
