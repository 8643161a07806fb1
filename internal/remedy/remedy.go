// Package remedy is the one place an error is classified: Classify maps any
// error to one of a closed set of remedies, with the facts a remedy needs
// taken from the error itself. The surfaces only render a remedy — the
// command line as a command, the terminal UI as a key — after the error's
// own text (Sentence), so each error is worded once, by the package that
// returns it.
package remedy

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/partnertui/partnertui/internal/safetext"
)

// Kind is what the user can do about an error.
type Kind int

// The remedies. Adding one means adding its rendering to internal/cli and
// ui, whose tests fail until both render it.
const (
	// None means the facts say it all (a rejection, a configuration's own list
	// of problems).
	None Kind = iota
	// Interrupted means the user stopped it; starting again is up to them.
	Interrupted
	// Unknown means nothing says what went wrong.
	Unknown
	// ShowUsage means the command line was wrong; read the usage, or type
	// Command.
	ShowUsage

	// SignIn means there is no session for Env; sign in.
	SignIn
	// SignInAgain means Env's API refused the access token; sign in again.
	SignInAgain
	// RetrySignIn means the sign-in to Env did not complete; start it again.
	RetrySignIn
	// SignInWithoutBrowser means the browser did not come back in time; start
	// again, over SSH without a browser on this machine.
	SignInWithoutBrowser
	// Approve means access was denied on the sign-in page; start again and
	// approve.
	Approve
	// NewCode means the authorization code expired or was used; sign in again
	// for a new one.
	NewCode
	// PasteAgain means a pasted address was refused and the sign-in goes
	// on waiting; paste the whole address the browser ends on.
	PasteAgain

	// Retry means the failure may be transient; try again.
	Retry
	// RetryAt means a rate limit: try again at At (zero: the server did not
	// say when).
	RetryAt
	// RetryOrSignIn means a token request of Env's session was refused for no
	// reason partnertui can act on; try again, then sign in.
	RetryOrSignIn
	// RefreshLost means a refresh got no answer, and the server may have
	// rotated the refresh token; the next attempt tells.
	RefreshLost
	// CheckNetwork means nothing answered; check the network and URLKey (the
	// config key of the host that did not answer).
	CheckNetwork
	// CheckURL means something that is not Env's API answered, or a request
	// aimed elsewhere was refused; check the URLs under Env's table.
	CheckURL
	// CheckPortal means a web page answered at Env's API address with a
	// success status: a network's sign-in page (captive portal) or a
	// proxy stands between this machine and the platform; sign in to the
	// network, else check the URLs under Env's table.
	CheckPortal

	// CheckClient means the project token of Env was refused; check the
	// client's id and secret.
	CheckClient
	// FixClientSecret means the authorization server refused Env's client; set
	// a new secret.
	FixClientSecret
	// FixAuthMethod means the client is registered for Method, not for the
	// method partnertui sends; change it in the dashboard.
	FixAuthMethod
	// FixConfigKey means Env lacks Keys in its config table.
	FixConfigKey
	// WriteConfig means there is no configuration file.
	WriteConfig
	// FreePort means the sign-in callback cannot listen on Addr.
	FreePort

	// FixStorePermissions means the token file Path is readable by others.
	FixStorePermissions
	// FixStateDir means the request budget file Path cannot be used.
	FixStateDir
	// RemoveLink means a symbolic link (or another odd file) stands where
	// partnertui keeps a file of its own, Path; remove it.
	RemoveLink
	// TightenStateDir means the state directory Path is open to others and
	// could not be made 0700.
	TightenStateDir
	// WaitForProcess means another partnertui process holds a lock.
	WaitForProcess

	// CheckID means there is no such item; check the id, and its
	// environment.
	CheckID
	// NarrowQuery means the operation broke one of the API's limits.
	NarrowQuery
	// UseSandbox means the change or Testing API call needs Sandbox.
	UseSandbox
	// CreateSubscription means the project has no webhook subscription.
	CreateSubscription
	// RemoveSubscription means a webhook subscription was left behind;
	// Command removes it.
	RemoveSubscription
	// OpenFromAccount means a transaction cannot be read by id without a
	// project token; open it from its account instead.
	OpenFromAccount

	numKinds // not a remedy: the size of the set
)

// Kinds is every remedy, for the tests that prove each surface renders
// them all.
func Kinds() []Kind {
	ks := make([]Kind, 0, numKinds)
	for k := range numKinds {
		ks = append(ks, k)
	}
	return ks
}

// Remedy is what to do about an error, with the facts its rendering needs.
// Only the fields its Kind names are set.
type Remedy struct {
	Kind Kind
	// Env is the environment the error names ("sandbox", "live"); "" when
	// it names none.
	Env string
	// At is when a rate limit ends (RetryAt); zero when unknown.
	At time.Time
	// Path is the file concerned (FixStorePermissions, FixStateDir,
	// RemoveLink, TightenStateDir).
	Path string
	// Addr is the callback's address (FreePort).
	Addr string
	// Method is the client authentication method the client is registered
	// for (FixAuthMethod).
	Method string
	// Keys are the config keys to set (FixConfigKey).
	Keys string
	// URLKey is the config key of the host that did not answer
	// (CheckNetwork): "api_url" or "auth_url".
	URLKey string
	// Command is what the user probably meant to type (ShowUsage): the
	// closest command or flag; "" when none is close. For
	// RemoveSubscription, the command that removes it.
	Command string
	// Logged: the error is how a request to the API went (its answer, or
	// why none came), which the request log keeps whole: the app's L and
	// --verbose show it, the body of an answer that was not JSON included.
	Logged bool
}

// Table is the config table of the remedy's environment: "sandbox" when
// the error did not say.
func (r Remedy) Table() string {
	if r.Env == "" {
		return "sandbox"
	}
	return strings.ToLower(r.Env)
}

// Advised is an error that knows its own remedy: the surfaces' own errors
// (a usage mistake, a missing subscription) implement it, since this
// package cannot import them.
type Advised interface {
	error
	Remedy() Remedy
}

// Sentence is err's own text as a sentence: trimmed, ending with a full
// stop. It keeps the lower case of Go errors; a surface that starts a line
// with it capitalises it (Capitalized).
func Sentence(err error) string {
	// Every surface shows the error through here: it is made safe for the
	// terminal here, once, whatever it quotes (a server's text, a jq
	// program's halt_error, a line of the user's own file).
	s := strings.TrimSpace(safetext.StripLines(err.Error()))
	if s == "" {
		return "something went wrong."
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

// Capitalized is s with its first letter upper case: an error's facts
// (Sentence) when they open a line of their own.
func Capitalized(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
