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

// signinScreen explains the sign-in, runs Session.Login and then checks
// which user the token belongs to (spec 5.4).
type signinScreen struct {
	c        *common
	env      *envState
	state    signinState
	reason   string
	url      string
	id       int
	ctx      context.Context
	cancel   context.CancelFunc
	err      error
	user     *userInfo
	warnings []string
	timeout  time.Duration
	notes    chan string // warnings from the running Login
	waitCtx  context.Context
	// notesSeen are shown while waiting (a browser that failed to open).
	notesSeen []string
}

func newSigninScreen(c *common, env *envState, reason string, timeout time.Duration) *signinScreen {
	return &signinScreen{c: c, env: env, reason: reason, timeout: timeout}
}

func (s *signinScreen) init() tea.Cmd { return nil }
func (s *signinScreen) title() string { return TextSignIn }
func (s *signinScreen) capturing() bool {
	return false
}
func (s *signinScreen) busy() bool { return s.state == signinWaiting || s.state == signinChecking }

func (s *signinScreen) close() {
	if s.cancel != nil {
		s.cancel()
	}
}

func (s *signinScreen) ShortHelp() []key.Binding {
	k := s.c.keys
	switch s.state {
	case signinWaiting:
		return []key.Binding{k.CopyURL, k.Cancel, k.Quit}
	case signinDone:
		return []key.Binding{k.Open, k.Env, k.Quit}
	case signinChecking:
		return []key.Binding{k.Quit}
	}
	b := []key.Binding{k.SignIn}
	if s.env.DemoApprove != nil {
		b = append(b, k.Approve)
	}
	return append(b, k.Env, k.Quit)
}

func (s *signinScreen) FullHelp() [][]key.Binding {
	k := s.c.keys
	b := []key.Binding{k.SignIn}
	if s.env.DemoApprove != nil {
		b = append(b, k.Approve)
	}
	return [][]key.Binding{b, {k.CopyURL, k.Cancel}}
}

func (s *signinScreen) back() (bool, tea.Cmd) {
	if s.state != signinWaiting {
		return false, nil
	}
	s.cancel()
	s.state = signinIdle
	s.url = ""
	s.id = s.c.nextID() // the cancelled login's answer is now stale
	return true, func() tea.Msg { return flashMsg{text: "Sign-in cancelled"} }
}

func (s *signinScreen) update(msg tea.Msg) tea.Cmd {
	k := s.c.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch s.state {
		case signinIdle, signinFailed:
			switch {
			case key.Matches(msg, k.SignIn):
				return s.start(false)
			case key.Matches(msg, k.Approve) && s.env.DemoApprove != nil:
				return s.start(true)
			}
		case signinWaiting:
			if key.Matches(msg, k.CopyURL) && s.url != "" {
				return tea.Batch(s.c.clipboard(s.url), func() tea.Msg { return flashMsg{text: "Sign-in link copied"} })
			}
		case signinDone:
			if key.Matches(msg, k.Open) {
				u := s.user
				env := s.env.Name
				return func() tea.Msg { return signedInMsg{envTag{env}, u} }
			}
		}
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
			for _, w := range msg.ident.Warnings {
				s.warnings = append(s.warnings, w)
			}
		}
		return s.checkUser()
	case userMsg:
		if msg.id != s.id || s.state != signinChecking {
			return nil
		}
		s.cancel()
		if msg.err != nil {
			s.state = signinFailed
			s.err = errors.Join(errors.New("signed in, but asking the API who signed in failed"), msg.err)
			return nil
		}
		s.user = userFromAPI(msg.user)
		if w := phoneMismatch(s.env.PrefilledPhone, s.user.phone); w != "" && !containsFold(s.warnings, "phone") {
			s.warnings = append(s.warnings, w)
		}
		if len(s.warnings) == 0 {
			u, env := s.user, s.env.Name
			return func() tea.Msg { return signedInMsg{envTag{env}, u} }
		}
		s.state = signinDone
		s.env.user = s.user
	}
	return nil
}

