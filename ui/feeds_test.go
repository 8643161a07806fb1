package ui

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// tickRecorder is a common whose timers are recorded, not started.
func tickRecorder() (*common, *[]time.Duration) {
	var ticks []time.Duration
	c := &common{styles: newStyles(true, true), tick: func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		ticks = append(ticks, d)
		return func() tea.Msg { return fn(testNow) }
	}}
	return c, &ticks
}

// The flash, the clock and the spinner keep their own state, apart from
// the routing: each is driven here alone.
func TestFlashClockAndSpinnerOnTheirOwn(t *testing.T) {
	t.Parallel()
	c, ticks := tickRecorder()

	var f flash
	first := f.set(c, "Saved", false)
	second := f.set(c, "Copied", false)
	f.expire(first().(flashClearMsg))
	if f.text != "Copied" {
		t.Fatalf("the first flash's timer cleared the second: %q", f.text)
	}
	f.seen()
	if f.text != "Copied" {
		t.Fatalf("a key cleared a good outcome: %q", f.text)
	}
	f.expire(second().(flashClearMsg))
	if f.text != "" {
		t.Fatalf("the flash stayed after its time: %q", f.text)
	}
	if cmd := f.set(c, "Failed", true); cmd != nil {
		t.Fatal("a failure has a timer")
	}
	f.seen()
	if f.text != "" || f.bad {
		t.Fatalf("a failure stayed after a key: %+v", f)
	}

	var k clock
	old := k.start(c, false)().(clockMsg)
	now := k.start(c, true)().(clockMsg)
	if k.current(old) || !k.current(now) || !k.fast {
		t.Fatalf("restarted clock: old tick current %v, new %v, fast %v", k.current(old), k.current(now), k.fast)
	}
	if got := (*ticks)[len(*ticks)-2:]; got[0] != clockSlow || got[1] != clockFast {
		t.Fatalf("clock ticks %v, want %v then %v", got, clockSlow, clockFast)
	}

	s := newSpin(c)
	if s.start(c, false) != nil {
		t.Fatal("the spinner turns with nothing loading")
	}
	if s.start(c, true) == nil || s.start(c, true) != nil {
		t.Fatal("the spinner must start once while something loads")
	}
	frame := c.spinFrame
	if s.step(c, spinner.TickMsg{}, true) == nil || c.spinFrame == frame {
		t.Fatalf("the spinner did not turn: frame %q", c.spinFrame)
	}
	if s.step(c, spinner.TickMsg{}, false) != nil || s.turning {
		t.Fatal("the spinner turns on with nothing loading")
	}
}
