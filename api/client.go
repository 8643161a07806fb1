// Package api is partnertui's GraphQL client for one platform environment:
// typed operations, cursor pagination, the request budget and 429 handling,
// typed errors and sanitised strings. It knows nothing of Bubble Tea.
package api

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/partnertui/partnertui/internal/budget"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
)

// Options configure one environment's Client.
type Options struct {
	Env        string // "sandbox" | "live"; named in errors and Status
	GraphQLURL string // the environment's partner endpoint
	TestingURL string // Sandbox Testing API endpoint; "" for Live (no Testing API)
	// TokenSource supplies the bearer token (the persisting user-token source
	// from auth, or a project token source). Required. It is called once
	// per request, so it should cache (oauth2.ReuseTokenSource does).
	TokenSource oauth2.TokenSource
	// Anonymous sends no token at all, for what the platform serves to
	// anyone: its schema, by introspection. TokenSource is then unused.
	// The requests still share the budget and go only to the
	// environment's endpoints.
	Anonymous bool
	// OnUnauthorized, when set, is called with the access token the server
	// answered 401 to; the request is retried once if the token source then
	// yields a different token (auth.Session.Rejected re-reads the store).
	OnUnauthorized func(accessToken string)
	// ReadOnly refuses every mutation before anything is sent (the app's
	// Live read-only policy).
	ReadOnly bool
	PageSize int              // default platform.PageMax
	Budget   int              // requests per Window; default platform.RequestBudget
	Window   time.Duration    // default platform.BudgetWindow
	Timeout  time.Duration    // per request; default 30s
	Now      func() time.Time // clock for tests (and the budget's records); default time.Now
	// Sleep waits for d or until ctx is done; tests inject a fake.
	Sleep func(ctx context.Context, d time.Duration) error
	// MaxAttempts bounds the sends of one query when the server answers
	// 429; default 5. Mutations are always sent once.
	MaxAttempts int
	// BudgetDir holds the request budget shared by every process of the
	// machine (the platform counts per IP address): one file per GraphQL
	// host, dir/budget-<host>, see internal/budget. The app passes
	// its state directory (paths.Locations); --demo its temporary one. Empty keeps the
	// budget in this process only.
	BudgetDir string
	// Log, when set, keeps each request of this client (with those of
	// every other client given the same log); see RequestLog.
	Log *RequestLog
	// Project says the token source hands out project tokens: the request
	// log's copied commands then carry --project.
	Project bool
	// Transport is the connection pool under the client's own layers
	// (budget, environment guard, token). The clients of one environment
	// (user and project token) share one, so a project-token view finds a
	// warm connection; never share one between environments. nil builds a
	// pool of the client's own (NewTransport).
	Transport *http.Transport
	// OnWait, when set, hears of each wait of this client's requests (the
	// budget spent, or a 429 of any process sharing the budget): once when
	// it starts, once when it ends; see Wait. Calls come one at a time, in
	// order, without the client's lock held; OnWait should return quickly.
	OnWait func(Wait)
}

// Defaults of Options.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMaxAttempts = 5
	backoffBase        = time.Second
	backoffCap         = time.Minute
)

// Client talks to one environment. It is safe for concurrent use.
type Client struct {
	env         string
	readOnly    bool
	pageSize    int
	timeout     time.Duration
	maxAttempts int
	now         func() time.Time
	sleep       func(ctx context.Context, d time.Duration) error

	src      oauth2.TokenSource
	rejected func(accessToken string) // Options.OnUnauthorized; may be nil
	onWait   func(Wait)               // Options.OnWait; may be nil
	budget   *budget.Budget
	log      *RequestLog // Options.Log; may be nil
	project  bool

	base       *http.Transport
	http       *http.Client // the full stack; tests drive the guard through it
	gqlURL     string
	testingURL string // "" without a Testing API

	ops   opTexts           // each operation's text, built once
	split splitOps          // the split walks' texts, by page count
	strip safetext.Stripper // remembers where each response type holds strings
	bufs  bufPool           // response bodies

	updates chan Status

	mu          sync.Mutex // guards everything below
	lastStatus  int
	lastLatency time.Duration
	inFlight    int
	waiters     int         // requests held back by wait
	retriers    int         // of which resends after a 429
	wait        budget.Hold // the wait they are in; zero when none
	waitSince   time.Time   // when that wait began
	// pendingWaits are noted for OnWait and not yet delivered; delivering
	// is true while a goroutine delivers them.
	pendingWaits []Wait
	delivering   bool
}

