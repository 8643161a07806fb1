package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
)

// screen is one page of the navigation stack. Screens render only their
// body; the root draws header, message line and footer around it.
type screen interface {
	help.KeyMap
	init() tea.Cmd
	update(msg tea.Msg) tea.Cmd
	view(w, h int) string
	title() string
	// capturing is true while a text input has focus: global keys go to it.
	capturing() bool
	// busy is true while the screen waits for a response.
	busy() bool
	// back handles esc inside the screen (close an overlay, clear a
	// filter); false lets the root pop the screen.
	back() (bool, tea.Cmd)
	// close cancels the screen's requests; it is never used again.
	close()
}

// pushMsg asks the root to open a screen on top of the stack.
type pushMsg struct {
	envTag
	s screen
}

const (
	flashDelay     = 4 * time.Second
	clockFast      = time.Second
	clockSlow      = 15 * time.Second
	filterDebounce = 300 * time.Millisecond
)

// Model is the root Bubble Tea model: it routes between screens, owns the
// environment switch and draws header and footer.
type Model struct {
	c          *common
	envs       map[config.EnvName]*envState
	stack      []screen
	showHelp   bool
	confirm    bool
	flash      string
	flashBad   bool
	flashID    int
	clockSeq   int
	clockFast  bool
	spin       spinner.Model
	spinning   bool
	help       help.Model
	loginTO    time.Duration
	root       context.Context
	cancelRoot context.CancelFunc
	crashed    error
}

// New builds the root model. It does no I/O beyond Session.SignedIn.
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
	c := &common{
		width: 80, height: 24, isDark: true, noColor: opts.NoColor,
		keys: defaultKeys(), now: now, log: log, clipboard: clip, tick: opts.tick,
	}
	if c.tick == nil {
		c.tick = tea.Tick
	}
	c.styles = newStyles(c.isDark, c.noColor)
	m := &Model{
		c: c, envs: map[config.EnvName]*envState{}, root: root, cancelRoot: cancel,
		loginTO: opts.LoginTimeout,
	}
	for name, e := range opts.Envs {
		if e == nil {
			continue
		}
		if e.Name == "" {
			e.Name = name
		}
		ctx, cancel := context.WithCancel(root)
		st := &envState{Environment: e, ctx: ctx, cancel: cancel}
		if e.API != nil {
			st.status = e.API.Status()
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
	c.env = m.envs[start]
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(c.styles.spinner))
	m.help = help.New()
	m.help.Styles = helpStyles(c)
	if c.env != nil {
		m.stack = []screen{m.home("")}
	}
	return m
}

// Close cancels every request in flight. Run calls it on exit.
func (m *Model) Close() {
	for _, s := range m.stack {
		s.close()
	}
	m.cancelRoot()
}

// home is the first screen of the active environment: its accounts when it
// has a session, else the sign-in screen.
func (m *Model) home(reason string) screen {
	e := m.c.env
	if e.Session != nil && e.Session.SignedIn() && reason == "" {
		return newAccountsScreen(m.c, e)
	}
	return newSigninScreen(m.c, e, reason, m.loginTO)
}

func (m *Model) top() screen {
	if len(m.stack) == 0 {
		return nil
	}
	return m.stack[len(m.stack)-1]
}

// Init starts the first screen, the status listeners and the clock.
func (m *Model) Init() tea.Cmd {
	if m.c.env == nil {
		return nil
	}
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.startClock(), m.top().init(), m.tokenCmd(m.c.env)}
	for _, e := range m.envs {
		cmds = append(cmds, m.listen(e))
	}
	cmds = append(cmds, m.userCmd(m.c.env))
	return tea.Batch(cmds...)
}

// listen waits for the next api.Status of one environment. Each environment
// has exactly one listener for the program's lifetime.
func (m *Model) listen(e *envState) tea.Cmd {
	if e.API == nil {
		return nil
	}
	ch := e.API.Updates()
	if ch == nil {
		return nil
	}
	root := m.root
	name := e.Name
	return m.c.task(func() tea.Msg {
		select {
		case st, ok := <-ch:
			if !ok {
				return nil
			}
			return statusMsg{envTag{name}, st}
		case <-root.Done():
			return nil
		}
	})
}

