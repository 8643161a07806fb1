package oauth

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestSignInApproveRedirectsWithCodeAndState(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	q := authQuery(sandboxID)
	q.Set("phoneNumber", testPhone)
	flow := h.startSignIn(q)

	// The prefilled phone is in the field; the user signs in with another.
	p := h.get(h.ts.URL + "/oauth2/auth?" + q.Encode())
	if !strings.Contains(p.body, `value="`+testPhone+`"`) {
		t.Fatalf("phone not prefilled:\n%s", p.body)
	}
	if !strings.Contains(p.body, "<title>Sign in · sandbox</title>") {
		t.Errorf("title is not %q:\n%s", "Sign in · sandbox", p.body)
	}
	h.reachConsent(flow, "+44 7700 900123")
	loc := h.post("/oauth2/auth", url.Values{"flow": {flow}, "decision": {"approve"}}).location(t)
	if got := loc.Scheme + "://" + loc.Host + loc.Path; got != callbackURI {
		t.Fatalf("redirect to %s, want %s", got, callbackURI)
	}
	if loc.Query().Get("code") == "" || loc.Query().Get("state") != testState {
		t.Fatalf("redirect %s lacks code or state", loc)
	}
	if !h.users.has(EnvSandbox, "+447700900123") || h.users.has(EnvSandbox, testPhone) {
		t.Fatal("the phone entered, not the prefilled one, should have signed in")
	}
	// The flow is single-use: approving again is refused.
	p = h.post("/oauth2/auth", url.Values{"flow": {flow}, "decision": {"approve"}})
	if p.status != http.StatusBadRequest || !strings.Contains(p.body, `id="error"`) {
		t.Fatalf("second approve: status %d, want 400 error page:\n%s", p.status, p.body)
	}
}

func TestSignInDenyRedirectsAccessDenied(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	flow := h.startSignIn(authQuery(liveID))
	h.reachConsent(flow, testPhone)
	loc := h.post("/oauth2/auth", url.Values{"flow": {flow}, "decision": {"deny"}}).location(t)
	q := loc.Query()
	if q.Get("error") != "access_denied" || q.Get("state") != testState || q.Get("error_description") == "" || q.Has("code") {
		t.Fatalf("deny redirect = %s", loc)
	}
	if n := h.users.count(); n != 0 {
		t.Fatalf("a denied sign-in created %d users", n)
	}
}

func TestAuthorizeErrorPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cases := map[string]func(url.Values){
		"missing client_id":  func(q url.Values) { q.Del("client_id") },
		"unknown client_id":  func(q url.Values) { q.Set("client_id", "SANDBOX_nope") },
		"repeated client_id": func(q url.Values) { q.Add("client_id", sandboxID) },
		"missing redirect":   func(q url.Values) { q.Del("redirect_uri") },
		"other path":         func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:4000/evil") },
		"other host":         func(q url.Values) { q.Set("redirect_uri", "https://attacker.example/callback") },
		"localhost name":     func(q url.Values) { q.Set("redirect_uri", "http://localhost:4000/callback") },
		"repeated redirect":  func(q url.Values) { q.Add("redirect_uri", callbackURI) },
		"bad redirect url":   func(q url.Values) { q.Set("redirect_uri", "::not a url") },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			q := authQuery(sandboxID)
			mutate(q)
			p := h.get(h.ts.URL + "/oauth2/auth?" + q.Encode())
			if p.status != http.StatusBadRequest || !strings.Contains(p.body, `id="error"`) || strings.Contains(p.body, "<form") {
				t.Fatalf("status %d, want 400 error page without form:\n%s", p.status, p.body)
			}
		})
	}
	t.Run("malformed query", func(t *testing.T) {
		p := h.get(h.ts.URL + "/oauth2/auth?client_id=%zz")
		if p.status != http.StatusBadRequest || !strings.Contains(p.body, `id="error"`) {
			t.Fatalf("status %d:\n%s", p.status, p.body)
		}
	})
	t.Run("huge query", func(t *testing.T) {
		q := authQuery(sandboxID)
		q.Set("firstName", strings.Repeat("a", maxQueryBytes))
		p := h.get(h.ts.URL + "/oauth2/auth?" + q.Encode())
		if p.status != http.StatusBadRequest || !strings.Contains(p.body, `id="error"`) {
			t.Fatalf("status %d:\n%s", p.status, p.body)
		}
	})
}

