// Package testenv gives a test a home of its own: the locations partnertui
// is handed (configuration file, state, cache and temporary directories)
// laid out under a fresh directory as the XDG defaults lay them out under a
// user's home, and the variables of a process run there, in which no real
// browser is ever opened. Nothing process-wide changes, so the tests that
// use it run in parallel. Only tests import it.
package testenv

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/partnertui/partnertui/internal/paths"
)

// Home is one test's home directory.
type Home struct {
	Dir string
	// Locations are the home's: Dir/config/partnertui/config.toml,
	// Dir/state/partnertui, Dir/cache/partnertui and Dir/tmp, the
	// directories a process started with Environ resolves.
	Locations paths.Locations
	// Vars are the variables a command run in the home reads (Getenv,
	// Environ); a test adds its own.
	Vars map[string]string
}

// NewHome makes a home in a temporary directory of t's.
func NewHome(t testing.TB) *Home {
	t.Helper()
	dir := t.TempDir()
	h := &Home{Dir: dir, Locations: paths.Locations{
		ConfigFile: filepath.Join(dir, "config", "partnertui", "config.toml"),
		State:      filepath.Join(dir, "state", "partnertui"),
		Cache:      filepath.Join(dir, "cache", "partnertui"),
		Temp:       filepath.Join(dir, "tmp"),
	}}
	if err := os.Mkdir(h.Locations.Temp, 0o700); err != nil {
		t.Fatal(err)
	}
	h.Vars = map[string]string{
		"HOME":            dir,
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"),
		"XDG_STATE_HOME":  filepath.Join(dir, "state"),
		"XDG_CACHE_HOME":  filepath.Join(dir, "cache"),
		"XDG_DATA_HOME":   filepath.Join(dir, "data"),
		"TMPDIR":          h.Locations.Temp,
		"BROWSER":         "false", // never open a real browser from a test
	}
	return h
}

// Getenv reads Vars, as a command line run in-process is given them.
func (h *Home) Getenv(name string) string { return h.Vars[name] }

// Environ is the environment of a process started in the home: Vars, and
// the test's PATH and TERM so that its programs are found.
func (h *Home) Environ() []string {
	env := make([]string, 0, len(h.Vars)+2)
	for k, v := range h.Vars {
		env = append(env, k+"="+v)
	}
	for _, k := range []string{"PATH", "TERM"} {
		if _, set := h.Vars[k]; !set {
			if v, ok := os.LookupEnv(k); ok {
				env = append(env, k+"="+v)
			}
		}
	}
	slices.Sort(env)
	return env
}
