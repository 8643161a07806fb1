// Package listen follows a project's webhook event log and forwards each
// new event to a local endpoint, as the platform would deliver it, with no
// tunnel: `partnertui listen`. It makes (and removes) a subscription for
// the run, or follows an existing one or all of them; forwards what the
// log held since a date first; with Resume keeps its position in the
// state directory and forwards, when started again, what it missed; and
// delivers each event on its own schedule, retried with backoff, with the
// subscription's secret. The command line maps its flags to Options and
// checks them; a mistake found while running is a *usage.Error.
package listen

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/remedy"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/shellcmd"
	"github.com/partnertui/partnertui/internal/usage"
)

// Options are a run's, as the command line gives them, checked.
type Options struct {
	// ForwardTo is the local endpoint each event's payload is POSTed to.
	ForwardTo string
	// Subscription follows only that subscription's events; "" all of
	// them (unless Create).
	Subscription string
	// Types keeps only these event types; none keeps all.
	Types []string
	// Create makes a subscription for the run, removed when it ends.
	Create bool
	// Since, when set, first forwards what the log holds since then.
	Since time.Time
	// Resume keeps the position in the state directory and starts from it.
	Resume bool
	// Secret is Create's subscription's secret; "" generates one. For
	// ForwardOnce, it is sent instead of the event's subscription's.
	Secret string
	// PrintJSON prints each event's payload as it is forwarded.
	PrintJSON bool
	// Interval is the time between two reads of the event log; the default
	// spends 7.5% of the platform's request budget.
	Interval time.Duration
	// Backoff is the first wait before a failed forward is tried again; it
	// doubles up to a minute.
	Backoff time.Duration
	// Timeout is how long the local endpoint has to answer one POST.
	Timeout time.Duration
	// RemoveTimeout bounds the removal of Create's subscription once
	// the run is stopped, so that Ctrl+C ends it at once whatever the
	// request budget says.
	RemoveTimeout time.Duration
	// Now is the clock of the printed lines; nil is time.Now.
	Now func() time.Time
	// OnRead, when set, hears each completed read of the log (so a test
	// waits on reads instead of sleeping).
	OnRead func()
}

// Defaults of the options: one read of the log every 2 s is 150 requests
// per 5 minutes, 7.5% of the 2,000 the platform allows.
const (
	DefaultInterval = 2 * time.Second
	DefaultBackoff  = time.Second
	DefaultTimeout  = 10 * time.Second // the platform's own answer window
	// DefaultRemoveTimeout leaves Ctrl+C's removal of the run's
	// subscription half a second before the 2 s in which listen promises
	// to end.
	DefaultRemoveTimeout = 1500 * time.Millisecond
	// MaxAttempts is how often one event is POSTed before it is given up.
	MaxAttempts = 8
	maxBackoff  = time.Minute
	// inFlight bounds the POSTs on the wire at once, and pending the
	// events being delivered or waiting for a retry (each holds its
	// payload): an endpoint that fails everything costs bounded memory.
	inFlight = 16
	pending  = 1024
	// subscriptionEndpoint is what a subscription made by Create points
	// at: the platform delivers nowhere, and listen forwards from the log
	// instead.
	subscriptionEndpoint = "https://partnertui.invalid/listen"
)

// Env is the environment whose log is followed.
type Env struct {
	Name string // "sandbox" or "live"
	// Host is the platform's API URL: a saved position is of it.
	Host string
	// API is the project's client: the event log and the subscriptions
	// belong to the project.
	API *api.Client
	// StateDir is where Resume keeps the position.
	StateDir string
	// Demo: a subscription that cannot be removed goes with the demo's
	// emulator, and is no error.
	Demo bool
	// Config is --config, when given, for the command that removes a
	// subscription left behind.
	Config string
}

// Streams are where a run writes: a line per delivery attempt (and the
// payloads) on Out, everything else on Err.
type Streams struct {
	Out io.Writer
	Err io.Writer
}

// NoSubscriptionError reports that listen found no webhook subscription to
// follow.
type NoSubscriptionError struct{ Env string }

func (e *NoSubscriptionError) Error() string {
	return fmt.Sprintf("the %s project has no webhook subscription, so the platform logs no deliveries to follow", e.Env)
}

// Remedy is to create a subscription.
func (e *NoSubscriptionError) Remedy() remedy.Remedy {
	return remedy.Remedy{Kind: remedy.CreateSubscription, Env: e.Env}
}

// LeftSubscriptionError reports that the subscription Create made could
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
		cfg = " --config " + shellcmd.Quote(e.Config)
	}
	return remedy.Remedy{Kind: remedy.RemoveSubscription, Env: e.Env,
		Command: fmt.Sprintf("partnertui subscriptions remove %s --env %s%s", e.ID, e.Env, cfg)}
}

