// Package paths says where partnertui keeps its files, following the XDG
// base directory specification through github.com/adrg/xdg: the
// configuration under $XDG_CONFIG_HOME, tokens, the request budget and the
// log under $XDG_STATE_HOME, what can be read again (the environments'
// schemas) under $XDG_CACHE_HOME. It is the only place those locations are
// decided.
package paths

import (
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

const app = "partnertui"

// ConfigEnv names the variable that overrides the configuration file.
const ConfigEnv = "PARTNERTUI_CONFIG"

// ConfigFile is $PARTNERTUI_CONFIG, else $XDG_CONFIG_HOME/partnertui/config.toml
// (~/.config when unset). Nothing is created: `config path` must not
// leave directories behind, and xdg.ConfigFile would fall back to
// /etc/xdg when the home directory cannot be written.
func ConfigFile() string {
	if p := os.Getenv(ConfigEnv); p != "" {
		return p
	}
	return filepath.Join(xdg.ConfigHome, app, "config.toml")
}

// StateDir is $XDG_STATE_HOME/partnertui (~/.local/state when unset),
// created with mode 0700, or tightened to it: it holds tokens (see
// EnsureDir).
func StateDir() (string, error) {
	dir := filepath.Join(xdg.StateHome, app)
	if err := EnsureDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// CacheDir is $XDG_CACHE_HOME/partnertui (~/.cache when unset), created
// with mode 0700, or tightened to it, like StateDir: it holds what
// partnertui can read again from the platform, such as each endpoint's
// schema, which decides what is sent.
func CacheDir() (string, error) {
	dir := filepath.Join(xdg.CacheHome, app)
	if err := EnsureDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// LogFile is the one log file of the terminal UI, in StateDir.
func LogFile() (string, error) {
	dir, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, app+".log"), nil
}

// Reload re-reads the XDG variables, which adrg/xdg reads once at start-up;
// tests that change them with t.Setenv call it.
func Reload() { xdg.Reload() }
