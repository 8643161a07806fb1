package auth

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

// A client registered for client_secret_basic: the error keeps the
// server's words and names the method the server expects, so the remedy
// can say which one to choose; it is not mistaken for a wrong secret
// only.
func TestTokenEndpointAuthMethodMismatch(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	f.basicOnly = true
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	for _, get := range []func() error{
		func() error { _, err := s.ProjectTokenSource().Token(); return err },
		func() error {
			_, err := s.Login(t.Context(), LoginOptions{Open: f.approve, Timeout: 20 * time.Second})
			return err
		},
	} {
		err := get()
		var te *TokenEndpointError
		if !errors.As(err, &te) || !errors.Is(err, ErrInvalidClient) || errors.Is(err, ErrRateLimited) {
			t.Fatalf("err = %v", err)
		}
		if te.Status != http.StatusUnauthorized || te.Code != "invalid_client" || te.RegisteredAuthMethod != "client_secret_basic" ||
			!strings.Contains(te.Description, "client_secret_basic") || len(te.Description) > 401 {
			t.Fatalf("facts = %+v", te)
		}
		if want := ": it expects client_secret_basic, and partnertui sends the secret as " + ClientAuthMethod; !strings.HasSuffix(te.Error(), want) {
			t.Errorf("%q does not end with %q", te.Error(), want)
		}
	}
}

func TestRegisteredAuthMethod(t *testing.T) {
	t.Parallel()
	for desc, want := range map[string]string{
		"The OAuth 2.0 Client supports client authentication method 'client_secret_basic', but method 'client_secret_post' was requested.": "client_secret_basic",
		"supports client authentication method 'private_key_jwt'":                                                                          "private_key_jwt",
		"Client authentication failed (e.g., unknown client).":                                                                             "",
		"supports client authentication method '":                                                                                          "",
		"supports client authentication method 'bad method; rm -rf'":                                                                       "",
	} {
		if got := registeredAuthMethod(desc); got != want {
			t.Errorf("registeredAuthMethod(%q) = %q, want %q", desc, got, want)
		}
	}
}

// A 429 at the token endpoint is a rate limit, never a refused client,
// whatever body shape carries it; RetryAt is set only when the server says
// when. A refresh that meets a 429 keeps the stored session.
func TestTokenEndpointRateLimited(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		retryAfter string
		body       string
		code       string
	}{
		{"oauth body with Retry-After", "7", `{"error":"temporarily_unavailable","error_description":"more than 2000 requests: retry after 7 seconds"}`, "temporarily_unavailable"},
		{"oauth body without Retry-After", "", `{"error":"temporarily_unavailable","error_description":"retry later"}`, "temporarily_unavailable"},
		{"graphql body", "3", `{"errors":[{"message":"rate limited","extensions":{"code":"RATE_LIMITED"}}]}`, ""},
		{"empty body", "", ``, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, clk, s := signedInFake(t)
			before, _ := os.ReadFile(s.StorePath())
			f.mu.Lock()
			f.intercept = func(w http.ResponseWriter, grant string) bool {
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				w.Write([]byte(tc.body))
				return true
			}
			f.mu.Unlock()
			clk.Advance(2 * time.Hour)
			for grant, get := range map[string]func() error{
				"refresh_token":      func() error { _, err := s.TokenSource().Token(); return err },
				"client_credentials": func() error { _, err := s.ProjectTokenSource().Token(); return err },
			} {
				err := get()
				var te *TokenEndpointError
				if !errors.As(err, &te) || !errors.Is(err, ErrRateLimited) || errors.Is(err, ErrInvalidClient) || errors.Is(err, ErrSignInRequired) {
					t.Fatalf("%s: err = %v", grant, err)
				}
				if te.Grant != grant || te.Status != http.StatusTooManyRequests || te.Code != tc.code {
					t.Fatalf("%s: facts = %+v", grant, te)
				}
				if tc.retryAfter == "" && !te.RetryAt.IsZero() {
					t.Errorf("%s: RetryAt %v without Retry-After", grant, te.RetryAt)
				}
				if tc.retryAfter == "7" && !te.RetryAt.Equal(clk.Now().Add(7*time.Second)) {
					t.Errorf("%s: RetryAt = %v, want now + 7 s", grant, te.RetryAt)
				}
			}
			if after, _ := os.ReadFile(s.StorePath()); string(after) != string(before) {
				t.Fatal("a rate-limited refresh changed the stored session")
			}
		})
	}
}

