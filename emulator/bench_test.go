package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkAccountsPage measures one GraphQL request for a page of 100
// accounts, through the whole handler (middleware, limits, auth, exec),
// starting from a cursor in the middle of the data set. A page must cost
// the same at 1,000 and at 100,000 accounts.
func BenchmarkAccountsPage(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			h, sb := projectHandler(b, n)
			after := sb.AllAccounts()[n/2].Cursor()
			body, _ := json.Marshal(map[string]any{
				"query": `query Page($after: String) { accounts(first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor }
				  edges { cursor node { id name IBAN BIC currency statusInfo { status } holder { info { name } } balances { available { value currency } } } } } }`,
				"variables": map[string]any{"after": after},
			})
			b.ResetTimer()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/sandbox-partner/graphql", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+tokSandboxProject)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

// BenchmarkStart100k is the start-up of `partnertui emulator --accounts
// 100000`: both data sets, the authorization server and the listener.
func BenchmarkStart100k(b *testing.B) {
	for b.Loop() {
		srv, err := Start(b.Context(), Options{Accounts: 100_000, SigningKey: testKey()})
		if err != nil {
			b.Fatal(err)
		}
		if err := srv.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRateLimiter is one request of a client that stays at the limit,
// so every call lets an old entry fall out of the window.
func BenchmarkRateLimiter(b *testing.B) {
	clock := &fakeClock{t: time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)}
	l := newRateLimiter(DefaultRateLimit, time.Second, clock.Now)
	step := time.Second / DefaultRateLimit
	for range DefaultRateLimit {
		l.allow("127.0.0.1 /sandbox-partner/graphql")
		clock.Advance(step)
	}
	for b.Loop() {
		if ok, _ := l.allow("127.0.0.1 /sandbox-partner/graphql"); !ok {
			b.Fatal("a client at the limit was refused")
		}
		clock.Advance(step)
	}
}
