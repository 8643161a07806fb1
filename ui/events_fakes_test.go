package ui

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/partnertui/partnertui/api"
)

// fakeProjectAPI serves an event log from memory, newest first, with
// cursor paging (a cursor names a log entry) and the log's three filters.
type fakeProjectAPI struct {
	mu        sync.Mutex
	logs      []api.WebhookEventLog // newest first
	calls     []api.WebhookEventLogsParams
	replays   []string // "eventID→subscriptionID"
	typeCalls int
	err       error // returned by every call when set
	status    api.Status
	seq       int
	// txsOf is the fake API whose transactions Transaction finds.
	txsOf   *fakeAPI
	txCalls int
	warms   int // WarmToken calls
	// objCalls are the reads of the onboardings and capital deposits.
	objCalls int
}

func newFakeProjectAPI(n int) *fakeProjectAPI {
	f := &fakeProjectAPI{status: api.Status{Env: "sandbox", Used: 12, Limit: 2000}}
	for i := range n {
		f.logs = append(f.logs, makeLog(i, testNow.Add(-time.Duration(i)*47*time.Second)))
	}
	f.seq = n
	return f
}

var logTypes = []string{"Transaction.Booked", "Transaction.Pending", "Account.Updated", "Card.Created", "AccountMembership.Bound", "User.Joined"}

// makeLog is delivery i: every third one failed (500 or no answer), some
// are retries, and the payload is the platform's.
func makeLog(i int, at time.Time) api.WebhookEventLog {
	typ := logTypes[i%len(logTypes)]
	res := fmt.Sprintf("tx-%d", i)
	switch typ {
	case "Account.Updated":
		res = "acc-1"
	case "Card.Created":
		res = fmt.Sprintf("card-%d", i)
	case "AccountMembership.Bound":
		res = fmt.Sprintf("mem-%d", i)
	case "User.Joined":
		res = fmt.Sprintf("user-%d", i)
	}
	code, text, retries := 200, "Success", i%4
	l := api.WebhookEventLog{
		ID: fmt.Sprintf("log-%d", i), CreatedAt: at, EventID: fmt.Sprintf("evt-%d", i), EventDate: at, EventType: typ,
		ResourceID: res, Duration: 30 + i,
		RequestPayload: fmt.Sprintf(`{"eventType":%q,"eventId":"evt-%d","eventDate":%q,"projectId":"project-1","resourceId":%q}`,
			typ, i, at.UTC().Format(time.RFC3339Nano), res),
		ResponsePayload:     `{"ok":true}`,
		WebhookSubscription: &api.WebhookSubscription{ID: "sub-1", Label: "my hook", Endpoint: "https://hooks.example.com/swan"},
	}
	switch i % 3 {
	case 1:
		code, text = 500, "Failure"
		l.ResponsePayload = "internal error"
	case 2:
		if i%2 == 0 {
			text = "Failure"
			l.ResponsePayload = `{"error":"no answer within 10s"}`
			l.StatusText, l.RetryCount = text, &retries
			return l
		}
	}
	l.StatusCode, l.StatusText, l.RetryCount = &code, text, &retries
	return l
}

// add logs a new delivery, newest.
func (f *fakeProjectAPI) add(typ, resource string) api.WebhookEventLog {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := makeLog(f.seq, testNow)
	f.seq++
	l.EventType, l.ResourceID = typ, resource
	f.logs = append([]api.WebhookEventLog{l}, f.logs...)
	return l
}

func (f *fakeProjectAPI) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls) + len(f.replays) + f.typeCalls
}

func (f *fakeProjectAPI) WebhookEventLogs(ctx context.Context, p api.WebhookEventLogsParams) (*api.Page[api.WebhookEventLog], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, p)
	if f.err != nil {
		return nil, f.err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows := slices.DeleteFunc(slices.Clone(f.logs), func(l api.WebhookEventLog) bool {
		return (p.EventType != "" && l.EventType != p.EventType) || (p.StatusText != "" && l.StatusText != p.StatusText) ||
			(p.ResourceID != "" && l.ResourceID != p.ResourceID)
	})
	start := 0
	if p.After != "" {
		i := slices.IndexFunc(rows, func(l api.WebhookEventLog) bool { return l.ID == p.After })
		if i < 0 {
			return nil, fmt.Errorf("bad cursor %q", p.After)
		}
		start = i + 1
	}
	first := p.First
	if first <= 0 {
		first = 100
	}
	end := min(start+first, len(rows))
	page := &api.Page[api.WebhookEventLog]{Items: rows[start:end], TotalCount: len(rows)}
	page.PageInfo.HasNextPage = end < len(rows)
	if end > start {
		page.PageInfo.StartCursor, page.PageInfo.EndCursor = rows[start].ID, rows[end-1].ID
	}
	return page, nil
}

func (f *fakeProjectAPI) WebhookEventLog(ctx context.Context, id string) (*api.WebhookEventLog, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, l := range f.logs {
		if l.ID == id {
			return &l, nil
		}
	}
	return nil, fmt.Errorf("webhook event log %s: %w", id, api.ErrNotFound)
}

func (f *fakeProjectAPI) ReplayWebhookEvent(ctx context.Context, eventID, subscriptionID string) (*api.WebhookReplay, error) {
	f.mu.Lock()
	f.replays = append(f.replays, eventID+"→"+subscriptionID)
	err := f.err
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	l := f.add("Transaction.Booked", "tx-replayed")
	f.mu.Lock()
	f.logs[0].RetryCount = nil // a manual replay is no retry
	f.mu.Unlock()
	code := 200
	return &api.WebhookReplay{WebhookEventLogEntryID: l.ID, EndpointStatus: &code}, nil
}

// Transaction finds a transaction among txsOf's accounts'.
func (f *fakeProjectAPI) Transaction(ctx context.Context, id string) (*api.TransactionDetail, error) {
	f.mu.Lock()
	f.txCalls++
	f.mu.Unlock()
	if f.txsOf != nil {
		if t, ok := f.txsOf.transaction(id); ok {
			return &t, nil
		}
	}
	return nil, fmt.Errorf("transaction %s: %w", id, api.ErrNotFound)
}

func (f *fakeProjectAPI) WebhookEventTypes(ctx context.Context) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.typeCalls++
	return slices.Clone(logTypes), nil
}

func (f *fakeProjectAPI) WarmToken() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.warms++
	return f.err
}

func (f *fakeProjectAPI) warmed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.warms
}

func (f *fakeProjectAPI) Status() api.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

func (f *fakeProjectAPI) setStatus(st api.Status) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status = st
}
