// Package emulator is an in-process emulation of the whole platform: the
// OAuth 2.0 / OpenID Connect authorization server and the Sandbox, Sandbox
// Testing and Live GraphQL endpoints, faithful to the platform
// specification. It imports nothing from auth, api or ui, so a client bug
// cannot hide behind a matching emulator bug.
package emulator

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/gql"
	"github.com/partnertui/partnertui/emulator/internal/oauth"
)

// Options configure an emulator; zero values take the defaults in brackets.
type Options struct {
	Listen     string        // [127.0.0.1:0]
	Accounts   int           // accounts to generate [120], up to 100,000
	Seed       int64         // seed of the data and of what is generated for Schemas [1]
	RateLimit  int           // requests per RateWindow per client IP per endpoint [2000]
	RateWindow time.Duration // [5m]
	TokenTTL   time.Duration // access-token lifetime [1h]
	CodeTTL    time.Duration // authorization-code lifetime [10m]
	RequestLog io.Writer     // one JSON line per request (no tokens); nil for none

	// Now is the clock of the rate-limit window, the request log and
	// simulated transfers [time.Now]; tests inject a fake one. Token and
	// code expiry follow the real clock (fosite reads time.Now itself).
	Now func() time.Time
	// Epoch is the "now" of the generated data: accounts are created in
	// the three years before it, their transactions happen up to it, and
	// what is pending, upcoming or due is so relative to it. One Seed and
	// one Epoch give byte-identical data and answers, whatever the clock
	// [DefaultEpoch, fixed so tests' figures never move]. partnertui --demo
	// and `partnertui emulator` pass the StartOfDay of the app's clock
	// (the latter's --epoch another time). It may not be after Now
	// (nothing is dated in the future) nor before 2000.
	Epoch time.Time
	// SigningKey signs id_tokens; nil generates a fresh RSA key. Tests
	// share one because generating a key costs about 100 ms.
	SigningKey *rsa.PrivateKey

	// Webhook deliveries (internal/webhooks). The waits are real time, not Now,
	// so tests shorten them instead of faking a clock.
	WebhookRetryInterval time.Duration // between delivery attempts [30s]
	WebhookAnswerWindow  time.Duration // an endpoint's time to answer 2xx [10s]
	WebhookMaxRetries    int           // retries after the first attempt [7]; negative: none
	// BookingDelay is how long a simulated incoming transfer stays Pending
	// before it is Booked [0: booked before the mutation answers, still
	// after its Transaction.Pending event].
	BookingDelay time.Duration
	// DemoSubscription gives each environment, at start, one enabled
	// webhook subscription to every event type, pointing at an address
	// that cannot be reached: the event log fills as things happen, which
	// is what partnertui --demo shows (and listen forwards).
	DemoSubscription bool

	// TokenAuthMethod is how the demo clients authenticate at the token
	// endpoint: "client_secret_post" [default] or "client_secret_basic".
	// A client using the other method gets fosite's invalid_client with
	// the expected method in error_description.
	TokenAuthMethod string
	// OmitRetryAfter leaves the Retry-After header out of 429 answers, so
	// clients can test that path.
	OmitRetryAfter bool
	// Latency makes the emulator behave as if it were this round trip
	// away, so a client can be seen as it behaves far from the platform:
	// every HTTP answer (GraphQL and OAuth) waits Latency, and the first
	// answer of a new connection Latency more (its handshake) [0: none].
	Latency time.Duration
	// sleep waits out the latency [a timer that stops when the client goes
	// away]; the package's tests record the waits instead.
	sleep func(ctx context.Context, d time.Duration)
	// OnRefreshRotated is called when the token endpoint has rotated a
	// refresh token and logged it, before the token response is written; a
	// test can block in it to hold the response back.
	OnRefreshRotated func()

	// Schemas are schemas a user brings, at most one per API (the partner
	// API and the Testing API, told apart by their root types): each is
	// then served whole, in both environments, its operations the model
	// does not answer generated for Seed. None: the model's own schemas.
	Schemas []Source
	// Fixtures sets objects of the brought schemas by type and id (TOML
	// or JSON); it needs Schemas.
	Fixtures *Source
}

