package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/gql"
)

// maxBody is the largest request body any endpoint reads.
const maxBody = 1 << 20

// knownEndpoints are the paths rate-limited and logged under their own
// name; every other path shares one bucket so random paths cannot grow
// the limiter's memory.
var knownEndpoints = map[string]bool{
	"/oauth2/auth": true, "/oauth2/token": true, "/oauth2/revoke": true,
	"/.well-known/openid-configuration": true, "/.well-known/jwks.json": true,
	"/sandbox-partner/graphql": true, "/sandbox-partner-admin/graphql": true, "/live-partner/graphql": true,
	"/sandbox-consent": true, "/live-consent": true,
}

func endpointName(path string) string {
	if knownEndpoints[path] {
		return path
	}
	return "other"
}

// rateLimiter is a sliding-window log per client IP and endpoint: a
// request is allowed when fewer than limit requests of that key fall in
// the last window.
type rateLimiter struct {
	limit  int
	window time.Duration
	now    func() time.Time

	mu    sync.Mutex
	logs  map[string][]time.Time
	calls int
}

func newRateLimiter(limit int, window time.Duration, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, window: window, now: now, logs: map[string][]time.Time{}}
}

// allow records a request of key, or returns how long until one more
// would be allowed.
func (l *rateLimiter) allow(key string) (bool, time.Duration) {
	now := l.now()
	cutoff := now.Add(-l.window)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	if l.calls%1024 == 0 {
		l.sweepLocked(cutoff)
	}
	log := prune(l.logs[key], cutoff)
	if len(log) >= l.limit {
		l.logs[key] = log
		return false, log[0].Sub(cutoff)
	}
	l.logs[key] = append(log, now)
	return true, 0
}

// prune drops the entries at or before cutoff; logs are in time order.
func prune(log []time.Time, cutoff time.Time) []time.Time {
	i := 0
	for i < len(log) && !log[i].After(cutoff) {
		i++
	}
	// Re-slicing instead of copying down keeps a request at the limit O(1):
	// the next append that outgrows the shortened capacity moves only the
	// live entries to a new array and the old one is freed.
	return log[i:]
}

// sweepLocked forgets idle clients.
func (l *rateLimiter) sweepLocked(cutoff time.Time) {
	for k, log := range l.logs {
		if log = prune(log, cutoff); len(log) == 0 {
			delete(l.logs, k)
		} else {
			l.logs[k] = log
		}
	}
}

// clientIP is the connection's address; forwarding headers are ignored
// because any client could set them.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// statusWriter records the status and strips CORS grants, so a browser
// never receives an Access-Control-Allow-* header from any handler.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status != 0 {
		return
	}
	w.status = code
	for k := range w.Header() {
		if strings.HasPrefix(k, "Access-Control-Allow-") {
			w.Header().Del(k)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// logEntry is one line of the request log. It never holds a token or a
// secret: only the GraphQL operation and the token grant type are added.
type logEntry struct {
	Time       string          `json:"time"`
	Method     string          `json:"method"`
	Endpoint   string          `json:"endpoint"`
	Status     int             `json:"status"`
	DurationMS float64         `json:"duration_ms"`
	Operation  string          `json:"operation,omitempty"`
	OpName     string          `json:"operation_name,omitempty"`
	Variables  json.RawMessage `json:"variables,omitempty"`
	GrantType  string          `json:"grant_type,omitempty"`
}

// setOperation copies what the GraphQL endpoint recorded.
func (e *logEntry) setOperation(op *gql.OperationLog) {
	e.Operation, e.OpName, e.Variables = op.Query, op.Name, op.Variables
}

// rotationEntry is the log line of a refresh-token rotation. It has no
// endpoint or grant_type, so it never counts as a second token request.
type rotationEntry struct {
	Time     string `json:"time"`
	Event    string `json:"event"` // always "refresh_token_rotated"
	ClientID string `json:"client_id"`
	Env      string `json:"env"`
}

type middlewareKey struct{}

// refreshRotated is the authorization server's rotation hook: it writes
// the rotation line to the request log, then calls the Options hook, both
// before the token response goes out, so a test can stop the client at
// that moment.
func refreshRotated(hook func()) func(ctx context.Context, clientID, env string) {
	return func(ctx context.Context, clientID, env string) {
		if m, ok := ctx.Value(middlewareKey{}).(*middleware); ok && m.log != nil {
			m.log.write(&rotationEntry{Time: m.now().UTC().Format(time.RFC3339Nano), Event: "refresh_token_rotated", ClientID: clientID, Env: env})
		}
		if hook != nil {
			hook()
		}
	}
}

// requestLog serialises log lines onto one writer.
type requestLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *requestLog) write(e any) {
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(append(b, '\n'))
}

// middleware wraps every endpoint: panic recovery, request log, CORS
// refusal, body limit and rate limit, in that order from the outside.
type middleware struct {
	limiter        *rateLimiter
	log            *requestLog // nil: no log
	now            func() time.Time
	omitRetryAfter bool
	next           http.Handler
}

func newMiddleware(opts Options, next http.Handler) *middleware {
	m := &middleware{
		limiter:        newRateLimiter(opts.RateLimit, opts.RateWindow, opts.Now),
		now:            opts.Now,
		omitRetryAfter: opts.OmitRetryAfter,
		next:           next,
	}
	if opts.RequestLog != nil {
		m.log = &requestLog{w: opts.RequestLog}
	}
	return m
}

// refuse answers a request the middleware stops in the error shape of its
// endpoint: the OAuth endpoints answer RFC 6749 bodies
// ({"error","error_description"}), which OAuth clients parse, and the
// others GraphQL ones.
func refuse(w http.ResponseWriter, r *http.Request, status int, code, msg string) {
	if !strings.HasPrefix(r.URL.Path, "/oauth2/") {
		gql.WriteError(w, status, code, msg)
		return
	}
	oauthCode := "invalid_request"
	switch status {
	case http.StatusTooManyRequests:
		// RFC 6749 §4.1.2.1: the server is temporarily overloaded.
		oauthCode = "temporarily_unavailable"
	case http.StatusInternalServerError:
		oauthCode = "server_error"
	}
	h := w.Header()
	h.Set("Content-Type", "application/json;charset=UTF-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": oauthCode, "error_description": msg})
}

