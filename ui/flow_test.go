package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/apptest"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// probeMsg runs a function on the event loop, where reading the model is
// safe. teatest's output stream holds only the cells that changed, so the
// flows read the model instead of the byte stream.
type probeMsg func(m *Model)

// probed wraps the root model to answer probes and to signal every
// processed message, which is what the flows wait on instead of sleeping.
type probed struct {
	*Model
	changed chan struct{}
}

func (p probed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f, ok := msg.(probeMsg); ok {
		f(p.Model)
		return p, nil
	}
	_, cmd := p.Model.Update(msg)
	select {
	case p.changed <- struct{}{}:
	default:
	}
	return p, cmd
}

type flow struct {
	t      *testing.T
	tm     *teatest.TestModel
	emu    *testkit.Emulator
	sess   map[config.EnvName]*auth.Session
	change chan struct{}
	mu     sync.Mutex
	copied []string
	opened []string // the pages the UI asked the browser to open
}

// newFlow starts the in-process emulator and the UI wired like --demo:
// both environments built through internal/app as the binary builds them
// (tokens in a temporary directory), and DemoApprove driving the
// emulator's sign-in forms.
func newFlow(t *testing.T, eo emulator.Options) *flow { return newFlowWith(t, eo, false) }

// newFlowWith wires the UI with project tokens (client credentials) when
// project is set, as --project does.
func newFlowWith(t *testing.T, eo emulator.Options, project bool) *flow {
	t.Helper()
	e := testkit.StartEmulator(t, eo)
	f := &flow{t: t, emu: e, sess: map[config.EnvName]*auth.Session{}, change: make(chan struct{}, 1)}
	opts := appOptions(t, e, project, config.Sandbox, config.Live)
	for name, env := range opts.Envs {
		f.sess[name] = env.Session.(*auth.Session)
	}
	opts.LoginTimeout = 30 * time.Second
	opts.Clipboard = func(s string) tea.Cmd {
		f.mu.Lock()
		f.copied = append(f.copied, s)
		f.mu.Unlock()
		return nil
	}
	// A desktop session, whatever the machine running the test: the pages
	// the UI opens are recorded by OpenURL.
	opts.Getenv = func(k string) string {
		if k == "DISPLAY" {
			return ":0"
		}
		return ""
	}
	opts.OpenURL = func(_ context.Context, u string) error {
		f.mu.Lock()
		f.opened = append(f.opened, u)
		f.mu.Unlock()
		return nil
	}
	m := New(opts)
	f.tm = teatest.NewTestModel(t, probed{m, f.change}, teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { f.tm.Quit() })
	return f
}

// appOptions builds the emulator's environments names through
// internal/app from a configuration file and gives them to the UI as the
// binary does (internal/cli's runTUI: the environments, Sandbox first, and
// the app's request log), with DemoApprove as --demo gives it.
func appOptions(t testing.TB, e *testkit.Emulator, project bool, names ...config.EnvName) Options {
	t.Helper()
	a := apptest.New(t, e, apptest.Options{Envs: names, Project: project})
	opts := Options{Envs: map[config.EnvName]*Environment{}, Start: config.Sandbox, Requests: a.Requests}
	for _, name := range names {
		ae := apptest.Env(t, a, name)
		opts.Envs[name] = &Environment{
			Name: name, ClientID: ae.Config.ClientID, API: ae.API, Session: ae.Session, ProjectAPI: ae.ProjectAPI,
			PrefilledPhone: ae.Config.AuthParams["phoneNumber"], ReadOnly: ae.ReadOnly,
			DemoApprove: signin.Approver(t, e, name), Project: ae.Project,
		}
	}
	return opts
}

// probe runs fn on the event loop and waits for it.
func (f *flow) probe(fn func(m *Model)) {
	f.t.Helper()
	done := make(chan struct{})
	f.tm.Send(probeMsg(func(m *Model) { fn(m); close(done) }))
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		f.t.Fatal("the program did not answer a probe")
	}
}

// settle waits until the model has processed another message.
func (f *flow) settle(deadline time.Time) bool {
	select {
	case <-f.change:
		return true
	case <-time.After(time.Until(deadline)):
		return false
	}
}

// waitFor re-reads the rendered screen after every processed message until
// it contains every want.
func (f *flow) waitFor(wants ...string) string {
	f.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var screen string
	for {
		f.probe(func(m *Model) { screen = ansi.Strip(m.render()) })
		ok := true
		for _, w := range wants {
			if !strings.Contains(screen, w) {
				ok = false
				break
			}
		}
		if ok {
			return screen
		}
		if !f.settle(deadline) {
			f.t.Fatalf("the screen never showed %q; last screen:\n%s", wants, screen)
		}
	}
}

func (f *flow) press(keys ...string) {
	for _, k := range keys {
		f.tm.Send(keyMsg(k))
	}
}

