package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/budget"
	"github.com/partnertui/partnertui/internal/remedy"
)

// wording is one error and what the screen must say about it.
type wording struct {
	name string
	err  error
	at   where
	want string   // the whole text, when it is pinned
	has  []string // or parts of it
}

var (
	onList    = where{retry: refreshKey()}
	onSignIn  = where{retry: newSigninKeys().SignIn}
	onProject = where{retry: refreshKey(), project: true}
)

// checkWording runs the cases of one error family. Every text states the
// facts once and gives at most one piece of advice, naming a key; none
// sends the user to a command line or a spec section.
func checkWording(t *testing.T, cases []wording) {
	t.Helper()
	for _, c := range cases {
		got := explain(c.err, c.at)
		if c.want != "" && got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		for _, h := range c.has {
			if !strings.Contains(got, h) {
				t.Errorf("%s: %q lacks %q", c.name, got, h)
			}
		}
		lower := strings.ToLower(got)
		if n := strings.Count(lower, "press "); n > 1 {
			t.Errorf("%s: %d pieces of advice in %q", c.name, n, got)
		}
		for _, advice := range []string{"sign in again", "retry", "try again", "check the network"} {
			if n := strings.Count(lower, advice); n > 1 {
				t.Errorf("%s: %q said %d times in %q", c.name, advice, n, got)
			}
		}
		for _, banned := range []string{"partnertui login", "spec ", "..", "  "} {
			if strings.Contains(lower, banned) {
				t.Errorf("%s: %q contains %q", c.name, got, banned)
			}
		}
		if !strings.HasSuffix(got, ".") {
			t.Errorf("%s: %q is not a finished sentence", c.name, got)
		}
	}
}

func TestWordingEndedSession(t *testing.T) {
	t.Parallel()
	ended := &auth.SessionEndedError{Env: "sandbox", Reason: "the refresh token was already used or revoked"}
	checkWording(t, []wording{
		{name: "ended", err: ended, at: onSignIn,
			want: "No usable sandbox session: the refresh token was already used or revoked. Press enter to sign in again."},
		// Through the API client: nothing was sent, so no status is named.
		{name: "ended, through the API", err: fmt.Errorf("accounts: %w", &api.UnauthorizedError{Env: "sandbox", Err: ended}), at: onSignIn,
			want: "Accounts: no usable sandbox session: the refresh token was already used or revoked. Press enter to sign in again."},
		{name: "damaged file", err: &auth.SessionEndedError{Env: "live", Reason: "the stored session is damaged or from another version", Path: "/s/live.json"}, at: onSignIn,
			want: "No usable live session: the stored session is damaged or from another version (/s/live.json). Press enter to sign in again."},
		{name: "no session, unknown cause", err: &api.UnauthorizedError{Env: "sandbox"}, at: onSignIn,
			want: "No usable session for the Sandbox API. Press enter to sign in again."},
	})
	for _, err := range []error{ended, &api.UnauthorizedError{Env: "sandbox", Err: ended}} {
		if got := explain(err, onSignIn); strings.Contains(got, "401") {
			t.Errorf("%q names a status though nothing was sent", got)
		}
	}
}

func TestWordingRefusedToken(t *testing.T) {
	t.Parallel()
	refused := &api.UnauthorizedError{Env: "sandbox", Status: 401, Message: "token revoked"}
	checkWording(t, []wording{
		{name: "user token", err: refused, at: onSignIn,
			want: "The Sandbox API refused the access token (HTTP 401: token revoked). Press enter to sign in again."},
		{name: "project token", err: refused, at: onProject,
			want: "The Sandbox API refused the access token (HTTP 401: token revoked). Check client_id and the client secret under [sandbox] in the config file, then press r to try again."},
	})
}

