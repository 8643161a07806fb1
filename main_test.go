package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
)

// realBinary is shared by the tests that run partnertui as a user would.
var realBinary *testkit.Binary

func TestMain(m *testing.M) { testkit.Main(m, &realBinary) }

// TestTmuxEndToEnd drives the real binary the way a user does: in a
// terminal (tmux), through sign-in, the account list, the detail, the
// environment switch and quit.
func TestTmuxEndToEnd(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)
	tm.start(100, 30, bin, "--demo")
	tm.waitFor("sign-in screen", "Sign in", "SANDBOX")
	tm.keys("a")
	tm.waitFor("account list", "Accounts", "FR76")
	tm.keys("j", "j", "Enter")
	tm.waitFor("account detail", "IBAN", "BIC", "Available", "✓")
	// The row's own fields show at once; the user's rights come with the
	// answer of the request that opens the account, which the log then has.
	tm.waitFor("the account's answer", "Your rights")
	// The same request brought the balance chart: its bookings (one page)
	// and the one before them.
	tm.waitFor("the balance chart", "Booked balance · last 30 days", "; adds up with")
	// The Requests view: the account list's and the one that opens the
	// account, newest first, the account's marked as the screen's own.
	tm.keys("L")
	tm.waitFor("requests", "Requests", "Home", "● ", "AccountViewWithMembership", "sent by")
	if strings.Contains(tm.capture(), "AccountTransactionList") {
		t.Fatalf("the chart was read apart from the account's request:\n%s", tm.capture())
	}
	tm.keys("Enter")
	tm.waitFor("one request", "Operation", "query AccountViewWithMembership", "HTTP 200")
	tm.keys("Escape")
	tm.waitFor("back on the requests", "requests kept, newest first")
	tm.keys("Escape")
	tm.waitFor("back on the account", "IBAN", "BIC")
	tm.keys("e")
	tm.waitFor("confirmation", "Switch to LIVE?")
	tm.keys("y")
	tm.waitFor("live sign-in", "LIVE", "Sign in")
	tm.keys("a")
	tm.waitFor("live account list", "LIVE", "Accounts")
	tm.keys("e")
	tm.waitFor("back on sandbox", "SANDBOX", "Accounts")
	tm.keys("q")
	tm.waitExit()
	if left, _ := filepath.Glob(filepath.Join(tm.tmpdir, "partnertui-demo-*")); len(left) > 0 {
		t.Errorf("the demo left its token directory behind: %v", left)
	}
}

// needTmux skips an end-to-end test in -short mode or without tmux,
// which CI must have.
func needTmux(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("tmux is required in CI (.ci/run installs it): %v", err)
		}
		t.Skip("tmux is not installed: apt-get install -y tmux to run the end-to-end test")
	}
}

type tmux struct {
	t       *testing.T
	session string
	home    *testenv.Home
	env     []string
	socket  string
	tmpdir  string // the program's TMPDIR, where --demo keeps its tokens

	// pane is the file tmux appends everything the program writes to
	// (pipe-pane): the screen can only have changed when it grew, so
	// capture asks tmux for the screen again only then. A test polls the
	// screen every 20 ms; each capture is a tmux client started, the
	// server's rendering and a process to wait for.
	pane   string
	seen   int64  // pane's size when screen was captured; -1 for none
	screen string // the last capture
	// fresh captures every time (the latency benchmark, which times
	// what it sees).
	fresh bool
}

// newTmux is the start of every end-to-end test: skipped without tmux, a
// home of the test's own (HOME, the XDG directories, TMPDIR) for the
// programs it runs, and a tmux server of the test's own. It changes
// nothing in the test's process: the end-to-end tests run in parallel.
func newTmux(t *testing.T) *tmux {
	t.Helper()
	needTmux(t)
	home := testenv.NewHome(t)
	home.Vars["TERM"] = "xterm-256color"
	return &tmux{
		t:       t,
		session: "partnertui-e2e",
		home:    home,
		socket:  filepath.Join(t.TempDir(), "tmux.sock"),
		tmpdir:  home.Locations.Temp,
		env:     home.Environ(),
		pane:    filepath.Join(t.TempDir(), "pane.out"),
		seen:    -1,
	}
}

func (m *tmux) cmd(args ...string) *exec.Cmd {
	c := exec.Command("tmux", append([]string{"-S", m.socket}, args...)...)
	c.Env = m.env
	return c
}

func (m *tmux) start(w, h int, bin string, args ...string) {
	m.t.Helper()
	cmdline := append([]string{"new-session", "-d", "-s", m.session, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), bin}, args...)
	// A session started as the previous one ends can reach its server
	// while it exits (tmux ends with its last session): that is tried
	// again once the server is gone.
	var out []byte
	var err error
	poll(5*time.Second, func() bool {
		out, err = m.cmd(cmdline...).CombinedOutput()
		return err == nil || !strings.Contains(string(out), "server exited unexpectedly")
	})
	if err != nil {
		m.t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	m.t.Cleanup(func() { _ = m.cmd("kill-server").Run() })
	m.seen = -1
	if out, err := m.cmd("pipe-pane", "-t", m.session, "cat >> '"+m.pane+"'").CombinedOutput(); err != nil {
		m.t.Fatalf("tmux pipe-pane: %v\n%s", err, out)
	}
}

// startDemo starts bin --demo at w×h, signs in as the demo user (a) and
// waits for the account list.
func (m *tmux) startDemo(w, h int, bin string) {
	m.t.Helper()
	m.start(w, h, bin, "--demo")
	m.waitFor("sign-in screen", "Sign in", "SANDBOX")
	m.keys("a")
	m.waitFor("account list", "Accounts", "row 1 of")
}

func (m *tmux) keys(keys ...string) {
	m.t.Helper()
	for _, k := range keys {
		if out, err := m.cmd("send-keys", "-t", m.session, k).CombinedOutput(); err != nil {
			m.t.Fatalf("tmux send-keys %q: %v\n%s", k, err, out)
		}
	}
}

// capture is the screen now: tmux's, or the last capture when the program
// has written nothing since (the pane's output is its size before that
// capture, so what came meanwhile is captured next time).
func (m *tmux) capture() string {
	size := int64(-1)
	if fi, err := os.Stat(m.pane); err == nil {
		size = fi.Size()
	}
	if !m.fresh && size >= 0 && size == m.seen {
		return m.screen
	}
	out, _ := m.cmd("capture-pane", "-p", "-t", m.session).Output()
	m.screen, m.seen = string(out), size
	return m.screen
}

// poll checks cond every 20 ms until it holds or the timeout passes.
// Polling is the only way to observe another process's terminal.
func poll(timeout time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// waitFor waits until every text is on the screen; the test fails with the
// last screen.
func (m *tmux) waitFor(what string, texts ...string) {
	m.t.Helper()
	var screen string
	onScreen := func() bool {
		screen = m.capture()
		for _, s := range texts {
			if !strings.Contains(screen, s) {
				return false
			}
		}
		return true
	}
	if !poll(60*time.Second, onScreen) {
		m.t.Fatalf("waiting for the %s (%q), the screen is:\n%s", what, texts, screen)
	}
}

func (m *tmux) waitExit() {
	m.t.Helper()
	gone := func() bool { return m.cmd("has-session", "-t", m.session).Run() != nil }
	if !poll(15*time.Second, gone) {
		m.t.Fatalf("partnertui did not exit after q; the screen is:\n%s", m.capture())
	}
}
