package listen

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/remedy"
	"github.com/partnertui/partnertui/internal/safetext"
)

// run reads the log every interval until ctx ends and hands each new event
// to its own delivery. What is in the log when listen starts is history,
// but for what Since asks for or a resumed listen missed, which is
// forwarded first.
func (l *listener) run(ctx context.Context) error {
	backlog, err := l.catchUp(ctx)
	defer l.pos.close()
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	if l.pos != nil {
		if err := l.pos.flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(l.io.Err, "Ready: forwarding %s events to %s (Ctrl+C to stop).\n", l.env.Name, safetext.Strip(l.opts.ForwardTo))
	d := &deliveries{l: l, slots: make(chan struct{}, inFlight), room: make(chan struct{}, pending)}
	defer d.stop()
	for _, ev := range backlog {
		if !l.hand(ctx, d, ev, true) {
			return nil
		}
	}
	t := time.NewTicker(l.opts.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		news, err := l.fresh(ctx)
		if l.opts.OnRead != nil {
			l.opts.OnRead()
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			// A failed read is reported and tried again at the next tick.
			fmt.Fprintf(l.io.Err, "%s  could not read the event log: %s\n", l.clock(), remedy.Sentence(err))
			continue
		}
		for _, ev := range news {
			l.hand(ctx, d, ev, false)
		}
	}
}

// hand gives ev to its delivery. A backlog event waits for room among the
// events in hand, and its lines come out in the backlog's order, oldest
// first (its ticket: report); a live one finding none is reported as not
// forwarded, and its lines come as its attempts end, so a live event the
// endpoint hangs on holds up no other's line. It is false when ctx ended
// first.
func (l *listener) hand(ctx context.Context, d *deliveries, ev api.WebhookEventLog, backlog bool) bool {
	ticket := 0
	if backlog {
		d.tickets++
		ticket = d.tickets
	}
	wait := backlog
	secret, err := l.secret(ctx, ev)
	if err != nil {
		if ctx.Err() != nil {
			return false
		}
		l.finish(ev)
		l.report(ev, "not forwarded: "+remedy.Sentence(err), false, ticket)
		return true
	}
	return d.start(ctx, ev, secret, wait, ticket)
}

// catchUp is the first read of the log. It returns, oldest first, what
// was logged while a resumed listen was stopped, or since Since; without
// either, what the log holds is history and only marked as seen.
func (l *listener) catchUp(ctx context.Context) ([]api.WebhookEventLog, error) {
	if l.opts.Resume {
		path := positionFile(l.env.StateDir, l.env.Name, l.env.Host, l.subID, l.opts.ForwardTo, l.opts.Types)
		meta := savedPosition{Env: l.env.Name, Subscription: l.subID, Types: l.opts.Types}
		var err error
		if l.pos, l.resumed, err = loadPosition(path, meta); err != nil {
			return nil, err
		}
	}
	since := l.opts.Since
	switch {
	case l.resumed:
		return l.backlog(ctx, l.pos.since(), func(ev api.WebhookEventLog) bool { return !l.pos.handled(ev.EventID, eventDate(ev)) })
	case !since.IsZero():
		return l.backlog(ctx, since, func(ev api.WebhookEventLog) bool { return !eventDate(ev).Before(since) })
	}
	_, err := l.fresh(ctx)
	return nil, err
}

// backlog reads every entry of the log logged since start (newest first)
// and returns the events keep wants, oldest first; the others are
// history.
func (l *listener) backlog(ctx context.Context, start time.Time, keep func(api.WebhookEventLog) bool) ([]api.WebhookEventLog, error) {
	p := l.params()
	p.StartDate = start
	r := l.newRead()
	// Where each event was first logged, counted from the newest entry:
	// an event's later attempts are logged after it, above it.
	first := map[string]int{}
	n := 0
	err := api.Walk(ctx, api.Pages(l.api.WebhookEventLogs, p), func(page *api.Page[api.WebhookEventLog]) error {
		for _, ev := range page.Items {
			r.take(ev, keep(ev))
			first[ev.EventID] = n
			n++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Oldest first: by date, and events of the same millisecond in the
	// order they were first logged (whatever their retries since).
	news := l.commit(r)
	slices.SortStableFunc(news, func(a, b api.WebhookEventLog) int {
		if c := eventDate(a).Compare(eventDate(b)); c != 0 {
			return c
		}
		return first[b.EventID] - first[a.EventID]
	})
	if len(news) > 0 {
		fmt.Fprintf(l.io.Err, "Catching up: %d events logged since %s, oldest first.\n", len(news), start.Local().Format("2006-01-02 15:04:05 MST"))
	}
	return news, nil
}

// fresh reads the log from the newest entry back to the first one already
// seen and returns the entries of events not seen yet, oldest first. The
// first read only marks what is there.
func (l *listener) fresh(ctx context.Context) ([]api.WebhookEventLog, error) {
	first := !l.started
	r := l.newRead()
	stop := errors.New("caught up")
	err := api.Walk(ctx, api.Pages(l.api.WebhookEventLogs, l.params()), func(page *api.Page[api.WebhookEventLog]) error {
		caughtUp := false
		for _, ev := range page.Items {
			if r.take(ev, !first) {
				caughtUp = true
			}
		}
		if caughtUp || first {
			return stop
		}
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return nil, err
	}
	news := l.commit(r)
	slices.Reverse(news)
	return news, nil
}

// logRead is what one read of the log found that was not seen before.
type logRead struct {
	l         *listener
	ids       map[string]bool
	news, old []api.WebhookEventLog // to forward; history
}

func (l *listener) newRead() *logRead { return &logRead{l: l, ids: map[string]bool{}} }

// take sorts an entry into news (when forward is set) or old, unless its
// event was already seen, before this read (then it says so) or in it, or
// is of a type not wanted.
func (r *logRead) take(ev api.WebhookEventLog, forward bool) (seenBefore bool) {
	switch {
	case r.l.seen[ev.EventID]:
		return true
	case r.ids[ev.EventID] || !Wanted(r.l.opts.Types, ev.EventType):
		return false
	}
	r.ids[ev.EventID] = true
	if forward {
		r.news = append(r.news, ev)
	} else {
		r.old = append(r.old, ev)
	}
	return false
}

// commit marks the events of a complete read as seen (a read that fails
// half-way marks nothing, so the next one finds them again) and, with
// Resume, notes them all at once in the position: news as being delivered
// from now on, old as handled. It returns news.
func (l *listener) commit(r *logRead) []api.WebhookEventLog {
	for id := range r.ids {
		l.seen[id] = true
	}
	if l.pos != nil {
		l.pos.read(r.news, r.old)
	}
	l.started = true
	return r.news
}

// eventDate is when the platform says ev happened.
func eventDate(ev api.WebhookEventLog) time.Time {
	if ev.EventDate.IsZero() {
		return ev.CreatedAt
	}
	return ev.EventDate
}

// finish counts ev as handled, on disk before its last line is printed:
// an event reported delivered is never sent again by a resumed listen.
func (l *listener) finish(ev api.WebhookEventLog) {
	if l.pos == nil {
		return
	}
	if err := l.pos.finish(ev.EventID, eventDate(ev)); err != nil {
		fmt.Fprintf(l.io.Err, "%s  %v\n", l.clock(), err)
	}
}

// secret is the x-swan-secret of the subscription that logged ev.
func (l *listener) secret(ctx context.Context, ev api.WebhookEventLog) (api.Secret, error) {
	if ev.WebhookSubscription == nil {
		return "", nil
	}
	id := ev.WebhookSubscription.ID
	if s, ok := l.secrets[id]; ok {
		return s, nil
	}
	sub, err := l.api.WebhookSubscription(ctx, id)
	if err != nil {
		return "", err
	}
	l.secrets[id] = sub.Secret
	return sub.Secret, nil
}
