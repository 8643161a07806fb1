package ui

import (
	"context"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
)

type signinState int

const (
	signinIdle     signinState = iota
	signinWaiting              // browser sign-in running
	signinChecking             // tokens saved, asking who signed in
	signinDone                 // signed in, warnings to read
	signinFailed
)

type signinKeys struct {
	SignIn, Approve, CopyURL, Cancel, Continue key.Binding
}

func newSigninKeys() signinKeys {
	return signinKeys{
		SignIn:   openKey("sign in with the browser"),
		Approve:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve as the demo user, no browser needed")),
		CopyURL:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy link")),
		Cancel:   escKey("cancel"),
		Continue: openKey("continue to the accounts"),
	}
}

// signinScreen explains the sign-in, runs Session.Login and then checks
// which user the token belongs to, with the first page of accounts in the
// same request.
type signinScreen struct {
	c      *common
	env    *envState
	keys   signinKeys
	w, h   int
	state  signinState
	reason error // why the session ended; nil on a first sign-in
	url    string
	id     int
	ctx    context.Context
	cancel context.CancelFunc
	err    error
	// checkFailed: the sign-in worked but asking who signed in did not.
	checkFailed bool
	user        *owner
	home        *api.Home
	warnings    []string
	timeout     time.Duration
	notes       chan string // warnings from the running Login
	waitCtx     context.Context
	// notesSeen are shown while waiting (a browser that failed to open).
	notesSeen []string
}

func newSigninScreen(c *common, env *envState, reason error, timeout time.Duration) *signinScreen {
	s := &signinScreen{c: c, env: env, reason: reason, timeout: timeout, keys: newSigninKeys()}
	s.syncKeys()
	return s
}

func (s *signinScreen) init() tea.Cmd { return nil }
func (s *signinScreen) title() string { return TextSignIn }
func (s *signinScreen) capturing() bool {
	return false
}
func (s *signinScreen) busy() bool       { return s.state == signinWaiting || s.state == signinChecking }
func (s *signinScreen) setSize(w, h int) { s.w, s.h = w, h }

func (s *signinScreen) close() {
	if s.cancel != nil {
		s.cancel()
	}
}

// syncKeys enables the keys of the current state.
func (s *signinScreen) syncKeys() {
	k := &s.keys
	idle := s.state == signinIdle || s.state == signinFailed
	k.SignIn.SetEnabled(idle)
	if s.state == signinFailed {
		k.SignIn.SetHelp("enter", "try again")
		k.Approve.SetHelp("a", "approve as the demo user")
	} else {
		k.SignIn.SetHelp("enter", "sign in with the browser")
		k.Approve.SetHelp("a", "approve as the demo user, no browser needed")
	}
	k.Approve.SetEnabled(idle && s.env.DemoApprove != nil)
	k.CopyURL.SetEnabled(s.state == signinWaiting && s.url != "")
	k.Cancel.SetEnabled(s.state == signinWaiting)
	k.Continue.SetEnabled(s.state == signinDone)
}

func (s *signinScreen) ShortHelp() []key.Binding {
	k := s.keys
	return []key.Binding{k.SignIn, k.Approve, k.CopyURL, k.Cancel, k.Continue}
}

func (s *signinScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.ShortHelp()}
}

func (s *signinScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	k := s.keys
	switch {
	case key.Matches(msg, k.SignIn):
		return s.start(false), true
	case key.Matches(msg, k.Approve):
		return s.start(true), true
	case key.Matches(msg, k.CopyURL):
		return tea.Batch(s.c.clipboard(s.url), func() tea.Msg { return flashMsg{text: "Sign-in link copied"} }), true
	case key.Matches(msg, k.Cancel):
		s.cancel()
		s.state = signinIdle
		s.url = ""
		s.id = s.c.nextID() // the cancelled login's answer is now stale
		return func() tea.Msg { return flashMsg{text: "Sign-in cancelled"} }, true
	case key.Matches(msg, k.Continue):
		home, env := s.home, s.env.Name
		return func() tea.Msg { return signedInMsg{envTag{env}, home} }, true
	}
	return nil, false
}

