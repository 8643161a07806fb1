package ui

import (
	"errors"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/internal/remedy"
)

// Signing out from the app does what `partnertui logout` does: the refresh
// token is revoked and the stored session deleted, then the environment's
// sign-in screen opens. The hint line asks first, as for Live.

// signedOutMsg is the end of a sign-out.
type signedOutMsg struct {
	envTag
	err error
}

func (m *Model) signOutQuestion() string {
	return "Sign out of " + envTitle(m.env.Name) + "? Its refresh token is revoked and deleted from this machine. " +
		m.keys.Confirm.Help().Key + " signs out, any other key stays."
}

// answerSignOut takes the key pressed after the question.
func (m *Model) answerSignOut(msg tea.KeyPressMsg) tea.Cmd {
	m.signingOut = false
	if !key.Matches(msg, m.keys.Confirm) {
		return m.setFlash("Still signed in to "+envTitle(m.env.Name), false)
	}
	sess, ctx, env := m.env.Session, m.env.ctx, m.env.Name
	m.c.log.Info("signing out", "env", string(env))
	return m.c.task(func() tea.Msg { return signedOutMsg{envTag{env}, sess.Logout(ctx)} })
}

// signedOut opens the sign-in screen once the session is gone, which it
// is even when only the revocation failed.
func (m *Model) signedOut(msg signedOutMsg) tea.Cmd {
	e := m.envs[msg.env]
	if e == nil {
		return nil
	}
	text, bad := "Signed out of "+envTitle(msg.env), false
	switch {
	case errors.Is(msg.err, auth.ErrRevocationFailed):
		// Signed out all the same: only the server's word is missing.
		text, bad = remedy.Capitalized(remedy.Sentence(msg.err)), true
	case msg.err != nil:
		return m.setFlash("Could not sign out. "+m.c.explain(msg.err, where{retry: m.keys.SignOut}), true)
	}
	e.forgetUser()
	e.expiry = time.Time{}
	if msg.env != m.env.Name {
		return m.setFlash(text, bad)
	}
	return tea.Batch(m.toSignIn(nil), m.setFlash(text, bad))
}
