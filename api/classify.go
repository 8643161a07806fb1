package api

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/partnertui/partnertui/internal/budget"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
)

// wireError is one entry of a GraphQL "errors" array as servers send it.
type wireError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

func (w wireError) code() string {
	if c, ok := w.Extensions["code"].(string); ok {
		return c
	}
	return ""
}

func details(ws []wireError) []GraphQLErrorDetail {
	out := make([]GraphQLErrorDetail, 0, len(ws))
	for _, w := range ws {
		out = append(out, GraphQLErrorDetail{
			Message: safetext.Strip(w.Message),
			Code:    safetext.Strip(w.code()),
			Path:    safetext.Strip(joinPath(w.Path)),
		})
	}
	return out
}

func joinPath(p []any) string {
	if len(p) == 0 {
		return ""
	}
	parts := make([]string, 0, len(p))
	for _, e := range p {
		switch v := e.(type) {
		case string:
			parts = append(parts, v)
		case float64:
			parts = append(parts, strconv.FormatInt(int64(v), 10))
		default:
			parts = append(parts, fmt.Sprint(v))
		}
	}
	return strings.Join(parts, ".")
}

func isUnauthenticated(ws []wireError) bool {
	for _, w := range ws {
		code := strings.ToUpper(w.code())
		if code == "UNAUTHENTICATED" || code == "UNAUTHORIZED" {
			return true
		}
		if s, ok := w.Extensions["status"].(float64); ok && s == http.StatusUnauthorized {
			return true
		}
	}
	return false
}

// limitOf names the Sandbox limit a 400 is about, or reports that it is
// not about a limit at all.
func limitOf(ws []wireError) (limit, message string, ok bool) {
	for _, w := range ws {
		code := strings.ToUpper(w.code())
		msg := strings.ToLower(w.Message)
		isLimit := code == "QUERY_TOO_COMPLEX" || code == "QUERY_TOO_DEEP" || strings.Contains(code, "LIMIT") ||
			strings.Contains(msg, "complexity") || strings.Contains(msg, "too complex") ||
			strings.Contains(msg, "depth") || strings.Contains(msg, "top-level") ||
			strings.Contains(msg, "top level") || strings.Contains(msg, "concurrency") ||
			(strings.Contains(msg, "exceed") && strings.Contains(msg, "field"))
		if !isLimit {
			continue
		}
		switch {
		case strings.Contains(msg, "depth") || strings.Contains(code, "DEEP"):
			limit = "depth"
		case strings.Contains(msg, "top-level") || strings.Contains(msg, "top level") || strings.Contains(msg, "concurrency") || strings.Contains(msg, "root field"):
			limit = "top-level fields"
		default:
			limit = "complexity"
		}
		return limit, safetext.Strip(w.Message), true
	}
	return "", "", false
}

// parseErrorsBody reads {"errors":[…]} from an error response body.
func parseErrorsBody(body []byte) ([]wireError, bool) {
	var env struct {
		Errors []wireError `json:"errors"`
	}
	if err := json.Unmarshal(body, &env); err != nil || len(env.Errors) == 0 {
		return nil, false
	}
	return env.Errors, true
}

func (c *Client) snippet(cs *callState) string {
	return safetext.Strip(string(cs.snippet[:cs.nSnippet]))
}

// badAnswer is the error of an answer that is not the API's JSON, with
// what it is instead: an HTML page (by its Content-Type or its first
// character), an answer cut off (the body ended early, or its JSON did),
// JSON of another shape (read is the error its reading or decoding
// returned; nil when the status alone was wrong), or other text.
func (c *Client) badAnswer(cs *callState, read error, reason string) *BadResponseError {
	bad := &BadResponseError{Env: c.env, Status: cs.status, Size: cs.size, Snippet: c.snippet(cs), Reason: reason}
	body := bytes.TrimLeft(cs.snippet[:cs.nSnippet], " \t\r\n\ufeff")
	ctype := strings.ToLower(cs.header.Get("Content-Type"))
	var syntax *json.SyntaxError
	switch {
	case strings.Contains(ctype, "html") || bytes.HasPrefix(body, []byte("<")):
		bad.Kind = AnswerHTML
	case errors.Is(read, io.ErrUnexpectedEOF) || (errors.As(read, &syntax) && syntax.Offset >= cs.size && cs.size > 0):
		// The body ended before its length, or the JSON before its end.
		bad.Kind = AnswerCutOff
	case len(body) > 0 && (body[0] == '{' || body[0] == '[') || strings.Contains(ctype, "json"):
		bad.Kind = AnswerShape
	default:
		bad.Kind = AnswerNotJSON
	}
	return bad
}

