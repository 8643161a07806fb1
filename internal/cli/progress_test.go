package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
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
