package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// TestRealBinariesAndGoroutinesRefreshOnce: two separate partnertui
// processes and 50 goroutines meet an expired access token at the same time.
// Exactly one refresh may reach the server (a second one would spend the
// single-use refresh token twice and the server would revoke the session),
// and everyone must succeed.
func TestRealBinariesAndGoroutinesRefreshOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	t.Parallel()
	home := testenv.NewHome(t)
	e := testkit.StartEmulator(t, emulator.Options{})
	cfgPath := filepath.Join(home.Dir, "config.toml")
	kc := testkit.Config{SecretEnv: "PT_TEST_SECRET"}
	e.WriteConfig(t, cfgPath, kc)
	cfg, _, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	// The binaries read the secret from the variable the file names; the
	// sessions of this process are given it.
	env := home.Environ()
	env = append(env, e.SecretVar(t, kc))
	sb := cfg.Env(config.Sandbox)
	sb.ClientSecret = e.Env(t, config.Sandbox).ClientSecret
	stateDir := home.Locations.State
	first := signin.NewSession(t, sb, stateDir)
	signin.AsDemoUser(t, e, first, config.Sandbox)

	oldRefresh := ageStoredToken(t, first.StorePath())
	if n := e.Log.Refreshes(t); n != 0 {
		t.Fatalf("%d refreshes before the race", n)
	}
	refreshRace(t, realBinary.Path(t), cfgPath, env, signin.NewSession(t, sb, stateDir))
	if n := e.Log.Refreshes(t); n != 1 {
		t.Fatalf("%d refresh requests reached the server, want exactly 1", n)
	}
	raw, err := os.ReadFile(first.StorePath())
	if err != nil {
		t.Fatal(err)
	}
	var after map[string]any
	if err := json.Unmarshal(raw, &after); err != nil {
		t.Fatal(err)
	}
	if after["refresh_token"] == oldRefresh || after["refresh_token"] == "" {
		t.Errorf("the rotated refresh token is not the one on disk")
	}
	if fi, err := os.Stat(first.StorePath()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
}

// ageStoredToken makes the access token in the store at path expired, so
// that every reader must refresh, and returns the refresh token stored.
func ageStoredToken(t *testing.T, path string) any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stored map[string]any
	if err := json.Unmarshal(raw, &stored); err != nil {
		t.Fatal(err)
	}
	oldRefresh := stored["refresh_token"]
	stored["expiry"] = time.Now().Add(-time.Minute).UTC().Format(time.RFC3339Nano)
	aged, _ := json.Marshal(stored)
	if err := os.WriteFile(path, aged, 0o600); err != nil {
		t.Fatal(err)
	}
	return oldRefresh
}

// refreshRace starts two partnertui processes listing an account with the
// configuration cfgPath in the environment env and 50 goroutines asking
// inProc for a token, all at once, and fails the test unless every one
// succeeds.
func refreshRace(t *testing.T, bin, cfgPath string, env []string, inProc *auth.Session) {
	t.Helper()
	type result struct {
		out []byte
		err error
	}
	results := make(chan result, 2)
	start := make(chan struct{})
	for i := 0; i < 2; i++ {
		go func() {
			<-start
			cmd := exec.Command(bin, "--config", cfgPath, "accounts", "--first", "1", "--json")
			cmd.Env = env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				err = fmt.Errorf("%w: %s", err, stderr.String())
			}
			results <- result{out, err}
		}()
	}
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if _, err := inProc.TokenSource().Token(); err != nil {
				errs <- err
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("goroutine: %v", err)
	}
	for i := 0; i < 2; i++ {
		r := <-results
		if r.err != nil {
			t.Errorf("partnertui process: %v", r.err)
			continue
		}
		var accounts []map[string]any
		if err := json.Unmarshal(r.out, &accounts); err != nil || len(accounts) != 1 {
			t.Errorf("partnertui process printed %q (%v), want one account", r.out, err)
		}
	}
}
