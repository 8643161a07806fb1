package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lastLine is the screen's bottom line that has text: the footer.
func lastLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	return lines[len(lines)-1]
}

// TestTmuxFooterThrough429 is issue 19's first item: refreshes run into
// the platform's 429, the footer counts the wait down, nothing is written
// over the app's screen, and once the wait is over the footer is whole
// again (badge, request count, help) without a resize.
func TestTmuxFooterThrough429(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			footerThrough429(t, size[0], size[1])
		})
	}
}

func footerThrough429(t *testing.T, w, h int) {
	tm := newTmux(t)
	bin := realBinary.Path(t)
	// A few requests per 5 s: the start and some refreshes, then a 429
	// whose wait is short enough for a test.
	emu := startEmulatorProcess(t, bin, 30, "6/5s")
	cfg := filepath.Join(tm.tmpdir, "config.toml")
	writeProjectConfig(t, cfg, emu)
	tm.start(w, h, bin, "--config", cfg)
	tm.waitFor("account list", "Accounts", "row 1 of")

	var screen string
	waiting := func() bool {
		screen = tm.capture()
		return strings.Contains(lastLine(screen), "429 · ")
	}
	for i := 0; !waiting(); i++ {
		if i == 30 {
			t.Fatalf("no 429 countdown in the footer after %d refreshes:\n%s", i, screen)
		}
		tm.keys("r", "r", "r")
		poll(time.Second, waiting)
	}
	checkNoStderr := func(screen string) {
		t.Helper()
		if strings.Contains(screen, "waiting") || strings.Contains(screen, "Too Many Requests") {
			t.Fatalf("the command line's wait line is drawn over the app:\n%s", screen)
		}
	}
	footer := lastLine(screen)
	if !strings.Contains(footer, "SANDBOX") || !strings.Contains(footer, "? help") {
		t.Errorf("the footer during the wait is %q", footer)
	}
	checkNoStderr(screen)

	over := func() bool {
		screen = tm.capture()
		checkNoStderr(screen)
		return !strings.Contains(screen, "429 · ")
	}
	if !poll(40*time.Second, over) {
		t.Fatalf("the 429 wait never ended:\n%s", screen)
	}
	footer = lastLine(screen)
	for _, want := range []string{"SANDBOX", "/2000", "? help"} {
		if !strings.Contains(footer, want) {
			t.Fatalf("after the wait the footer is %q, without %q:\n%s", footer, want, screen)
		}
	}
	tm.keys("q")
	tm.waitExit()
}

// waitForWords waits until every text is on the screen, the screen's
// lines and spaces read as single spaces: a sentence wrapped at 80
// columns still matches.
func (m *tmux) waitForWords(what string, texts ...string) string {
	m.t.Helper()
	var flat string
	onScreen := func() bool {
		flat = strings.Join(strings.Fields(m.capture()), " ")
		for _, s := range texts {
			if !strings.Contains(flat, s) {
				return false
			}
		}
		return true
	}
	if !poll(60*time.Second, onScreen) {
		m.t.Fatalf("waiting for the %s (%q), the screen is:\n%s", what, texts, m.capture())
	}
	return flat
}

// TestTmuxFirstHour is issue 19's screens in a real terminal at 80×24 and
// 120×40: a mistyped :account, the QR code, a simulated transfer followed
// to its booking, the whole help of the Transactions tab, the members'
// legend, the way back from Live, and signing out.
func TestTmuxFirstHour(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			firstHour(t, size[0], size[1])
		})
	}
}

func firstHour(t *testing.T, w, h int) {
	tm := newTmux(t)
	bin := realBinary.Path(t)
	tm.startDemo(w, h, bin)

	tm.keys(":")
	tm.waitFor("palette", "accounts")
	tm.keys("account 00000000-0000-0000-0000-000000000000", "Enter")
	// Said in the palette, to be corrected there; no screen of it opens.
	flat := tm.waitForWords("unknown account", "Could not open account 00000000-0000-0000-0000-000000000000.", "Check the ID, correct it here and press enter.")
	for _, not := range []string{"copy IBAN", "QR code", "simulate", "BIC"} {
		if strings.Contains(flat, not) {
			t.Errorf("the unknown account's screen offers %q:\n%s", not, tm.capture())
		}
	}
	tm.keys("Escape")
	tm.waitFor("account list", "row 1 of")

	tm.keys("Enter")
	tm.waitFor("account overview", "Your rights", "IBAN")
	tm.keys("Q")
	tm.waitFor("QR code", "EPC payment QR", "esc/Q close QR code")
	if strings.Contains(tm.capture(), "too small") {
		t.Fatalf("the QR code does not fit %d×%d:\n%s", w, h, tm.capture())
	}
	// Issue 32 item 22: the hint offers to close it once, and Q closes
	// it as esc does.
	if n := strings.Count(tm.capture(), "close QR code"); n != 1 {
		t.Errorf("the QR code's hint offers to close it %d times:\n%s", n, tm.capture())
	}
	tm.keys("Q")
	tm.waitFor("account overview", "Your rights", "Overview")

	tm.keys("s", "2", "5", "Enter")
	tm.waitFor("simulated transfer", "Received 25 ")
	// The demo books it after 3 s: the Overview follows, no r pressed.
	tm.waitFor("the booking", "The simulated transfer is Booked")

	tm.keys("2")
	tm.waitFor("transactions", "Counterparty", "row 1 of")
	tm.keys("?")
	tm.waitForWords("the Transactions help", "esc back", ": jump to…", "E events", "e switch sandbox/live", "? help", "q quit", "1-8 tab by number")
	// esc then 3 at once would read as alt+3: wait for the list.
	tm.keys("Escape")
	tm.waitFor("transactions", "Counterparty", "row 1 of")
	tm.keys("3")
	tm.waitForWords("members", "V B P M C", "V view account · B beneficiaries · P payments · M members · C cards")

	tm.keys("e")
	tm.waitFor("confirmation", "Switch to LIVE?")
	tm.keys("y")
	tm.waitFor("live sign-in", "LIVE", "Sign in")
	tm.keys("a")
	tm.waitFor("live account list", "LIVE", "row 1 of")
	tm.keys("e")
	tm.waitForWords("back on the members left in Sandbox", "SANDBOX", "V view account · B beneficiaries")

	tm.keys("O")
	tm.waitForWords("sign-out question", "Sign out of Sandbox?")
	tm.keys("y")
	tm.waitFor("sign-in after signing out", "Signed out of Sandbox", "Sign in")
	tm.keys("q")
	tm.waitExit()
}
