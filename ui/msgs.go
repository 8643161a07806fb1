package ui

import (
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"

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
// turn a refused session into a trip back to the sign-in screen.
type errMsg interface {
	msgErr() error
}

type envTag struct{ env config.EnvName }

func (t envTag) msgEnv() config.EnvName { return t.env }

// listMsg carries a paged list's answer (ui/pagedlist) with its
// environment.
type listMsg struct {
	envTag
	inner tea.Msg
}

func (m listMsg) msgErr() error {
	if e, ok := m.inner.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

// projectListMsg carries the answer of a list read with the project-token
// client. It has no msgErr on purpose: a refused project token is a
// configuration matter shown on the list's screen, never a reason to send
// the user back to sign in.
type projectListMsg struct {
	envTag
	inner tea.Msg
}

// homeMsg answers API.Home: the first page of accounts and who the token
// belongs to. needSignIn is set, and nothing was sent, when the session
// check found nobody signed in.
type homeMsg struct {
	envTag
	id         int
	home       *api.Home
	err        error
	needSignIn bool
}

func (m homeMsg) msgErr() error { return m.err }

// snapshotMsg is the last session's first screen, read from disk while
// the request for the fresh one (homeMsg id) is on the wire.
type snapshotMsg struct {
	envTag
	id    int
	home  *api.Home
	saved time.Time
}

// loginURLMsg hands over what a running Login shows the user (its
// ShowURL); paste is prompt.Paste, separate so tests can stand in for it.
type loginURLMsg struct {
	envTag
	id     int
	prompt auth.SignInPrompt
	paste  func(string) error
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

// signedInMsg asks the root to leave the sign-in screen for the accounts,
// whose first page came with the check of who signed in.
type signedInMsg struct {
	envTag
	home *api.Home
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

// pushMsg asks the root to open a screen on top of the stack.
type pushMsg struct {
	envTag
	s screen
}

// push asks the root to open s on top of the stack.
func push(env config.EnvName, s screen) tea.Cmd {
	return func() tea.Msg { return pushMsg{envTag{env}, s} }
}

// crashMsg reports a panic recovered in a background task.
type crashMsg struct {
	reason any
	stack  []byte
}

func stackTrace() []byte { return debug.Stack() }
