package remedy

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/budget"
	"github.com/partnertui/partnertui/internal/paths"
	"github.com/partnertui/partnertui/internal/usage"
)

// subscriptionMissing stands for a surface's own error, which names its
// remedy itself.
type subscriptionMissing struct{}

func (subscriptionMissing) Error() string  { return "no subscription" }
func (subscriptionMissing) Remedy() Remedy { return Remedy{Kind: CreateSubscription, Env: "live"} }

// TestClassify: each typed error of the lower layers gets its remedy and
// the facts the remedy needs, taken from the error, through any wrapping.
func TestClassify(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 10, 0, 12, 0, time.UTC)
	ended := &auth.SessionEndedError{Env: "sandbox", Reason: "the refresh token was already used or revoked"}
	cases := []struct {
		name    string
		err     error
		project bool
		want    Remedy
	}{
		{"nothing", nil, false, Remedy{Kind: None}},
		{"own remedy", fmt.Errorf("listen: %w", subscriptionMissing{}), false, Remedy{Kind: CreateSubscription, Env: "live"}},
		{"usage", fmt.Errorf("listen: %w", &usage.Error{Err: errors.New("--forward-to"), Suggest: "--forward-to"}), false, Remedy{Kind: ShowUsage, Command: "--forward-to"}},
		{"usage explained", &usage.Error{Err: errors.New("1:3: no field x"), Explained: true}, false, Remedy{Kind: None}},
		{"interrupted", fmt.Errorf("sign-in to sandbox cancelled: %w", context.Canceled), false, Remedy{Kind: Interrupted}},
		{"interrupted wins", &api.NetworkError{Env: "live", Host: "h", Err: context.Canceled}, false, Remedy{Kind: Interrupted}},
		{"unknown", errors.New("boom"), false, Remedy{Kind: Unknown}},
		{"deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), false, Remedy{Kind: Retry}},

		{"invalid config", &config.ValidationError{Path: "/c.toml"}, false, Remedy{Kind: None}},
		{"no config", fmt.Errorf("%w at /c.toml", config.ErrNoConfig), false, Remedy{Kind: WriteConfig}},
		{"not configured", fmt.Errorf("in /c.toml: %w", &config.NotConfiguredError{Env: config.Live, Keys: "client_id"}), false,
			Remedy{Kind: FixConfigKey, Env: "live", Keys: "client_id"}},
		{"unsafe store", &auth.UnsafeStoreError{Path: "/s/t.json", Mode: 0o644}, false, Remedy{Kind: FixStorePermissions, Path: "/s/t.json"}},
		{"budget locked", fmt.Errorf("not sent: %w", &budget.FileError{Path: "/s/b", Err: budget.ErrLocked}), false, Remedy{Kind: WaitForProcess}},
		{"budget unusable", &budget.FileError{Path: "/s/b", Err: errors.New("permission denied")}, false, Remedy{Kind: FixStateDir, Path: "/s/b"}},
		{"session lock", &auth.LockTimeoutError{Path: "/s/l", Wait: time.Second}, false, Remedy{Kind: WaitForProcess}},

		{"ended", ended, false, Remedy{Kind: SignIn, Env: "sandbox"}},
		{"ended, through the API", &api.UnauthorizedError{Env: "sandbox", Err: ended}, false, Remedy{Kind: SignIn, Env: "sandbox"}},
		{"ended, project", ended, true, Remedy{Kind: None}},
		{"no session", &api.UnauthorizedError{Env: "live"}, false, Remedy{Kind: SignIn, Env: "live"}},
		{"401", &api.UnauthorizedError{Env: "live", Status: 401}, false, Remedy{Kind: SignInAgain, Env: "live"}},
		{"401, project", &api.UnauthorizedError{Env: "live", Status: 401}, true, Remedy{Kind: CheckClient, Env: "live"}},

		{"client refused", &auth.TokenEndpointError{Env: "live", Grant: "refresh_token", Status: 401, Code: "invalid_client"}, false,
			Remedy{Kind: FixClientSecret, Env: "live"}},
		{"bare client refused", auth.ErrInvalidClient, false, Remedy{Kind: FixClientSecret}},
		{"registered for post", &auth.TokenEndpointError{Env: "live", Grant: "client_credentials", Status: 401, Code: "invalid_client",
			RegisteredAuthMethod: auth.ClientAuthMethod}, true, Remedy{Kind: FixClientSecret, Env: "live"}},
		{"registered for basic", &auth.TokenEndpointError{Env: "live", Grant: "client_credentials", Status: 401, Code: "invalid_client",
			RegisteredAuthMethod: "client_secret_basic"}, true, Remedy{Kind: FixAuthMethod, Env: "live", Method: "client_secret_basic"}},
		{"code rejected", &auth.TokenEndpointError{Env: "sandbox", Grant: "authorization_code", Status: 400, Code: "invalid_grant"}, false,
			Remedy{Kind: NewCode, Env: "sandbox"}},
		{"token 429", &auth.TokenEndpointError{Env: "sandbox", Grant: "refresh_token", Status: 429, RetryAt: at}, false,
			Remedy{Kind: RetryAt, Env: "sandbox", At: at}},
		{"token refused", &auth.TokenEndpointError{Env: "sandbox", Grant: "refresh_token", Status: 400, Code: "invalid_scope"}, false,
			Remedy{Kind: RetryOrSignIn, Env: "sandbox"}},
		{"token refused, project", &auth.TokenEndpointError{Env: "sandbox", Grant: "client_credentials", Status: 400, Code: "invalid_scope"}, true,
			Remedy{Kind: CheckClient, Env: "sandbox"}},
		{"refresh lost", &auth.TokenEndpointUnreachableError{Env: "live", Grant: "refresh_token", Err: errors.New("EOF")}, false,
			Remedy{Kind: RefreshLost, Env: "live"}},
		{"token endpoint silent", &auth.TokenEndpointUnreachableError{Env: "live", Grant: "client_credentials", Err: errors.New("EOF")}, true,
			Remedy{Kind: CheckNetwork, Env: "live", URLKey: "auth_url"}},

		{"denied", &auth.SignInError{Env: "live", Reason: "access was denied in the browser", Code: "access_denied"}, false, Remedy{Kind: Approve, Env: "live"}},
		{"bare denied", auth.ErrAccessDenied, false, Remedy{Kind: Approve}},
		{"timed out", &auth.SignInError{Env: "live", Reason: "no answer", Timeout: time.Minute}, false, Remedy{Kind: SignInWithoutBrowser, Env: "live"}},
		{"sign-in failed", &auth.SignInError{Env: "live", Reason: "the token endpoint returned no access token"}, false, Remedy{Kind: RetrySignIn, Env: "live"}},
		{"port taken", &auth.CallbackListenError{Addr: "127.0.0.1:8765", Err: errors.New("in use")}, false, Remedy{Kind: FreePort, Addr: "127.0.0.1:8765"}},

		{"429", &api.RateLimitedError{Env: "live", RetryAt: at}, false, Remedy{Kind: RetryAt, Env: "live", At: at, Logged: true}},
		{"operation limit", &api.OperationLimitError{Env: "sandbox", Limit: "depth"}, false, Remedy{Kind: NarrowQuery, Logged: true}},
		{"read-only", &api.ReadOnlyError{Env: "live"}, false, Remedy{Kind: UseSandbox}},
		{"no Testing API", fmt.Errorf("cannot simulate in live: %w", api.ErrNoTestingAPI), false, Remedy{Kind: UseSandbox}},
		{"not found", &api.GraphQLError{Env: "sandbox", Errors: []api.GraphQLErrorDetail{{Message: "no such account", Code: "NOT_FOUND"}}}, false,
			Remedy{Kind: CheckID, Logged: true}},
		{"bare not found", fmt.Errorf("account %q was not found: %w", "x", api.ErrNotFound), false, Remedy{Kind: CheckID, Logged: true}},
		{"network", &api.NetworkError{Env: "sandbox", Host: "h", Err: errors.New("refused")}, false, Remedy{Kind: CheckNetwork, Env: "sandbox", URLKey: "api_url", Logged: true}},
		{"unreadable", &api.BadResponseError{Env: "live", Status: 502}, false, Remedy{Kind: CheckURL, Env: "live", Logged: true}},
		{"a captive portal's page", &api.BadResponseError{Env: "live", Status: 200, Kind: api.AnswerHTML}, false, Remedy{Kind: CheckPortal, Env: "live", Logged: true}},
		{"a web server's 404 page", &api.BadResponseError{Env: "live", Status: 404, Kind: api.AnswerHTML}, false, Remedy{Kind: CheckURL, Env: "live", Logged: true}},
		{"a cut-off answer", &api.BadResponseError{Env: "live", Status: 200, Kind: api.AnswerCutOff}, false, Remedy{Kind: Retry, Logged: true}},
		{"JSON of another shape", &api.BadResponseError{Env: "live", Status: 200, Kind: api.AnswerShape}, false, Remedy{Kind: CheckURL, Env: "live", Logged: true}},
		{"foreign endpoint", &api.EndpointError{Env: "live", URL: "https://evil.example/"}, false, Remedy{Kind: CheckURL, Env: "live"}},
		{"5xx", &api.ServerError{Env: "live", Status: 503}, false, Remedy{Kind: Retry, Logged: true}},
		{"GraphQL errors", &api.GraphQLError{Env: "live", Errors: []api.GraphQLErrorDetail{{Message: "boom"}}}, false, Remedy{Kind: Retry, Logged: true}},
		{"rejection", &api.RejectionError{Env: "live", Type: "ForbiddenRejection"}, false, Remedy{Kind: None, Logged: true}},
		{"a link for the budget file", &budget.FileError{Path: "/st/budget-h", Err: budget.ErrLink}, false, Remedy{Kind: RemoveLink, Path: "/st/budget-h"}},
		{"a link for a token file", fmt.Errorf("reading: %w", &fs.PathError{Op: "open", Path: "/st/t.json", Err: paths.ErrLink}), false, Remedy{Kind: RemoveLink, Path: "/st/t.json"}},
		{"a state directory open to all", &paths.DirError{Path: "/st", Mode: 0o777, Err: fs.ErrPermission}, false, Remedy{Kind: TightenStateDir, Path: "/st"}},
		{"a state directory not made", &paths.DirError{Path: "/st", Err: fs.ErrPermission}, false, Remedy{Kind: FixStateDir, Path: "/st"}},
	}
	for _, c := range cases {
		if got := Classify(c.err, c.project); got != c.want {
			t.Errorf("%s: Classify = %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestKindsAreClosed: Kinds lists each remedy once, from None up, so the
// surfaces' tests that iterate it cover every kind.
func TestKindsAreClosed(t *testing.T) {
	t.Parallel()
	ks := Kinds()
	if len(ks) != int(numKinds) || ks[0] != None || ks[len(ks)-1] != OpenFromAccount {
		t.Fatalf("Kinds() = %v", ks)
	}
	for i, k := range ks {
		if int(k) != i {
			t.Fatalf("Kinds()[%d] = %d", i, k)
		}
	}
}

func TestSentence(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                         "something went wrong.",
		" could not reach it \n":   "could not reach it.",
		"done.":                    "done.",
		"why?":                     "why?",
		"the code (invalid_grant)": "the code (invalid_grant).",
	} {
		if got := Sentence(errors.New(in)); got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTable(t *testing.T) {
	t.Parallel()
	for env, want := range map[string]string{"": "sandbox", "live": "live", "Live": "live"} {
		if got := (Remedy{Env: env}).Table(); got != want {
			t.Errorf("Table of %q = %q, want %q", env, got, want)
		}
	}
}
