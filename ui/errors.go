package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/remedy"
)

// This file renders, for the terminal UI, what internal/remedy makes of an
// error: the error's own text as a sentence, then the one next step, naming
// the key that takes it on the screen where the error is shown.

// where is the screen an error is shown on.
type where struct {
	// retry is the key that tries again there: r on a list, enter on the
	// sign-in screen.
	retry key.Binding
	// project: the environment uses a project token, so nobody signs in;
	// a refused token is a configuration matter.
	project bool
	// retype is the key that types an ID again (:) when the item was
	// asked for by an ID the user typed: a missing one is then most
	// likely mistyped, not deleted.
	retype key.Binding
	// typing: the error is shown where the ID is being typed (the :
	// palette), to be corrected there.
	typing bool
}

// explain is err for the screen: what happened, then what to do.
func explain(err error, at where) string {
	if err == nil {
		return ""
	}
	facts := remedy.Capitalized(remedy.Sentence(err))
	if next, _ := at.advice(remedy.Classify(err, at.project)); next != "" {
		return facts + " " + next
	}
	return facts
}

// explain is explain(err, at), and for an error the request log keeps
// whole (an API answer, or why none came) where to read it: L, when the
// app has the log.
func (c *common) explain(err error, at where) string {
	text := explain(err, at)
	if c.logged && err != nil && remedy.Classify(err, at.project).Logged {
		text += " " + newGlobalKeys().Requests.Help().Key + " shows the request and its answer."
	}
	return text
}

// advice renders r as the keys of the screen at. ok is false for a kind
// it does not know, which its test forbids.
func (at where) advice(r remedy.Remedy) (next string, ok bool) {
	press := func(what string) string { return "Press " + at.retry.Help().Key + " to " + what + "." }
	then := func(do string) string { return do + ", then press " + at.retry.Help().Key + " to try again." }
	if next, ok = configAdvice(r, then); ok {
		return next, true
	}
	switch r.Kind {
	case remedy.None:
		return "", true
	case remedy.Interrupted:
		return press("start again"), true
	case remedy.Unknown:
		return then("Check the network and the environment's URLs in the config file"), true
	case remedy.ShowUsage:
		return "Press " + newGlobalKeys().Help.Help().Key + " for help.", true
	case remedy.SignIn, remedy.SignInAgain:
		return press("sign in again"), true
	case remedy.RetrySignIn, remedy.SignInWithoutBrowser, remedy.RetryOrSignIn, remedy.Retry:
		return press("try again"), true
	case remedy.Approve:
		return press("start again and approve access"), true
	case remedy.NewCode:
		return press("sign in again with a new code"), true
	case remedy.PasteAgain:
		return "Paste the whole address the browser ends on.", true
	case remedy.RetryAt:
		if r.At.IsZero() {
			return press("try again in a minute"), true
		}
		return press("try again after that"), true
	case remedy.RefreshLost, remedy.CheckNetwork:
		return then("Check the network"), true
	case remedy.FixStorePermissions:
		return then("Make it private (chmod 600) or delete it"), true
	case remedy.FixStateDir:
		return then("Make the state directory writable (the file is rebuilt if you delete it)"), true
	case remedy.RemoveLink:
		return then("Remove it (partnertui makes a new file) and check who else can write to that directory"), true
	case remedy.TightenStateDir:
		return "Make the state directory private (chmod 700) as its owner, or set XDG_STATE_HOME to a directory of your own.", true
	case remedy.WaitForProcess:
		return then("Wait for the other partnertui process to finish or end it"), true
	case remedy.CheckID:
		if at.typing {
			return "Check the ID, correct it here and press " + at.retry.Help().Key + ".", true
		}
		if len(at.retype.Keys()) > 0 {
			return "Check the ID, then press " + at.retype.Help().Key + " to type it again.", true
		}
		return "It may have been deleted: press " + at.retry.Help().Key + " to refresh.", true
	case remedy.NarrowQuery:
		return then("Narrow the filter"), true
	case remedy.UseSandbox:
		return "Press " + newGlobalKeys().Env.Help().Key + " to switch to Sandbox.", true
	case remedy.CreateSubscription:
		return then("Create one in the dashboard"), true
	case remedy.RemoveSubscription:
		return "Remove the webhook subscription in the dashboard, or from the command line.", true
	case remedy.OpenFromAccount:
		return "Open the transaction from its account's Transactions tab instead.", true
	}
	return "", false
}

// configAdvice renders the remedies that change the configuration or
// the client's settings in the dashboard.
func configAdvice(r remedy.Remedy, then func(string) string) (string, bool) {
	table := "[" + r.Table() + "]"
	switch r.Kind {
	case remedy.CheckClient:
		return then("Check client_id and the client secret under " + table + " in the config file"), true
	case remedy.FixClientSecret:
		return then("Generate a new secret in the dashboard and set it as client_secret, client_secret_env or client_secret_command under " + table + " in the config file"), true
	case remedy.FixAuthMethod:
		return then("Set the client's token endpoint authentication method to " + auth.ClientAuthMethod + " in the dashboard"), true
	case remedy.CheckURL:
		return "Check the URLs under " + table + " in the config file.", true
	case remedy.CheckPortal:
		return then("Open any web page in a browser to sign in to the network, or check the URLs under " + table + " in the config file"), true
	case remedy.FixConfigKey:
		return "Edit the config file, then start partnertui again.", true
	case remedy.WriteConfig:
		return "Write one (partnertui config init writes a template), then start partnertui again.", true
	case remedy.FreePort:
		return then("Close what uses that port or change redirect_uri in the config file"), true
	}
	return "", false
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

// errLines is a list screen's error, worded with its remedy and wrapped
// whole above the screen's status line. It is worded again only when the error
// or the size changes, not on every key.
type errLines struct {
	err   error
	w, h  int
	lines []string
}

// set makes err the error shown on a w×h screen and returns its lines:
// as many as the sentence needs, never the status line's.
func (e *errLines) set(c *common, err error, at where, w, h int) []string {
	if err == e.err && w == e.w && h == e.h {
		return e.lines
	}
	e.err, e.w, e.h, e.lines = err, w, h, nil
	if err == nil {
		return nil
	}
	text := c.styles.err.Render("✗ " + c.explain(err, at))
	e.lines = strings.Split(wrap(text, w), "\n")
	// The whole sentence, however many lines it takes: the list gives
	// them up, and only the status line is kept.
	if n := max(h-1, 0); len(e.lines) > n {
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
	return "looking a transaction up by its ID takes the project's token, and " + envTitle(config.EnvName(e.env)) +
		" has no project-token client"
}

// Remedy is to open the transaction from its account, with the user's token.
func (e *noProjectAPIError) Remedy() remedy.Remedy {
	return remedy.Remedy{Kind: remedy.OpenFromAccount, Env: e.env}
}
