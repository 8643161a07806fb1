package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// TestDebugAuthSaysEachStepOfARefresh: PARTNERTUI_DEBUG=auth prints one
// line per step of a refresh, in order, each with its time to the
// nanosecond (what the kill-window harness sets against the answer's last
// byte), and never a token.
func TestDebugAuthSaysEachStepOfARefresh(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "user", emulator.Options{Accounts: 3})
	dir, err := homeOf(t).Locations.StateDir()
	if err != nil {
		t.Fatal(err)
	}
	s := signin.Session(t, e, e.Env(t, config.Sandbox), dir)
	raw, err := os.ReadFile(s.StorePath())
	if err != nil {
		t.Fatal(err)
	}
	var stored map[string]any
	if err := json.Unmarshal(raw, &stored); err != nil {
		t.Fatal(err)
	}
	stored["expiry"] = time.Now().Add(-time.Minute).UTC().Format(time.RFC3339Nano)
	raw, _ = json.Marshal(stored)
	if err := os.WriteFile(s.StorePath(), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	homeOf(t).Vars[DebugEnv] = "auth"
	code, _, errOut := runCLI(t, "accounts", "--config", cfg, "--first", "1", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	steps := []auth.RefreshStep{auth.RefreshSending, auth.RefreshAnswered, auth.RefreshParsed, auth.RefreshWritten, auth.RefreshSaved, auth.RefreshDone}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != len(steps) {
		t.Fatalf("stderr:\n%s\nwant one line per step of the refresh", errOut)
	}
	var prev time.Time
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) != 6 || f[0] != "auth" || f[1] != "sandbox" || f[2] != "refresh" || f[3] != string(steps[i]) || !strings.HasPrefix(f[5], "+") {
			t.Errorf("line %d = %q, want auth sandbox refresh %s <time> +<since sending>", i, l, steps[i])
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, f[4])
		if err != nil || at.Before(prev) {
			t.Errorf("line %d: time %q (%v) before the step before it (%v)", i, f[4], err, prev)
		}
		prev = at
	}
	after, err := os.ReadFile(s.StorePath())
	if err != nil {
		t.Fatal(err)
	}
	var now map[string]any
	if err := json.Unmarshal(after, &now); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"access_token", "refresh_token", "id_token"} {
		for _, m := range []map[string]any{stored, now} {
			if v, _ := m[k].(string); v != "" && strings.Contains(errOut, v) {
				t.Errorf("the debug lines hold the %s", k)
			}
		}
	}
	if now["refresh_token"] == stored["refresh_token"] {
		t.Error("the refresh token was not rotated")
	}
}
