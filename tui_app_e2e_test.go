package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// sizes are the terminals the screens are tested at.
var sizes = [][2]int{{80, 24}, {120, 40}}

// eachSize runs f at each of sizes, as a subtest.
func eachSize(t *testing.T, f func(t *testing.T, w, h int)) {
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) { f(t, sz[0], sz[1]) })
	}
}

// portalProxy stands between partnertui and an emulator as a network
// with a sign-in page would: once on, it answers every GraphQL request
// with its page (HTML, HTTP 200) instead of passing it on.
func portalProxy(t *testing.T, target string) (addr string, on *atomic.Bool) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	on = &atomic.Bool{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if on.Load() && strings.HasSuffix(r.URL.Path, "/graphql") {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, "<!DOCTYPE html><html><head><title>Hotel Wi-Fi</title></head><body><form>Accept the terms</form></body></html>")
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, on
}

// TestTmuxCaptivePortalIsDescribed is issue 31's item 9 and issue 32's
// item 14 in a real terminal: a network's sign-in page answering in the
// platform's place is one sentence with its remedy, whole at 80 columns,
// with L for the request; the page itself is in the request log only.
// Before the portal, its project token's simulations (issue 32, item 15).
func TestTmuxCaptivePortalIsDescribed(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, w, h int) {
		tm := newTmux(t)
		bin := realBinary.Path(t)
		emu := startEmulatorProcess(t, bin, 30, "1000000/1m")
		proxy, portal := portalProxy(t, emu.apiURL)
		cfg := filepath.Join(tm.tmpdir, "config.toml")
		body := fmt.Sprintf("[sandbox]\napi_url = %q\nauth_url = %q\nclient_id = %q\nclient_secret = %q\ntoken = \"project\"\n",
			proxy, emu.authURL, emu.clientID, emu.secret)
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		tm.start(w, h, bin, "--config", cfg)
		tm.waitFor("account list", "Accounts", "row 1 of")
		projectTokenSimulations(tm)
		portal.Store(true)
		tm.keys("r")
		flat := tm.waitForWords("the portal's error",
			"✗ The Sandbox API's address answered with a web page (HTTP 200), not the API's JSON: a network's sign-in page (captive portal) or a proxy answered instead.",
			"Open any web page in a browser to sign in to the network, or check the URLs under [sandbox] in the config file, then press r to try again.",
			"L shows the request and its answer.")
		if strings.Contains(flat, "Hotel Wi-Fi") || strings.Contains(flat, "<html") {
			t.Fatalf("the message line quotes the page:\n%s", tm.capture())
		}
		if lines := strings.Split(strings.TrimRight(tm.capture(), "\n"), "\n"); !strings.Contains(lines[len(lines)-1], "? help") {
			t.Fatalf("the footer was pushed off:\n%s", tm.capture())
		}
		tm.keys("L")
		tm.waitFor("requests", "requests kept, newest first")
		tm.keys("Enter")
		tm.waitForWords("the request's answer", "Answer (its start: not the API's JSON)", "<title>Hotel Wi-Fi</title>")
		portal.Store(false)
		tm.keys("q")
		tm.waitExit()
	})
}

// projectTokenSimulations is issue 32's item 15 with a project token: an
// account's simulation menu offers none that only a user can run. From
// the account list, it opens the first account's menu, goes round it to
// its last simulation, whose line lists every other one, and comes back
// to the list.
func projectTokenSimulations(tm *tmux) {
	tm.t.Helper()
	tm.keys("Enter")
	tm.waitFor("an account", "Overview", "IBAN")
	tm.keys("s")
	tm.waitFor("the simulation menu", "Simulate ▸ receive a transfer")
	// ↑ from the first is the last: with a user's token, send a transfer.
	tm.keys("Up")
	tm.waitFor("the menu's last simulation, with the others", "Simulate ▸ charge a fee  ↑/↓: receive a transfer · receive a direct debit")
	if menu := tm.capture(); strings.Contains(menu, "send a transfer") || strings.Contains(menu, "direct debit …") {
		tm.t.Fatalf("a project token is offered more simulations than its own three:\n%s", menu)
	}
	tm.keys("Escape")
	tm.waitFor("the menu closed", "s simulate")
	tm.keys("Escape")
	tm.waitFor("account list", "Accounts", "row 1 of")
}

