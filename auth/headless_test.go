package auth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
)

func TestHeadless(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		goos string
		env  []string
		want bool
	}{
		{"linux", []string{"DISPLAY", ":0"}, false},
		{"linux", []string{"WAYLAND_DISPLAY", "wayland-0"}, false},
		{"linux", nil, true},
		{"freebsd", nil, true},
		{"linux", []string{"DISPLAY", ":0", "SSH_CONNECTION", "10.0.0.1 5555 10.0.0.2 22"}, true},
		{"linux", []string{"DISPLAY", ":0", "SSH_TTY", "/dev/pts/3"}, true},
		{"darwin", nil, false},
		{"darwin", []string{"SSH_TTY", "/dev/ttys001"}, true},
		{"windows", nil, false},
	} {
		if got := headless(envOf(tc.env...), tc.goos); got != tc.want {
			t.Errorf("headless(%v, %s) = %v, want %v", tc.env, tc.goos, got, tc.want)
		}
	}
	if Headless(envOf("SSH_TTY", "/dev/pts/1")) != true {
		t.Error("Headless ignores SSH_TTY")
	}
}

// CanOpen: a $BROWSER the user set is always run; the system's opener
// only where it reaches the user's screen.
func TestCanOpen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  []string
		want bool
	}{
		{[]string{"DISPLAY", ":0"}, true},
		{[]string{"DISPLAY", ":0", "SSH_CONNECTION", "10.0.0.1 5555 10.0.0.2 22"}, false},
		{[]string{"SSH_CONNECTION", "10.0.0.1 5555 10.0.0.2 22", "BROWSER", "w3m"}, true},
		{[]string{"BROWSER", "  "}, false},
	} {
		// Linux's rules: the machine's own, whatever runs the test, are
		// TestHeadless's.
		if got := defaultOpener(envOf(tc.env...), "linux") != nil; got != tc.want {
			t.Errorf("opener(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
	if CanOpen(envOf("BROWSER", "w3m", "SSH_TTY", "/dev/pts/1")) != true {
		t.Error("CanOpen ignores $BROWSER")
	}
}

func TestSSHForwardCommand(t *testing.T) {
	t.Parallel()
	host, _ := os.Hostname()
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"SSH_CONNECTION", "198.51.100.4 50022 203.0.113.7 22", "USER", "alice"}, "ssh -N -L 8123:127.0.0.1:8123 alice@203.0.113.7"},
		{[]string{"SSH_CONNECTION", "198.51.100.4 50022 2001:db8::7 2222", "LOGNAME", "bob"}, "ssh -N -L 8123:127.0.0.1:8123 -p 2222 bob@2001:db8::7"},
		{[]string{"SSH_CONNECTION", "x y $(rm -rf) 22", "USER", "a b"}, "ssh -N -L 8123:127.0.0.1:8123 " + host},
		{nil, "ssh -N -L 8123:127.0.0.1:8123 " + host},
	} {
		if got := SSHForwardCommand(8123, envOf(tc.env...)); got != tc.want {
			t.Errorf("SSHForwardCommand(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

// A fixed port from redirect_uri is the one the prompt and the ssh -L
// command name; a desktop session opens the browser and says so.
func TestPromptHonoursFixedPort(t *testing.T) {
	t.Parallel()
	f := newFakeAS(t)
	port := freePort(t)
	env := f.env(config.Sandbox)
	env.RedirectURI = fmt.Sprintf("http://127.0.0.1:%d/cb", port)
	s := newTestSession(t, env, t.TempDir(), nil)
	p, done := startLogin(t, s, LoginOptions{Getenv: sshSession()})
	if p.CallbackPort != port || !strings.HasPrefix(p.SSHForward, fmt.Sprintf("ssh -N -L %d:127.0.0.1:%d ", port, port)) {
		t.Fatalf("prompt = %+v, want port %d", p, port)
	}
	if err := p.Paste(f.redirect(p.URL)); err != nil {
		t.Fatal(err)
	}
	waitLogin(t, done)

	p, done = startLogin(t, s, LoginOptions{Getenv: envOf("DISPLAY", ":0"), Open: f.approve})
	if p.Headless || !p.Opening || p.SSHForward != "" {
		t.Fatalf("desktop prompt = %+v", p)
	}
	if r := waitLogin(t, done); r.err != nil {
		t.Fatal(r.err)
	}
}

// The browser opener's own output never reaches the terminal (a TUI would
// be drawn over): the test runs OpenBrowser in a child process and checks
// the child's stdout and stderr. A failing opener's last error line is
// kept in the error instead.
func TestOpenBrowserOutputNeverReachesTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noisy := filepath.Join(dir, "noisy")
	writeScript(t, noisy, "#!/bin/sh\necho OPENER-STDOUT\necho OPENER-STDERR >&2\n[ \"$1\" = fail ] && { echo 'xdg-open: no method available' >&2; exit 3; }\nexit 0\n")
	os.Symlink(noisy, filepath.Join(dir, "xdg-open"))
	for _, tc := range []struct {
		name, browser, path, url, want string
	}{
		{"$BROWSER", noisy, os.Getenv("PATH"), "http://127.0.0.1/ok", "opened"},
		{"$BROWSER fails", noisy, os.Getenv("PATH"), "fail", "xdg-open: no method available"},
		{"xdg-open", "", dir, "http://127.0.0.1/ok", "opened"},
		{"xdg-open fails", "", dir, "fail", "xdg-open: no method available"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestOpenBrowserChild$")
		cmd.Env = append(os.Environ(), "PT_OPEN_CHILD_URL="+tc.url, "BROWSER="+tc.browser, "PATH="+tc.path)
		out, _ := cmd.CombinedOutput()
		if strings.Contains(string(out), "OPENER-STD") {
			t.Errorf("%s: the opener's output reached the terminal:\n%s", tc.name, out)
		}
		_, result, _ := strings.Cut(string(out), "result: ")
		if result, _, _ = strings.Cut(result, "\n"); !strings.Contains(result, tc.want) {
			t.Errorf("%s: child said:\n%s", tc.name, out)
		}
	}
}

// TestOpenBrowserChild is TestOpenBrowserOutputNeverReachesTerminal's
// child process; it does nothing in a normal run.
func TestOpenBrowserChild(t *testing.T) {
	target := os.Getenv("PT_OPEN_CHILD_URL")
	if target == "" {
		t.Skip("only run as a child of TestOpenBrowserOutputNeverReachesTerminal")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := openBrowser(ctx, target, os.Getenv, "linux")
	switch {
	case err == nil:
		fmt.Println("result: opened")
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Println("result: timeout")
	default:
		fmt.Println("result: " + err.Error())
	}
}
