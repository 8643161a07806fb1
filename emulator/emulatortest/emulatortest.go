// Package emulatortest starts the emulator for a test and talks to it as
// any client would, over plain HTTP: the sign-in forms, the token endpoint
// and GraphQL. It is the emulator's own test kit, as httptest is
// net/http's; it imports nothing of the client packages, whose tests have
// their own kit.
package emulatortest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator"
)

// SigningKey is one RSA key for every emulator a test binary starts:
// generating one costs about 100 ms, which would dominate Start.
var SigningKey = sync.OnceValue(func() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k
})

// Start starts an emulator for the test, with the shared SigningKey unless
// opts has one, and closes it when the test ends (failing the test if
// closing fails).
func Start(tb testing.TB, opts emulator.Options) *emulator.Server {
	tb.Helper()
	if opts.SigningKey == nil {
		opts.SigningKey = SigningKey()
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := emulator.Start(ctx, opts)
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cancel()
		if err := srv.Close(); err != nil {
			tb.Errorf("close the emulator: %v", err)
		}
	})
	return srv
}

// client never follows redirects: a sign-in's last answer is the redirect
// to the callback, which is what a browser would show.
var client = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Timeout:       10 * time.Second,
}

// DemoUser is the first demo user the start banner lists for env.
func DemoUser(tb testing.TB, info emulator.Info, env string) emulator.DemoUser {
	tb.Helper()
	for _, u := range info.DemoUsers {
		if u.Env == env {
			return u
		}
	}
	tb.Fatalf("no %s demo user in %+v", env, info.DemoUsers)
	return emulator.DemoUser{}
}

// ClientCredentials asks env's token endpoint for a project token with the
// given secret, checking the answer is shaped as the platform's (no
// refresh token, an empty scope); a refusal's OAuth error code is the
// error's text.
func ClientCredentials(ctx context.Context, info emulator.Info, env, secret string) (string, error) {
	e := info.Environments[env]
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {e.ClientID}, "client_secret": {secret}}
	var body struct {
		AccessToken  string  `json:"access_token"`
		RefreshToken string  `json:"refresh_token"`
		Scope        *string `json:"scope"`
		Error        string  `json:"error"`
	}
	status, err := postForm(ctx, info.AuthURL+"/oauth2/token", form, &body)
	if err != nil {
		return "", err
	}
	if status != http.StatusOK {
		return "", errors.New(body.Error)
	}
	if body.RefreshToken != "" || body.Scope == nil || *body.Scope != "" {
		return "", errors.New("a project token response has no refresh token and an empty scope")
	}
	return body.AccessToken, nil
}

// ProjectToken is a project access token of env.
func ProjectToken(tb testing.TB, info emulator.Info, env string) string {
	tb.Helper()
	tok, err := ClientCredentials(context.Background(), info, env, info.Environments[env].ClientSecret)
	if err != nil {
		tb.Fatalf("project token of %s: %v", env, err)
	}
	return tok
}

// postForm posts a form and decodes the JSON answer into out.
func postForm(ctx context.Context, target string, form url.Values, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewBufferString(form.Encode()))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return resp.StatusCode, fmt.Errorf("the answer of %s (%d) is not JSON: %w", target, resp.StatusCode, err)
	}
	return resp.StatusCode, nil
}

// GraphQL posts an operation with a bearer token (none when empty) and
// returns the status and the decoded body.
func GraphQL(tb testing.TB, endpoint, token, query string, vars map[string]any) (int, map[string]any) {
	tb.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		tb.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		tb.Fatalf("the answer of %s (%d) is not JSON: %v", endpoint, resp.StatusCode, err)
	}
	return resp.StatusCode, out
}

// Log is a request log a test can read while the emulator writes it.
type Log struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends one write of the emulator.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// String is everything written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
