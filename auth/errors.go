package auth

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
)

// Sentinels callers act on with errors.Is. The concrete errors below carry
// the facts (environment, what was refused, the server's own words); each
// surface (command line, terminal UI) words the remedy itself.
var (
	// ErrSignInRequired: no session, or the session has ended. Only a new
	// sign-in helps.
	ErrSignInRequired = errors.New("sign-in required")
	// ErrInvalidClient: the authorization server refused the client (its
	// id, its secret, or the way the secret was sent).
	ErrInvalidClient = errors.New("client authentication failed")
	// ErrAccessDenied: the user pressed Deny on the authorization page.
	ErrAccessDenied = errors.New("access denied")
	// ErrCodeRejected: the authorization code was expired or already used.
	ErrCodeRejected = errors.New("authorization code rejected")
	// ErrLoginTimeout: the browser never came back within the code lifetime.
	ErrLoginTimeout = errors.New("sign-in timed out")
	// ErrRateLimited: the token endpoint answered 429.
	ErrRateLimited = errors.New("rate limited")
	// ErrRevocationFailed: the local session was deleted but the server did
	// not confirm revoking the refresh token.
	ErrRevocationFailed = errors.New("refresh token revocation failed")
)

// SessionEndedError reports that the stored session cannot be used, and only
// a new sign-in helps (no session, no refresh token, a grant the server
// refused, a file that belongs to another client).
type SessionEndedError struct {
	Env    string
	Reason string // what happened, e.g. "the refresh token was already used or revoked"
	Path   string // the token file, when the file is the reason
	Err    error  // the underlying failure, if any
}

func (e *SessionEndedError) Error() string {
	msg := fmt.Sprintf("no usable %s session: %s", e.Env, e.Reason)
	if e.Path != "" {
		msg += " (" + e.Path + ")"
	}
	return msg
}

func (e *SessionEndedError) Unwrap() error        { return e.Err }
func (e *SessionEndedError) Is(target error) bool { return target == ErrSignInRequired }

// SignInRequired lets the API client recognise an ended session without
// importing this package.
func (e *SessionEndedError) SignInRequired() bool { return true }

// TokenEndpointError reports that the authorization server answered a token
// request with an error. Code and Description are the server's own `error`
// and `error_description`, made safe to print and bounded.
type TokenEndpointError struct {
	Env         string
	Grant       string // authorization_code | refresh_token | client_credentials
	Status      int    // HTTP status; 0 when unknown
	Code        string // OAuth error code, e.g. invalid_client
	Description string // error_description
	// RegisteredAuthMethod is the client authentication method the server
	// says the client is registered for, when its error_description names
	// one (Hydra and fosite do on invalid_client); partnertui sends
	// ClientAuthMethod.
	RegisteredAuthMethod string
	// RetryAt is when a 429's Retry-After allows the next request; zero
	// when the server did not say.
	RetryAt time.Time
}

// ClientAuthMethod is how partnertui authenticates at the token endpoint:
// the secret in the form body, as the platform documents. It is never
// negotiated: trying another method after a failure would replay a
// single-use code or refresh token.
const ClientAuthMethod = "client_secret_post"

func (e *TokenEndpointError) Error() string {
	what := "refused the " + e.Grant + " request"
	if e.Status == http.StatusTooManyRequests {
		what = "is rate limiting " + e.Grant + " requests (HTTP 429)"
		if !e.RetryAt.IsZero() {
			what += " until " + e.RetryAt.Format("15:04:05")
		}
	}
	msg := fmt.Sprintf("the %s authorization server %s", e.Env, what)
	detail := e.Code
	if e.Description != "" {
		if detail != "" {
			detail += ": "
		}
		detail += e.Description
	}
	if detail == "" && e.Status != 0 && e.Status != http.StatusTooManyRequests {
		detail = fmt.Sprintf("HTTP %d", e.Status)
	}
	if detail != "" {
		msg += " (" + detail + ")"
	}
	if e.Is(ErrCodeRejected) {
		msg += ": the authorization code expired or was already used"
	}
	if m := e.RegisteredAuthMethod; m != "" && m != ClientAuthMethod {
		msg += ": it expects " + m + ", and partnertui sends the secret as " + ClientAuthMethod
	}
	return msg
}

// Is lets callers branch on what the server said without parsing it.
func (e *TokenEndpointError) Is(target error) bool {
	switch target {
	case ErrInvalidClient:
		return e.Code == "invalid_client" || e.Code == "unauthorized_client" ||
			(e.Code == "" && e.Status == http.StatusUnauthorized)
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	case ErrCodeRejected:
		// fosite reports an expired code as invalid_request.
		return e.Grant == "authorization_code" && (e.Code == "invalid_grant" || e.Code == "invalid_request")
	}
	return false
}

