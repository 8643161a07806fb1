// Package apptest builds a test's environments through internal/app from
// a configuration file, as the binary builds them: sessions, API clients
// sharing the request budget and re-reading the token store on a 401,
// project clients, the Live read-only policy. Only tests import it.
package apptest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
)

// Options are the test's choices: the configuration file's and the
// command line's.
type Options struct {
	Envs    []config.EnvName // the environments configured; nil means Sandbox only
	Token   string           // the file's token setting; "" leaves it out (a user token)
	Project bool             // --project
}

// New writes a configuration for the emulator's clients and builds the app
// from it (as --config does) with its state in a directory of the test's
// own; the app is closed when the test ends.
func New(t testing.TB, e *testkit.Emulator, o Options) *app.App {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	e.WriteConfig(t, cfg, testkit.Config{Envs: o.Envs, Token: o.Token})
	a, err := app.New(context.Background(), app.Options{ConfigPath: cfg, Project: o.Project, Locations: testenv.NewHome(t).Locations})
	if err != nil {
		t.Fatalf("app.New: %v", err)
	}
	t.Cleanup(a.Close)
	if len(a.Warnings) > 0 {
		t.Fatalf("the configuration written for the emulator draws warnings: %q", a.Warnings)
	}
	return a
}

// Env is the app's environment name.
func Env(t testing.TB, a *app.App, name config.EnvName) *app.Env {
	t.Helper()
	e, err := a.Env(name)
	if err != nil {
		t.Fatalf("environment %s: %v", name, err)
	}
	return e
}
