package emulator

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	testclock "github.com/partnertui/partnertui/internal/testkit/clock"
)

func TestRateLimit429AndRetryAfter(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 5, RateLimit: 3, RateWindow: time.Minute})
	q := `{ projectInfo { id } }`
	for i := range 3 {
		if r := e.query(pathSandbox, tokSandboxProject, q, nil); r.Status != 200 {
			t.Fatalf("request %d: %d", i, r.Status)
		}
		e.clock.Advance(10 * time.Second)
	}
	// Three requests at t=0s, 10s, 20s; now t=30s: the oldest leaves the
	// window at t=60s, so the client must wait 30 seconds.
	r := e.query(pathSandbox, tokSandboxProject, q, nil)
	if r.Status != http.StatusTooManyRequests || r.code() != "RATE_LIMITED" || r.Errors[0].Message == "" {
		t.Fatalf("4th request: %d %+v", r.Status, r.Errors)
	}
	if got := r.Header.Get("Retry-After"); got != "30" {
		t.Fatalf("Retry-After %q, want 30", got)
	}
	// Another endpoint has its own window.
	if r := e.query(pathLive, tokLiveProject, q, nil); r.Status != 200 {
		t.Fatalf("live is limited separately, got %d", r.Status)
	}
	// The window slides: after 30 more seconds one request fits again.
	e.clock.Advance(30 * time.Second)
	if r := e.query(pathSandbox, tokSandboxProject, q, nil); r.Status != 200 {
		t.Fatalf("after the window slid: %d", r.Status)
	}
	if r := e.query(pathSandbox, tokSandboxProject, q, nil); r.Status != http.StatusTooManyRequests {
		t.Fatalf("the window holds three again: %d", r.Status)
	}
}

func TestRateLimiterUnit(t *testing.T) {
	t.Parallel()
	clock := testclock.New(time.Unix(1_000_000, 0))
	l := newRateLimiter(2, time.Second, clock.Now)
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("first")
	}
	clock.Advance(400 * time.Millisecond)
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("second")
	}
	ok, wait := l.allow("a")
	if ok || wait != 600*time.Millisecond {
		t.Fatalf("third: %v %v", ok, wait)
	}
	if ok, _ := l.allow("b"); !ok {
		t.Fatal("other key")
	}
	clock.Advance(600 * time.Millisecond)
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("after the first left the window")
	}
	clock.Advance(time.Hour)
	l.sweepLocked(clock.Now().Add(-time.Second))
	if len(l.logs) != 0 {
		t.Fatalf("idle keys must be forgotten, %d left", len(l.logs))
	}
}

func TestCORSRefused(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 5})
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+pathSandbox, strings.NewReader(`{"query":"{ projectInfo { id } }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tokSandboxProject)
	req.Header.Set("Origin", "https://app.example.com")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for k := range resp.Header {
		if strings.HasPrefix(k, "Access-Control-") {
			t.Fatalf("response carries %s", k)
		}
	}
	for _, path := range []string{pathSandbox, pathLive, pathAdmin, "/oauth2/token"} {
		req, _ = http.NewRequest(http.MethodOptions, e.srv.URL+path, nil)
		req.Header.Set("Origin", "https://app.example.com")
		req.Header.Set("Access-Control-Request-Method", "POST")
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("OPTIONS %s: %d", path, resp.StatusCode)
		}
		for k := range resp.Header {
			if strings.HasPrefix(k, "Access-Control-") {
				t.Fatalf("preflight response carries %s", k)
			}
		}
	}
}

// corsGranting pretends to be a handler that grants CORS; the middleware
// must strip it.
func TestMiddlewareStripsCORSGrants(t *testing.T) {
	t.Parallel()
	m := &middleware{
		limiter: newRateLimiter(10, time.Minute, time.Now),
		now:     time.Now,
		next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Access-Control-Allow-Origin", "*")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization")
			_, _ = io.WriteString(w, "{}")
		}),
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/x", nil)
	req.Header.Set("Origin", "https://evil.example")
	m.ServeHTTP(rec, req)
	for k := range rec.Header() {
		if strings.HasPrefix(k, "Access-Control-Allow-") {
			t.Fatalf("%s leaked", k)
		}
	}
}

func TestPanicRecovery(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	m := &middleware{
		limiter: newRateLimiter(10, time.Minute, time.Now),
		now:     time.Now,
		log:     &requestLog{w: &log},
		next:    http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }),
	}
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/sandbox-partner/graphql", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d", rec.Code)
	}
	var body struct {
		Errors []struct{ Message string } `json:"errors"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || len(body.Errors) != 1 {
		t.Fatalf("body %q: %v", rec.Body, err)
	}
	if strings.Contains(rec.Body.String(), "boom") {
		t.Fatal("the panic value must not reach the client")
	}
	if !strings.Contains(log.String(), `"status":500`) {
		t.Fatalf("the failed request must be logged: %q", log.String())
	}
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 5})
	q := `query Page($first: Int!) { accounts(first: $first) { totalCount } }`
	e.query(pathSandbox, tokSandboxProject, q, map[string]any{"first": 3})
	e.query(pathLive, tokSandboxProject, q, map[string]any{"first": 3})
	// A token-endpoint request: only its grant type may be logged.
	resp, err := http.PostForm(e.srv.URL+"/oauth2/token", map[string][]string{
		"grant_type": {"refresh_token"}, "refresh_token": {"ory_rt_SECRET-REFRESH"}, "client_id": {"SANDBOX_test"}, "client_secret": {"SECRET-CLIENT"},
	})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	e.logMu.Lock()
	text := e.log.String()
	e.logMu.Unlock()
	for _, secret := range []string{tokSandboxProject, "SECRET-REFRESH", "SECRET-CLIENT", "Bearer"} {
		if strings.Contains(text, secret) {
			t.Fatalf("the log contains %q: %s", secret, text)
		}
	}
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line %q is not JSON: %v", sc.Text(), err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 3 {
		t.Fatalf("want 3 lines, got %d: %s", len(lines), text)
	}
	first := lines[0]
	if first["endpoint"] != pathSandbox || first["status"] != float64(200) || first["operation"] != q || first["operation_name"] != "Page" {
		t.Fatalf("first line %v", first)
	}
	if vars, _ := first["variables"].(map[string]any); vars["first"] != float64(3) {
		t.Fatalf("variables %v", first["variables"])
	}
	if _, err := time.Parse(time.RFC3339Nano, first["time"].(string)); err != nil {
		t.Fatalf("time %v", first["time"])
	}
	if _, ok := first["duration_ms"].(float64); !ok {
		t.Fatalf("duration_ms %v", first["duration_ms"])
	}
	if lines[1]["status"] != float64(401) {
		t.Fatalf("second line %v", lines[1])
	}
	if lines[2]["endpoint"] != "/oauth2/token" || lines[2]["grant_type"] != "refresh_token" {
		t.Fatalf("token line %v", lines[2])
	}
}