func TestFlowAgainstEmulator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	f := newFlow(t, emulator.Options{Accounts: 150})

	// Sign in as the demo user from the terminal.
	f.waitFor("Sign in to Sandbox", "approve as the demo user")
	f.press("a")
	screen := f.waitFor("row 1 of ", "Accounts")
	if !strings.Contains(screen, "/") {
		t.Fatalf("no loaded/total on the list:\n%s", screen)
	}
	var user *owner
	f.probe(func(m *Model) { user = m.env.owner })
	if user == nil || user.name == "" {
		t.Fatalf("no signed-in user after sign-in: %+v", user)
	}

	// Open the first account, copy its IBAN.
	var compact string
	f.probe(func(m *Model) {
		if a, ok := m.top().(*accountsScreen); ok {
			if acct, ok := a.list.Selected(); ok {
				compact = iban.Compact(acct.IBAN)
			}
		}
	})
	f.press("enter")
	f.waitFor("IBAN", iban.Format(compact), "✓ valid", "Overview", "Your rights")
	f.press("y")
	f.waitFor("IBAN copied")
	f.mu.Lock()
	copied := append([]string(nil), f.copied...)
	f.mu.Unlock()
	if len(copied) != 1 || copied[0] != compact {
		t.Fatalf("copied %q, want %q", copied, compact)
	}

	// Simulate an incoming transfer: the balance is reloaded.
	var before string
	f.probe(func(m *Model) {
		if a, ok := m.top().(*accountScreen); ok && a.overview.acct.Balances != nil {
			before = a.overview.acct.Balances.Available.Value
		}
	})
	f.press("s", "2", "5", "enter")
	f.waitFor("Received 25 EUR")
	deadline := time.Now().Add(20 * time.Second)
	var after string
	for time.Now().Before(deadline) {
		f.probe(func(m *Model) {
			if a, ok := m.top().(*accountScreen); ok && a.overview.acct.Balances != nil && !a.overview.detail.busy() {
				after = a.overview.acct.Balances.Available.Value
			}
		})
		if (after != "" && after != before) || !f.settle(deadline) {
			break
		}
	}
	if after == before {
		t.Fatalf("available balance stayed %s after the simulated transfer", before)
	}

	// Switch to Live (confirmed): no session there yet, so its sign-in.
	f.press("e")
	f.waitFor("Switch to LIVE?")
	f.press("y")
	f.waitFor("Sign in to Live", "LIVE")
	f.press("a")
	f.waitFor("row 1 of ", "LIVE")
	if !f.sess[config.Sandbox].SignedIn() {
		t.Fatal("signing in to Live touched the Sandbox session")
	}
	// And back to Sandbox, still signed in, on the account left there;
	// esc leads to its list.
	f.press("e")
	f.waitFor("SANDBOX", "Switched to Sandbox", "Your rights")
	f.press("esc")
	f.waitFor("row 1 of ", "SANDBOX")

	// The session ends on the server: the next request brings sign-in back.
	if err := f.sess[config.Sandbox].Logout(context.Background()); err != nil {
		t.Fatalf("logout: %v", err)
	}
	f.press("r")
	f.waitFor("Sign in to Sandbox", "No usable sandbox session", "Press enter to sign in again.")

	f.press("q")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

func TestFlowRateLimitCountdown(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	// Five requests a minute per endpoint: enough for the sign-in forms,
	// then a few refreshes run into a 429.
	f := newFlow(t, emulator.Options{Accounts: 20, RateLimit: 5, RateWindow: time.Minute})
	f.waitFor("Sign in to Sandbox")
	f.press("a")
	f.waitFor("row 1 of ")
	var screen string
	for i := 0; i < 8 && !strings.Contains(screen, "429 · retrying in "); i++ {
		f.press("r")
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			refreshing := true
			f.probe(func(m *Model) {
				screen = ansi.Strip(m.render())
				if a, ok := m.top().(*accountsScreen); ok {
					refreshing = a.list.Refreshing()
				}
			})
			if !refreshing || strings.Contains(screen, "429 · retrying in ") || !f.settle(deadline) {
				break
			}
		}
	}
	if !strings.Contains(screen, "429 · retrying in ") || !strings.Contains(screen, "refreshing") {
		t.Fatalf("no sticky 429 countdown while the refresh waits:\n%s", screen)
	}
	// The countdown ticks every second while it is set.
	var fast bool
	f.probe(func(m *Model) { fast = m.clock.fast })
	if !fast {
		t.Fatal("the clock does not tick every second during the countdown")
	}
	f.press("q")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// With a project token the program opens on the project's accounts: no
// sign-in, the footer names the project, and Live works the same way.
func TestFlowProjectToken(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	f := newFlowWith(t, emulator.Options{Accounts: 120}, true)
	screen := f.waitFor("row 1 of 100/", "project ")
	if strings.Contains(screen, TextSignIn) {
		t.Fatalf("the sign-in showed with a project token:\n%s", screen)
	}
	var o *owner
	f.probe(func(m *Model) { o = m.env.owner })
	if o == nil || !o.project || o.name == "" {
		t.Fatalf("the footer's owner is %+v, want the project", o)
	}
	f.press("e")
	f.waitFor("Switch to LIVE?")
	f.press("y")
	f.waitFor("LIVE", "row 1 of ", "project ")
	f.press("q")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
