package emulator

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/oauth2"
)

// testKey is generated once: RSA key generation dominates Start otherwise.
var testKey = sync.OnceValue(func() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k
})

func startEmulator(t *testing.T, opts Options) *Server {
	t.Helper()
	opts.SigningKey = testKey()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		if err := srv.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return srv
}

// noRedirect is an HTTP client that shows redirects instead of following
// them, like a browser's view of the callback.
var noRedirect = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Timeout:       10 * time.Second,
}

// form is the single form of a sign-in page.
type form struct {
	action string
	fields url.Values // hidden and prefilled inputs
}

// parsePage finds the page's form and the text of #otp-code, per the
// sign-in form protocol.
func parsePage(t *testing.T, pageURL string, body io.Reader) (form, string) {
	t.Helper()
	doc, err := html.Parse(body)
	if err != nil {
		t.Fatal(err)
	}
	f := form{fields: url.Values{}}
	var otp string
	var visit func(n *html.Node)
	attr := func(n *html.Node, k string) string {
		for _, a := range n.Attr {
			if a.Key == k {
				return a.Val
			}
		}
		return ""
	}
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "form":
				base, _ := url.Parse(pageURL)
				act, _ := url.Parse(attr(n, "action"))
				f.action = base.ResolveReference(act).String()
			case n.Data == "input" && attr(n, "name") != "":
				f.fields.Set(attr(n, "name"), attr(n, "value"))
			case attr(n, "id") == "otp-code" && n.FirstChild != nil:
				otp = strings.TrimSpace(n.FirstChild.Data)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(doc)
	if f.action == "" {
		t.Fatal("the page has no form")
	}
	return f, otp
}

