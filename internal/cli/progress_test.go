package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
)

func TestProgressLineOnATerminal(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	p := &progressLine{io: IO{Err: &errb}, tty: true, now: func() time.Time { return now }, tick: time.Hour}
	p.set("100 of 1000 accounts · page 1")
	p.wait("for the request budget", now.Add(39*time.Second))
	got := errb.String()
	if !strings.HasSuffix(got, "\r\x1b[K100 of 1000 accounts · page 1 · waiting 39s for the request budget") {
		t.Fatalf("line = %q", got)
	}
	p.waitDone()
	if !strings.HasSuffix(errb.String(), "\r\x1b[K100 of 1000 accounts · page 1") {
		t.Fatalf("after the wait: %q", errb.String())
	}
	p.clear()
	if !strings.HasSuffix(errb.String(), "\r\x1b[K") {
		t.Fatalf("not cleared: %q", errb.String())
	}
}

func TestProgressLineElsewhereSaysEachWaitOnce(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.Local)
	p := &progressLine{io: IO{Err: &errb}, tty: false, now: func() time.Time { return now }, tick: time.Hour}
	p.set("progress is for terminals only")
	p.wait("for the request budget", now.Add(60*time.Second))
	p.waitDone()
	p.clear()
	if want := "waiting 1m0s, until 10:01:00 " + now.Format("MST") + ", for the request budget\n"; errb.String() != want {
		t.Fatalf("stderr = %q", errb.String())
	}
	var nilLine *progressLine
	nilLine.set("x") // a command without progress passes nil
	nilLine.wait("x", now)
	nilLine.clear()
}

// TestProgressLineFitsTheTerminal: each draw of the line is cut to one
// cell less than the terminal's width, so "\r" rewrites all of it and a
// countdown leaves no line behind.
func TestProgressLineFitsTheTerminal(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	width := 40
	p := &progressLine{io: IO{Err: &errb}, tty: true, now: func() time.Time { return now }, tick: time.Hour, width: func() int { return width }}
	p.set("100 of 1000 accounts · page 1")
	p.wait(waitReason(api.WaitRetryAfter), now.Add(59*time.Second))
	width = 25 // the window shrinks during the wait
	p.wait(waitReason(api.WaitRetryAfter), now.Add(58*time.Second))
	draws := strings.Split(errb.String(), "\r\x1b[K")[1:]
	if len(draws) != 3 {
		t.Fatalf("draws = %q", draws)
	}
	for i, max := range []int{39, 39, 24} {
		if w := ansi.StringWidth(draws[i]); w > max || strings.Contains(draws[i], "\n") {
			t.Errorf("draw %d is %d cells wide, want at most %d: %q", i, w, max, draws[i])
		}
	}
	if !strings.HasPrefix(draws[1], "100 of 1000 accounts · p") || !strings.HasSuffix(draws[1], "…") {
		t.Errorf("a cut line does not say it is cut: %q", draws[1])
	}
}
