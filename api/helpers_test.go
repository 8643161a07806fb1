package api

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/partnertui/partnertui/internal/testkit/clock"
)

// secretToken must never show up in any error text or output.
const secretToken = "tok-SECRET-do-not-print-7f3a"

// newFakeClock is the API tests' clock: Sleep advances it instead of
// waiting, and remembers what it was asked to sleep.
func newFakeClock() *clock.Fake { return clock.New(time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)) }

func staticToken() oauth2.TokenSource {
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: secretToken, TokenType: "Bearer"})
}

// gqlRequest is what the fake servers decode from each POST.
type gqlRequest struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

func decodeReq(t testing.TB, r *http.Request) gqlRequest {
	t.Helper()
	var q gqlRequest
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &q); err != nil {
		t.Errorf("fake server: bad request body %q: %v", body, err)
	}
	return q
}

// newTestClient starts srv and a Client for it on a fake clock.
func newTestClient(t *testing.T, h http.Handler, mod func(*Options)) (*Client, *clock.Fake, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	clk := newFakeClock()
	opts := Options{
		Env:         "sandbox",
		GraphQLURL:  srv.URL + "/sandbox-partner/graphql",
		TestingURL:  srv.URL + "/sandbox-partner-admin/graphql",
		TokenSource: staticToken(),
		Now:         clk.Now,
		Sleep:       clk.Sleep,
		Timeout:     5 * time.Second,
	}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(c.Close)
	return c, clk, srv
}

func httptestServer(tb testing.TB, h http.Handler) string {
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv.URL
}

// fakeAccount renders one account node as the server would.
func fakeAccount(i int, name string) map[string]any {
	return map[string]any{
		"id":         fmt.Sprintf("acc-%05d", i),
		"name":       name,
		"IBAN":       "FR7630006000011234567890189",
		"BIC":        "SWNBFR22",
		"currency":   "EUR",
		"statusInfo": map[string]any{"status": "Opened"},
		"holder":     map[string]any{"info": map[string]any{"name": "Holder " + name}},
		"balances":   map[string]any{"available": map[string]any{"value": "12.50", "currency": "EUR"}},
	}
}

// accountsPage renders accounts [from, to) of total as a connection page;
// cursors are the decimal index of the next account.
func accountsPage(from, to, total int) map[string]any {
	edges := make([]any, 0, to-from)
	for i := from; i < to; i++ {
		edges = append(edges, map[string]any{"node": fakeAccount(i, fmt.Sprintf("Account %d", i))})
	}
	return map[string]any{"data": map[string]any{"accounts": map[string]any{
		"totalCount": total,
		"pageInfo":   map[string]any{"hasNextPage": to < total, "hasPreviousPage": from > 0, "startCursor": fmt.Sprint(from), "endCursor": fmt.Sprint(to)},
		"edges":      edges,
	}}}
}

func writeJSON200(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// checkNoSecret fails when s contains the bearer token.
func checkNoSecret(t *testing.T, what, s string) {
	t.Helper()
	if strings.Contains(s, secretToken) {
		t.Errorf("%s contains the access token: %q", what, s)
	}
}
