package oauth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	testclock "github.com/partnertui/partnertui/internal/testkit/clock"
)

const (
	sandboxID     = "SANDBOX_test-client"
	sandboxSecret = "sandbox-secret"
	liveID        = "LIVE_test-client"
	liveSecret    = "live-secret"
	registeredURI = "http://127.0.0.1/callback"
	callbackURI   = "http://127.0.0.1:43117/callback" // any loopback port matches
	testState     = "state-0123456789"
	testPhone     = "+33612345678"
)

// testKey is generated once: RSA generation dominates New otherwise.
var testKey = sync.OnceValue(func() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k
})

// fakeUsers is the Users directory the data side implements for real.
type fakeUsers struct {
	mu     sync.Mutex
	byKey  map[string]string // env|phone → id
	phones map[string]string // env|id → phone
}

func newFakeUsers() *fakeUsers {
	return &fakeUsers{byKey: map[string]string{}, phones: map[string]string{}}
}

func (u *fakeUsers) SignIn(env, phone string) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	if id, ok := u.byKey[env+"|"+phone]; ok {
		return id
	}
	id := fmt.Sprintf("%s-user-%d", env, len(u.byKey)+1)
	u.byKey[env+"|"+phone] = id
	u.phones[env+"|"+id] = phone
	return id
}

// has says whether a user signed in with phone in env.
func (u *fakeUsers) has(env, phone string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	_, ok := u.byKey[env+"|"+phone]
	return ok
}

func (u *fakeUsers) count() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.byKey)
}

func (u *fakeUsers) Phone(env, userID string) (string, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	p, ok := u.phones[env+"|"+userID]
	return p, ok
}

type harness struct {
	t     *testing.T
	srv   *Server
	ts    *httptest.Server
	users *fakeUsers
	clock *testclock.Fake // the sign-in flow clock (fosite keeps real time)
	http  *http.Client    // never follows redirects: the 303s are what we test
}

// testOptions registers the two test clients, one per environment.
func testOptions(issuer string, users Users) Options {
	return Options{
		Issuer: issuer,
		Clients: []Client{
			{ID: sandboxID, Secret: sandboxSecret, Env: EnvSandbox, RedirectURIs: []string{registeredURI}},
			{ID: liveID, Secret: liveSecret, Env: EnvLive, RedirectURIs: []string{registeredURI}},
		},
		Users:      users,
		SigningKey: testKey(),
	}
}

// newServer is a server without a listener, for in-process benchmarks and
// fuzzers.
func newServer(tb testing.TB) *Server {
	tb.Helper()
	srv, err := New(testOptions("http://127.0.0.1:9", newFakeUsers()))
	if err != nil {
		tb.Fatal(err)
	}
	return srv
}

func newHarness(t *testing.T, mutate ...func(*Options)) *harness {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	users := newFakeUsers()
	opts := testOptions("http://"+ts.Listener.Addr().String(), users)
	for _, m := range mutate {
		m(&opts)
	}
	srv, err := New(opts)
	if err != nil {
		ts.Close()
		t.Fatalf("New: %v", err)
	}
	clock := testclock.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	srv.now = clock.Now
	ts.Config.Handler = srv.Handler()
	ts.Start()
	t.Cleanup(ts.Close)
	client := ts.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &harness{t: t, srv: srv, ts: ts, users: users, clock: clock, http: client}
}

func (h *harness) config(clientID, secret string) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     clientID,
		ClientSecret: secret,
		RedirectURL:  callbackURI,
		Scopes:       []string{"openid", "offline"},
		Endpoint: oauth2.Endpoint{
			AuthURL:   h.ts.URL + "/oauth2/auth",
			TokenURL:  h.ts.URL + "/oauth2/token",
			AuthStyle: oauth2.AuthStyleInParams,
		},
	}
}

// authQuery is a valid spec 4.3 request for clientID.
func authQuery(clientID string) url.Values {
	return url.Values{
		"response_type": {"code"},
		"client_id":     {clientID},
		"redirect_uri":  {callbackURI},
		"scope":         {"openid offline"},
		"state":         {testState},
	}
}

type page struct {
	status int
	header http.Header
	body   string
}

func (p page) location(t *testing.T) *url.URL {
	t.Helper()
	if p.status != http.StatusSeeOther {
		t.Fatalf("status %d, want 303; body:\n%s", p.status, p.body)
	}
	u, err := url.Parse(p.header.Get("Location"))
	if err != nil {
		t.Fatalf("Location %q: %v", p.header.Get("Location"), err)
	}
	return u
}

