package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/shellcmd"
)

// screen is one page of the navigation stack. A screen owns its size (set
// on resize and whenever the chrome around it changes) and its key map;
// the root draws the chrome around the body.
type screen interface {
	// ShortHelp is the screen's part of the hint line, FullHelp its part of
	// the ? help: the bindings it handles, disabled ones left out.
	help.KeyMap
	init() tea.Cmd
	// update handles everything but keys.
	update(msg tea.Msg) tea.Cmd
	// handleKey handles a key; handled is false for a key the screen has no
	// binding for (the root then tries the global keys).
	handleKey(msg tea.KeyPressMsg) (cmd tea.Cmd, handled bool)
	setSize(w, h int)
	// view is exactly the size given to setSize.
	view() string
	title() string
	// capturing is true while a text input has focus: every key goes to it.
	capturing() bool
	// busy is true while the screen waits for a response.
	busy() bool
	// close cancels the screen's requests; it is never used again.
	close()
}

const (
	flashDelay = 4 * time.Second
	clockFast  = time.Second
	// clockSlow also paces the status poll: the footer's count of the
	// machine's requests (other processes' included) is at most this old.
	clockSlow      = 5 * time.Second
	filterDebounce = 300 * time.Millisecond
)

// Model is the root Bubble Tea model: it routes messages and keys to the
// screens. The chrome (chrome.go) and the environment switch
// (envswitch.go) are its other two jobs; the chrome's moving parts (the
// flash, the clock, the spinner) keep their own state (feeds.go).
type Model struct {
	c    *common
	keys globalKeys
	envs map[config.EnvName]*envState
	// env is the active environment; nil when none is configured.
	env      *envState
	stack    []screen
	showHelp bool
	// signingOut: the hint line asks whether to sign out.
	signingOut bool
	// noHeader: the top screen takes the header's line (headerTaker).
	noHeader bool
	// hintRows are the lines the hint line takes: one, or a failure's
	// whole sentence.
	hintRows int
	confirm  bool
	loginTO  time.Duration
	w, h     int
	root     context.Context
	cancel   context.CancelFunc
	crashed  error
	// marks tells the Requests view (L) which requests each screen sent.
	marks requestMarks

	// The chrome: its lines as last drawn, and what moves in them.
	chrome chrome
	help   help.Model
	flash  flash
	clock  clock
	spin   spin
}

// New builds the root model. It does no I/O: the session is checked by
// the first screen's command.
func New(opts Options) *Model {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = discardLogger()
	}
	clip := opts.Clipboard
	if clip == nil {
		clip = tea.SetClipboard
	}
	root, cancel := context.WithCancel(context.Background())
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	c := &common{isDark: true, noColor: opts.NoColor, now: now, log: log, clipboard: clip, tick: opts.tick,
		getenv: getenv, headless: auth.Headless(getenv),
		openURL: opts.OpenURL, opens: auth.CanOpen(getenv), consentRedirect: opts.ConsentRedirect, logged: opts.Requests != nil}
	if c.openURL == nil {
		c.openURL = func(ctx context.Context, url string) error { return auth.OpenBrowser(ctx, url, getenv) }
	}
	if c.tick == nil {
		c.tick = tea.Tick
	}
	c.styles = newStyles(c.isDark, c.noColor)
	c.views = views()
	if d := opts.Demo; d != nil {
		c.demo = &shellcmd.Place{Config: d.ConfigFile, StateHome: d.StateHome}
	}
	m := &Model{
		c: c, keys: newGlobalKeys(), envs: map[config.EnvName]*envState{}, root: root, cancel: cancel,
		loginTO: opts.LoginTimeout, w: 80, h: 24, marks: requestMarks{log: opts.Requests},
	}
	m.keys.Requests.SetEnabled(opts.Requests != nil)
	for name, given := range opts.Envs {
		if given == nil {
			continue
		}
		e := *given
		if e.Name == "" {
			e.Name = name
		}
		ctx, cancel := context.WithCancel(root)
		st := &envState{Environment: &e, ctx: ctx, cancel: cancel,
			views: viewCache{max: viewCacheSize}, events: eventsCache{max: eventsCacheSize},
			charts: chartsKept{keptCache: keptCache[chartKey, keptChart]{max: chartsKeptSize}}}
		if e.API != nil {
			st.status = e.API.Status()
		}
		if p := st.distinctProject(); p != nil {
			st.projectStatus = p.Status()
		}
		if f := opts.FirstScreen; f != nil && f.of == given {
			st.early = f.answer
		}
		m.envs[name] = st
	}
	start := opts.Start
	if m.envs[start] == nil {
		start = config.Sandbox
		if m.envs[start] == nil {
			start = config.Live
		}
	}
	m.env = m.envs[start]
	m.spin = newSpin(c)
	m.help = help.New()
	m.help.ShortSeparator = " · "
	m.help.SetWidth(m.w)
	m.help.Styles = helpStyles(c)
	if m.env != nil {
		m.stack = []screen{m.home()}
		m.resize()
	}
	m.refresh()
	return m
}

