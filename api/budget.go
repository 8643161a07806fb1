package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/partnertui/partnertui/internal/budget"
)

// WaitReason says why requests wait instead of being sent.
type WaitReason = budget.Reason

// The reasons of a Wait.
const (
	// WaitBudget: the window's requests are spent, by this process or
	// another one (or the server's X-RateLimit-Remaining says 0).
	WaitBudget = budget.Spent
	// WaitRetryAfter: an HTTP 429, of this process or another one, said
	// when requests are accepted again.
	WaitRetryAfter = budget.RetryAfter
	// WaitBackoff: an HTTP 429 came without Retry-After; the client waits
	// an exponential backoff.
	WaitBackoff = budget.Backoff
)

// Wait is one wait of a client's requests, as Options.OnWait hears of it.
//
// Each wait is reported twice: with Done false when the first request
// starts waiting, and with Done true when the last waiting request stops
// (it is sent, or its context ends) or when the wait changes reason or end
// time, in which case the new wait's start follows at once. Requests that
// join a wait in progress add nothing: four requests held back together
// make one start and one end.
//
// A wait that changes while requests are held (another process heard a
// later 429, say) goes on without a gap: its new start keeps the Since of
// the wait it continues, so that a surface can tell a wait whose end moved
// (by a few milliseconds, when several processes were refused together)
// from a new one.
type Wait struct {
	Reason WaitReason
	Until  time.Time // when the waiting requests will be sent
	// Since is when this client's requests began to wait, without a gap:
	// Until-Since is how long they were to wait, whenever OnWait hears of
	// it.
	Since time.Time
	Done  bool
}

// enterWait counts a request held back by h (joined: it was already
// counted) and reports h when it is a new wait.
func (c *Client) enterWait(h budget.Hold, retry, joined bool) {
	c.mu.Lock()
	if !joined {
		c.waiters++
		if retry {
			c.retriers++
		}
	}
	if c.wait.Reason != h.Reason || !c.wait.Until.Equal(h.Until) {
		since := c.now()
		if !c.wait.IsZero() {
			// Requests are held already: the wait goes on, changed.
			since = c.waitSince
		}
		c.noteWaitLocked(true)
		c.wait, c.waitSince = h, since
		c.noteWaitLocked(false)
	}
	c.publishLocked()
	c.mu.Unlock()
	c.deliverWaits()
}

// leaveWait uncounts a request that stopped waiting; the last one ends the
// wait.
func (c *Client) leaveWait(retry bool) {
	c.mu.Lock()
	c.waiters--
	if retry {
		c.retriers--
	}
	if c.waiters == 0 {
		c.noteWaitLocked(true)
		c.wait = budget.Hold{}
	}
	c.publishLocked()
	c.mu.Unlock()
	c.deliverWaits()
}

func (c *Client) noteWaitLocked(done bool) {
	if c.onWait != nil && !c.wait.IsZero() {
		c.pendingWaits = append(c.pendingWaits, Wait{Reason: c.wait.Reason, Until: c.wait.Until, Since: c.waitSince, Done: done})
	}
}

// deliverWaits calls OnWait for the waits noted so far, in order and one at
// a time, without holding c.mu: whoever finds nobody delivering delivers
// for everyone, so OnWait may even call the client.
func (c *Client) deliverWaits() {
	c.mu.Lock()
	if c.delivering {
		c.mu.Unlock()
		return
	}
	c.delivering = true
	for len(c.pendingWaits) > 0 {
		q := c.pendingWaits
		c.pendingWaits = nil
		c.mu.Unlock()
		for _, w := range q {
			c.onWait(w)
		}
		c.mu.Lock()
	}
	c.delivering = false
	c.mu.Unlock()
}

// budgetWaitError: the request was never sent because its wait ended
// first (context cancelled or deadline reached).
type budgetWaitError struct {
	wait   budget.Hold
	limit  int
	window time.Duration
	err    error
}

func (e *budgetWaitError) Error() string {
	at := e.wait.Until.Format("15:04:05")
	switch e.wait.Reason {
	case WaitRetryAfter:
		return fmt.Sprintf("stopped waiting for %s, when the server accepts requests again (HTTP 429 Retry-After): %v", at, e.err)
	case WaitBackoff:
		return fmt.Sprintf("stopped waiting for %s, the end of the backoff after an HTTP 429: %v", at, e.err)
	}
	return fmt.Sprintf("stopped waiting for the request budget (%d per %s) to free a request at %s: %v", e.limit, e.window, at, e.err)
}
func (e *budgetWaitError) Unwrap() error { return e.err }

// acquire records a send in the budget, first waiting while a hold is in
// force: it never lets a request out that the budget or a 429 says would be
// refused. cs (nil outside an operation) marks the resend of a query the
// server answered 429, and hears why the request waited.
func (c *Client) acquire(ctx context.Context, cs *callState) (time.Time, error) {
	retry := cs != nil && cs.retry
	waiting := false
	for {
		sentAt, hold, err := c.budget.Take(ctx)
		if err != nil || hold.IsZero() {
			if waiting {
				c.leaveWait(retry)
			}
			return sentAt, err
		}
		c.enterWait(hold, retry, waiting)
		waiting = true
		if cs != nil {
			cs.waitReason = hold.Reason
		}
		if err := c.sleep(ctx, hold.Until.Sub(c.now())); err != nil {
			c.leaveWait(retry)
			_, limit := c.budget.Count()
			return time.Time{}, &budgetWaitError{wait: hold, limit: limit, window: c.budget.Window(), err: err}
		}
	}
}

// holdAfter429 makes every request to the host, of every process sharing
// the budget, wait until the server accepts requests again, and sets
// rl.RetryAt to that time (a backoff when the server did not say). ok is
// false when the hold could not be recorded: a retry would then go out
// without its wait.
func (c *Client) holdAfter429(rl *RateLimitedError, attempt int) (ok bool) {
	h := budget.Hold{Reason: WaitRetryAfter, Until: rl.RetryAt}
	if h.Until.IsZero() {
		h = budget.Hold{Reason: WaitBackoff, Until: c.now().Add(backoff(attempt))}
	}
	rl.RetryAt = h.Until
	return c.budget.HoldUntil(h) == nil
}

// observe hands the server's own count (X-RateLimit-Limit, -Remaining,
// -Reset), when a response carries it, to the budget.
func (c *Client) observe(h http.Header) {
	ls, rs := h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining")
	if ls == "" || rs == "" {
		return
	}
	limit, err1 := strconv.Atoi(strings.TrimSpace(ls))
	remaining, err2 := strconv.Atoi(strings.TrimSpace(rs))
	if err1 != nil || err2 != nil || limit <= 0 || remaining < 0 {
		return
	}
	now := c.now()
	reset, ok := parseReset(h.Get("X-RateLimit-Reset"), now)
	if !ok {
		reset = now.Add(c.budget.Window())
	}
	// Like a failed Release, a lost observation leaves the machine's own
	// count in charge.
	_ = c.budget.Observe(limit, remaining, reset)
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
