package emulator_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/emulator/emulatortest"
)

// oauthConfig is a standard OAuth client of env, as partnertui's is.
func oauthConfig(info emulator.Info, env string) *oauth2.Config {
	e := info.Environments[env]
	return &oauth2.Config{
		ClientID: e.ClientID, ClientSecret: e.ClientSecret,
		RedirectURL: emulatortest.RedirectURI,
		Scopes:      []string{"openid", "offline"},
		Endpoint:    oauth2.Endpoint{AuthURL: info.AuthURL + "/oauth2/auth", TokenURL: info.AuthURL + "/oauth2/token", AuthStyle: oauth2.AuthStyleInParams},
	}
}

func totalCount(t *testing.T, out map[string]any) int {
	t.Helper()
	d, _ := out["data"].(map[string]any)
	a, _ := d["accounts"].(map[string]any)
	n, ok := a["totalCount"].(float64)
	if !ok {
		t.Fatalf("no totalCount in %v", out)
	}
	return int(n)
}

func TestEndToEndSignInAndGraphQL(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{Accounts: 150})
	info := srv.Info()
	sb := info.Environments["sandbox"]
	demo := emulatortest.DemoUser(t, info, "sandbox")
	cfg := oauthConfig(info, "sandbox")
	verifier := oauth2.GenerateVerifier()
	state := "state-e2e-0123456789"
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("phoneNumber", demo.Phone))

	loc := emulatortest.SignIn(t, authURL, demo.Phone, "approve")
	if loc.Query().Get("state") != state || loc.Query().Get("code") == "" {
		t.Fatalf("callback %s", loc)
	}
	ctx := context.Background()
	tok, err := cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	idToken, _ := tok.Extra("id_token").(string)
	if tok.RefreshToken == "" || idToken == "" {
		t.Fatal("the token response lacks a refresh token or id_token")
	}
	if claims := jwtClaims(t, idToken); claims["sub"] != demo.UserID || claims["phone_number"] != demo.Phone {
		t.Fatalf("id_token claims %v, want sub %s", claims, demo.UserID)
	}
	q := `{ accounts(first: 5) { totalCount } user { id mobilePhoneNumber } }`
	status, out := emulatortest.GraphQL(t, sb.GraphQLURL, tok.AccessToken, q, nil)
	if status != 200 {
		t.Fatalf("user query: %d %v", status, out)
	}
	userTotal := totalCount(t, out)
	user := out["data"].(map[string]any)["user"].(map[string]any)
	if user["id"] != demo.UserID || user["mobilePhoneNumber"] != demo.Phone {
		t.Fatalf("signed in as %v, want %s", user, demo.UserID)
	}
	if userTotal == 0 || userTotal >= 150 {
		t.Fatalf("the demo user sees %d of 150 accounts", userTotal)
	}
	// A Sandbox token is refused by Live.
	if status, out := emulatortest.GraphQL(t, info.Environments["live"].GraphQLURL, tok.AccessToken, `{ projectInfo { id } }`, nil); status != http.StatusUnauthorized {
		t.Fatalf("sandbox token on live: %d %v", status, out)
	}

	// Refresh rotates; reusing the old refresh token fails and revokes.
	refreshed, err := cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatal(err)
	}
	if refreshed.RefreshToken == tok.RefreshToken || refreshed.AccessToken == tok.AccessToken {
		t.Fatal("refresh did not rotate the tokens")
	}
	if status, _ := emulatortest.GraphQL(t, sb.GraphQLURL, refreshed.AccessToken, q, nil); status != 200 {
		t.Fatalf("refreshed token: %d", status)
	}
	_, err = cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Fatalf("reused refresh token: %v", err)
	}
	if status, _ := emulatortest.GraphQL(t, sb.GraphQLURL, refreshed.AccessToken, q, nil); status != http.StatusUnauthorized {
		t.Fatalf("after refresh-token reuse the grant's access token must be revoked, got %d", status)
	}

	// Client credentials: a project token sees every account.
	proj, err := emulatortest.ClientCredentials(ctx, info, "sandbox", sb.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	if status, out := emulatortest.GraphQL(t, sb.GraphQLURL, proj, q, nil); status != 200 || totalCount(t, out) != 150 {
		t.Fatalf("project token: %d %v", status, out)
	}
	if _, err := emulatortest.ClientCredentials(ctx, info, "sandbox", "wrong-secret"); err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Fatalf("wrong secret: %v", err)
	}

	// A code is single-use: presenting it again fails and revokes the
	// tokens it gave (RFC 6749 §4.1.2).
	loc = emulatortest.SignIn(t, authURL, demo.Phone, "approve")
	tok, err = cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if status, _ := emulatortest.GraphQL(t, sb.GraphQLURL, tok.AccessToken, q, nil); status != 200 {
		t.Fatalf("second sign-in: %d", status)
	}
	_, err = cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Fatalf("reused code: %v", err)
	}
	if status, _ := emulatortest.GraphQL(t, sb.GraphQLURL, tok.AccessToken, q, nil); status != http.StatusUnauthorized {
		t.Fatalf("after code reuse the access token must be revoked, got %d", status)
	}
}