func TestAuthorizeErrorRedirect(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cases := []struct {
		name      string
		mutate    func(url.Values)
		wantError string
		noState   bool
	}{
		{"missing response_type", func(q url.Values) { q.Del("response_type") }, "invalid_request", false},
		{"implicit response_type", func(q url.Values) { q.Set("response_type", "token") }, "unsupported_response_type", false},
		{"hybrid response_type", func(q url.Values) { q.Set("response_type", "code id_token") }, "unsupported_response_type", false},
		{"scope without openid", func(q url.Values) { q.Set("scope", "offline") }, "invalid_scope", false},
		{"missing scope", func(q url.Values) { q.Del("scope") }, "invalid_scope", false},
		{"unknown scope", func(q url.Values) { q.Set("scope", "openid admin") }, "invalid_scope", false},
		{"missing state", func(q url.Values) { q.Del("state") }, "invalid_state", true},
		{"short state", func(q url.Values) { q.Set("state", "abc") }, "invalid_state", false},
		{"repeated state", func(q url.Values) { q["state"] = []string{testState, testState} }, "invalid_request", false},
		{"bad identificationLevel", func(q url.Values) { q.Set("identificationLevel", "pvid") }, "invalid_request", false},
		{"Auto without ids", func(q url.Values) { q.Set("identificationLevel", "Auto") }, "invalid_request", false},
		{"prompt none", func(q url.Values) { q.Set("prompt", "none") }, "login_required", false},
		{"unknown prompt", func(q url.Values) { q.Set("prompt", "bogus") }, "invalid_request", false},
		{"plain PKCE", func(q url.Values) {
			q.Set("code_challenge", strings.Repeat("a", 43))
			q.Set("code_challenge_method", "plain")
		}, "invalid_request", false},
		{"short S256 challenge", func(q url.Values) { q.Set("code_challenge", "abc"); q.Set("code_challenge_method", "S256") }, "invalid_request", false},
		{"method without challenge", func(q url.Values) { q.Set("code_challenge_method", "S256") }, "invalid_request", false},
		{"request object", func(q url.Values) { q.Set("request", "eyJ") }, "request_not_supported", false},
		{"request_uri", func(q url.Values) { q.Set("request_uri", "https://example.com/r") }, "request_uri_not_supported", false},
		{"fragment mode", func(q url.Values) { q.Set("response_mode", "fragment") }, "invalid_request", false},
		{"short nonce", func(q url.Values) { q.Set("nonce", "n") }, "invalid_request", false},
		{"huge prefill", func(q url.Values) { q.Set("lastName", strings.Repeat("é", maxParamChars)) }, "invalid_request", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := authQuery(sandboxID)
			c.mutate(q)
			p := h.get(h.ts.URL + "/oauth2/auth?" + q.Encode())
			loc := p.location(t)
			got := loc.Query()
			if got.Get("error") != c.wantError || got.Get("error_description") == "" || got.Has("code") {
				t.Fatalf("redirect %s, want error=%s", loc, c.wantError)
			}
			if !c.noState && got.Get("state") != q.Get("state") {
				t.Fatalf("redirect %s does not carry state %q", loc, q.Get("state"))
			}
			if loc.Host != "127.0.0.1:43117" {
				t.Fatalf("error went to %s, want the requested loopback port", loc.Host)
			}
		})
	}
}

func TestAuthorizeAcceptsOptionalParameters(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, mutate := range []func(url.Values){
		func(q url.Values) { q.Set("identificationLevel", "PVID") },
		func(q url.Values) { q.Set("identificationLevel", "Auto"); q.Set("accountMembershipId", "am-123") },
		func(q url.Values) { q.Set("identificationLevel", "Auto"); q.Set("onboardingId", "ob-123") },
		func(q url.Values) { q.Set("scope", "openid") },
		func(q url.Values) { q.Set("prompt", "login consent"); q.Set("nonce", "nonce-0123456789") },
		func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:1/callback") },
	} {
		q := authQuery(sandboxID)
		mutate(q)
		h.startSignIn(q)
	}
}

