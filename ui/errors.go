package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/budget"
)

// This file is the only place the UI words what to do about an error. The
// lower layers' typed errors carry facts and no advice; explain states the
// facts once and then the one next step, naming the key that takes it on
// the screen where the error is shown.

// where is the screen an error is shown on.
type where struct {
	// retry is the key that tries again there: r on a list, enter on the
	// sign-in screen.
	retry key.Binding
	// project: the environment uses a project token, so nobody signs in;
	// a refused token is a configuration matter.
	project bool
}

// explain is err for the screen: what happened, then what to do.
func explain(err error, at where) string {
	if err == nil {
		return ""
	}
	facts, next := advise(err, at)
	if next == "" {
		return facts
	}
	return facts + " " + next
}

// advise splits explain's sentence into the facts and the advice.
func advise(err error, at where) (facts, next string) {
	press := func(what string) string {
		return "Press " + at.retry.Help().Key + " to " + what + "."
	}
	retry := press("retry")
	tryAgain := press("try again")
	signInAgain := press("sign in again")
	fixProject := func(env string) string {
		return "Check client_id and the client secret under [" + tableOf(env) + "] in the config file, then " + lowerFirst(retry)
	}

	var (
		ended     *auth.SessionEndedError
		unauth    *api.UnauthorizedError
		limited   *api.RateLimitedError
		opLimit   *api.OperationLimitError
		gqlErr    *api.GraphQLError
		server    *api.ServerError
		network   *api.NetworkError
		bad       *api.BadResponseError
		endpoint  *api.EndpointError
		rejected  *api.RejectionError
		tokenErr  *auth.TokenEndpointError
		noAnswer  *auth.TokenEndpointUnreachableError
		unsafe    *auth.UnsafeStoreError
		lock      *auth.LockTimeoutError
		signIn    *auth.SignInError
		listen    *auth.CallbackListenError
		notConfig *config.NotConfiguredError
		budgetErr *budget.FileError
		readOnly  *api.ReadOnlyError
		noProject *noProjectAPIError
	)
	switch {
	case errors.As(err, &noProject):
		return "Looking a transaction up by its ID takes the project's token, and " + title(noProject.env) +
			" has no project-token client.", "Open the transaction from its account's Transactions tab instead."
	case errors.As(err, &ended):
		facts = "The " + title(ended.Env) + " session has ended: " + ended.Reason
		if ended.Path != "" {
			facts += " (" + ended.Path + ")"
		}
		return facts + ".", signInAgain
	case errors.As(err, &unauth) && unauth.Status == 0:
		// The token source said the session is over: nothing was sent.
		facts = "There is no usable " + title(unauth.Env) + " session"
		if unauth.Err != nil {
			facts += ": " + unauth.Err.Error()
		}
		return facts + ".", signInAgain
	case errors.As(err, &unauth):
		what := "access token"
		if at.project {
			what = "project token"
		}
		facts = fmt.Sprintf("The %s API refused the %s (HTTP %d%s).", title(unauth.Env), what, unauth.Status, detail(unauth.Message))
		if at.project {
			return facts, fixProject(unauth.Env)
		}
		return facts, signInAgain
	case errors.As(err, &limited):
		facts = "The " + title(limited.Env) + " API is rate limiting this client (HTTP 429)"
		if !limited.RetryAt.IsZero() {
			return facts + " until " + limited.RetryAt.Format("15:04:05") + ".", press("retry after that")
		}
		return facts + ".", press("retry in a minute")
	case errors.As(err, &opLimit):
		what := opLimit.Limit
		if what == "" {
			what = "operation"
		}
		return fmt.Sprintf("The %s API refused the query for exceeding its %s limit%s.", title(opLimit.Env), what, parens(opLimit.Message)),
			"Narrow the filter, then " + lowerFirst(retry)
	case errors.As(err, &gqlErr):
		msgs := make([]string, 0, len(gqlErr.Errors))
		for _, d := range gqlErr.Errors {
			msgs = append(msgs, d.Message)
		}
		if errors.Is(err, api.ErrNotFound) {
			return "The " + title(gqlErr.Env) + " API found no such item" + detail(strings.Join(msgs, "; ")) + ".",
				"It may have been deleted: " + lowerFirst(press("refresh"))
		}
		return "The " + title(gqlErr.Env) + " API returned errors" + detail(strings.Join(msgs, "; ")) + ".", retry
	case errors.Is(err, api.ErrNotFound):
		return sentence(err), "It may have been deleted: " + lowerFirst(press("refresh"))
	case errors.As(err, &budgetErr) && errors.Is(err, budget.ErrLocked):
		return fmt.Sprintf("The request budget file %s stayed %v, so the request was not sent.", budgetErr.Path, budgetErr.Err),
			"Wait for that process to finish or end it, then " + lowerFirst(retry)
	case errors.As(err, &budgetErr):
		return fmt.Sprintf("The request budget file %s cannot be used (%v), so the request was not sent.", budgetErr.Path, budgetErr.Err),
			"Make the state directory writable (the file is rebuilt if you delete it), then " + lowerFirst(retry)
	case errors.As(err, &readOnly):
		return title(readOnly.Env) + " is read-only: partnertui sends it no change, so nothing was sent.", ""
	case errors.As(err, &server):
		return fmt.Sprintf("The %s API failed with HTTP %d%s.", title(server.Env), server.Status, parens(server.Message)), retry
	case errors.As(err, &network) && network.Timeout:
		return fmt.Sprintf("The %s API at %s did not answer in time (%v).", title(network.Env), network.Host, network.Err),
			"Check the network, then " + lowerFirst(retry)
	case errors.As(err, &network):
		return fmt.Sprintf("Could not reach the %s API at %s: %v.", title(network.Env), network.Host, network.Err),
			"Check the network, then " + lowerFirst(retry)
	case errors.As(err, &bad):
		reason := bad.Reason
		if reason == "" {
			reason = "not a GraphQL JSON response"
		}
		return fmt.Sprintf("The %s API sent an unreadable answer (HTTP %d, %s).", title(bad.Env), bad.Status, reason), retry
	case errors.As(err, &endpoint):
		return fmt.Sprintf("A %s request to %s was refused before it was sent: it is not one of that environment's endpoints.", title(endpoint.Env), endpoint.URL),
			"Check the URLs under [" + endpoint.Env + "] in the config file."
	case errors.As(err, &rejected):
		return fmt.Sprintf("The %s API rejected the request (%s%s).", title(rejected.Env), rejected.Type, detail(rejected.Message)), ""
	case errors.Is(err, api.ErrNoTestingAPI):
		return "The Testing API exists only in Sandbox.", ""
	case errors.Is(err, auth.ErrCodeRejected):
		desc := ""
		if errors.As(err, &tokenErr) {
			desc = tokenErr.Description
		}
		return "The authorization code expired or was already used" + parens(desc) + ".",
			press("sign in again with a new code")
	case errors.Is(err, auth.ErrInvalidClient):
		env, d, method := "", "", ""
		if errors.As(err, &tokenErr) {
			env, d, method = tokenErr.Env, joinNonEmpty(": ", tokenErr.Code, tokenErr.Description), tokenErr.RegisteredAuthMethod
		}
		who := "The authorization server"
		if env != "" {
			who = "The " + title(env) + " authorization server"
		}
		if method != "" && method != auth.ClientAuthMethod {
			// The secret may be right: the client is registered to send it
			// another way, and partnertui never tries another way.
			return who + " refused the client" + parens(d) + ": it expects " + method + ", and partnertui sends the secret as " + auth.ClientAuthMethod + ".",
				"Set the client's token endpoint authentication method to " + auth.ClientAuthMethod + " in the dashboard, then " + lowerFirst(tryAgain)
		}
		return who + " refused the client" + parens(d) + ".",
			"Generate a new secret in the dashboard and set it as client_secret, client_secret_env or client_secret_command under [" + tableOf(env) + "] in the config file, then " + lowerFirst(tryAgain)
	case errors.As(err, &tokenErr) && errors.Is(err, auth.ErrRateLimited):
		facts = "The " + title(tokenErr.Env) + " authorization server is rate limiting " + tokenErr.Grant + " requests (HTTP 429)"
		if !tokenErr.RetryAt.IsZero() {
			return facts + " until " + tokenErr.RetryAt.Format("15:04:05") + ".", press("try again after that")
		}
		return facts + ".", press("try again in a minute")
	case errors.As(err, &tokenErr):
		d := joinNonEmpty(": ", tokenErr.Code, tokenErr.Description)
		if d == "" && tokenErr.Status != 0 {
			d = fmt.Sprintf("HTTP %d", tokenErr.Status)
		}
		return "The " + title(tokenErr.Env) + " authorization server refused the " + tokenErr.Grant + " request" + parens(d) + ".", tryAgain
	case errors.As(err, &noAnswer):
		return fmt.Sprintf("The %s authorization server did not answer the %s request (%v).", title(noAnswer.Env), noAnswer.Grant, noAnswer.Err),
			"Check the network, then " + lowerFirst(tryAgain)
	case errors.As(err, &unsafe):
		return fmt.Sprintf("The stored session %s is readable by other users (mode %04o), so it is not used.", unsafe.Path, unsafe.Mode),
			"Make it private (chmod 600) or delete it, then " + lowerFirst(tryAgain)
	case errors.As(err, &lock):
		return fmt.Sprintf("Another partnertui process held the session lock %s for more than %s.", lock.Path, lock.Wait), tryAgain
	case errors.Is(err, auth.ErrAccessDenied):
		return "You pressed Deny on the sign-in page.", press("start again and approve access")
	case errors.Is(err, auth.ErrLoginTimeout):
		facts = "The browser did not come back in time"
		if errors.As(err, &signIn) && signIn.Timeout > 0 {
			facts = "The browser did not come back within " + longDuration(signIn.Timeout)
		}
		return facts + ".", tryAgain
	case errors.As(err, &signIn):
		facts = "The " + title(signIn.Env) + " sign-in did not complete: " + signIn.Reason + parens(joinNonEmpty(": ", signIn.Code, signIn.Description))
		if signIn.Err != nil {
			facts += ": " + signIn.Err.Error()
		}
		return facts + ".", tryAgain
	case errors.As(err, &listen):
		return fmt.Sprintf("partnertui cannot listen on %s for the sign-in callback (%v).", listen.Addr, listen.Err),
			"Close what uses that port or change redirect_uri in the config file, then " + lowerFirst(tryAgain)
	case errors.As(err, &notConfig):
		return fmt.Sprintf("%s is not configured: %s must be set under [%s] in the config file.", title(string(notConfig.Env)), notConfig.Keys, notConfig.Env), ""
	case errors.Is(err, context.Canceled):
		return sentence(err), press("start again")
	case errors.Is(err, context.DeadlineExceeded):
		return sentence(err), retry
	}
	return sentence(err), "Check the network and the environment's URLs in the config file, then " + lowerFirst(tryAgain)
}

