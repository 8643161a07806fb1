package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
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
	e := m.env
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
