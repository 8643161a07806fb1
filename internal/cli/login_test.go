package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/internal/testkit"
)

// TestHeadlessSignInSaysWhatToDo: over SSH the sign-in prints the URL, the
// exact ssh -L command for the callback's port, and how to paste the
// redirected address back; stdout stays empty.
func TestHeadlessSignInSaysWhatToDo(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	p := auth.SignInPrompt{Env: "sandbox", URL: "https://oauth.example/oauth2/auth?x=1", CallbackPort: 43123, Headless: true,
		SSHForward: "ssh -N -L 43123:127.0.0.1:43123 alice@203.0.113.7"}
	showSignIn(IO{In: strings.NewReader("not a url\n"), Out: &out, Err: &errb}, p)
	got := errb.String()
	for _, want := range []string{p.URL, p.SSHForward, "paste here the address the browser ends on (http://127.0.0.1:43123/", "Waiting for the browser"} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr lacks %q:\n%s", want, got)
		}
	}
	if out.Len() != 0 {
		t.Errorf("stdout = %q", out.String())
	}
}

func TestSignInWithABrowserSaysItOpens(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	showSignIn(IO{Err: &errb}, auth.SignInPrompt{Env: "live", URL: "https://o/a", Opening: true})
	if !strings.Contains(errb.String(), "in the browser that is opening") || strings.Contains(errb.String(), "paste") {
		t.Errorf("stderr = %q", errb.String())
	}
}

// TestLoginEndsWithTheUsersName: login names who signed in as status and
// the app do, not by the user id.
func TestLoginEndsWithTheUsersName(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "--demo", "status", "--env", "sandbox", "--json")
	var rep statusReport
	if err := json.Unmarshal([]byte(out), &rep); code != ExitOK || err != nil || rep.User == nil || rep.User.FullName == "" {
		t.Fatalf("status: exit %d, %v: %s", code, err, errOut)
	}
	code, _, errOut = runCLI(t, "--demo", "login")
	if code != ExitOK || !strings.Contains(errOut, "Signed in to sandbox as "+rep.User.FullName+" (client ") || strings.Contains(errOut, rep.User.ID) {
		t.Errorf("login: exit %d, stderr:\n%s\nwant it to end with the name %q", code, errOut, rep.User.FullName)
	}
}

// TestSecondLogoutSaysNotSignedIn: logout says it signed out only when
// there was a session.
func TestSecondLogoutSaysNotSignedIn(t *testing.T) {
	t.Parallel()
	cfg, _ := signedInUserEmulator(t, 20)
	for i, want := range []string{"Signed out of sandbox.", "you were not signed in to sandbox"} {
		code, out, errOut := runCLI(t, "logout", "--config", cfg)
		if code != ExitOK || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("logout %d: exit %d, stderr %q, want %q", i+1, code, errOut, want)
		}
	}
}

// TestHeadlessSignInWithABrowserCommand: without a display, a $BROWSER
// the user set is run, and the instructions say so besides the URL and the
// paste field.
func TestHeadlessSignInWithABrowserCommand(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	showSignIn(IO{In: strings.NewReader(""), Err: &errb}, auth.SignInPrompt{Env: "sandbox", URL: "https://o/a", CallbackPort: 43123, Headless: true, Opening: true})
	for _, want := range []string{"https://o/a", "paste here", "browser command is being run"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}

// TestPastesOfAnySize: with stdin a pipe, a 100 KB line is refused with a
// message and the prompt goes on, so the right address pasted next is
// used; so is a last line without a newline.
func TestPastesOfAnySize(t *testing.T) {
	t.Parallel()
	const good = "http://127.0.0.1:43123/callback?code=c&state=s"
	for name, tail := range map[string]string{"with a newline": good + "\n", "at the end of input": good} {
		pr, pw := io.Pipe()
		go func() {
			_, _ = pw.Write([]byte(strings.Repeat("x", 100_000) + "\n" + "not an address\n" + tail))
			pw.Close()
		}()
		var errb bytes.Buffer
		var got []string
		readPastes(IO{In: pr, Err: &errb}, func(s string) error {
			got = append(got, s)
			if s != good {
				return &auth.PasteError{Reason: "it carries neither an authorization code nor an error"}
			}
			return nil
		})
		if len(got) != 2 || got[1] != good {
			t.Errorf("%s: the sign-in was handed %d lines, want the short wrong one then the address: %.80q", name, len(got), got)
		}
		if !strings.Contains(errb.String(), "That line is 97 KiB long") || !strings.Contains(errb.String(), "The pasted address was not used: it carries neither an authorization code nor an error. Paste the whole address the browser ends on after you approve.") {
			t.Errorf("%s: stderr = %q", name, errb.String())
		}
	}
}

// TestLogoutDeletesTheLaunchSnapshots: the app's first screen kept on disk
// goes with the environment's session, and only that environment's.
func TestLogoutDeletesTheLaunchSnapshots(t *testing.T) {
	t.Parallel()
	cfg, _ := signedInUserEmulator(t, 20)
	dir, err := homeOf(t).Locations.StateDir()
	if err != nil {
		t.Fatal(err)
	}
	sandbox, live := filepath.Join(dir, "launch-sandbox-0123abcd.json"), filepath.Join(dir, "launch-live-0123abcd.json")
	for _, p := range []string{sandbox, live} {
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := runCLI(t, "logout", "--config", cfg); code != ExitOK {
		t.Fatalf("logout: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(sandbox); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the Sandbox snapshot outlived logout: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("logging out of Sandbox deleted Live's snapshot: %v", err)
	}
}

// TestLoginWhenSignedInAsksFirst: signed in already, login says as whom
// and asks before starting over; no answer keeps the session (exit 0,
// nothing sent to the sign-in), yes (or --force) starts the sign-in.
func TestLoginWhenSignedInAsksFirst(t *testing.T) {
	t.Parallel()
	cfg, _ := signedInUserEmulator(t, 3)
	code, out, errOut := runCLI(t, "status", "--config", cfg, "--env", "sandbox", "--json")
	var rep statusReport
	if err := json.Unmarshal([]byte(out), &rep); code != ExitOK || err != nil || rep.User == nil {
		t.Fatalf("status: exit %d, %v: %s", code, err, errOut)
	}
	code, out, errOut = runCLI(t, "login", "--config", cfg)
	if code != ExitOK || out != "" || !strings.Contains(errOut, "You are signed in to Sandbox as "+rep.User.FullName) ||
		!strings.Contains(errOut, "[y/N]") || !strings.Contains(errOut, "Still signed in") || strings.Contains(errOut, "open this URL") {
		t.Errorf("login with no answer: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "status", "--config", cfg, "--env", "sandbox"); code != ExitOK {
		t.Errorf("the session did not survive a login answered no: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		in   string
		args []string
	}{{"y\n", nil}, {"", []string{"--force"}}} {
		ctx, cancel := context.WithCancel(context.Background())
		errw := testkit.NewBuffer()
		done := make(chan int, 1)
		go func() {
			done <- Run(ctx, process(t, IO{In: strings.NewReader(c.in), Out: io.Discard, Err: errw}), append([]string{"login", "--no-browser", "--config", cfg}, c.args...))
		}()
		errw.WaitFor(t, "the sign-in to start", func(s string) bool { return strings.Contains(s, "open this URL") })
		cancel()
		<-done
		if asked := strings.Contains(errw.String(), "[y/N]"); asked == (c.in == "") {
			t.Errorf("stdin %q %v: asked %v:\n%s", c.in, c.args, asked, errw.String())
		}
	}
}
