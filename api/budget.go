package api

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// budget is the sliding-window request count. It is not safe for concurrent
// use on its own: the Client guards it with its mutex.
type budget struct {
	limit  int
	window time.Duration
	sent   []time.Time // send times inside the window, oldest first

	// The server's own view, from X-RateLimit-* headers; when known it
	// overrides the local estimate until its reset time.
	srvKnown     bool
	srvLimit     int
	srvRemaining int
	srvReset     time.Time
	srvTakes     int // b.takes when the headers were read

	takes int // requests recorded since the start, minus releases
}

func (b *budget) prune(now time.Time) {
	cut := now.Add(-b.window)
	i := 0
	for i < len(b.sent) && !b.sent[i].After(cut) {
		i++
	}
	if i > 0 {
		n := copy(b.sent, b.sent[i:])
		b.sent = b.sent[:n]
	}
}

func (b *budget) serverActive(now time.Time) bool {
	return b.srvKnown && now.Before(b.srvReset)
}

// capacity is the number of requests allowed per window.
func (b *budget) capacity() int {
	if b.srvKnown && b.srvLimit > 0 {
		return b.srvLimit
	}
	return b.limit
}

// used is the number of requests counted against the current window.
func (b *budget) used(now time.Time) int {
	b.prune(now)
	if !b.serverActive(now) {
		return len(b.sent)
	}
	// The server counted everything up to srvAt; add what we sent since.
	return b.srvLimit - b.srvRemaining + max(b.takes-b.srvTakes, 0)
}

// take records a request at now if the budget allows it; otherwise it
// returns the earliest time at which one may be allowed.
func (b *budget) take(now time.Time) (ok bool, wakeAt time.Time) {
	used := b.used(now)
	capacity := b.capacity()
	if used < capacity {
		b.sent = append(b.sent, now)
		b.takes++
		return true, time.Time{}
	}
	if b.serverActive(now) {
		return false, b.srvReset
	}
	// The (used-capacity)th oldest request leaving the window frees a slot.
	idx := used - capacity
	if idx >= len(b.sent) {
		idx = len(b.sent) - 1
	}
	if idx < 0 {
		return false, now.Add(b.window)
	}
	return false, b.sent[idx].Add(b.window)
}

// release forgets a request recorded at t that was never sent (refused by
// the guard or failed for want of a token).
func (b *budget) release(t time.Time) {
	for i := len(b.sent) - 1; i >= 0; i-- {
		if b.sent[i].Equal(t) {
			b.sent = append(b.sent[:i], b.sent[i+1:]...)
			b.takes--
			return
		}
	}
}

// observe reads X-RateLimit-Limit/Remaining/Reset when present.
func (b *budget) observe(h http.Header, now time.Time) {
	ls, rs := h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining")
	if ls == "" || rs == "" {
		return
	}
	limit, err1 := strconv.Atoi(strings.TrimSpace(ls))
	remaining, err2 := strconv.Atoi(strings.TrimSpace(rs))
	if err1 != nil || err2 != nil || limit <= 0 || remaining < 0 {
		return
	}
	reset, ok := parseReset(h.Get("X-RateLimit-Reset"), now)
	if !ok {
		reset = now.Add(b.window)
	}
	b.srvKnown = true
	b.srvLimit = limit
	b.srvRemaining = min(remaining, limit)
	b.srvReset = reset
	b.srvTakes = b.takes
}

// parseReset accepts seconds until the reset or a Unix timestamp (servers
// use both conventions; a value above 10^9 can only be a timestamp).
func parseReset(v string, now time.Time) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		if t, err := http.ParseTime(v); err == nil {
			return t, true
		}
		return time.Time{}, false
	}
	if n > 1_000_000_000 {
		return time.Unix(n, 0), true
	}
	return now.Add(time.Duration(n) * time.Second), true
}

// parseRetryAfter reads Retry-After as seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return time.Time{}, false
		}
		return now.Add(time.Duration(n) * time.Second), true
	}
	if t, err := http.ParseTime(v); err == nil {
		if t.Before(now) {
			return now, true
		}
		return t, true
	}
	return time.Time{}, false
}
