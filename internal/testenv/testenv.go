// Package testenv isolates tests from the developer's machine: HOME, every
// XDG directory and the configuration variable point into a temporary tree,
// and no real browser is ever opened. Only tests import it.
package testenv

import (
	"path/filepath"
	"testing"

	"github.com/partnertui/partnertui/internal/paths"
)

// Isolate points HOME and the XDG directories at a fresh temporary tree and
// returns it. It uses t.Setenv, so the test must not be parallel.
func Isolate(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv(paths.ConfigEnv, "")
	t.Setenv("BROWSER", "false") // never open a real browser from a test
	paths.Reload()
	t.Cleanup(paths.Reload)
	return home
}
