package testkit

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Binary is the real partnertui, built once per test process for the
// tests that run it as a user would.
type Binary struct {
	once sync.Once
	env  []string
	dir  string
	path string
	err  error
}

// NewBinary resolves the go command's caches at once, so that the build
// finds them whatever HOME the test's processes are given. Nothing is
// built yet.
func NewBinary() (*Binary, error) {
	dir, err := os.MkdirTemp("", "partnertui-test-bin-*")
	if err != nil {
		return nil, err
	}
	env := os.Environ()
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if out, err := exec.Command("go", "env", v).Output(); err == nil {
			env = append(env, v+"="+strings.TrimSpace(string(out)))
		}
	}
	return &Binary{env: env, dir: dir, path: filepath.Join(dir, "partnertui")}, nil
}

// Path builds the binary the first time it is asked for, and returns it.
func (b *Binary) Path(t testing.TB) string {
	t.Helper()
	b.once.Do(func() {
		cmd := exec.Command("go", "build", "-o", b.path, "github.com/partnertui/partnertui")
		cmd.Env = b.env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// Remove deletes the binary; TestMain calls it once the tests are run.
func (b *Binary) Remove() { os.RemoveAll(b.dir) }

// GoEnv is the environment the binary is built with, for a test that
// builds another program too.
func (b *Binary) GoEnv() []string { return b.env }

// waitingTests is how many tests of a package that runs the real binary
// run at once unless -parallel says otherwise: they mostly wait on other
// processes (a terminal to show a screen, an emulator's rate window, a
// transfer's booking), so go test's default of one per core would leave
// the cores idle.
const waitingTests = 8

// Main is a TestMain for a package whose tests run the real binary: it
// resolves the go command's caches, sets *bin, runs the tests (up to
// waitingTests at once unless -parallel is given), removes the binary and
// exits with their code.
func Main(m *testing.M, bin **Binary) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(max(runtime.GOMAXPROCS(0), waitingTests)))
	}
	b, err := NewBinary()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*bin = b
	code := m.Run()
	b.Remove()
	os.Exit(code)
}
