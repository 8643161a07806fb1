package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/ui/pagedlist"
)

// pager is the body of a screen that shows one long text and sends no
// request: a viewport scrolled with the list keys, and a status line that
// says how far it is scrolled. The screen embedding it adds its title and
// its own keys.
type pager struct {
	c       *common
	vp      viewport.Model
	nav     pagedlist.KeyMap
	content func() string
	// status, when set and not "", replaces the scroll position on the
	// status line (a question, work in progress).
	status func() string
	w, h   int
}

func newPager(c *common, content func() string) pager {
	vp := viewport.New()
	vp.SoftWrap = true
	return pager{c: c, vp: vp, nav: navKeys(), content: content}
}

func (p *pager) init() tea.Cmd   { return nil }
func (p *pager) capturing() bool { return false }
func (p *pager) busy() bool      { return false }
func (p *pager) close()          {}

func (p *pager) setSize(w, h int) {
	p.w, p.h = w, h
	p.vp.SetWidth(max(w, 1))
	p.vp.SetHeight(max(h-1, 0))
	p.vp.SetContent(p.content())
}

func (p *pager) update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		p.vp.SetContent(p.content())
	}
	return nil
}

func (p *pager) navHelp() []key.Binding {
	n := p.nav
	return []key.Binding{n.Up, n.Down, n.PageUp, n.PageDown, n.Top, n.Bottom}
}

func (p *pager) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	n := p.nav
	switch {
	case key.Matches(msg, n.Up):
		p.vp.ScrollUp(1)
	case key.Matches(msg, n.Down):
		p.vp.ScrollDown(1)
	case key.Matches(msg, n.PageUp):
		p.vp.PageUp()
	case key.Matches(msg, n.PageDown):
		p.vp.PageDown()
	case key.Matches(msg, n.Top):
		p.vp.GotoTop()
	case key.Matches(msg, n.Bottom):
		p.vp.GotoBottom()
	default:
		return nil, false
	}
	return nil, true
}

func (p *pager) view() string {
	if p.h <= 0 {
		return ""
	}
	return fit(p.vp.View(), p.w, p.h-1) + "\n" + p.statusLine()
}

// statusLine is the screen's status, or how far the text is scrolled.
func (p *pager) statusLine() string {
	if p.status != nil {
		if s := p.status(); s != "" {
			return trunc(s, p.w)
		}
	}
	total, first := p.vp.TotalLineCount(), p.vp.YOffset()+1
	text := fmt.Sprintf("lines %d–%d of %d", first, min(first+p.vp.Height()-1, total), total)
	if total <= p.vp.Height() {
		text = "all shown"
	}
	return trunc(p.c.styles.dimP.Render(text), p.w)
}
