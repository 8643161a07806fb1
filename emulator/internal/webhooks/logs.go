package webhooks

import (
	"math"
	"time"
)

// Log is one delivery attempt of one event to one subscription.
type Log struct {
	ID         string
	EventID    string
	EventType  string
	ResourceID string
	EventDate  time.Time
	CreatedAt  time.Time
	Duration   time.Duration
	// RequestPayload is the exact body the endpoint was sent.
	RequestPayload string
	// ResponsePayload is the start of the endpoint's answer, or a JSON
	// {"error": …} when no answer came; nil only for an empty answer.
	ResponsePayload *string
	StatusCode      *int // nil when no HTTP answer came
	Success         bool // a 2xx answer within the answer window
	// The subscription as it was at the attempt.
	SubscriptionID       string
	SubscriptionLabel    string
	SubscriptionEndpoint string
	// RetryCount is the attempt's rank (0 for the first); nil for a manual
	// replay, which is no automatic retry.
	RetryCount *int
	seq        uint64
}

// StatusText is the schema's StatusText of the attempt.
func (l *Log) StatusText() string {
	if l.Success {
		return "Success"
	}
	return "Failure"
}

// LogFilter selects log entries; zero fields select everything.
type LogFilter struct {
	StatusCode     *int
	StatusText     string // "Success" | "Failure"
	Start, End     time.Time
	EventType      string
	EventID        string
	ResourceID     string
	SubscriptionID string
}

// match reports whether the entry passes every set field; dates bound the
// entry's createdAt, both ends included.
func (f *LogFilter) match(l *Log) bool {
	return (f.StatusCode == nil || (l.StatusCode != nil && *l.StatusCode == *f.StatusCode)) &&
		(f.StatusText == "" || f.StatusText == l.StatusText()) &&
		(f.Start.IsZero() || !l.CreatedAt.Before(f.Start)) &&
		(f.End.IsZero() || !l.CreatedAt.After(f.End)) &&
		(f.EventType == "" || f.EventType == l.EventType) &&
		(f.EventID == "" || f.EventID == l.EventID) &&
		(f.ResourceID == "" || f.ResourceID == l.ResourceID) &&
		(f.SubscriptionID == "" || f.SubscriptionID == l.SubscriptionID)
}

// record stores an entry, forgetting the oldest ones at maxLogs.
func (h *Hub) record(l Log) Log {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.logSeq++
	l.seq = h.logSeq
	if len(h.logs) >= maxLogs {
		// Forget the oldest tenth at once, so the copy is paid once per
		// thousand entries; the array is reused, never regrown.
		n := copy(h.logs, h.logs[maxLogs/10:])
		clear(h.logs[n:])
		h.logs = h.logs[:n]
	}
	h.logs = append(h.logs, l)
	close(h.recorded)
	h.recorded = make(chan struct{})
	return l
}

// Recorded returns a channel closed when the next log entry is recorded,
// so a watcher waits for deliveries without polling: take the channel,
// read the log, then wait on the channel if the entry is not there yet.
func (h *Hub) Recorded() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.recorded
}

// Log returns one entry by its id.
func (h *Hub) Log(id string) (Log, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.logs) - 1; i >= 0; i-- {
		if h.logs[i].ID == id {
			return h.logs[i], true
		}
	}
	return Log{}, false
}

// LogPage is one page of log entries, newest first.
type LogPage struct {
	Logs            []Log
	TotalCount      int
	HasNextPage     bool
	HasPreviousPage bool
}

// Logs pages through the matching entries, newest first. A cursor names a
// position in the log, so entries recorded while a client pages appear
// before its first page and never shift the pages after it.
func (h *Hub) Logs(f LogFilter, first int, after string) (LogPage, error) {
	before, err := afterCursor(after, "log", math.MaxUint64)
	if err != nil {
		return LogPage{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var page LogPage
	for i := len(h.logs) - 1; i >= 0; i-- {
		l := &h.logs[i]
		if !f.match(l) {
			continue
		}
		page.TotalCount++
		switch {
		case l.seq >= before:
			page.HasPreviousPage = true
		case len(page.Logs) < first:
			page.Logs = append(page.Logs, *l)
		default:
			page.HasNextPage = true
		}
	}
	return page, nil
}

// LogCursor is the opaque cursor of a log entry.
func LogCursor(l *Log) string { return encodeCursor("log", l.seq) }

// KPI is a subscription's delivery record over the last 7 days.
type KPI struct {
	TotalHits int
	ErrorRate float64 // percentage of failed attempts, rounded
}

// KPI counts the subscription's attempts of the last 7 days.
func (h *Hub) KPI(subscriptionID string) KPI {
	since := h.cfg.Now().Add(-7 * 24 * time.Hour)
	h.mu.Lock()
	defer h.mu.Unlock()
	var k KPI
	failed := 0
	for i := range h.logs {
		l := &h.logs[i]
		if l.SubscriptionID != subscriptionID || l.CreatedAt.Before(since) {
			continue
		}
		k.TotalHits++
		if !l.Success {
			failed++
		}
	}
	if k.TotalHits > 0 {
		k.ErrorRate = math.Round(float64(failed) * 100 / float64(k.TotalHits))
	}
	return k
}
