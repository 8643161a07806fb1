package paths

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLocationsFollowXDG(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "cfg"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "st"))
	t.Setenv(ConfigEnv, "")
	Reload()
	t.Cleanup(Reload)

	if got, want := ConfigFile(), filepath.Join(home, "cfg", "partnertui", "config.toml"); got != want {
		t.Errorf("ConfigFile = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(home, "cfg")); err == nil {
		t.Error("ConfigFile created a directory")
	}
	dir, err := StateDir()
	if err != nil || dir != filepath.Join(home, "st", "partnertui") {
		t.Fatalf("StateDir = %q, %v", dir, err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode = %v, %v", fi.Mode(), err)
	}
	if log, _ := LogFile(); log != filepath.Join(dir, "partnertui.log") {
		t.Errorf("LogFile = %q", log)
	}
	t.Setenv(ConfigEnv, "/somewhere/else.toml")
	if ConfigFile() != "/somewhere/else.toml" {
		t.Error("PARTNERTUI_CONFIG is not honoured")
	}
}

func TestRelativeXDGIsIgnored(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "relative/dir")
	t.Setenv(ConfigEnv, "")
	Reload()
	t.Cleanup(Reload)
	if got, want := ConfigFile(), filepath.Join(home, ".config", "partnertui", "config.toml"); got != want {
		t.Errorf("ConfigFile = %q, want %q (a relative XDG_CONFIG_HOME is ignored)", got, want)
	}
}
