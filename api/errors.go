package api

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/partnertui/partnertui/internal/platform"
)

// Sentinels; the typed errors below wrap or match them with errors.Is.
var (
	ErrUnauthorized   = errors.New("unauthorized")
	ErrRateLimited    = errors.New("rate limited")
	ErrOperationLimit = errors.New("operation limit exceeded")
	ErrNotFound       = errors.New("not found")
	ErrNoTestingAPI   = errors.New("the Testing API exists only in Sandbox")

	// ErrForeignEndpoint matches an *EndpointError: a request aimed at a URL
	// that is not one of this environment's endpoints was refused before it
	// left the process (and before a token was attached to it).
	ErrForeignEndpoint = errors.New("not this environment's endpoint")
	// ErrGraphQL matches a *GraphQLError.
	ErrGraphQL = errors.New("GraphQL error")
	// ErrServer matches a *ServerError (HTTP 5xx).
	ErrServer = errors.New("server error")
	// ErrNetwork matches a *NetworkError.
	ErrNetwork = errors.New("network error")
	// ErrBadResponse matches a *BadResponseError.
	ErrBadResponse = errors.New("bad response")
	// ErrRejected matches a *RejectionError.
	ErrRejected = errors.New("rejected")
	// ErrReadOnly matches a *ReadOnlyError.
	ErrReadOnly = errors.New("read-only environment")
)

// envLabel names the environment in messages ("the Sandbox API").
func envLabel(env string) string {
	if env == "" {
		return "the API"
	}
	return "the " + platform.EnvTitle(env) + " API"
}

// UnauthorizedError reports that the API answered 401 (or UNAUTHENTICATED),
// or that the token source found the session over (Status 0: nothing was
// sent).
type UnauthorizedError struct {
	Env     string
	Status  int    // 401, or 0 when the token source failed before sending
	Message string // the server's message (sanitised) or the token source's reason
	Err     error  // the token source's error, if that is where it failed
	// Project: the token was a project token (client credentials), not
	// the signed-in user's.
	Project bool
}

func (e *UnauthorizedError) Error() string {
	if e.Status == 0 {
		if e.Err != nil {
			return e.Err.Error()
		}
		return fmt.Sprintf("no usable session for %s", envLabel(e.Env))
	}
	token := "access token"
	if e.Project {
		token = "project token"
	}
	if e.Message != "" {
		return fmt.Sprintf("%s refused the %s (HTTP %d: %s)", envLabel(e.Env), token, e.Status, e.Message)
	}
	return fmt.Sprintf("%s refused the %s (HTTP %d)", envLabel(e.Env), token, e.Status)
}

func (e *UnauthorizedError) Is(target error) bool { return target == ErrUnauthorized }
func (e *UnauthorizedError) Unwrap() error        { return e.Err }

// RateLimitedError is an HTTP 429 that the client did not (or could no
// longer) retry. RetryAt is when the server said (or the backoff estimated) a
// request will be accepted again.
type RateLimitedError struct {
	Env     string
	RetryAt time.Time
}

func (e *RateLimitedError) Error() string {
	if e.RetryAt.IsZero() {
		return fmt.Sprintf("%s is rate limiting this client (HTTP 429)", envLabel(e.Env))
	}
	return fmt.Sprintf("%s is rate limiting this client (HTTP 429) until %s",
		envLabel(e.Env), e.RetryAt.Format("15:04:05"))
}

func (e *RateLimitedError) Is(target error) bool { return target == ErrRateLimited }

// OperationLimitError is an HTTP 400 sent because the operation broke a
// Sandbox limit (1,000 fields, depth 15, 5 top-level fields).
type OperationLimitError struct {
	Env     string
	Limit   string // "complexity" | "depth" | "top-level fields" | "" when the server did not say which
	Message string // the server's message, sanitised
}

func (e *OperationLimitError) Error() string {
	what := e.Limit
	if what == "" {
		what = "an operation"
	}
	msg := e.Message
	if msg == "" {
		msg = "no details"
	}
	return fmt.Sprintf("%s refused the operation for exceeding its %s limit (%s)", envLabel(e.Env), what, msg)
}

func (e *OperationLimitError) Is(target error) bool { return target == ErrOperationLimit }

// GraphQLErrorDetail is one entry of a response's "errors" array.
type GraphQLErrorDetail struct {
	Message string // sanitised
	Code    string // extensions.code, sanitised; "" when absent
	Path    string // dotted path ("accounts.edges.0.node.IBAN"); "" when absent
}

