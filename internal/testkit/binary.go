package testkit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// Binary is the real partnertui for the tests that run it as a user
// would, or another program of the module a test runs (NewProgram). It is
// built once for every test process that asks for it: the build is kept in
// a directory of the user's own in the system's temporary directory, named
// by a digest of everything it is built from (the module's files but its
// tests, the Go toolchain and the build settings), so the packages whose
// tests run it, and the next run of the tests, share one build for as long
// as nothing it is built from changes.
type Binary struct {
	pkg     string // the program's package, relative to the module's root
	once    sync.Once
	resolve sync.Once
	env     []string          // the go command's, its caches resolved
	goenv   map[string]string // what the build depends on besides the files
	path    string
	err     error
	// tmp is the directory of a build for this process only (no
	// directory to keep builds in), removed when the tests end.
	tmp string
}

// buildSettings are the go command's settings a build depends on, besides
// the module's files; GOMOD names the module.
var buildSettings = []string{"GOMOD", "GOVERSION", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOEXPERIMENT", "GOFLAGS", "CGO_ENABLED", "CC", "GOCACHE", "GOMODCACHE", "GOPATH"}

// NewBinary is the real partnertui. Nothing is built yet.
func NewBinary() *Binary { return NewProgram(".") }

// NewProgram is the program of the module's package pkg ("./dir/cmd"),
// as NewBinary is partnertui.
func NewProgram(pkg string) *Binary { return &Binary{pkg: pkg} }

// settings asks the go command, once, for what a build depends on besides
// the files and for its caches.
func (b *Binary) settings() error {
	b.resolve.Do(func() {
		out, err := exec.Command("go", append([]string{"env", "-json"}, buildSettings...)...).Output()
		if err != nil {
			b.err = fmt.Errorf("go env: %w", err)
			return
		}
		b.goenv = map[string]string{}
		if err := json.Unmarshal(out, &b.goenv); err != nil {
			b.err = fmt.Errorf("go env: %w", err)
			return
		}
		if b.goenv["GOMOD"] == "" || b.goenv["GOMOD"] == os.DevNull {
			b.err = errors.New("the tests do not run inside the partnertui module")
			return
		}
		b.env = os.Environ()
		for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
			b.env = append(b.env, v+"="+b.goenv[v])
		}
	})
	return b.err
}

// Path builds the binary the first time it is asked for, unless a build
// of the same files and settings is kept, and returns it.
func (b *Binary) Path(t testing.TB) string {
	t.Helper()
	b.once.Do(func() {
		if b.err = b.settings(); b.err == nil {
			b.path, b.err = b.find()
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// find returns the kept build of what the module holds now, building it
// (once, whichever process gets there first) when there is none.
func (b *Binary) find() (string, error) {
	root := filepath.Dir(b.goenv["GOMOD"])
	key, err := b.key(root)
	if err != nil {
		return "", err
	}
	keep, err := keepDir()
	if err != nil {
		// No directory of our own to keep it in: a build for this
		// process only, in a directory removed when it exits.
		dir, terr := os.MkdirTemp("", "partnertui-test-bin-*")
		if terr != nil {
			return "", terr
		}
		b.tmp = dir
		return filepath.Join(dir, b.name()), b.build(root, filepath.Join(dir, b.name()))
	}
	dir := filepath.Join(keep, key)
	bin := filepath.Join(dir, b.name())
	now := time.Now()
	if fi, err := os.Lstat(bin); err == nil && fi.Mode().IsRegular() {
		_ = os.Chtimes(dir, now, now) // in use: not pruned
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	lock := flock.New(filepath.Join(dir, ".lock"))
	if err := lock.Lock(); err != nil {
		return "", err
	}
	defer lock.Unlock()
	if fi, err := os.Lstat(bin); err == nil && fi.Mode().IsRegular() {
		return bin, nil // another process built it meanwhile
	}
	tmp := bin + ".tmp-" + strconv.Itoa(os.Getpid())
	if err := b.build(root, tmp); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	prune(keep, key, now)
	return bin, nil
}

// name is the program's file name: its package's last element, the
// module's for the root package.
func (b *Binary) name() string {
	if b.pkg == "." {
		return "partnertui"
	}
	return filepath.Base(b.pkg)
}

func (b *Binary) build(root, out string) error {
	cmd := exec.Command("go", "build", "-o", out, b.pkg)
	cmd.Dir, cmd.Env = root, b.env
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, msg)
	}
	return nil
}

// key is a digest of what a build of the module at root depends on: every
// file of the module but its tests and its git metadata, by path and
// content, and the go command's settings.
func (b *Binary) key(root string) (string, error) {
	h := sha256.New()
	for _, k := range buildSettings {
		fmt.Fprintf(h, "%s=%s\x00", k, b.goenv[k])
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case d.IsDir() && name == ".git":
			return filepath.SkipDir
		case d.IsDir(), strings.HasSuffix(name, "_test.go"):
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s\x00", rel)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			fmt.Fprintf(h, "-> %s\x00", target)
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		n, err := io.Copy(h, f)
		fmt.Fprintf(h, "\x00%d\x00", n)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("reading the module's files: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// keepDir is where builds are kept: a directory of the user's own in the
// system's temporary directory, which nobody else can write to (a binary
// planted there would be run by the tests).
func keepDir() (string, error) {
	dir := filepath.Join(os.TempDir(), "partnertui-test-bin-"+strconv.Itoa(os.Getuid()))
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 || !ownedByUs(fi) {
		return "", fmt.Errorf("%s is not a directory of this user's alone", dir)
	}
	return dir, nil
}

// keptFor is how long a build nobody asked for is kept.
const keptFor = 24 * time.Hour

// prune removes the builds of other files that nobody asked for since
// keptFor.
func prune(keep, key string, now time.Time) {
	entries, err := os.ReadDir(keep)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && e.IsDir() && e.Name() != key && now.Sub(fi.ModTime()) > keptFor {
			os.RemoveAll(filepath.Join(keep, e.Name()))
		}
	}
}

// GoEnv is the environment the binary is built with, for a test that
// builds another program too; nil when the go command could not say.
func (b *Binary) GoEnv() []string {
	if b.settings() != nil {
		return nil
	}
	return b.env
}

// Cleanup removes a build made for this process only (when there was no
// directory to keep builds in); a kept build stays for the next run.
func (b *Binary) Cleanup() {
	if b.tmp != "" {
		os.RemoveAll(b.tmp)
	}
}

// waitingTests is how many tests of a package whose tests mostly wait run
// at once unless -parallel says otherwise: they wait on other processes
// (a terminal to show a screen, a browser, a webhook receiver), on an
// emulator's rate window or a transfer's booking, so go test's default of
// one per core would leave the cores idle.
const waitingTests = 8

// RunWaiting is the TestMain of a package whose tests mostly wait: it runs
// them, up to waitingTests at once unless -parallel is given, then
// cleanups, and exits with the tests' code.
func RunWaiting(m *testing.M, cleanups ...func()) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(max(runtime.GOMAXPROCS(0), waitingTests)))
	}
	code := m.Run()
	for _, c := range cleanups {
		c()
	}
	os.Exit(code)
}

// Main is RunWaiting for a package whose tests run the real binary: it
// sets *bin.
func Main(m *testing.M, bin **Binary) {
	*bin = NewBinary()
	RunWaiting(m, (*bin).Cleanup)
}
