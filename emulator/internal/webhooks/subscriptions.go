package webhooks

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Subscription statuses. Broken exists on the platform ("delivery fails
// repeatedly") but the emulator never sets it: `partnertui listen --create`
// subscribes an unreachable placeholder endpoint and reads the event log,
// which a broken subscription would stop filling.
const (
	StatusEnabled  = "Enabled"
	StatusDisabled = "Disabled"
)

// Field limits of AddWebhookSubscriptionInput (schema descriptions).
const (
	maxLabelLen    = 255
	maxEndpointLen = 255
	maxSecretLen   = 36
)

// Subscription is one registered endpoint.
type Subscription struct {
	ID         string
	Label      string
	Endpoint   string
	Secret     string // empty: none
	EventTypes []string
	Status     string // StatusEnabled | StatusDisabled
	// StatusChangedAt is when Status took its value; UpdatedAt follows the
	// other fields only, as the schema describes updatedAt.
	StatusChangedAt time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time
	seq             uint64
}

func (s *Subscription) clone() Subscription {
	c := *s
	c.EventTypes = slices.Clone(s.EventTypes)
	return c
}

func (s *Subscription) subscribes(eventType string) bool {
	return slices.Contains(s.EventTypes, eventType)
}

// SubscriptionInput is what add and update accept.
type SubscriptionInput struct {
	Label      string
	Endpoint   string
	Secret     *string
	EventTypes []string
	Status     string // StatusEnabled | StatusDisabled
}

// InvalidInputError lists the input fields that were refused.
type InvalidInputError struct{ Fields []FieldError }

// FieldError is one refused field with its reasons.
type FieldError struct {
	Name   string
	Errors []string
}

func (e *InvalidInputError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Name + ": " + strings.Join(f.Errors, "; ")
	}
	return "invalid input: " + strings.Join(parts, ", ")
}

// LimitError says which event types already have the maximum number of
// enabled subscriptions.
type LimitError struct {
	Max    int
	Limits []EventTypeCount
}

// EventTypeCount is an event type with its enabled subscriptions.
type EventTypeCount struct {
	EventType string
	Count     int
}

func (e *LimitError) Error() string {
	names := make([]string, len(e.Limits))
	for i, l := range e.Limits {
		names[i] = l.EventType
	}
	return fmt.Sprintf("at most %d enabled subscriptions are allowed per event type, and %s already have them: disable or remove one first", e.Max, strings.Join(names, ", "))
}

// validate checks the input against the schema's documented limits.
func validate(in SubscriptionInput) error {
	var fields []FieldError
	add := func(name, msg string) {
		for i := range fields {
			if fields[i].Name == name {
				fields[i].Errors = append(fields[i].Errors, msg)
				return
			}
		}
		fields = append(fields, FieldError{Name: name, Errors: []string{msg}})
	}
	switch n := utf8.RuneCountInString(in.Label); {
	case strings.TrimSpace(in.Label) == "":
		add("label", "must not be empty")
	case n > maxLabelLen:
		add("label", fmt.Sprintf("must be at most %d characters, got %d", maxLabelLen, n))
	}
	if n := utf8.RuneCountInString(in.Endpoint); n > maxEndpointLen {
		add("endpoint", fmt.Sprintf("must be at most %d characters, got %d", maxEndpointLen, n))
	} else if u, err := url.Parse(in.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		add("endpoint", "must be an absolute http or https URL")
	}
	if in.Secret != nil {
		if n := utf8.RuneCountInString(*in.Secret); n > maxSecretLen {
			add("secret", fmt.Sprintf("must be at most %d characters, got %d", maxSecretLen, n))
		}
		// It travels in the x-swan-secret header, which carries no control
		// character but the tab: such a secret could never be delivered.
		if strings.ContainsFunc(*in.Secret, func(r rune) bool { return (r < 0x20 && r != '\t') || r == 0x7f }) {
			add("secret", "must not hold control characters: it is sent in the x-swan-secret header")
		}
	}
	known := EventTypes()
	if len(in.EventTypes) == 0 {
		add("eventTypes", "must name at least one of webhookEventTypes")
	}
	for i, t := range in.EventTypes {
		if !slices.Contains(known, t) {
			add("eventTypes", fmt.Sprintf("%q is not one of webhookEventTypes", t))
		}
		if slices.Contains(in.EventTypes[:i], t) {
			add("eventTypes", fmt.Sprintf("%q is listed twice: list each event type once", t))
		}
	}
	if in.Status != StatusEnabled && in.Status != StatusDisabled {
		add("status", "must be Enabled or Disabled")
	}
	if len(fields) > 0 {
		return &InvalidInputError{Fields: fields}
	}
	return nil
}

