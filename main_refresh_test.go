package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
)

// refreshRequests counts the token-endpoint requests with
// grant_type=refresh_token in an emulator request log (one JSON line each).
func refreshRequests(t *testing.T, logPath string) int {
	t.Helper()
	raw, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("request log line %q: %v", line, err)
		}
		if strings.HasSuffix(fmt.Sprint(rec["endpoint"]), "/oauth2/token") && rec["grant_type"] == "refresh_token" {
			n++
		}
	}
	return n
}

// TestRealBinariesAndGoroutinesRefreshOnce: two separate partnertui
// processes and 50 goroutines meet an expired access token at the same time.
// Exactly one refresh may reach the server (a second one would spend the
// single-use refresh token twice and the server would revoke the session),
// and everyone must succeed.
func TestRealBinariesAndGoroutinesRefreshOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	home := testenv.Isolate(t)
	logPath := filepath.Join(t.TempDir(), "requests.jsonl")
	reqlog, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reqlog.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := emulator.Start(ctx, emulator.Options{RequestLog: reqlog})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	info := srv.Info()
	sb := info.Environments["sandbox"]
	cfgPath := filepath.Join(home, "config.toml")
	cfgText := fmt.Sprintf("default_env = \"sandbox\"\n\n[sandbox]\napi_url = %q\nauth_url = %q\nclient_id = %q\nclient_secret_env = \"PT_TEST_SECRET\"\n",
		info.APIURL, info.AuthURL, sb.ClientID)
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PT_TEST_SECRET", sb.ClientSecret)
	cfg, _, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	stateDir := filepath.Join(home, "state", "partnertui")
	newSession := func() *auth.Session {
		s, err := auth.NewSession(auth.SessionOptions{Env: cfg.Env(config.Sandbox), StateDir: stateDir})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := newSession()
	var phone string
	for _, u := range info.DemoUsers {
		if u.Env == "sandbox" {
			phone = u.Phone
			break
		}
	}
	approve := auth.ApproveWithForms(&http.Client{Timeout: 10 * time.Second}, phone, false)
	if _, err := first.Login(ctx, auth.LoginOptions{Open: approve, FailOnOpenError: true}); err != nil {
		t.Fatalf("sign-in: %v", err)
	}

	// Age the stored access token so that every reader must refresh.
	raw, err := os.ReadFile(first.StorePath())
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
	if err := os.WriteFile(first.StorePath(), aged, 0o600); err != nil {
		t.Fatal(err)
	}
	if n := refreshRequests(t, logPath); n != 0 {
		t.Fatalf("%d refreshes before the race", n)
	}

	bin := realBinary.get(t)
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
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				err = fmt.Errorf("%w: %s", err, stderr.String())
			}
			results <- result{out, err}
		}()
	}
	inProc := newSession()
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
	if n := refreshRequests(t, logPath); n != 1 {
		t.Fatalf("%d refresh requests reached the server, want exactly 1", n)
	}
	raw, err = os.ReadFile(first.StorePath())
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
