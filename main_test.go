package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/internal/paths"
)

// binary builds the real partnertui once per test run. The go command's
// caches are resolved in TestMain, before any test points HOME elsewhere:
// otherwise each build would start from an empty build and module cache.
type binary struct {
	once sync.Once
	env  []string
	path string
	err  error
}

func (b *binary) get(t *testing.T) string {
	t.Helper()
	b.once.Do(func() {
		cmd := exec.Command("go", "build", "-o", b.path, ".")
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

// realBinary is shared by the tests that run partnertui as a user would.
var realBinary binary

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "partnertui-test-bin-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	env := os.Environ()
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if out, err := exec.Command("go", "env", v).Output(); err == nil {
			env = append(env, v+"="+strings.TrimSpace(string(out)))
		}
	}
	realBinary = binary{env: env, path: filepath.Join(dir, "partnertui")}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// isolate points every XDG directory and HOME at a fresh temporary tree so a
// test never touches the developer's real config or tokens.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv("PARTNERTUI_CONFIG", "")
	t.Setenv("BROWSER", "false") // never open a real browser from a test
	paths.Reload()
	t.Cleanup(paths.Reload)
	return home
}

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code = run(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpListsEveryCommand(t *testing.T) {
	isolate(t)
	code, out, errOut := runCLI(t, "--help")
	if code != exitOK {
		t.Fatalf("--help exited %d, stderr: %s", code, errOut)
	}
	for _, c := range []string{"login", "logout", "status", "accounts", "account", "config", "emulator", "version", "--env", "--demo", "--config"} {
		if !strings.Contains(out, c) {
			t.Errorf("--help does not mention %q:\n%s", c, out)
		}
	}
}

func TestVersion(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := runCLI(t, args...)
		if code != exitOK || !strings.Contains(out, version) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0 and the version %s", args, code, out, errOut, version)
		}
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	isolate(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "unknown flag"},
		{[]string{"nosuchcommand"}, "unknown command"},
		{[]string{"account"}, "account ID"},
		{[]string{"accounts", "--first", "0"}, "--first"},
		{[]string{"--env", "staging", "status"}, "staging"},
		{[]string{"status", "extra"}, "no arguments"},
		{[]string{"emulator", "--accounts", "100001"}, "--accounts"},
		{[]string{"emulator", "--token-ttl", "10ms"}, "at least 1s"},
		{[]string{"emulator", "--rate-limit", "lots"}, "rate"},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, c.args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, exitUsage, errOut)
		}
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%v: stderr %q does not mention %q", c.args, errOut, c.want)
		}
		if out != "" {
			t.Errorf("%v: wrote %q to stdout; errors belong on stderr", c.args, out)
		}
	}
}

func TestConfigInitAndPath(t *testing.T) {
	home := isolate(t)
	code, out, errOut := runCLI(t, "config", "path")
	want := filepath.Join(home, "config", "partnertui", "config.toml")
	if code != exitOK || strings.TrimSpace(out) != want {
		t.Fatalf("config path: exit %d, %q (stderr %q); want %q", code, out, errOut, want)
	}
	p := filepath.Join(home, "custom.toml")
	if code, _, errOut := runCLI(t, "--config", p, "config", "init"); code != exitOK {
		t.Fatalf("config init: exit %d: %s", code, errOut)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("template mode %v, want 0600", fi.Mode().Perm())
	}
	if code, _, _ := runCLI(t, "--config", p, "config", "init"); code == exitOK {
		t.Errorf("config init overwrote an existing file")
	}
}

func TestNoConfigSaysWhatToDo(t *testing.T) {
	isolate(t)
	code, _, errOut := runCLI(t, "accounts")
	if code != exitFailure {
		t.Fatalf("exit %d, want %d", code, exitFailure)
	}
	if !strings.Contains(errOut, "config init") || !strings.Contains(errOut, "--demo") {
		t.Errorf("error %q should point at `config init` and --demo", errOut)
	}
}

