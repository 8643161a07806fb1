package auth

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

// Two commands in a row (two sessions on one state directory) fetch one
// project token: the first stores it like a user session, the second reads
// it; near its expiry one of them fetches the next one.
func TestProjectTokenKeptInStore(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	clk := clock.New(time.Now())
	dir := t.TempDir()
	first := newTestSession(t, f.env(config.Sandbox), dir, clk)
	a, err := first.ProjectTokenSource().Token()
	if err != nil {
		t.Fatal(err)
	}
	second := newTestSession(t, f.env(config.Sandbox), dir, clk)
	b, err := second.ProjectTokenSource().Token()
	if err != nil || b.AccessToken != a.AccessToken || f.ccCalls != 1 {
		t.Fatalf("second command: %v, same token %v, %d fetches", err, b != nil && b.AccessToken == a.AccessToken, f.ccCalls)
	}
	st, err := os.Stat(first.projStore.path)
	if err != nil || st.Mode().Perm() != 0o600 || first.projStore.path == first.StorePath() {
		t.Fatalf("project token file %s: %v %v", first.projStore.path, st, err)
	}
	if first.SignedIn() {
		t.Fatal("a project token made a user signed in")
	}
	clk.Advance(time.Hour - 59*time.Second)
	c, err := newTestSession(t, f.env(config.Sandbox), dir, clk).ProjectTokenSource().Token()
	if err != nil || c.AccessToken == a.AccessToken || f.ccCalls != 2 {
		t.Fatalf("near expiry: %v, %d fetches", err, f.ccCalls)
	}
	if d, err := first.ProjectTokenSource().Token(); err != nil || d.AccessToken != c.AccessToken || f.ccCalls != 2 {
		t.Fatalf("the first session did not pick up the stored renewal: %v, %d fetches", err, f.ccCalls)
	}
}

// Many goroutines in two sessions (two processes) meet no stored project
// token: one fetch.
func TestProjectTokenSingleFlight(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	dir := t.TempDir()
	sessions := []*Session{newTestSession(t, f.env(config.Sandbox), dir, nil), newTestSession(t, f.env(config.Sandbox), dir, nil)}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := sessions[i%2].ProjectTokenSource().Token(); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ccCalls != 1 {
		t.Fatalf("client_credentials requests = %d, want 1", f.ccCalls)
	}
}

// A refused project token is not handed out again; a damaged file is
// replaced, an unsafe one refused; logout removes the file.
func TestProjectTokenFileRules(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	dir := t.TempDir()
	s := newTestSession(t, f.env(config.Sandbox), dir, nil)
	a := mustProjectToken(t, s)
	s.Rejected(a)
	if b := mustProjectToken(t, s); b == a || f.ccCalls != 2 {
		t.Fatalf("a refused project token was handed out again (%d fetches)", f.ccCalls)
	}
	os.WriteFile(s.projStore.path, []byte("{damaged"), 0o600)
	if _, err := newTestSession(t, f.env(config.Sandbox), dir, nil).ProjectTokenSource().Token(); err != nil || f.ccCalls != 3 {
		t.Fatalf("damaged file: %v, %d fetches", err, f.ccCalls)
	}
	os.Chmod(s.projStore.path, 0o644)
	var unsafe *UnsafeStoreError
	if _, err := newTestSession(t, f.env(config.Sandbox), dir, nil).ProjectTokenSource().Token(); !errors.As(err, &unsafe) {
		t.Fatalf("0644 project token file: %v", err)
	}
	os.Chmod(s.projStore.path, 0o600)
	// A user session file is not a project token, nor the reverse.
	user := newTestSession(t, f.env(config.Sandbox), dir, nil)
	loginFake(t, f, user)
	data, _ := os.ReadFile(user.StorePath())
	os.WriteFile(s.projStore.path, data, 0o600)
	fresh := newTestSession(t, f.env(config.Sandbox), dir, nil)
	if tok, err := fresh.ProjectTokenSource().Token(); err != nil || tok.AccessToken == readStored(t, user).AccessToken {
		t.Fatalf("a user token was used as the project token: %v", err)
	}
	if err := user.Logout(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.projStore.path); !os.IsNotExist(err) {
		t.Fatal("logout left the project token on disk")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(left) != 0 {
		t.Fatalf("logout left %v", left)
	}
}

// Against the emulator: two commands, one client_credentials request, and
// the token works.
func TestEmulatorProjectTokenOneFetch(t *testing.T) {
	t.Parallel()
	e := startEmulator(t, emulator.Options{})
	env := e.Env(t, config.Sandbox)
	dir := t.TempDir()
	var tokens []string
	for range 2 {
		tokens = append(tokens, mustProjectToken(t, newTestSession(t, env, dir, nil)))
	}
	if n := e.Log.Count(t, "/oauth2/token", "client_credentials"); n != 1 || tokens[0] != tokens[1] {
		t.Fatalf("client_credentials requests = %d, want 1", n)
	}
	if st := graphQLStatus(t, env.GraphQLURL(), tokens[1]); st != 200 {
		t.Fatalf("stored project token: HTTP %d", st)
	}
}