func (s *signinScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	switch msg := msg.(type) {
	case loginURLMsg:
		if msg.id == s.id && s.state == signinWaiting {
			s.url = msg.url
		}
	case loginNoteMsg:
		if msg.id != s.id || s.state != signinWaiting {
			return nil
		}
		note := msg.text
		s.notesSeen = append(s.notesSeen, note)
		s.c.log.Warn("sign-in note", "env", string(s.env.Name), "note", note)
		return s.waitNote()
	case loginDoneMsg:
		if msg.id != s.id {
			return nil
		}
		if msg.err != nil {
			s.cancel()
			s.state, s.err = signinFailed, msg.err
			return nil
		}
		s.state = signinChecking
		if msg.ident != nil {
			s.warnings = append(s.warnings, msg.ident.Warnings...)
		}
		return s.checkUser()
	case homeMsg:
		if msg.id != s.id || s.state != signinChecking {
			return nil
		}
		s.cancel()
		var u *api.User
		if msg.home != nil {
			u = msg.home.User
		}
		switch {
		case msg.err != nil:
			s.state, s.err, s.checkFailed = signinFailed, msg.err, true
			return nil
		case u == nil:
			s.state, s.checkFailed = signinFailed, true
			s.err = errors.New("the API did not say which user the token belongs to")
			return nil
		}
		s.user, s.home = userOwner(u), msg.home
		if w := phoneMismatch(s.env.PrefilledPhone, s.user.phone); w != "" && !containsFold(s.warnings, "phone") {
			s.warnings = append(s.warnings, w)
		}
		if len(s.warnings) == 0 {
			home, env := s.home, s.env.Name
			return func() tea.Msg { return signedInMsg{envTag{env}, home} }
		}
		s.state = signinDone
	}
	return nil
}

func (s *signinScreen) start(demo bool) tea.Cmd {
	s.id = s.c.nextID()
	s.ctx, s.cancel = context.WithCancel(s.env.ctx)
	s.state, s.err, s.url, s.warnings, s.user, s.reason = signinWaiting, nil, "", nil, nil, nil
	s.notesSeen, s.home, s.checkFailed = nil, nil, false
	urls := make(chan string, 1)
	notes := make(chan string, 8)
	opts := auth.LoginOptions{
		// Warn, like ShowURL, is called from Login's goroutines.
		Warn: func(w string) {
			select {
			case notes <- w:
			default:
			}
		},
		// ShowURL runs inside Login, on the command's goroutine: hand the
		// URL over without blocking it.
		ShowURL: func(p auth.SignInPrompt) {
			select {
			case urls <- p.URL:
			default:
			}
		},
		Timeout: s.timeout,
	}
	if demo {
		opts.Open = s.env.DemoApprove
	}
	ctx, id, env, sess := s.ctx, s.id, s.env.Name, s.env.Session
	// The URL and note waiters end when Login returns, not only on cancel.
	waitCtx, loginReturned := context.WithCancel(ctx)
	s.c.log.Info("sign-in started", "env", string(env), "demo_approve", demo)
	login := s.c.task(func() tea.Msg {
		ident, err := sess.Login(ctx, opts)
		loginReturned()
		return loginDoneMsg{envTag{env}, id, ident, err}
	})
	showURL := s.c.task(func() tea.Msg {
		select {
		case u := <-urls:
			return loginURLMsg{envTag{env}, id, u}
		case <-waitCtx.Done():
			return nil
		}
	})
	s.notes, s.waitCtx = notes, waitCtx
	return tea.Batch(login, showURL, s.waitNote())
}

