package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/remedy"
)

// ListenOptions are `partnertui listen`'s.
type ListenOptions struct {
	IO           IO
	F            *Factory
	ForwardTo    string
	Subscription string
	Types        []string
	Create       bool
	// Interval is the time between two reads of the event log; the default
	// spends 7.5% of the platform's request budget.
	Interval time.Duration
	// Backoff is the first wait before a failed forward is tried again; it
	// doubles up to a minute.
	Backoff time.Duration
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
	// listenEndpoint is what a subscription made by --create points at: the
	// platform delivers nowhere, and listen forwards from the log instead.
	listenEndpoint = "https://partnertui.invalid/listen"
)

// NewCmdListen forwards webhook events to a local endpoint, with no tunnel.
func NewCmdListen(f *Factory) *cobra.Command {
	opts := &ListenOptions{IO: f.IO, F: f, Interval: listenInterval, Backoff: listenBackoff, Now: time.Now, read: f.onLogRead}
	cmd := &cobra.Command{
		Use:   "listen --forward-to URL",
		Short: "Forward webhook events to a local URL as they happen, with no tunnel",
		Long: "Follows the platform's webhook event log and POSTs each new event's payload to --forward-to,\n" +
			"once per eventId, with the subscription's secret in the x-swan-secret header, as the platform\n" +
			"would. It prints one line per event with the local answer. --create makes a subscription for\n" +
			"the run (removed when listen stops). The log is read with the project's token (client\n" +
			"credentials). Ctrl+C stops it.",
		Example: "  partnertui listen --create --forward-to http://localhost:8080/webhooks\n" +
			"  partnertui listen --subscription 1c3f… --type Transaction.Booked --forward-to http://localhost:3000/hook",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkForwardURL(opts.ForwardTo); err != nil {
				return err
			}
			if opts.Create && opts.Subscription != "" {
				return usageErrorf("--create and --subscription cannot be used together: --create makes a new subscription")
			}
			return runListen(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.ForwardTo, "forward-to", "", "POST each event to this `url` (http or https)")
	fl.StringVar(&opts.Subscription, "subscription", "", "only events of this webhook subscription (`id`)")
	fl.StringSliceVar(&opts.Types, "type", nil, "only these event types (`type`, repeat or comma-separate)")
	fl.BoolVar(&opts.Create, "create", false, "create a subscription for this run, removed when listen stops")
	fl.DurationVar(&opts.Interval, "interval", listenInterval, "time between two reads of the event log (`duration`)")
	_ = fl.MarkHidden("interval")
	return f.withSession(cmd, true)
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

func runListen(ctx context.Context, opts *ListenOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	// The event log and the subscriptions belong to the project.
	l := &listener{opts: opts, api: e.ProjectAPI, env: string(e.Name), subID: opts.Subscription, seen: map[string]bool{}, secrets: map[string]api.Secret{},
		http: &http.Client{Timeout: forwardTimeout}}
	if opts.Create {
		sub, err := l.create(ctx)
		if err != nil {
			return err
		}
		defer l.remove(sub)
	} else if opts.Subscription == "" {
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
	subID   string // the subscription followed (--subscription, or --create's); "" for all
	seen    map[string]bool
	started bool // the first read, which only marks history, is done
	secrets map[string]api.Secret
	http    *http.Client
}

// create makes the run's subscription, with a fresh secret that listen
// sends to the local endpoint like the platform would.
func (l *listener) create(ctx context.Context) (*api.WebhookSubscription, error) {
	types := l.opts.Types
	if len(types) == 0 {
		all, err := l.api.WebhookEventTypes(ctx)
		if err != nil {
			return nil, err
		}
		types = all
	}
	var raw [16]byte // 32 hex characters: the platform takes secrets of up to 36
	_, _ = rand.Read(raw[:])
	secret := api.Secret(hex.EncodeToString(raw[:]))
	sub, err := l.api.AddWebhookSubscription(ctx, api.WebhookSubscriptionInput{
		Label: "partnertui listen", Endpoint: listenEndpoint, Secret: secret, EventTypes: types,
	})
	if err != nil {
		return nil, err
	}
	l.subID = sub.ID
	l.secrets[sub.ID] = secret
	fmt.Fprintf(l.opts.IO.Err, "Created webhook subscription %s for this run; it is removed when listen stops.\n", sub.ID)
	return sub, nil
}

// remove deletes the run's subscription, even after Ctrl+C.
func (l *listener) remove(sub *api.WebhookSubscription) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := l.api.RemoveWebhookSubscription(ctx, sub.ID); err != nil {
		fmt.Fprintf(l.opts.IO.Err, "warning: could not remove webhook subscription %s: %v\n", sub.ID, err)
		return
	}
	fmt.Fprintf(l.opts.IO.Err, "Removed webhook subscription %s.\n", sub.ID)
}

func (l *listener) params() api.WebhookEventLogsParams {
	return api.WebhookEventLogsParams{First: platform.PageMax, WebhookSubscriptionID: l.subID, EventType: eventTypes(l.opts.Types).server()}
}

// run reads the log every interval until ctx ends. What is in the log when
// listen starts is history: only events logged after are forwarded.
func (l *listener) run(ctx context.Context) error {
	if _, err := l.fresh(ctx); err != nil {
		return err
	}
	fmt.Fprintf(l.opts.IO.Err, "Ready: forwarding %s events to %s (Ctrl+C to stop).\n", l.env, l.opts.ForwardTo)
	queue := make(chan api.WebhookEventLog, 1024)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range queue {
			l.forward(ctx, ev)
		}
	}()
	defer func() {
		close(queue)
		<-done
	}()
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
			select {
			case queue <- ev:
			case <-ctx.Done():
				return nil
			}
		}
	}
}

