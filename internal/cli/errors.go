package cli

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/internal/remedy"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/usage"
)

// Exit codes, as the README and --help document them.
const (
	ExitOK      = 0
	ExitFailure = 1 // the command failed; the message says why and what to do
	ExitUsage   = 2 // the command line is wrong
	ExitSignIn  = 4 // a sign-in is needed first (as gh uses 4 for authentication)
)

// UsageError marks a mistake in how the command was called (exit 2): the
// engines return it too, for options that cannot work.
type UsageError = usage.Error

func usageErrorf(format string, args ...any) error { return usage.Errorf(format, args...) }

// exitError ends the command with code after it has reported the problem
// itself (status prints its report, then exits non-zero).
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func exitCode(err error) int {
	var ee *exitError
	var ue *UsageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		return ExitUsage
	case needsSignIn(err):
		return ExitSignIn
	}
	return ExitFailure
}

// needsSignIn: only a new sign-in helps.
func needsSignIn(err error) bool {
	var ue *api.UnauthorizedError
	return errors.Is(err, auth.ErrSignInRequired) || (errors.As(err, &ue) && ue.Status != 0)
}

// describe is the one sentence (or two) shown for err: the facts the lower
// layers carry, then the one thing to do, worded for the command line.
func (f *Factory) describe(err error) string { return describe(err, f.usesProjectToken()) }

// describeIn is describe for an error of the command at path.
func (f *Factory) describeIn(err error, path string) string {
	return describeIn(err, f.usesProjectToken(), path)
}

func describe(err error, project bool) string { return describeIn(err, project, "") }

// describeIn is describe for an error of the command at path ("partnertui
// transactions"): a usage mistake points at that command's own help.
func describeIn(err error, project bool, path string) string {
	facts := remedy.Sentence(err)
	r := remedy.Classify(err, project)
	if r.Kind == remedy.ShowUsage && r.Command == "" && path != "" {
		return facts + " Run `" + path + " --help` for usage."
	}
	if cmd, _ := command(r); cmd != "" {
		return facts + " " + cmd
	}
	return facts
}

// command renders r for the command line: the command (or flag) that
// does it. ok is false for a kind it does not know, which its test
// forbids; text is "" for the kinds that need no advice here.
func command(r remedy.Remedy) (text string, ok bool) {
	if text, ok = signInCommand(r); ok {
		return text, true
	}
	switch r.Kind {
	case remedy.None, remedy.Interrupted, remedy.Unknown:
		return "", true
	case remedy.ShowUsage:
		if r.Command != "" {
			return "Did you mean `" + r.Command + "`?", true
		}
		return "Run `partnertui --help` for usage.", true
	case remedy.Retry:
		return "Run the command again.", true
	case remedy.RetryAt:
		if r.At.IsZero() {
			return "Wait a minute and run the command again.", true
		}
		return "Run the command again after " + r.At.Local().Format("15:04:05") + ".", true
	case remedy.CheckNetwork:
		return "Check your network, and " + r.URLKey + " in the configuration.", true
	case remedy.CheckURL:
		return "Check api_url in the configuration.", true
	case remedy.CheckPortal:
		return "Open any web page in a browser to sign in to the network (a captive portal), or check api_url in the configuration; then run the command again.", true
	case remedy.WriteConfig:
		return "Run `partnertui config init` to write a commented template, or try `partnertui --demo`, which needs no credentials.", true
	case remedy.FixConfigKey:
		return "Edit that file (`partnertui config init` writes a template when there is none), or try `partnertui --demo`, which needs no credentials.", true
	case remedy.FixStorePermissions:
		return "Run `chmod 600 " + r.Path + "`, and sign in again if others may have read it.", true
	case remedy.FixStateDir:
		return "Make sure the state directory is writable; the file is rebuilt if you delete it.", true
	case remedy.RemoveLink:
		return "Remove it (partnertui makes a new file), and check who else can write to that directory.", true
	case remedy.TightenStateDir:
		return "Run `chmod 700 " + shellQuote(r.Path) + "` as its owner, or set XDG_STATE_HOME to a directory of your own.", true
	case remedy.WaitForProcess:
		return "Wait for the other partnertui process to finish, or end it.", true
	case remedy.CheckID:
		return "Check the id, and that it belongs to this environment (--env).", true
	case remedy.NarrowQuery:
		return "Ask for fewer items per page (--first) or fewer fields.", true
	case remedy.UseSandbox:
		return "Use --env sandbox.", true
	case remedy.CreateSubscription:
		return "Add --create to make one for this run, or create one in the dashboard.", true
	case remedy.RemoveSubscription:
		return "Remove it with `" + r.Command + "`.", true
	case remedy.OpenFromAccount:
		return "List the account's transactions instead: `partnertui transactions --account ID`.", true
	}
	return "", false
}

// signInCommand renders the remedies of signing in and of the client's
// credentials.
func signInCommand(r remedy.Remedy) (string, bool) {
	login := loginCommand(r.Env)
	switch r.Kind {
	case remedy.SignIn:
		return "Sign in with " + login + ".", true
	case remedy.SignInAgain:
		return "Sign in again with " + login + ".", true
	case remedy.RetrySignIn:
		return "Run " + login + " again.", true
	case remedy.SignInWithoutBrowser:
		return "Run " + login + " again; over SSH, add --no-browser and open the URL on your own machine.", true
	case remedy.Approve:
		return "Run " + login + " again and press Approve.", true
	case remedy.NewCode:
		return "The code is single-use and lives " + shortWindow(auth.DefaultLoginTimeout) + ": run " + login + " again.", true
	case remedy.PasteAgain:
		return "Paste the whole address the browser ends on after you approve.", true
	case remedy.RetryOrSignIn:
		return "Run the command again; if it keeps failing, sign in again with " + login + ".", true
	case remedy.RefreshLost:
		return "The server may have rotated the refresh token before the answer was lost: if it did, the session has ended and the next command asks you to sign in with " +
			login + "; if not, the next command simply works.", true
	case remedy.CheckClient:
		return "The project token was refused: check the client's id and secret in the dashboard.", true
	case remedy.FixClientSecret:
		return "Generate a new client secret in the dashboard and update client_secret, client_secret_env or client_secret_command in the configuration.", true
	case remedy.FixAuthMethod:
		return "Set the client's token endpoint authentication method to " + auth.ClientAuthMethod + " in the dashboard.", true
	case remedy.FreePort:
		return "Another sign-in may be running, or the port in redirect_uri is taken: close it, or remove the port from redirect_uri to use a random one.", true
	}
	return "", false
}

// loginCommand is the command that signs in to env, quoted.
func loginCommand(env string) string {
	if env == "" {
		return "`partnertui login`"
	}
	return "`partnertui login --env " + strings.ToLower(env) + "`"
}

// printError writes the error sentence on stderr: "Error:" in bold red on a
// terminal, plain for scripts and logs.
func printError(streams IO, getenv func(string) string, msg string, err error) {
	var silent *exitError
	if errors.As(err, &silent) {
		return
	}
	label := "Error:"
	if streams.ErrIsTerminal() && getenv("NO_COLOR") == "" {
		label = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#d70000")).Render(label)
	}
	// The sentence is clean already (remedy.Sentence); the advice may name
	// a path from the environment: the whole line passes the sanitiser.
	fmt.Fprintln(streams.Err, label, safetext.StripLines(msg))
}