// New builds a Client whose transport stack is observer → environment guard
// → token → connection keeper (leave.go) → base transport.
func New(opts Options) (*Client, error) {
	if opts.Env == "" {
		return nil, errors.New("api: Options.Env is empty; name the environment (sandbox or live)")
	}
	if opts.TokenSource == nil && !opts.Anonymous {
		return nil, fmt.Errorf("api: no token source for the %s API; sign in first", opts.Env)
	}
	main, err := parseEndpoint(opts.GraphQLURL, "the GraphQL URL")
	if err != nil {
		return nil, fmt.Errorf("api: the %s GraphQL URL %q is unusable: %w", opts.Env, safetext.Truncate(opts.GraphQLURL, 200), err)
	}
	allowed := []endpoint{main}
	if opts.TestingURL != "" {
		te, err := parseEndpoint(opts.TestingURL, "the Testing API URL")
		if err != nil {
			return nil, fmt.Errorf("api: the %s Testing API URL %q is unusable: %w", opts.Env, safetext.Truncate(opts.TestingURL, 200), err)
		}
		allowed = append(allowed, te)
	}
	c := &Client{
		env:         opts.Env,
		readOnly:    opts.ReadOnly,
		pageSize:    opts.PageSize,
		timeout:     opts.Timeout,
		maxAttempts: opts.MaxAttempts,
		now:         opts.Now,
		sleep:       opts.Sleep,
		src:         opts.TokenSource,
		rejected:    opts.OnUnauthorized,
		onWait:      opts.OnWait,
		log:         opts.Log,
		project:     opts.Project,
		updates:     make(chan Status, 1),
	}
	if c.pageSize <= 0 || c.pageSize > platform.PageMax {
		c.pageSize = platform.PageMax
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxAttempts <= 0 {
		c.maxAttempts = DefaultMaxAttempts
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	cfg := budget.Config{Limit: opts.Budget, Window: opts.Window, Now: c.now}
	if cfg.Limit <= 0 {
		cfg.Limit = platform.RequestBudget
	}
	if cfg.Window <= 0 {
		cfg.Window = platform.BudgetWindow
	}
	if opts.BudgetDir != "" {
		// The platform counts per IP address: every environment and
		// process that talks to this host spends the same budget.
		c.budget, err = budget.Open(opts.BudgetDir, main.host, cfg)
	} else {
		c.budget, err = budget.New(cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("api: the %s request budget: %w", opts.Env, err)
	}
	c.base = opts.Transport
	if c.base == nil {
		c.base = NewTransport()
	}
	var next http.RoundTripper = &tokenTransport{src: opts.TokenSource, next: &connKeeper{next: c.base}}
	if opts.Anonymous {
		c.src, c.rejected, next = nil, nil, &connKeeper{next: c.base}
	}
	hc := &http.Client{
		Transport: &observer{c: c, next: &guardTransport{
			env:     c.env,
			allowed: allowed,
			next:    next,
		}},
		// A GraphQL POST has no business being redirected, and following
		// one would re-send the body somewhere else.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	c.http = hc
	c.gqlURL = opts.GraphQLURL
	c.testingURL = opts.TestingURL
	return c, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Env is the environment this client is bound to.
func (c *Client) Env() string { return c.env }

// PageSize is the page size used when AccountsParams.First is 0.
func (c *Client) PageSize() int { return c.pageSize }

// SharesConnectionsWith reports whether c and o send through one
// connection pool (Options.Transport).
func (c *Client) SharesConnectionsWith(o *Client) bool { return c.base == o.base }

// Close releases idle connections and the budget's file. The Client must
// not be used afterwards.
func (c *Client) Close() {
	c.base.CloseIdleConnections()
	_ = c.budget.Close()
}

// WarmToken gets the token the next request would first wait for (the
// token source keeps it), so that request costs only its own round trip:
// the UI fetches the project token at launch, before the Events view
// needs it.
func (c *Client) WarmToken() error {
	if c.src == nil {
		return nil // an anonymous client sends none
	}
	tok, err := c.src.Token()
	if err == nil && (tok == nil || tok.AccessToken == "") {
		err = errors.New("the token source returned no access token")
	}
	if err != nil {
		return fmt.Errorf("fetching the %s token ahead: %w", c.env, err)
	}
	return nil
}

// Status is a snapshot for the footer. It is cheap enough to poll: the
// shared budget's file is re-read at most a few times a second, and never
// waited for.
func (c *Client) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snapshotLocked()
}

// Updates delivers a Status after every change of this client (request
// sent, response, wait start/end). The channel is buffered and lossy: a slow
// reader sees the latest state, never blocks the client. Other processes'
// requests change Status().Used without an update: poll Status for them.
func (c *Client) Updates() <-chan Status { return c.updates }

func (c *Client) snapshotLocked() Status {
	used, limit := c.budget.Count()
	return Status{
		Env:         c.env,
		Used:        used,
		Limit:       limit,
		Window:      c.budget.Window(),
		LastStatus:  c.lastStatus,
		LastLatency: c.lastLatency,
		InFlight:    c.inFlight,
		Waiting:     c.waiters,
		WaitReason:  c.wait.Reason,
		RetryAt:     c.wait.Until,
		Retrying:    c.retriers > 0,
	}
}

// publishLocked replaces whatever is waiting in the channel with the latest
// state; c.mu serialises publishers, so the newest state always wins.
func (c *Client) publishLocked() {
	s := c.snapshotLocked()
	select {
	case c.updates <- s:
		return
	default:
	}
	select {
	case <-c.updates:
	default:
	}
	select {
	case c.updates <- s:
	default:
	}
}

func (c *Client) begin() {
	c.mu.Lock()
	c.inFlight++
	c.publishLocked()
	c.mu.Unlock()
}

// end closes the accounting of one request. status 0 means no HTTP answer.
func (c *Client) end(sentAt time.Time, notSent bool, status int, h http.Header) {
	if notSent {
		// A release that fails leaves a send counted that never left: the
		// budget errs on the safe side.
		_ = c.budget.Release(sentAt)
	} else if h != nil {
		c.observe(h)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inFlight--
	if !notSent {
		c.lastStatus = status
		c.lastLatency = c.now().Sub(sentAt)
	}
	c.publishLocked()
}

// run sends one operation, retrying queries on 429 and any operation once
// after a 401 that a rotated token may cure. call must build a fresh result
// struct on every invocation: decoding fills a struct, and a resend must
// not keep what an earlier answer left in it. Every send goes through the
// whole transport stack, so retries count against the budget and show in
// Status like any other request.
//
// A 429 puts a hold on the shared budget (its Retry-After, else a
// backoff): every request of every process sharing it waits for the hold
// before it is sent, and that is where a query's retry waits too. A
// mutation's 429 is returned at once: a mutation is sent once, and whether
// to send it again is its caller's decision.
func (c *Client) run(ctx context.Context, mutation bool, call func(ctx context.Context) error) error {
	if mutation && c.readOnly {
		return &ReadOnlyError{Env: c.env}
	}
	reauthed, retry := false, false
	for attempt := 1; ; {
		cs := &callState{retry: retry}
		err := call(context.WithValue(ctx, callKey{}, cs))
		if err == nil {
			c.record(cs, nil)
			return nil
		}
		err = c.classify(ctx, cs, err)
		c.record(cs, err)
		if !reauthed && c.tokenReplaced(cs) {
			// The server refused the request before running it, so even a
			// mutation is safe to send again.
			reauthed = true
			continue
		}
		var rl *RateLimitedError
		if !errors.As(err, &rl) {
			return err
		}
		if !c.holdAfter429(rl, attempt) || mutation || attempt >= c.maxAttempts {
			return err
		}
		attempt++
		retry = true
	}
}

// tokenReplaced handles a 401 to a token that looked valid: another process
// may have rotated the refresh token, which revokes the access token we
// hold. It tells OnUnauthorized which token was refused and reports whether
// the source now has a different one worth a second send.
func (c *Client) tokenReplaced(cs *callState) bool {
	if c.rejected == nil || cs.status != http.StatusUnauthorized || cs.token == "" {
		return false
	}
	c.rejected(cs.token)
	fresh, err := c.src.Token()
	return err == nil && fresh != nil && fresh.AccessToken != "" && fresh.AccessToken != cs.token
}

// backoff is exponential with "equal jitter": half fixed, half random, so
// clients that were refused together do not retry together.
func backoff(attempt int) time.Duration {
	d := backoffBase << min(attempt-1, 10)
	if d > backoffCap {
		d = backoffCap
	}
	half := d / 2
	return half + rand.N(half+1)
}
