package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/internal/remedy"
	"github.com/partnertui/partnertui/internal/safetext"
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
	SignIn, Approve, CopyURL, Paste, Cancel, Continue key.Binding
	// While the paste field has focus.
	UsePaste, StopPaste key.Binding
}

func newSigninKeys() signinKeys {
	return signinKeys{
		SignIn:    openKey("sign in with the browser"),
		Approve:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve as the demo user, no browser needed")),
		CopyURL:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy link")),
		Paste:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "paste the address the browser ends on")),
		Cancel:    escKey("cancel"),
		Continue:  openKey("continue to the accounts"),
		UsePaste:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "use this address")),
		StopPaste: escKey("stop pasting"),
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
	// prompt is what the running Login showed (its URL, callback port,
	// whether it is headless); paste hands it a redirected address.
	prompt auth.SignInPrompt
	paste  func(string) error
	demo   bool // the running sign-in approves as the demo user
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

	// The address pasted back in a headless sign-in: the field (it has
	// focus while the address is typed), the Paste in flight, and why the
	// last one was refused (an *auth.PasteError).
	pasteIn    textinput.Model
	pasteID    int
	refused    error
	pasteTaken bool // a paste was accepted: Login is finishing
}

func newSigninScreen(c *common, env *envState, reason error, timeout time.Duration) *signinScreen {
	s := &signinScreen{c: c, env: env, reason: reason, timeout: timeout, keys: newSigninKeys()}
	s.pasteIn = newTextInput("> ", "http://127.0.0.1:…/callback?code=…&state=…", maxPasteField)
	s.pasteIn.SetStyles(c.inputStyles())
	s.syncKeys()
	return s
}

func (s *signinScreen) init() tea.Cmd   { return nil }
func (s *signinScreen) title() string   { return TextSignIn }
func (s *signinScreen) capturing() bool { return s.pasting() }

// pasting is the paste field's focus, not a flag of its own that could
// disagree with it.
func (s *signinScreen) pasting() bool { return s.pasteIn.Focused() }
func (s *signinScreen) busy() bool    { return s.state == signinWaiting || s.state == signinChecking }
func (s *signinScreen) setSize(w, h int) {
	s.w, s.h = w, h
	s.pasteIn.SetWidth(max(w-ansi.StringWidth(s.pasteIn.Prompt)-1, 8))
}

// headless: the running sign-in cannot reach the user's browser, so it
// shows the ssh -L command and takes the redirected address pasted back.
// A demo approval plays the browser itself and needs neither.
func (s *signinScreen) headless() bool {
	return s.state == signinWaiting && s.prompt.Headless && !s.demo && s.paste != nil
}

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
	} else if b := s.c.browserCommand(); s.c.headless && b != "" {
		k.SignIn.SetHelp("enter", "sign in with "+b)
	} else if s.c.headless {
		k.SignIn.SetHelp("enter", "sign in")
	} else {
		k.SignIn.SetHelp("enter", "sign in with the browser")
		k.Approve.SetHelp("a", "approve as the demo user, no browser needed")
	}
	k.Approve.SetEnabled(idle && s.env.DemoApprove != nil)
	waiting := s.state == signinWaiting && !s.pasting()
	k.CopyURL.SetEnabled(waiting && s.prompt.URL != "")
	k.Paste.SetEnabled(waiting && s.headless() && s.pasteID == 0)
	k.Cancel.SetEnabled(waiting)
	k.Continue.SetEnabled(s.state == signinDone)
	k.UsePaste.SetEnabled(s.pasting())
	k.StopPaste.SetEnabled(s.pasting())
}

func (s *signinScreen) ShortHelp() []key.Binding {
	k := s.keys
	if s.pasting() {
		return []key.Binding{k.UsePaste, k.StopPaste}
	}
	return []key.Binding{k.SignIn, k.Approve, k.CopyURL, k.Paste, k.Cancel, k.Continue}
}

func (s *signinScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.ShortHelp()}
}

