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
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) { footerThrough429(t, size[0], size[1]) })
	}
}

func footerThrough429(t *testing.T, w, h int) {
	tm := newTmux(t)
	bin := realBinary.get(t)
	// A few requests per 20 s: the start and some refreshes, then a 429
	// whose wait is short enough for a test.
	emu := startEmulatorProcess(t, bin, 30, "6/20s")
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
		tm.keys("r")
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
