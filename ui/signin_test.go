package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
)

// blockLogin starts a sign-in whose Login waits until cancelled (its
// command is never run) and hands the screen the prompt Login would show.
func blockLogin(d *driver) {
	d.t.Helper()
	d.sbxS.login = func(ctx context.Context, _ auth.LoginOptions) (*auth.Identity, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	d.update(keyMsg("enter")) // Login runs in a command never run here
	d.send(loginURLMsg{envTag{config.Sandbox}, d.signin().id, fakePrompt(d.sbxS.headless, !d.sbxS.headless), nil})
}

// recordingPaste is a SignInPrompt.Paste that answers from a script and
// fails the test when called on the event loop.
type recordingPaste struct {
	d       *driver
	mu      sync.Mutex
	got     []string
	answers []error
}

func (p *recordingPaste) paste(text string) error {
	if p.d.onLoop.Load() {
		p.d.t.Error("Paste ran on the event loop")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.got = append(p.got, text)
	if len(p.answers) == 0 {
		return auth.ErrSignInFinished
	}
	err := p.answers[0]
	p.answers = p.answers[1:]
	return err
}

// The steps before a sign-in say what will really happen: a browser on a
// desktop, the link, a tunnel and a paste over SSH.
func TestSignInStepsSayWhatHappens(t *testing.T) {
	t.Parallel()
	desk := newDriver(t, fixture{rows: 1, w: 120, h: 40})
	desk.wantScreen("1. Your browser opens the platform's sign-in page")
	if strings.Contains(desk.screen(), "ssh") {
		t.Fatal("a desktop sign-in talks of ssh")
	}
	ssh := newDriver(t, fixture{rows: 1, w: 120, h: 40, headless: true})
	ssh.wantScreen("No browser can open from here (an SSH session, or no display)")
	ssh.wantScreen("the ssh -L command that forwards its callback port")
	ssh.wantScreen("Without a tunnel, paste here the address")
	if strings.Contains(ssh.screen(), "Your browser opens") {
		t.Fatal("a headless sign-in promises a browser")
	}
}

// Login is told the same environment the screen judged headless by.
func TestSignInPassesGetenvToLogin(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 1, headless: true})
	var headless bool
	d.sbxS.login = func(_ context.Context, opts auth.LoginOptions) (*auth.Identity, error) {
		headless = opts.Getenv != nil && auth.Headless(opts.Getenv)
		return &auth.Identity{Subject: "user-1"}, nil
	}
	d.press("enter")
	if !headless {
		t.Fatal("Login did not get the UI's environment")
	}
}

func TestHeadlessSignInTakesThePastedAddress(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, headless: true, w: 120, h: 40})
	blockLogin(d)
	s := d.signin()
	p := &recordingPaste{d: d, answers: []error{&auth.PasteError{Reason: "it carries neither an authorization code nor an error"}, nil}}
	d.send(loginURLMsg{envTag{config.Sandbox}, s.id, fakePrompt(true, false), p.paste})
	d.wantScreen("ssh -N -L 43123:127.0.0.1:43123 dev.example.com")
	d.wantScreen("http://127.0.0.1:9999/oauth2/auth?client_id=SANDBOX_test&state=abc")
	d.wantScreen("Without a tunnel, paste the address it ends on")
	d.wantScreen("(http://127.0.0.1:43123/…)")
	d.wantScreen("Paste it, or press p to type it.")
	d.press("c")
	if len(d.copied) != 1 || !strings.Contains(d.copied[0], "oauth2/auth") {
		t.Fatalf("c copied %q", d.copied)
	}

	// A terminal paste goes to the field without a key first.
	d.send(tea.PasteMsg{Content: "http://127.0.0.1:43123/callback?state=abc\x1b[0m"})
	if !s.capturing() {
		t.Fatal("the paste did not open the field")
	}
	d.press("enter")
	if len(p.got) != 1 || p.got[0] != "http://127.0.0.1:43123/callback?state=abc" {
		t.Fatalf("Paste got %q", p.got)
	}
	d.wantScreen("✗ The pasted address was not used: it carries neither an authorization code nor an error. Paste the whole")
	if s.state != signinWaiting || !s.capturing() {
		t.Fatalf("a refused paste ended the wait: state %v, field %v", s.state, s.capturing())
	}

	// An empty field sends nothing; esc leaves the field, the wait goes on.
	d.press("enter")
	if len(p.got) != 1 {
		t.Fatal("an empty field was pasted")
	}
	d.press("esc")
	if s.capturing() || s.state != signinWaiting {
		t.Fatal("esc in the field cancelled the sign-in")
	}
	d.press("p")
	d.send(tea.PasteMsg{Content: "http://127.0.0.1:43123/callback?code=c&state=abc"})
	d.press("enter")
	d.wantScreen("✓ Address accepted; finishing the sign-in…")
	if strings.Contains(d.screen(), "not used") {
		t.Fatal("the refusal outlived an accepted paste")
	}
	// Login returns: the usual check of who signed in follows.
	d.send(loginDoneMsg{envTag{config.Sandbox}, s.id, &auth.Identity{Subject: "user-1"}, nil})
	d.accounts()
	d.wantScreen("Signed in to Sandbox as Jane Doe")
}

