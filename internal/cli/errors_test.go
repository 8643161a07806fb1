package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/remedy"
)

// TestEveryErrorIsOneSentenceWithOneRemedy: the facts come from the lower
// layers, the remedy from here, once; the command line names commands,
// never keys, and cites no document the user does not have.
func TestEveryErrorIsOneSentenceWithOneRemedy(t *testing.T) {
	t.Parallel()
	ended := &auth.SessionEndedError{Env: "sandbox", Reason: "the refresh token was already used or revoked"}
	cases := []struct {
		name    string
		err     error
		project bool
		want    []string // every one must appear
		code    int
	}{
		{"session ended, through the API", &api.UnauthorizedError{Env: "sandbox", Err: ended}, false,
			[]string{"no usable sandbox session: the refresh token was already used or revoked.", "Sign in with `partnertui login --env sandbox`."}, ExitSignIn},
		{"401 from the API", &api.UnauthorizedError{Env: "live", Status: 401, Message: "token expired"}, false,
			[]string{"the Live API refused the access token (HTTP 401: token expired).", "Sign in again with `partnertui login --env live`."}, ExitSignIn},
		{"401 with a project token", &api.UnauthorizedError{Env: "live", Status: 401}, true,
			[]string{"refused the access token (HTTP 401)", "check the client's id and secret"}, ExitSignIn},
		{"not signed in", &auth.SessionEndedError{Env: "live", Reason: "nobody is signed in"}, false,
			[]string{"no usable live session: nobody is signed in.", "`partnertui login --env live`"}, ExitSignIn},
		{"client secret rejected", &auth.TokenEndpointError{Env: "sandbox", Grant: "refresh_token", Status: 401, Code: "invalid_client", Description: "Client authentication failed."}, false,
			[]string{"(invalid_client: Client authentication failed.)", "Generate a new client secret in the dashboard"}, ExitFailure},
		{"auth method mismatch", &auth.TokenEndpointError{Env: "sandbox", Grant: "client_credentials", Status: 401, Code: "invalid_client",
			Description: "Client authentication failed. The OAuth 2.0 Client supports client authentication method 'client_secret_basic', but method 'client_secret_post' was requested.", RegisteredAuthMethod: "client_secret_basic"}, true,
			[]string{"it expects client_secret_basic, and partnertui sends the secret as client_secret_post.", "Set the client's token endpoint authentication method to client_secret_post in the dashboard."}, ExitFailure},
		{"token endpoint rate limit", &auth.TokenEndpointError{Env: "sandbox", Grant: "refresh_token", Status: http.StatusTooManyRequests, RetryAt: time.Date(2026, 1, 1, 10, 0, 5, 0, time.Local)}, false,
			[]string{"is rate limiting refresh_token requests (HTTP 429)", "Run the command again after 10:00:05."}, ExitFailure},
		{"refresh answer lost", &auth.TokenEndpointUnreachableError{Env: "sandbox", Grant: "refresh_token", Err: errors.New("connection reset")}, false,
			[]string{"did not answer the refresh_token request: connection reset.", "may have rotated the refresh token", "the next command asks you to sign in"}, ExitFailure},
		{"unsafe store", &auth.UnsafeStoreError{Path: "/s/t.json", Mode: 0o644}, false,
			[]string{"mode 0644", "Run `chmod 600 /s/t.json`"}, ExitFailure},
		{"access denied", &auth.SignInError{Env: "sandbox", Reason: "access was denied in the browser", Code: "access_denied"}, false,
			[]string{"access was denied in the browser (access_denied).", "press Approve"}, ExitFailure},
		{"rate limited", &api.RateLimitedError{Env: "sandbox", RetryAt: time.Date(2026, 1, 1, 10, 0, 0, 0, time.Local)}, false,
			[]string{"is rate limiting this client (HTTP 429)", "after 10:00:00."}, ExitFailure},
		{"network", &api.NetworkError{Env: "sandbox", Host: "api.example", Err: errors.New("dial tcp: refused")}, false,
			[]string{"could not reach the Sandbox API at api.example: dial tcp: refused.", "Check your network, and api_url"}, ExitFailure},
		{"not found", fmt.Errorf("account %q was not found in sandbox: %w", "x", api.ErrNotFound), false,
			[]string{"was not found in sandbox", "Check the id"}, ExitFailure},
		{"read-only", &api.ReadOnlyError{Env: "live"}, false,
			[]string{"the Live API is read-only", "Use --env sandbox."}, ExitFailure},
		{"not configured", &app.NotConfiguredError{File: "/c.toml", Err: &config.NotConfiguredError{Env: config.Sandbox, Keys: "client_id"}}, false,
			[]string{"sandbox is not configured: set client_id under [sandbox] in /c.toml.", "`partnertui --demo`"}, ExitFailure},
		{"no config file", fmt.Errorf("%w at /c.toml", config.ErrNoConfig), false,
			[]string{"no configuration file at /c.toml.", "`partnertui config init`"}, ExitFailure},
		{"usage", usageErrorf("--first must be between 1 and 100"), false,
			[]string{"--first must be between 1 and 100.", "`partnertui --help`"}, ExitUsage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := describe(tc.err, tc.project)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("message %q lacks %q", got, w)
				}
			}
			for _, banned := range []string{"spec ", "press enter", "Press enter", "; sign in again", ".."} {
				if strings.Contains(got, banned) {
					t.Errorf("message %q contains %q", got, banned)
				}
			}
			if n := strings.Count(got, "partnertui login"); n > 1 {
				t.Errorf("message %q repeats its advice", got)
			}
			if code := exitCode(tc.err); code != tc.code {
				t.Errorf("exit code %d, want %d", code, tc.code)
			}
		})
	}
	if got := describe(context.Canceled, false); got != "context canceled." {
		t.Errorf("an interruption needs no advice, got %q", got)
	}
}

// TestEveryRemedyHasACommand: a remedy the classifier can return and the
// command line cannot word fails here, not in front of a user.
func TestEveryRemedyHasACommand(t *testing.T) {
	t.Parallel()
	silent := map[remedy.Kind]bool{remedy.None: true, remedy.Interrupted: true, remedy.Unknown: true}
	for _, k := range remedy.Kinds() {
		text, ok := command(remedy.Remedy{Kind: k, Env: "sandbox"})
		switch {
		case !ok:
			t.Errorf("remedy kind %d has no rendering on the command line", k)
		case text == "" && !silent[k]:
			t.Errorf("remedy kind %d renders as nothing on the command line", k)
		case text != "" && silent[k]:
			t.Errorf("remedy kind %d should need no advice, got %q", k, text)
		case strings.Contains(text, "Press "):
			t.Errorf("remedy kind %d names a key on the command line: %q", k, text)
		}
	}
}