// submit posts a form with extra values and returns the response.
func submit(t *testing.T, f form, extra url.Values) *http.Response {
	t.Helper()
	vals := url.Values{}
	for k, v := range f.fields {
		vals[k] = v
	}
	for k, v := range extra {
		vals[k] = v
	}
	resp, err := noRedirect.PostForm(f.action, vals)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// signIn walks the forms as phone, deciding approve or deny, and returns
// the callback URL the browser is sent to.
func signIn(t *testing.T, authURL, phone, decision string) *url.URL {
	t.Helper()
	resp, err := noRedirect.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("sign-in page: %d %s", resp.StatusCode, b)
	}
	f, _ := parsePage(t, authURL, resp.Body)
	resp.Body.Close()
	resp = submit(t, f, url.Values{"phoneNumber": {phone}})
	f, otp := parsePage(t, f.action, resp.Body)
	resp.Body.Close()
	if len(otp) != 6 {
		t.Fatalf("the code page shows %q, want 6 digits", otp)
	}
	resp = submit(t, f, url.Values{"otp": {otp}})
	f, _ = parsePage(t, f.action, resp.Body)
	resp.Body.Close()
	resp = submit(t, f, url.Values{"decision": {decision}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("decision: %d, want 303", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// firstDemoUser is the first demo user the banner lists for env.
func firstDemoUser(t *testing.T, info Info, env string) DemoUser {
	t.Helper()
	for _, u := range info.DemoUsers {
		if u.Env == env {
			return u
		}
	}
	t.Fatalf("no %s demo user in %+v", env, info.DemoUsers)
	return DemoUser{}
}

func oauthConfig(info Info, env string) *oauth2.Config {
	e := info.Environments[env]
	return &oauth2.Config{
		ClientID: e.ClientID, ClientSecret: e.ClientSecret,
		RedirectURL: "http://127.0.0.1:43117/callback",
		Scopes:      []string{"openid", "offline"},
		Endpoint:    oauth2.Endpoint{AuthURL: info.AuthURL + "/oauth2/auth", TokenURL: info.AuthURL + "/oauth2/token", AuthStyle: oauth2.AuthStyleInParams},
	}
}

// gql posts an operation with a bearer token to a full URL.
func gql(t *testing.T, endpoint, token, query string) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
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
	srv := startEmulator(t, Options{Accounts: 150})
	info := srv.Info()
	sb := info.Environments["sandbox"]
	demo := firstDemoUser(t, info, "sandbox")
	cfg := oauthConfig(info, "sandbox")
	verifier := oauth2.GenerateVerifier()
	state := "state-e2e-0123456789"
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("phoneNumber", demo.Phone))

	loc := signIn(t, authURL, demo.Phone, "approve")
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
	status, out := gql(t, sb.GraphQLURL, tok.AccessToken, q)
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
	if status, out := gql(t, info.Environments["live"].GraphQLURL, tok.AccessToken, `{ projectInfo { id } }`); status != http.StatusUnauthorized {
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
	if status, _ := gql(t, sb.GraphQLURL, refreshed.AccessToken, q); status != 200 {
		t.Fatalf("refreshed token: %d", status)
	}
	_, err = cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Fatalf("reused refresh token: %v", err)
	}
	if status, _ := gql(t, sb.GraphQLURL, refreshed.AccessToken, q); status != http.StatusUnauthorized {
		t.Fatalf("after refresh-token reuse the grant's access token must be revoked, got %d", status)
	}

	// Client credentials: a project token sees every account.
	proj, err := clientCredentials(ctx, info, "sandbox", sb.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	if status, out := gql(t, sb.GraphQLURL, proj, q); status != 200 || totalCount(t, out) != 150 {
		t.Fatalf("project token: %d %v", status, out)
	}
	if _, err := clientCredentials(ctx, info, "sandbox", "wrong-secret"); err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Fatalf("wrong secret: %v", err)
	}

	// A code is single-use: presenting it again fails and revokes the
	// tokens it gave (RFC 6749 §4.1.2).
	loc = signIn(t, authURL, demo.Phone, "approve")
	tok, err = cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if status, _ := gql(t, sb.GraphQLURL, tok.AccessToken, q); status != 200 {
		t.Fatalf("second sign-in: %d", status)
	}
	_, err = cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Fatalf("reused code: %v", err)
	}
	if status, _ := gql(t, sb.GraphQLURL, tok.AccessToken, q); status != http.StatusUnauthorized {
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

func clientCredentials(ctx context.Context, info Info, env, secret string) (string, error) {
	e := info.Environments[env]
	resp, err := http.PostForm(info.AuthURL+"/oauth2/token", url.Values{
		"grant_type": {"client_credentials"}, "client_id": {e.ClientID}, "client_secret": {secret},
	})
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var body struct {
		AccessToken  string  `json:"access_token"`
		RefreshToken string  `json:"refresh_token"`
		Scope        *string `json:"scope"`
		Error        string  `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", errors.New(body.Error)
	}
	if body.RefreshToken != "" || body.Scope == nil || *body.Scope != "" {
		return "", errors.New("a project token response has no refresh token and an empty scope")
	}
	return body.AccessToken, nil
}

func TestEndToEndDenyAndNewUser(t *testing.T) {
	srv := startEmulator(t, Options{Accounts: 30})
	info := srv.Info()
	cfg := oauthConfig(info, "live")
	verifier := oauth2.GenerateVerifier()
	authURL := cfg.AuthCodeURL("state-deny-0123456789", oauth2.S256ChallengeOption(verifier))
	loc := signIn(t, authURL, "+33699999999", "deny")
	if loc.Query().Get("error") != "access_denied" || loc.Query().Get("state") != "state-deny-0123456789" || loc.Query().Get("code") != "" {
		t.Fatalf("deny callback %s", loc)
	}
	// An unknown phone signs in as a new user who has no accounts.
	loc = signIn(t, cfg.AuthCodeURL("state-new-0123456789", oauth2.S256ChallengeOption(verifier)), "+33699999999", "approve")
	tok, err := cfg.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	status, out := gql(t, info.Environments["live"].GraphQLURL, tok.AccessToken, `{ accounts { totalCount } user { mobilePhoneNumber firstName } }`)
	if status != 200 || totalCount(t, out) != 0 {
		t.Fatalf("new user: %d %v", status, out)
	}
	if u := out["data"].(map[string]any)["user"].(map[string]any); u["mobilePhoneNumber"] != "+33699999999" || u["firstName"] != nil {
		t.Fatalf("new user %v", u)
	}
	if status, _ := gql(t, info.Environments["sandbox"].GraphQLURL, tok.AccessToken, `{ projectInfo { id } }`); status != http.StatusUnauthorized {
		t.Fatalf("live token on sandbox: %d", status)
	}
}

func TestStartInfoAndShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := Start(ctx, Options{Accounts: 10, SigningKey: testKey()})
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
	if sb.RedirectURI != CallbackURI || sb.GraphQLURL != info.APIURL+"/sandbox-partner/graphql" || sb.TestingGraphQLURL != info.APIURL+"/sandbox-partner-admin/graphql" || lv.TestingGraphQLURL != "" || lv.GraphQLURL != info.APIURL+"/live-partner/graphql" {
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
	if _, err := Start(context.Background(), Options{Accounts: 100_001}); err == nil {
		t.Fatal("too many accounts must be refused")
	}
	if _, err := Start(context.Background(), Options{Listen: "256.0.0.1:0"}); err == nil {
		t.Fatal("a bad listen address must be refused")
	}
}

func TestRunReturnsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := Start(ctx, Options{Accounts: 5, SigningKey: testKey()})
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