// tokenCmd reads the stored token's expiry off the event loop.
func (m *Model) tokenCmd(e *envState) tea.Cmd {
	if e == nil || e.Session == nil {
		return nil
	}
	sess := e.Session
	name := e.Name
	return m.c.task(func() tea.Msg {
		st, err := sess.Status()
		if err != nil || st == nil {
			return tokenMsg{envTag{name}, time.Time{}}
		}
		return tokenMsg{envTag{name}, st.AccessExpiry}
	})
}

// userCmd fetches who is signed in, for the footer.
func (m *Model) userCmd(e *envState) tea.Cmd {
	if e == nil || e.API == nil || e.Session == nil || !e.Session.SignedIn() || e.user != nil {
		return nil
	}
	a, ctx, name := e.API, e.ctx, e.Name
	return m.c.task(func() tea.Msg {
		u, err := a.User(ctx)
		return userMsg{envTag{name}, 0, u, err}
	})
}

func (m *Model) startClock() tea.Cmd {
	m.clockSeq++
	m.clockFast = m.needFastClock()
	return m.clockTick()
}

func (m *Model) clockTick() tea.Cmd {
	seq := m.clockSeq
	d := clockSlow
	if m.clockFast {
		d = clockFast
	}
	return m.c.tick(d, func(time.Time) tea.Msg { return clockMsg{seq} })
}

// needFastClock is true while a countdown is on screen.
func (m *Model) needFastClock() bool {
	e := m.c.env
	if e == nil {
		return false
	}
	if !e.status.RetryAt.IsZero() {
		return true
	}
	left := e.expiry.Sub(m.c.now())
	return !e.expiry.IsZero() && left > 0 && left < 2*time.Minute
}

func (m *Model) setFlash(text string, bad bool) tea.Cmd {
	m.flashID++
	m.flash, m.flashBad = text, bad
	id := m.flashID
	return m.c.tick(flashDelay, func(time.Time) tea.Msg { return flashClearMsg{id} })
}

// Update routes messages: keys to the top screen (after the global keys),
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
	if m.c.env == nil {
		if k, ok := msg.(tea.KeyPressMsg); ok && (key.Matches(k, m.c.keys.Quit, m.c.keys.ForceQuit)) {
			return m, tea.Quit
		}
		return m, nil
	}
	cmd = m.route(msg)
	return m, tea.Batch(cmd, m.spinCmd())
}

func (m *Model) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
		return m.broadcast(msg)
	case tea.BackgroundColorMsg:
		m.c.isDark = msg.IsDark()
		m.c.styles = newStyles(m.c.isDark, m.c.noColor)
		m.spin.Style = m.c.styles.spinner
		m.help.Styles = helpStyles(m.c)
		return m.broadcast(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	case spinner.TickMsg:
		if !m.busy() {
			m.spinning = false
			return nil
		}
		// The spinner's own follow-up tick is replaced by one through
		// c.tick so tests control time.
		m.spin, _ = m.spin.Update(msg)
		return m.spinTick()
	case clockMsg:
		if msg.seq != m.clockSeq {
			return nil
		}
		m.clockFast = m.needFastClock()
		return m.clockTick()
	case flashMsg:
		return m.setFlash(msg.text, msg.bad)
	case flashClearMsg:
		if msg.id == m.flashID {
			m.flash = ""
		}
		return nil
	case crashMsg:
		m.crashed = fmt.Errorf("%v", msg.reason)
		return tea.Quit
	case statusMsg:
		e := m.envs[msg.env]
		if e == nil {
			return nil
		}
		e.status = msg.status
		cmds := []tea.Cmd{m.listen(e)}
		if e == m.c.env && m.needFastClock() && !m.clockFast {
			cmds = append(cmds, m.startClock())
		}
		return tea.Batch(cmds...)
	case tokenMsg:
		if e := m.envs[msg.env]; e != nil {
			e.expiry = msg.expiry
		}
		if m.needFastClock() && !m.clockFast {
			return m.startClock()
		}
		return nil
	case signedInMsg:
		if msg.env != m.c.env.Name {
			return nil
		}
		m.c.env.user = msg.user
		for _, s := range m.stack {
			s.close()
		}
		acc := newAccountsScreen(m.c, m.c.env)
		m.stack = []screen{acc}
		text := "Signed in to " + envTitle(msg.env)
		if msg.user != nil && msg.user.name != "" {
			text += " as " + msg.user.name
		}
		return tea.Batch(acc.init(), m.setFlash(text, false), m.tokenCmd(m.c.env))
	case pushMsg:
		if msg.env != m.c.env.Name {
			msg.s.close()
			return nil
		}
		m.stack = append(m.stack, msg.s)
		return msg.s.init()
	case envMsg:
		return m.result(msg)
	}
	if t := m.top(); t != nil {
		return t.update(msg)
	}
	return nil
}