// TestDemoCommands runs the one-shot commands on the embedded emulator: the
// whole stack (emulator, demo sign-in through the forms, token store, API
// client, output) in one process.
func TestDemoCommands(t *testing.T) {
	home := isolate(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)

	code, out, errOut := runCLI(t, "--demo", "accounts", "--json", "--first", "5")
	if code != exitOK {
		t.Fatalf("--demo accounts: exit %d: %s", code, errOut)
	}
	var accounts []map[string]any
	if err := json.Unmarshal([]byte(out), &accounts); err != nil {
		t.Fatalf("--json output is not one JSON array: %v\n%s", err, out)
	}
	if len(accounts) != 5 {
		t.Fatalf("got %d accounts, want 5", len(accounts))
	}
	id, _ := accounts[0]["id"].(string)
	if id == "" || accounts[0]["IBAN"] == nil {
		t.Fatalf("account lacks the schema's id/IBAN fields: %v", accounts[0])
	}

	code, out, errOut = runCLI(t, "--demo", "account", id, "--json")
	if code != exitOK {
		t.Fatalf("--demo account: exit %d: %s", code, errOut)
	}
	var one map[string]any
	if err := json.Unmarshal([]byte(out), &one); err != nil || one["id"] != id {
		t.Fatalf("account --json: %v %v\n%s", err, one["id"], out)
	}

	code, out, errOut = runCLI(t, "--demo", "--env", "live", "status", "--json")
	if code != exitOK {
		t.Fatalf("--demo status: exit %d: %s", code, errOut)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil || st["signed_in"] != true || st["env"] != "live" {
		t.Fatalf("status --json: %v\n%s", err, out)
	}

	// A demo leaves nothing behind: no token directory, no config.
	left, _ := filepath.Glob(filepath.Join(tmp, "partnertui-demo-*"))
	if len(left) > 0 {
		t.Errorf("demo token directories left behind: %v", left)
	}
	if _, err := os.Stat(filepath.Join(home, "config", "partnertui")); err == nil {
		t.Errorf("--demo created a real config directory")
	}
	if matches, _ := filepath.Glob(filepath.Join(home, "state", "partnertui", "*.json")); len(matches) > 0 {
		t.Errorf("--demo wrote token files into the real state directory: %v", matches)
	}
}

// TestTmuxEndToEnd drives the real binary the way a user does: in a
// terminal (tmux), through sign-in, the account list, the detail, the
// environment switch and quit.
func TestTmuxEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("tmux is required in CI (.ci/run installs it): %v", err)
		}
		t.Skip("tmux is not installed: apt-get install -y tmux to run the end-to-end test")
	}
	home := isolate(t)
	bin := realBinary.get(t)

	tm := newTmux(t, home)
	tm.start(100, 30, bin, "--demo")
	tm.waitFor("sign-in screen", "Sign in", "SANDBOX")
	tm.keys("a")
	tm.waitFor("account list", "Accounts", "FR76")
	tm.keys("j", "j", "Enter")
	tm.waitFor("account detail", "IBAN", "BIC", "Available", "✓")
	tm.keys("e")
	tm.waitFor("confirmation", "Switch to LIVE?")
	tm.keys("y")
	tm.waitFor("live sign-in", "LIVE", "Sign in")
	tm.keys("a")
	tm.waitFor("live account list", "LIVE", "Accounts")
	tm.keys("e")
	tm.waitFor("back on sandbox", "SANDBOX", "Accounts")
	tm.keys("q")
	tm.waitExit()
	if left, _ := filepath.Glob(filepath.Join(tm.tmpdir, "partnertui-demo-*")); len(left) > 0 {
		t.Errorf("the demo left its token directory behind: %v", left)
	}
}

type tmux struct {
	t       *testing.T
	session string
	env     []string
	socket  string
	tmpdir  string // the program's TMPDIR, where --demo keeps its tokens
}

func newTmux(t *testing.T, home string) *tmux {
	tmpdir := t.TempDir()
	return &tmux{
		t:       t,
		session: "partnertui-e2e",
		socket:  filepath.Join(t.TempDir(), "tmux.sock"),
		tmpdir:  tmpdir,
		env: []string{"HOME=" + home, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH"),
			"XDG_CONFIG_HOME=" + os.Getenv("XDG_CONFIG_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME"),
			"BROWSER=false", "TMPDIR=" + tmpdir},
	}
}

func (m *tmux) cmd(args ...string) *exec.Cmd {
	c := exec.Command("tmux", append([]string{"-S", m.socket}, args...)...)
	c.Env = m.env
	return c
}