// Close cancels every request in flight. Run calls it on exit.
func (m *Model) Close() {
	for _, s := range m.stack {
		s.close()
	}
	m.cancel()
}

func (m *Model) top() screen {
	if len(m.stack) == 0 {
		return nil
	}
	return m.stack[len(m.stack)-1]
}

// Init starts the first screen, the status listeners and the clock.
func (m *Model) Init() tea.Cmd {
	if m.env == nil {
		return nil
	}
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.startClock(), m.top().init(), m.tokenCmd(m.env)}
	for _, e := range m.envs {
		cmds = append(cmds, m.listen(e))
	}
	return tea.Batch(cmds...)
}

// Update routes messages: keys to the top screen and the global keys,
// results to every screen of the active environment.
func (m *Model) Update(msg tea.Msg) (_ tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			m.c.log.Error("panic in update", "panic", r, "stack", string(stackTrace()))
			m.crashed = fmt.Errorf("%v", r)
			cmd = tea.Quit
		}
	}()
	if m.crashed != nil {
		return m, tea.Quit
	}
	if m.env == nil {
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.keys.Quit, m.keys.ForceQuit) {
			return m, tea.Quit
		}
		return m, nil
	}
	cmd = m.route(msg)
	m.syncKeys()
	m.marks.track(m.top(), m.stack)
	m.refresh()
	return m, tea.Batch(cmd, m.spin.start(m.c, m.busy()))
}

func (m *Model) route(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.routeChrome(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		m.flash.seen()
		cmd, _ := m.key(msg)
		return cmd
	case signedOutMsg:
		return m.signedOut(msg)
	case signedInMsg:
		if msg.env != m.env.Name {
			return nil
		}
		return m.signedIn(msg.home)
	case pushMsg:
		if msg.env != m.env.Name {
			msg.s.close()
			return nil
		}
		return m.push(msg.s)
	case openMsg:
		return m.open(msg)
	case jumpMsg:
		if msg.env != m.env.Name {
			if msg.s != nil {
				msg.s.close()
			}
			return nil
		}
		return m.jump(msg)
	case closeMsg:
		if m.top() == msg.s {
			m.closeTop()
		}
		return nil
	case envMsg:
		return m.result(msg)
	}
	if t := m.top(); t != nil {
		return t.update(msg)
	}
	return nil
}

// routeChrome handles what the frame around the screens owns: size,
// colours, the spinner, the clock, the footer's status and flashes. ok is
// false for every other message.
func (m *Model) routeChrome(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
		m.resize()
		return nil, true
	case tea.BackgroundColorMsg:
		m.c.isDark = msg.IsDark()
		m.c.styles = newStyles(m.c.isDark, m.c.noColor)
		m.spin.restyle(m.c)
		m.help.Styles = helpStyles(m.c)
		m.chrome.restyled()
		return m.broadcast(msg), true
	case spinner.TickMsg:
		return m.spin.step(m.c, msg, m.busy()), true
	case clockMsg:
		if !m.clock.current(msg) {
			return nil, true
		}
		return tea.Batch(m.clock.tick(m.c, m.needFastClock()), m.pollStatus(m.env)), true
	case statusPollMsg:
		return m.polled(msg), true
	case flashMsg:
		return m.setFlash(msg.text, msg.bad), true
	case flashClearMsg:
		m.flash.expire(msg)
		return nil, true
	case crashMsg:
		m.crashed = fmt.Errorf("%v", msg.reason)
		return tea.Quit, true
	case statusMsg:
		e := m.envs[msg.env]
		if e == nil {
			return nil, true
		}
		if at := msg.status.RetryAt; !at.IsZero() && !at.Equal(e.status.RetryAt) {
			// The footer counts it down; the log keeps it.
			m.c.log.Info("requests wait", "env", string(e.Name), "until", at.Format(time.RFC3339), "reason", string(msg.status.WaitReason))
		}
		e.status = msg.status
		cmds := []tea.Cmd{m.listen(e)}
		if e == m.env && m.needFastClock() && !m.clock.fast {
			cmds = append(cmds, m.startClock())
		}
		return tea.Batch(cmds...), true
	case tokenMsg:
		if e := m.envs[msg.env]; e != nil {
			e.expiry = msg.expiry
		}
		if m.needFastClock() && !m.clock.fast {
			return m.startClock(), true
		}
		return nil, true
	default:
		return nil, false
	}
}