// result handles an asynchronous response: stale environments are dropped,
// a 401 leads back to sign-in, everything else goes to the screens.
func (m *Model) result(msg envMsg) tea.Cmd {
	if msg.msgEnv() != m.c.env.Name {
		m.c.log.Debug("dropped a response of another environment", "env", string(msg.msgEnv()), "type", fmt.Sprintf("%T", msg))
		return nil
	}
	var cmds []tea.Cmd
	if em, ok := msg.(errMsg); ok {
		err := em.msgErr()
		if err != nil && !errors.Is(err, context.Canceled) {
			m.c.log.Warn("request failed", "env", string(msg.msgEnv()), "type", fmt.Sprintf("%T", msg), "error", err.Error())
		}
		if isUnauthorized(err) {
			if _, onSignin := m.top().(*signinScreen); !onSignin || len(m.stack) > 1 {
				return m.toSignIn(err)
			}
		}
		cmds = append(cmds, m.tokenCmd(m.c.env))
	}
	if um, ok := msg.(userMsg); ok && um.err == nil && um.user != nil {
		m.c.env.user = userFromAPI(um.user)
	}
	cmds = append(cmds, m.broadcast(msg))
	return tea.Batch(cmds...)
}

func isUnauthorized(err error) bool {
	return err != nil && (errors.Is(err, api.ErrUnauthorized) || errors.Is(err, auth.ErrSignInRequired))
}

// toSignIn replaces the whole navigation with the sign-in screen and says why.
func (m *Model) toSignIn(err error) tea.Cmd {
	e := m.c.env
	reason := fmt.Sprintf("%s session is no longer valid: %s. Sign in again.", envTitle(e.Name), describe(err))
	for _, s := range m.stack {
		s.close()
	}
	e.user = nil
	s := newSigninScreen(m.c, e, reason, m.loginTO)
	m.stack = []screen{s}
	m.showHelp = false
	m.c.log.Info("session rejected, back to sign-in", "env", string(e.Name))
	return s.init()
}

func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.stack))
	for _, s := range m.stack {
		cmds = append(cmds, s.update(msg))
	}
	return tea.Batch(cmds...)
}

func (m *Model) busy() bool {
	t := m.top()
	return (t != nil && t.busy()) || m.c.env.status.InFlight > 0
}

// spinCmd starts the spinner when something is loading and it is not
// already turning.
func (m *Model) spinCmd() tea.Cmd {
	if m.spinning || !m.busy() {
		return nil
	}
	m.spinning = true
	return m.spinTick()
}

func (m *Model) spinTick() tea.Cmd {
	sp := m.spin
	return m.c.tick(sp.Spinner.FPS, func(time.Time) tea.Msg { return sp.Tick() })
}