func TestWordingRateLimits(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 10, 0, 12, 0, time.UTC)
	checkWording(t, []wording{
		{name: "429 with a time", err: &api.RateLimitedError{Env: "live", RetryAt: at}, at: onList,
			want: "The Live API is rate limiting this client (HTTP 429) until 10:00:12. Press r to try again after that."},
		{name: "429", err: &api.RateLimitedError{Env: "live"}, at: onList,
			has: []string{"HTTP 429", "Press r to try again in a minute."}},
		{name: "token endpoint 429", err: &auth.TokenEndpointError{Env: "sandbox", Grant: "refresh_token", Status: 429, RetryAt: at}, at: onSignIn,
			want: "The sandbox authorization server is rate limiting refresh_token requests (HTTP 429) until 10:00:12. Press enter to try again after that."},
		{name: "operation limit", err: &api.OperationLimitError{Env: "sandbox", Limit: "depth", Message: "depth 16 > 15"}, at: onList,
			want: "The Sandbox API refused the operation for exceeding its depth limit (depth 16 > 15). Narrow the filter, then press r to try again."},
	})
}

func TestWordingServerAnswers(t *testing.T) {
	t.Parallel()
	notFound := &api.GraphQLError{Env: "sandbox", Status: 200, Errors: []api.GraphQLErrorDetail{{Message: "no such account", Code: "NOT_FOUND"}}}
	checkWording(t, []wording{
		{name: "not found", err: notFound, at: onList,
			want: "The Sandbox API returned errors: no such account [NOT_FOUND]. It may have been deleted: press r to refresh."},
		{name: "errors", err: &api.GraphQLError{Env: "sandbox", Errors: []api.GraphQLErrorDetail{{Message: "boom"}, {Message: "bang"}}}, at: onList,
			want: "The Sandbox API returned errors: boom; bang. Press r to try again."},
		{name: "5xx", err: &api.ServerError{Env: "live", Status: 503, Message: "maintenance"}, at: onList,
			want: "The Live API failed with HTTP 503 (maintenance). Press r to try again."},
		{name: "a captive portal", err: &api.BadResponseError{Env: "live", Status: 200, Kind: api.AnswerHTML, Size: 5120, Snippet: "<html><title>Wi-Fi</title>"}, at: onList,
			want: "The Live API's address answered with a web page (HTTP 200), not the API's JSON: a network's sign-in page (captive portal) or a proxy answered instead. " +
				"Open any web page in a browser to sign in to the network, or check the URLs under [live] in the config file, then press r to try again."},
		{name: "a web page that is not the API", err: &api.BadResponseError{Env: "live", Status: 404, Kind: api.AnswerHTML, Snippet: "<h1>Not found</h1>"}, at: onList,
			want: "The Live API's address answered with a web page (HTTP 404), not the API's JSON: it is not the API. Check the URLs under [live] in the config file."},
		{name: "a cut-off answer", err: &api.BadResponseError{Env: "sandbox", Status: 200, Kind: api.AnswerCutOff, Size: 61, Snippet: `{"data":{"accounts"`}, at: onList,
			want: "The Sandbox API's answer was cut off after 61 bytes (HTTP 200): the connection ended before the whole answer came. Press r to try again."},
		{name: "rejection", err: &api.RejectionError{Env: "sandbox", Type: "ForbiddenRejection", Message: "not allowed"}, at: onList,
			want: "The Sandbox API rejected the request (ForbiddenRejection: not allowed)."},
		{name: "no Testing API", err: fmt.Errorf("cannot simulate a transfer in live: %w", api.ErrNoTestingAPI), at: onList,
			want: "Cannot simulate a transfer in live: the Testing API exists only in Sandbox. Press e to switch to Sandbox."},
	})
}