// newTokenEndpointError keeps what the server said of a failed token call.
func newTokenEndpointError(env, grant string, re *oauth2.RetrieveError, now time.Time) *TokenEndpointError {
	e := &TokenEndpointError{
		Env:                  env,
		Grant:                grant,
		Code:                 safetext.Truncate(re.ErrorCode, 60),
		Description:          safetext.Truncate(re.ErrorDescription, 400),
		RegisteredAuthMethod: registeredAuthMethod(re.ErrorDescription),
	}
	if re.Response != nil {
		e.Status = re.Response.StatusCode
		if e.Status == http.StatusTooManyRequests {
			e.RetryAt, _ = platform.RetryAt(re.Response.Header.Get("Retry-After"), now)
		}
	}
	return e
}

// registeredAuthMethod reads, from a Hydra/fosite error_description such
// as "The OAuth 2.0 Client supports client authentication method
// 'client_secret_basic', but method 'client_secret_post' was requested.",
// which method the client is registered for; "" when it names none.
func registeredAuthMethod(desc string) string {
	const marker = "supports client authentication method '"
	i := strings.Index(desc, marker)
	if i < 0 {
		return ""
	}
	rest := desc[i+len(marker):]
	j := strings.IndexByte(rest, '\'')
	if j <= 0 || j > 40 {
		return ""
	}
	m := rest[:j]
	if strings.Trim(m, "abcdefghijklmnopqrstuvwxyz_") != "" {
		return ""
	}
	return m
}

// TokenEndpointUnreachableError reports that a token request got no answer.
// For a refresh this matters: the server may have rotated the single-use
// refresh token and the answer carrying the new one was lost.
type TokenEndpointUnreachableError struct {
	Env   string
	Grant string
	Err   error // sanitised
}

func (e *TokenEndpointUnreachableError) Error() string {
	return fmt.Sprintf("the %s authorization server did not answer the %s request: %v", e.Env, e.Grant, e.Err)
}

func (e *TokenEndpointUnreachableError) Unwrap() error { return e.Err }

// UnsafeStoreError reports that the token file is readable by other users,
// so it is not used.
type UnsafeStoreError struct {
	Path string
	Mode uint32
}

func (e *UnsafeStoreError) Error() string {
	return fmt.Sprintf("the stored session %s is readable by other users (mode %04o), so it is not used", e.Path, e.Mode)
}

// LockTimeoutError reports that another process held the session lock for
// longer than the wait allows.
type LockTimeoutError struct {
	Path string
	Wait time.Duration
	Err  error
}

func (e *LockTimeoutError) Error() string {
	return fmt.Sprintf("another partnertui process held the session lock %s for more than %s", e.Path, e.Wait)
}

func (e *LockTimeoutError) Unwrap() error { return e.Err }

// SignInError reports that the browser sign-in did not complete. Code and
// Description are what the authorization server put on the redirect, when it
// did.
type SignInError struct {
	Env         string
	Reason      string // what went wrong, in a few words
	Code        string // the redirect's `error`, sanitised
	Description string // the redirect's `error_description`, sanitised
	Timeout     time.Duration
	Err         error
}

func (e *SignInError) Error() string {
	msg := fmt.Sprintf("the %s sign-in did not complete: %s", e.Env, e.Reason)
	if e.Code != "" {
		msg += " (" + e.Code
		if e.Description != "" {
			msg += ": " + e.Description
		}
		msg += ")"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *SignInError) Unwrap() error { return e.Err }

func (e *SignInError) Is(target error) bool {
	switch target {
	case ErrAccessDenied:
		return e.Code == "access_denied"
	case ErrLoginTimeout:
		return e.Timeout > 0
	}
	return false
}

// CallbackListenError reports that the sign-in callback could not listen on its
// loopback address (a fixed port that is taken, usually).
type CallbackListenError struct {
	Addr string
	Err  error
}

func (e *CallbackListenError) Error() string {
	return fmt.Sprintf("cannot listen on %s for the sign-in callback: %v", e.Addr, e.Err)
}

func (e *CallbackListenError) Unwrap() error { return e.Err }

// sanitizedError keeps the original error for errors.Is/As while printing a
// version safe for a terminal.
type sanitizedError struct{ err error }

func (e sanitizedError) Error() string { return safetext.Truncate(e.err.Error(), 300) }
func (e sanitizedError) Unwrap() error { return e.err }

func sanitizeErr(err error) error {
	if err == nil {
		return nil
	}
	return sanitizedError{err}
}
