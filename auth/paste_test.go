package auth

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
)

// sshSession is a headless session's environment, as over SSH.
func sshSession() func(string) string {
	return envOf("SSH_CONNECTION", "198.51.100.4 50022 203.0.113.7 2222", "USER", "alice", "DISPLAY", ":0")
}

type loginResult struct {
	id  *Identity
	err error
}

// startLogin runs Login in the background; it returns the prompt Login
// showed and where its result will arrive.
func startLogin(t *testing.T, s *Session, opts LoginOptions) (SignInPrompt, <-chan loginResult) {
	t.Helper()
	prompts := make(chan SignInPrompt, 1)
	opts.ShowURL = func(p SignInPrompt) { prompts <- p }
	if opts.Timeout == 0 {
		opts.Timeout = 20 * time.Second
	}
	done := make(chan loginResult, 1)
	go func() {
		id, err := s.Login(context.Background(), opts)
		done <- loginResult{id, err}
	}()
	select {
	case p := <-prompts:
		return p, done
	case r := <-done:
		t.Fatalf("Login returned before showing the URL: %v", r.err)
	}
	return SignInPrompt{}, nil
}

func waitLogin(t *testing.T, done <-chan loginResult) loginResult {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("Login did not return")
	}
	return loginResult{}
}

// Over SSH no browser opens; the prompt says so and gives the ssh -L
// command for the callback's port; the address pasted back signs in.
func TestPastedRedirectSignsIn(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	p, done := startLogin(t, s, LoginOptions{Getenv: sshSession()})
	want := fmt.Sprintf("ssh -N -L %d:127.0.0.1:%d -p 2222 alice@203.0.113.7", p.CallbackPort, p.CallbackPort)
	if !p.Headless || p.Opening || p.SSHForward != want || p.Env != "sandbox" || p.CallbackPort == 0 || !strings.HasPrefix(p.URL, f.srv.URL+"/oauth2/auth?") {
		t.Fatalf("prompt = %+v, want SSHForward %q", p, want)
	}
	if !strings.Contains(p.URL, url.QueryEscape(fmt.Sprintf("http://127.0.0.1:%d/callback", p.CallbackPort))) {
		t.Fatalf("the callback port %d is not the one in the URL %s", p.CallbackPort, p.URL)
	}
	if err := p.Paste("  " + f.redirect(p.URL) + "\n"); err != nil {
		t.Fatalf("Paste: %v", err)
	}
	r := waitLogin(t, done)
	if r.err != nil || r.id.Subject != "user-1" || !s.SignedIn() {
		t.Fatalf("Login = %+v, %v", r.id, r.err)
	}
	if err := p.Paste(f.redirect(p.URL)); !errors.Is(err, ErrSignInFinished) {
		t.Fatalf("paste after the end: %v", err)
	}
}

// Pasted text that is not this sign-in's redirect is refused with a reason,
// and the sign-in goes on waiting for the right one.
func TestPastedRedirectRefusals(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	p, done := startLogin(t, s, LoginOptions{NoBrowser: true})
	good := f.redirect(p.URL)
	u, _ := url.Parse(good)
	q := u.Query()
	wrongState := *u
	wrongState.RawQuery = url.Values{"code": {q.Get("code")}, "state": {"another-sign-in-state"}}.Encode()
	noCode := *u
	noCode.RawQuery = url.Values{"state": {q.Get("state")}}.Encode()
	for text, reason := range map[string]string{
		"":                                 "nothing was pasted",
		"hello":                            "not the address",
		"http://127.0.0.1:8080/callback":   "not the address",
		"http://127.0.0.1/callback?code=x": "not the address",
		"%zz?&&state":                      "not the address",
		strings.Repeat("a", 9000):          "longer",
		p.URL:                              "sign-in link itself",
		wrongState.String():                "another sign-in",
		noCode.String():                    "neither an authorization code",
		good + "&state=dup":                "more than once",
	} {
		err := p.Paste(text)
		var pe *PasteError
		if !errors.As(err, &pe) || !strings.Contains(pe.Reason, reason) {
			t.Errorf("Paste(%.40q) = %v, want a refusal saying %q", text, err, reason)
		}
		if strings.ContainsAny(err.Error(), "\n\x1b") {
			t.Errorf("unsafe message %q", err)
		}
	}
	select {
	case r := <-done:
		t.Fatalf("a refused paste ended the sign-in: %v", r.err)
	default:
	}
	if f.codeCalls != 0 {
		t.Fatalf("a refused paste reached the token endpoint (%d exchanges)", f.codeCalls)
	}
	// Quotes or angle brackets a terminal or chat added are ignored.
	if err := p.Paste("<" + good + ">"); err != nil {
		t.Fatalf("good paste after refusals: %v", err)
	}
	if r := waitLogin(t, done); r.err != nil {
		t.Fatal(r.err)
	}
}

// A pasted redirect that carries the server's refusal ends the sign-in as
// the callback would; so does a code the server rejects.
func TestPastedRedirectEndsSignIn(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
	p, done := startLogin(t, s, LoginOptions{NoBrowser: true})
	state := mustURL(p.URL).Query().Get("state")
	err := p.Paste("http://127.0.0.1:1/callback?error=access_denied&error_description=no&state=" + url.QueryEscape(state))
	if !errors.Is(err, ErrAccessDenied) {
		t.Fatalf("Paste: %v", err)
	}
	if r := waitLogin(t, done); !errors.Is(r.err, ErrAccessDenied) {
		t.Fatalf("Login: %v", r.err)
	}

	p, done = startLogin(t, s, LoginOptions{NoBrowser: true})
	state = mustURL(p.URL).Query().Get("state")
	err = p.Paste("code=not-issued&state=" + url.QueryEscape(state))
	if !errors.Is(err, ErrCodeRejected) {
		t.Fatalf("Paste with a rejected code: %v", err)
	}
	if r := waitLogin(t, done); !errors.Is(r.err, ErrCodeRejected) || s.SignedIn() {
		t.Fatalf("Login: %v", r.err)
	}
}

// The callback and a paste of the same redirect race: one wins, the code is
// exchanged once, and the loser is told the sign-in is over.
func TestPasteAndCallbackRace(t *testing.T) {
	t.Parallel()
	for round := 0; round < 10; round++ {
		f := newFakeAS(t)
		s := newTestSession(t, f.env(config.Sandbox), t.TempDir(), nil)
		p, done := startLogin(t, s, LoginOptions{NoBrowser: true})
		redirect := f.redirect(p.URL)
		var wg sync.WaitGroup
		var pasteErr error
		var status int
		wg.Add(2)
		go func() { defer wg.Done(); pasteErr = p.Paste(redirect) }()
		go func() { defer wg.Done(); status, _ = getStatus(context.Background(), redirect) }()
		wg.Wait()
		if r := waitLogin(t, done); r.err != nil {
			t.Fatalf("round %d: %v", round, r.err)
		}
		pasteWon := pasteErr == nil
		callbackWon := status == 200
		if pasteWon == callbackWon || f.codeCalls != 1 {
			t.Fatalf("round %d: paste %v, callback HTTP %d, %d exchanges", round, pasteErr, status, f.codeCalls)
		}
		if !pasteWon && !errors.Is(pasteErr, ErrSignInFinished) {
			t.Fatalf("round %d: losing paste said %v", round, pasteErr)
		}
	}
}
