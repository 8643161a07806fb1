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

// home is the first screen of the active environment: the account list,
// in the order and with the search it had when the user left it.
func (m *Model) home() screen {
	a := newAccountsScreen(m.c, m.env)
	if q := m.env.homeQuery; q != nil {
		a.setQuery(*q)
	}
	return a
}

// requestSwitch asks before going to Live; Sandbox needs no question.
func (m *Model) requestSwitch() tea.Cmd {
	other := m.env.Name.Other()
	if m.envs[other] == nil {
		err := &config.NotConfiguredError{Env: other, Keys: "client_id and the client secret"}
		return m.setFlash(m.c.explain(err, where{}), true)
	}
	if other == config.Live {
		m.confirm = true
		return nil
	}
	return m.switchTo(other)
}

func (m *Model) switchTo(name config.EnvName) tea.Cmd {
	old := m.env
	old.places = m.places()
	if a, ok := m.stack[0].(*accountsScreen); ok {
		q := a.query
		old.homeQuery = &q
	}
	old.cancel()
	old.ctx, old.cancel = context.WithCancel(m.root)
	m.env = m.envs[name]
	// Its project token is fetched ahead again once its first screen is
	// answered (a token kept is no request).
	m.env.warmed = false
	m.c.log.Info("environment switched", "from", string(old.Name), "to", string(name))
	cmds := []tea.Cmd{m.replace(m.home()), m.setFlash("Switched to "+envTitle(name), false),
		m.tokenCmd(m.env), m.startClock()}
	return tea.Batch(append(cmds, m.reopen()...)...)
}

// place is where a screen above the account list was: enough to open it
// again, with a context of its own, after a trip to the other
// environment (whose switch cancelled everything this one ran).
type place struct {
	kind resourceKind
	id   string
	// account is an account screen's account as it was known, and tab
	// its active tab.
	account *api.Account
	tab     int
	// again makes a screen that is not one resource (a list across
	// accounts, the event log) again, with its filters.
	again func(c *common, env *envState) screen
}

// reopener is a screen that is not one resource but can be made again,
// as it is, in a new context: a list across accounts, the event log.
type reopener interface {
	reopen(c *common, env *envState) screen
}

// places are the screens open above the account list, in order: the
// trail the user comes back to.
func (m *Model) places() []place {
	var out []place
	for _, s := range m.stack[1:] {
		if re, ok := s.(reopener); ok {
			out = append(out, place{again: re.reopen})
			continue
		}
		r, ok := s.(resourceScreen)
		if !ok {
			continue
		}
		p := place{}
		if p.kind, p.id = r.resource(); p.kind == "" || p.id == "" {
			continue
		}
		if a, ok := s.(*accountScreen); ok {
			acct := a.overview.acct
			p.account, p.tab = &acct, a.active
		}
		out = append(out, p)
	}
	return out
}

// reopen opens the active environment's places again above its home.
func (m *Model) reopen() []tea.Cmd {
	places := m.env.places
	m.env.places = nil
	cmds := make([]tea.Cmd, 0, len(places))
	for _, p := range places {
		var s screen
		if p.again != nil {
			if s = p.again(m.c, m.env); s == nil {
				continue
			}
		} else if p.account != nil {
			a := newAccountScreen(m.c, m.env, *p.account)
			a.active = p.tab
			s = a
		} else if s = m.resourceScreen(p.kind, p.id); s == nil {
			continue
		}
		cmds = append(cmds, m.push(s))
	}
	return cmds
}

// toSignIn replaces the whole navigation with the sign-in screen; err is
// why (nil when nobody was signed in to begin with).
func (m *Model) toSignIn(err error) tea.Cmd {
	e := m.env
	e.forgetUser()
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
