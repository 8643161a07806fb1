//go:build linux || darwin

package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"

	"github.com/partnertui/partnertui/api"
)

// TestCountdownUnderAPseudoTerminal: on a terminal of 80 columns, the
// wait's countdown finds the width itself and every redraw stays on one
// line: no draw reaches the last column, none writes a line break.
func TestCountdownUnderAPseudoTerminal(t *testing.T) {
	t.Parallel()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(tty, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	var screen bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		_, _ = io.Copy(&screen, ptmx) // ends with an error once tty is closed
	}()

	p := newProgressLine(IO{Err: tty})
	if !p.tty {
		t.Fatal("the pseudo-terminal is not seen as a terminal")
	}
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	p.now, p.tick = func() time.Time { return now }, time.Hour
	p.set("1200 of 80000 accounts · page 12")
	for s := 60; s > 50; s-- {
		p.wait(waitReason(api.WaitRetryAfter), now.Add(time.Duration(s)*time.Second))
	}
	p.waitDone()
	p.clear()
	tty.Close()
	<-read

	out := screen.String()
	if strings.ContainsAny(out, "\n") {
		t.Errorf("the countdown wrote a line break: %q", out)
	}
	draws := strings.Split(out, "\r\x1b[K")[1:]
	if len(draws) < 12 {
		t.Fatalf("%d draws: %q", len(draws), out)
	}
	for _, d := range draws {
		if w := ansi.StringWidth(d); w >= 80 {
			t.Errorf("a draw is %d cells wide on a terminal of 80: %q", w, d)
		}
	}
}