func TestSignInPageEscapesPrefill(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	q := authQuery(sandboxID)
	q.Set("firstName", `<script>alert("x")</script>`)
	q.Set("phoneNumber", `"><b>`)
	p := h.get(h.ts.URL + "/oauth2/auth?" + q.Encode())
	if p.status != http.StatusOK || strings.Contains(p.body, "<script>") || strings.Contains(p.body, `"><b>`) {
		t.Fatalf("prefill not escaped:\n%s", p.body)
	}
	if !strings.Contains(p.body, "&lt;script&gt;") {
		t.Fatalf("escaped firstName not shown:\n%s", p.body)
	}
	if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP = %q", csp)
	}
}

func TestWrongCodeShowsErrorAndRetries(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	flow := h.startSignIn(authQuery(sandboxID))
	p := h.post("/oauth2/auth", url.Values{"flow": {flow}, "phoneNumber": {testPhone}})
	otp := mustMatch(t, otpRE, p)
	wrong := "000000"
	if otp == wrong {
		wrong = "111111"
	}
	p = h.post("/oauth2/auth", url.Values{"flow": {flow}, "otp": {wrong}})
	if p.status != http.StatusOK || !strings.Contains(p.body, `class="error"`) || mustMatch(t, otpRE, p) != otp {
		t.Fatalf("wrong code: status %d, want the code step again with an error:\n%s", p.status, p.body)
	}
	p = h.post("/oauth2/auth", url.Values{"flow": {flow}, "otp": {otp}})
	if !strings.Contains(p.body, `value="approve"`) {
		t.Fatalf("right code after a wrong one did not reach consent:\n%s", p.body)
	}
}

func TestTooManyWrongCodesEndsFlow(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	flow := h.startSignIn(authQuery(sandboxID))
	otp := mustMatch(t, otpRE, h.post("/oauth2/auth", url.Values{"flow": {flow}, "phoneNumber": {testPhone}}))
	wrong := "000000"
	if otp == wrong {
		wrong = "111111"
	}
	var p page
	for range maxOTPAttempts {
		p = h.post("/oauth2/auth", url.Values{"flow": {flow}, "otp": {wrong}})
	}
	loc := p.location(t)
	if loc.Query().Get("error") != "access_denied" || loc.Query().Get("state") != testState {
		t.Fatalf("after %d wrong codes: redirect %s, want access_denied", maxOTPAttempts, loc)
	}
	p = h.post("/oauth2/auth", url.Values{"flow": {flow}, "otp": {otp}})
	if p.status != http.StatusBadRequest {
		t.Fatalf("the right code after the flow ended: status %d, want 400", p.status)
	}
}

func TestPhoneValidation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	flow := h.startSignIn(authQuery(sandboxID))
	for _, bad := range []string{"", "0612345678", "+0612345678", "+33 6 12 34 ab", "+1", strings.Repeat("9", 60)} {
		p := h.post("/oauth2/auth", url.Values{"flow": {flow}, "phoneNumber": {bad}})
		if p.status != http.StatusOK || !strings.Contains(p.body, `class="error"`) || !strings.Contains(p.body, `name="phoneNumber"`) {
			t.Fatalf("phone %q: status %d, want the phone step with an error:\n%s", bad, p.status, p.body)
		}
	}
	for _, good := range []string{"+33 6 12 34 56 78", "+1 (415) 555-0100", "+33.6.12.34.56.78"} {
		p := h.post("/oauth2/auth", url.Values{"flow": {flow}, "phoneNumber": {good}})
		mustMatch(t, otpRE, p)
	}
}