// A paste after the sign-in ended (the callback won) refuses nothing on
// screen: Login's own answer says how it ended.
func TestPasteAfterTheSignInEndedIsQuiet(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, headless: true, w: 120, h: 40})
	blockLogin(d)
	s := d.signin()
	p := &recordingPaste{d: d, answers: []error{auth.ErrSignInFinished}}
	d.send(loginURLMsg{envTag{config.Sandbox}, s.id, fakePrompt(true, false), p.paste})
	d.press("p")
	d.send(tea.PasteMsg{Content: "http://127.0.0.1:43123/callback?code=c&state=abc"})
	d.press("enter")
	if strings.Contains(d.screen(), "not used") || s.capturing() {
		t.Fatalf("a late paste was refused on screen:\n%s", d.screen())
	}
	d.send(loginDoneMsg{envTag{config.Sandbox}, s.id, nil, errors.New("dial tcp: refused")})
	if s.state != signinFailed || s.keys.Paste.Enabled() {
		t.Fatalf("state %v, paste offered %v", s.state, s.keys.Paste.Enabled())
	}
}

// The waiting text follows what Login does: a browser opening, a link to
// open, the demo approving by itself.
func TestSignInWaitingSaysWhatHappens(t *testing.T) {
	t.Parallel()
	cases := []struct {
		prompt auth.SignInPrompt
		demo   bool
		want   string
	}{
		{auth.SignInPrompt{URL: "http://x/auth", Opening: true}, false, "in the browser that is opening"},
		{auth.SignInPrompt{URL: "http://x/auth"}, false, "Open this link in your browser:"},
		{auth.SignInPrompt{URL: "http://x/auth", Headless: true, Opening: true}, true, "Approving as the demo user"},
	}
	for _, c := range cases {
		d := newDriver(t, fixture{rows: 1, w: 120, h: 40, demo: true})
		d.sbxS.login = func(ctx context.Context, _ auth.LoginOptions) (*auth.Identity, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		k := "enter"
		if c.demo {
			k = "a"
		}
		d.update(keyMsg(k))
		s := d.signin()
		d.send(loginURLMsg{envTag{config.Sandbox}, s.id, c.prompt, func(string) error { return nil }})
		d.wantScreen(c.want)
		if c.demo && s.keys.Paste.Enabled() {
			t.Error("the demo approval offers a paste")
		}
	}
}

// TestAHugePasteIsRefusedAndTheFieldGoesOn: a 100 KB paste is refused with
// a message, not cut to the field's size, and the address pasted next is
// used.
func TestAHugePasteIsRefusedAndTheFieldGoesOn(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, headless: true, w: 120, h: 40})
	blockLogin(d)
	s := d.signin()
	p := &recordingPaste{d: d, answers: []error{nil}}
	d.send(loginURLMsg{envTag{config.Sandbox}, s.id, fakePrompt(true, false), p.paste})
	d.send(tea.PasteMsg{Content: strings.Repeat("x", 100_000)})
	d.wantScreen("✗ The pasted address was not used: the paste is 97 KiB long")
	if !s.capturing() || s.pasteIn.Value() != "" {
		t.Fatalf("after a huge paste: field open %v, holding %d bytes", s.capturing(), len(s.pasteIn.Value()))
	}
	d.send(tea.PasteMsg{Content: "http://127.0.0.1:43123/callback?code=c&state=abc"})
	d.press("enter")
	if len(p.got) != 1 || p.got[0] != "http://127.0.0.1:43123/callback?code=c&state=abc" {
		t.Fatalf("Paste got %.80q", p.got)
	}
	d.wantScreen("✓ Address accepted; finishing the sign-in…")
}

// With $BROWSER set and no display, the sign-in says the browser command
// will be run, and then that it was given the link, instead of "no
// browser can open" (issue 32, item 16); the way without it (the tunnel,
// the paste) is still there.
func TestSignInWithBrowserAndNoDisplaySaysItRunsIt(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		d := newDriver(t, fixture{rows: 1, w: sz[0], h: sz[1], noDisplay: true, browser: "/usr/bin/w3m -o confirm_qq=false %s:lynx"})
		screen := flat(d.screen())
		for _, want := range []string{"only the browser command you set is run: $BROWSER (w3m).",
			"1. partnertui runs w3m with the platform's sign-in page", "Without a tunnel, paste here the address", "enter sign in with w3m"} {
			if !strings.Contains(screen, want) {
				t.Fatalf("%dx%d: the steps lack %q:\n%s", sz[0], sz[1], want, d.screen())
			}
		}
		if strings.Contains(screen, "No browser can open") {
			t.Fatalf("the steps say no browser can open, then run one:\n%s", d.screen())
		}
		d.sbxS.login = func(ctx context.Context, _ auth.LoginOptions) (*auth.Identity, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		d.update(keyMsg("enter"))
		p := &recordingPaste{d: d}
		d.send(loginURLMsg{envTag{config.Sandbox}, d.signin().id, fakePrompt(true, true), p.paste})
		screen = flat(d.screen())
		if !strings.Contains(screen, "Waiting for the sign-in in w3m ($BROWSER), which is given the link. If it cannot reach you:") ||
			strings.Contains(screen, "no browser opens from here") {
			t.Fatalf("%dx%d: the wait does not say w3m was run:\n%s", sz[0], sz[1], d.screen())
		}
		d.wantScreen("http://127.0.0.1:9999/oauth2/auth")
	}
	// Without $BROWSER, nothing is run and the screen says so.
	none := newDriver(t, fixture{rows: 1, w: 120, h: 40, noDisplay: true})
	none.wantScreen("No browser can open from here (an SSH session, or no display)")
}
