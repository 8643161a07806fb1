package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

func TestExchangeResponseMatchesSpec(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	code := h.code(sandboxID, testPhone)
	status, header, body := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, code))
	if status != http.StatusOK {
		t.Fatalf("exchange: %d %v", status, body)
	}
	want := map[string]bool{"access_token": true, "expires_in": true, "id_token": true, "refresh_token": true, "scope": true, "token_type": true}
	for k := range body {
		if !want[k] {
			t.Errorf("unexpected field %q in the token response", k)
		}
	}
	for k := range want {
		if _, ok := body[k]; !ok {
			t.Errorf("field %q missing from the token response %v", k, body)
		}
	}
	if body["expires_in"] != float64(3600) || body["scope"] != "openid offline" || body["token_type"] != "bearer" {
		t.Fatalf("token response %v, want expires_in 3600, scope \"openid offline\", token_type bearer", body)
	}
	if header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control = %q", header.Get("Cache-Control"))
	}
	info, err := h.introspect(str(t, body, "access_token"))
	if err != nil {
		t.Fatalf("Introspect: %v", err)
	}
	wantID := h.users.SignIn(EnvSandbox, testPhone)
	if info.Env != EnvSandbox || info.ClientID != sandboxID || info.Subject != wantID || info.Project {
		t.Fatalf("Introspect = %+v, want sandbox user %s", info, wantID)
	}
	if d := time.Until(info.Expiry); d < 59*time.Minute || d > 61*time.Minute {
		t.Fatalf("expiry in %s, want about an hour", d)
	}
	if _, err := h.introspect(str(t, body, "refresh_token")); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("a refresh token must not pass as an access token: %v", err)
	}
	if _, err := h.introspect(str(t, body, "id_token")); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("an id_token must not pass as an access token: %v", err)
	}
}

func TestTokenTTLOptionAndNoRefreshWithoutOffline(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *Options) { o.TokenTTL = 90 * time.Second })
	q := authQuery(sandboxID)
	q.Set("scope", "openid")
	loc := h.signIn(q, testPhone)
	status, _, body := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, loc.Query().Get("code")))
	if status != http.StatusOK || body["expires_in"] != float64(90) || body["scope"] != "openid" {
		t.Fatalf("exchange: %d %v, want expires_in 90 and scope openid", status, body)
	}
	if _, ok := body["refresh_token"]; ok {
		t.Fatalf("a refresh token was issued without the offline scope: %v", body)
	}
	str(t, body, "id_token")
}

func TestXOAuth2ClientWithPKCE(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cfg := h.config(liveID, liveSecret)
	verifier := oauth2.GenerateVerifier()
	authURL, err := url.Parse(cfg.AuthCodeURL(testState, oauth2.S256ChallengeOption(verifier)))
	if err != nil {
		t.Fatal(err)
	}
	loc := h.signIn(authURL.Query(), testPhone)
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, h.ts.Client())

	// The verifier is checked: a wrong one fails the exchange.
	_, err = cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(oauth2.GenerateVerifier()))
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Fatalf("wrong verifier: %v, want invalid_grant", err)
	}
	loc = h.signIn(authURL.Query(), testPhone)
	tok, err := cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("Exchange: %v", err)
	}
	if tok.RefreshToken == "" || tok.Extra("id_token") == nil || tok.Expiry.IsZero() {
		t.Fatalf("token %+v lacks a refresh token, id_token or expiry", tok)
	}
	info, err := h.introspect(tok.AccessToken)
	if err != nil || info.Env != EnvLive {
		t.Fatalf("Introspect = %+v, %v; want the live realm", info, err)
	}
	// x/oauth2 refreshes through the token source when the token expired.
	tok.Expiry = time.Now().Add(-time.Minute)
	fresh, err := cfg.TokenSource(ctx, tok).Token()
	if err != nil || fresh.AccessToken == tok.AccessToken || fresh.RefreshToken == tok.RefreshToken {
		t.Fatalf("refresh through x/oauth2: %v (rotated: %t)", err, err == nil && fresh.RefreshToken != tok.RefreshToken)
	}
}