// waitNote delivers the next warning of the running sign-in.
func (s *signinScreen) waitNote() tea.Cmd {
	ctx, id, env, notes := s.waitCtx, s.id, s.env.Name, s.notes
	return s.c.task(func() tea.Msg {
		select {
		case n := <-notes:
			return loginNoteMsg{envTag{env}, id, n}
		case <-ctx.Done():
			return nil
		}
	})
}

// checkUser asks who signed in, with the first page of accounts the list
// will show: one request.
func (s *signinScreen) checkUser() tea.Cmd {
	a, ctx, id, env, p := s.env.API, s.ctx, s.id, s.env.Name, defaultAccountsQuery().params()
	return s.c.task(func() tea.Msg {
		h, err := a.Home(ctx, p, false)
		return homeMsg{envTag: envTag{env}, id: id, home: h, err: err}
	})
}

func (s *signinScreen) view() string {
	st := s.c.styles
	w := s.w
	wrap := lipgloss.NewStyle().Width(max(w, 1))
	at := where{retry: s.keys.SignIn}
	var b strings.Builder
	line := func(parts ...string) {
		b.WriteString(strings.Join(parts, ""))
		b.WriteByte('\n')
	}
	line(st.title.Render(TextSignIn + " to " + envTitle(s.env.Name)))
	if s.reason != nil {
		line(wrap.Render(st.warn.Render("⚠ " + explain(s.reason, at))))
	}
	line()
	line(st.dim.Render("Environment  "), envTitle(s.env.Name))
	line(st.dim.Render("Client ID    "), s.env.ClientID)
	line()
	switch s.state {
	case signinIdle:
		line(st.bold.Render("What will happen"))
		line(wrap.Render("1. Your browser opens the platform's sign-in page; the link is shown here too."))
		line(wrap.Render("2. Enter your phone number and the 6-digit code, then approve access."))
		line(wrap.Render("3. The browser returns to partnertui on 127.0.0.1; the tokens are stored for " + envTitle(s.env.Name) + " only."))
	case signinWaiting:
		line(s.c.spinFrame, " Waiting for the sign-in to finish in the browser…")
		if s.url == "" {
			line(st.dim.Render("Preparing the sign-in link…"))
		} else {
			line(st.dim.Render("If no browser opened, open this link:"))
			line(ansi.Hardwrap(s.url, max(w, 1), false))
		}
		for _, n := range s.notesSeen {
			line(wrap.Render(st.warn.Render("⚠ " + n)))
		}
	case signinChecking:
		line(s.c.spinFrame, " Signed in; checking which user the token belongs to…")
	case signinDone:
		line(st.ok.Render("✓ Signed in as "+s.user.name), st.dim.Render(" "+s.user.phone))
		for _, w := range s.warnings {
			line(wrap.Render(st.warn.Render("⚠ " + w)))
		}
	case signinFailed:
		what := "✗ Sign-in failed. "
		if s.checkFailed {
			what = "✗ Signed in, but asking the API who signed in failed. "
		}
		line(wrap.Render(st.err.Render(what) + explain(s.err, at)))
	}
	return fit(strings.TrimSuffix(b.String(), "\n"), w, s.h)
}

// phoneMismatch warns when the prefilled phone number is not the signed-in
// user's: a prefilled number proves nothing about who signed in.
func phoneMismatch(prefilled, actual string) string {
	if !auth.PhoneMismatch(prefilled, actual) {
		return ""
	}
	if strings.TrimSpace(actual) == "" {
		return "The config prefills phone number " + prefilled + ", but the signed-in user has no phone number on record: check who signed in."
	}
	return "The config prefills phone number " + prefilled + ", but the signed-in user's number is " + actual + ": the token belongs to that user."
}

// containsFold reports whether any of list contains sub, ignoring case: auth
// may already have warned about the phone number in its own words.
func containsFold(list []string, sub string) bool {
	sub = strings.ToLower(sub)
	for _, s := range list {
		if strings.Contains(strings.ToLower(s), sub) {
			return true
		}
	}
	return false
}
