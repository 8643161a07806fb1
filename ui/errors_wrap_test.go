package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
)

// flat is the screen's words, one space between them: a sentence wrapped
// over several lines still reads as one.
func flat(screen string) string { return strings.Join(strings.Fields(screen), " ") }

// portalErr is what a captive portal's page in place of the API's JSON
// makes of a request (issue 31, item 9).
func portalErr() error {
	return &api.BadResponseError{Env: "sandbox", Status: 200, Kind: api.AnswerHTML, Size: 5120,
		Snippet: "<html><title>Hotel Wi-Fi</title><body>Accept the terms</body></html>"}
}

// portalSentence is the whole message of portalErr on a list, remedy and
// the way to the request log included.
const portalSentence = "The Sandbox API's address answered with a web page (HTTP 200), not the API's JSON: " +
	"a network's sign-in page (captive portal) or a proxy answered instead. " +
	"Open any web page in a browser to sign in to the network, or check the URLs under [sandbox] in the config file, then press r to try again. " +
	"L shows the request and its answer."

// checkFits fails when the screen is not exactly w×h.
func checkFits(t *testing.T, d *driver, w, h int) {
	t.Helper()
	lines := strings.Split(d.screen(), "\n")
	if len(lines) != h {
		t.Fatalf("%d lines on a %d-line terminal:\n%s", len(lines), h, d.screen())
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Fatalf("line %d is %d wide: %q", i, ansi.StringWidth(l), l)
		}
	}
}

// A failure on the hint line is never cut at the width (issue 32, item
// 14): its whole sentence wraps above the footer, the screen above gives
// up the lines it takes, and gets them back once a key was pressed.
func TestFailureFlashWrapsWhole(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			d := newDriver(t, fixture{rows: 30, signedIn: true, w: sz[0], h: sz[1]})
			_, before := d.m.bodySize()
			text := "The replay failed. " + d.m.c.explain(portalErr(), where{retry: refreshKey(), project: true})
			d.send(flashMsg{text: text, bad: true})
			if got := flat(d.screen()); !strings.Contains(got, "✗ "+text) {
				t.Fatalf("the failure is not whole on screen:\n%s", d.screen())
			}
			checkFits(t, d, sz[0], sz[1])
			lines := strings.Split(d.screen(), "\n")
			if footer := lines[len(lines)-1]; !strings.Contains(footer, "SANDBOX") || !strings.Contains(footer, "? help") {
				t.Fatalf("the footer is not the last line: %q", footer)
			}
			_, during := d.m.bodySize()
			if rows := d.m.hintRows; rows < 2 || during != before-(rows-1) {
				t.Fatalf("the hint line takes %d rows and the body went from %d to %d lines", rows, before, during)
			}
			d.press("j")
			if _, after := d.m.bodySize(); after != before || d.m.hintRows != 1 {
				t.Fatalf("after a key the body has %d lines, want %d back", after, before)
			}
			checkFits(t, d, sz[0], sz[1])
		})
	}
}

// A list's error is its whole sentence however narrow the terminal, with
// L for the request when the app keeps the log; the answer's body is not
// on the message line.
func TestListErrorIsWholeWithTheWayToTheRequest(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{40, 24}, {80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			d := newDriverWith(t, fixture{rows: 30, signedIn: true, w: sz[0], h: sz[1]}, func(d *driver) {
				d.requests = api.NewRequestLog(0, nil)
			})
			d.sbx.err = portalErr()
			d.press("r")
			screen := d.screen()
			if got := flat(screen); !strings.Contains(got, "✗ "+portalSentence) {
				t.Fatalf("the error is not whole:\n%s", screen)
			}
			if strings.Contains(screen, "Wi-Fi") || strings.Contains(screen, "<html") {
				t.Fatalf("the answer's body is on the message line:\n%s", screen)
			}
			checkFits(t, d, sz[0], sz[1])
			// The rows stay above it.
			d.wantScreen("Account 0")
		})
	}
}

// Before its first rows, the account list's error wraps whole too.
func TestFirstPageErrorWrapsWhole(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: 60, h: 20}, func(d *driver) {
		d.requests = api.NewRequestLog(0, nil)
		d.sbx.err = portalErr()
	})
	if got := flat(d.screen()); !strings.Contains(got, "✗ Could not load the accounts. "+portalSentence) {
		t.Fatalf("the error is not whole:\n%s", d.screen())
	}
	checkFits(t, d, 60, 20)
}

// Without the request log (L unbound) no error points at it; an error
// that no request made never does.
func TestErrorsPointAtTheLogOnlyForRequests(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	if got := d.m.c.explain(portalErr(), where{retry: refreshKey()}); strings.Contains(got, "L shows") {
		t.Errorf("without a log: %q", got)
	}
	d.m.c.logged = true
	if got := d.m.c.explain(&api.ReadOnlyError{Env: "live"}, where{retry: refreshKey()}); strings.Contains(got, "L shows") {
		t.Errorf("a request never sent: %q", got)
	}
	if got := d.m.c.explain(portalErr(), where{retry: refreshKey()}); !strings.HasSuffix(got, " L shows the request and its answer.") {
		t.Errorf("a request's error: %q", got)
	}
}