// GraphQLError reports that the server answered with GraphQL errors. When the
// response also carried data, the method that returned this error returns
// that partial data alongside it.
type GraphQLError struct {
	Env    string
	Status int
	Errors []GraphQLErrorDetail
}

func (e *GraphQLError) Error() string {
	var b strings.Builder
	b.WriteString(envLabel(e.Env))
	b.WriteString(" returned errors: ")
	for i, d := range e.Errors {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.Message)
		if d.Code != "" {
			b.WriteString(" [")
			b.WriteString(d.Code)
			b.WriteString("]")
		}
		if d.Path != "" {
			b.WriteString(" at ")
			b.WriteString(d.Path)
		}
	}
	if len(e.Errors) == 0 {
		b.WriteString("no details")
	}
	return b.String()
}

// Is also matches ErrNotFound when the server said so, so callers can treat
// "no such account" the same whichever way the server phrases it.
func (e *GraphQLError) Is(target error) bool {
	if target == ErrGraphQL {
		return true
	}
	if target == ErrNotFound {
		for _, d := range e.Errors {
			if strings.Contains(strings.ToLower(d.Code), "notfound") || strings.Contains(strings.ToLower(d.Code), "not_found") {
				return true
			}
		}
	}
	return false
}

// ServerError is an HTTP 5xx answer.
type ServerError struct {
	Env     string
	Status  int
	Message string // the server's message if it sent one (sanitised)
}

func (e *ServerError) Error() string {
	if e.Message != "" {
		return fmt.Sprintf("%s failed with HTTP %d (%s)", envLabel(e.Env), e.Status, e.Message)
	}
	return fmt.Sprintf("%s failed with HTTP %d", envLabel(e.Env), e.Status)
}

func (e *ServerError) Is(target error) bool { return target == ErrServer }

// NetworkError reports that the request never got an HTTP answer (DNS,
// connect, TLS, reset, timeout).
type NetworkError struct {
	Env     string
	Host    string
	Timeout bool
	Err     error
}

func (e *NetworkError) Error() string {
	if e.Timeout {
		return fmt.Sprintf("%s at %s timed out (%v)", envLabel(e.Env), e.Host, e.Err)
	}
	return fmt.Sprintf("could not reach %s at %s: %v", envLabel(e.Env), e.Host, e.Err)
}

func (e *NetworkError) Is(target error) bool { return target == ErrNetwork }
func (e *NetworkError) Unwrap() error        { return e.Err }

// BadResponseError is an answer that is not a GraphQL JSON response (an
// HTML error page from a proxy, a truncated body, an unexpected status).
type BadResponseError struct {
	Env     string
	Status  int
	Snippet string // the first 200 bytes of the body, sanitised
	Reason  string // what was wrong with it
}

func (e *BadResponseError) Error() string {
	reason := e.Reason
	if reason == "" {
		reason = "not a GraphQL JSON response"
	}
	return fmt.Sprintf("%s sent an unreadable answer (HTTP %d, %s): %q",
		envLabel(e.Env), e.Status, reason, e.Snippet)
}

func (e *BadResponseError) Is(target error) bool { return target == ErrBadResponse }

// EndpointError reports that the environment guard refused a request to a URL
// that is not one of this environment's endpoints.
type EndpointError struct {
	Env string
	URL string // scheme://host/path of the refused request (no query)
}

func (e *EndpointError) Error() string {
	return fmt.Sprintf("refused to send a %s request to %s: it is not one of that environment's endpoints", e.Env, e.URL)
}

func (e *EndpointError) Is(target error) bool { return target == ErrForeignEndpoint }

// RejectionError reports that a mutation came back with a Rejection union
// member (ForbiddenRejection, ValidationRejection, …) instead of its success
// payload.
type RejectionError struct {
	Env     string
	Type    string // the rejection's __typename, sanitised
	Message string // sanitised
}

func (e *RejectionError) Error() string {
	return fmt.Sprintf("%s rejected the request (%s: %s)", envLabel(e.Env), e.Type, e.Message)
}

func (e *RejectionError) Is(target error) bool { return target == ErrRejected }

// ReadOnlyError reports that a mutation was refused before it was sent,
// because the environment is read-only (Live).
type ReadOnlyError struct {
	Env string
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s is read-only: no change is sent to it", envLabel(e.Env))
}

func (e *ReadOnlyError) Is(target error) bool { return target == ErrReadOnly }
