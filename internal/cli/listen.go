package cli

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/remedy"
	"github.com/partnertui/partnertui/internal/safetext"
)

// ListenOptions are `partnertui listen`'s.
type ListenOptions struct {
	IO           IO
	F            *Factory
	ForwardTo    string
	Subscription string
	Types        []string
	Create       bool
	// Since is --since as given; since is when it means.
	Since string
	since time.Time
	// Resume keeps the position in the state directory and starts from it.
	Resume bool
	// Secret is --create's subscription's secret; "" generates one.
	Secret    string
	PrintJSON bool
	// Interval is the time between two reads of the event log; the default
	// spends 7.5% of the platform's request budget.
	Interval time.Duration
	// Backoff is the first wait before a failed forward is tried again; it
	// doubles up to a minute.
	Backoff time.Duration
	// Timeout is how long the local endpoint has to answer one POST.
	Timeout time.Duration
	// RemoveTimeout bounds the removal of --create's subscription once
	// listen is stopped, so that Ctrl+C ends it at once whatever the
	// request budget says.
	RemoveTimeout time.Duration
	// Now is the clock of the printed lines.
	Now func() time.Time
	// read, when set, hears each completed read of the log (tests).
	read func()
}

// Defaults of listen: one read of the log every 2 s is 150 requests per 5
// minutes, 7.5% of the 2,000 the platform allows.
const (
	listenInterval    = 2 * time.Second
	listenBackoff     = time.Second
	listenMaxBackoff  = time.Minute
	listenMaxAttempts = 8
	forwardTimeout    = 10 * time.Second // the platform's own answer window
	// removeTimeout leaves Ctrl+C's removal of the run's subscription half
	// a second before the 2 s in which listen promises to end.
	removeTimeout = 1500 * time.Millisecond
	// listenInFlight bounds the POSTs on the wire at once, and
	// listenPending the events being delivered or waiting for a retry
	// (each holds its payload): an endpoint that fails everything costs
	// bounded memory.
	listenInFlight = 16
	listenPending  = 1024
	// listenEndpoint is what a subscription made by --create points at: the
	// platform delivers nowhere, and listen forwards from the log instead.
	listenEndpoint = "https://partnertui.invalid/listen"
)

