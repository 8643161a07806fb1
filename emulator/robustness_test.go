package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	graphql "github.com/graph-gophers/graphql-go"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// fiftyAliasQuery is the 7 KB Live query that built a 16 MB answer: 50
// aliases of accounts(first: 100) { transactions(first: 100) }.
func fiftyAliasQuery() string {
	var b strings.Builder
	b.WriteString("query Big {")
	for i := range 50 {
		fmt.Fprintf(&b, " a%d: accounts(first: 100) { edges { node { id name transactions(first: 100) { edges { node { id label amount { value currency } } } } } } }", i)
	}
	b.WriteString(" }")
	return b.String()
}

// Not parallel: it counts the bytes allocated while the request runs.
func TestLiveCostGuardRefusesTheFiftyAliasQuery(t *testing.T) {
	e := newTestEnv(t, Options{Accounts: 120})
	body, err := json.Marshal(map[string]any{"query": fiftyAliasQuery()})
	if err != nil {
		t.Fatal(err)
	}
	if len(body) < 6500 || len(body) > 8000 {
		t.Fatalf("the query is %d bytes, want the 7 KB one", len(body))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := e.do(pathLive, tokLiveProject, "application/json", body)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc

	if r.Status != http.StatusBadRequest || r.code() != "QUERY_TOO_COMPLEX" || len(r.Data) > 0 && string(r.Data) != "null" {
		t.Fatalf("status %d, errors %+v, data %s", r.Status, r.Errors, r.Data)
	}
	msg := r.Errors[0].Message
	if !strings.Contains(msg, "505000 connection nodes") || !strings.Contains(msg, fmt.Sprint(MaxQueryNodes)) {
		t.Fatalf("the message must name the measured cost and the limit: %q", msg)
	}
	// The refused query costs the server and this client a few hundred KB
	// (parse, analysis, log line), not the 16 MB answer.
	if allocated > 4<<20 {
		t.Fatalf("refusing the query allocated %d bytes", allocated)
	}
	t.Logf("refused with %d bytes allocated in the whole process: %s", allocated, msg)

	// A screen's largest real query stays well inside the bound.
	q := `{ accounts(first: 100) { edges { node { id transactions(first: 100) { edges { node { id } } } } } } }`
	if r := e.query(pathLive, tokLiveProject, q, nil); r.Status != http.StatusOK || len(r.Errors) > 0 {
		t.Fatalf("accounts×transactions page: %d %+v", r.Status, r.Errors)
	}
}

func TestQueryCostEstimate(t *testing.T) {
	t.Parallel()
	s, err := graphql.ParseSchema(partnerSDL+webhookSDL, nil)
	if err != nil {
		t.Fatal(err)
	}
	lim := endpointLimits(s, false)
	for name, c := range map[string]struct {
		query string
		vars  map[string]any
		want  int64
	}{
		"schema defaults":      {`{ accounts { edges { node { transactions { totalCount } } } } }`, nil, 50 + 50*50},
		"variables":            {`query($n: Int!) { accounts(first: $n) { edges { node { transactions(first: $n) { totalCount } } } } }`, map[string]any{"n": float64(30)}, 30 + 30*30},
		"variable default":     {`query($n: Int = 7) { accounts(first: $n) { totalCount } }`, nil, 7},
		"capped at a page":     {`{ accounts(first: 1000) { totalCount } }`, nil, 100},
		"negative is nothing":  {`{ accounts(first: -5) { edges { node { transactions(first: 10) { totalCount } } } } }`, nil, 0},
		"fragments":            {`{ accounts(first: 20) { edges { node { ...F } } } } fragment F on Account { transactions(first: 10) { totalCount } }`, nil, 20 + 200},
		"aliases add up":       {`{ a: accounts(first: 3) { totalCount } b: accounts(first: 4) { totalCount } }`, nil, 7},
		"no connection":        {`{ projectInfo { id } webhookEventTypes }`, nil, 0},
		"mutation root":        {`mutation { addWebhookSubscription(input: {label: "l", endpoint: "https://x", eventTypes: [], status: Enabled}) { ... on WebhookSubscriptionSuccessPayload { webhookSubscription { webhookEventLogs(first: 5) { totalCount } } } } }`, nil, 5},
		"interface conditions": {`{ webhookEventLogs(first: 10) { ... on Connection { totalCount } edges { node { webhookSubscription { webhookEventLogs { totalCount } } } } } }`, nil, 10 + 10*50},
	} {
		doc, op, err := parseOperation(c.query, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := analyze(doc, op, lim, c.vars).Cost; got != c.want {
			t.Errorf("%s: cost %d, want %d", name, got, c.want)
		}
	}
	// Deep nesting saturates instead of overflowing.
	deep := `{ webhookSubscriptions(first: 100) { edges { node { ` + strings.Repeat(`webhookEventLogs(first: 100) { edges { node { webhookSubscription { `, 12) +
		`id` + strings.Repeat(` } } } }`, 12) + ` } } } }`
	doc, op, err := parseOperation(deep, "")
	if err != nil {
		t.Fatal(err)
	}
	st := analyze(doc, op, lim, nil)
	if st.Cost != costCap {
		t.Errorf("deep nesting cost %d, want the cap %d", st.Cost, costCap)
	}
	if _, ok := lim.check(st); ok {
		t.Error("deep nesting passed the check")
	}
}

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
	srv := startEmulator(t, Options{Accounts: 5, RateLimit: 2, RateWindow: time.Minute})
	info := srv.Info()
	tokenURL := info.AuthURL + "/oauth2/token"
	sb := info.Environments["sandbox"]
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {sb.ClientID}, "client_secret": {sb.ClientSecret}}.Encode()

	// OPTIONS is refused before the rate limit counts it.
	status, header, body := rawPost(t, http.MethodOptions, tokenURL, "", nil)
	oauthError(t, status, header, body, http.StatusMethodNotAllowed, "invalid_request")
	status, header, body = rawPost(t, http.MethodPost, tokenURL, "application/x-www-form-urlencoded", bytes.NewReader(make([]byte, maxBody+1)))
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
		gql(t, sb.GraphQLURL, "x", `{ projectInfo { id } }`)
	}
	code, out := gql(t, sb.GraphQLURL, "x", `{ projectInfo { id } }`)
	if errs, _ := out["errors"].([]any); code != http.StatusTooManyRequests || len(errs) != 1 {
		t.Fatalf("GraphQL 429: %d %v", code, out)
	}
}

