package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/cli/browser"
	"github.com/partnertui/partnertui/internal/safetext"
)

// Headless reports whether a browser started here would not reach the
// user's screen: an SSH session (SSH_CONNECTION or SSH_TTY set), or, on
// Linux and the BSDs, a session with neither DISPLAY nor WAYLAND_DISPLAY.
// The sign-in then prints the URL and the ssh -L command for the callback,
// and accepts the redirected address pasted back. getenv is os.Getenv
// outside tests.
func Headless(getenv func(string) string) bool { return headless(getenv, runtime.GOOS) }

func headless(getenv func(string) string, goos string) bool {
	if overSSH(getenv) {
		return true
	}
	switch goos {
	case "darwin", "windows", "ios", "android", "plan9", "js", "wasip1":
		// No X11/Wayland variables to go by: the desktop is there.
		return false
	}
	return getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == ""
}

// SSHForwardCommand is the command to run on the computer with the browser
// so that the sign-in's redirect to http://127.0.0.1:port reaches the
// callback listening here: `ssh -N -L port:127.0.0.1:port [-p N]
// [user@]host`, with this machine's address as the SSH session names it
// (SSH_CONNECTION), else its host name.
func SSHForwardCommand(port int, getenv func(string) string) string {
	p := strconv.Itoa(port)
	cmd := "ssh -N -L " + p + ":127.0.0.1:" + p
	host := ""
	// SSH_CONNECTION is "client-ip client-port server-ip server-port".
	if f := strings.Fields(getenv("SSH_CONNECTION")); len(f) == 4 && shellSafe(f[2]) && shellSafe(f[3]) {
		host = f[2]
		if f[3] != "22" {
			cmd += " -p " + f[3]
		}
	}
	if host == "" {
		if h, err := os.Hostname(); err == nil && shellSafe(h) {
			host = h
		}
	}
	if host == "" {
		host = "THIS-HOST"
	}
	user := getenv("USER")
	if user == "" {
		user = getenv("LOGNAME")
	}
	if user != "" && shellSafe(user) {
		host = user + "@" + host
	}
	return cmd + " " + host
}

// shellSafe: s can be pasted into a shell as it is.
func shellSafe(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:_-%") == ""
}

// overSSH: this is an SSH session, whose programs run far from the user's
// screen.
func overSSH(getenv func(string) string) bool {
	return getenv("SSH_CONNECTION") != "" || getenv("SSH_TTY") != ""
}

// defaultOpener is how a sign-in opens its URL when the caller gave no
// Open; nil when nothing is to be opened. $BROWSER, when the user set it,
// is always run, over SSH and without a display too (w3m on a server,
// wslview on WSL, a script: the user knows what it reaches). The system's
// opener is not run when headless: over SSH it would start a browser on
// this machine, not the user's.
func defaultOpener(getenv func(string) string, goos string) func(context.Context, string) error {
	explicit := strings.TrimSpace(getenv("BROWSER")) != ""
	if !explicit && headless(getenv, goos) {
		return nil
	}
	return func(ctx context.Context, u string) error { return openBrowser(ctx, u, getenv, goos) }
}

// CanOpen reports whether OpenBrowser would reach the user: a $BROWSER
// they set always does; the system's opener does unless the session is
// headless (over SSH it would start a browser on this machine).
func CanOpen(getenv func(string) string) bool { return defaultOpener(getenv, runtime.GOOS) != nil }

// OpenBrowser opens url with $BROWSER as getenv reads it (a command that receives the URL as
// its argument; "%s" in it is replaced by the URL) when set, else with the
// system's opener. The opener's output never reaches the terminal (a TUI
// would be drawn over): standard output is discarded and standard error is
// kept only to explain a failure. It waits for the opener so a failure is
// seen.
func OpenBrowser(ctx context.Context, target string, getenv func(string) string) error {
	return openBrowser(ctx, target, getenv, runtime.GOOS)
}

func openBrowser(ctx context.Context, target string, getenv func(string) string, goos string) error {
	if cmdline := strings.TrimSpace(getenv("BROWSER")); cmdline != "" {
		// The Unix convention allows a colon-separated list; the first
		// entry is the preferred browser.
		first := strings.Split(cmdline, ":")[0]
		fields := strings.Fields(first)
		if len(fields) == 0 {
			return errors.New("$BROWSER is blank")
		}
		args := fields[1:]
		substituted := false
		for i, a := range args {
			if strings.Contains(a, "%s") {
				args[i] = strings.ReplaceAll(a, "%s", target)
				substituted = true
			}
		}
		if !substituted {
			args = append(args, target)
		}
		if err := runOpener(ctx, getenv("TMPDIR"), fields[0], args...); err != nil {
			return fmt.Errorf("$BROWSER command %w", err)
		}
		return nil
	}
	openers := systemOpeners(goos)
	if openers == nil {
		// Windows: ShellExecute, which writes nothing to the console.
		return browser.OpenURL(target)
	}
	for _, name := range openers {
		if _, err := exec.LookPath(name); err == nil {
			return runOpener(ctx, getenv("TMPDIR"), name, target)
		}
	}
	return fmt.Errorf("no browser opener found (looked for %s)", strings.Join(openers, ", "))
}

// systemOpeners are the programs github.com/cli/browser would run, run
// here instead because that package writes their output to the terminal
// through package-level writers; nil means use that package (Windows).
func systemOpeners(goos string) []string {
	switch goos {
	case "windows":
		return nil
	case "darwin":
		return []string{"open"}
	case "linux":
		return []string{"xdg-open", "x-www-browser", "www-browser", "wslview"}
	}
	return []string{"xdg-open"}
}

// maxOpenerOutput bounds what is read back of an opener's error output.
const maxOpenerOutput = 4 << 10

// runOpener runs one opener with no terminal attached. Its error output
// goes to a temporary file rather than a pipe: a browser it starts inherits
// the descriptor and may write for hours, and a pipe would either keep us
// waiting or, once closed, kill it with SIGPIPE. The file is unlinked as
// soon as it is open (the descriptor still reads and writes it): a sign-in
// that ends while the opener runs ends the process too, and a removal
// deferred to the opener's end would then never run. The file is made in
// tmp ($TMPDIR as the caller's getenv reads it; "" is the system's
// temporary directory).
func runOpener(ctx context.Context, tmp, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = time.Second
	errOut, err := os.CreateTemp(tmp, "partnertui-browser-*.log")
	if err == nil {
		if os.Remove(errOut.Name()) != nil {
			// Windows removes no open file: remove it once closed.
			defer os.Remove(errOut.Name())
		}
		defer errOut.Close()
		cmd.Stderr = errOut
	}
	// Stdin and Stdout stay nil: the null device.
	if err := cmd.Run(); err != nil {
		if errOut != nil {
			if msg := lastLine(readTail(errOut, maxOpenerOutput)); msg != "" {
				return fmt.Errorf("%s failed: %w: %s", name, err, safetext.Truncate(msg, 200))
			}
		}
		return fmt.Errorf("%s failed: %w", name, err)
	}
	return nil
}

// readTail returns up to limit bytes from the end of f.
func readTail(f *os.File, limit int64) string {
	st, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(st.Size()-limit, 0)
	b, _ := io.ReadAll(io.NewSectionReader(f, off, st.Size()-off))
	return strings.TrimSpace(string(b))
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[i+1:])
	}
	return s
}
