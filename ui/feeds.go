package ui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

// The chrome's feeds: the API status of each environment, the stored
// token's expiry, the clock that drives countdowns, the spinner and the
// flash messages. Everything that reads outside the event loop (a channel,
// the token store) does so in a command.

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

// statusPollMsg carries the statuses read by pollStatus.
type statusPollMsg struct {
	envTag
	api, project       api.Status
	hasAPI, hasProject bool
}

// pollStatus reads the environment's clients' statuses off the event loop:
// Status re-reads the machine-wide budget file, which is how the footer
// learns of other processes' requests and waits (Updates only tells of
// this process's own). The project client is read only when it is not
// the API client itself.
func (m *Model) pollStatus(e *envState) tea.Cmd {
	if e == nil {
		return nil
	}
	a, p := e.API, e.distinctProject()
	if a == nil && p == nil {
		return nil
	}
	name := e.Name
	return m.c.task(func() tea.Msg {
		msg := statusPollMsg{envTag: envTag{name}, hasAPI: a != nil, hasProject: p != nil}
		if a != nil {
			msg.api = a.Status()
		}
		if p != nil {
			msg.project = p.Status()
		}
		return msg
	})
}

// polled applies what pollStatus read, and speeds the clock up when a wait
// began meanwhile.
func (m *Model) polled(msg statusPollMsg) tea.Cmd {
	e := m.envs[msg.env]
	if e == nil {
		return nil
	}
	if msg.hasAPI {
		e.status = msg.api
	}
	if msg.hasProject {
		e.projectStatus = msg.project
	}
	if e == m.env && m.needFastClock() && !m.clock.fast {
		return m.startClock()
	}
	return nil
}

// distinctProject is the project-token client when it is another client
// than API (nil in project mode, where API is the project client, or when
// there is none).
func (e *envState) distinctProject() ProjectAPI {
	if e.ProjectAPI == nil {
		return nil
	}
	if a, ok := e.ProjectAPI.(API); ok && a == e.API {
		return nil
	}
	return e.ProjectAPI
}

// projectAPIStatus is the last status of the client ProjectAPI calls go
// through.
func (e *envState) projectAPIStatus() api.Status {
	if e.distinctProject() == nil {
		return e.status
	}
	return e.projectStatus
}

// footerStatus is what the footer shows of both clients: they share the
// machine's budget, so the count is the latest read of it, and a wait of
// either is the environment's wait.
func (e *envState) footerStatus() api.Status {
	st := e.status
	if e.distinctProject() == nil {
		return st
	}
	p := e.projectStatus
	st.Used = max(st.Used, p.Used)
	if st.RetryAt.IsZero() && !p.RetryAt.IsZero() {
		st.Waiting, st.WaitReason, st.RetryAt = p.Waiting, p.WaitReason, p.RetryAt
	}
	st.Retrying = st.Retrying || p.Retrying
	return st
}

// waitText says what holds a client's requests back and for how long, for
// a screen that would otherwise say "Loading…" or show an empty list:
// "waiting 12s for the request budget". It is "" when nothing waits.
func waitText(st api.Status, now time.Time) string {
	if st.RetryAt.IsZero() {
		return ""
	}
	what := "after an HTTP 429 (too many requests)"
	if st.WaitReason == api.WaitBudget {
		what = "for the request budget"
	}
	left := st.RetryAt.Sub(now).Round(time.Second)
	if left <= 0 {
		return "waiting " + what + ": sending now"
	}
	return "waiting " + shortDuration(left) + " " + what
}

// footerWait is the footer's countdown: "budget · sending in 12s" while the
// budget holds requests back, "429 · retrying in 3s" only while a query the
// server refused waits to be sent again, "429 · sending in 3s" while first
// sends wait out a 429 (this process's or another one's).
func footerWait(st api.Status, now time.Time) string {
	if st.RetryAt.IsZero() {
		return ""
	}
	what, verb := "429", "sending"
	if st.WaitReason == api.WaitBudget {
		what = "budget"
	}
	if st.Retrying {
		verb = "retrying"
	}
	left := st.RetryAt.Sub(now).Round(time.Second)
	if left <= 0 {
		return what + " · " + verb + " now"
	}
	return fmt.Sprintf("%s · %s in %s", what, verb, shortDuration(left))
}

// loadingText is a screen's line while its first answer is awaited: the
// wait that holds the request back, or "Loading what…".
func (c *common) loadingText(st api.Status, what string) string {
	if w := waitText(st, c.now()); w != "" {
		return c.spinFrame + " " + w
	}
	return c.spinFrame + " Loading " + what + "…"
}

// listWaiting is a paged list's Options.Waiting for e's API client (or
// its project client): read when the list is drawn, on the event loop.
func (c *common) listWaiting(e *envState, project bool) func() string {
	return func() string {
		st := e.status
		if project {
			st = e.projectAPIStatus()
		}
		return waitText(st, c.now())
	}
}

