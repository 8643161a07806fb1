package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// event is what one POST announces.
type event struct {
	ID, Type, ResourceID string
	Date                 time.Time
	payload              string // the exact JSON body
}

// job is one attempt to deliver an event to a subscription.
type job struct {
	ev    event
	subID string
	rank  int       // 0 for the first attempt
	due   time.Time // real time; only retries wait
}

// Emit announces an event to every enabled subscription of its type. It
// only queues the attempts, so the request that caused the event is never
// held up by a slow or dead endpoint.
func (h *Hub) Emit(eventType, resourceID string) {
	date := h.cfg.Now().UTC()
	ev := event{ID: newID(), Type: eventType, ResourceID: resourceID, Date: date}
	// Field order as the platform documents it.
	body, err := json.Marshal(struct {
		EventType  string `json:"eventType"`
		EventID    string `json:"eventId"`
		EventDate  string `json:"eventDate"`
		ProjectID  string `json:"projectId"`
		ResourceID string `json:"resourceId"`
	}{eventType, ev.ID, timestamp(date), h.cfg.ProjectID, resourceID})
	if err != nil {
		panic(fmt.Sprintf("webhooks: encode a payload of strings: %v", err))
	}
	ev.payload = string(body)

	h.mu.Lock()
	var overflow []Subscription
	for _, s := range h.subs {
		if s.Status != StatusEnabled || !s.subscribes(eventType) {
			continue
		}
		if len(h.ready)+len(h.retries) >= maxQueued {
			overflow = append(overflow, s.clone())
			continue
		}
		h.ready = append(h.ready, job{ev: ev, subID: s.ID})
	}
	h.mu.Unlock()
	h.signal()
	// An attempt that cannot even be queued is still a failed attempt the
	// partner can see in the log.
	for _, s := range overflow {
		l := newLog(ev, s)
		l.CreatedAt = date
		l.RetryCount = new(int)
		l.ResponsePayload = errorPayload(fmt.Sprintf("the emulator already has %d delivery attempts waiting; this one was dropped", maxQueued))
		h.record(l)
	}
}