// TestTmuxSignInSaysItRunsBrowser is issue 32's item 16: with $BROWSER
// set and no display (the test's terminal has none), the sign-in says
// the command will be run, and was.
func TestTmuxSignInSaysItRunsBrowser(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, w, h int) {
		tm := newTmux(t)
		tm.start(w, h, realBinary.Path(t), "--demo")
		flat := tm.waitForWords("sign-in steps", "only the browser command you set is run: $BROWSER (false).",
			"1. partnertui runs false with the platform's sign-in page")
		if strings.Contains(flat, "No browser can open") {
			t.Fatalf("the steps say no browser can open:\n%s", tm.capture())
		}
		tm.keys("Enter")
		tm.waitForWords("the wait", "Waiting for the sign-in in false ($BROWSER), which is given the link.")
		tm.keys("Escape")
		tm.waitFor("cancelled", "Sign-in cancelled")
		tm.keys("q")
		tm.waitExit()
	})
}

// TestTmuxAccountsSortSearchAndJumps is issue 32's items 13, 19 and 20 in
// a real terminal: rows told apart at 80 columns, the orders of this side
// and reverse, a search by the last digits of an IBAN, a jump that
// replaces the trail and a bad id said in the palette, and the sort and
// the trail kept through a trip to Live.
func TestTmuxAccountsSortSearchAndJumps(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, w, h int) {
		tm := newTmux(t)
		tm.startDemo(w, h, realBinary.Path(t))
		if w == 80 {
			tm.waitFor("names with their holders", "Main account · ")
		} else {
			tm.waitFor("the holder column", "Holder", "Atelier Garcia SARL")
		}
		tm.keys("o", "o")
		tm.waitFor("by name", "by name, A to Z")
		tm.keys("I")
		tm.waitFor("reversed", "by name, Z to A")
		tm.keys("o")
		tm.waitFor("by balance", "by balance, lowest first")

		tm.keys("/")
		tm.keys("9315 521", "Enter")
		tm.waitFor("the account of those last digits", "IBAN ends with 9315521", "Atelier Garcia", "row 1 of 1/1")
		tm.keys("Escape")
		tm.waitFor("the filter cleared", "row 1 of 99/99")

		tm.keys(":")
		tm.waitFor("palette", "accounts")
		tm.keys("card nope", "Enter")
		tm.waitForWords("a bad id in the palette", "Could not open card nope.", "Check the ID, correct it here and press enter.")
		tm.keys("Escape")
		tm.waitFor("the palette closed", "o sort by")
		tm.keys("Enter")
		tm.waitFor("an account", "Overview", "Your rights")
		tm.keys(":")
		tm.waitFor("palette", "accounts")
		tm.keys("events", "Enter")
		tm.waitFor("the account's events, in place of the trail", "Accounts › Events (")
		if strings.Contains(tm.capture(), "› Overview") {
			t.Fatalf("the jump piled onto the trail:\n%s", tm.capture())
		}

		tm.keys("e")
		tm.waitFor("confirmation", "Switch to LIVE?")
		tm.keys("y")
		tm.waitFor("live sign-in", "LIVE", "Sign in")
		tm.keys("a")
		tm.waitFor("live account list", "LIVE", "row 1 of")
		tm.keys("e")
		tm.waitFor("back on Sandbox's trail", "SANDBOX", "Accounts › Events (")
		// esc clears the account's filter first, then leaves.
		tm.keys("Escape")
		if !poll(60*time.Second, func() bool { return !strings.Contains(tm.capture(), "Events (") }) {
			t.Fatalf("esc kept the account's filter:\n%s", tm.capture())
		}
		tm.keys("Escape")
		tm.waitFor("the account list, as it was sorted", "by balance, lowest first")
		tm.keys("q")
		tm.waitExit()
	})
}

