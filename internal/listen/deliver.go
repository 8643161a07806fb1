package listen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
)

// deliveries runs each event's delivery on its own schedule, as the
// platform does: a failing or hanging endpoint holds up only its own
// event. At most inFlight POSTs are on the wire and pending events in
// hand at once.
type deliveries struct {
	l     *listener
	slots chan struct{} // one per POST on the wire
	room  chan struct{} // one per event in hand
	wg    sync.WaitGroup

	mu  sync.Mutex
	cut int // ended by Ctrl+C before their last attempt

	tickets int // events handed over so far; read by the log's reader only
}

// start delivers ev in a goroutine of its own. When pending events are
// already in hand it waits for room if wait is set, else ev is reported
// as not forwarded. It is false when ctx ended first.
func (d *deliveries) start(ctx context.Context, ev api.WebhookEventLog, secret api.Secret, wait bool, ticket int) bool {
	select {
	case d.room <- struct{}{}:
	default:
		if !wait {
			d.l.finish(ev)
			d.l.report(ev, fmt.Sprintf("not forwarded: %d events are already being delivered or retried", pending), false, ticket)
			return true
		}
		select {
		case d.room <- struct{}{}:
		case <-ctx.Done():
			return false
		}
	}
	d.wg.Go(func() {
		finished := d.l.deliver(ctx, ev, secret, d.slots, ticket)
		<-d.room
		if !finished {
			d.mu.Lock()
			d.cut++
			d.mu.Unlock()
		}
	})
	return true
}

// stop waits for the deliveries, which end with ctx, and says how many
// events it ended before their last attempt.
func (d *deliveries) stop() {
	d.wg.Wait()
	d.l.flushHeld()
	switch {
	case d.cut == 1:
		fmt.Fprintln(d.l.io.Err, "Stopped: 1 event was not delivered yet.")
	case d.cut > 1:
		fmt.Fprintf(d.l.io.Err, "Stopped: %d events were not delivered yet.\n", d.cut)
	}
}

// deliver POSTs one event's payload to the local endpoint until it answers
// 2xx, as the platform counts success, trying again with backoff; each
// attempt is one line, the last one says when the event is given up.
// finished is false when ctx ended it first.
// ticket orders its first line among the events' (report).
func (l *listener) deliver(ctx context.Context, ev api.WebhookEventLog, secret api.Secret, slots chan struct{}, ticket int) (finished bool) {
	if p := platform.WebhookSecretProblem(secret.Reveal()); p != "" {
		l.finish(ev)
		l.report(ev, "not forwarded: the subscription's secret "+p+", so it cannot be sent as it is stored", false, ticket)
		return true
	}
	wait := l.opts.Backoff
	for attempt := 1; ; attempt++ {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return false
		}
		a := l.post(ctx, ev.RequestPayload, secret)
		<-slots
		payload := l.opts.PrintJSON && attempt == 1
		switch {
		case ctx.Err() != nil:
			return false
		case a.ok():
			l.finish(ev)
			l.report(ev, a.String(), payload, ticket)
			return true
		case attempt == MaxAttempts:
			l.finish(ev)
			l.report(ev, fmt.Sprintf("%s; gave up after %d attempts", a, attempt), payload, ticket)
			return true
		}
		l.report(ev, fmt.Sprintf("%s; trying again in %s", a, wait), payload, ticket)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
		wait = min(wait*2, maxBackoff)
	}
}

// report writes one line about ev on stdout and, when payload is set,
// the payload on the next (PrintJSON, once per event). The payload was
// made safe for the terminal when the API client decoded it. An event's
// lines carry its ticket (1, 2, … in the order events were handed over:
// oldest first); its first line is held until every earlier ticket's
// first line is out, and its later ones behind it, so a catch-up reads
// oldest first whichever delivery ends first; 0 writes at once.
func (l *listener) report(ev api.WebhookEventLog, what string, payload bool, ticket int) {
	line := fmt.Sprintf("%s  %-28s %s  → %s\n", l.clock(), ev.EventType, ev.ResourceID, what)
	if payload {
		line += ev.RequestPayload + "\n"
	}
	l.out.Lock()
	defer l.out.Unlock()
	if ticket == 0 || ticket <= l.printed {
		_, _ = io.WriteString(l.io.Out, line)
		return
	}
	l.held[ticket] += line
	for {
		next, ok := l.held[l.printed+1]
		if !ok {
			return
		}
		_, _ = io.WriteString(l.io.Out, next)
		delete(l.held, l.printed+1)
		l.printed++
	}
}

