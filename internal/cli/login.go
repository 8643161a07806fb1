package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/remedy"
	"github.com/partnertui/partnertui/internal/safetext"
)

// LoginOptions are `partnertui login`'s.
type LoginOptions struct {
	IO        IO
	F         *Factory
	NoBrowser bool
	Force     bool // sign in again without asking, when signed in already
}

// NewCmdLogin signs the user in through the browser.
func NewCmdLogin(f *Factory) *cobra.Command {
	opts := &LoginOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Sign in through your browser and keep the session",
		Long: "Opens the platform's sign-in page (the URL is always printed first), waits for the\n" +
			"browser to come back to a 127.0.0.1 callback, and stores the tokens for this environment.\n" +
			"Already signed in, it says as whom and asks before starting over (--force does not ask;\n" +
			"with no answer, nothing changes).",
		Example: "  partnertui login\n  partnertui login --env live\n  partnertui login --no-browser   # over SSH: open the URL on your own machine\n" +
			"  partnertui login --force        # sign in again, as someone else",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLogin(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.NoBrowser, "no-browser", false, "print the URL but do not open a browser")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "sign in again without asking when already signed in")
	return f.withSession(cmd, false)
}

func runLogin(ctx context.Context, opts *LoginOptions) error {
	e, err := opts.F.selected()
	if err != nil {
		return err
	}
	name := e.Name
	if !opts.Force {
		again, err := confirmLoginAgain(ctx, opts, e)
		if err != nil || !again {
			return err
		}
	}
	lo := auth.LoginOptions{
		NoBrowser: opts.NoBrowser,
		ShowURL:   func(p auth.SignInPrompt) { showSignIn(opts.IO, p) },
		Warn:      func(msg string) { fmt.Fprintln(opts.IO.Err, "warning:", safetext.StripLines(msg)) },
		Getenv:    opts.F.env,
	}
	if e.DemoApprove != nil {
		lo.Open, lo.FailOnOpenError = e.DemoApprove, true
	}
	id, err := e.Session.Login(ctx, lo)
	if err != nil {
		return err
	}
	for _, w := range id.Warnings {
		fmt.Fprintln(opts.IO.Err, "warning:", safetext.StripLines(w))
	}
	fmt.Fprintf(opts.IO.Err, "Signed in to %s as %s (client %s).\n", name, signedInAs(ctx, e, id), e.Config.ClientID)
	return nil
}

// confirmLoginAgain says who is signed in to e already, if anyone, and
// asks on stdin whether to start over: true to go on with a sign-in. A
// session that no longer works is no reason to ask. Anything but yes (no
// answer, a closed stdin) keeps the session.
func confirmLoginAgain(ctx context.Context, opts *LoginOptions, e *app.Env) (bool, error) {
	if e.Project {
		return true, nil // the API is called with the project's token: no user to name
	}
	st, err := e.Session.Status()
	if err != nil || st == nil || !st.SignedIn {
		return true, nil
	}
	u, err := e.API.User(ctx)
	switch {
	case needsSignIn(err):
		return true, nil // the session has ended: sign in again
	case err != nil:
		return false, err
	}
	who := u.FullName
	if who == "" {
		who = "user " + st.Subject
	}
	fmt.Fprintf(opts.IO.Err, "You are signed in to %s as %s (client %s). Sign in again, as anyone? [y/N] ",
		platform.EnvTitle(string(e.Name)), safetext.Strip(who), e.Config.ClientID)
	answer := readAnswer(opts.IO.In)
	if answer != "y" && answer != "yes" {
		fmt.Fprintf(opts.IO.Err, "\nStill signed in as %s; `partnertui logout --env %s` signs out, `partnertui login --env %s --force` signs in again.\n",
			safetext.Strip(who), e.Name, e.Name)
		return false, nil
	}
	return true, nil
}

// readAnswer reads one line of in, byte by byte (nothing past it is taken
// from a reader a pasted address may follow on), trimmed and lower-cased.
func readAnswer(in io.Reader) string {
	var b []byte
	one := make([]byte, 1)
	for len(b) < 64 {
		n, err := in.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				break
			}
			b = append(b, one[0])
		}
		if err != nil {
			break
		}
	}
	return strings.ToLower(strings.TrimSpace(string(b)))
}

// signedInAs names who signed in as status and the app do: the user's full
// name from the API (one request), else, when the API cannot say, the
// user id the sign-in verified.
func signedInAs(ctx context.Context, e *app.Env, id *auth.Identity) string {
	if !e.Project {
		if u, err := e.API.User(ctx); err == nil && u.FullName != "" {
			return u.FullName
		}
	}
	return "user " + id.Subject
}

// showSignIn says how to sign in: open the URL (or watch the browser
// open it); over SSH or without a display, forward the callback's port or
// paste back the address the browser ends on, which is read from stdin.
func showSignIn(streams IO, p auth.SignInPrompt) {
	w := streams.Err
	switch {
	case p.Headless:
		fmt.Fprintf(w, "Sign in to %s: open this URL in a browser on your own computer:\n\n  %s\n\n", p.Env, p.URL)
		if p.SSHForward != "" {
			fmt.Fprintf(w, "So that the browser's redirect reaches this machine, run there first:\n\n  %s\n\n", p.SSHForward)
		}
		fmt.Fprintf(w, "Or, once you have approved, paste here the address the browser ends on (http://127.0.0.1:%d/…) and press Enter.\n", p.CallbackPort)
		if p.Opening {
			fmt.Fprintln(w, "Your browser command is being run too: if it reaches you, sign in there.")
		}
		go readPastes(streams, p.Paste)
	case p.Opening:
		fmt.Fprintf(w, "Sign in to %s in the browser that is opening; if none does, open:\n\n  %s\n\n", p.Env, p.URL)
	default:
		fmt.Fprintf(w, "Sign in to %s: open this URL in your browser:\n\n  %s\n\n", p.Env, p.URL)
	}
	fmt.Fprintln(w, "Waiting for the browser (Ctrl+C to cancel)…")
}

// maxPasteLine bounds what is kept of one line of stdin: a redirected
// address is a few hundred bytes. The rest of a longer line is read and
// dropped, and the line refused, so the prompt goes on with the next one.
const maxPasteLine = 64 << 10

// readPastes hands every line of stdin to the sign-in until one signs in
// or the sign-in ends; a refused line, of whatever length, is explained
// and the wait goes on.
func readPastes(streams IO, paste func(string) error) {
	r := bufio.NewReader(streams.In)
	for {
		line, size, readErr := readLine(r, maxPasteLine)
		if size > maxPasteLine {
			fmt.Fprintf(streams.Err, "That line is %d KiB long, far longer than the address the browser ends on, so it was not used. Paste just that address.\n", size>>10)
		} else if line = strings.TrimSpace(line); line != "" {
			err := paste(line)
			switch {
			case err == nil:
				return
			case remedy.Classify(err, false).Kind == remedy.PasteAgain:
				fmt.Fprintln(streams.Err, remedy.Capitalized(describe(err, false)))
			default:
				return // the sign-in ended; Login reports why
			}
		}
		if readErr != nil {
			return
		}
	}
}

// readLine reads one line of r, of any length, and returns its first max
// bytes and its whole size (without the newline).
func readLine(r *bufio.Reader, max int) (line string, size int, err error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		size += len(chunk)
		if room := max - len(b); room > 0 {
			b = append(b, chunk[:min(len(chunk), room)]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			size--
		}
		return string(b), size, err
	}
}