// The server's error and error_description are kept safe to print and
// bounded.
func TestTokenEndpointErrorSanitised(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	f.mu.Lock()
	f.intercept = func(w http.ResponseWriter, grant string) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"error": "invalid_request\x1b[2J" + strings.Repeat("e", 200), "error_description": "bad\x1b]8;;http://evil\x07link\r\n" + strings.Repeat("d", 5000)})
		return true
	}
	f.mu.Unlock()
	clk.Advance(2 * time.Hour)
	_, err := s.TokenSource().Token()
	var te *TokenEndpointError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v", err)
	}
	for _, text := range []string{te.Code, te.Description, err.Error()} {
		if strings.ContainsAny(text, "\x1b\x07\r\n") {
			t.Errorf("unsafe text: %q", text)
		}
	}
	if len([]rune(te.Code)) > 61 || len([]rune(te.Description)) > 401 || len(err.Error()) > 700 { // the bound plus "…"
		t.Errorf("unbounded: code %d, description %d, message %d", len(te.Code), len(te.Description), len(err.Error()))
	}
}

// A refresh whose answer is lost after the server rotated: the error says
// the server did not answer the refresh (the CLI and TUI then say that the
// session may have ended), the stored session is kept as it was, and the
// next run, replaying the token the server spent, learns that the session
// has ended: a sign-in is required, nothing worse.
func TestRefreshAnswerLost(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	before, _ := os.ReadFile(s.StorePath())
	f.mu.Lock()
	f.dropRefreshAnswer = true
	f.mu.Unlock()
	clk.Advance(2 * time.Hour)
	_, err := s.TokenSource().Token()
	var lost *TokenEndpointUnreachableError
	if !errors.As(err, &lost) || lost.Grant != "refresh_token" || lost.Env != "sandbox" || errors.Is(err, ErrSignInRequired) {
		t.Fatalf("err = %v", err)
	}
	if after, _ := os.ReadFile(s.StorePath()); string(after) != string(before) {
		t.Fatal("a lost answer changed the stored session")
	}
	if left := s.store.temps(); len(left) != 0 {
		t.Fatalf("temporary files after a lost answer: %v", left)
	}
	f.mu.Lock()
	f.dropRefreshAnswer = false
	calls := f.refreshCalls
	f.mu.Unlock()
	if calls != 1 {
		t.Fatalf("refresh requests = %d: the lost request was sent again", calls)
	}
	next := newTestSession(t, f.env(config.Sandbox), filepath.Dir(s.StorePath()), clk)
	_, err = next.TokenSource().Token()
	var ended *SessionEndedError
	if !errors.As(err, &ended) || !strings.Contains(ended.Reason, "already used or revoked") {
		t.Fatalf("next run: %v", err)
	}
}

// The same against the emulator (fosite): its answer to a refresh is cut
// off in the network after the rotation.
func TestEmulatorRefreshAnswerLost(t *testing.T) {
	t.Parallel()
	e, env, s := signedInEmulator(t, emulator.Options{}, nil)
	px := newTokenProxy(t, env.AuthURL, func() bool { return true })
	clk := clock.New(time.Now().Add(2 * time.Hour))
	lossy, err := NewSession(SessionOptions{Env: env, StateDir: filepath.Dir(s.StorePath()), HTTPClient: px.client(), Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	_, err = lossy.TokenSource().Token()
	var lost *TokenEndpointUnreachableError
	if !errors.As(err, &lost) || lost.Grant != "refresh_token" {
		t.Fatalf("err = %v", err)
	}
	if n := e.Log.Refreshes(t); n != 1 {
		t.Fatalf("refresh requests = %d, want 1 (never replayed by the HTTP client)", n)
	}
	_, err = newTestSession(t, env, filepath.Dir(s.StorePath()), clk).TokenSource().Token()
	if !errors.Is(err, ErrSignInRequired) {
		t.Fatalf("next run after the lost answer: %v", err)
	}
}

// The emulator's own rate limit at the token endpoint (its body is the
// GraphQL error shape until the emulator answers OAuth-shaped bodies there).
func TestEmulatorTokenEndpointRateLimited(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{RateLimit: 1, RateWindow: time.Hour})
	s := newTestSession(t, e.Env(t, config.Sandbox), t.TempDir(), nil)
	if _, err := s.ProjectTokenSource().Token(); err != nil {
		t.Fatal(err)
	}
	s.Rejected(mustProjectToken(t, s))
	_, err := s.ProjectTokenSource().Token()
	var te *TokenEndpointError
	if !errors.As(err, &te) || !errors.Is(err, ErrRateLimited) || errors.Is(err, ErrInvalidClient) || te.RetryAt.IsZero() {
		t.Fatalf("err = %v (%+v)", err, te)
	}
	if wait := time.Until(te.RetryAt); wait <= 0 || wait > time.Hour+time.Minute {
		t.Fatalf("RetryAt %v is not within the window", te.RetryAt)
	}
}

func mustProjectToken(t *testing.T, s *Session) string {
	t.Helper()
	tok, err := s.ProjectTokenSource().Token()
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}