func (s *signinScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	k := s.keys
	if s.pasting() {
		return s.pasteKey(msg), true
	}
	switch {
	case key.Matches(msg, k.SignIn):
		return s.start(false), true
	case key.Matches(msg, k.Approve):
		return s.start(true), true
	case key.Matches(msg, k.CopyURL):
		return copyCmd(s.c, s.prompt.URL, "Sign-in link copied"), true
	case key.Matches(msg, k.Paste):
		return s.pasteIn.Focus(), true
	case key.Matches(msg, k.Cancel):
		s.cancel()
		s.state = signinIdle
		s.prompt, s.paste = auth.SignInPrompt{}, nil
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
	case tea.BackgroundColorMsg:
		s.pasteIn.SetStyles(s.c.inputStyles())
	case loginURLMsg:
		if msg.id == s.id && s.state == signinWaiting {
			s.prompt, s.paste = msg.prompt, msg.paste
		}
	case signinPasteMsg:
		if msg.id != s.id || msg.paste != s.pasteID {
			return nil
		}
		return s.pasted(msg.err)
	case tea.PasteMsg:
		// A terminal paste while the address is awaited needs no key first.
		if s.headless() && s.pasteID == 0 {
			focus := s.pasteIn.Focus()
			if n := len(msg.Content); n > maxPasteField {
				// The field would keep its first bytes without a word.
				s.refused = &auth.PasteError{Reason: fmt.Sprintf("the paste is %d KiB long, far longer than any address the browser is sent back to", n>>10)}
				return focus
			}
			_, cmd := editInput(&s.pasteIn, msg)
			return tea.Batch(focus, cmd)
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
		// Whichever way it ended, nothing more is pasted into this one.
		s.pasteID = 0
		s.pasteIn.Blur()
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

// maxPasteField bounds the paste field: a redirected address is a few
// hundred bytes.
const maxPasteField = 8 << 10

// signinPasteMsg answers a Paste of the redirected address.
type signinPasteMsg struct {
	envTag
	id, paste int
	err       error
}

// pasteKey edits the paste field: enter hands the address to the sign-in,
// esc leaves the field (the sign-in goes on waiting).
func (s *signinScreen) pasteKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys
	switch {
	case key.Matches(msg, k.UsePaste):
		text := strings.TrimSpace(s.pasteIn.Value())
		if text == "" {
			s.refused = &auth.PasteError{Reason: "nothing was pasted"}
			return nil
		}
		s.refused = nil
		s.pasteIn.Blur()
		s.pasteID = s.c.nextID()
		paste, id, pid, env := s.paste, s.id, s.pasteID, s.env.Name
		// Paste exchanges the code with the server: never on the loop.
		return s.c.task(func() tea.Msg { return signinPasteMsg{envTag{env}, id, pid, paste(text)} })
	case key.Matches(msg, k.StopPaste):
		s.pasteIn.Blur()
		return nil
	}
	_, cmd := editInput(&s.pasteIn, msg)
	return cmd
}

// pasted applies Paste's answer: accepted (Login is finishing), refused
// (say why and keep waiting), or the sign-in ended (Login's own answer
// says how).
func (s *signinScreen) pasted(err error) tea.Cmd {
	s.pasteID = 0
	switch {
	case err == nil:
		s.pasteTaken = true
		s.pasteIn.SetValue("")
	case remedy.Classify(err, false).Kind == remedy.PasteAgain:
		s.refused = err
		s.pasteIn.SetValue("")
		return s.pasteIn.Focus()
	default:
		s.c.log.Info("pasted address after the sign-in ended", "env", string(s.env.Name), "error", err.Error())
	}
	return nil
}

func (s *signinScreen) start(demo bool) tea.Cmd {
	s.id = s.c.nextID()
	s.ctx, s.cancel = context.WithCancel(s.env.ctx)
	s.state, s.err, s.warnings, s.user, s.reason = signinWaiting, nil, nil, nil, nil
	s.prompt, s.paste, s.demo = auth.SignInPrompt{}, nil, demo
	s.notesSeen, s.home, s.checkFailed = nil, nil, false
	s.pasteID, s.refused, s.pasteTaken = 0, nil, false
	s.pasteIn.Blur()
	s.pasteIn.SetValue("")
	prompts := make(chan auth.SignInPrompt, 1)
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
			case prompts <- p:
			default:
			}
		},
		Timeout: s.timeout,
		Getenv:  s.c.getenv,
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
		case p := <-prompts:
			return loginURLMsg{envTag{env}, id, p, p.Paste}
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
	a, ctx, id, env, p := s.env.API, s.ctx, s.id, s.env.Name, defaultAccountsQuery().params(s.env.API)
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
		line(wrap.Render(st.warn.Render("⚠ " + s.c.explain(s.reason, at))))
	}
	line()
	line(st.dim.Render("Environment  "), envTitle(s.env.Name))
	line(st.dim.Render("Client ID    "), s.env.ClientID)
	line()
	switch s.state {
	case signinIdle:
		line(st.bold.Render("What will happen"))
		for _, step := range s.steps() {
			line(wrap.Render(step))
		}
	case signinWaiting:
		s.waitingView(line, wrap)
	case signinChecking:
		line(s.c.spinFrame, " Signed in; checking which user the token belongs to…")
		if w := waitText(s.env.status, s.c.now()); w != "" {
			line(st.warn.Render("The check is " + w + "."))
		}
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
		line(wrap.Render(st.err.Render(what) + s.c.explain(s.err, at)))
	}
	return fit(strings.TrimSuffix(b.String(), "\n"), w, s.h)
}

