package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

// freePort is a port of 127.0.0.1 nothing listens on (testkit.UnusedPort),
// for a redirect URI with a fixed port.
func freePort(t *testing.T) int { return testkit.UnusedPort(t) }

func newTestSession(t *testing.T, env *config.Environment, dir string, clk *clock.Fake) *Session {
	t.Helper()
	opts := SessionOptions{Env: env, StateDir: dir}
	if clk != nil {
		opts.Now = clk.Now
	}
	s, err := NewSession(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// envOf is a LoginOptions.Getenv reading only kv ("NAME", "value", ...),
// so a test decides what session it runs in without touching the
// process's environment.
func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// signedInFake is a sandbox session signed in to a fresh fake server, on a
// settable clock and its own state directory.
func signedInFake(t *testing.T) (*fakeAS, *clock.Fake, *Session) {
	t.Helper()
	f := newFakeAS(t)
	clk := clock.New(time.Now())
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), clk)
	loginFake(t, f, s)
	return f, clk, s
}

func loginFake(t *testing.T, f *fakeAS, s *Session) *Identity {
	t.Helper()
	id, err := s.Login(context.Background(), LoginOptions{Open: f.approve, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("Login: %v", err)
	}
	return id
}

func readStored(t *testing.T, s *Session) *storedToken {
	t.Helper()
	tok, err := s.store.read()
	if err != nil || tok == nil {
		t.Fatalf("store: %v %v", tok, err)
	}
	return tok
}

func TestAuthorizationURL(t *testing.T) {
	t.Parallel()
	env := &config.Environment{Name: config.Sandbox, AuthURL: "https://oauth.example.com/", ClientID: "SANDBOX_a b", ClientSecret: "x",
		IdentificationLevel: "Auto",
		AuthParams:          map[string]string{"accountMembershipId": "am-1", "phoneNumber": "+33 6 12 34 56 78", "firstName": "Zoé\nEvil", "email": "a+b@c.d"}}
	s := newTestSession(t, env, t.TempDir(), nil)
	got := s.AuthorizationURL("http://127.0.0.1:5555/callback", "STATE", "NONCE", "CHAL")
	want := "https://oauth.example.com/oauth2/auth?response_type=code&client_id=SANDBOX_a%20b&redirect_uri=http%3A%2F%2F127.0.0.1%3A5555%2Fcallback&scope=openid%20offline&state=STATE&nonce=NONCE&code_challenge=CHAL&code_challenge_method=S256&identificationLevel=Auto&accountMembershipId=am-1&email=a%2Bb%40c.d&firstName=Zo%C3%A9%0AEvil&phoneNumber=%2B33612345678"
	if got != want {
		t.Fatalf("URL\n got %s\nwant %s", got, want)
	}
	if strings.ContainsAny(got, "\r\n +") {
		t.Fatal("URL holds a raw line break, space or '+'")
	}
	u, err := url.Parse(got)
	if err != nil || u.Query().Get("scope") != "openid offline" || u.Query().Get("firstName") != "Zoé\nEvil" {
		t.Fatalf("URL does not round-trip: %v %v", u.Query(), err)
	}
}

func TestLoginSavesSessionWithSafeModes(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	dir := filepath.Join(t.TempDir(), "state")
	env := f.env(config.Sandbox)
	env.AuthParams = map[string]string{"phoneNumber": "+33 6 12 34 56 78"}
	s := newTestSession(t, env, dir, nil)
	var shown string
	id, err := s.Login(context.Background(), LoginOptions{
		ShowURL: func(p SignInPrompt) { shown = p.URL },
		Open: func(ctx context.Context, u string) error {
			if shown != u {
				t.Errorf("browser opened before the URL was shown")
			}
			return f.approve(ctx, u)
		},
		Timeout: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if id.Subject != "user-1" || len(id.Warnings) != 1 || !strings.Contains(id.Warnings[0], "OpenID configuration") {
		t.Fatalf("identity = %+v", id)
	}
	u, _ := url.Parse(shown)
	if st := u.Query().Get("state"); len(st) != 43 {
		t.Errorf("state %q is not 32 random bytes in base64url", st)
	}
	tok := readStored(t, s)
	if tok.RefreshToken == "" || tok.Subject != "user-1" || tok.IDToken == "" || tok.Env != "sandbox" || tok.ClientID != "SANDBOX_fake" || tok.Issuer != f.srv.URL || tok.ObtainedAt.IsZero() {
		t.Errorf("stored = %+v", tok)
	}
	if time.Until(tok.Expiry) < 59*time.Minute {
		t.Errorf("expiry %v not from expires_in", tok.Expiry)
	}
	if st, _ := os.Stat(s.StorePath()); st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v", st.Mode())
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v", st.Mode())
	}
	info, err := s.Status()
	if err != nil || !info.SignedIn || info.Subject != "user-1" || !info.HasRefresh || info.StorePath != s.StorePath() {
		t.Errorf("status = %+v, %v", info, err)
	}
	if !s.SignedIn() {
		t.Error("SignedIn false after login")
	}
}

func TestPhoneMismatchWarning(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	f.phone = "+33700000000"
	env := f.env(config.Sandbox)
	env.AuthParams = map[string]string{"phoneNumber": "+33612345678"}
	id := loginFake(t, f, newTestSession(t, env, t.TempDir(), nil))
	found := false
	for _, w := range id.Warnings {
		found = found || (strings.Contains(w, "does not prove who signs in") && strings.Contains(w, "+33700000000"))
	}
	if !found {
		t.Fatalf("no phone-mismatch warning: %q", id.Warnings)
	}
}

func TestPhoneMismatch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a, b string
		want bool
	}{
		{"+33612345678", "+33612345678", false},
		{"+33 6 12 34 56 78", "+33612345678", false},
		{"+33 6-12.34 (56) 78", "+33 612345678", false},
		{"+33612345678", "+33612345679", true},
		{"+33612345678", "", true},
		{"", "+33612345678", false},
	}
	for _, c := range cases {
		if got := PhoneMismatch(c.a, c.b); got != c.want {
			t.Errorf("PhoneMismatch(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

func TestCallbackWrongStateKeepsWaiting(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	var warned []string
	var mu sync.Mutex
	_, err := s.Login(context.Background(), LoginOptions{
		Timeout: 20 * time.Second,
		Warn:    func(m string) { mu.Lock(); warned = append(warned, m); mu.Unlock() },
		Open: func(ctx context.Context, authURL string) error {
			u, _ := url.Parse(authURL)
			redirect := u.Query().Get("redirect_uri")
			cb, _ := url.Parse(redirect)
			for _, tc := range []struct {
				target string
				want   int
			}{
				{redirect + "?code=x&state=wrong", 400},
				{redirect + "?code=x", 400},
				{redirect + "?code=x&state=" + url.QueryEscape(u.Query().Get("state")) + "&state=dup", 400},
				{"http://" + cb.Host + "/favicon.ico", 404},
				{"http://" + cb.Host + "/callbackx?state=" + u.Query().Get("state"), 404},
				{redirect + "?state=" + url.QueryEscape(u.Query().Get("state")), 400},
			} {
				got, err := getStatus(ctx, tc.target)
				if err != nil || got != tc.want {
					t.Errorf("GET %s = %d, %v; want %d", tc.target, got, err, tc.want)
				}
			}
			return f.approve(ctx, authURL)
		},
	})
	if err != nil {
		t.Fatalf("login did not survive stray callbacks: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) == 0 {
		t.Error("no warning about the mismatched state")
	}
}

func TestLoginDenied(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	_, err := s.Login(context.Background(), LoginOptions{Timeout: 20 * time.Second, Open: func(ctx context.Context, authURL string) error {
		u, _ := url.Parse(authURL)
		q := u.Query()
		return getCallback(ctx, q.Get("redirect_uri"), url.Values{"error": {"access_denied"}, "error_description": {"no\x1b[31m"}, "state": {q.Get("state")}})
	}})
	if !errors.Is(err, ErrAccessDenied) || strings.Contains(err.Error(), "\x1b") {
		t.Fatalf("err = %v", err)
	}
	if s.SignedIn() {
		t.Fatal("signed in after deny")
	}
}

func TestLoginTimeoutAndCancel(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	_, err := s.Login(context.Background(), LoginOptions{NoBrowser: true, Timeout: 100 * time.Millisecond})
	var se *SignInError
	if !errors.Is(err, ErrLoginTimeout) || !errors.As(err, &se) || se.Env != "sandbox" || se.Timeout != 100*time.Millisecond {
		t.Fatalf("err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = s.Login(ctx, LoginOptions{NoBrowser: true, ShowURL: func(SignInPrompt) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: err = %v", err)
	}
}

func TestHeadlessSkipsDefaultBrowser(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	marker := filepath.Join(t.TempDir(), "opened")
	script := filepath.Join(t.TempDir(), "browser")
	writeScript(t, script, "#!/bin/sh\ntouch "+marker+"\n")
	// No $BROWSER over SSH: the system's opener would start a browser on
	// this machine, so nothing is opened.
	ssh := envOf("SSH_CONNECTION", "10.0.0.1 5555 10.0.0.2 22", "DISPLAY", ":0", "PATH", t.TempDir())
	var prompt SignInPrompt
	_, err := s.Login(context.Background(), LoginOptions{Timeout: 50 * time.Millisecond, Getenv: ssh, ShowURL: func(p SignInPrompt) { prompt = p }})
	if !errors.Is(err, ErrLoginTimeout) {
		t.Fatalf("err = %v", err)
	}
	if !prompt.Headless || prompt.Opening || prompt.SSHForward == "" {
		t.Fatalf("prompt = %+v", prompt)
	}
	// A $BROWSER the user set is always run (w3m on the server), and the
	// headless instructions are still shown.
	withBrowser := envOf("SSH_CONNECTION", "10.0.0.1 5555 10.0.0.2 22", "DISPLAY", ":0", "BROWSER", script)
	prompt = SignInPrompt{}
	_, err = s.Login(context.Background(), LoginOptions{Timeout: 2 * time.Second, Getenv: withBrowser, ShowURL: func(p SignInPrompt) { prompt = p }})
	if !errors.Is(err, ErrLoginTimeout) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the user's $BROWSER was not run over SSH")
	}
	if !prompt.Headless || prompt.SSHForward == "" {
		t.Fatalf("prompt = %+v", prompt)
	}
	// An explicit Open (the demo's form filler) still runs over SSH.
	if _, err := s.Login(context.Background(), LoginOptions{Timeout: 20 * time.Second, Getenv: ssh, Open: f.approve}); err != nil {
		t.Fatalf("explicit Open over SSH: %v", err)
	}
	// --no-browser stops even that.
	_, err = s.Login(context.Background(), LoginOptions{NoBrowser: true, Timeout: 50 * time.Millisecond, Getenv: ssh, Open: f.approve})
	if !errors.Is(err, ErrLoginTimeout) {
		t.Fatalf("NoBrowser: %v", err)
	}
}

func TestLoginWrongSecretAndRejectedCode(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	env := f.env(config.Sandbox)
	env.ClientSecret = "wrong"
	s := newTestSession(t, env, t.TempDir(), nil)
	_, err := s.Login(context.Background(), LoginOptions{Open: f.approve, Timeout: 20 * time.Second})
	if !errors.Is(err, ErrInvalidClient) || strings.Contains(err.Error(), "wrong") {
		t.Fatalf("wrong secret: %v", err)
	}
	s = newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	_, err = s.Login(context.Background(), LoginOptions{Timeout: 20 * time.Second, Open: func(ctx context.Context, authURL string) error {
		u, _ := url.Parse(authURL)
		return getCallback(ctx, u.Query().Get("redirect_uri"), url.Values{"code": {"unknown-code"}, "state": {u.Query().Get("state")}})
	}})
	var te *TokenEndpointError
	if !errors.Is(err, ErrCodeRejected) || !errors.As(err, &te) || te.Code != "invalid_grant" || te.Description != "fake invalid_grant" {
		t.Fatalf("rejected code: %v", err)
	}
}

func TestRefreshRotationPersists(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	first := readStored(t, s)
	ts := s.TokenSource()
	tok, err := ts.Token()
	if err != nil || tok.AccessToken != first.AccessToken || f.refreshCalls != 0 {
		t.Fatalf("fresh token refreshed: %v %v calls=%d", tok, err, f.refreshCalls)
	}
	prevRT := first.RefreshToken
	for i := 1; i <= 5; i++ {
		clk.Advance(3600*time.Second - 30*time.Second) // inside the 60 s margin
		tok, err := ts.Token()
		if err != nil {
			t.Fatalf("refresh %d: %v", i, err)
		}
		stored := readStored(t, s)
		if stored.RefreshToken == prevRT || stored.AccessToken != tok.AccessToken || f.refreshCalls != i {
			t.Fatalf("refresh %d: stored=%+v calls=%d", i, stored, f.refreshCalls)
		}
		if !f.refresh[stored.RefreshToken] {
			t.Fatalf("the file does not hold the newest refresh token")
		}
		prevRT = stored.RefreshToken
	}
	// A second session (another process) reads the rotated file, no refresh.
	other := newTestSession(t, f.env(config.Sandbox), filepath.Dir(s.StorePath()), clk)
	if _, err := other.TokenSource().Token(); err != nil || f.refreshCalls != 5 {
		t.Fatalf("other session: %v calls=%d", err, f.refreshCalls)
	}
}

func TestRefreshConcurrentSingleFlight(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	dir := filepath.Dir(s.StorePath())
	// Two sessions on one directory stand in for two processes: they share
	// only the file and its lock.
	s2 := newTestSession(t, f.env(config.Sandbox), dir, clk)
	clk.Advance(2 * time.Hour)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := 0; i < 50; i++ {
		for _, sess := range []*Session{s, s2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := sess.TokenSource().Token(); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if f.refreshCalls != 1 {
		t.Fatalf("refresh calls = %d, want 1", f.refreshCalls)
	}
}

func TestRefreshInvalidGrantUsesNewerToken(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	clk.Advance(2 * time.Hour)
	// Another writer rotates the token behind our back (as a process that
	// ignored the lock would), and the server then refuses our old one.
	f.onRefresh = func(rt string) (bool, error) {
		if rt != "rt-2" {
			return false, nil
		}
		delete(f.refresh, rt)
		f.n++
		newer := readStored(t, s)
		newer.RefreshToken = fmt.Sprintf("rt-%d", f.n)
		f.refresh[newer.RefreshToken] = true
		newer.AccessToken = "at-newer"
		newer.Expiry = clk.Now().Add(time.Minute / 2)
		newer.ObtainedAt = clk.Now()
		return true, s.store.write(newer)
	}
	tok, err := s.TokenSource().Token()
	if err != nil {
		t.Fatalf("did not recover with the newer token: %v", err)
	}
	if tok.AccessToken != "at-newer" || f.refreshCalls != 1 {
		t.Fatalf("token %q after %d refreshes, want the other writer's", tok.AccessToken, f.refreshCalls)
	}
	if stored := readStored(t, s); stored.AccessToken != "at-newer" {
		t.Fatal("the newer session was cleared")
	}
}

func TestRefreshInvalidGrantEndsSession(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	f.refresh = map[string]bool{} // the grant was revoked on the server
	clk.Advance(2 * time.Hour)
	_, err := s.TokenSource().Token()
	var se *SessionEndedError
	if !errors.Is(err, ErrSignInRequired) || !errors.As(err, &se) || se.Env != "sandbox" || !strings.Contains(se.Reason, "already used or revoked") {
		t.Fatalf("err = %v", err)
	}
	if s.SignedIn() {
		t.Fatal("dead session kept on disk")
	}
	if _, err := s.TokenSource().Token(); !errors.Is(err, ErrSignInRequired) {
		t.Fatalf("second call: %v", err)
	}
}

func TestRefreshFailuresKeepStoredToken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		setup  func(f *fakeAS, env *config.Environment)
		target error
	}{
		{"server error", func(f *fakeAS, _ *config.Environment) { f.refreshStatus = 503 }, nil},
		{"network", func(f *fakeAS, _ *config.Environment) { f.srv.Close() }, nil},
		{"invalid client", func(f *fakeAS, env *config.Environment) { env.ClientSecret = "rotated-away" }, ErrInvalidClient},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAS(t)
			clk := clock.New(time.Now())
			dir := t.TempDir()
			s := newTestSession(t, f.env(config.Sandbox), dir, clk)
			loginFake(t, f, s)
			before, _ := os.ReadFile(s.StorePath())
			env := f.env(config.Sandbox)
			tc.setup(f, env)
			s2 := newTestSession(t, env, dir, clk)
			clk.Advance(2 * time.Hour)
			_, err := s2.TokenSource().Token()
			if err == nil || errors.Is(err, ErrSignInRequired) {
				t.Fatalf("err = %v", err)
			}
			if tc.target != nil && !errors.Is(err, tc.target) {
				t.Fatalf("err = %v, want %v", err, tc.target)
			}
			for _, secret := range []string{fakeSecret, "rotated-away", "rt-2", "at-2"} {
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error leaks %q: %v", secret, err)
				}
			}
			after, _ := os.ReadFile(s.StorePath())
			if string(before) != string(after) {
				t.Fatal("the stored session changed after a failed refresh")
			}
		})
	}
}

func TestNotSignedIn(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Live), t.TempDir(), nil)
	if _, err := s.TokenSource().Token(); !errors.Is(err, ErrSignInRequired) || err.Error() != "no usable live session: nobody is signed in" {
		t.Fatalf("err = %v", err)
	}
	info, err := s.Status()
	if err != nil || info.SignedIn || info.Env != "live" {
		t.Fatalf("status = %+v %v", info, err)
	}
}