func (m *Model) quit() tea.Cmd {
	m.Close()
	return tea.Quit
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	if key.Matches(msg, k.ForceQuit) {
		return m.quit()
	}
	if m.confirm {
		m.confirm = false
		if key.Matches(msg, k.Confirm) {
			return m.switchTo(config.Live)
		}
		return m.setFlash("Stayed in "+envTitle(m.c.env.Name), false)
	}
	if m.showHelp {
		if key.Matches(msg, k.Help, k.Back, k.Quit) {
			m.showHelp = false
		}
		return nil
	}
	t := m.top()
	if t.capturing() {
		return t.update(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return nil
	case key.Matches(msg, k.Env):
		return m.requestSwitch()
	case key.Matches(msg, k.Back):
		if ok, cmd := t.back(); ok {
			return cmd
		}
		if len(m.stack) > 1 {
			t.close()
			m.stack = m.stack[:len(m.stack)-1]
		}
		return nil
	}
	return t.update(msg)
}

func (m *Model) requestSwitch() tea.Cmd {
	other := m.c.env.Name.Other()
	if m.envs[other] == nil {
		return m.setFlash(envTitle(other)+" is not configured: add a ["+string(other)+"] table with its client_id to the config file", true)
	}
	if other == config.Live {
		m.confirm = true
		return nil
	}
	return m.switchTo(other)
}

// switchTo follows k9s's context switch: stop what runs, drop the history,
// swap the environment, open its home screen.
func (m *Model) switchTo(name config.EnvName) tea.Cmd {
	old := m.c.env
	old.cancel()
	old.ctx, old.cancel = context.WithCancel(m.root)
	for _, s := range m.stack {
		s.close()
	}
	m.showHelp = false
	m.c.env = m.envs[name]
	m.c.log.Info("environment switched", "from", string(old.Name), "to", string(name))
	h := m.home("")
	m.stack = []screen{h}
	return tea.Batch(h.init(), m.setFlash("Switched to "+envTitle(name), false),
		m.tokenCmd(m.c.env), m.userCmd(m.c.env), m.startClock())
}

// View draws header, body, message line and footer.
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
	if m.c.env != nil {
		v.WindowTitle = "partnertui · " + envTitle(m.c.env.Name)
	}
	return v
}

func (m *Model) render() string {
	w, h := m.c.width, m.c.height
	if w <= 0 || h <= 0 {
		return ""
	}
	if m.c.env == nil {
		return fit("No environment is configured: add a [sandbox] or [live] table to the config file. Press q to quit.", w, h)
	}
	m.c.spinFrame = m.spin.View()
	header := m.headerView(w)
	footer := m.footerView(w)
	if h < 3 {
		return fit(footer, w, h)
	}
	bodyH := h - 3
	var body string
	if m.showHelp {
		body = m.helpView(w, bodyH)
	} else {
		body = m.top().view(w, bodyH)
	}
	return header + "\n" + fit(body, w, bodyH) + "\n" + trunc(m.messageLine(w), w) + "\n" + footer
}

func (m *Model) headerView(w int) string {
	parts := []string{m.c.badge(m.c.env.Name), m.c.styles.title.Render("partnertui")}
	crumbs := make([]string, 0, len(m.stack))
	for _, s := range m.stack {
		crumbs = append(crumbs, s.title())
	}
	if m.showHelp {
		crumbs = append(crumbs, "Help")
	}
	line := strings.Join(parts, " ") + " " + strings.Join(crumbs, " › ")
	if m.c.env.ReadOnly || m.c.env.Name == config.Live {
		line += m.c.styles.dim.Render("  read-only")
	}
	return trunc(line, w)
}

func (m *Model) messageLine(w int) string {
	s := m.c.styles
	switch {
	case m.confirm:
		return s.warn.Render(TextConfirmLive + " Real accounts, real money. y confirms, any other key stays.")
	case m.flash != "" && m.flashBad:
		return s.err.Render("✗ " + m.flash)
	case m.flash != "":
		return s.ok.Render("✓ " + m.flash)
	}
	return ""
}