// result handles an asynchronous response: stale environments are dropped,
// a refused session leads back to sign-in, everything else goes to the
// screens.
func (m *Model) result(msg envMsg) tea.Cmd {
	if msg.msgEnv() != m.env.Name {
		m.c.log.Debug("dropped a response of another environment", "env", string(msg.msgEnv()), "type", fmt.Sprintf("%T", msg))
		return nil
	}
	var cmds []tea.Cmd
	if em, ok := msg.(errMsg); ok {
		err := em.msgErr()
		if err != nil && !errors.Is(err, context.Canceled) {
			m.c.log.Warn("request failed", "env", string(msg.msgEnv()), "type", fmt.Sprintf("%T", msg), "error", err.Error())
		}
		if isUnauthorized(err) && !m.env.Project {
			if _, onSignin := m.top().(*signinScreen); !onSignin || len(m.stack) > 1 {
				return m.toSignIn(err)
			}
		}
		cmds = append(cmds, m.tokenCmd(m.env))
	}
	if hm, ok := msg.(homeMsg); ok {
		if !m.env.warmed {
			// Fetched ahead once the first screen is answered, not
			// beside its request: far from the platform both would take
			// the same two round trips, and the token's answer and the
			// file it is kept in would compete with the first rows.
			m.env.warmed = true
			cmds = append(cmds, m.warmProjectToken(m.env))
		}
		switch {
		case hm.needSignIn:
			return tea.Batch(append(cmds, m.toSignIn(nil))...)
		case hm.home != nil:
			if o := ownerOf(hm.home); o != nil {
				m.env.owner = o
			}
		}
	}
	cmds = append(cmds, m.broadcast(msg))
	return tea.Batch(cmds...)
}

func isUnauthorized(err error) bool {
	return err != nil && (errors.Is(err, api.ErrUnauthorized) || errors.Is(err, auth.ErrSignInRequired))
}

func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.stack))
	for _, s := range m.stack {
		cmds = append(cmds, s.update(msg))
	}
	return tea.Batch(cmds...)
}

// resize gives every screen the body's size.
func (m *Model) resize() {
	w, h := m.bodySize()
	for _, s := range m.stack {
		s.setSize(w, h)
	}
}

// replace makes s the whole navigation, closing what was there.
func (m *Model) replace(s screen) tea.Cmd {
	for _, old := range m.stack {
		old.close()
	}
	s.setSize(m.bodySize())
	m.stack = []screen{s}
	m.showHelp = false
	return s.init()
}

func (m *Model) busy() bool {
	t := m.top()
	return (t != nil && t.busy()) || m.env.status.InFlight > 0
}

func (m *Model) quit() tea.Cmd {
	m.Close()
	return tea.Quit
}

// key handles a key press; handled is false when no binding took it.
func (m *Model) key(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	if key.Matches(msg, k.ForceQuit) {
		return m.quit(), true
	}
	if m.signingOut {
		return m.answerSignOut(msg), true
	}
	if m.confirm {
		m.confirm = false
		if key.Matches(msg, k.Confirm) {
			return m.switchTo(config.Live), true
		}
		return m.setFlash("Stayed in "+envTitle(m.env.Name), false), true
	}
	if m.showHelp {
		if key.Matches(msg, k.CloseHelp) {
			m.showHelp = false
		}
		// Nothing goes through the help to the screen under it.
		return nil, true
	}
	t := m.top()
	if t.capturing() {
		cmd, _ := t.handleKey(msg)
		return cmd, true
	}
	if cmd, ok := t.handleKey(msg); ok {
		return cmd, true
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit(), true
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return nil, true
	case key.Matches(msg, k.Env):
		return m.requestSwitch(), true
	case key.Matches(msg, k.Events):
		return m.openEvents(false), true
	case key.Matches(msg, k.Requests):
		return m.openRequests(), true
	case key.Matches(msg, k.Back) && len(m.stack) > 1:
		m.closeTop()
		return nil, true
	case key.Matches(msg, k.Jump):
		return m.push(newPaletteScreen(m.c, m.env, t)), true
	case key.Matches(msg, k.SignOut):
		m.signingOut = true
		return nil, true
	}
	return nil, false
}

// closeTop closes the screen on top, if it is not the only one.
func (m *Model) closeTop() { m.popTo(len(m.stack) - 1) }

// syncKeys enables the global keys that apply now: the palette once
// someone is signed in (its views need a session).
func (m *Model) syncKeys() {
	if m.env == nil || len(m.stack) == 0 {
		return
	}
	_, home := m.stack[0].(*accountsScreen)
	m.keys.Jump.SetEnabled(home)
	// A project token has nobody signed in.
	m.keys.SignOut.SetEnabled(home && !m.env.Project)
}

// View draws the chrome around the top screen (or the help).
func (m *Model) View() (v tea.View) {
	defer func() {
		if r := recover(); r != nil {
			m.c.log.Error("panic in view", "panic", r, "stack", string(stackTrace()))
			m.crashed = fmt.Errorf("%v", r)
			v = tea.NewView("partnertui hit an internal error; press any key to quit.")
		}
	}()
	v = tea.NewView(m.render())
	v.AltScreen = true
	if m.env != nil {
		v.WindowTitle = "partnertui · " + envTitle(m.env.Name)
	}
	return v
}
