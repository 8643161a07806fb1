package emulator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/emulator/emulatortest"
)

// rawPost sends a request and returns the status, headers and body.
func rawPost(t *testing.T, method, target, contentType string, body io.Reader) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// oauthError decodes an RFC 6749 error body; anything else fails.
func oauthError(t *testing.T, status int, header http.Header, body []byte, wantStatus int, wantCode string) string {
	t.Helper()
	var e map[string]any
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("%d: body is not JSON: %s", status, body)
	}
	desc, _ := e["error_description"].(string)
	if status != wantStatus || e["error"] != wantCode || desc == "" || e["errors"] != nil || header.Get("Cache-Control") != "no-store" {
		t.Fatalf("got %d %s (Cache-Control %q), want %d with an OAuth %s body", status, body, header.Get("Cache-Control"), wantStatus, wantCode)
	}
	return desc
}

// Every answer of the token endpoint is an OAuth error body, including the
// ones the middleware gives before the authorization server runs.
func TestTokenEndpointAnswersAreOAuthShaped(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{Accounts: 5, RateLimit: 2, RateWindow: time.Minute})
	info := srv.Info()
	tokenURL := info.AuthURL + "/oauth2/token"
	sb := info.Environments["sandbox"]
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {sb.ClientID}, "client_secret": {sb.ClientSecret}}.Encode()

	// OPTIONS is refused before the rate limit counts it.
	status, header, body := rawPost(t, http.MethodOptions, tokenURL, "", nil)
	oauthError(t, status, header, body, http.StatusMethodNotAllowed, "invalid_request")
	status, header, body = rawPost(t, http.MethodPost, tokenURL, "application/x-www-form-urlencoded", bytes.NewReader(make([]byte, emulator.MaxBody+1)))
	oauthError(t, status, header, body, http.StatusRequestEntityTooLarge, "invalid_request")
	if status, _, body := rawPost(t, http.MethodPost, tokenURL, "application/x-www-form-urlencoded", strings.NewReader(form)); status != http.StatusOK {
		t.Fatalf("token: %d %s", status, body)
	}
	status, header, body = rawPost(t, http.MethodPost, tokenURL, "application/x-www-form-urlencoded", strings.NewReader(form))
	desc := oauthError(t, status, header, body, http.StatusTooManyRequests, "temporarily_unavailable")
	if header.Get("Retry-After") == "" || !strings.Contains(desc, "retry after") {
		t.Fatalf("429 without its wait: Retry-After %q, %q", header.Get("Retry-After"), desc)
	}
	// The GraphQL endpoints keep GraphQL error bodies.
	for range 2 {
		emulatortest.GraphQL(t, sb.GraphQLURL, "x", `{ projectInfo { id } }`, nil)
	}
	code, out := emulatortest.GraphQL(t, sb.GraphQLURL, "x", `{ projectInfo { id } }`, nil)
	if errs, _ := out["errors"].([]any); code != http.StatusTooManyRequests || len(errs) != 1 {
		t.Fatalf("GraphQL 429: %d %v", code, out)
	}
}

func TestOmitRetryAfterMode(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{Accounts: 5, RateLimit: 1, RateWindow: time.Minute, OmitRetryAfter: true})
	info := srv.Info()
	op := `{"query": "{ projectInfo { id } }"}`
	// The first request takes the window's one place, whatever its answer.
	rawPost(t, http.MethodPost, info.Environments["sandbox"].GraphQLURL, "application/json", strings.NewReader(op))
	status, header, body := rawPost(t, http.MethodPost, info.Environments["sandbox"].GraphQLURL, "application/json", strings.NewReader(op))
	var r struct {
		Errors []struct {
			Message    string
			Extensions map[string]any
		}
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("GraphQL: %d %s", status, body)
	}
	if status != http.StatusTooManyRequests || len(r.Errors) == 0 || r.Errors[0].Extensions["code"] != "RATE_LIMITED" || header.Get("Retry-After") != "" ||
		!strings.Contains(r.Errors[0].Message, "retry later") {
		t.Fatalf("GraphQL: %d %q %s", status, header.Get("Retry-After"), body)
	}
	for range 2 {
		status, header, body := rawPost(t, http.MethodPost, info.AuthURL+"/oauth2/token", "application/x-www-form-urlencoded", strings.NewReader("grant_type=client_credentials"))
		if status != http.StatusTooManyRequests {
			continue // the first one reaches the authorization server
		}
		oauthError(t, status, header, body, http.StatusTooManyRequests, "temporarily_unavailable")
		if header.Get("Retry-After") != "" {
			t.Fatalf("token endpoint sent Retry-After %q", header.Get("Retry-After"))
		}
		return
	}
	t.Fatal("the token endpoint never answered 429")
}

