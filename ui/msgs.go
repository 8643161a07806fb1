package ui

import (
	"runtime/debug"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
)

// envMsg is implemented by every asynchronous result. The root drops those
// that belong to an environment other than the active one.
type envMsg interface {
	msgEnv() config.EnvName
}

// errMsg is implemented by results that may carry an error, so the root can
// turn any 401 into a trip back to the sign-in screen.
type errMsg interface {
	msgErr() error
}

type envTag struct{ env config.EnvName }

func (t envTag) msgEnv() config.EnvName { return t.env }

type accountsMsg struct {
	envTag
	id    int
	after string
	page  *api.AccountsPage
	err   error
}

func (m accountsMsg) msgErr() error { return m.err }

type accountMsg struct {
	envTag
	id   int
	acct *api.Account
	err  error
}

func (m accountMsg) msgErr() error { return m.err }

type txMsg struct {
	envTag
	id    int
	after string
	page  *api.TransactionsPage
	err   error
}

func (m txMsg) msgErr() error { return m.err }

type simulateMsg struct {
	envTag
	id     int
	amount api.Amount
	txID   string
	err    error
}

func (m simulateMsg) msgErr() error { return m.err }

type userMsg struct {
	envTag
	id   int
	user *api.User
	err  error
}

func (m userMsg) msgErr() error { return m.err }

type loginURLMsg struct {
	envTag
	id  int
	url string
}

// loginNoteMsg is a warning from a running Login (LoginOptions.Warn).
type loginNoteMsg struct {
	envTag
	id   int
	text string
}

type loginDoneMsg struct {
	envTag
	id    int
	ident *auth.Identity
	err   error
}

// statusMsg carries an api.Status from the client's Updates channel.
type statusMsg struct {
	envTag
	status api.Status
}

// tokenMsg carries the stored access token's expiry (read off the UI loop).
type tokenMsg struct {
	envTag
	expiry time.Time
}

// signedInMsg asks the root to leave the sign-in screen for the accounts.
type signedInMsg struct {
	envTag
	user *userInfo
}

// filterTickMsg fires after the debounce delay of the accounts filter.
type filterTickMsg struct {
	envTag
	seq int
}

// clockMsg drives countdowns and the token time left.
type clockMsg struct{ seq int }

// flashClearMsg removes a flash message if it is still the one shown.
type flashClearMsg struct{ id int }

// flashMsg asks the root to show a transient message.
type flashMsg struct {
	text string
	bad  bool
}

// crashMsg reports a panic recovered in a background task.
type crashMsg struct {
	reason any
	stack  []byte
}

func stackTrace() []byte { return debug.Stack() }