// flushHeld writes the first lines still held, in their order: their
// earlier events were cut by Ctrl+C before their first attempt ended.
func (l *listener) flushHeld() {
	l.out.Lock()
	defer l.out.Unlock()
	for _, t := range slices.Sorted(maps.Keys(l.held)) {
		_, _ = io.WriteString(l.io.Out, l.held[t])
	}
	clear(l.held)
}

// answer is the outcome of one POST: a status, or the error that stood
// for one.
type answer struct {
	status   int
	location string // of a redirect, sanitised
	took     time.Duration
	err      error
}

// ok: the platform counts only a 2xx as delivered.
func (a answer) ok() bool { return a.err == nil && a.status >= 200 && a.status < 300 }

func (a answer) String() string {
	switch {
	case a.err != nil:
		return "unreachable: " + a.err.Error()
	case a.ok():
		return fmt.Sprintf("%d %s (%s)", a.status, http.StatusText(a.status), a.took.Round(time.Millisecond))
	case a.status >= 300 && a.status < 400:
		to := ""
		if a.location != "" {
			to = " to " + a.location
		}
		return fmt.Sprintf("%d %s%s, not followed (a redirect is a failed delivery)", a.status, http.StatusText(a.status), to)
	}
	return fmt.Sprintf("%d %s", a.status, http.StatusText(a.status))
}

func (l *listener) post(ctx context.Context, payload string, secret api.Secret) answer {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.opts.ForwardTo, strings.NewReader(payload))
	if err != nil {
		return answer{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "partnertui-listen")
	if secret != "" {
		req.Header["X-Swan-Secret"] = []string{secret.Reveal()}
	}
	start := time.Now()
	resp, err := l.http.Do(req)
	if err != nil {
		// Do's error is a *url.Error; what it wraps says what failed
		// without repeating the method and the address.
		if inner := errors.Unwrap(err); inner != nil {
			err = inner
		}
		if errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err) {
			err = fmt.Errorf("no answer within %s", l.opts.Timeout)
		}
		return answer{err: err}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return answer{status: resp.StatusCode, location: safetext.Truncate(resp.Header.Get("Location"), 200), took: time.Since(start)}
}

// NotDeliveredError reports that the local endpoint did not take an event
// forwarded once.
type NotDeliveredError struct {
	EventID string
	Answer  string
}

func (e *NotDeliveredError) Error() string {
	return fmt.Sprintf("event %s was not delivered: %s", e.EventID, e.Answer)
}

// ForwardOnce POSTs one logged event to opts.ForwardTo once, with its
// subscription's secret, as a run would (`events replay --forward-to`),
// and writes its line; an answer other than 2xx is a *NotDeliveredError.
func ForwardOnce(ctx context.Context, opts Options, e Env, s Streams, ev api.WebhookEventLog) error {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	l := newListener(opts, e, s)
	defer l.http.CloseIdleConnections()
	secret := api.Secret(opts.Secret)
	if secret == "" {
		var err error
		if secret, err = l.secret(ctx, ev); err != nil {
			return err
		}
	}
	if p := platform.WebhookSecretProblem(secret.Reveal()); p != "" {
		return &NotDeliveredError{EventID: ev.EventID, Answer: "the subscription's secret " + p + ", so it cannot be sent as it is stored"}
	}
	a := l.post(ctx, ev.RequestPayload, secret)
	l.report(ev, a.String(), false, 0)
	if !a.ok() {
		return &NotDeliveredError{EventID: ev.EventID, Answer: a.String()}
	}
	return nil
}