func TestWordingNetwork(t *testing.T) {
	t.Parallel()
	checkWording(t, []wording{
		{name: "unreachable", err: &api.NetworkError{Env: "sandbox", Host: "api.example", Err: errors.New("connection refused")}, at: onList,
			want: "Could not reach the Sandbox API at api.example: connection refused. Check the network, then press r to try again."},
		{name: "timeout", err: &api.NetworkError{Env: "sandbox", Host: "api.example", Timeout: true, Err: errors.New("no answer within 30s")}, at: onList,
			want: "The Sandbox API at api.example timed out (no answer within 30s). Check the network, then press r to try again."},
		{name: "token endpoint silent", err: &auth.TokenEndpointUnreachableError{Env: "sandbox", Grant: "refresh_token", Err: errors.New("EOF")}, at: onSignIn,
			want: "The sandbox authorization server did not answer the refresh_token request: EOF. Check the network, then press enter to try again."},
		{name: "foreign endpoint", err: &api.EndpointError{Env: "live", URL: "https://evil.example/graphql"}, at: onList,
			want: "Refused to send a live request to https://evil.example/graphql: it is not one of that environment's endpoints. Check the URLs under [live] in the config file."},
		{name: "unknown", err: errors.New("dial tcp: refused"), at: onSignIn,
			has: []string{"Dial tcp: refused.", "Check the network"}},
	})
}

func TestWordingSignIn(t *testing.T) {
	t.Parallel()
	checkWording(t, []wording{
		{name: "denied", err: &auth.SignInError{Env: "sandbox", Reason: "the authorization server ended the sign-in", Code: "access_denied"}, at: onSignIn,
			want: "The sandbox sign-in did not complete: the authorization server ended the sign-in (access_denied). Press enter to start again and approve access."},
		{name: "timeout", err: &auth.SignInError{Env: "sandbox", Reason: "no answer from the browser within 10m0s, after which the authorization code would have expired", Timeout: 10 * time.Minute}, at: onSignIn,
			want: "The sandbox sign-in did not complete: no answer from the browser within 10m0s, after which the authorization code would have expired. Press enter to try again."},
		{name: "other", err: &auth.SignInError{Env: "live", Reason: "the authorization server ended the sign-in", Code: "server_error", Description: "oops"}, at: onSignIn,
			want: "The live sign-in did not complete: the authorization server ended the sign-in (server_error: oops). Press enter to try again."},
		{name: "code rejected", err: &auth.TokenEndpointError{Env: "sandbox", Grant: "authorization_code", Status: 400, Code: "invalid_grant"}, at: onSignIn,
			want: "The sandbox authorization server refused the authorization_code request (invalid_grant): the authorization code expired or was already used. Press enter to sign in again with a new code."},
		{name: "client refused", err: &auth.TokenEndpointError{Env: "sandbox", Grant: "authorization_code", Status: 401, Code: "invalid_client", Description: "bad secret"}, at: onSignIn,
			want: "The sandbox authorization server refused the authorization_code request (invalid_client: bad secret). Generate a new secret in the dashboard and set it as client_secret, client_secret_env or client_secret_command under [sandbox] in the config file, then press enter to try again."},
		{name: "other grant error", err: &auth.TokenEndpointError{Env: "sandbox", Grant: "client_credentials", Status: 400, Code: "invalid_scope"}, at: onProject,
			want: "The sandbox authorization server refused the client_credentials request (invalid_scope). Check client_id and the client secret under [sandbox] in the config file, then press r to try again."},
		{name: "port taken", err: &auth.CallbackListenError{Addr: "127.0.0.1:8765", Err: errors.New("address already in use")}, at: onSignIn,
			has: []string{"127.0.0.1:8765", "address already in use", "redirect_uri", "press enter to try again."}},
		// Bare sentinels still get their advice.
		{name: "bare denied", err: auth.ErrAccessDenied, at: onSignIn, want: "Access denied. Press enter to start again and approve access."},
		{name: "bare timeout", err: auth.ErrLoginTimeout, at: onSignIn, want: "Sign-in timed out. Press enter to try again."},
		{name: "cancelled", err: context.Canceled, at: onSignIn, want: "Context canceled. Press enter to start again."},
	})
}

