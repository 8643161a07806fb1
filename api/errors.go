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

// BadAnswer is what was wrong with an answer that is not the API's JSON.
type BadAnswer int

const (
	// AnswerNotJSON is a body that is not JSON at all (nor an HTML page).
	AnswerNotJSON BadAnswer = iota
	// AnswerHTML is an HTML page where the API's JSON was expected: with
	// a 2xx status, a network's sign-in page (a captive portal) or a
	// proxy answered in the platform's place; with a 4xx, a web server
	// that is not the API.
	AnswerHTML
	// AnswerCutOff is an answer that ended before it was whole: the
	// connection closed early, or a proxy cut the JSON.
	AnswerCutOff
	// AnswerShape is JSON, but not of the shape the operation asked for.
	AnswerShape
	// AnswerStatus is an HTTP status the API never answers with (a
	// redirect, 204).
	AnswerStatus
)

// BadResponseError is an answer that is not a GraphQL JSON response (an
// HTML page from a captive portal or a proxy, a cut-off body, an
// unexpected status). Its Error is one sentence that says which; the body
// itself is for the request log and --verbose (Snippet), never the
// message.
type BadResponseError struct {
	Env     string
	Status  int
	Kind    BadAnswer
	Size    int64  // the bytes of the answer that came
	Snippet string // the first 200 bytes of the body, sanitised
	Reason  string // what was wrong with it, in the words of the check that failed
}

func (e *BadResponseError) Error() string {
	api := envLabel(e.Env)
	switch e.Kind {
	case AnswerHTML:
		if e.Status < 300 {
			return fmt.Sprintf("%s's address answered with a web page (HTTP %d), not the API's JSON: a network's sign-in page (captive portal) or a proxy answered instead", api, e.Status)
		}
		return fmt.Sprintf("%s's address answered with a web page (HTTP %d), not the API's JSON: it is not the API", api, e.Status)
	case AnswerCutOff:
		return fmt.Sprintf("%s's answer was cut off after %d bytes (HTTP %d): the connection ended before the whole answer came", api, e.Size, e.Status)
	case AnswerStatus:
		return fmt.Sprintf("%s answered HTTP %d, a status it never sends: something else answered at its address", api, e.Status)
	case AnswerShape:
		reason := e.Reason
		if reason == "" {
			reason = "the data does not have the expected shape"
		}
		return fmt.Sprintf("%s answered JSON that is not what the operation asked for (HTTP %d: %s)", api, e.Status, reason)
	}
	return fmt.Sprintf("%s's address answered with something that is not the API's JSON (HTTP %d, %d bytes)", api, e.Status, e.Size)
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
