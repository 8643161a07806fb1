package auth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
)

const fakeSecret = "fake-secret-value"

// fakeAS is a minimal authorization server with the platform's rules:
// client_secret_post only, single-use rotating refresh tokens (reuse is
// invalid_grant), PKCE S256, no OpenID discovery (so id_tokens are read
// unverified).
type fakeAS struct {
	srv *httptest.Server

	mu            sync.Mutex
	n             int
	codes         map[string]fakeCode
	refresh       map[string]bool // live refresh tokens
	refreshCalls  int
	ccCalls       int
	codeCalls     int
	revoked       []string
	expiresIn     int
	phone         string
	refreshStatus int                           // non-zero: answer refreshes with this HTTP status
	onRefresh     func(rt string) (bool, error) // true: answer invalid_grant
	revokeStatus  int
	// basicOnly registers the client for client_secret_basic: a secret in
	// the form body is refused the way fosite refuses it.
	basicOnly bool
	// intercept, when set and true, has answered the token request itself.
	intercept func(w http.ResponseWriter, grant string) bool
	// dropRefreshAnswer rotates the refresh token, then closes the
	// connection instead of answering: the answer is lost.
	dropRefreshAnswer bool
	// idClaims, when set, edits the claims of the id_tokens issued.
	idClaims func(claims map[string]any)
}

type fakeCode struct{ challenge, nonce, redirect string }

func newFakeAS(t testing.TB) *fakeAS {
	f := &fakeAS{codes: map[string]fakeCode{}, refresh: map[string]bool{}, expiresIn: 3600, phone: "+33612345678"}
	mux := http.NewServeMux()
	mux.HandleFunc("/oauth2/token", f.token)
	mux.HandleFunc("/oauth2/revoke", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		f.mu.Lock()
		f.revoked = append(f.revoked, r.PostForm.Get("token"))
		st := f.revokeStatus
		f.mu.Unlock()
		if st != 0 {
			w.WriteHeader(st)
		}
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAS) env(name config.EnvName) *config.Environment {
	id := "SANDBOX_fake"
	if name == config.Live {
		id = "LIVE_fake"
	}
	return &config.Environment{Name: name, APIURL: f.srv.URL, AuthURL: f.srv.URL, ClientID: id, ClientSecret: fakeSecret, RedirectURI: "http://127.0.0.1/callback"}
}

func jsonError(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": "fake " + code})
}

func (f *fakeAS) issue(w http.ResponseWriter, withRefresh bool, nonce, clientID string) {
	f.n++
	resp := map[string]any{"access_token": fmt.Sprintf("at-%d", f.n), "token_type": "bearer", "expires_in": f.expiresIn, "scope": "openid offline"}
	if withRefresh {
		rt := fmt.Sprintf("rt-%d", f.n)
		f.refresh[rt] = true
		resp["refresh_token"] = rt
		claims := map[string]any{"iss": f.srv.URL, "sub": "user-1", "aud": clientID, "nonce": nonce, "phone_number": f.phone, "exp": time.Now().Add(time.Hour).Unix()}
		if f.idClaims != nil {
			f.idClaims(claims)
		}
		payload, _ := json.Marshal(claims)
		resp["id_token"] = "eyJhbGciOiJub25lIn0." + base64.RawURLEncoding.EncodeToString(payload) + ".sig"
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

func (f *fakeAS) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	f.mu.Lock()
	intercept, basicOnly := f.intercept, f.basicOnly
	f.mu.Unlock()
	if intercept != nil && intercept(w, r.PostForm.Get("grant_type")) {
		return
	}
	if basicOnly {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		json.NewEncoder(w).Encode(map[string]string{"error": "invalid_client", "error_description": "Client authentication failed (e.g., unknown client, no client authentication included, or unsupported authentication method). The OAuth 2.0 Client supports client authentication method 'client_secret_basic', but method 'client_secret_post' was requested. You must configure the OAuth 2.0 client's 'token_endpoint_auth_method' value to accept 'client_secret_post'."})
		return
	}
	if _, _, ok := r.BasicAuth(); ok {
		jsonError(w, 401, "invalid_client")
		return
	}
	if r.PostForm.Get("client_secret") != fakeSecret {
		jsonError(w, 401, "invalid_client")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		f.codeCalls++
		c, ok := f.codes[r.PostForm.Get("code")]
		delete(f.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge || r.PostForm.Get("redirect_uri") != c.redirect {
			jsonError(w, 400, "invalid_grant")
			return
		}
		f.issue(w, true, c.nonce, r.PostForm.Get("client_id"))
	case "refresh_token":
		f.refreshCalls++
		rt := r.PostForm.Get("refresh_token")
		if f.refreshStatus != 0 {
			w.WriteHeader(f.refreshStatus)
			return
		}
		if f.onRefresh != nil {
			if deny, err := f.onRefresh(rt); err != nil || deny {
				jsonError(w, 400, "invalid_grant")
				return
			}
		}
		if !f.refresh[rt] {
			jsonError(w, 400, "invalid_grant")
			return
		}
		delete(f.refresh, rt)
		if f.dropRefreshAnswer {
			f.issue(httptest.NewRecorder(), true, "", r.PostForm.Get("client_id"))
			panic(http.ErrAbortHandler)
		}
		f.issue(w, true, "", r.PostForm.Get("client_id"))
	case "client_credentials":
		f.ccCalls++
		f.issue(w, false, "", r.PostForm.Get("client_id"))
	default:
		jsonError(w, 400, "unsupported_grant_type")
	}
}

// approve is a LoginOptions.Open that plays the browser against the fake:
// it registers a code for the URL's PKCE challenge and nonce and hits the
// callback with it.
func (f *fakeAS) approve(ctx context.Context, authURL string) error {
	_, err := getStatus(ctx, f.redirect(authURL))
	return err
}

// redirect registers a code for authURL and returns the address the
// browser would be sent to, as a user would copy it from the address bar.
func (f *fakeAS) redirect(authURL string) string {
	u, err := url.Parse(authURL)
	if err != nil {
		panic(err)
	}
	q := u.Query()
	f.mu.Lock()
	f.n++
	code := fmt.Sprintf("code-%d", f.n)
	f.codes[code] = fakeCode{challenge: q.Get("code_challenge"), nonce: q.Get("nonce"), redirect: q.Get("redirect_uri")}
	f.mu.Unlock()
	return q.Get("redirect_uri") + "?" + url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
}

func getCallback(ctx context.Context, redirect string, v url.Values) error {
	_, err := getStatus(ctx, redirect+"?"+v.Encode())
	return err
}

func getStatus(ctx context.Context, target string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// writeScript writes an executable shell script while holding
// syscall.ForkLock for reading, which keeps any fork out until the file is
// closed: a process forked while it is open for writing (the parallel
// tests start many) inherits the descriptor, and running the script then
// fails with "text file busy" until that process has exec'd.
func writeScript(t testing.TB, path, body string) {
	t.Helper()
	syscall.ForkLock.RLock()
	err := os.WriteFile(path, []byte(body), 0o755)
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
}
