package auth

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

// helpers are the test's helper programs: the scripted browser and the
// second process of the concurrency and crash tests, kept between runs
// (testkit.Binary).
var helpers struct{ browser, proc *testkit.Binary }

func TestMain(m *testing.M) {
	helpers.browser, helpers.proc = testkit.NewProgram("./auth/internal/testbrowser"), testkit.NewProgram("./auth/internal/testproc")
	testkit.RunWaiting(m, helpers.browser.Cleanup, helpers.proc.Cleanup)
}

// buildHelpers returns the helper programs' paths, building them the
// first time.
func buildHelpers(t *testing.T) (browser, proc string) {
	t.Helper()
	return helpers.browser.Path(t), helpers.proc.Path(t)
}

// startEmulator is the kit's emulator with a small data set: sign-in
// needs few accounts.
func startEmulator(t *testing.T, opts emulator.Options) *testkit.Emulator {
	t.Helper()
	if opts.Accounts == 0 {
		opts.Accounts = 20
	}
	return testkit.StartEmulator(t, opts)
}

// scriptBrowser is a LoginOptions.Getenv whose $BROWSER is the scripted
// browser (its script passed through env(1), so the test process's own
// environment stays untouched) in a desktop session.
func scriptBrowser(t *testing.T, phone, mode string) (getenv func(string) string, logPath string) {
	t.Helper()
	browser, _ := buildHelpers(t)
	// The browser process outlives Login by a moment (it logs "done" after
	// the callback answers), so its log is not in t.TempDir, whose cleanup
	// fails on a file written after the test ended. Once this directory is
	// removed, a late write fails quietly in the browser.
	dir, err := os.MkdirTemp("", "partnertui-browser-log-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	logPath = filepath.Join(dir, "browser.log")
	cmd := strings.Join([]string{"env", "PT_TESTBROWSER_PHONE=" + phone, "PT_TESTBROWSER_MODE=" + mode, "PT_TESTBROWSER_LOG=" + logPath, browser}, " ")
	return envOf("BROWSER", cmd, "DISPLAY", ":0"), logPath
}

// graphQLStatus sends a trivial operation with the bearer token.
func graphQLStatus(t *testing.T, endpoint, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"query":"query { __typename }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func TestEmulatorSignInScriptedBrowser(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	u := e.DemoUser(t, config.Sandbox)
	getenv, logPath := scriptBrowser(t, u.Phone, "approve")
	env := e.Env(t, config.Sandbox)
	env.AuthParams = map[string]string{"phoneNumber": u.Phone}
	s := newTestSession(t, env, t.TempDir(), nil)
	var shown string
	id, err := s.Login(context.Background(), LoginOptions{ShowURL: func(p SignInPrompt) { shown = p.URL }, Timeout: time.Minute, Getenv: getenv})
	if err != nil {
		b, _ := os.ReadFile(logPath)
		t.Fatalf("Login: %v\nbrowser log:\n%s", err, b)
	}
	if id.Subject != u.UserID || id.Claims["sub"] != u.UserID || len(id.Warnings) != 0 {
		t.Fatalf("identity = %+v, want user %s", id, u.UserID)
	}
	if !strings.Contains(shown, "scope=openid%20offline") || !strings.Contains(shown, "phoneNumber=") {
		t.Errorf("URL = %s", shown)
	}
	tok, err := s.TokenSource().Token()
	if err != nil {
		t.Fatal(err)
	}
	if st := graphQLStatus(t, env.GraphQLURL(), tok.AccessToken); st != 200 {
		t.Fatalf("GraphQL with the new token: HTTP %d", st)
	}
	if err := s.Logout(context.Background()); err != nil {
		t.Fatalf("Logout: %v", err)
	}
	if s.SignedIn() || e.Log.Count(t, "/oauth2/revoke", "") != 1 {
		t.Fatal("logout did not revoke and delete")
	}
}

func TestEmulatorPhoneMismatchWarning(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	u := e.DemoUser(t, config.Sandbox)
	getenv, _ := scriptBrowser(t, u.Phone, "approve")
	env := e.Env(t, config.Sandbox)
	env.AuthParams = map[string]string{"phoneNumber": "+33799999999"} // the user types another number
	id, err := newTestSession(t, env, t.TempDir(), nil).Login(context.Background(), LoginOptions{Timeout: time.Minute, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	if len(id.Warnings) != 1 || !strings.Contains(id.Warnings[0], "does not prove who signs in") {
		t.Fatalf("warnings = %q", id.Warnings)
	}
}

func TestEmulatorDeny(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	getenv, _ := scriptBrowser(t, e.DemoUser(t, config.Sandbox).Phone, "deny")
	s := newTestSession(t, e.Env(t, config.Sandbox), t.TempDir(), nil)
	_, err := s.Login(context.Background(), LoginOptions{Timeout: time.Minute, Getenv: getenv})
	if !errors.Is(err, ErrAccessDenied) {
		t.Fatalf("err = %v", err)
	}
	if s.SignedIn() {
		t.Fatal("signed in after Deny")
	}
}

func TestEmulatorStateMismatchKeepsWaiting(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	getenv, logPath := scriptBrowser(t, e.DemoUser(t, config.Sandbox).Phone, "wrongstate")
	s := newTestSession(t, e.Env(t, config.Sandbox), t.TempDir(), nil)
	if _, err := s.Login(context.Background(), LoginOptions{Timeout: time.Minute, Getenv: getenv}); err != nil {
		t.Fatalf("a forged callback ended the sign-in: %v", err)
	}
	b, _ := os.ReadFile(logPath)
	if !strings.Contains(string(b), "forged 400") {
		t.Fatalf("browser log:\n%s", b)
	}
}

func TestEmulatorTimeout(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	getenv, _ := scriptBrowser(t, e.DemoUser(t, config.Sandbox).Phone, "ignore")
	s := newTestSession(t, e.Env(t, config.Sandbox), t.TempDir(), nil)
	_, err := s.Login(context.Background(), LoginOptions{Timeout: 500 * time.Millisecond, Getenv: getenv})
	if !errors.Is(err, ErrLoginTimeout) {
		t.Fatalf("err = %v", err)
	}
}

func TestEmulatorWrongSecret(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	getenv, _ := scriptBrowser(t, e.DemoUser(t, config.Sandbox).Phone, "approve")
	env := e.Env(t, config.Sandbox)
	env.ClientSecret = "not-the-secret"
	s := newTestSession(t, env, t.TempDir(), nil)
	_, err := s.Login(context.Background(), LoginOptions{Timeout: time.Minute, Getenv: getenv})
	if !errors.Is(err, ErrInvalidClient) || strings.Contains(err.Error(), "not-the-secret") {
		t.Fatalf("err = %v", err)
	}
	if _, err := s.ProjectTokenSource().Token(); !errors.Is(err, ErrInvalidClient) {
		t.Fatalf("project token with a wrong secret: %v", err)
	}
}

// slowCallback delays the redirect that carries the code, so the code
// expires before the browser delivers it.
type slowCallback struct{ delay time.Duration }

func (s slowCallback) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusSeeOther && strings.Contains(resp.Header.Get("Location"), "code=") {
		time.Sleep(s.delay)
	}
	return resp, err
}

func TestEmulatorExpiredCode(t *testing.T) {
	t.Parallel()
	// fosite cannot take a fake clock, so the code really has to age.
	e := startEmulator(t, emulator.Options{CodeTTL: time.Second})
	u := e.DemoUser(t, config.Sandbox)
	s := newTestSession(t, e.Env(t, config.Sandbox), t.TempDir(), nil)
	client := &http.Client{Transport: slowCallback{delay: 2100 * time.Millisecond}}
	_, err := s.Login(context.Background(), LoginOptions{Timeout: time.Minute, Open: ApproveWithForms(client, u.Phone, false)})
	var te *TokenEndpointError
	if !errors.Is(err, ErrCodeRejected) || !errors.As(err, &te) || te.Status != http.StatusBadRequest || te.Description == "" {
		t.Fatalf("err = %v", err)
	}
}

func loginEmulator(t *testing.T, e *testkit.Emulator, s *Session, name config.EnvName) {
	t.Helper()
	if _, err := s.Login(context.Background(), LoginOptions{Timeout: time.Minute, FailOnOpenError: true, Open: ApproveWithForms(nil, e.DemoUser(t, name).Phone, false)}); err != nil {
		t.Fatalf("Login %s: %v", name, err)
	}
}

// signedInEmulator starts an emulator and signs a sandbox session in to it,
// in its own state directory; clk may be nil for the real one.
func signedInEmulator(t *testing.T, opts emulator.Options, clk *clock.Fake) (*testkit.Emulator, *config.Environment, *Session) {
	t.Helper()
	e := startEmulator(t, opts)
	env := e.Env(t, config.Sandbox)
	s := newTestSession(t, env, t.TempDir(), clk)
	loginEmulator(t, e, s, config.Sandbox)
	return e, env, s
}

// testproc prepares the helper process on the session directory dir, with
// env's client; the secret travels in its environment, not its arguments.
func testproc(procBin string, env *config.Environment, dir string, extra ...string) *exec.Cmd {
	args := append([]string{"-state", dir, "-env", string(env.Name), "-auth", env.AuthURL, "-api", env.APIURL, "-client", env.ClientID}, extra...)
	cmd := exec.Command(procBin, args...)
	cmd.Env = append(os.Environ(), "PT_TESTPROC_SECRET="+env.ClientSecret)
	return cmd
}

func TestEmulatorRotation(t *testing.T) {
	t.Parallel()
	clk := clock.New(time.Now())
	e, env, s := signedInEmulator(t, emulator.Options{TokenTTL: 2 * time.Second}, clk)
	dir := filepath.Dir(s.StorePath())
	const rounds = 8
	prev := readStored(t, s).RefreshToken
	for i := 1; i <= rounds; i++ {
		clk.Advance(2 * time.Second) // the local view of expiry; the server's tokens are fresh
		tok, err := s.TokenSource().Token()
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if st := graphQLStatus(t, env.GraphQLURL(), tok.AccessToken); st != 200 {
			t.Fatalf("round %d: GraphQL HTTP %d", i, st)
		}
		stored := readStored(t, s)
		if stored.RefreshToken == prev || stored.AccessToken != tok.AccessToken {
			t.Fatalf("round %d: the file does not hold the rotated token", i)
		}
		prev = stored.RefreshToken
	}
	if n := e.Log.Refreshes(t); n != rounds {
		t.Fatalf("refreshes = %d, want %d", n, rounds)
	}
	// A new process starting from the file refreshes successfully: the file
	// holds the newest refresh token, not a spent one.
	clk.Advance(2 * time.Second)
	fresh := newTestSession(t, env, dir, clk)
	if _, err := fresh.TokenSource().Token(); err != nil {
		t.Fatalf("the stored refresh token is not the newest: %v", err)
	}
}

func TestEmulatorConcurrentRefreshOneRequest(t *testing.T) {
	t.Parallel()
	_, procBin := buildHelpers(t)
	e, env, s := signedInEmulator(t, emulator.Options{}, nil)
	dir := filepath.Dir(s.StorePath())
	// Make the stored token look expired to everyone.
	st := readStored(t, s)
	st.Expiry = time.Now().Add(-time.Minute)
	if err := s.store.write(st); err != nil {
		t.Fatal(err)
	}
	inProc := newTestSession(t, env, dir, nil)

	type proc struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		out   *bufio.Reader
	}
	var procs []proc
	for i := 0; i < 2; i++ {
		cmd := testproc(procBin, env, dir)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p := proc{cmd, stdin, bufio.NewReader(stdout)}
		t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
		if line, _ := p.out.ReadString('\n'); strings.TrimSpace(line) != "ready" {
			t.Fatalf("helper process: %q", line)
		}
		procs = append(procs, p)
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 60)
	hashes := make(chan string, 60)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			tok, err := inProc.TokenSource().Token()
			if err != nil {
				errs <- err
				return
			}
			hashes <- tok.AccessToken
		}()
	}
	for _, p := range procs {
		p.stdin.Write([]byte("go\n"))
	}
	close(start)
	for _, p := range procs {
		line, _ := p.out.ReadString('\n')
		if !strings.HasPrefix(line, "ok ") {
			errs <- fmt.Errorf("helper process: %s", strings.TrimSpace(line))
		}
		p.cmd.Wait()
	}
	wg.Wait()
	close(errs)
	close(hashes)
	for err := range errs {
		t.Error(err)
	}
	distinct := map[string]bool{}
	for h := range hashes {
		distinct[h] = true
	}
	if len(distinct) != 1 {
		t.Errorf("goroutines got %d different access tokens, want 1", len(distinct))
	}
	if n := e.Log.Refreshes(t); n != 1 {
		t.Fatalf("refresh requests = %d, want exactly 1", n)
	}
	tok, err := inProc.TokenSource().Token()
	if err != nil || graphQLStatus(t, env.GraphQLURL(), tok.AccessToken) != 200 {
		t.Fatalf("token after the race does not work: %v", err)
	}
}