// fresh reads the log from the newest entry back to the first one already
// seen and returns the entries of events not seen yet, oldest first. The
// first read only marks what is there.
func (l *listener) fresh(ctx context.Context) ([]api.WebhookEventLog, error) {
	first := !l.started
	var news []api.WebhookEventLog
	stop := errors.New("caught up")
	err := api.Walk(ctx, api.Pages(l.api.WebhookEventLogs, l.params()), func(page *api.Page[api.WebhookEventLog]) error {
		caughtUp := false
		for _, ev := range page.Items {
			if l.seen[ev.EventID] {
				caughtUp = true
				continue
			}
			if !eventTypes(l.opts.Types).keep(ev.EventType) {
				continue
			}
			l.seen[ev.EventID] = true
			if !first {
				news = append(news, ev)
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
	l.started = true
	slices.Reverse(news)
	return news, nil
}

// forward POSTs one event's payload to the local endpoint, trying again
// with backoff while it cannot be reached or fails with 5xx.
func (l *listener) forward(ctx context.Context, ev api.WebhookEventLog) {
	secret, err := l.secret(ctx, ev)
	if err != nil {
		fmt.Fprintf(l.opts.IO.Out, "%s  %-28s %s  → not forwarded: %s\n", l.clock(), ev.EventType, ev.ResourceID, remedy.Sentence(err))
		return
	}
	wait := l.opts.Backoff
	for attempt := 1; ; attempt++ {
		status, took, err := l.post(ctx, ev.RequestPayload, secret)
		switch {
		case err == nil && status < 500:
			fmt.Fprintf(l.opts.IO.Out, "%s  %-28s %s  → %d %s (%s)\n", l.clock(), ev.EventType, ev.ResourceID, status, http.StatusText(status), took.Round(time.Millisecond))
			return
		case ctx.Err() != nil:
			return
		}
		what := fmt.Sprintf("%d %s", status, http.StatusText(status))
		if err != nil {
			what = "unreachable: " + err.Error()
		}
		if attempt == listenMaxAttempts {
			fmt.Fprintf(l.opts.IO.Out, "%s  %-28s %s  → %s; gave up after %d attempts\n", l.clock(), ev.EventType, ev.ResourceID, what, attempt)
			return
		}
		fmt.Fprintf(l.opts.IO.Out, "%s  %-28s %s  → %s; trying again in %s\n", l.clock(), ev.EventType, ev.ResourceID, what, wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(wait*2, listenMaxBackoff)
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

func (l *listener) post(ctx context.Context, payload string, secret api.Secret) (int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.opts.ForwardTo, bytes.NewReader([]byte(payload)))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "partnertui-listen")
	if secret != "" {
		req.Header.Set("x-swan-secret", secret.Reveal())
	}
	start := time.Now()
	resp, err := l.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode, time.Since(start), nil
}

func (l *listener) clock() string { return l.opts.Now().Format("15:04:05") }