func TestStepsCannotBeSkipped(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	flow := h.startSignIn(authQuery(sandboxID))
	p := h.post("/oauth2/auth", url.Values{"flow": {flow}, "decision": {"approve"}})
	if p.status != http.StatusOK || !strings.Contains(p.body, `class="error"`) {
		t.Fatalf("approve before the phone step: status %d:\n%s", p.status, p.body)
	}
	p = h.post("/oauth2/auth", url.Values{"flow": {flow}, "otp": {"123456"}})
	if p.status != http.StatusOK || !strings.Contains(p.body, `class="error"`) || !strings.Contains(p.body, `name="phoneNumber"`) {
		t.Fatalf("code before the phone step: status %d:\n%s", p.status, p.body)
	}
	otp := mustMatch(t, otpRE, h.post("/oauth2/auth", url.Values{"flow": {flow}, "phoneNumber": {testPhone}}))
	p = h.post("/oauth2/auth", url.Values{"flow": {flow}, "decision": {"approve"}})
	if p.status != http.StatusOK || mustMatch(t, otpRE, p) != otp {
		t.Fatalf("approve before the code step: status %d:\n%s", p.status, p.body)
	}
	h.post("/oauth2/auth", url.Values{"flow": {flow}, "otp": {otp}})
	p = h.post("/oauth2/auth", url.Values{"flow": {flow}, "decision": {"maybe"}})
	if p.status != http.StatusOK || !strings.Contains(p.body, `class="error"`) || !strings.Contains(p.body, `value="approve"`) {
		t.Fatalf("unknown decision: status %d:\n%s", p.status, p.body)
	}
}

func TestUnknownAndExpiredFlows(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, form := range []url.Values{
		{"flow": {"no-such-flow"}, "phoneNumber": {testPhone}},
		{"phoneNumber": {testPhone}},
		{},
	} {
		p := h.post("/oauth2/auth", form)
		if p.status != http.StatusBadRequest || !strings.Contains(p.body, `id="error"`) || strings.Contains(p.body, "<form") {
			t.Fatalf("form %v: status %d, want 400 error page:\n%s", form, p.status, p.body)
		}
	}
	flow := h.startSignIn(authQuery(sandboxID))
	h.clock.Advance(DefaultCodeTTL + time.Second)
	p := h.post("/oauth2/auth", url.Values{"flow": {flow}, "phoneNumber": {testPhone}})
	if p.status != http.StatusBadRequest || !strings.Contains(p.body, "expired") {
		t.Fatalf("expired flow: status %d:\n%s", p.status, p.body)
	}
}

func TestAuthorizeMethodsAndBodies(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	req, _ := http.NewRequest(http.MethodPut, h.ts.URL+"/oauth2/auth", nil)
	if p := h.do(req); p.status != http.StatusMethodNotAllowed {
		t.Fatalf("PUT: status %d", p.status)
	}
	big := url.Values{"flow": {"x"}, "phoneNumber": {strings.Repeat("1", maxFormBytes)}}
	if p := h.post("/oauth2/auth", big); p.status != http.StatusRequestEntityTooLarge || !strings.Contains(p.body, `id="error"`) {
		t.Fatalf("huge form: status %d", p.status)
	}
	req, _ = http.NewRequest(http.MethodPost, h.ts.URL+"/oauth2/auth", strings.NewReader("flow=%zz"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if p := h.do(req); p.status != http.StatusBadRequest {
		t.Fatalf("bad encoding: status %d", p.status)
	}
}

func TestFlowStoreIsBounded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.flows.mu.Lock()
	h.srv.flows.max = 2
	h.srv.flows.mu.Unlock()
	h.startSignIn(authQuery(sandboxID))
	h.startSignIn(authQuery(sandboxID))
	p := h.get(h.ts.URL + "/oauth2/auth?" + authQuery(sandboxID).Encode())
	if p.status != http.StatusServiceUnavailable || !strings.Contains(p.body, `id="error"`) {
		t.Fatalf("third flow with max 2: status %d", p.status)
	}
	h.clock.Advance(DefaultCodeTTL)
	h.startSignIn(authQuery(sandboxID)) // expired flows make room
}
