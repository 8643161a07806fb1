package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// A client registered for client_secret_basic refuses form credentials
// with fosite's description naming both methods, so a client can tell its
// user which method the server expects.
func TestClientSecretBasicRegistration(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *Options) {
		for i := range o.Clients {
			o.Clients[i].AuthMethod = AuthSecretBasic
		}
	})
	code := h.code(sandboxID, testPhone)
	status, header, body := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, code))
	wantOAuthError(t, status, header, body, http.StatusUnauthorized, "invalid_client")
	desc, _ := body["error_description"].(string)
	if !strings.Contains(desc, "'client_secret_basic'") || !strings.Contains(desc, "'client_secret_post'") {
		t.Fatalf("error_description does not name the expected and the used method: %q", desc)
	}

	form := exchangeForm(sandboxID, "", code)
	form.Del("client_id")
	form.Del("client_secret")
	req, err := http.NewRequest(http.MethodPost, h.ts.URL+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(sandboxID), url.QueryEscape(sandboxSecret))
	if p := h.do(req); p.status != http.StatusOK || !strings.Contains(p.body, "access_token") {
		t.Fatalf("client_secret_basic on a basic client: %d %s", p.status, p.body)
	}

	p := h.get(h.ts.URL + "/.well-known/openid-configuration")
	if !strings.Contains(p.body, `"token_endpoint_auth_methods_supported":["client_secret_basic"]`) {
		t.Fatalf("discovery does not advertise the registered method:\n%s", p.body)
	}
}

func TestUnknownAuthMethodIsAnOptionsError(t *testing.T) {
	t.Parallel()
	opts := testOptions("http://127.0.0.1:9", newFakeUsers())
	opts.Clients[0].AuthMethod = "private_key_jwt"
	if _, err := New(opts); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("New accepted auth method private_key_jwt: %v", err)
	}
}

// The rotation hook runs after the server spent the old refresh token and
// before the client has the new one: a crash test stops the client there.
func TestRefreshRotationHookRunsBeforeTheResponse(t *testing.T) {
	t.Parallel()
	type rotation struct{ clientID, env string }
	rotated := make(chan rotation, 1)
	release := make(chan struct{})
	h := newHarness(t, func(o *Options) {
		o.OnRefreshRotated = func(_ context.Context, clientID, env string) {
			rotated <- rotation{clientID, env}
			<-release
		}
	})
	// Registered after the harness, so a failed test frees the held
	// handler before the test server waits for it.
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	// Neither a code exchange nor a project token is a rotation.
	_, _, first := h.tokenCall(exchangeForm(sandboxID, sandboxSecret, h.code(sandboxID, testPhone)))
	if status, _, body := h.tokenCall(url.Values{"grant_type": {"client_credentials"}, "client_id": {liveID}, "client_secret": {liveSecret}}); status != http.StatusOK {
		t.Fatalf("client_credentials: %d %v", status, body)
	}
	select {
	case r := <-rotated:
		t.Fatalf("hook called without a refresh: %+v", r)
	default:
	}

	type reply struct {
		status int
		body   map[string]any
		err    error
	}
	done := make(chan reply, 1)
	form := refreshForm(sandboxID, sandboxSecret, str(t, first, "refresh_token"))
	go func() {
		resp, err := h.http.PostForm(h.ts.URL+"/oauth2/token", form)
		if err != nil {
			done <- reply{err: err}
			return
		}
		defer resp.Body.Close()
		var body map[string]any
		err = json.NewDecoder(resp.Body).Decode(&body)
		done <- reply{status: resp.StatusCode, body: body, err: err}
	}()
	if r := <-rotated; r.clientID != sandboxID || r.env != EnvSandbox {
		t.Errorf("hook got %+v, want the sandbox client", r)
	}
	select {
	case r := <-done:
		t.Fatalf("the token response was written before the hook returned: %+v", r)
	default:
	}
	// The rotation is already committed: the old access token is revoked.
	if _, err := h.introspect(str(t, first, "access_token")); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("the old access token still works while the response is held: %v", err)
	}
	free()
	r := <-done
	if r.err != nil || r.status != http.StatusOK || r.body["refresh_token"] == first["refresh_token"] {
		t.Fatalf("refresh: %d %v %v", r.status, r.body, r.err)
	}
}
