// Package paths says where partnertui keeps its files, following the XDG
// base directory specification through github.com/adrg/xdg: the
// configuration under $XDG_CONFIG_HOME, tokens, the request budget and the
// log under $XDG_STATE_HOME, what can be read again (the environments'
// schemas) under $XDG_CACHE_HOME. It is the only place those locations are
// decided, once, when the process starts (FromEnvironment); the Locations
// value is handed down from there.
package paths

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

const app = "partnertui"

// ConfigEnv names the variable that overrides the configuration file.
const ConfigEnv = "PARTNERTUI_CONFIG"

// Locations are where partnertui keeps its files. The command line
// resolves them once (FromEnvironment) and hands them down to everything
// that reads or writes a file of its own: nothing below it looks at the
// environment for a location, so a test gives directories of its own and
// runs beside others.
type Locations struct {
	// ConfigFile is the configuration read when --config names none.
	ConfigFile string
	// State holds the tokens and their locks, the request budget, listen's
	// positions, the launch snapshots and the log (StateDir makes it 0700).
	State string
	// Cache holds what can be read again from the platform: each
	// endpoint's schema (CacheDir makes it 0700).
	Cache string
	// Temp is where --demo makes its throw-away token directory; "" is
	// the system's (os.TempDir).
	Temp string
}

// FromEnvironment is where this process keeps its files:
// $PARTNERTUI_CONFIG, else $XDG_CONFIG_HOME/partnertui/config.toml
// (~/.config when unset or relative); $XDG_STATE_HOME/partnertui
// (~/.local/state); $XDG_CACHE_HOME/partnertui (~/.cache). Nothing is
// created: `config path` must not leave directories behind, and
// xdg.ConfigFile would fall back to /etc/xdg when the home directory
// cannot be written. adrg/xdg reads the variables when the process starts.
func FromEnvironment() Locations {
	cfg := os.Getenv(ConfigEnv)
	if cfg == "" {
		cfg = filepath.Join(xdg.ConfigHome, app, "config.toml")
	}
	return Locations{ConfigFile: cfg, State: filepath.Join(xdg.StateHome, app), Cache: filepath.Join(xdg.CacheHome, app)}
}

// errNoDir: a Locations without the directory asked for, a mistake of the
// caller's rather than of the machine's.
var errNoDir = errors.New("no directory was given")

// StateDir is l.State, created with mode 0700, or tightened to it: it
// holds tokens (see EnsureDir).
func (l Locations) StateDir() (string, error) { return ensure(l.State) }

// CacheDir is l.Cache, created with mode 0700, or tightened to it, like
// StateDir: it holds what partnertui can read again from the platform,
// such as each endpoint's schema, which decides what is sent.
func (l Locations) CacheDir() (string, error) { return ensure(l.Cache) }

// LogFile is the one log file of the terminal UI, in StateDir.
func (l Locations) LogFile() (string, error) {
	dir, err := l.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, app+".log"), nil
}

func ensure(dir string) (string, error) {
	if dir == "" {
		return "", &DirError{Err: errNoDir}
	}
	if err := EnsureDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}
