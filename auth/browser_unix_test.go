//go:build unix

package auth

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
)

// TestExplicitBrowserRunsWithoutADisplay: a $BROWSER the user set is run
// on a machine without DISPLAY or WAYLAND_DISPLAY (wslview on WSL, a
// script), while the prompt stays headless: the ssh -L command and the
// paste field are still offered. (Over SSH it is not run:
// TestHeadlessSkipsDefaultBrowser.)
func TestExplicitBrowserRunsWithoutADisplay(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	u := e.DemoUser(t, config.Sandbox)
	desktop, logPath := scriptBrowser(t, u.Phone, "approve")
	noDisplay := func(k string) string {
		if k == "DISPLAY" || k == "WAYLAND_DISPLAY" {
			return ""
		}
		return desktop(k)
	}
	s := newTestSession(t, e.Env(t, config.Sandbox), t.TempDir(), nil)
	var prompt SignInPrompt
	id, err := s.Login(context.Background(), LoginOptions{ShowURL: func(p SignInPrompt) { prompt = p }, Timeout: 20 * time.Second, Getenv: noDisplay})
	if err != nil {
		b, _ := os.ReadFile(logPath)
		t.Fatalf("$BROWSER was not run without a display: %v\nbrowser log:\n%s", err, b)
	}
	if id.Subject != u.UserID {
		t.Errorf("signed in as %s, want %s", id.Subject, u.UserID)
	}
	if !prompt.Headless || !prompt.Opening || prompt.SSHForward == "" {
		t.Errorf("prompt = %+v, want a headless one that says a browser is opening", prompt)
	}
	// Without $BROWSER nothing is opened there; with a display the
	// system's opener is.
	if defaultOpener(envOf("BROWSER", " "), "linux") != nil || defaultOpener(envOf("DISPLAY", ":0"), "linux") == nil {
		t.Error("the automatic opener runs without a display, or not with one")
	}
}

// TestBrowserLogLeavesNothingBehind: the file that keeps the opener's
// error output is gone from the temporary directory while the opener
// still runs, so a process that exits then (a sign-in completed while the
// browser is open) leaves nothing behind.
func TestBrowserLogLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "browser")
	writeScript(t, script, "#!/bin/sh\necho started > \"$PT_FIFO\"\nexec sleep 60\n")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- openBrowser(ctx, "http://127.0.0.1/x", envOf("BROWSER", "env PT_FIFO="+fifo+" "+script, "TMPDIR", tmp), "linux")
	}()
	started := make(chan error, 1)
	go func() {
		b, err := os.ReadFile(fifo) // returns once the script has written and closed it
		if err == nil && len(b) == 0 {
			err = os.ErrNotExist
		}
		started <- err
	}()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case err := <-done:
		t.Fatalf("the opener ended before it started: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the browser script never started")
	}
	left := func(when string) {
		if m, _ := filepath.Glob(filepath.Join(tmp, "partnertui-browser-*")); len(m) > 0 {
			t.Errorf("%s: %v left in the temporary directory", when, m)
		}
	}
	left("while the opener runs")
	cancel()
	<-done
	left("after the opener ended")
}
