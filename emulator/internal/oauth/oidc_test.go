package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

func TestIDTokenVerifiesThroughDiscoveryAndJWKS(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := oidc.ClientContext(context.Background(), h.ts.Client())
	provider, err := oidc.NewProvider(ctx, h.ts.URL)
	if err != nil {
		t.Fatalf("discovery: %v", err)
	}
	if provider.Endpoint().AuthURL != h.ts.URL+"/oauth2/auth" || provider.Endpoint().TokenURL != h.ts.URL+"/oauth2/token" {
		t.Fatalf("discovered endpoints %+v", provider.Endpoint())
	}
	cfg := h.config(sandboxID, sandboxSecret)
	cfg.Endpoint = provider.Endpoint()
	cfg.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	const nonce = "nonce-0123456789"
	authURL, err := url.Parse(cfg.AuthCodeURL(testState, oidc.Nonce(nonce)))
	if err != nil {
		t.Fatal(err)
	}
	loc := h.signIn(authURL.Query(), testPhone)
	tok, err := cfg.Exchange(context.WithValue(ctx, oauth2.HTTPClient, h.ts.Client()), loc.Query().Get("code"))
	if err != nil {
		t.Fatalf("Exchange: %v", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	verifier := provider.Verifier(&oidc.Config{ClientID: sandboxID})
	idt, err := verifier.Verify(ctx, raw)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	wantSub := h.users.SignIn(EnvSandbox, testPhone)
	if idt.Subject != wantSub || idt.Issuer != h.ts.URL || idt.Nonce != nonce || !slices.Contains(idt.Audience, sandboxID) {
		t.Fatalf("id_token sub=%s iss=%s nonce=%s aud=%v", idt.Subject, idt.Issuer, idt.Nonce, idt.Audience)
	}
	if err := idt.VerifyAccessToken(tok.AccessToken); err != nil {
		t.Fatalf("at_hash: %v", err)
	}
	var claims struct {
		Phone    string `json:"phone_number"`
		AuthTime int64  `json:"auth_time"`
	}
	if err := idt.Claims(&claims); err != nil || claims.Phone != testPhone || claims.AuthTime == 0 {
		t.Fatalf("claims %+v, %v", claims, err)
	}
	header := jwtHeader(t, raw)
	if header["alg"] != "RS256" || header["kid"] != h.srv.kid {
		t.Fatalf("id_token header %v", header)
	}

	// Another client must not accept it.
	if _, err := provider.Verifier(&oidc.Config{ClientID: liveID}).Verify(ctx, raw); err == nil {
		t.Fatal("the id_token verified for another client")
	}
	// The refreshed id_token is still the same user, and verifies.
	tok.Expiry = time.Now().Add(-time.Minute)
	fresh, err := cfg.TokenSource(context.WithValue(ctx, oauth2.HTTPClient, h.ts.Client()), tok).Token()
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	raw2, _ := fresh.Extra("id_token").(string)
	idt2, err := verifier.Verify(ctx, raw2)
	if err != nil || idt2.Subject != wantSub {
		t.Fatalf("refreshed id_token: %v (sub %v)", err, idt2)
	}
}

func jwtHeader(t *testing.T, raw string) map[string]any {
	t.Helper()
	part, _, ok := strings.Cut(raw, ".")
	if !ok {
		t.Fatalf("not a JWT: %.30q", raw)
	}
	b, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDiscoveryDocument(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	p := h.get(h.ts.URL + "/.well-known/openid-configuration")
	if p.status != http.StatusOK || !strings.HasPrefix(p.header.Get("Content-Type"), "application/json") {
		t.Fatalf("discovery: %d %s", p.status, p.header.Get("Content-Type"))
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(p.body), &doc); err != nil {
		t.Fatal(err)
	}
	wantStrings := map[string]string{
		"issuer":                 h.ts.URL,
		"authorization_endpoint": h.ts.URL + "/oauth2/auth",
		"token_endpoint":         h.ts.URL + "/oauth2/token",
		"revocation_endpoint":    h.ts.URL + "/oauth2/revoke",
		"jwks_uri":               h.ts.URL + "/.well-known/jwks.json",
	}
	for k, v := range wantStrings {
		if doc[k] != v {
			t.Errorf("%s = %v, want %s", k, doc[k], v)
		}
	}
	wantLists := map[string][]string{
		"response_types_supported":              {"code"},
		"grant_types_supported":                 {"authorization_code", "refresh_token", "client_credentials"},
		"code_challenge_methods_supported":      {"S256"},
		"token_endpoint_auth_methods_supported": {"client_secret_post"},
		"id_token_signing_alg_values_supported": {"RS256"},
		"scopes_supported":                      {"openid", "offline"},
	}
	for k, want := range wantLists {
		got, _ := doc[k].([]any)
		var gs []string
		for _, g := range got {
			s, _ := g.(string)
			gs = append(gs, s)
		}
		if !slices.Equal(gs, want) {
			t.Errorf("%s = %v, want %v", k, gs, want)
		}
	}
	if p := h.post("/.well-known/jwks.json", url.Values{"a": {"b"}}); p.status != http.StatusMethodNotAllowed {
		t.Errorf("POST jwks: %d", p.status)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	t.Parallel()
	users := newFakeUsers()
	good := func() Options {
		return Options{
			Issuer:     "http://127.0.0.1:1",
			Clients:    []Client{{ID: sandboxID, Secret: "s", Env: EnvSandbox, RedirectURIs: []string{registeredURI}}},
			Users:      users,
			SigningKey: testKey(),
		}
	}
	cases := map[string]func(*Options){
		"relative issuer":   func(o *Options) { o.Issuer = "/x" },
		"no users":          func(o *Options) { o.Users = nil },
		"no clients":        func(o *Options) { o.Clients = nil },
		"empty id":          func(o *Options) { o.Clients[0].ID = "" },
		"duplicate id":      func(o *Options) { o.Clients = append(o.Clients, o.Clients[0]) },
		"empty secret":      func(o *Options) { o.Clients[0].Secret = "" },
		"unknown env":       func(o *Options) { o.Clients[0].Env = "staging" },
		"no redirect":       func(o *Options) { o.Clients[0].RedirectURIs = nil },
		"relative redirect": func(o *Options) { o.Clients[0].RedirectURIs = []string{"/callback"} },
		"sub-second token":  func(o *Options) { o.TokenTTL = 300 * time.Millisecond },
		"negative code":     func(o *Options) { o.CodeTTL = -time.Minute },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			o := good()
			mutate(&o)
			if _, err := New(o); !errors.Is(err, ErrInvalidOptions) {
				t.Fatalf("New = %v, want ErrInvalidOptions", err)
			}
		})
	}
	o := good()
	o.Issuer += "/"
	s, err := New(o)
	if err != nil || s.issuer != "http://127.0.0.1:1" || s.tokenTTL != DefaultTokenTTL || s.codeTTL != DefaultCodeTTL {
		t.Fatalf("New with defaults: %v", err)
	}
}