// Run follows e's event log and forwards what is new until ctx ends; it
// removes Create's subscription on its way out.
func Run(ctx context.Context, opts Options, e Env, s Streams) (runErr error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	l := newListener(opts, e, s)
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
		subs, err := e.API.WebhookSubscriptions(ctx, api.WebhookSubscriptionsParams{First: 1})
		if err != nil {
			return err
		}
		if len(subs.Items) == 0 {
			return &NoSubscriptionError{Env: e.Name}
		}
	}
	return l.run(ctx)
}

// listener follows the event log and forwards what is new.
type listener struct {
	opts    Options
	env     Env
	io      Streams
	api     *api.Client
	subID   string // the subscription followed (Subscription, or Create's); "" for all
	seen    map[string]bool
	started bool                  // the first read, which only marks history, is done
	secrets map[string]api.Secret // read by the log's reader only
	http    *http.Client
	pos     *position // with Resume
	resumed bool      // pos was saved by an earlier run

	out sync.Mutex // one event's line is never cut by another's
	// The first line of each event handed over comes out in the order the
	// events were handed over (oldest first), whichever delivery ends
	// first: held holds those waiting for an earlier one's; printed is the
	// last ticket out. Both under out.
	held    map[int]string
	printed int
}

func newListener(opts Options, e Env, s Streams) *listener {
	// Straight to the endpoint: no proxy from the environment sees the
	// secret, and a redirect is the endpoint's answer, never followed (it
	// would carry the secret to whatever origin it names).
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.MaxIdleConnsPerHost = inFlight
	return &listener{opts: opts, env: e, io: s, api: e.API, subID: opts.Subscription, seen: map[string]bool{}, secrets: map[string]api.Secret{}, held: map[int]string{},
		http: &http.Client{Transport: tr, Timeout: opts.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// follow checks that the subscription Subscription names exists, and
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
	env := l.env.Name
	subs, lerr := l.api.WebhookSubscriptions(ctx, api.WebhookSubscriptionsParams{})
	if lerr != nil || len(subs.Items) == 0 {
		return usage.Errorf("--subscription %q is not a webhook subscription of the %s project: run `partnertui subscriptions --env %s` to list them, or use --create",
			safetext.Truncate(id, 80), env, env)
	}
	const shown = 10
	known := make([]string, 0, shown)
	for _, s := range subs.Items[:min(shown, len(subs.Items))] {
		known = append(known, fmt.Sprintf("%s (%s)", s.ID, s.Label))
	}
	more := ""
	if len(subs.Items) > shown || subs.PageInfo.HasNextPage {
		more = fmt.Sprintf(", and more: run `partnertui subscriptions --env %s` to list them all", env)
	}
	return usage.Errorf("--subscription %q is not a webhook subscription of the %s project; its subscriptions are %s%s",
		safetext.Truncate(id, 80), env, strings.Join(known, ", "), more)
}

// create makes the run's subscription, with Secret or a fresh secret that
// listen sends to the local endpoint like the platform would. A generated
// secret is printed, once: it is the one the user's handler must check,
// and the only secret partnertui ever shows (it guards nothing but that
// local handler).
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
		Label: "partnertui listen", Endpoint: subscriptionEndpoint, Secret: secret, EventTypes: types,
	})
	if err != nil {
		return nil, err
	}
	l.subID = sub.ID
	l.secrets[sub.ID] = secret
	fmt.Fprintf(l.io.Err, "Created webhook subscription %s for this run; it is removed when listen stops.\n", sub.ID)
	if l.opts.Secret == "" {
		fmt.Fprintf(l.io.Err, "Its secret, sent in the x-swan-secret header for your handler to check, is %s (shown only now; --secret-env or --secret-file chooses it).\n", secret.Reveal())
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
		if l.env.Demo {
			return nil // it goes with the demo's emulator
		}
		return &LeftSubscriptionError{ID: sub.ID, Env: l.env.Name, Config: l.env.Config, Err: err}
	}
	fmt.Fprintf(l.io.Err, "Removed webhook subscription %s.\n", sub.ID)
	return nil
}

func (l *listener) params() api.WebhookEventLogsParams {
	return api.WebhookEventLogsParams{WebhookSubscriptionID: l.subID, EventType: ServerType(l.opts.Types)}
}

// ServerType is the one type to ask the event log for, of a list of
// wanted types: the only one, else none (the log filters on one type;
// with several it is read unfiltered and its entries are filtered by
// Wanted).
func ServerType(types []string) string {
	if len(types) == 1 {
		return types[0]
	}
	return ""
}

// Wanted reports whether an entry of type typ is wanted, of a list of
// wanted types, once the log has filtered on ServerType.
func Wanted(types []string, typ string) bool { return len(types) <= 1 || slices.Contains(types, typ) }

func (l *listener) clock() string { return l.opts.Now().Format("15:04:05") }