func (h *harness) do(req *http.Request) page {
	h.t.Helper()
	resp, err := h.http.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatalf("read body: %v", err)
	}
	return page{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

func (h *harness) get(rawURL string) page {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.do(req)
}

func (h *harness) post(path string, form url.Values) page {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.ts.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return h.do(req)
}

var (
	flowRE = regexp.MustCompile(`<input type="hidden" name="flow" value="([^"]+)">`)
	otpRE  = regexp.MustCompile(`id="otp-code">([0-9]{6})<`)
)

func mustMatch(t *testing.T, re *regexp.Regexp, p page) string {
	t.Helper()
	m := re.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("status %d: page has no %s:\n%s", p.status, re, p.body)
	}
	return m[1]
}

// startSignIn opens the sign-in page and returns the flow id.
func (h *harness) startSignIn(q url.Values) string {
	h.t.Helper()
	p := h.get(h.ts.URL + "/oauth2/auth?" + q.Encode())
	if p.status != http.StatusOK {
		h.t.Fatalf("GET /oauth2/auth: status %d:\n%s", p.status, p.body)
	}
	if !strings.Contains(p.body, `name="phoneNumber" type="tel"`) {
		h.t.Fatalf("first page has no phone field:\n%s", p.body)
	}
	return mustMatch(h.t, flowRE, p)
}

// reachConsent walks the phone and code forms.
func (h *harness) reachConsent(flow, phone string) {
	h.t.Helper()
	p := h.post("/oauth2/auth", url.Values{"flow": {flow}, "phoneNumber": {phone}})
	otp := mustMatch(h.t, otpRE, p)
	p = h.post("/oauth2/auth", url.Values{"flow": {flow}, "otp": {otp}})
	if !strings.Contains(p.body, `<button type="submit" name="decision" value="approve">`) ||
		!strings.Contains(p.body, `<button type="submit" name="decision" value="deny">`) {
		h.t.Fatalf("no consent buttons after the right code:\n%s", p.body)
	}
}

// signIn runs the whole form flow with approval and returns the redirect.
func (h *harness) signIn(q url.Values, phone string) *url.URL {
	h.t.Helper()
	flow := h.startSignIn(q)
	h.reachConsent(flow, phone)
	return h.post("/oauth2/auth", url.Values{"flow": {flow}, "decision": {"approve"}}).location(h.t)
}

// code signs in on the sandbox client and returns a fresh code.
func (h *harness) code(clientID, phone string) string {
	h.t.Helper()
	loc := h.signIn(authQuery(clientID), phone)
	if loc.Query().Get("state") != testState || loc.Query().Get("code") == "" {
		h.t.Fatalf("approve redirect %s lacks code or state", loc)
	}
	return loc.Query().Get("code")
}

// tokenCall posts to /oauth2/token and decodes the JSON reply.
func (h *harness) tokenCall(form url.Values) (int, http.Header, map[string]any) {
	h.t.Helper()
	p := h.post("/oauth2/token", form)
	var body map[string]any
	if err := json.Unmarshal([]byte(p.body), &body); err != nil {
		h.t.Fatalf("token reply is not JSON (status %d): %q", p.status, p.body)
	}
	return p.status, p.header, body
}

func exchangeForm(clientID, secret, code string) url.Values {
	return url.Values{
		"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {callbackURI},
		"client_id": {clientID}, "client_secret": {secret},
	}
}

func refreshForm(clientID, secret, rt string) url.Values {
	return url.Values{
		"grant_type": {"refresh_token"}, "refresh_token": {rt},
		"client_id": {clientID}, "client_secret": {secret},
	}
}

// wantOAuthError checks an RFC 6749 error reply.
// wantInvalidGrant posts a token request that must fail with invalid_grant.
func (h *harness) wantInvalidGrant(form url.Values) {
	h.t.Helper()
	status, header, body := h.tokenCall(form)
	wantOAuthError(h.t, status, header, body, http.StatusBadRequest, "invalid_grant")
}

// wantGrantRevoked checks that neither the access token nor the refresh
// token of a token response works any more.
func (h *harness) wantGrantRevoked(tok map[string]any, when string) {
	h.t.Helper()
	if _, err := h.introspect(str(h.t, tok, "access_token")); !errors.Is(err, ErrInvalidToken) {
		h.t.Fatalf("the grant's access token still works %s: %v", when, err)
	}
	h.wantInvalidGrant(refreshForm(sandboxID, sandboxSecret, str(h.t, tok, "refresh_token")))
}

func wantOAuthError(t *testing.T, status int, header http.Header, body map[string]any, wantStatus int, wantCode string) {
	t.Helper()
	if status != wantStatus || body["error"] != wantCode {
		t.Fatalf("got %d %v, want %d %s", status, body, wantStatus, wantCode)
	}
	if header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", header.Get("Cache-Control"))
	}
}

func str(t *testing.T, m map[string]any, k string) string {
	t.Helper()
	s, ok := m[k].(string)
	if !ok || s == "" {
		t.Fatalf("reply field %q missing or empty: %v", k, m)
	}
	return s
}

func (h *harness) introspect(token string) (TokenInfo, error) {
	return h.srv.Introspect(context.Background(), token)
}
