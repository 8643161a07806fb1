package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
)

// The environment switch follows k9s's context switch: stop what runs,
// drop the history, swap the environment, open its home screen. Which home
// screen (the accounts, or the sign-in when nobody is signed in) is decided
// by the accounts screen's first command, which reads the session store
// off the event loop.

// home is the first screen of the active environment.
func (m *Model) home() screen { return newAccountsScreen(m.c, m.env) }

// requestSwitch asks before going to Live; Sandbox needs no question.
func (m *Model) requestSwitch() tea.Cmd {
	other := m.env.Name.Other()
	if m.envs[other] == nil {
		err := &config.NotConfiguredError{Env: other, Keys: "client_id and the client secret"}
		return m.setFlash(explain(err, where{}), true)
	}
	if other == config.Live {
		m.confirm = true
		return nil
	}
	return m.switchTo(other)
}

func (m *Model) switchTo(name config.EnvName) tea.Cmd {
	old := m.env
	old.cancel()
	old.ctx, old.cancel = context.WithCancel(m.root)
	m.env = m.envs[name]
	m.c.log.Info("environment switched", "from", string(old.Name), "to", string(name))
	return tea.Batch(m.replace(m.home()), m.setFlash("Switched to "+envTitle(name), false),
		m.tokenCmd(m.env), m.startClock())
}

// toSignIn replaces the whole navigation with the sign-in screen; err is
// why (nil when nobody was signed in to begin with).
func (m *Model) toSignIn(err error) tea.Cmd {
	e := m.env
	e.owner = nil
	if err != nil {
		m.c.log.Info("session rejected, back to sign-in", "env", string(e.Name))
	}
	return m.replace(newSigninScreen(m.c, e, err, m.loginTO))
}

// signedIn opens the accounts after a sign-in, with the first page that
// came with the check of who signed in.
func (m *Model) signedIn(home *api.Home) tea.Cmd {
	e := m.env
	if o := ownerOf(home); o != nil {
		e.owner = o
	}
	acc := newAccountsScreen(m.c, e)
	var seeded tea.Cmd
	if home != nil && home.Accounts != nil {
		// Seeded first, the screen has nothing to ask for when it starts.
		seeded = acc.seed(home.Accounts)
	}
	text := "Signed in to " + envTitle(e.Name)
	if e.owner != nil && e.owner.name != "" {
		text += " as " + e.owner.name
	}
	return tea.Batch(m.replace(acc), seeded, m.setFlash(text, false), m.tokenCmd(e))
}