func TestProjectToken(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	clk := clock.New(time.Now())
	env := f.env(config.Sandbox)
	env.Token = config.TokenProject
	s := newTestSession(t, env, t.TempDir(), clk)
	if !s.UsesProjectToken() {
		t.Fatal("token = project ignored")
	}
	ts := s.APITokenSource()
	a, err := ts.Token()
	if err != nil || a.RefreshToken != "" {
		t.Fatalf("project token: %v %v", a, err)
	}
	b, _ := ts.Token()
	if f.ccCalls != 1 || a.AccessToken != b.AccessToken {
		t.Fatalf("not cached: calls=%d", f.ccCalls)
	}
	clk.Advance(3600*time.Second - 59*time.Second)
	if _, err := ts.Token(); err != nil || f.ccCalls != 2 {
		t.Fatalf("not renewed 60 s before expiry: calls=%d %v", f.ccCalls, err)
	}
	if s.SignedIn() {
		t.Fatal("project token stored as a user session")
	}
	bad := f.env(config.Sandbox)
	bad.ClientSecret = "nope"
	sb := newTestSession(t, bad, t.TempDir(), nil)
	if _, err := sb.ProjectTokenSource().Token(); !errors.Is(err, ErrInvalidClient) {
		t.Fatalf("wrong secret: %v", err)
	}
	forced, _ := NewSession(SessionOptions{Env: f.env(config.Sandbox), StateDir: t.TempDir(), Project: true})
	if !forced.UsesProjectToken() {
		t.Fatal("Project option ignored")
	}
}