// The rotation is logged before the token response is written, with no
// token in the log, and the Options hook sees that moment.
func TestRefreshRotationIsLoggedBeforeTheResponse(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex // guards atRotation
	var log emulatortest.Log
	var atRotation []string
	srv := emulatortest.Start(t, emulator.Options{Accounts: 20, RequestLog: &log, OnRefreshRotated: func() {
		mu.Lock()
		defer mu.Unlock()
		atRotation = strings.Split(strings.TrimSpace(log.String()), "\n")
	}})
	info := srv.Info()
	demo := emulatortest.DemoUser(t, info, "sandbox")
	cfg := oauthConfig(info, "sandbox")
	loc := emulatortest.SignIn(t, cfg.AuthCodeURL("state-rotation-0123"), demo.Phone, "approve")
	ctx := context.Background()
	tok, err := cfg.Exchange(ctx, loc.Query().Get("code"))
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if atRotation != nil {
		t.Fatal("the hook ran for a code exchange")
	}
	mu.Unlock()
	refreshed, err := cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(atRotation) == 0 {
		t.Fatal("the hook did not run")
	}
	var last map[string]any
	if err := json.Unmarshal([]byte(atRotation[len(atRotation)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if last["event"] != "refresh_token_rotated" || last["client_id"] != info.Environments["sandbox"].ClientID || last["env"] != "sandbox" ||
		last["endpoint"] != nil || last["grant_type"] != nil {
		t.Fatalf("the line at the rotation is %v", last)
	}
	for _, line := range atRotation {
		if strings.Contains(line, `"grant_type":"refresh_token"`) {
			t.Fatalf("the refresh request was logged before the rotation: %s", line)
		}
	}
	all := log.String()
	if !strings.Contains(all, `"grant_type":"refresh_token"`) {
		t.Fatal("the refresh request is not in the log")
	}
	for _, secret := range []string{tok.AccessToken, tok.RefreshToken, refreshed.AccessToken, refreshed.RefreshToken} {
		if strings.Contains(all, secret) {
			t.Fatal("a token is in the request log")
		}
	}
}

func TestTokenAuthMethodOption(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{Accounts: 5, TokenAuthMethod: "client_secret_basic"})
	info := srv.Info()
	sb := info.Environments["sandbox"]
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {sb.ClientID}, "client_secret": {sb.ClientSecret}}.Encode()
	status, header, body := rawPost(t, http.MethodPost, info.AuthURL+"/oauth2/token", "application/x-www-form-urlencoded", strings.NewReader(form))
	desc := oauthError(t, status, header, body, http.StatusUnauthorized, "invalid_client")
	if !strings.Contains(desc, "'client_secret_basic'") {
		t.Fatalf("the description does not name the expected method: %q", desc)
	}
	cc := clientcredentials.Config{ClientID: sb.ClientID, ClientSecret: sb.ClientSecret, TokenURL: info.AuthURL + "/oauth2/token", AuthStyle: oauth2.AuthStyleInHeader}
	if _, err := cc.Token(context.Background()); err != nil {
		t.Fatalf("client_secret_basic: %v", err)
	}
}

func TestStartRefusesInvalidRobustnessOptions(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string]emulator.Options{
		"unknown auth method":     {TokenAuthMethod: "private_key_jwt"},
		"negative retry interval": {WebhookRetryInterval: -time.Second},
		"negative answer window":  {WebhookAnswerWindow: -time.Second},
		"negative booking delay":  {BookingDelay: -time.Second},
	} {
		opts.Accounts = 5
		opts.SigningKey = emulatortest.SigningKey()
		srv, err := emulator.Start(context.Background(), opts)
		if err == nil {
			srv.Close()
			t.Errorf("%s: Start accepted it", name)
			continue
		}
		if !errors.Is(err, emulator.ErrInvalidOptions) {
			t.Errorf("%s: %q does not match ErrInvalidOptions", name, err)
		}
	}
}
