package api

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
)

// snippetLen is how much of a body is kept for BadResponseError.
const snippetLen = 200

// callState is what the transport stack learns about one operation's HTTP
// exchange; it travels in the request context so concurrent operations
// (Walk's prefetch and a detail fetch, say) never mix their results.
type callState struct {
	host     string
	status   int
	header   http.Header
	snippet  [snippetLen]byte
	nSnippet int
	guardErr *EndpointError
	tokenErr error
	// token is the access token sent, kept only to tell OnUnauthorized
	// which one the server refused; it is never formatted anywhere.
	token    string
	timedOut bool
	// retry marks the resend of a query the server answered 429, so a
	// wait before it shows as a retry.
	retry bool

	// What the request log keeps (reqlog.go); seq is 0 without a log.
	seq         uint64
	url         string
	body        []byte
	started     time.Time
	duration    time.Duration
	size        int64
	used, limit int
	waited      time.Duration
	waitReason  WaitReason
	errs        []string
}

type callKey struct{}

func callFrom(ctx context.Context) *callState {
	cs, _ := ctx.Value(callKey{}).(*callState)
	return cs
}

// endpoint is scheme://host/path, compared exactly by the guard.
type endpoint struct {
	scheme, host, path string
}

func parseEndpoint(raw, what string) (endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return endpoint{}, err
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return endpoint{}, errors.New(what + " must be an http(s) URL")
	}
	if u.Host == "" {
		return endpoint{}, errors.New(what + " has no host")
	}
	if u.User != nil {
		return endpoint{}, errors.New(what + " must not carry credentials")
	}
	if u.Scheme == "http" && !platform.IsLoopback(u.Hostname()) {
		// A bearer token must never cross the network in clear text; plain
		// http is only for the emulator on this machine.
		return endpoint{}, errors.New(what + " must use https unless it points at this machine")
	}
	return endpoint{scheme: u.Scheme, host: strings.ToLower(u.Host), path: normPath(u.Path)}, nil
}

func normPath(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

func (e endpoint) matches(u *url.URL) bool {
	return u.Scheme == e.scheme && strings.EqualFold(u.Host, e.host) && normPath(u.Path) == e.path
}

// guardTransport refuses any request whose URL is not exactly one of the
// environment's endpoints. It sits before the token layer, so a foreign
// host never sees a token.
type guardTransport struct {
	env     string
	allowed []endpoint
	next    http.RoundTripper
}

func (g *guardTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	for _, e := range g.allowed {
		if e.matches(req.URL) {
			return g.next.RoundTrip(req)
		}
	}
	closeBody(req)
	ge := &EndpointError{Env: g.env, URL: safetext.Strip(req.URL.Scheme + "://" + req.URL.Host + req.URL.Path)}
	if cs := callFrom(req.Context()); cs != nil {
		cs.guardErr = ge
	}
	return nil, ge
}

// tokenError marks a failure of the token source, so the observer knows the
// request never left.
type tokenError struct{ err error }

func (e *tokenError) Error() string { return "could not get an access token: " + e.err.Error() }
func (e *tokenError) Unwrap() error { return e.err }

// tokenTransport attaches the bearer token, like oauth2.Transport but
// recording token-source failures for the error classifier, and the token
// it sent so a 401 can name the token that was refused.
type tokenTransport struct {
	src  oauth2.TokenSource
	next http.RoundTripper
}

func (t *tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tok, err := t.src.Token()
	if err == nil && (tok == nil || tok.AccessToken == "") {
		err = errors.New("the token source returned no access token")
	}
	cs := callFrom(req.Context())
	if err != nil {
		closeBody(req)
		if cs != nil {
			cs.tokenErr = err
		}
		return nil, &tokenError{err: err}
	}
	if cs != nil {
		cs.token = tok.AccessToken
	}
	r2 := req.Clone(req.Context())
	tok.SetAuthHeader(r2)
	return t.next.RoundTrip(r2)
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// NewTransport is a connection pool for the clients of one environment
// (Options.Transport): connections are kept alive between requests, so
// only the first request pays for the connection and its TLS handshake.
// Each client applies its own per-request timeout on top.
func NewTransport() *http.Transport {
	const timeout = DefaultTimeout
	dialer := &net.Dialer{Timeout: min(timeout, 10*time.Second), KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   min(timeout, 10*time.Second),
		ResponseHeaderTimeout: timeout,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConns:          8,
		MaxIdleConnsPerHost:   4,
		ForceAttemptHTTP2:     true,
		TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
	}
}

// observer is the outermost layer: it takes a slot from the request budget
// (waiting while it is spent or a 429's hold lasts), applies the
// per-request timeout, and feeds the counts, statuses and timings into
// Status.
type observer struct {
	c    *Client
	next http.RoundTripper
}

func (o *observer) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	cs := callFrom(ctx)
	o.c.noteRequest(cs, req)
	// A FinishOnceSent request is not sent once its asker has gone.
	wctx, stopWaiting := untilSent(ctx)
	sentAt, err := o.c.acquire(wctx, cs)
	if err == nil {
		err = wctx.Err()
		if err != nil {
			_ = o.c.budget.Release(sentAt)
		}
	}
	stopWaiting()
	if err != nil {
		closeBody(req)
		return nil, err
	}
	if cs != nil {
		cs.host = req.URL.Host
		o.c.noteSent(cs, sentAt)
	}
	// The timeout starts once the budget allows the request: a wait for
	// the budget is not the server being slow.
	tctx, cancel := context.WithTimeout(ctx, o.c.timeout)
	o.c.begin()
	resp, err := o.next.RoundTrip(req.WithContext(tctx))
	if err != nil {
		cancel()
		var ge *EndpointError
		var te *tokenError
		notSent := errors.As(err, &ge) || errors.As(err, &te)
		if cs != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			cs.timedOut = true
		}
		if cs != nil {
			cs.duration = o.c.now().Sub(sentAt)
		}
		o.c.end(sentAt, notSent, 0, nil)
		return nil, err
	}
	if cs != nil {
		cs.status = resp.StatusCode
		cs.header = resp.Header
	}
	resp.Body = &observedBody{rc: resp.Body, cs: cs, done: func() {
		cancel()
		if cs != nil {
			cs.duration = o.c.now().Sub(sentAt)
		}
		o.c.end(sentAt, false, resp.StatusCode, resp.Header)
	}}
	return resp, nil
}

// observedBody ends the request's accounting when the body is consumed and
// keeps its first bytes for BadResponseError.
type observedBody struct {
	rc   io.ReadCloser
	cs   *callState
	once sync.Once
	done func()
}

func (b *observedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if cs := b.cs; cs != nil && n > 0 {
		cs.size += int64(n)
		if cs.nSnippet < snippetLen {
			cs.nSnippet += copy(cs.snippet[cs.nSnippet:], p[:n])
		}
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && b.cs != nil {
			b.cs.timedOut = true
		}
		if err == io.EOF {
			b.once.Do(b.done)
		}
	}
	return n, err
}

func (b *observedBody) Close() error {
	err := b.rc.Close()
	b.once.Do(b.done)
	return err
}
