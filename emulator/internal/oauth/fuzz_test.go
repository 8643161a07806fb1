package oauth

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	testclock "github.com/partnertui/partnertui/internal/testkit/clock"
)

// serve sends one request in-process; the raw query is set after parsing so
// any fuzzed string reaches the handler as it would off the wire.
func serve(srv *Server, method, path, rawQuery, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.URL.RawQuery = rawQuery
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, req)
	return rec
}

// checkAuthorizeReply holds for every reply of /oauth2/auth, whatever came in.
func checkAuthorizeReply(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	switch rec.Code {
	case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("status %d with Content-Type %q", rec.Code, rec.Header().Get("Content-Type"))
		}
		if rec.Code != http.StatusOK && !strings.Contains(rec.Body.String(), `id="error"`) {
			t.Fatalf("status %d page without #error:\n%s", rec.Code, rec.Body.String())
		}
	case http.StatusSeeOther:
		loc, err := url.Parse(rec.Header().Get("Location"))
		if err != nil || loc.Hostname() != "127.0.0.1" || loc.Path != "/callback" {
			t.Fatalf("redirect to %q", rec.Header().Get("Location"))
		}
	default:
		t.Fatalf("status %d:\n%s", rec.Code, rec.Body.String())
	}
}

// FuzzSignInForm throws arbitrary form bodies at a live flow and arbitrary
// query strings at the sign-in page: no panic, no 5xx, only the protocol's
// replies.
func FuzzSignInForm(f *testing.F) {
	srv := newServer(f)
	// Every iteration starts flows; moving the clock on lets the store
	// sweep them instead of filling up (iterations run one at a time).
	clock := new(testclock.Fake)
	srv.now = clock.Now
	f.Add(true, "phoneNumber=%2B33612345678", "")
	f.Add(true, "otp=123456", "")
	f.Add(true, "decision=approve", "")
	f.Add(true, "decision=deny&otp=&phoneNumber=", "")
	f.Add(false, "flow=x&flow=y", "response_type=code&client_id=SANDBOX_test-client")
	f.Add(true, "phoneNumber=%FF%FE&otp=%00", "client_id=%zz")
	f.Add(false, strings.Repeat("a=b&", 100), "client_id=LIVE_test-client&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcallback&response_type=code&scope=openid&state=12345678&identificationLevel=Auto")
	f.Fuzz(func(t *testing.T, withFlow bool, body, query string) {
		clock.Advance(DefaultCodeTTL)
		checkAuthorizeReply(t, serve(srv, http.MethodGet, "/oauth2/auth", query, ""))
		checkAuthorizeReply(t, serve(srv, http.MethodGet, "/oauth2/auth", authQuery(sandboxID).Encode()+"&"+query, ""))

		start := serve(srv, http.MethodGet, "/oauth2/auth", authQuery(sandboxID).Encode(), "")
		m := flowRE.FindStringSubmatch(start.Body.String())
		if m == nil {
			t.Fatalf("no flow started: %d", start.Code)
		}
		if withFlow {
			body = "flow=" + m[1] + "&" + body
		}
		checkAuthorizeReply(t, serve(srv, http.MethodPost, "/oauth2/auth", "", body))
		// The flow still behaves after the junk.
		checkAuthorizeReply(t, serve(srv, http.MethodPost, "/oauth2/auth", "", "flow="+m[1]+"&phoneNumber=%2B33612345678"))
	})
}

// FuzzTokenEndpoint: any body gets an RFC 6749 JSON reply, never a 5xx.
func FuzzTokenEndpoint(f *testing.F) {
	srv := newServer(f)
	f.Add("grant_type=client_credentials&client_id=SANDBOX_test-client&client_secret=sandbox-secret")
	f.Add("grant_type=refresh_token&refresh_token=ory_rt_x.y&client_id=LIVE_test-client&client_secret=live-secret")
	f.Add("grant_type=authorization_code&code=&client_id=SANDBOX_test-client&client_secret=sandbox-secret")
	f.Add("grant_type=%zz")
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range []string{"/oauth2/token", "/oauth2/revoke"} {
			rec := serve(srv, http.MethodPost, path, "", body)
			if rec.Code >= 500 {
				t.Fatalf("%s: status %d: %s", path, rec.Code, rec.Body.String())
			}
			if rec.Code != http.StatusOK || path == "/oauth2/token" {
				var v map[string]any
				if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
					t.Fatalf("%s: status %d, body not JSON: %q", path, rec.Code, rec.Body.String())
				}
			}
		}
	})
}