// jwtClaims decodes a JWT's payload; the oauth package's tests verify the
// signature through discovery and JWKS.
func jwtClaims(t *testing.T, jwt string) map[string]any {
	t.Helper()
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("id_token has %d parts", len(parts))
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(raw, &claims); err != nil {
		t.Fatal(err)
	}
	return claims
}

func TestEndToEndDenyAndNewUser(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{Accounts: 30})
	info := srv.Info()
	cfg := oauthConfig(info, "live")
	verifier := oauth2.GenerateVerifier()
	authURL := cfg.AuthCodeURL("state-deny-0123456789", oauth2.S256ChallengeOption(verifier))
	loc := emulatortest.SignIn(t, authURL, "+33699999999", "deny")
	if loc.Query().Get("error") != "access_denied" || loc.Query().Get("state") != "state-deny-0123456789" || loc.Query().Get("code") != "" {
		t.Fatalf("deny callback %s", loc)
	}
	// An unknown phone signs in as a new user who has no accounts.
	loc = emulatortest.SignIn(t, cfg.AuthCodeURL("state-new-0123456789", oauth2.S256ChallengeOption(verifier)), "+33699999999", "approve")
	tok, err := cfg.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	status, out := emulatortest.GraphQL(t, info.Environments["live"].GraphQLURL, tok.AccessToken, `{ accounts { totalCount } user { mobilePhoneNumber firstName } }`, nil)
	if status != 200 || totalCount(t, out) != 0 {
		t.Fatalf("new user: %d %v", status, out)
	}
	if u := out["data"].(map[string]any)["user"].(map[string]any); u["mobilePhoneNumber"] != "+33699999999" || u["firstName"] != nil {
		t.Fatalf("new user %v", u)
	}
	if status, _ := emulatortest.GraphQL(t, info.Environments["sandbox"].GraphQLURL, tok.AccessToken, `{ projectInfo { id } }`, nil); status != http.StatusUnauthorized {
		t.Fatalf("live token on sandbox: %d", status)
	}
}

func TestStartInfoAndShutdown(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := emulator.Start(ctx, emulator.Options{Accounts: 10, SigningKey: emulatortest.SigningKey()})
	if err != nil {
		t.Fatal(err)
	}
	info := srv.Info()
	if !strings.HasPrefix(info.APIURL, "http://127.0.0.1:") || info.AuthURL != info.APIURL {
		t.Fatalf("urls %q %q", info.APIURL, info.AuthURL)
	}
	sb, lv := info.Environments["sandbox"], info.Environments["live"]
	if !strings.HasPrefix(sb.ClientID, "SANDBOX_") || !strings.HasPrefix(lv.ClientID, "LIVE_") || sb.ClientSecret == "" || sb.ClientSecret == lv.ClientSecret {
		t.Fatalf("credentials %+v %+v", sb, lv)
	}
	if sb.RedirectURI != emulator.CallbackURI || sb.GraphQLURL != info.APIURL+"/sandbox-partner/graphql" || sb.TestingGraphQLURL != info.APIURL+"/sandbox-partner-admin/graphql" || lv.TestingGraphQLURL != "" || lv.GraphQLURL != info.APIURL+"/live-partner/graphql" {
		t.Fatalf("env info %+v %+v", sb, lv)
	}
	envs := map[string]int{}
	for _, u := range info.DemoUsers {
		if u.Phone == "" || u.UserID == "" || u.FirstName == "" {
			t.Fatalf("demo user %+v", u)
		}
		envs[u.Env]++
	}
	if envs["sandbox"] < 3 || envs["live"] < 2 {
		t.Fatalf("demo users per env %v", envs)
	}
	resp, err := http.Get(info.AuthURL + "/.well-known/openid-configuration")
	if err != nil {
		t.Fatal(err)
	}
	var disc map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&disc)
	resp.Body.Close()
	if disc["issuer"] != info.AuthURL {
		t.Fatalf("discovery issuer %v, want %s", disc["issuer"], info.AuthURL)
	}
	cancel()
	select {
	case <-srv.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("cancelling the context did not stop the server")
	}
	if err := srv.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	if _, err := http.Get(info.APIURL + "/sandbox-partner/graphql"); err == nil {
		t.Fatal("the listener is still open")
	}
	if _, err := emulator.Start(context.Background(), emulator.Options{Accounts: 100_001}); err == nil {
		t.Fatal("too many accounts must be refused")
	}
	if _, err := emulator.Start(context.Background(), emulator.Options{Listen: "256.0.0.1:0"}); err == nil {
		t.Fatal("a bad listen address must be refused")
	}
}

func TestRunReturnsWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := emulator.Start(ctx, emulator.Options{Accounts: 5, SigningKey: emulatortest.SigningKey()})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Run(ctx) }()
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the context was cancelled")
	}
}
