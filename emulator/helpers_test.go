package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/gql"
	"github.com/partnertui/partnertui/emulator/internal/oauth"
	testclock "github.com/partnertui/partnertui/internal/testkit/clock"
)

// fakeTokens maps fixed test tokens to what they stand for, so GraphQL
// tests do not depend on the authorization server.
type fakeTokens map[string]oauth.TokenInfo

func (f fakeTokens) Introspect(_ context.Context, token string) (oauth.TokenInfo, error) {
	if ti, ok := f[token]; ok {
		return ti, nil
	}
	return oauth.TokenInfo{}, errors.New("unknown token")
}

// Test tokens of the fake introspector.
const (
	tokSandboxProject = "sb-project"
	tokSandboxUser0   = "sb-user-0" // first demo user, member of most accounts
	tokSandboxUser1   = "sb-user-1"
	tokSandboxNobody  = "sb-nobody" // the last sandbox demo user: no accounts
	tokLiveProject    = "lv-project"
)

// testEnv is an emulator handler behind httptest with fake tokens.
type testEnv struct {
	t       *testing.T
	srv     *httptest.Server
	sandbox *data.Store
	live    *data.Store
	clock   *testclock.Fake
	log     *bytes.Buffer
	logMu   *sync.Mutex
	events  testEvents
}

// testEvents are the two environments' webhook services.
type testEvents struct{ sandbox, live *gql.Events }

// close stops both, as the emulator's Close does.
func (t testEvents) close() {
	t.sandbox.Close()
	t.live.Close()
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func newTestEnv(t *testing.T, opts Options) *testEnv {
	t.Helper()
	clock := testclock.New(time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC))
	opts.Now = clock.Now
	env := &testEnv{t: t, clock: clock, log: &bytes.Buffer{}, logMu: &sync.Mutex{}}
	if opts.RequestLog == nil {
		opts.RequestLog = lockedWriter{mu: env.logMu, w: env.log}
	}
	opts, err := withDefaults(opts)
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := loadServed(opts)
	if err != nil {
		t.Fatal(err)
	}
	envs, err := newEnvironments(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAll(envs) })
	sb, lv := envs[0], envs[1]
	sb.client.ID, lv.client.ID = "SANDBOX_test", "LIVE_test"
	users := sb.store.DemoUsers()
	tokens := fakeTokens{
		tokSandboxProject: {Env: "sandbox", ClientID: "SANDBOX_test", Project: true},
		tokSandboxUser0:   {Env: "sandbox", ClientID: "SANDBOX_test", Subject: users[0].ID},
		tokSandboxUser1:   {Env: "sandbox", ClientID: "SANDBOX_test", Subject: users[1].ID},
		tokSandboxNobody:  {Env: "sandbox", ClientID: "SANDBOX_test", Subject: users[len(users)-1].ID},
		tokLiveProject:    {Env: "live", ClientID: "LIVE_test", Project: true},
	}
	h, err := newHandler(handlerConfig{envs: envs, tokens: tokens, opts: opts, schemas: schemas})
	if err != nil {
		t.Fatal(err)
	}
	env.srv = httptest.NewServer(h)
	t.Cleanup(env.srv.Close)
	env.sandbox, env.live, env.events = sb.store, lv.store, testEvents{sandbox: sb.events, live: lv.events}
	return env
}

// projectHandler is the bare handler (no listener, no log) over a Sandbox
// of n accounts and a Live of 5, answering the fake Sandbox project token;
// benchmarks and fuzzers call it in-process.
func projectHandler(tb testing.TB, n int) (http.Handler, *data.Store) {
	tb.Helper()
	opts, err := withDefaults(Options{Accounts: n, RateLimit: 1 << 30, RateWindow: time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	var envs []*environment
	for _, spec := range envSpecs() {
		o := opts
		if !spec.sandbox {
			o.Accounts = 5
		}
		e, err := newEnvironment(o, spec)
		if err != nil {
			tb.Fatal(err)
		}
		e.startEvents(o)
		envs = append(envs, e)
	}
	tb.Cleanup(func() { closeAll(envs) })
	tokens := fakeTokens{
		tokSandboxProject: {Env: "sandbox", Project: true},
		tokSandboxUser0:   {Env: "sandbox", Subject: envs[0].store.DemoUsers()[0].ID},
	}
	h, err := newHandler(handlerConfig{envs: envs, tokens: tokens, opts: opts})
	if err != nil {
		tb.Fatal(err)
	}
	return h, envs[0].store
}

const (
	pathSandbox = "/sandbox-partner/graphql"
	pathAdmin   = "/sandbox-partner-admin/graphql"
	pathLive    = "/live-partner/graphql"
)

// gqlResult is a decoded GraphQL response.
type gqlResult struct {
	Status int
	Header http.Header
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
		Path       []any          `json:"path"`
	} `json:"errors"`
}

func (r gqlResult) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// do posts a raw body.
func (e *testEnv) do(path, token, contentType string, body []byte) gqlResult {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	var out gqlResult
	if err := json.Unmarshal(raw, &out); err != nil {
		e.t.Fatalf("response %d is not JSON: %v: %.300s", resp.StatusCode, err, raw)
	}
	out.Status, out.Header = resp.StatusCode, resp.Header
	return out
}

// query posts a GraphQL operation with variables.
func (e *testEnv) query(path, token, query string, vars map[string]any) gqlResult {
	e.t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		e.t.Fatal(err)
	}
	return e.do(path, token, "application/json", body)
}

// mustData runs a query that must succeed and decodes its data into out.
func (e *testEnv) mustData(path, token, query string, vars map[string]any, out any) {
	e.t.Helper()
	r := e.query(path, token, query, vars)
	if r.Status != http.StatusOK || len(r.Errors) > 0 {
		e.t.Fatalf("query failed: status %d, errors %+v", r.Status, r.Errors)
	}
	if err := json.Unmarshal(r.Data, out); err != nil {
		e.t.Fatalf("decode data: %v: %s", err, r.Data)
	}
}

func dataViewer(userID string) data.Viewer { return data.Viewer{UserID: userID} }