// checkLimitLocked refuses enabling a subscription for an event type that
// already has the maximum of other enabled subscriptions.
func (h *Hub) checkLimitLocked(in SubscriptionInput, except string) error {
	if in.Status != StatusEnabled {
		return nil
	}
	var over []EventTypeCount
	for _, t := range in.EventTypes {
		n := 0
		for _, s := range h.subs {
			if s.ID != except && s.Status == StatusEnabled && s.subscribes(t) {
				n++
			}
		}
		if n >= h.cfg.SubscriptionLimit {
			over = append(over, EventTypeCount{EventType: t, Count: n})
		}
	}
	if len(over) > 0 {
		return &LimitError{Max: h.cfg.SubscriptionLimit, Limits: over}
	}
	return nil
}

func secretOf(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Add registers a subscription.
func (h *Hub) Add(in SubscriptionInput) (Subscription, error) {
	if err := validate(in); err != nil {
		return Subscription{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) >= maxSubscriptions {
		return Subscription{}, ErrTooManySubscriptions
	}
	if err := h.checkLimitLocked(in, ""); err != nil {
		return Subscription{}, err
	}
	now := h.cfg.Now().UTC()
	h.subSeq++
	s := &Subscription{
		ID:              newID(),
		Label:           in.Label,
		Endpoint:        in.Endpoint,
		Secret:          secretOf(in.Secret),
		EventTypes:      slices.Clone(in.EventTypes),
		Status:          in.Status,
		StatusChangedAt: now,
		CreatedAt:       now,
		UpdatedAt:       now,
		seq:             h.subSeq,
	}
	h.subs = append(h.subs, s)
	return s.clone(), nil
}

// Update replaces a subscription's fields.
func (h *Hub) Update(id string, in SubscriptionInput) (Subscription, error) {
	if err := validate(in); err != nil {
		return Subscription{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.findLocked(id)
	if s == nil {
		return Subscription{}, ErrSubscriptionNotFound
	}
	if err := h.checkLimitLocked(in, id); err != nil {
		return Subscription{}, err
	}
	now := h.cfg.Now().UTC()
	if s.Label != in.Label || s.Endpoint != in.Endpoint || s.Secret != secretOf(in.Secret) || !slices.Equal(s.EventTypes, in.EventTypes) {
		s.UpdatedAt = now
	}
	if s.Status != in.Status {
		s.StatusChangedAt = now
	}
	s.Label, s.Endpoint, s.Secret = in.Label, in.Endpoint, secretOf(in.Secret)
	s.EventTypes, s.Status = slices.Clone(in.EventTypes), in.Status
	return s.clone(), nil
}

// Remove deletes a subscription; its log entries stay, and its pending
// retries are dropped when their turn comes.
func (h *Hub) Remove(id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	i := slices.IndexFunc(h.subs, func(s *Subscription) bool { return s.ID == id })
	if i < 0 {
		return ErrSubscriptionNotFound
	}
	h.subs = slices.Delete(h.subs, i, i+1)
	return nil
}

// Subscription returns one subscription.
func (h *Hub) Subscription(id string) (Subscription, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.findLocked(id); s != nil {
		return s.clone(), true
	}
	return Subscription{}, false
}

func (h *Hub) findLocked(id string) *Subscription {
	for _, s := range h.subs {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// SubscriptionPage is one page of subscriptions, oldest first.
type SubscriptionPage struct {
	Subscriptions   []Subscription
	TotalCount      int
	HasNextPage     bool
	HasPreviousPage bool
}

// Subscriptions pages through the subscriptions in creation order. The
// cursor names a position, not a subscription, so removing the subscription
// a cursor came from does not break the next page.
func (h *Hub) Subscriptions(first int, after string) (SubscriptionPage, error) {
	from, err := afterCursor(after, "subscription", 0)
	if err != nil {
		return SubscriptionPage{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	start, _ := slices.BinarySearchFunc(h.subs, from+1, func(s *Subscription, seq uint64) int {
		return cmp.Compare(s.seq, seq)
	})
	end := min(start+first, len(h.subs))
	page := SubscriptionPage{
		TotalCount:      len(h.subs),
		HasNextPage:     end < len(h.subs),
		HasPreviousPage: start > 0,
	}
	for _, s := range h.subs[start:end] {
		page.Subscriptions = append(page.Subscriptions, s.clone())
	}
	return page, nil
}

// SubscriptionCursor is the opaque cursor of a subscription.
func SubscriptionCursor(s *Subscription) string { return encodeCursor("subscription", s.seq) }

func encodeCursor(kind string, seq uint64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + strconv.FormatUint(seq, 10)))
}

// afterCursor reads an `after` argument of a list of kind; none is the
// position an empty one stands for.
func afterCursor(after, kind string, none uint64) (uint64, error) {
	if after == "" {
		return none, nil
	}
	seq, ok := decodeCursor(after, kind)
	if !ok {
		return 0, ErrBadCursor
	}
	return seq, nil
}

func decodeCursor(c, kind string) (uint64, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	k, n, ok := strings.Cut(string(raw), ":")
	if !ok || k != kind {
		return 0, false
	}
	seq, err := strconv.ParseUint(n, 10, 64)
	return seq, err == nil && seq > 0
}