func TestCodeReuseRevokesTheGrant(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	code := h.code(sandboxID, testPhone)
	status, _, first := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, code))
	if status != http.StatusOK {
		t.Fatalf("first exchange: %d %v", status, first)
	}
	h.wantInvalidGrant(exchangeForm(sandboxID, sandboxSecret, code))
	h.wantGrantRevoked(first, "after a reused code")
}

func TestCodeOfOneClientCannotBeExchangedByAnother(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *Options) {
		o.Clients = append(o.Clients, Client{ID: "SANDBOX_other", Secret: "other", Env: EnvSandbox, RedirectURIs: []string{registeredURI}})
	})
	code := h.code(sandboxID, testPhone)
	h.wantInvalidGrant(exchangeForm("SANDBOX_other", "other", code))
	// Across realms the code is simply unknown.
	code = h.code(sandboxID, testPhone)
	h.wantInvalidGrant(exchangeForm(liveID, liveSecret, code))
	// A different redirect_uri than the authorization request's is refused.
	form := exchangeForm(sandboxID, sandboxSecret, code)
	form.Set("redirect_uri", "http://127.0.0.1:1/callback")
	h.wantInvalidGrant(form)
}

// TestExpiredCodeAndAccessToken is the one test with a real wait: fosite
// reads time.Now itself and rounds lifetimes to seconds.
func TestExpiredCodeAndAccessToken(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *Options) { o.CodeTTL = time.Second; o.TokenTTL = time.Second })
	status, _, tok := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, h.code(sandboxID, testPhone)))
	if status != http.StatusOK || tok["expires_in"] != float64(1) {
		t.Fatalf("exchange: %d %v", status, tok)
	}
	code := h.code(sandboxID, testPhone)
	time.Sleep(2100 * time.Millisecond)
	h.wantInvalidGrant(exchangeForm(sandboxID, sandboxSecret, code))
	_, err := h.introspect(str(t, tok, "access_token"))
	if !errors.Is(err, ErrInvalidToken) || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired access token: %v", err)
	}
	// Refresh tokens never expire by time.
	status, _, body := h.tokenCall(refreshForm(sandboxID, sandboxSecret, str(t, tok, "refresh_token")))
	if status != http.StatusOK {
		t.Fatalf("refresh after the access token expired: %d %v", status, body)
	}
}

func TestRefreshRotatesAndReuseRevokesTheGrant(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, first := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, h.code(sandboxID, testPhone)))
	status, _, second := h.tokenCall(refreshForm(sandboxID, sandboxSecret, str(t, first, "refresh_token")))
	if status != http.StatusOK {
		t.Fatalf("refresh: %d %v", status, second)
	}
	if second["refresh_token"] == first["refresh_token"] || second["access_token"] == first["access_token"] {
		t.Fatalf("refresh did not rotate: %v", second)
	}
	if second["scope"] != "openid offline" || second["expires_in"] != float64(3600) || second["token_type"] != "bearer" {
		t.Fatalf("refresh response %v does not match the spec", second)
	}
	str(t, second, "id_token")
	if _, err := h.introspect(str(t, second, "access_token")); err != nil {
		t.Fatalf("the new access token: %v", err)
	}
	if _, err := h.introspect(str(t, first, "access_token")); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("the access token before rotation still works: %v", err)
	}

	// Presenting the used refresh token fails and kills the whole grant.
	h.wantInvalidGrant(refreshForm(sandboxID, sandboxSecret, str(t, first, "refresh_token")))
	h.wantGrantRevoked(second, "after refresh-token reuse")
}

func TestRefreshTokenBoundToClientAndRealm(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, tok := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, h.code(sandboxID, testPhone)))
	h.wantInvalidGrant(refreshForm(liveID, liveSecret, str(t, tok, "refresh_token")))
	h.wantInvalidGrant(refreshForm(sandboxID, sandboxSecret, "ory_rt_garbage.garbage"))
}

