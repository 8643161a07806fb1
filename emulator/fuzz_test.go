package emulator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// FuzzGraphQLBody throws arbitrary bodies at the Sandbox endpoint: the
// answer is always JSON and never a 500.
func FuzzGraphQLBody(f *testing.F) {
	h, _ := projectHandler(f, 20)
	for _, seed := range []string{
		`{"query":"{ accounts(first: 3) { edges { node { id } } } }"}`,
		`{"query":"query($a: String) { accounts(first: 1, after: $a) { totalCount } }","variables":{"a":"x"}}`,
		`{"query":"{ account(accountId: \"\") { transactions(first: 5, after: \"zz\") { totalCount } } }"}`,
		`{"query":"mutation { x }"}`,
		`{"query":"fragment A on Account { ...A } { accounts { edges { node { ...A } } } }"}`,
		`{"query":"{ user(id: \"\\u0000\") { id } }"}`,
		`{"query":"{ accounts(first: -1) { totalCount } }"}`,
		`[]`, `"`, `{"query":null}`, `{"variables":"x","query":"{ projectInfo { id } }"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/sandbox-partner/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokSandboxProject)
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { h.ServeHTTP(rec, req); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("the handler took over 3s for %q: a request must never hang", body)
		}
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("non-JSON answer %q for %q", rec.Body, body)
		}
	})
}