func (s *signinScreen) start(demo bool) tea.Cmd {
	s.id = s.c.nextID()
	s.ctx, s.cancel = context.WithCancel(s.env.ctx)
	s.state, s.err, s.url, s.warnings, s.user, s.reason = signinWaiting, nil, "", nil, nil, ""
	s.notesSeen = nil
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

func (s *signinScreen) checkUser() tea.Cmd {
	a, ctx, id, env := s.env.API, s.ctx, s.id, s.env.Name
	return s.c.task(func() tea.Msg {
		u, err := a.User(ctx)
		return userMsg{envTag{env}, id, u, err}
	})
}

func (s *signinScreen) view(w, h int) string {
	st := s.c.styles
	wrap := lipgloss.NewStyle().Width(max(w, 1))
	var b strings.Builder
	line := func(parts ...string) {
		b.WriteString(strings.Join(parts, ""))
		b.WriteByte('\n')
	}
	line(st.title.Render(TextSignIn + " to " + envTitle(s.env.Name)))
	if s.reason != "" {
		line(wrap.Render(st.warn.Render("⚠ " + s.reason)))
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
		line()
		line(st.accent.Render("enter"), " sign in with the browser")
		if s.env.DemoApprove != nil {
			line(st.accent.Render("a"), "     approve as the demo user, no browser needed")
		}
	case signinWaiting:
		line(s.c.spinFrame, " Waiting for the sign-in to finish in the browser…")
		if s.url == "" {
			line(st.dim.Render("Preparing the sign-in link…"))
		} else {
			line(st.dim.Render("If no browser opened, open this link (c copies it):"))
			line(ansi.Hardwrap(s.url, max(w, 1), false))
		}
		for _, n := range s.notesSeen {
			line(wrap.Render(st.warn.Render("⚠ " + n)))
		}
		line()
		line(st.accent.Render("c"), " copy link  ", st.accent.Render("esc"), " cancel")
	case signinChecking:
		line(s.c.spinFrame, " Signed in; checking which user the token belongs to…")
	case signinDone:
		line(st.ok.Render("✓ Signed in as "+s.user.name), st.dim.Render(" "+s.user.phone))
		for _, w := range s.warnings {
			line(wrap.Render(st.warn.Render("⚠ " + w)))
		}
		line()
		line(st.accent.Render("enter"), " continue to the accounts")
	case signinFailed:
		line(wrap.Render(st.err.Render("✗ Sign-in failed: " + s.err.Error())))
		line(wrap.Render(remedy(s.err)))
		line()
		line(st.accent.Render("enter"), " try again")
		if s.env.DemoApprove != nil {
			line(st.accent.Render("a"), "     approve as the demo user")
		}
	}
	return b.String()
}

// remedy is the next step for a sign-in error (spec 5.5 and 5.6).
func remedy(err error) string {
	switch {
	case errors.Is(err, auth.ErrAccessDenied):
		return "You pressed Deny on the sign-in page. Press enter to start again and approve access."
	case errors.Is(err, auth.ErrCodeRejected):
		return "The authorization code expired or was already used. Press enter to start a new sign-in with a new code."
	case errors.Is(err, auth.ErrInvalidClient):
		return "The client secret was rejected. Generate a new secret in the dashboard, update the config (client_secret, client_secret_env or client_secret_command), then sign in again."
	case errors.Is(err, auth.ErrLoginTimeout):
		return "The browser did not come back in time (the code lives 10 minutes). Press enter to try again."
	case errors.Is(err, auth.ErrSignInRequired):
		return "The session has ended: the refresh token was used or revoked. Press enter to sign in again."
	case errors.Is(err, context.Canceled):
		return "The sign-in was cancelled. Press enter to start again."
	}
	return "Check the network and the environment's URLs in the config, then press enter to try again."
}

// phoneMismatch warns when the prefilled phone number is not the signed-in
// user's: a prefilled number proves nothing about who signed in (spec 5.4).
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