// statusClientClosed is what the request log says of a request
// whose client went away before its answer was written (nginx's 499): the
// request was not bad, nobody was there to read the answer.
const statusClientClosed = 499

func (m *middleware) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := m.now()
	sw := &statusWriter{ResponseWriter: w}
	// net/http ends the request's context when the client closes its
	// connection (or resets its HTTP/2 stream) before the answer is out.
	client := r.Context()
	entry := &logEntry{Method: r.Method, Endpoint: r.URL.Path}
	op := &gql.OperationLog{}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			if sw.status == 0 {
				refuse(sw, r, http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "the emulator failed on this request: please report it with the request log")
			}
		}
		if m.log != nil {
			entry.setOperation(op)
			entry.Time = start.UTC().Format(time.RFC3339Nano)
			entry.Status = sw.status
			if client.Err() != nil {
				entry.Status = statusClientClosed
			}
			entry.DurationMS = math.Round(float64(m.now().Sub(start).Microseconds())) / 1000
			m.log.write(entry)
		}
	}()
	ctx := gql.WithOperationLog(r.Context(), op)
	r = r.WithContext(context.WithValue(ctx, middlewareKey{}, m))

	if r.Method == http.MethodOptions {
		// No CORS preflight is ever granted: browsers must not call the API.
		sw.Header().Set("Allow", "GET, POST")
		refuse(sw, r, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "OPTIONS is not supported: the API is called from a backend, not a browser")
		return
	}
	ep := endpointName(r.URL.Path)
	if ok, wait := m.limiter.allow(clientIP(r) + " " + ep); !ok {
		msg := fmt.Sprintf("more than %d requests in %s on %s from this address: retry later", m.limiter.limit, m.limiter.window, ep)
		if !m.omitRetryAfter {
			secs := int(math.Ceil(wait.Seconds()))
			secs = max(secs, 1)
			sw.Header().Set("Retry-After", strconv.Itoa(secs))
			msg = fmt.Sprintf("more than %d requests in %s on %s from this address: retry after %d seconds", m.limiter.limit, m.limiter.window, ep, secs)
		}
		refuse(sw, r, http.StatusTooManyRequests, "RATE_LIMITED", msg)
		return
	}
	if r.ContentLength > maxBody {
		refuse(sw, r, http.StatusRequestEntityTooLarge, "BAD_REQUEST", fmt.Sprintf("the request body is larger than %d bytes: send a smaller request", maxBody))
		return
	}
	r.Body = http.MaxBytesReader(sw, r.Body, maxBody)
	if r.URL.Path == "/oauth2/token" && r.Method == http.MethodPost {
		entry.GrantType = peekGrantType(r)
	}
	m.next.ServeHTTP(sw, r)
}

// peekGrantType reads the form body for the log and puts it back for the
// token endpoint. Only grant_type is kept: codes, tokens and secrets in the
// same form never leave this function.
func peekGrantType(r *http.Request) string {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		// Hand the handler the same failure (e.g. body too large) after
		// the bytes already read.
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
		return ""
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	vals, err := url.ParseQuery(string(body))
	if err != nil {
		return ""
	}
	gt := vals.Get("grant_type")
	if len(gt) > 40 {
		gt = gt[:40]
	}
	return gt
}

// notFound answers unknown paths with a JSON 404.
func notFound(w http.ResponseWriter, r *http.Request) {
	gql.WriteError(w, http.StatusNotFound, "NOT_FOUND", fmt.Sprintf("no endpoint at %s: see the emulator's start banner for its URLs", endpointName(r.URL.Path)))
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