func TestOmitRetryAfterMode(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 5, RateLimit: 1, RateWindow: time.Minute, OmitRetryAfter: true})
	q := `{ projectInfo { id } }`
	e.query(pathSandbox, tokSandboxProject, q, nil)
	r := e.query(pathSandbox, tokSandboxProject, q, nil)
	if r.Status != http.StatusTooManyRequests || r.code() != "RATE_LIMITED" || r.Header.Get("Retry-After") != "" ||
		!strings.Contains(r.Errors[0].Message, "retry later") {
		t.Fatalf("GraphQL: %d %q %+v", r.Status, r.Header.Get("Retry-After"), r.Errors)
	}
	for range 2 {
		status, header, body := rawPost(t, http.MethodPost, e.srv.URL+"/oauth2/token", "application/x-www-form-urlencoded", strings.NewReader("grant_type=client_credentials"))
		if status != http.StatusTooManyRequests {
			continue // the first one reaches the (absent) authorization server
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
	var mu sync.Mutex
	var log bytes.Buffer
	var atRotation []string
	srv := startEmulator(t, Options{Accounts: 20, RequestLog: lockedWriter{mu: &mu, w: &log}, OnRefreshRotated: func() {
		mu.Lock()
		defer mu.Unlock()
		atRotation = strings.Split(strings.TrimSpace(log.String()), "\n")
	}})
	info := srv.Info()
	demo := firstDemoUser(t, info, "sandbox")
	cfg := oauthConfig(info, "sandbox")
	loc := signIn(t, cfg.AuthCodeURL("state-rotation-0123"), demo.Phone, "approve")
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
	srv := startEmulator(t, Options{Accounts: 5, TokenAuthMethod: "client_secret_basic"})
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
	for name, opts := range map[string]Options{
		"unknown auth method":     {TokenAuthMethod: "private_key_jwt"},
		"negative retry interval": {WebhookRetryInterval: -time.Second},
		"negative answer window":  {WebhookAnswerWindow: -time.Second},
		"negative booking delay":  {BookingDelay: -time.Second},
	} {
		opts.Accounts = 5
		opts.SigningKey = testKey()
		srv, err := Start(context.Background(), opts)
		if err == nil {
			srv.Close()
			t.Errorf("%s: Start accepted it", name)
			continue
		}
		if !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("%s: %q does not match ErrInvalidOptions", name, err)
		}
	}
}