func TestWordingLocalState(t *testing.T) {
	t.Parallel()
	checkWording(t, []wording{
		{name: "unsafe store", err: &auth.UnsafeStoreError{Path: "/s/sandbox.json", Mode: 0o644}, at: onSignIn,
			want: "The stored session /s/sandbox.json is readable by other users (mode 0644), so it is not used. Make it private (chmod 600) or delete it, then press enter to try again."},
		{name: "lock", err: &auth.LockTimeoutError{Path: "/s/sandbox.lock", Wait: 30 * time.Second}, at: onList,
			want: "Another partnertui process held the session lock /s/sandbox.lock for more than 30s. Wait for the other partnertui process to finish or end it, then press r to try again."},
		{name: "not configured", err: &config.NotConfiguredError{Env: config.Live, Keys: "client_id"}, at: where{},
			want: "Live is not configured: set client_id under [live]. Edit the config file, then start partnertui again."},
	})
}

func TestWordingAuthMethodBudgetAndReadOnly(t *testing.T) {
	t.Parallel()
	checkWording(t, []wording{
		{name: "registered for basic", err: &auth.TokenEndpointError{Env: "sandbox", Grant: "authorization_code", Status: 401, Code: "invalid_client",
			Description: "client is registered for client_secret_basic", RegisteredAuthMethod: "client_secret_basic"}, at: onSignIn,
			want: "The sandbox authorization server refused the authorization_code request (invalid_client: client is registered for client_secret_basic): it expects client_secret_basic, and partnertui sends the secret as client_secret_post. Set the client's token endpoint authentication method to client_secret_post in the dashboard, then press enter to try again."},
		{name: "registered for post", err: &auth.TokenEndpointError{Env: "live", Grant: "client_credentials", Status: 401, Code: "invalid_client",
			RegisteredAuthMethod: auth.ClientAuthMethod}, at: onProject,
			has: []string{"Generate a new secret", "under [live]"}},
		{name: "budget file", err: fmt.Errorf("the sandbox request was not sent: %w", &budget.FileError{Path: "/s/budget-api.example", Err: errors.New("permission denied")}), at: onList,
			want: "The sandbox request was not sent: cannot use the request budget file /s/budget-api.example: permission denied. Make the state directory writable (the file is rebuilt if you delete it), then press r to try again."},
		{name: "budget locked", err: &budget.FileError{Path: "/s/budget-api.example", Err: fmt.Errorf("%w for more than 5s", budget.ErrLocked)}, at: onList,
			want: "Cannot use the request budget file /s/budget-api.example: locked by another process for more than 5s. Wait for the other partnertui process to finish or end it, then press r to try again."},
		{name: "read-only", err: &api.ReadOnlyError{Env: "live"}, at: onList,
			want: "The Live API is read-only: no change is sent to it. Press e to switch to Sandbox."},
	})
}

// TestEveryRemedyHasAKey: a remedy the classifier can return and the UI
// cannot word fails here, not in front of a user. Each advice names a key
// of the screen or says what to change, never a command line.
func TestEveryRemedyHasAKey(t *testing.T) {
	t.Parallel()
	for _, k := range remedy.Kinds() {
		for _, at := range []where{onList, onSignIn} {
			text, ok := at.advice(remedy.Remedy{Kind: k, Env: "live"})
			switch {
			case !ok:
				t.Errorf("remedy kind %d has no rendering in the UI", k)
			case (text == "") != (k == remedy.None):
				t.Errorf("remedy kind %d renders as %q in the UI", k, text)
			case strings.Contains(text, "`") || strings.Contains(text, "--"):
				t.Errorf("remedy kind %d names a command line in the UI: %q", k, text)
			case text != "" && !strings.HasSuffix(text, "."):
				t.Errorf("remedy kind %d is not a finished sentence: %q", k, text)
			}
		}
	}
}

// The UI's own error words its facts once, in Error(), and its remedy
// through the classifier.
func TestWordingNoProjectClient(t *testing.T) {
	t.Parallel()
	checkWording(t, []wording{
		{name: "transaction by id", err: &noProjectAPIError{env: "sandbox"}, at: onList,
			want: "Looking a transaction up by its ID takes the project's token, and Sandbox has no project-token client. Open the transaction from its account's Transactions tab instead."},
	})
}
