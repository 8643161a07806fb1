package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/budget"
)

// Exit codes, as the README and --help document them.
const (
	ExitOK      = 0
	ExitFailure = 1 // the command failed; the message says why and what to do
	ExitUsage   = 2 // the command line is wrong
	ExitSignIn  = 4 // a sign-in is needed first (as gh uses 4 for authentication)
)

// UsageError marks a mistake in how the command was called (exit 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

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
func (f *Factory) describe(err error) string {
	return sentence(err.Error()) + remedy(err, f.usesProjectToken())
}

// remedy is " " + what to do about err, or "" when the facts say it all.
func remedy(err error, project bool) string {
	var (
		usage     *UsageError
		valErr    *config.ValidationError
		notConf   *app.NotConfiguredError
		unauth    *api.UnauthorizedError
		rate      *api.RateLimitedError
		tokErr    *auth.TokenEndpointError
		tokLost   *auth.TokenEndpointUnreachableError
		unsafe    *auth.UnsafeStoreError
		ended     *auth.SessionEndedError
		signIn    *auth.SignInError
		listenErr *auth.CallbackListenError
		lockErr   *auth.LockTimeoutError
		netErr    *api.NetworkError
		budgetErr *budget.FileError
	)
	switch {
	case errors.As(err, &usage):
		return " Run `partnertui --help` for usage."
	case errors.Is(err, context.Canceled):
		return ""
	case errors.As(err, &valErr):
		return "" // every problem already names its file, line and fix
	case errors.Is(err, config.ErrNoConfig):
		return " Run `partnertui config init` to write a commented template, or try `partnertui --demo`, which needs no credentials."
	case errors.As(err, &notConf):
		return " Edit that file (`partnertui config init` writes a template when there is none), or try `partnertui --demo`, which needs no credentials."
	case errors.As(err, &unsafe):
		return fmt.Sprintf(" Run `chmod 600 %s`, and sign in again if others may have read it.", unsafe.Path)
	case errors.As(err, new(*NoSubscriptionError)):
		return " Add --create to make one for this run, or create one in the dashboard."
	case errors.As(err, &budgetErr):
		if errors.Is(err, budget.ErrLocked) {
			return " Another partnertui process holds it; wait for it to finish, or end it."
		}
		return " Make sure the state directory is writable; the file is rebuilt if you delete it."
	case errors.As(err, &lockErr):
		return " Wait for the other partnertui process to finish, or end it."
	case errors.As(err, &ended):
		if project {
			return ""
		}
		return " Sign in with " + loginCommand(ended.Env) + "."
	case errors.As(err, &tokErr):
		return tokenEndpointRemedy(tokErr, project)
	case errors.As(err, &tokLost):
		if tokLost.Grant == "refresh_token" {
			return " The server may have rotated the refresh token before the answer was lost: if it did, the session has ended and the next command asks you to sign in with " +
				loginCommand(tokLost.Env) + "; if not, the next command simply works."
		}
		return " Check your network and auth_url, then run the command again."
	case errors.As(err, &signIn):
		switch {
		case errors.Is(err, auth.ErrAccessDenied):
			return " Run " + loginCommand(signIn.Env) + " again and press Approve."
		case errors.Is(err, auth.ErrLoginTimeout):
			return " Run " + loginCommand(signIn.Env) + " again; over SSH, add --no-browser and open the URL on your own machine."
		}
		return " Run " + loginCommand(signIn.Env) + " again."
	case errors.As(err, &listenErr):
		return " Another sign-in may be running, or the port in redirect_uri is taken: close it, or remove the port from redirect_uri to use a random one."
	case errors.As(err, &unauth):
		if project {
			return " The project token was refused: check the client's id and secret in the dashboard."
		}
		return " Sign in again with " + loginCommand(unauth.Env) + "."
	case errors.As(err, &rate):
		return retryRemedy(rate.RetryAt)
	case errors.Is(err, api.ErrOperationLimit):
		return " Ask for fewer items per page (--first) or fewer fields."
	case errors.Is(err, api.ErrReadOnly), errors.Is(err, api.ErrNoTestingAPI):
		return " Use --env sandbox."
	case errors.Is(err, api.ErrNotFound):
		return " Check the id, and that it belongs to this environment (--env)."
	case errors.As(err, &netErr):
		return " Check your network, and api_url in the configuration."
	case errors.Is(err, api.ErrServer):
		return " The platform failed; try again in a moment."
	case errors.Is(err, api.ErrBadResponse), errors.Is(err, api.ErrForeignEndpoint):
		return " Check api_url in the configuration."
	}
	return ""
}

func tokenEndpointRemedy(e *auth.TokenEndpointError, project bool) string {
	switch {
	case errors.Is(e, auth.ErrRateLimited):
		return retryRemedy(e.RetryAt)
	case errors.Is(e, auth.ErrInvalidClient):
		if m := e.RegisteredAuthMethod; m != "" {
			return " partnertui sends the client secret as " + auth.ClientAuthMethod + " (in the form body), as the platform documents; the server expects " + m +
				": set the client's token endpoint authentication method to client_secret_post in the dashboard."
		}
		return " Generate a new client secret in the dashboard and update client_secret, client_secret_env or client_secret_command in the configuration."
	case errors.Is(e, auth.ErrCodeRejected):
		return " The code is single-use and lives " + shortWindow(auth.DefaultLoginTimeout) + ": run " + loginCommand(e.Env) + " again."
	case project:
		return " Check the client in the dashboard, then run the command again."
	}
	return " Run the command again; if it keeps failing, sign in again with " + loginCommand(e.Env) + "."
}

// loginCommand is the command that signs in to env, quoted.
func loginCommand(env string) string { return "`partnertui login --env " + env + "`" }

func retryRemedy(at time.Time) string {
	if at.IsZero() {
		return " Wait a minute and run the command again."
	}
	return " Run the command again after " + at.Local().Format("15:04:05") + "."
}

// sentence ends the text with a full stop (messages keep the lower case
// of Go errors, as gh's do).
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "something went wrong."
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

// printError writes the error sentence on stderr: "Error:" in bold red on a
// terminal, plain for scripts and logs.
func printError(streams IO, msg string, err error) {
	var silent *exitError
	if errors.As(err, &silent) {
		return
	}
	label := "Error:"
	if streams.ErrIsTerminal() && os.Getenv("NO_COLOR") == "" {
		label = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#d70000")).Render(label)
	}
	fmt.Fprintln(streams.Err, label, msg)
}