func TestEmulatorEnvironmentIsolation(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	dir := t.TempDir()
	sbEnv, lvEnv := e.Env(t, config.Sandbox), e.Env(t, config.Live)
	sb := newTestSession(t, sbEnv, dir, nil)
	lv := newTestSession(t, lvEnv, dir, nil)
	loginEmulator(t, e, sb, config.Sandbox)
	if _, err := lv.TokenSource().Token(); !errors.Is(err, ErrSignInRequired) {
		t.Fatalf("live session used the sandbox sign-in: %v", err)
	}
	loginEmulator(t, e, lv, config.Live)
	sbTok, err := sb.TokenSource().Token()
	if err != nil {
		t.Fatal(err)
	}
	lvTok, err := lv.TokenSource().Token()
	if err != nil {
		t.Fatal(err)
	}
	if sbTok.AccessToken == lvTok.AccessToken || sb.StorePath() == lv.StorePath() {
		t.Fatal("environments share a token or a file")
	}
	if graphQLStatus(t, sbEnv.GraphQLURL(), sbTok.AccessToken) != 200 || graphQLStatus(t, lvEnv.GraphQLURL(), lvTok.AccessToken) != 200 {
		t.Fatal("a token does not work in its own environment")
	}
	// The server backs the separation: a token never works across.
	if st := graphQLStatus(t, lvEnv.GraphQLURL(), sbTok.AccessToken); st != http.StatusUnauthorized {
		t.Fatalf("sandbox token on live: HTTP %d, want 401", st)
	}
	// Project tokens stay per environment too.
	pSb, err := sb.ProjectTokenSource().Token()
	if err != nil {
		t.Fatal(err)
	}
	if st := graphQLStatus(t, lvEnv.GraphQLURL(), pSb.AccessToken); st != http.StatusUnauthorized {
		t.Fatalf("sandbox project token on live: HTTP %d", st)
	}
	if st := graphQLStatus(t, sbEnv.GraphQLURL(), pSb.AccessToken); st != 200 {
		t.Fatalf("sandbox project token on sandbox: HTTP %d", st)
	}
}

func TestEmulatorFormsRefuseBadPhone(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	s := newTestSession(t, e.Env(t, config.Sandbox), t.TempDir(), nil)
	_, err := s.Login(context.Background(), LoginOptions{Timeout: time.Minute, FailOnOpenError: true, Open: ApproveWithForms(nil, "not a phone", false)})
	if err == nil || errors.Is(err, ErrLoginTimeout) || !strings.Contains(err.Error(), "phone") {
		t.Fatalf("err = %v", err)
	}
}