func (m *Model) helpView(w, h int) string {
	t := m.top()
	groups := append(t.FullHelp(), m.c.keys.global())
	title := m.c.styles.title.Render("Help · "+t.title()) + m.c.styles.dim.Render("  (? or esc to close)")
	return title + "\n\n" + m.help.FullHelpView(groups)
}

// footerView: badge · user · used/limit · status+latency · 429 countdown ·
// token time left · spinner · ? help. Lower-priority parts are dropped
// first when the terminal is narrow.
func (m *Model) footerView(w int) string {
	e := m.c.env
	s := m.c.styles
	now := m.c.now()
	type part struct {
		text string
		prio int // lower is kept longer
	}
	parts := []part{{m.c.badge(e.Name), 0}}
	if e.user != nil {
		name := e.user.name
		if name == "" {
			name = e.user.phone
		}
		parts = append(parts, part{s.footer.Render(trunc(name, 20)), 5})
	}
	st := e.status
	limit := st.Limit
	if limit == 0 {
		limit = 2000
	}
	parts = append(parts, part{s.footer.Render(fmt.Sprintf("%d/%d", st.Used, limit)), 4})
	if st.LastStatus != 0 {
		parts = append(parts, part{s.footer.Render(fmt.Sprintf("%d %s", st.LastStatus, latency(st.LastLatency))), 6})
	}
	if !st.RetryAt.IsZero() {
		what := "429"
		if st.Throttled {
			what = "budget"
		}
		left := st.RetryAt.Sub(now)
		text := what + " · retrying now"
		if left > 0 {
			text = fmt.Sprintf("%s · retrying in %s", what, shortDuration(left.Round(time.Second)))
		}
		parts = append(parts, part{s.countdown.Render(text), 1})
	}
	if !e.expiry.IsZero() {
		left := e.expiry.Sub(now)
		text := "token " + shortDuration(left)
		if left <= 0 {
			text = "token expired"
		}
		parts = append(parts, part{s.footer.Render(text), 7})
	}
	if m.busy() {
		parts = append(parts, part{m.c.spinFrame, 3})
	}
	parts = append(parts, part{s.dim.Render("? help"), 2})
	sep := s.dim.Render(" · ")
	join := func(ps []part) string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.text
		}
		return strings.Join(out, sep)
	}
	for lipgloss.Width(join(parts)) > w {
		worst := -1
		for i, p := range parts {
			if p.prio > 0 && (worst < 0 || p.prio > parts[worst].prio) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		parts = append(parts[:worst], parts[worst+1:]...)
	}
	return trunc(join(parts), w)
}

// helpStyles are bubbles' help styles, or plain ones without colour.
func helpStyles(c *common) help.Styles {
	if c.noColor {
		bold := lipgloss.NewStyle().Bold(true)
		return help.Styles{ShortKey: bold, FullKey: bold}
	}
	return help.DefaultStyles(c.isDark)
}

func latency(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

func userFromAPI(u *api.User) *userInfo {
	name := u.FullName
	if name == "" {
		name = strings.TrimSpace(u.FirstName + " " + u.LastName)
	}
	return &userInfo{name: name, phone: u.MobilePhoneNumber}
}

// describe turns an error into one sentence with the next step.
func describe(err error) string {
	if err == nil {
		return ""
	}
	text := err.Error()
	switch {
	case errors.Is(err, api.ErrUnauthorized):
		return text + " (the server answered 401)"
	case errors.Is(err, api.ErrRateLimited):
		return text + "; requests resume automatically, see the footer countdown"
	case errors.Is(err, api.ErrOperationLimit):
		return text + "; the query exceeded the Sandbox operation limits, narrow the filter"
	case errors.Is(err, api.ErrNotFound):
		return text + "; it may have been deleted, press r to refresh"
	case errors.Is(err, api.ErrNoTestingAPI):
		return text
	case errors.Is(err, context.DeadlineExceeded):
		return text + "; the server did not answer in time, press r to retry"
	}
	return text
}