func TestClientAuthentication(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	code := h.code(sandboxID, testPhone)
	status, header, body := h.tokenCall(exchangeForm(sandboxID, "wrong", code))
	wantOAuthError(t, status, header, body, http.StatusUnauthorized, "invalid_client")
	status, header, body = h.tokenCall(exchangeForm("SANDBOX_unknown", sandboxSecret, code))
	wantOAuthError(t, status, header, body, http.StatusUnauthorized, "invalid_client")
	// A sandbox secret does not open the live client.
	status, header, body = h.tokenCall(exchangeForm(liveID, sandboxSecret, code))
	wantOAuthError(t, status, header, body, http.StatusUnauthorized, "invalid_client")

	// client_secret_basic is refused: the platform takes form fields only.
	form := exchangeForm(sandboxID, "", code)
	form.Del("client_id")
	form.Del("client_secret")
	req, _ := http.NewRequest(http.MethodPost, h.ts.URL+"/oauth2/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(sandboxID, sandboxSecret)
	if p := h.do(req); p.status != http.StatusUnauthorized || !strings.Contains(p.body, "invalid_client") {
		t.Fatalf("client_secret_basic: %d %s", p.status, p.body)
	}
	// The code survived the failed attempts.
	if status, _, body := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, code)); status != http.StatusOK {
		t.Fatalf("exchange after failed client auth: %d %v", status, body)
	}
}

func TestClientCredentialsProjectToken(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {liveID}, "client_secret": {liveSecret}}
	status, _, body := h.tokenCall(form)
	if status != http.StatusOK {
		t.Fatalf("client_credentials: %d %v", status, body)
	}
	if scope, ok := body["scope"]; !ok || scope != "" {
		t.Fatalf(`scope = %v (present %t), want ""`, scope, ok)
	}
	for _, k := range []string{"refresh_token", "id_token"} {
		if _, ok := body[k]; ok {
			t.Fatalf("a project token response has %s: %v", k, body)
		}
	}
	if body["expires_in"] != float64(3600) || body["token_type"] != "bearer" {
		t.Fatalf("response %v", body)
	}
	info, err := h.introspect(str(t, body, "access_token"))
	if err != nil || !info.Project || info.Subject != "" || info.Env != EnvLive || info.ClientID != liveID {
		t.Fatalf("Introspect = %+v, %v; want a live project token", info, err)
	}
	form.Set("scope", "openid")
	status, header, body := h.tokenCall(form)
	wantOAuthError(t, status, header, body, http.StatusBadRequest, "invalid_scope")
	form.Del("scope")
	form.Set("client_secret", "wrong")
	status, header, body = h.tokenCall(form)
	wantOAuthError(t, status, header, body, http.StatusUnauthorized, "invalid_client")
}

func TestCrossRealmIntrospection(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, sandbox := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, h.code(sandboxID, testPhone)))
	_, _, live := h.tokenCall(exchangeForm(liveID, liveSecret, h.code(liveID, testPhone)))
	si, err := h.introspect(str(t, sandbox, "access_token"))
	if err != nil || si.Env != EnvSandbox {
		t.Fatalf("sandbox token: %+v, %v", si, err)
	}
	li, err := h.introspect(str(t, live, "access_token"))
	if err != nil || li.Env != EnvLive {
		t.Fatalf("live token: %+v, %v", li, err)
	}
	if si.Subject == li.Subject {
		t.Fatalf("the same phone is a different user in each environment; both are %s", si.Subject)
	}
	for _, bad := range []string{"", "garbage", "ory_at_x.y", strings.Repeat("a", maxTokenLen+1)} {
		if _, err := h.introspect(bad); !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("Introspect(%.20q) = %v, want ErrInvalidToken", bad, err)
		}
	}
}

func TestIntrospectionIsolatedBetweenServers(t *testing.T) {
	t.Parallel()
	a, b := newHarness(t), newHarness(t)
	_, _, tok := a.tokenCall(exchangeForm(sandboxID, sandboxSecret, a.code(sandboxID, testPhone)))
	if _, err := b.introspect(str(t, tok, "access_token")); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("another emulator accepted the token: %v", err)
	}
}