// steps say what the sign-in will do, as it will really happen here: over
// SSH or without a display no browser opens, and the way back is a tunnel
// or a pasted address.
func (s *signinScreen) steps() []string {
	stored := "the tokens are stored for " + envTitle(s.env.Name) + " only."
	if b := s.c.browserCommand(); s.c.headless && b != "" {
		// $BROWSER is run even here: say so, and what to do when the
		// browser it starts cannot reach the user.
		return []string{
			"No display here (or an SSH session), so only the browser command you set is run: $BROWSER (" + b + ").",
			"1. partnertui runs " + b + " with the platform's sign-in page, and shows the link and the ssh -L command that forwards its callback port.",
			"2. In that browser, or on your own computer through the tunnel, enter your phone number and the 6-digit code, then approve access.",
			"3. The browser returns to partnertui on 127.0.0.1. Without a tunnel, paste here the address the browser ends on; " + stored,
		}
	}
	if !s.c.headless {
		return []string{
			"1. Your browser opens the platform's sign-in page; the link is shown here too.",
			"2. Enter your phone number and the 6-digit code, then approve access.",
			"3. The browser returns to partnertui on 127.0.0.1; " + stored,
		}
	}
	return []string{
		"No browser can open from here (an SSH session, or no display), so:",
		"1. partnertui shows the sign-in link and the ssh -L command that forwards its callback port.",
		"2. On your own computer, run that command, open the link, enter your phone number and the 6-digit code, then approve access.",
		"3. The browser returns through the tunnel to partnertui on 127.0.0.1. Without a tunnel, paste here the address the browser ends on; " + stored,
	}
}

// waitingView says what the running sign-in waits for and what the user
// does next: watch the browser, open the link, or (headless) forward the
// port or paste the address back.
func (s *signinScreen) waitingView(line func(...string), wrap lipgloss.Style) {
	st := s.c.styles
	w := max(s.w, 1)
	p := s.prompt
	switch {
	case s.demo:
		line(s.c.spinFrame, " Approving as the demo user on the sign-in pages…")
	case p.URL == "":
		line(s.c.spinFrame, " Preparing the sign-in link…")
	case s.headless():
		if b := s.c.browserCommand(); p.Opening && b != "" {
			line(wrap.Render(s.c.spinFrame + " Waiting for the sign-in in " + b + " ($BROWSER), which is given the link. If it cannot reach you:"))
		} else {
			line(s.c.spinFrame, " Waiting for the sign-in: no browser opens from here.")
		}
		n := 1
		if p.SSHForward != "" {
			line(wrap.Render(fmt.Sprintf("%d. On your own computer, forward the callback port first:", n)))
			line("   " + st.bold.Render(p.SSHForward))
			n++
		}
		line(wrap.Render(fmt.Sprintf("%d. Open this link in a browser there and approve:", n)))
		line(ansi.Hardwrap(p.URL, w, false))
		n++
		back := "The browser then comes back here"
		if p.SSHForward != "" {
			back += " through the tunnel"
		}
		line(wrap.Render(fmt.Sprintf("%d. %s. Without a tunnel, paste the address it ends on (http://127.0.0.1:%d/…):", n, back, p.CallbackPort)))
		switch {
		case s.pasteID != 0:
			line(s.c.spinFrame, " Checking the pasted address…")
		case s.pasteTaken:
			line(st.ok.Render("✓ Address accepted; finishing the sign-in…"))
		case s.pasting():
			line(s.pasteIn.View())
		default:
			line(st.dim.Render("Paste it, or press " + s.keys.Paste.Help().Key + " to type it."))
		}
		if s.refused != nil {
			line(wrap.Render(st.err.Render("✗ " + explain(s.refused, where{retry: s.keys.Paste}))))
		}
	case p.Opening:
		line(s.c.spinFrame, " Waiting for the sign-in to finish in the browser that is opening…")
		line(st.dim.Render("If no browser opened, open this link:"))
		line(ansi.Hardwrap(p.URL, w, false))
	default:
		line(s.c.spinFrame, " Waiting for the sign-in to finish in your browser…")
		line(st.dim.Render("Open this link in your browser:"))
		line(ansi.Hardwrap(p.URL, w, false))
	}
	for _, n := range s.notesSeen {
		line(wrap.Render(st.warn.Render("⚠ " + n)))
	}
}

// browserCommand names the program of the user's $BROWSER (the first of
// a colon-separated list, as it is run), "" when none is set: a session
// without a display still runs it.
func (c *common) browserCommand() string {
	first, _, _ := strings.Cut(c.getenv("BROWSER"), ":")
	fields := strings.Fields(first)
	if len(fields) == 0 {
		return ""
	}
	return safetext.Truncate(filepath.Base(fields[0]), 40)
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
