package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// BenchmarkAccountsPage measures one GraphQL request for a page of 100
// accounts, through the whole handler (middleware, limits, auth, exec),
// starting from a cursor in the middle of the data set. A page must cost
// the same at 1,000 and at 100,000 accounts.
func BenchmarkAccountsPage(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			opts, err := withDefaults(Options{Accounts: n, RateLimit: 1 << 30, RateWindow: time.Second})
			if err != nil {
				b.Fatal(err)
			}
			sb, err := data.New(data.Config{Env: "sandbox", Seed: 1, Accounts: n})
			if err != nil {
				b.Fatal(err)
			}
			lv, err := data.New(data.Config{Env: "live", Seed: 2, Accounts: 10})
			if err != nil {
				b.Fatal(err)
			}
			tokens := fakeTokens{tokSandboxProject: {Env: "sandbox", Project: true}}
			h, err := newHandler(handlerConfig{sandbox: sb, live: lv, tokens: tokens, opts: opts})
			if err != nil {
				b.Fatal(err)
			}
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