func TestLogout(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	loginFake(t, f, s)
	rt := readStored(t, s).RefreshToken
	if err := s.Logout(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(f.revoked) != 1 || f.revoked[0] != rt || s.SignedIn() {
		t.Fatalf("revoked=%v signedIn=%v", f.revoked, s.SignedIn())
	}
	loginFake(t, f, s)
	f.revokeStatus = 500
	err := s.Logout(context.Background())
	if !errors.Is(err, ErrRevocationFailed) || s.SignedIn() {
		t.Fatalf("failed revocation: %v signedIn=%v", err, s.SignedIn())
	}
	if err := s.Logout(context.Background()); err != nil {
		t.Fatalf("logout when signed out: %v", err)
	}
}

func TestStoreRefusesUnsafeOrDamagedFiles(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	loginFake(t, f, s)
	if err := os.Chmod(s.StorePath(), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := newTestSession(t, f.env(config.Sandbox), filepath.Dir(s.StorePath()), nil)
	_, err := fresh.TokenSource().Token()
	var ue *UnsafeStoreError
	if !errors.As(err, &ue) || ue.Path != s.StorePath() || ue.Mode != 0o644 {
		t.Fatalf("0644 file: %v", err)
	}
	os.Chmod(s.StorePath(), 0o600)
	for _, junk := range []string{"", "{", `{"version":1}`, "\x00\x01garbage", `{"version":99,"access_token":"x"}`} {
		os.WriteFile(s.StorePath(), []byte(junk), 0o600)
		s2 := newTestSession(t, f.env(config.Sandbox), filepath.Dir(s.StorePath()), nil)
		_, err := s2.TokenSource().Token()
		var se *SessionEndedError
		if !errors.Is(err, ErrSignInRequired) || !errors.As(err, &se) || se.Path != s.StorePath() || !strings.Contains(se.Reason, "damaged") {
			t.Fatalf("damaged %q: %v", junk, err)
		}
		if _, err := s2.Status(); err == nil {
			t.Fatalf("Status accepted damaged %q", junk)
		}
	}
}

func TestStoreCrashLeftovers(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	// A writer killed after creating and partly writing its temp file.
	dir := filepath.Dir(s.StorePath())
	leftover := filepath.Join(dir, "."+filepath.Base(s.StorePath())+".tmp-123")
	if err := os.WriteFile(leftover, []byte(`{"version":1,"access_tok`), 0o600); err != nil {
		t.Fatal(err)
	}
	s2 := newTestSession(t, f.env(config.Sandbox), dir, clk)
	if _, err := s2.TokenSource().Token(); err != nil {
		t.Fatalf("leftover temp file broke the store: %v", err)
	}
	clk.Advance(2 * time.Hour)
	if _, err := s2.TokenSource().Token(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Fatal("leftover temp file not cleaned under the lock")
	}
}

func TestEnvironmentsAreIsolated(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	dir := t.TempDir()
	sb := newTestSession(t, f.env(config.Sandbox), dir, nil)
	lv := newTestSession(t, f.env(config.Live), dir, nil)
	if sb.StorePath() == lv.StorePath() {
		t.Fatal("sandbox and live share a store file")
	}
	loginFake(t, f, sb)
	if lv.SignedIn() {
		t.Fatal("a sandbox sign-in made live signed in")
	}
	if _, err := lv.TokenSource().Token(); !errors.Is(err, ErrSignInRequired) {
		t.Fatalf("live got a token from the sandbox session: %v", err)
	}
	// A sandbox file copied over the live one is refused, not used.
	data, _ := os.ReadFile(sb.StorePath())
	os.WriteFile(lv.StorePath(), data, 0o600)
	if _, err := lv.TokenSource().Token(); !errors.Is(err, ErrSignInRequired) || !strings.Contains(err.Error(), "another environment") {
		t.Fatalf("foreign file accepted: %v", err)
	}
}

func TestNewSessionNeedsClient(t *testing.T) {
	t.Parallel()
	_, err := NewSession(SessionOptions{Env: &config.Environment{Name: config.Live}, StateDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "[live]") {
		t.Fatalf("err = %v", err)
	}
	if _, err := NewSession(SessionOptions{}); err == nil {
		t.Fatal("nil Env accepted")
	}
}

func TestOpenBrowserUsesBROWSER(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "opened")
	script := filepath.Join(t.TempDir(), "fakebrowser")
	writeScript(t, script, "#!/bin/sh\nprintf '%s' \"$1\" > "+out+"\n")
	target := "http://127.0.0.1:1/oauth2/auth?a=b&scope=openid%20offline"
	if err := openBrowser(context.Background(), target, envOf("BROWSER", script), "linux"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); string(got) != target {
		t.Fatalf("browser got %q", got)
	}
	if err := openBrowser(context.Background(), target, envOf("BROWSER", "/nonexistent/browser"), "linux"); err == nil {
		t.Fatal("missing browser not reported")
	}
}

func FuzzParseCallback(f *testing.F) {
	f.Add("code=abc&state=xyz")
	f.Add("error=access_denied&error_description=no&state=s")
	f.Add("state=a&state=b")
	f.Add("%zz=1;x")
	f.Add("code=%00%0a&state=")
	f.Fuzz(func(t *testing.T, q string) {
		p, err := ParseCallback(q)
		if err != nil {
			if p != (CallbackParams{}) {
				t.Fatal("partial result with an error")
			}
			return
		}
		vals, verr := url.ParseQuery(q)
		if verr != nil {
			t.Fatalf("accepted a query url.ParseQuery rejects: %v", verr)
		}
		if p.State != vals.Get("state") || p.Code != vals.Get("code") || len(vals["state"]) > 1 {
			t.Fatalf("ParseCallback(%q) = %+v", q, p)
		}
	})
}

func TestFormBrowserParsesProtocolPages(t *testing.T) {
	t.Parallel()
	pg := parsePage([]byte(`<html><body><p class="x error">Wrong code</p><p>code <strong id="otp-code"> 123456 </strong></p>
<form method="post" action="/oauth2/auth/otp"><input type="hidden" name="flow" value="f1"><input name="otp"><button type="submit">Go</button></form>
<form><input name="other"></form></body></html>`))
	if pg.otp != "123456" || pg.errorText != "Wrong code" || pg.form == nil || pg.form.action != "/oauth2/auth/otp" || pg.form.hidden.Get("flow") != "f1" || !pg.form.has("otp") || pg.form.has("other") {
		t.Fatalf("page = %+v form=%+v", pg, pg.form)
	}
	pg = parsePage([]byte(`<form method=post><button type=submit name=decision value=approve>A</button><button type=submit name=decision value=deny>D</button></form>`))
	if !pg.form.hasButton("decision", "approve") || !pg.form.hasButton("decision", "deny") {
		t.Fatalf("buttons = %+v", pg.form.buttons)
	}
	req, err := pg.form.request(context.Background(), mustURL("http://h/oauth2/auth?x=1"), url.Values{"decision": {"approve"}})
	if err != nil || req.Method != http.MethodPost || req.URL.String() != "http://h/oauth2/auth?x=1" {
		t.Fatalf("request = %v %v", req, err)
	}
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func TestRejectedTokenIsRefreshed(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	dir := filepath.Dir(s.StorePath())
	first, _ := s.TokenSource().Token()
	s.Rejected(first.AccessToken)
	second, err := s.TokenSource().Token()
	if err != nil || second.AccessToken == first.AccessToken || f.refreshCalls != 1 {
		t.Fatalf("rejected token handed out again: %v calls=%d", err, f.refreshCalls)
	}
	// Another process already rotated: a rejected token is replaced by the
	// stored one without a refresh.
	other := newTestSession(t, f.env(config.Sandbox), dir, clk)
	stale := readStored(t, other).AccessToken
	if _, err := other.TokenSource().Token(); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Hour)
	if _, err := s.TokenSource().Token(); err != nil || f.refreshCalls != 2 {
		t.Fatalf("refresh: %v calls=%d", err, f.refreshCalls)
	}
	other.Rejected(stale)
	clk.Advance(-2 * time.Hour)
	got, err := other.TokenSource().Token()
	if err != nil || got.AccessToken != readStored(t, s).AccessToken || f.refreshCalls != 2 {
		t.Fatalf("did not pick up the rotated token: %v calls=%d", err, f.refreshCalls)
	}
}

func TestLoginUsesPortAndPathFromRedirectURI(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	env := f.env(config.Sandbox)
	env.RedirectURI = fmt.Sprintf("http://127.0.0.1:%d/partnertui/cb", freePort(t))
	s := newTestSession(t, env, t.TempDir(), nil)
	var redirect string
	_, err := s.Login(context.Background(), LoginOptions{Timeout: 20 * time.Second, Open: func(ctx context.Context, u string) error {
		pu, _ := url.Parse(u)
		redirect = pu.Query().Get("redirect_uri")
		return f.approve(ctx, u)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if redirect != env.RedirectURI {
		t.Fatalf("redirect_uri = %q, want %q", redirect, env.RedirectURI)
	}
}

func TestFailOnOpenError(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	boom := errors.New("the form said no")
	_, err := s.Login(context.Background(), LoginOptions{Timeout: time.Minute, FailOnOpenError: true,
		Open: func(context.Context, string) error { return boom }})
	if !errors.Is(err, boom) || errors.Is(err, ErrLoginTimeout) {
		t.Fatalf("err = %v", err)
	}
}

// Without published keys the id_token's signature cannot be checked, but
// go-oidc still checks its issuer, audience and expiry (and we its nonce):
// a token failing any of them signs nobody in and leaves nothing stored.
func TestUnsignedIDTokenStillChecked(t *testing.T) {
	t.Parallel()
	for name, edit := range map[string]func(map[string]any){
		"other audience": func(c map[string]any) { c["aud"] = "SANDBOX_someone-else" },
		"expired":        func(c map[string]any) { c["exp"] = time.Now().Add(-time.Hour).Unix() },
		"other issuer":   func(c map[string]any) { c["iss"] = "https://evil.example" },
		"other nonce":    func(c map[string]any) { c["nonce"] = "replayed" },
	} {
		f := newFakeAS(t)
		f.idClaims = edit
		s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
		_, err := s.Login(context.Background(), LoginOptions{Open: f.approve, Timeout: 20 * time.Second})
		if err == nil || !strings.Contains(err.Error(), "id_token") {
			t.Errorf("%s: err = %v", name, err)
		}
		if s.SignedIn() {
			t.Errorf("%s: a session was kept", name)
		}
		if len(f.revoked) != 1 {
			t.Errorf("%s: the refresh token of the unchecked sign-in was not revoked", name)
		}
	}
}