// TestTmuxDemoCopiesRun is issue 32's item 21, at 80×24 and 120×40:
// under --demo a request copied from L (c, C) runs, while the demo runs,
// against that demo: its configuration, its state and its token, not the
// user's.
func TestTmuxDemoCopiesRun(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, w, h int) {
		tm := newTmux(t)
		bin := realBinary.Path(t)
		tm.start(w, h, bin, "--demo")
		if out, err := tm.cmd("set", "-g", "set-clipboard", "on").CombinedOutput(); err != nil {
			t.Fatalf("tmux set-clipboard: %v\n%s", err, out)
		}
		tm.waitFor("sign-in screen", "Sign in", "SANDBOX")
		tm.keys("a")
		tm.waitFor("account list", "Accounts", "row 1 of")
		tm.keys("L")
		// 80 columns say it shorter, whole (issue 32, item 21).
		warning := "copies valid while this demo runs"
		if w < 120 {
			warning = "copies valid in this demo only"
		}
		tm.waitFor("requests", "requests kept, newest first", warning)
		// partnertui on the PATH, as a user's would be.
		dir := t.TempDir()
		if err := os.Symlink(bin, filepath.Join(dir, "partnertui")); err != nil {
			t.Fatal(err)
		}
		for _, k := range []struct{ key, flash, starts string }{
			{"c", "Copied as a partnertui api command against this demo", "XDG_STATE_HOME="},
			{"C", "Copied as curl, after the line that sets this demo's token", "# Valid only while this partnertui --demo runs"},
		} {
			tm.keys(k.key)
			tm.waitFor("copied", k.flash)
			var copied []byte
			if !poll(10*time.Second, func() bool {
				copied, _ = tm.cmd("show-buffer").Output()
				return strings.HasPrefix(string(copied), k.starts)
			}) {
				t.Fatalf("%s copied %q, want it to start %q", k.key, copied, k.starts)
			}
			if _, err := exec.LookPath("curl"); err != nil && k.key == "C" {
				continue
			}
			sh := exec.Command("bash", "-c", string(copied))
			sh.Env = append(tm.env, "PATH="+dir+":"+os.Getenv("PATH"))
			out, err := sh.CombinedOutput()
			if err != nil || !strings.Contains(string(out), `"data"`) || !strings.Contains(string(out), `"accounts"`) {
				t.Fatalf("%s: the copied command did not answer the demo's data: %v\n%s\n%s", k.key, err, copied, out)
			}
		}
		tm.keys("q")
		tm.waitExit()
	})
}

// TestTmuxHostileSnapshotIsCleaned is issue 31's item 3 in a real
// terminal: a launch snapshot changed by hand to hold escapes, a C1
// control and a bidi override shows as plain text, and the terminal's
// title stays the app's.
func TestTmuxHostileSnapshotIsCleaned(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)
	// Far away: the snapshot is on screen for seconds before the first
	// answer replaces it.
	emu := startEmulatorProcess(t, bin, 30, "1000000/1m", "--latency", "2s")
	cfg := filepath.Join(tm.tmpdir, "config.toml")
	writeProjectConfig(t, cfg, emu)
	tm.start(120, 40, bin, "--config", cfg)
	tm.waitFor("account list", "Accounts", "row 1 of", "updated")
	tm.keys("q")
	tm.waitExit()
	snaps, _ := filepath.Glob(filepath.Join(tm.home.Locations.State, "launch-sandbox-*.json"))
	if len(snaps) != 1 {
		t.Fatalf("launch snapshots: %v", snaps)
	}
	b, err := os.ReadFile(snaps[0])
	if err != nil {
		t.Fatal(err)
	}
	hostile := `\u001b]0;pwned\u0007Evil\u009b2J \u202eNamed\u001b[31m`
	changed := strings.Replace(string(b), `"name":"`, `"name":"`+hostile, 1)
	if changed == string(b) {
		t.Fatal("no name in the snapshot")
	}
	if err := os.WriteFile(snaps[0], []byte(changed), 0o600); err != nil {
		t.Fatal(err)
	}
	tm2 := newTmuxAt(t, tm)
	tm2.start(120, 40, bin, "--config", cfg)
	tm2.waitFor("the snapshot's rows", "last session's", "Evil Named")
	raw, _ := tm2.cmd("capture-pane", "-p", "-e", "-t", tm2.session).Output()
	if strings.Contains(string(raw), "pwned") || strings.Contains(string(raw), "\u202e") || strings.Contains(string(raw), "\u009b") {
		t.Fatalf("the snapshot's controls reached the terminal:\n%q", raw)
	}
	if title, _ := tm2.cmd("display-message", "-p", "-t", tm2.session, "#{pane_title}").Output(); strings.Contains(string(title), "pwned") {
		t.Fatalf("the snapshot retitled the terminal: %q", title)
	}
	tm2.keys("q")
	tm2.waitExit()
}

// newTmuxAt is a second tmux session of the same test (or of one of its
// subtests, t), with the same environment (HOME, XDG directories, TMPDIR)
// and a pane of its own.
func newTmuxAt(t *testing.T, first *tmux) *tmux {
	t.Helper()
	second := *first
	second.t = t
	second.session = first.session + "-2"
	second.pane, second.seen = filepath.Join(t.TempDir(), "pane.out"), -1
	return &second
}
