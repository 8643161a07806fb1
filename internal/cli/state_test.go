package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator"
)

// TestStateDirectoryIsOurs: the README's promise on the state directory.
// One that exists open to everyone (0777) is tightened to 0700 before a
// token goes in, tokens are 0600, and a symbolic link planted for the
// request budget's file is refused, with its path, and its target left
// alone.
func TestStateDirectoryIsOurs(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{})
	state := homeOf(t).Locations.State
	if err := os.MkdirAll(state, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(state, 0o777); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "status", "--config", cfg); code != ExitOK {
		t.Fatalf("status: exit %d: %s", code, errOut)
	}
	if fi, err := os.Stat(state); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state directory mode %v, %v; want 0700", fi.Mode(), err)
	}
	tokens, _ := filepath.Glob(filepath.Join(state, "*.json"))
	if len(tokens) == 0 {
		t.Fatal("no token file was written")
	}
	for _, p := range tokens {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v", p, fi.Mode(), err)
		}
	}

	budgets, _ := filepath.Glob(filepath.Join(state, "budget-*[0-9]"))
	if len(budgets) != 1 {
		t.Fatalf("budget files: %v", budgets)
	}
	target := filepath.Join(home, "precious")
	if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(budgets[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, budgets[0]); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "accounts", "--config", cfg)
	if code != ExitFailure || !strings.Contains(errOut, budgets[0]) || !strings.Contains(errOut, "symbolic link") || !strings.Contains(errOut, "Remove it (partnertui makes a new file)") {
		t.Errorf("a linked budget file: exit %d: %s", code, errOut)
	}
	t.Logf("a linked budget file: %s", errOut)
	if got, _ := os.ReadFile(target); string(got) != "keep me" {
		t.Errorf("the link's target now holds %q", got)
	}
}