func TestRevokeRefreshTokenRevokesTheGrant(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, tok := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, h.code(sandboxID, testPhone)))
	p := h.post("/oauth2/revoke", url.Values{"token": {str(t, tok, "refresh_token")}, "token_type_hint": {"refresh_token"},
		"client_id": {sandboxID}, "client_secret": {sandboxSecret}})
	if p.status != http.StatusOK {
		t.Fatalf("revoke: %d %s", p.status, p.body)
	}
	if _, err := h.introspect(str(t, tok, "access_token")); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("the access token survived revoking its refresh token: %v", err)
	}
	h.wantInvalidGrant(refreshForm(sandboxID, sandboxSecret, str(t, tok, "refresh_token")))

	// RFC 7009: an unknown token is not an error; a wrong secret is.
	p = h.post("/oauth2/revoke", url.Values{"token": {"unknown"}, "client_id": {sandboxID}, "client_secret": {sandboxSecret}})
	if p.status != http.StatusOK {
		t.Fatalf("revoke unknown token: %d %s", p.status, p.body)
	}
	p = h.post("/oauth2/revoke", url.Values{"token": {"unknown"}, "client_id": {sandboxID}, "client_secret": {"wrong"}})
	if p.status != http.StatusUnauthorized || !strings.Contains(p.body, "invalid_client") {
		t.Fatalf("revoke with a wrong secret: %d %s", p.status, p.body)
	}
}

func TestRevokeAccessToken(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, tok := h.tokenCall(url.Values{"grant_type": {"client_credentials"}, "client_id": {sandboxID}, "client_secret": {sandboxSecret}})
	at := str(t, tok, "access_token")
	p := h.post("/oauth2/revoke", url.Values{"token": {at}, "client_id": {sandboxID}, "client_secret": {sandboxSecret}})
	if p.status != http.StatusOK {
		t.Fatalf("revoke: %d %s", p.status, p.body)
	}
	if _, err := h.introspect(at); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("revoked access token: %v", err)
	}
}

func TestTokenEndpointBadRequests(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cases := map[string]struct {
		form       url.Values
		wantStatus int
		wantCode   string
	}{
		"empty body":        {url.Values{}, http.StatusBadRequest, "invalid_request"},
		"no grant_type":     {url.Values{"client_id": {sandboxID}, "client_secret": {sandboxSecret}}, http.StatusBadRequest, "invalid_request"},
		"password grant":    {url.Values{"grant_type": {"password"}, "username": {"u"}, "password": {"p"}, "client_id": {sandboxID}, "client_secret": {sandboxSecret}}, http.StatusBadRequest, "invalid_request"},
		"no code":           {url.Values{"grant_type": {"authorization_code"}, "redirect_uri": {callbackURI}, "client_id": {sandboxID}, "client_secret": {sandboxSecret}}, http.StatusBadRequest, "invalid_grant"},
		"garbage code":      {exchangeForm(sandboxID, sandboxSecret, "ory_ac_nope.nope"), http.StatusBadRequest, "invalid_grant"},
		"no refresh token":  {url.Values{"grant_type": {"refresh_token"}, "client_id": {sandboxID}, "client_secret": {sandboxSecret}}, http.StatusBadRequest, "invalid_grant"},
		"huge field":        {url.Values{"grant_type": {"client_credentials"}, "client_id": {sandboxID}, "client_secret": {strings.Repeat("s", maxTokenBody)}}, http.StatusBadRequest, "invalid_request"},
		"no client at all":  {url.Values{"grant_type": {"client_credentials"}}, http.StatusBadRequest, "invalid_request"}, // fosite: credentials missing
		"implicit via code": {url.Values{"grant_type": {"implicit"}, "client_id": {sandboxID}, "client_secret": {sandboxSecret}}, http.StatusBadRequest, "invalid_request"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			status, header, body := h.tokenCall(c.form)
			wantOAuthError(t, status, header, body, c.wantStatus, c.wantCode)
		})
	}
	t.Run("GET", func(t *testing.T) {
		for _, path := range []string{"/oauth2/token", "/oauth2/revoke"} {
			p := h.get(h.ts.URL + path)
			if p.status != http.StatusMethodNotAllowed || !strings.Contains(p.body, "invalid_request") || p.header.Get("Allow") != "POST" {
				t.Fatalf("GET %s: %d %s", path, p.status, p.body)
			}
		}
		if p := h.post("/.well-known/openid-configuration", url.Values{"a": {"b"}}); p.status != http.StatusMethodNotAllowed {
			t.Fatalf("POST discovery: %d", p.status)
		}
	})
}
