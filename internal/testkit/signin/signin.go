// Package signin opens sessions on a test's emulator and signs its demo
// users in through the real auth package, which plays the browser on the
// emulator's sign-in forms as --demo's "a" does. It imports auth, so the
// auth package's own tests sign in by themselves; every other package's
// tests use this. Only tests import it.
package signin

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/testkit"
)

// NewSession opens env's session with its tokens in stateDir.
func NewSession(t testing.TB, env *config.Environment, stateDir string) *auth.Session {
	t.Helper()
	s, err := auth.NewSession(auth.SessionOptions{Env: env, StateDir: stateDir})
	if err != nil {
		t.Fatalf("session %s: %v", env.Name, err)
	}
	return s
}

// Session opens env's session in stateDir and signs env's demo user in.
func Session(t testing.TB, e *testkit.Emulator, env *config.Environment, stateDir string) *auth.Session {
	t.Helper()
	s := NewSession(t, env, stateDir)
	AsDemoUser(t, e, s, env.Name)
	return s
}

// AsDemoUser signs s, a session of the environment name, in as the
// emulator's first demo user of that environment. Nothing of the test's
// process environment is read: no $BROWSER, no display.
func AsDemoUser(t testing.TB, e *testkit.Emulator, s *auth.Session, name config.EnvName) {
	t.Helper()
	if _, err := s.Login(context.Background(), auth.LoginOptions{Open: Approver(t, e, name), FailOnOpenError: true, Timeout: time.Minute,
		Getenv: func(string) string { return "" }}); err != nil {
		t.Fatalf("sign-in as the %s demo user through the emulator's forms: %v", name, err)
	}
}

// Approver plays the browser on the emulator's sign-in forms as the first
// demo user of the environment name: what --demo gives the terminal UI as
// an environment's DemoApprove.
func Approver(t testing.TB, e *testkit.Emulator, name config.EnvName) func(ctx context.Context, url string) error {
	t.Helper()
	return auth.ApproveWithForms(&http.Client{Timeout: 20 * time.Second}, e.DemoUser(t, name).Phone, false)
}