// classify turns what exchange returned, and what the transport saw, into
// one of the package's typed errors.
func (c *Client) classify(ctx context.Context, cs *callState, err error) error {
	if cs.guardErr != nil {
		return cs.guardErr
	}
	if cs.tokenErr != nil {
		return c.tokenFailure(cs.tokenErr)
	}
	if cs.timedOut && ctx.Err() == nil {
		// Also when the headers came in time but the body stalled.
		return &NetworkError{Env: c.env, Host: cs.host, Timeout: true, Err: fmt.Errorf("no complete answer within %s", c.timeout)}
	}
	if cs.status == 0 {
		if ctxErr := cmp.Or(ctx.Err(), leftBeforeSent(ctx, cs)); ctxErr != nil {
			return fmt.Errorf("the %s request was cancelled: %w", c.env, ctxErr)
		}
		var ue *url.Error
		inner := err
		if errors.As(err, &ue) {
			inner = ue.Err
		}
		var bw *budgetWaitError
		if errors.As(inner, &bw) {
			return fmt.Errorf("the %s request was not sent: %w", c.env, bw)
		}
		var fe *budget.FileError
		if errors.As(inner, &fe) {
			return fmt.Errorf("the %s request was not sent: %w", c.env, fe)
		}
		if cs.host == "" {
			// Failed before the transport (encoding, request building).
			return fmt.Errorf("could not prepare the %s request: %w", c.env, err)
		}
		timeout := cs.timedOut || isTimeout(inner)
		if timeout {
			inner = fmt.Errorf("no answer within %s", c.timeout)
		}
		return &NetworkError{Env: c.env, Host: cs.host, Timeout: timeout, Err: inner}
	}

	// An error status's body may carry {"errors":[…]}: read it once for
	// whichever branch needs it.
	var ws []wireError
	var se *statusError
	if errors.As(err, &se) {
		ws, _ = parseErrorsBody(se.body)
	}
	firstMessage := ""
	if len(ws) > 0 {
		firstMessage = safetext.Strip(ws[0].Message)
	}

	switch st := cs.status; {
	case st == http.StatusUnauthorized:
		return &UnauthorizedError{Env: c.env, Project: c.project, Status: st, Message: firstMessage}
	case st == http.StatusTooManyRequests:
		now := c.now()
		retryAt, ok := platform.RetryAt(cs.header.Get("Retry-After"), now)
		if !ok && cs.header.Get("X-RateLimit-Remaining") == "0" {
			retryAt, _ = parseReset(cs.header.Get("X-RateLimit-Reset"), now)
		}
		return &RateLimitedError{Env: c.env, RetryAt: retryAt}
	case st >= 500:
		return &ServerError{Env: c.env, Status: st, Message: firstMessage}
	case st >= 400:
		if len(ws) > 0 {
			if st == http.StatusBadRequest {
				if limit, msg, ok := limitOf(ws); ok {
					return &OperationLimitError{Env: c.env, Limit: limit, Message: msg}
				}
			}
			if isUnauthenticated(ws) {
				return &UnauthorizedError{Env: c.env, Project: c.project, Status: st, Message: firstMessage}
			}
			return &GraphQLError{Env: c.env, Status: st, Errors: details(ws)}
		}
		return c.badAnswer(cs, nil, "not a GraphQL JSON response")
	case st != http.StatusOK && st != http.StatusCreated:
		bad := c.badAnswer(cs, nil, "unexpected HTTP status")
		bad.Kind = AnswerStatus
		return bad
	}

	var de *decodeError
	if errors.As(err, &de) {
		bad := c.badAnswer(cs, nil, "the data does not have the expected shape")
		bad.Kind = AnswerShape
		return bad
	}

	// HTTP 200 with "errors".
	var server *serverErrors
	if errors.As(err, &server) {
		if isUnauthenticated(server.errs) {
			return &UnauthorizedError{Env: c.env, Project: c.project, Status: http.StatusUnauthorized, Message: safetext.Strip(server.errs[0].Message)}
		}
		return &GraphQLError{Env: c.env, Status: cs.status, Errors: details(server.errs)}
	}
	var be *bodyError
	if errors.As(err, &be) {
		return c.badAnswer(cs, be.err, "the body is not the expected GraphQL JSON")
	}
	return fmt.Errorf("the %s request failed: %w", c.env, err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// SignInRequirer is implemented by token-source errors that mean the
// session is over, so that signing in again is the only way on (auth's
// errors do). The API client asks the error rather than importing auth.
type SignInRequirer interface{ SignInRequired() bool }

// tokenFailure: an ended session is an UnauthorizedError that sent nothing;
// anything else is reported as it is.
func (c *Client) tokenFailure(err error) error {
	var sr SignInRequirer
	if errors.As(err, &sr) && sr.SignInRequired() {
		return &UnauthorizedError{Env: c.env, Project: c.project, Err: err}
	}
	return fmt.Errorf("could not get an access token for %s: %w", envLabel(c.env), err)
}