// Defaults of Options.
const (
	DefaultListen     = "127.0.0.1:0"
	DefaultAccounts   = 120
	DefaultSeed       = 1
	DefaultRateLimit  = 2000
	DefaultRateWindow = 5 * time.Minute
	// CallbackURI is the demo clients' registered redirect URI; any port on
	// a loopback address matches it (RFC 8252).
	CallbackURI = "http://127.0.0.1/callback"
)

// DefaultEpoch is Options.Epoch when none is given: 2026-11-01 09:00 UTC.
func DefaultEpoch() time.Time { return data.DefaultEpoch() }

// StartOfDay is the start of t's UTC day: the epoch of partnertui --demo
// and `partnertui emulator`, so the data is generated up to today and
// every start of one day serves the same data.
func StartOfDay(t time.Time) time.Time { return t.UTC().Truncate(24 * time.Hour) }

// DemoWebhookEndpoint is where Options.DemoSubscription points: a reserved
// name that fails at once, so each delivery is logged without waiting.
const DemoWebhookEndpoint = gql.DemoWebhookEndpoint

// EnvInfo is what a client needs to use one environment of the emulator.
type EnvInfo struct {
	ClientID          string `json:"client_id"`
	ClientSecret      string `json:"client_secret"`
	RedirectURI       string `json:"redirect_uri"`
	GraphQLURL        string `json:"graphql_url"`
	TestingGraphQLURL string `json:"testing_graphql_url,omitempty"`
}

