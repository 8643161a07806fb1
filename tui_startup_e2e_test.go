package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTmuxColorProfileDetectedOnce: inside tmux the colour profile comes
// from `tmux info`, a process of its own started before the first frame.
// The binary runs it once (lipgloss's detection when the process starts)
// and hands that profile to Bubble Tea instead of detecting it again.
func TestTmuxColorProfileDetectedOnce(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	wrapper := fmt.Sprintf("#!/bin/sh\nif [ \"$1\" = info ]; then echo info >> %q; fi\nexec %q \"$@\"\n", calls, tmuxPath)
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(wrapper), 0o700); err != nil {
		t.Fatal(err)
	}
	tm.start(100, 30, "env", "PATH="+dir+":"+os.Getenv("PATH"), bin, "--demo")
	tm.waitFor("sign-in screen", "Sign in", "SANDBOX")
	tm.keys("q")
	tm.waitExit()
	raw, err := os.ReadFile(calls)
	if err != nil {
		t.Fatalf("the binary never ran tmux info inside tmux (%v): the test no longer sees the detection", err)
	}
	if n := strings.Count(string(raw), "info"); n != 1 {
		t.Fatalf("the binary ran tmux info %d times before quitting, want 1", n)
	}
}
