package cli

import (
	"fmt"
	"sync"
	"time"
)

// progressLine is the one line of stderr where a command says what it is
// doing while it works: progress through a long list, and how long it waits
// and why. On a terminal the line is rewritten in place (a live countdown);
// elsewhere progress is silent and each wait is one plain line, so logs and
// scripts see the wait without the noise. stdout never carries any of it.
type progressLine struct {
	io   IO
	tty  bool
	now  func() time.Time
	tick time.Duration

	mu      sync.Mutex
	text    string // the progress part
	waitFor string // why we wait; "" when not waiting
	until   time.Time
	shown   bool
	stop    chan struct{}
}

func newProgressLine(streams IO) *progressLine {
	return &progressLine{io: streams, tty: streams.ErrIsTerminal(), now: time.Now, tick: time.Second}
}

// set replaces the progress text (terminal only).
func (p *progressLine) set(text string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.text = text
	p.drawLocked()
}

// wait says the command waits until until because of reason ("for the
// request budget"). On a terminal the line counts down until waitDone.
func (p *progressLine) wait(reason string, until time.Time) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty {
		fmt.Fprintf(p.io.Err, "waiting %s %s (until %s)\n", roundWait(until.Sub(p.now())), reason, until.Local().Format("15:04:05"))
		return
	}
	p.waitFor, p.until = reason, until
	p.drawLocked()
	if p.stop == nil {
		p.stop = make(chan struct{})
		go p.countdown(p.stop)
	}
}

// waitDone ends the countdown.
func (p *progressLine) waitDone() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.waitFor = ""
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	p.drawLocked()
}

func (p *progressLine) countdown(stop chan struct{}) {
	t := time.NewTicker(p.tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.drawLocked()
			p.mu.Unlock()
		}
	}
}

// clear removes the line from the terminal.
func (p *progressLine) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	if p.tty && p.shown {
		fmt.Fprint(p.io.Err, "\r\x1b[K")
	}
	p.shown = false
	p.text, p.waitFor = "", ""
}

func (p *progressLine) drawLocked() {
	if !p.tty {
		return
	}
	line := p.text
	if p.waitFor != "" {
		w := fmt.Sprintf("waiting %s %s", roundWait(p.until.Sub(p.now())), p.waitFor)
		if line != "" {
			line += " · "
		}
		line += w
	}
	fmt.Fprint(p.io.Err, "\r\x1b[K"+line)
	p.shown = line != ""
}

// roundWait shows a wait to the second, never below one.
func roundWait(d time.Duration) time.Duration {
	return max(d.Round(time.Second), time.Second)
}
