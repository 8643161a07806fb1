package paths

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// helperEnv makes the test binary print the locations it resolved, as a
// process starting with that environment resolves them, and exit: adrg/xdg
// reads the variables once, when the process starts.
const helperEnv = "PARTNERTUI_PATHS_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		if err := json.NewEncoder(os.Stdout).Encode(FromEnvironment()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// resolvedIn is what FromEnvironment returns in a process started with
// only the variables env.
func resolvedIn(t *testing.T, env ...string) Locations {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(env, helperEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the helper process: %v", err)
	}
	var l Locations
	if err := json.Unmarshal(out, &l); err != nil {
		t.Fatalf("the helper printed %q: %v", out, err)
	}
	return l
}

func TestLocationsFollowXDG(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "cfg"), "XDG_STATE_HOME=" + filepath.Join(home, "st"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "ca")}
	l := resolvedIn(t, env...)
	if got, want := l.ConfigFile, filepath.Join(home, "cfg", "partnertui", "config.toml"); got != want {
		t.Errorf("ConfigFile = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(home, "cfg")); err == nil {
		t.Error("resolving the locations created a directory")
	}
	dir, err := l.StateDir()
	if err != nil || dir != filepath.Join(home, "st", "partnertui") {
		t.Fatalf("StateDir = %q, %v", dir, err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode = %v, %v", fi.Mode(), err)
	}
	if c, err := l.CacheDir(); err != nil || c != filepath.Join(home, "ca", "partnertui") {
		t.Errorf("CacheDir = %q, %v", c, err)
	} else if fi, err := os.Stat(c); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("cache dir mode = %v, %v", fi.Mode(), err)
	}
	if log, _ := l.LogFile(); log != filepath.Join(dir, "partnertui.log") {
		t.Errorf("LogFile = %q", log)
	}
	if got := resolvedIn(t, append(env, ConfigEnv+"=/somewhere/else.toml")...).ConfigFile; got != "/somewhere/else.toml" {
		t.Errorf("PARTNERTUI_CONFIG is not honoured: %q", got)
	}
}

func TestRelativeXDGIsIgnored(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	l := resolvedIn(t, "HOME="+home, "XDG_CONFIG_HOME=relative/dir")
	if got, want := l.ConfigFile, filepath.Join(home, ".config", "partnertui", "config.toml"); got != want {
		t.Errorf("ConfigFile = %q, want %q (a relative XDG_CONFIG_HOME is ignored)", got, want)
	}
}

// TestNoDirectoryIsNoneMade: a Locations without a state or cache
// directory is refused, never made relative to the working directory.
func TestNoDirectoryIsNoneMade(t *testing.T) {
	t.Parallel()
	var l Locations
	if dir, err := l.StateDir(); err == nil {
		t.Errorf("StateDir of no directory = %q", dir)
	}
	if dir, err := l.CacheDir(); err == nil {
		t.Errorf("CacheDir of no directory = %q", dir)
	}
}

// TestOpenFileRefusesLinksAndOddFiles: a symbolic link planted where a file
// of ours goes is refused (its target untouched), and so is a directory;
// the error names the path.
func TestOpenFileRefusesLinksAndOddFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "budget")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, err := OpenFile(link, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if !errors.Is(err, ErrLink) || !strings.Contains(err.Error(), link) {
		t.Errorf("a link: %v", err)
	}
	if got, _ := os.ReadFile(target); string(got) != "keep me" {
		t.Errorf("the link's target now holds %q", got)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(sub, os.O_RDONLY, 0); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), sub) {
		t.Errorf("a directory: %v", err)
	}
	f, err := OpenFile(filepath.Join(dir, "plain"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestEnsureDirTightensOrRefuses: a directory open to others is made 0700;
// one that cannot be (not ours) is refused with the reason.
func TestEnsureDirTightensOrRefuses(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // whatever the umask
		t.Fatal(err)
	}
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("mode after EnsureDir: %v, %v", fi.Mode(), err)
	}
	if os.Geteuid() == 0 {
		t.Skip("root may chmod any directory")
	}
	// /tmp is open to everyone and belongs to root.
	fi, err := os.Stat(os.TempDir())
	if err != nil || fi.Mode().Perm()&0o002 == 0 {
		t.Skipf("%s is not world-writable here", os.TempDir())
	}
	var de *DirError
	if err := EnsureDir(os.TempDir()); !errors.As(err, &de) || de.Mode == 0 || !strings.Contains(err.Error(), "could not be restricted to 0700") {
		t.Errorf("a directory of another user: %v", err)
	}
}

// TestWriteFileReplacesALinkNeverItsTarget: WriteFile leaves a 0600 file
// with the new content and no temporary file; a link planted at the path
// is replaced, its target untouched, and ReadFile refuses a link.
func TestWriteFileReplacesALinkNeverItsTarget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "position.json")
	for _, data := range []string{"first", "second"} {
		if err := WriteFile(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path)
		if err != nil || string(got) != data {
			t.Fatalf("ReadFile = %q, %v; want %q", got, err, data)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", fi.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(link); !errors.Is(err, ErrLink) {
		t.Errorf("ReadFile through a link: %v, want ErrLink", err)
	}
	if err := WriteFile(link, []byte("ours")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "theirs" {
		t.Errorf("the link's target was written: %q", got)
	}
	if got, err := ReadFile(link); err != nil || string(got) != "ours" {
		t.Errorf("after WriteFile over a link: %q, %v", got, err)
	}
}
