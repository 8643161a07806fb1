package cli

import (
	"fmt"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
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
	// width is the terminal's width in cells, asked at every draw (the
	// window may be resized during a wait); 0 when unknown.
	width func() int

	mu    sync.Mutex
	text  string               // the progress part
	waits map[waitKey]heldWait // the waits in progress, of every API client of the command
	// said are the waits said off a terminal, by when they began (Unix
	// ns), with the end each was said to have: a wait whose end moves by
	// less than a second is not said again.
	said  map[int64]heldWait
	shown bool
	stop  chan struct{}
}

// waitKey tells one API client's wait from another's: both clients of an
// environment (user and project token) report to the same line, and one's
// wait ending must not hide the other's.
type waitKey struct {
	reason api.WaitReason
	until  int64 // Unix ns
}

type heldWait struct {
	why   string // why we wait, for people
	until time.Time
}

func newProgressLine(streams IO) *progressLine {
	return &progressLine{io: streams, tty: streams.ErrIsTerminal(), now: time.Now, tick: time.Second, width: streams.errWidth}
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

// Set replaces the progress text: what an engine waits for
// (trigger.Progress).
func (p *progressLine) Set(text string) { p.set(text) }

// Clear removes the line (trigger.Progress).
func (p *progressLine) Clear() { p.clear() }

// wait says the command waits until until because of reason ("for the
// request budget"). On a terminal the line counts down until waitDone.
func (p *progressLine) wait(reason string, until time.Time) {
	if p == nil {
		return
	}
	p.startWait(waitKey{}, reason, p.now(), until)
}

// waitDone ends the countdown of wait.
func (p *progressLine) waitDone() { p.endWait(waitKey{}) }

// startWait says that the wait k, begun at since, lasts until until: one
// line on stderr, or on a terminal a countdown that lasts until endWait(k).
// Off a terminal a wait is said once: when it goes on changed (same start),
// it is said again only if it now ends a second or more later, or for
// another reason.
func (p *progressLine) startWait(k waitKey, why string, since, until time.Time) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty {
		if p.saidLocked(since, why, until) {
			return
		}
		fmt.Fprintf(p.io.Err, "waiting %s, until %s, %s\n", roundWait(until.Sub(p.now())), localClock(until), why)
		return
	}
	if p.waits == nil {
		p.waits = map[waitKey]heldWait{}
	}
	p.waits[k] = heldWait{why: why, until: until}
	p.drawLocked()
	if p.stop == nil {
		p.stop = make(chan struct{})
		go p.countdown(p.stop)
	}
}

// saidForgetAfter: a said wait is forgotten this long after its end (a
// long-running command would otherwise keep every wait it ever said).
const saidForgetAfter = time.Minute

// saidLocked reports whether the wait begun at since was said already with
// the same reason and an end less than a second before until, and records
// it as said otherwise.
func (p *progressLine) saidLocked(since time.Time, why string, until time.Time) bool {
	now := p.now()
	for k, h := range p.said {
		if now.Sub(h.until) > saidForgetAfter {
			delete(p.said, k)
		}
	}
	key := since.UnixNano()
	if h, ok := p.said[key]; ok && h.why == why && until.Sub(h.until) < time.Second {
		return true
	}
	if p.said == nil {
		p.said = map[int64]heldWait{}
	}
	p.said[key] = heldWait{why: why, until: until}
	return false
}

// endWait ends wait k; the line goes on counting down the others.
func (p *progressLine) endWait(k waitKey) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.waits, k)
	if len(p.waits) == 0 && p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	p.drawLocked()
}

// longestLocked is the wait that ends last, which the line counts down.
func (p *progressLine) longestLocked() (heldWait, bool) {
	var w heldWait
	for _, h := range p.waits {
		if h.until.After(w.until) {
			w = h
		}
	}
	return w, len(p.waits) > 0
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
	p.text, p.waits = "", nil
}

func (p *progressLine) drawLocked() {
	if !p.tty {
		return
	}
	line := p.text
	if h, ok := p.longestLocked(); ok {
		w := fmt.Sprintf("waiting %s %s", roundWait(h.until.Sub(p.now())), h.why)
		if line != "" {
			line += " · "
		}
		line += w
	}
	fmt.Fprint(p.io.Err, "\r\x1b[K"+fitLine(line, p.width))
	p.shown = line != ""
}

// fitLine cuts line to one cell less than the terminal's width: a line
// that reaches the last column, or wraps, leaves the cursor where "\r"
// no longer rewrites all of it, and every redraw would leave a line
// behind.
func fitLine(line string, width func() int) string {
	if width == nil {
		return line
	}
	if w := width(); w > 1 {
		return ansi.Truncate(line, w-1, "…")
	}
	return line
}

// minWaitShown: a spent budget's waits shorter than this are not worth a
// line (it frees a slot every few milliseconds while old requests leave
// the window).
const minWaitShown = time.Second

// onWait shows an API client's waits: api.Options.OnWait. A 429's wait is
// always said, however short: the platform refused a request. A spent
// budget's is said from a second on, measured from when it began: by the
// time OnWait hears of a one-second wait a few milliseconds have passed,
// and measuring from then lost it, again and again, in one process of
// several sharing a budget.
func (p *progressLine) onWait(w api.Wait) {
	k := waitKey{reason: w.Reason, until: w.Until.UnixNano()}
	if w.Done {
		p.endWait(k)
		return
	}
	if w.Reason == api.WaitBudget && w.Until.Sub(w.Since) < minWaitShown {
		return
	}
	p.startWait(k, waitReason(w.Reason), w.Since, w.Until)
}

// waitReason says why the command waits, for people.
func waitReason(r api.WaitReason) string {
	switch r {
	case api.WaitBudget:
		return fmt.Sprintf("for the request budget (%d requests per %s, shared by every partnertui on this machine)",
			platform.RequestBudget, shortWindow(platform.BudgetWindow))
	case api.WaitRetryAfter:
		return "because the platform answered 429 Too Many Requests and said when to come back"
	case api.WaitBackoff:
		return "after a 429 Too Many Requests, before trying again"
	}
	return "for the platform"
}

func shortWindow(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%d minutes", int(d/time.Minute))
	}
	return d.String()
}

// roundWait shows a wait to the second, never below one.
func roundWait(d time.Duration) time.Duration {
	return max(d.Round(time.Second), time.Second)
}