// DemoUser is a user who can sign in on the emulator's forms.
type DemoUser struct {
	Phone     string `json:"phone"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	UserID    string `json:"user_id"`
	Env       string `json:"env"`
}

// Info is printed by `partnertui emulator` (one JSON line with --json).
type Info struct {
	APIURL  string `json:"api_url"`
	AuthURL string `json:"auth_url"`
	// Epoch is the time the data is generated up to (Options.Epoch).
	Epoch        time.Time          `json:"epoch"`
	Environments map[string]EnvInfo `json:"environments"` // "sandbox", "live"
	DemoUsers    []DemoUser         `json:"demo_users"`
	// Schemas are the schema files served instead of the model's own, by
	// API ("partner API", "Testing API").
	Schemas map[string]string `json:"schemas,omitempty"`
	// Mismatches name the model's fields that a brought schema types
	// differently: they are generated instead.
	Mismatches []string `json:"mismatches,omitempty"`
}

// The data side is the authorization server's user directory.
var _ oauth.Users = data.Directory{}

// Server is a running emulator.
type Server struct {
	info    Info
	envs    []*environment
	http    *http.Server
	done    chan struct{} // closed when Serve returns
	serveMu sync.Mutex
	err     error // Serve's error other than ErrServerClosed
	close   sync.Once
}

// Start listens on opts.Listen and serves until ctx is done or Close is
// called.
func Start(ctx context.Context, opts Options) (*Server, error) {
	opts, err := withDefaults(opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w (choose a free address with --listen)", opts.Listen, err)
	}
	site, err := build(opts, "http://"+ln.Addr().String())
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	s := &Server{
		info: site.info,
		envs: site.envs,
		done: make(chan struct{}),
		http: &http.Server{
			Handler:           site.handler,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second,
			WriteTimeout:      60 * time.Second,
			IdleTimeout:       2 * time.Minute,
			MaxHeaderBytes:    64 << 10,
			BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
			ConnContext:       markConn,
		},
	}
	go func() {
		defer close(s.done)
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.serveMu.Lock()
			s.err = err
			s.serveMu.Unlock()
		}
	}()
	// Stop with ctx; the watcher ends with the server either way.
	go func() {
		select {
		case <-ctx.Done():
			_ = s.Close()
		case <-s.done:
		}
	}()
	return s, nil
}

// ErrInvalidOptions is matched (errors.Is) by Start's errors about Options
// it cannot run with, such as --accounts out of range or a token lifetime
// under a second: the caller's mistake rather than a failure to start.
var ErrInvalidOptions = errors.New("invalid emulator options")

// optionsError reads as its own sentence and matches ErrInvalidOptions.
type optionsError struct{ err error }

func (e optionsError) Error() string   { return e.err.Error() }
func (e optionsError) Unwrap() []error { return []error{e.err, ErrInvalidOptions} }

func withDefaults(o Options) (Options, error) {
	if o.Listen == "" {
		o.Listen = DefaultListen
	}
	if o.Accounts == 0 {
		o.Accounts = DefaultAccounts
	}
	if o.Accounts < 0 || o.Accounts > data.MaxAccounts {
		return o, optionsError{fmt.Errorf("accounts must be between 1 and %d, got %d: choose another --accounts", data.MaxAccounts, o.Accounts)}
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.RateLimit == 0 {
		o.RateLimit = DefaultRateLimit
	}
	if o.RateWindow == 0 {
		o.RateWindow = DefaultRateWindow
	}
	if o.RateLimit < 0 || o.RateWindow < 0 {
		return o, optionsError{fmt.Errorf("rate limit %d/%s is negative: use a positive count and window such as 2000/5m", o.RateLimit, o.RateWindow)}
	}
	if o.Latency < 0 {
		return o, optionsError{fmt.Errorf("latency %s is negative: use 0 for none or a duration such as 100ms", o.Latency)}
	}
	if err := checkWebhookOptions(o); err != nil {
		return o, optionsError{err}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if err := checkEpoch(&o); err != nil {
		return o, optionsError{err}
	}
	return o, nil
}

// checkEpoch defaults Options.Epoch and refuses one the data cannot be
// generated up to: after Now, it would date bookings in the future.
func checkEpoch(o *Options) error {
	if o.Epoch.IsZero() {
		o.Epoch = DefaultEpoch()
		return nil
	}
	o.Epoch = o.Epoch.UTC()
	if now := o.Now().UTC(); o.Epoch.After(now) {
		return fmt.Errorf("epoch %s is after now (%s): the data would be dated in the future; choose a time up to now, such as today %s",
			o.Epoch.Format(time.RFC3339), now.Format(time.RFC3339), StartOfDay(now).Format(time.DateOnly))
	}
	// The data's three years then start well within the times every part
	// of the emulator represents (Unix nanoseconds among them).
	if o.Epoch.Year() < 2000 {
		return fmt.Errorf("epoch %s is before 2000: choose a later date", o.Epoch.Format(time.RFC3339))
	}
	return nil
}

// site is what Start serves and what it must close.
type site struct {
	handler http.Handler
	envs    []*environment
	info    Info
}

// build assembles the whole site for a base URL: each environment built
// the same way, one authorization server for their clients, one handler.
func build(opts Options, base string) (*site, error) {
	schemas, err := loadServed(opts)
	if err != nil {
		return nil, err
	}
	envs, err := newEnvironments(opts)
	if err != nil {
		return nil, err
	}
	s, err := assemble(opts, base, envs, schemas)
	if err != nil {
		closeAll(envs)
		return nil, err
	}
	return s, nil
}

// assemble starts the authorization server of the environments' clients
// and builds the handler and the start banner's Info.
func assemble(opts Options, base string, envs []*environment, schemas *served) (*site, error) {
	oo := oauth.Options{
		Issuer:           base,
		TokenTTL:         opts.TokenTTL,
		CodeTTL:          opts.CodeTTL,
		SigningKey:       opts.SigningKey,
		OnRefreshRotated: refreshRotated(opts.OnRefreshRotated),
	}
	var dir data.Directory
	for _, e := range envs {
		oo.Clients = append(oo.Clients, e.client)
		switch e.name {
		case "sandbox":
			dir.Sandbox = e.store
		case "live":
			dir.Live = e.store
		}
	}
	oo.Users = dir
	authz, err := oauth.New(oo)
	if errors.Is(err, oauth.ErrInvalidOptions) {
		return nil, optionsError{err}
	}
	if err != nil {
		return nil, fmt.Errorf("start the authorization server: %w", err)
	}
	h, err := newHandler(handlerConfig{envs: envs, tokens: authz, oauth: authz.Handler(), opts: opts, schemas: schemas})
	if err != nil {
		return nil, err
	}
	info := Info{APIURL: base, AuthURL: base, Epoch: opts.Epoch, Environments: map[string]EnvInfo{}}
	schemas.describe(&info)
	for _, e := range envs {
		info.Environments[e.name] = e.info(base)
		for _, u := range e.store.DemoUsers() {
			info.DemoUsers = append(info.DemoUsers, DemoUser{Phone: u.Phone, FirstName: u.FirstName, LastName: u.LastName, UserID: u.ID, Env: e.name})
		}
	}
	return &site{handler: h, envs: envs, info: info}, nil
}

// handlerConfig is everything newHandler wires together.
type handlerConfig struct {
	envs    []*environment
	tokens  gql.Introspector
	oauth   http.Handler // nil: no authorization server (tests)
	opts    Options
	schemas *served // nil: the model's own
}

// newHandler builds the one mux of every path, wrapped by the middleware.
func newHandler(c handlerConfig) (http.Handler, error) {
	mux := http.NewServeMux()
	for _, e := range c.envs {
		if err := e.mount(mux, c.tokens, c.schemas); err != nil {
			return nil, err
		}
	}
	if c.oauth != nil {
		for p := range knownEndpoints {
			if strings.HasPrefix(p, "/oauth2/") || strings.HasPrefix(p, "/.well-known/") {
				mux.Handle(p, c.oauth)
			}
		}
	}
	mux.HandleFunc("/", notFound)
	return withLatency(c.opts, newMiddleware(c.opts, mux)), nil
}

// Info returns the URLs and demo credentials.
func (s *Server) Info() Info {
	info := s.info
	info.Environments = make(map[string]EnvInfo, len(s.info.Environments))
	for k, v := range s.info.Environments {
		info.Environments[k] = v
	}
	info.DemoUsers = append([]DemoUser(nil), s.info.DemoUsers...)
	info.Mismatches = append([]string(nil), s.info.Mismatches...)
	if s.info.Schemas != nil {
		info.Schemas = map[string]string{}
		for k, v := range s.info.Schemas {
			info.Schemas[k] = v
		}
	}
	return info
}

// Done is closed when the server has stopped serving.
func (s *Server) Done() <-chan struct{} { return s.done }

// Close stops the listener and waits for in-flight requests.
func (s *Server) Close() error {
	var err error
	s.close.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		// A replay waits for its endpoint: interrupt it so Shutdown does
		// not wait out the answer window.
		interruptAll(s.envs)
		defer closeAll(s.envs)
		if err = s.http.Shutdown(ctx); err != nil {
			err = fmt.Errorf("stop the emulator: %w", err)
			_ = s.http.Close()
		}
		<-s.done
		s.serveMu.Lock()
		if s.err != nil && err == nil {
			err = fmt.Errorf("the emulator stopped serving: %w", s.err)
		}
		s.serveMu.Unlock()
	})
	return err
}

// Run serves until ctx is done, then shuts down; it is the body of the
// `partnertui emulator` command.
func (s *Server) Run(ctx context.Context) error {
	select {
	case <-ctx.Done():
	case <-s.done:
	}
	return s.Close()
}

// PrintInfo writes the start banner: human-readable text, or exactly one
// JSON object on one line when asJSON is set.
func PrintInfo(w io.Writer, info Info, asJSON bool) error {
	if asJSON {
		b, err := json.Marshal(info)
		if err != nil {
			return fmt.Errorf("encode the emulator info: %w", err)
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("write the emulator info: %w", err)
		}
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "partnertui emulator is running\n\n")
	fmt.Fprintf(&b, "  API base URL   %s\n", info.APIURL)
	fmt.Fprintf(&b, "  Auth URL       %s/oauth2 (discovery: %s/.well-known/openid-configuration)\n", info.AuthURL, info.AuthURL)
	if !info.Epoch.IsZero() {
		fmt.Fprintf(&b, "  Data           generated up to %s\n", epochText(info.Epoch))
	}
	for _, env := range []string{"sandbox", "live"} {
		e, ok := info.Environments[env]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "\n%s\n", strings.ToUpper(env[:1])+env[1:])
		fmt.Fprintf(&b, "  GraphQL        %s\n", e.GraphQLURL)
		if e.TestingGraphQLURL != "" {
			fmt.Fprintf(&b, "  Testing API    %s\n", e.TestingGraphQLURL)
		}
		fmt.Fprintf(&b, "  Client ID      %s\n", e.ClientID)
		fmt.Fprintf(&b, "  Client secret  %s\n", e.ClientSecret)
		fmt.Fprintf(&b, "  Redirect URI   %s (any port on 127.0.0.1 or [::1])\n", e.RedirectURI)
		first := true
		for _, u := range info.DemoUsers {
			if u.Env != env {
				continue
			}
			if first {
				fmt.Fprintf(&b, "  Demo users (sign in with the phone; the code is shown on the page):\n")
				first = false
			}
			fmt.Fprintf(&b, "    %-16s %s %s\n", u.Phone, u.FirstName, u.LastName)
		}
	}
	printSchemas(&b, info)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write the emulator info: %w", err)
	}
	return nil
}

// epochText is the epoch as the banner says it: to the minute, unless it
// has seconds.
func epochText(t time.Time) string {
	t = t.UTC()
	if t.Truncate(time.Minute).Equal(t) {
		return t.Format("2006-01-02 15:04 UTC")
	}
	return t.Format(time.RFC3339Nano)
}

// printSchemas says which schemas are served, and which of the model's
// fields they type differently.
func printSchemas(b *strings.Builder, info Info) {
	if len(info.Schemas) == 0 {
		return
	}
	fmt.Fprintf(b, "\nSchemas          served whole, generated where not modelled:\n")
	for _, api := range []string{"partner API", "Testing API"} {
		if p, ok := info.Schemas[api]; ok {
			fmt.Fprintf(b, "  %-14s %s\n", api, p)
		}
	}
	if len(info.Mismatches) > 0 {
		fmt.Fprintf(b, "  The schema types %d of the model's fields differently; they are generated:\n", len(info.Mismatches))
		for _, m := range info.Mismatches {
			fmt.Fprintf(b, "    %s\n", m)
		}
	}
}

// ParseRateLimit parses the --rate-limit flag, "COUNT/WINDOW" such as
// "2000/5m" or "10/1s"; a bare unit ("100/m") means one of it.
func ParseRateLimit(s string) (int, time.Duration, error) {
	countStr, winStr, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return 0, 0, fmt.Errorf("rate limit %q is not COUNT/WINDOW: use a form such as 2000/5m", s)
	}
	n, err := strconv.Atoi(strings.TrimSpace(countStr))
	if err != nil || n <= 0 {
		return 0, 0, fmt.Errorf("rate limit %q has no positive request count: use a form such as 2000/5m", s)
	}
	winStr = strings.TrimSpace(winStr)
	if winStr != "" && (winStr[0] < '0' || winStr[0] > '9') {
		winStr = "1" + winStr
	}
	d, err := time.ParseDuration(winStr)
	if err != nil || d <= 0 {
		return 0, 0, fmt.Errorf("rate limit %q has no positive window: use a Go duration such as 5m or 30s", s)
	}
	return n, d, nil
}