func TestParseRateLimit(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]struct {
		n int
		d time.Duration
	}{
		"2000/5m": {2000, 5 * time.Minute}, "10/1s": {10, time.Second}, "100/m": {100, time.Minute}, " 3 / 90s ": {3, 90 * time.Second},
	} {
		n, d, err := ParseRateLimit(in)
		if err != nil || n != want.n || d != want.d {
			t.Errorf("ParseRateLimit(%q) = %d, %s, %v", in, n, d, err)
		}
	}
	for _, bad := range []string{"", "2000", "0/5m", "-1/5m", "x/5m", "10/0s", "10/-1m", "10/abc"} {
		if _, _, err := ParseRateLimit(bad); err == nil {
			t.Errorf("ParseRateLimit(%q) accepted", bad)
		}
	}
}

func TestPrintInfo(t *testing.T) {
	t.Parallel()
	info := Info{
		APIURL: "http://127.0.0.1:1234", AuthURL: "http://127.0.0.1:1234",
		Environments: map[string]EnvInfo{
			"sandbox": {ClientID: "SANDBOX_x", ClientSecret: "s1", RedirectURI: CallbackURI, GraphQLURL: "http://127.0.0.1:1234/sandbox-partner/graphql", TestingGraphQLURL: "http://127.0.0.1:1234/sandbox-partner-admin/graphql"},
			"live":    {ClientID: "LIVE_x", ClientSecret: "s2", RedirectURI: CallbackURI, GraphQLURL: "http://127.0.0.1:1234/live-partner/graphql"},
		},
		DemoUsers: []DemoUser{{Phone: "+33612345678", FirstName: "Camille", LastName: "Martin", UserID: "u1", Env: "sandbox"}},
	}
	var js bytes.Buffer
	if err := PrintInfo(&js, info, true); err != nil {
		t.Fatal(err)
	}
	if strings.Count(js.String(), "\n") != 1 || !strings.HasSuffix(js.String(), "\n") {
		t.Fatalf("--json must be one line: %q", js.String())
	}
	var back struct {
		APIURL       string `json:"api_url"`
		AuthURL      string `json:"auth_url"`
		Environments map[string]map[string]string
		DemoUsers    []map[string]string `json:"demo_users"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Environments["sandbox"]["testing_graphql_url"] == "" || back.Environments["live"]["client_id"] != "LIVE_x" || back.DemoUsers[0]["phone"] != "+33612345678" {
		t.Fatalf("decoded %+v", back)
	}
	if _, ok := back.Environments["live"]["testing_graphql_url"]; ok {
		t.Fatal("live has no testing URL")
	}
	var text bytes.Buffer
	if err := PrintInfo(&text, info, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"http://127.0.0.1:1234", "/sandbox-partner/graphql", "/sandbox-partner-admin/graphql", "/live-partner/graphql", "SANDBOX_x", "LIVE_x", "s1", "+33612345678"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text banner lacks %q:\n%s", want, text.String())
		}
	}
}

func TestRetryAfterIsWholeSeconds(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 5, RateLimit: 1, RateWindow: 1500 * time.Millisecond})
	e.query(pathSandbox, tokSandboxProject, `{ projectInfo { id } }`, nil)
	r := e.query(pathSandbox, tokSandboxProject, `{ projectInfo { id } }`, nil)
	n, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.Status != http.StatusTooManyRequests || err != nil || n != 2 {
		t.Fatalf("status %d Retry-After %q: a partial second rounds up", r.Status, r.Header.Get("Retry-After"))
	}
}