// title is an environment's display name from the name errors carry.
func title(env string) string { return envTitle(config.EnvName(strings.ToLower(env))) }

// tableOf is the config table of env, "sandbox" when the error did not say.
func tableOf(env string) string {
	if env == "" {
		return string(config.Sandbox)
	}
	return strings.ToLower(env)
}

// detail is ": s", or nothing for an empty s.
func detail(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

// parens is " (s)", or nothing for an empty s.
func parens(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func joinNonEmpty(sep string, parts ...string) string {
	kept := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// sentence is an error's own text as a sentence.
func sentence(err error) string {
	s := strings.TrimRight(err.Error(), ". ")
	if s == "" {
		return "Something failed without saying what."
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:] + "."
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// longDuration is d in words: "10 minutes", "90 seconds".
func longDuration(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		if d == time.Minute {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", d/time.Minute)
	case d == time.Second:
		return "1 second"
	default:
		return fmt.Sprintf("%d seconds", int(d.Round(time.Second)/time.Second))
	}
}

// errLines is a list screen's error, worded with its remedy and wrapped
// above the screen's status line. It is worded again only when the error
// or the size changes, not on every key.
type errLines struct {
	err   error
	w, h  int
	lines []string
}

// maxErrLines bounds how much of a list an error may cover.
const maxErrLines = 3

// set makes err the error shown on a w×h screen and returns its lines: at
// most maxErrLines, and never the status line's.
func (e *errLines) set(c *common, err error, at where, w, h int) []string {
	if err == e.err && w == e.w && h == e.h {
		return e.lines
	}
	e.err, e.w, e.h, e.lines = err, w, h, nil
	if err == nil {
		return nil
	}
	text := c.styles.err.Render("✗ " + explain(err, at))
	e.lines = strings.Split(lipgloss.NewStyle().Width(max(w, 1)).Render(text), "\n")
	if n := min(maxErrLines, max(h-1, 0)); len(e.lines) > n {
		e.lines = e.lines[:n]
	}
	return e.lines
}

// restyled words the error again with the new styles.
func (e *errLines) restyled() { e.w = -1 }

// noProjectAPIError: a transaction is looked up by id with the project's
// token (a user token cannot read Query.transaction), and the environment
// has no project-token client.
type noProjectAPIError struct{ env string }

func (e *noProjectAPIError) Error() string {
	return "the " + e.env + " environment has no project-token client"
}