func (h *Hub) signal() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// schedule hands due attempts to the workers, first attempts before
// retries that fell due later.
func (h *Hub) schedule() {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		h.mu.Lock()
		now := time.Now()
		n := 0
		for n < len(h.retries) && !h.retries[n].due.After(now) {
			n++
		}
		if n > 0 {
			h.ready = append(h.ready, h.retries[:n]...)
			h.retries = h.retries[n:]
		}
		var next job
		var work chan job
		if len(h.ready) > 0 {
			next, work = h.ready[0], h.work
		}
		var timerC <-chan time.Time
		if len(h.retries) > 0 {
			if timer == nil {
				timer = time.NewTimer(h.retries[0].due.Sub(now))
			} else {
				timer.Reset(h.retries[0].due.Sub(now))
			}
			timerC = timer.C
		}
		h.mu.Unlock()

		select {
		case work <- next:
			h.mu.Lock()
			// Only this goroutine removes from ready, so next is still
			// its head.
			h.ready[0] = job{}
			h.ready = h.ready[1:]
			h.mu.Unlock()
		case <-h.wake:
		case <-timerC:
		case <-h.ctx.Done():
			return
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// deliverLoop is one worker.
func (h *Hub) deliverLoop() {
	for {
		select {
		case j := <-h.work:
			h.attempt(j)
		case <-h.ctx.Done():
			return
		}
	}
}

// attempt makes one automatic attempt with the subscription as it is now:
// a removed or disabled subscription gets no more attempts.
func (h *Hub) attempt(j job) {
	sub, ok := h.Subscription(j.subID)
	if !ok || sub.Status != StatusEnabled {
		return
	}
	l := h.post(h.ctx, j.ev, sub)
	if h.ctx.Err() != nil {
		return // stopping: the attempt was cut short by Close, not by the endpoint
	}
	rank := j.rank
	l.RetryCount = &rank
	h.record(l)
	if l.Success || j.rank >= h.cfg.MaxRetries {
		return
	}
	h.mu.Lock()
	h.retries = append(h.retries, job{ev: j.ev, subID: j.subID, rank: j.rank + 1, due: time.Now().Add(h.cfg.RetryInterval)})
	h.mu.Unlock()
	h.signal()
}

func newLog(ev event, sub Subscription) Log {
	return Log{
		ID:                   newID(),
		EventID:              ev.ID,
		EventType:            ev.Type,
		ResourceID:           ev.ResourceID,
		EventDate:            ev.Date,
		RequestPayload:       ev.payload,
		SubscriptionID:       sub.ID,
		SubscriptionLabel:    sub.Label,
		SubscriptionEndpoint: sub.Endpoint,
	}
}

func errorPayload(msg string) *string {
	b, _ := json.Marshal(map[string]string{"error": msg})
	s := string(b)
	return &s
}

// post sends the event once and describes the outcome; it does not store
// it.
func (h *Hub) post(ctx context.Context, ev event, sub Subscription) (l Log) {
	l = newLog(ev, sub)
	l.CreatedAt = h.cfg.Now().UTC()
	start := time.Now()
	defer func() { l.Duration = time.Since(start) }()

	u, err := url.Parse(sub.Endpoint)
	if err != nil {
		l.ResponsePayload = errorPayload("the endpoint is not a URL")
		return l
	}
	if reservedInvalid(u.Hostname()) {
		// RFC 6761: .invalid never resolves, so no DNS query (which may
		// take seconds without a network) is worth sending.
		l.ResponsePayload = errorPayload(fmt.Sprintf("no such host %s: names under .invalid never resolve (RFC 6761)", u.Hostname()))
		return l
	}
	ctx, cancel := context.WithTimeout(ctx, h.cfg.AnswerWindow)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sub.Endpoint, strings.NewReader(ev.payload))
	if err != nil {
		l.ResponsePayload = errorPayload("the endpoint is not a URL a request can be sent to")
		return l
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "partnertui-emulator-webhooks")
	if sub.Secret != "" {
		req.Header.Set("x-swan-secret", sub.Secret)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		l.ResponsePayload = errorPayload(h.describe(ctx, err))
		return l
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	code := resp.StatusCode
	l.StatusCode = &code
	if err != nil {
		// The status arrived but the body did not, within the window.
		l.ResponsePayload = errorPayload(h.describe(ctx, err))
		return l
	}
	l.Success = code >= 200 && code < 300
	if len(body) > 0 {
		s := strings.ToValidUTF8(string(body), "\uFFFD")
		l.ResponsePayload = &s
	}
	return l
}

// describe words a transport failure for the log.
func (h *Hub) describe(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("the endpoint did not answer within %s", h.cfg.AnswerWindow)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return "the request failed: " + err.Error()
}

// reservedInvalid reports whether host is under the .invalid top-level
// domain.
func reservedInvalid(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return host == "invalid" || strings.HasSuffix(host, ".invalid")
}

// Replay delivers an earlier event again, now, and waits for the answer:
// the platform's replayWebhookEvent returns the endpoint's status. id is an
// event id (the newest entry of that event is replayed) or a log entry id.
// subscriptionID chooses another subscription than the entry's own.
func (h *Hub) Replay(ctx context.Context, id, subscriptionID string) (Log, error) {
	src, ok := h.findEvent(id)
	if !ok {
		return Log{}, ErrLogNotFound
	}
	if subscriptionID == "" {
		subscriptionID = src.SubscriptionID
	}
	sub, ok := h.Subscription(subscriptionID)
	if !ok {
		return Log{}, ErrSubscriptionNotFound
	}
	ev := event{ID: src.EventID, Type: src.EventType, ResourceID: src.ResourceID, Date: src.EventDate, payload: src.RequestPayload}
	// Close cancels a replay too, so a server that stops does not wait out
	// the answer window.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(h.ctx, cancel)
	defer stop()
	return h.record(h.post(ctx, ev, sub)), nil
}

// findEvent returns the entry with this id, else the newest entry of the
// event with this id.
func (h *Hub) findEvent(id string) (Log, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var byEvent *Log
	for i := len(h.logs) - 1; i >= 0; i-- {
		l := &h.logs[i]
		if l.ID == id {
			return *l, true
		}
		if byEvent == nil && l.EventID == id {
			byEvent = l
		}
	}
	if byEvent != nil {
		return *byEvent, true
	}
	return Log{}, false
}