func (m *tmux) start(w, h int, bin string, args ...string) {
	m.t.Helper()
	cmdline := append([]string{"new-session", "-d", "-s", m.session, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), bin}, args...)
	if out, err := m.cmd(cmdline...).CombinedOutput(); err != nil {
		m.t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	m.t.Cleanup(func() { _ = m.cmd("kill-server").Run() })
}

func (m *tmux) keys(keys ...string) {
	m.t.Helper()
	for _, k := range keys {
		if out, err := m.cmd("send-keys", "-t", m.session, k).CombinedOutput(); err != nil {
			m.t.Fatalf("tmux send-keys %q: %v\n%s", k, err, out)
		}
	}
}

func (m *tmux) capture() string {
	out, _ := m.cmd("capture-pane", "-p", "-t", m.session).Output()
	return string(out)
}

// poll checks cond every 50 ms until it holds or the timeout passes.
// Polling is the only way to observe another process's terminal.
func poll(timeout time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// waitFor waits until every text is on the screen; the test fails with the
// last screen.
func (m *tmux) waitFor(what string, texts ...string) {
	m.t.Helper()
	var screen string
	onScreen := func() bool {
		screen = m.capture()
		for _, s := range texts {
			if !strings.Contains(screen, s) {
				return false
			}
		}
		return true
	}
	if !poll(60*time.Second, onScreen) {
		m.t.Fatalf("waiting for the %s (%q), the screen is:\n%s", what, texts, screen)
	}
}

func (m *tmux) waitExit() {
	m.t.Helper()
	gone := func() bool { return m.cmd("has-session", "-t", m.session).Run() != nil }
	if !poll(15*time.Second, gone) {
		m.t.Fatalf("partnertui did not exit after q; the screen is:\n%s", m.capture())
	}
}

// TestEmulatorCommandPrintsOneJSONLine: `partnertui emulator --json` prints
// exactly one JSON object on one line, serves until interrupted, then exits 0.
func TestEmulatorCommandPrintsOneJSONLine(t *testing.T) {
	isolate(t)
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"emulator", "--json", "--accounts", "10", "--rate-limit", "50/1m"}, pw, &errb)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the first line: %v (stderr %q)", err, errb.String())
	}
	var info struct {
		APIURL       string `json:"api_url"`
		AuthURL      string `json:"auth_url"`
		Environments map[string]struct {
			ClientID          string `json:"client_id"`
			ClientSecret      string `json:"client_secret"`
			RedirectURI       string `json:"redirect_uri"`
			GraphQLURL        string `json:"graphql_url"`
			TestingGraphQLURL string `json:"testing_graphql_url"`
		} `json:"environments"`
		DemoUsers []struct {
			Phone string `json:"phone"`
		} `json:"demo_users"`
	}
	if err := json.Unmarshal([]byte(line), &info); err != nil {
		t.Fatalf("first line is not one JSON object: %v\n%s", err, line)
	}
	sb, lv := info.Environments["sandbox"], info.Environments["live"]
	if !strings.HasPrefix(sb.ClientID, "SANDBOX_") || !strings.HasPrefix(lv.ClientID, "LIVE_") ||
		!strings.HasSuffix(sb.GraphQLURL, "/sandbox-partner/graphql") || !strings.HasSuffix(lv.GraphQLURL, "/live-partner/graphql") ||
		!strings.HasSuffix(sb.TestingGraphQLURL, "/sandbox-partner-admin/graphql") || lv.TestingGraphQLURL != "" ||
		sb.ClientSecret == "" || sb.RedirectURI == "" || len(info.DemoUsers) == 0 || info.APIURL == "" || info.AuthURL == "" {
		t.Fatalf("incomplete emulator info: %+v", info)
	}
	resp, err := http.Get(info.AuthURL + "/.well-known/openid-configuration")
	if err != nil {
		t.Fatalf("the emulator does not answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("discovery answered %d", resp.StatusCode)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("emulator exited %d after the interrupt: %s", code, errb.String())
	}
	if rest, _ := io.ReadAll(pr); len(bytes.TrimSpace(rest)) != 0 {
		t.Errorf("more than one line on stdout: %q", rest)
	}
}