// NewCmdListen forwards webhook events to a local endpoint, with no tunnel.
func NewCmdListen(f *Factory) *cobra.Command {
	opts := &ListenOptions{IO: f.IO, F: f, Interval: listenInterval, Backoff: listenBackoff, Timeout: forwardTimeout,
		RemoveTimeout: removeTimeout, Now: time.Now, read: f.onLogRead}
	cmd := &cobra.Command{
		Use:   "listen --forward-to URL",
		Short: "Forward webhook events to a local URL as they happen, with no tunnel",
		Long: "Follows the platform's webhook event log and POSTs each new event's payload to --forward-to,\n" +
			"once per eventId, with the subscription's secret in the x-swan-secret header, as the platform\n" +
			"would. Each event is delivered and retried on its own (a failing event never holds up the\n" +
			"others) and gets a line per attempt with the local answer. Redirects are never followed: a 3xx\n" +
			"is the endpoint's answer. --create makes a subscription for the run (removed when listen\n" +
			"stops), with --secret or a generated secret that is printed once. --since first forwards what\n" +
			"the log holds since then, oldest first; --resume keeps listen's position in the state directory\n" +
			"and forwards, when started again, the events it missed meanwhile, each eventId once. The log is\n" +
			"read with the project's token (client credentials). Ctrl+C stops it.",
		Example: "  partnertui listen --create --forward-to http://localhost:8080/webhooks\n" +
			"  partnertui listen --create --secret my-handler-secret --print-json --forward-to http://localhost:8080/webhooks\n" +
			"  partnertui listen --subscription 1c3f… --type Transaction.Booked --forward-to http://localhost:3000/hook\n" +
			"  partnertui listen --subscription 1c3f… --resume --since 2h --forward-to http://localhost:3000/hook",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkForwardURL(opts.ForwardTo); err != nil {
				return err
			}
			if err := opts.readSecret(); err != nil {
				return err
			}
			if err := opts.check(time.Now()); err != nil {
				return err
			}
			if f.onListen != nil {
				f.onListen(opts)
			}
			return runListen(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.ForwardTo, "forward-to", "", "POST each event to this `url` (http or https)")
	fl.StringVar(&opts.Subscription, "subscription", "", "only events of this webhook subscription (`id`)")
	fl.StringSliceVar(&opts.Types, "type", nil, "only these event types (`type`, repeat or comma-separate)")
	fl.BoolVar(&opts.Create, "create", false, "create a subscription for this run, removed when listen stops")
	fl.StringVar(&opts.Secret, "secret", "", "with --create, the subscription's `secret`, sent in x-swan-secret; - reads it from stdin (default: generated and printed)")
	fl.StringVar(&opts.Since, "since", "", "first forward what the log holds since then: a `duration` back (2h, 3d) or a time (RFC 3339, YYYY-MM-DD)")
	fl.BoolVar(&opts.Resume, "resume", false, "keep the position in the state directory, and start from it: the events missed while stopped are forwarded")
	fl.BoolVar(&opts.PrintJSON, "print-json", false, "print each event's payload as it is forwarded")
	fl.DurationVar(&opts.Interval, "interval", listenInterval, "time between two reads of the event log (`duration`)")
	_ = fl.MarkHidden("interval")
	return f.withSession(cmd, true)
}

// check refuses flags that do not go together, and reads --since.
func (o *ListenOptions) check(now time.Time) error {
	if err := checkForwardURL(o.ForwardTo); err != nil {
		return err
	}
	switch {
	case o.Create && o.Subscription != "":
		return usageErrorf("--create and --subscription cannot be used together: --create makes a new subscription")
	case o.Resume && o.Create:
		return usageErrorf("--resume cannot follow --create's subscription, which is removed when listen stops: " +
			"make one that stays (partnertui subscriptions lists them) and use --subscription ID, or follow them all")
	case o.Since != "" && o.Create:
		return usageErrorf("--since forwards what the log holds for the subscription followed, and --create's is new, with nothing logged yet: " +
			"use --subscription ID (partnertui subscriptions lists them), or follow them all")
	case o.Secret != "" && !o.Create:
		return usageErrorf("--secret sets the secret of the subscription --create makes: add --create, or leave --secret out to use the secret --subscription's subscription has")
	}
	if p := platform.WebhookSecretProblem(o.Secret); p != "" {
		return usageErrorf("--secret %s", p)
	}
	var err error
	o.since, err = parseSince(o.Since, now)
	return err
}

// readSecret reads --secret - from stdin (one line, without its line end),
// so that the secret is in no process list.
func (o *ListenOptions) readSecret() error {
	if o.Secret != "-" {
		return nil
	}
	line, size, err := readLine(bufio.NewReader(o.IO.In), platform.WebhookSecretMax*4+2)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("cannot read --secret from stdin: %w", err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if size > len(line)+1 || line == "" {
		return usageErrorf("--secret - read %d bytes from stdin: give one line of at most %d characters", size, platform.WebhookSecretMax)
	}
	o.Secret = line
	return nil
}

// parseSince reads --since: a duration back from now (Go's, or whole days
// such as 3d), or a date or time.
func parseSince(v string, now time.Time) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	d, err := time.ParseDuration(v)
	if n, cut := strings.CutSuffix(v, "d"); cut && err != nil {
		var days int
		if _, serr := fmt.Sscanf(n, "%d", &days); serr == nil && fmt.Sprint(days) == n {
			d, err = time.Duration(days)*24*time.Hour, nil
		}
	}
	if err == nil {
		if d <= 0 {
			return time.Time{}, usageErrorf("--since %q is no time back from now: write a positive duration such as 2h", v)
		}
		return now.Add(-d), nil
	}
	if t, err := parseDate("--since", v); err == nil {
		return t, nil
	}
	return time.Time{}, usageErrorf("--since %q is neither a duration such as 2h, 30m or 3d nor a time such as 2026-11-22 or 2026-11-22T10:00:00Z", v)
}

func checkForwardURL(raw string) error {
	if raw == "" {
		return usageErrorf("listen needs --forward-to URL, the local endpoint to POST events to")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageErrorf("--forward-to %q is not an http(s) URL such as http://localhost:8080/webhooks", raw)
	}
	return nil
}

// NoSubscriptionError reports that listen found no webhook subscription to
// follow.
type NoSubscriptionError struct{ Env string }

func (e *NoSubscriptionError) Error() string {
	return fmt.Sprintf("the %s project has no webhook subscription, so the platform logs no deliveries to follow", e.Env)
}

// LeftSubscriptionError reports that the subscription --create made could
// not be removed when listen stopped.
type LeftSubscriptionError struct {
	ID     string
	Env    string
	Config string // --config, when given
	Err    error
}

func (e *LeftSubscriptionError) Error() string {
	return fmt.Sprintf("the webhook subscription %s that this run created is still there: it could not be removed as listen stopped: %v", e.ID, e.Err)
}
func (e *LeftSubscriptionError) Unwrap() error { return e.Err }

// Remedy is the exact command that removes it.
func (e *LeftSubscriptionError) Remedy() remedy.Remedy {
	cfg := ""
	if e.Config != "" {
		cfg = " --config " + shellQuote(e.Config)
	}
	return remedy.Remedy{Kind: remedy.RemoveSubscription, Env: e.Env,
		Command: fmt.Sprintf("partnertui subscriptions remove %s --env %s%s", e.ID, e.Env, cfg)}
}

func runListen(ctx context.Context, opts *ListenOptions) (runErr error) {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	// The event log and the subscriptions belong to the project.
	l := newListener(opts, e.ProjectAPI, string(e.Name))
	l.host = e.Config.APIURL
	defer l.http.CloseIdleConnections()
	switch {
	case opts.Create:
		sub, err := l.create(ctx)
		if err != nil {
			return err
		}
		defer func() { runErr = errors.Join(runErr, l.remove(sub)) }()
	case opts.Subscription != "":
		if err := l.follow(ctx, opts.Subscription); err != nil {
			return err
		}
	default:
		subs, err := e.ProjectAPI.WebhookSubscriptions(ctx, api.WebhookSubscriptionsParams{First: 1})
		if err != nil {
			return err
		}
		if len(subs.Items) == 0 {
			return &NoSubscriptionError{Env: l.env}
		}
	}
	return l.run(ctx)
}

// listener follows the event log and forwards what is new.
type listener struct {
	opts    *ListenOptions
	api     *api.Client
	env     string
	host    string // the platform's API, which the position is of
	subID   string // the subscription followed (--subscription, or --create's); "" for all
	seen    map[string]bool
	started bool                  // the first read, which only marks history, is done
	secrets map[string]api.Secret // read by the log's reader only
	http    *http.Client
	pos     *position // with --resume
	resumed bool      // pos was saved by an earlier run

	out sync.Mutex // one event's line is never cut by another's
}

func newListener(opts *ListenOptions, c *api.Client, env string) *listener {
	// Straight to the endpoint: no proxy from the environment sees the
	// secret, and a redirect is the endpoint's answer, never followed (it
	// would carry the secret to whatever origin it names).
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.MaxIdleConnsPerHost = listenInFlight
	return &listener{opts: opts, api: c, env: env, subID: opts.Subscription, seen: map[string]bool{}, secrets: map[string]api.Secret{},
		http: &http.Client{Transport: tr, Timeout: opts.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// follow checks that the subscription --subscription names exists, and
// keeps its secret: an unknown id is a usage error that lists the known.
func (l *listener) follow(ctx context.Context, id string) error {
	sub, err := l.api.WebhookSubscription(ctx, id)
	if err == nil {
		l.secrets[sub.ID] = sub.Secret
		return nil
	}
	if !errors.Is(err, api.ErrNotFound) {
		return err
	}
	subs, lerr := l.api.WebhookSubscriptions(ctx, api.WebhookSubscriptionsParams{First: platform.PageMax})
	if lerr != nil || len(subs.Items) == 0 {
		return usageErrorf("--subscription %q is not a webhook subscription of the %s project: run `partnertui subscriptions --env %s` to list them, or use --create",
			safetext.Truncate(id, 80), l.env, l.env)
	}
	const shown = 10
	known := make([]string, 0, shown)
	for _, s := range subs.Items[:min(shown, len(subs.Items))] {
		known = append(known, fmt.Sprintf("%s (%s)", s.ID, s.Label))
	}
	more := ""
	if len(subs.Items) > shown || subs.PageInfo.HasNextPage {
		more = fmt.Sprintf(", and more: run `partnertui subscriptions --env %s` to list them all", l.env)
	}
	return usageErrorf("--subscription %q is not a webhook subscription of the %s project; its subscriptions are %s%s",
		safetext.Truncate(id, 80), l.env, strings.Join(known, ", "), more)
}

// create makes the run's subscription, with --secret or a fresh secret
// that listen sends to the local endpoint like the platform would. A
// generated secret is printed, once: it is the one the user's handler
// must check, and the only secret partnertui ever shows (it guards
// nothing but that local handler).
func (l *listener) create(ctx context.Context) (*api.WebhookSubscription, error) {
	types := l.opts.Types
	if len(types) == 0 {
		all, err := l.api.WebhookEventTypes(ctx)
		if err != nil {
			return nil, err
		}
		types = all
	}
	secret := api.Secret(l.opts.Secret)
	if secret == "" {
		var raw [16]byte // 32 hex characters: the platform takes secrets of up to 36
		_, _ = rand.Read(raw[:])
		secret = api.Secret(hex.EncodeToString(raw[:]))
	}
	sub, err := l.api.AddWebhookSubscription(ctx, api.WebhookSubscriptionInput{
		Label: "partnertui listen", Endpoint: listenEndpoint, Secret: secret, EventTypes: types,
	})
	if err != nil {
		return nil, err
	}
	l.subID = sub.ID
	l.secrets[sub.ID] = secret
	fmt.Fprintf(l.opts.IO.Err, "Created webhook subscription %s for this run; it is removed when listen stops.\n", sub.ID)
	if l.opts.Secret == "" {
		fmt.Fprintf(l.opts.IO.Err, "Its secret, sent in the x-swan-secret header for your handler to check, is %s (shown only now; --secret chooses it).\n", secret.Reveal())
	}
	return sub, nil
}

// remove deletes the run's subscription, even after Ctrl+C, but waits for
// it no longer than RemoveTimeout (the request budget may be spent for
// minutes): what cannot be removed is returned, with the command that
// removes it.
func (l *listener) remove(sub *api.WebhookSubscription) error {
	ctx, cancel := context.WithTimeout(context.Background(), l.opts.RemoveTimeout)
	defer cancel()
	if err := l.api.RemoveWebhookSubscription(ctx, sub.ID); err != nil {
		if l.opts.F.Session.Demo {
			return nil // it goes with the demo's emulator
		}
		return &LeftSubscriptionError{ID: sub.ID, Env: l.env, Config: l.opts.F.Session.Config, Err: err}
	}
	fmt.Fprintf(l.opts.IO.Err, "Removed webhook subscription %s.\n", sub.ID)
	return nil
}

func (l *listener) params() api.WebhookEventLogsParams {
	return api.WebhookEventLogsParams{First: platform.PageMax, WebhookSubscriptionID: l.subID, EventType: eventTypes(l.opts.Types).server()}
}

// run reads the log every interval until ctx ends and hands each new event
// to its own delivery. What is in the log when listen starts is history,
// but for what --since asks for or a resumed listen missed, which is
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
	fmt.Fprintf(l.opts.IO.Err, "Ready: forwarding %s events to %s (Ctrl+C to stop).\n", l.env, l.opts.ForwardTo)
	d := &deliveries{l: l, slots: make(chan struct{}, listenInFlight), room: make(chan struct{}, listenPending)}
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
		if l.opts.read != nil {
			l.opts.read()
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			// A failed read is reported and tried again at the next tick.
			fmt.Fprintf(l.opts.IO.Err, "%s  could not read the event log: %s\n", l.clock(), remedy.Sentence(err))
			continue
		}
		for _, ev := range news {
			l.hand(ctx, d, ev, false)
		}
	}
}

// hand gives ev to its delivery. A backlog event waits for room among the
// events in hand; a live one finding none is reported as not forwarded.
// It is false when ctx ended first.
func (l *listener) hand(ctx context.Context, d *deliveries, ev api.WebhookEventLog, wait bool) bool {
	secret, err := l.secret(ctx, ev)
	if err != nil {
		if ctx.Err() != nil {
			return false
		}
		l.finish(ev)
		l.report(ev, "not forwarded: "+remedy.Sentence(err), false)
		return true
	}
	return d.start(ctx, ev, secret, wait)
}

// catchUp is the first read of the log. It returns, oldest first, what
// was logged while a resumed listen was stopped, or since --since; without
// either, what the log holds is history and only marked as seen.
func (l *listener) catchUp(ctx context.Context) ([]api.WebhookEventLog, error) {
	if l.opts.Resume {
		path := positionFile(l.opts.F.app.StateDir, l.env, l.host, l.subID, l.opts.ForwardTo, l.opts.Types)
		meta := savedPosition{Env: l.env, Subscription: l.subID, Types: l.opts.Types}
		var err error
		if l.pos, l.resumed, err = loadPosition(path, meta); err != nil {
			return nil, err
		}
	}
	since := l.opts.since
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
	err := api.Walk(ctx, api.Pages(l.api.WebhookEventLogs, p), func(page *api.Page[api.WebhookEventLog]) error {
		for _, ev := range page.Items {
			r.take(ev, keep(ev))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Oldest first: by date, and events of the same millisecond in the
	// order they were logged.
	news := l.commit(r)
	slices.Reverse(news)
	slices.SortStableFunc(news, func(a, b api.WebhookEventLog) int { return eventDate(a).Compare(eventDate(b)) })
	if len(news) > 0 {
		fmt.Fprintf(l.opts.IO.Err, "Catching up: %d events logged since %s, oldest first.\n", len(news), start.Local().Format(time.DateTime))
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
	case r.ids[ev.EventID] || !eventTypes(r.l.opts.Types).keep(ev.EventType):
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
// --resume, notes them all at once in the position: news as being
// delivered from now on, old as handled. It returns news.
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
		fmt.Fprintf(l.opts.IO.Err, "%s  %v\n", l.clock(), err)
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

// deliveries runs each event's delivery on its own schedule, as the
// platform does: a failing or hanging endpoint holds up only its own
// event. At most listenInFlight POSTs are on the wire and listenPending
// events in hand at once.
type deliveries struct {
	l     *listener
	slots chan struct{} // one per POST on the wire
	room  chan struct{} // one per event in hand
	wg    sync.WaitGroup

	mu  sync.Mutex
	cut int // ended by Ctrl+C before their last attempt
}

// start delivers ev in a goroutine of its own. When listenPending events
// are already in hand it waits for room if wait is set, else ev is
// reported as not forwarded. It is false when ctx ended first.
func (d *deliveries) start(ctx context.Context, ev api.WebhookEventLog, secret api.Secret, wait bool) bool {
	select {
	case d.room <- struct{}{}:
	default:
		if !wait {
			d.l.finish(ev)
			d.l.report(ev, fmt.Sprintf("not forwarded: %d events are already being delivered or retried", listenPending), false)
			return true
		}
		select {
		case d.room <- struct{}{}:
		case <-ctx.Done():
			return false
		}
	}
	d.wg.Go(func() {
		finished := d.l.deliver(ctx, ev, secret, d.slots)
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
	switch {
	case d.cut == 1:
		fmt.Fprintln(d.l.opts.IO.Err, "Stopped: 1 event was not delivered yet.")
	case d.cut > 1:
		fmt.Fprintf(d.l.opts.IO.Err, "Stopped: %d events were not delivered yet.\n", d.cut)
	}
}

// deliver POSTs one event's payload to the local endpoint until it answers
// 2xx, as the platform counts success, trying again with backoff; each
// attempt is one line, the last one says when the event is given up.
// finished is false when ctx ended it first.
func (l *listener) deliver(ctx context.Context, ev api.WebhookEventLog, secret api.Secret, slots chan struct{}) (finished bool) {
	if p := platform.WebhookSecretProblem(secret.Reveal()); p != "" {
		l.finish(ev)
		l.report(ev, "not forwarded: the subscription's secret "+p+", so it cannot be sent as it is stored", false)
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
			l.report(ev, a.String(), payload)
			return true
		case attempt == listenMaxAttempts:
			l.finish(ev)
			l.report(ev, fmt.Sprintf("%s; gave up after %d attempts", a, attempt), payload)
			return true
		}
		l.report(ev, fmt.Sprintf("%s; trying again in %s", a, wait), payload)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
		wait = min(wait*2, listenMaxBackoff)
	}
}

// report writes one line about ev on stdout and, when payload is set,
// the payload on the next (--print-json, once per event). The payload was
// made safe for the terminal when the API client decoded it.
func (l *listener) report(ev api.WebhookEventLog, what string, payload bool) {
	l.out.Lock()
	defer l.out.Unlock()
	fmt.Fprintf(l.opts.IO.Out, "%s  %-28s %s  → %s\n", l.clock(), ev.EventType, ev.ResourceID, what)
	if payload {
		fmt.Fprintln(l.opts.IO.Out, ev.RequestPayload)
	}
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

func (l *listener) clock() string { return l.opts.Now().Format("15:04:05") }