// tokenCmd reads the stored token's expiry off the event loop. A project
// token is not stored: there is nothing to read.
func (m *Model) tokenCmd(e *envState) tea.Cmd {
	if e == nil || e.Session == nil || e.Project {
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

// tokenWarmer is the optional part of a ProjectAPI (*api.Client has it)
// that fetches its token ahead.
type tokenWarmer interface{ WarmToken() error }

// warmProjectToken fetches the project token at launch and on a switch of
// environment, off the event loop, when the environment's user client is
// not the project's: the Events view's first read then costs its one round
// trip, not a token request on a new connection before it. The session
// keeps the token on disk, so this costs a request at most once per token
// lifetime.
func (m *Model) warmProjectToken(e *envState) tea.Cmd {
	w, ok := e.distinctProject().(tokenWarmer)
	if !ok {
		return nil
	}
	log, name := m.c.log, e.Name
	return m.c.task(func() tea.Msg {
		if err := w.WarmToken(); err != nil {
			// The Events view asks again, and says what failed.
			log.Info("project token not fetched ahead", "env", string(name), "error", err.Error())
		}
		return nil
	})
}

// startClock starts the clock over, at the pace the footer needs now.
func (m *Model) startClock() tea.Cmd { return m.clock.start(m.c, m.needFastClock()) }

// needFastClock is true while a countdown is on screen.
func (m *Model) needFastClock() bool {
	e := m.env
	if e == nil {
		return false
	}
	if !e.footerStatus().RetryAt.IsZero() {
		return true
	}
	left := e.expiry.Sub(m.c.now())
	return !e.expiry.IsZero() && left > 0 && left < 2*time.Minute
}

// setFlash shows text on the hint line (flash.set).
func (m *Model) setFlash(text string, bad bool) tea.Cmd { return m.flash.set(m.c, text, bad) }

// flash is the hint line's message. A good outcome goes after flashDelay;
// a failure stays until the next key, or until another flash replaces
// it: a user who looked away must still learn that it failed.
type flash struct {
	text string
	bad  bool
	id   int // of the flash shown, so that an earlier one's timer leaves it
}

func (f *flash) set(c *common, text string, bad bool) tea.Cmd {
	f.id++
	f.text, f.bad = text, bad
	if bad {
		return nil
	}
	id := f.id
	return c.tick(flashDelay, func(time.Time) tea.Msg { return flashClearMsg{id} })
}

// expire ends a good outcome's flash when its time is up.
func (f *flash) expire(msg flashClearMsg) {
	if msg.id == f.id {
		f.text = ""
	}
}

// seen: a key was pressed, so a failure shown has been seen and the next
// action replaces it.
func (f *flash) seen() {
	if f.bad {
		f.text, f.bad = "", false
	}
}

// clock drives the footer's countdowns: by the second while one is on
// screen, slower otherwise (it also paces the status poll).
type clock struct {
	seq  int // of the running clock: a restarted clock's old ticks are dropped
	fast bool
}

// start starts the clock over, fast or not.
func (k *clock) start(c *common, fast bool) tea.Cmd {
	k.seq++
	return k.tick(c, fast)
}

// current reports whether msg is the running clock's tick.
func (k *clock) current(msg clockMsg) bool { return msg.seq == k.seq }

// tick waits for the next tick, fast or not.
func (k *clock) tick(c *common, fast bool) tea.Cmd {
	k.fast = fast
	seq, d := k.seq, clockSlow
	if fast {
		d = clockFast
	}
	return c.tick(d, func(time.Time) tea.Msg { return clockMsg{seq} })
}

// spin is the spinner, turning while the screen on top waits; its frame
// is c.spinFrame, for the screens that show what they wait for.
type spin struct {
	model   spinner.Model
	turning bool
}

func newSpin(c *common) spin {
	s := spin{model: spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(c.styles.spinner))}
	c.spinFrame = s.model.View()
	return s
}

func (s *spin) restyle(c *common) {
	s.model.Style = c.styles.spinner
	c.spinFrame = s.model.View()
}

// start starts the spinner when something is loading and it is not
// already turning.
func (s *spin) start(c *common, busy bool) tea.Cmd {
	if s.turning || !busy {
		return nil
	}
	s.turning = true
	return s.next(c)
}

// step turns the spinner one frame while something is loading, and stops
// it otherwise.
func (s *spin) step(c *common, msg spinner.TickMsg, busy bool) tea.Cmd {
	if !busy {
		s.turning = false
		return nil
	}
	s.model, _ = s.model.Update(msg)
	c.spinFrame = s.model.View()
	return s.next(c)
}

// next waits for the next frame. The spinner's own follow-up tick is
// replaced by one through c.tick so tests control time.
func (s *spin) next(c *common) tea.Cmd {
	sp := s.model
	return c.tick(sp.Spinner.FPS, func(time.Time) tea.Msg { return sp.Tick() })
}
