package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/platform"
)

// The chrome is the three lines around the screens: the header (badge,
// breadcrumbs), the hint line (a question, a flash, or the keys of the
// screen) and the footer (badge, who, budget, status, countdowns, spinner).
// Its lines are rebuilt after an update only when what they show changed,
// so a key press that moves a cursor redraws none of them.
const chromeLines = 3

// bodySize is what the chrome leaves for the screens: the header's line
// too while the screen on top takes it, and the lines a failure's whole
// sentence takes on the hint line beyond its own.
func (m *Model) bodySize() (w, h int) {
	lines := chromeLines + max(m.hintRows, 1) - 1
	if m.noHeader {
		lines--
	}
	return max(m.w, 0), max(m.h-lines, 0)
}

// headerTaker is a screen that needs every line it can get while it shows
// something that cannot be cut (the IBAN's QR code): the header steps
// aside, the hint line and the footer stay.
type headerTaker interface{ takesHeader() bool }

// takeHeader resizes the screens when the top one starts or stops taking
// the header's line.
func (m *Model) takeHeader() {
	t, _ := m.top().(headerTaker)
	take := t != nil && t.takesHeader() && !m.showHelp
	if take != m.noHeader {
		m.noHeader = take
		m.resize()
	}
}

// chrome caches the rendered chrome lines with what they were drawn from.
type chrome struct {
	header, hints, footer string

	headerKey headerKey
	titles    []string
	hintKey   hintKey
	hintBinds []drawnBinding
	footerKey footerKey
	styleGen  int
}

type headerKey struct {
	w        int
	env      config.EnvName
	help, ro bool
	styleGen int
}

type hintKey struct {
	w, h     int
	confirm  bool
	signOut  bool
	flash    string
	bad      bool
	styleGen int
}

type footerKey struct {
	w        int
	env      config.EnvName
	owner    *owner
	status   api.Status
	expiry   time.Time
	nowSec   int64
	busy     bool
	spin     string
	styleGen int
}

// coverable is a screen that spends requests on its own (a live tail)
// and stops while another screen covers it.
type coverable interface{ setCovered(bool) }

// restyled forces every line to be drawn again with the new styles.
func (c *chrome) restyled() { c.styleGen++ }

// refresh brings the global keys and the chrome up to date after an update.
func (m *Model) refresh() {
	if m.env == nil {
		return
	}
	m.takeHeader()
	t := m.top()
	for _, s := range m.stack {
		if c, ok := s.(coverable); ok {
			c.setCovered(s != t)
		}
	}
	m.keys.Back.SetEnabled(len(m.stack) > 1 && !uses(t.FullHelp(), "esc"))
	m.keys.Events.SetEnabled(m.env.ProjectAPI != nil && !isEventsScreen(t))
	c := &m.chrome

	hk := headerKey{w: m.w, env: m.env.Name, help: m.showHelp, ro: m.env.ReadOnly, styleGen: c.styleGen}
	if hk != c.headerKey || !sameTitles(c.titles, m.stack) {
		c.headerKey = hk
		c.titles = c.titles[:0]
		for _, s := range m.stack {
			c.titles = append(c.titles, s.title())
		}
		c.header = m.headerView()
	}

	ik := hintKey{w: m.w, h: m.h, confirm: m.confirm, signOut: m.signingOut, flash: m.flash.text, bad: m.flash.bad, styleGen: c.styleGen}
	binds := m.hintBindings()
	if ik != c.hintKey || !sameHelp(c.hintBinds, binds) {
		c.hintKey = ik
		c.hintBinds = c.hintBinds[:0]
		for _, b := range binds {
			c.hintBinds = append(c.hintBinds, drawnBinding{b.Help(), b.Enabled()})
		}
		c.hints = m.hintLine(binds)
	}
	if rows := strings.Count(c.hints, "\n") + 1; rows != max(m.hintRows, 1) {
		// A failure's sentence came or went: the body gives up or gets
		// back the lines it takes.
		m.hintRows = rows
		m.resize()
	}

	fk := footerKey{w: m.w, env: m.env.Name, owner: m.env.owner, status: m.env.footerStatus(), expiry: m.env.expiry,
		busy: m.busy(), spin: m.c.spinFrame, styleGen: c.styleGen}
	if !fk.status.RetryAt.IsZero() || !fk.expiry.IsZero() {
		// Countdowns change with the clock, by the second at most.
		fk.nowSec = m.c.now().Unix()
	}
	if fk != c.footerKey {
		c.footerKey = fk
		c.footer = m.footerView()
	}
}

func sameTitles(titles []string, stack []screen) bool {
	if len(titles) != len(stack) {
		return false
	}
	for i, s := range stack {
		if titles[i] != s.title() {
			return false
		}
	}
	return true
}

// drawnBinding is what the hint line drew of a binding: a disabled one is
// left out, so enabling it (a row got selected) changes the line too.
type drawnBinding struct {
	help key.Help
	on   bool
}

func sameHelp(drawn []drawnBinding, binds []key.Binding) bool {
	if len(drawn) != len(binds) {
		return false
	}
	for i, b := range binds {
		if drawn[i] != (drawnBinding{b.Help(), b.Enabled()}) {
			return false
		}
	}
	return true
}

// render assembles the screen: header, body, hint line, footer.
func (m *Model) render() string {
	w, h := m.w, m.h
	if w <= 0 || h <= 0 {
		return ""
	}
	if m.env == nil {
		return fit("No environment is configured: add a [sandbox] or [live] table to the config file. Press q to quit.", w, h)
	}
	if h < chromeLines {
		return fit(m.chrome.footer, w, h)
	}
	body := ""
	if m.showHelp {
		body = m.helpView()
	} else {
		body = m.top().view()
	}
	var b strings.Builder
	b.Grow(len(m.chrome.header) + len(body) + len(m.chrome.hints) + len(m.chrome.footer) + 3)
	if !m.noHeader {
		b.WriteString(m.chrome.header)
		b.WriteByte('\n')
	}
	if _, bh := m.bodySize(); bh > 0 {
		b.WriteString(body)
		b.WriteByte('\n')
	}
	b.WriteString(m.chrome.hints)
	b.WriteByte('\n')
	b.WriteString(m.chrome.footer)
	return b.String()
}

func (m *Model) headerView() string {
	parts := []string{m.c.badge(m.env.Name), m.c.styles.title.Render("partnertui")}
	crumbs := make([]string, 0, len(m.stack)+1)
	for _, s := range m.stack {
		// A screen with no title (the : palette) is no place of its own.
		if t := s.title(); t != "" {
			crumbs = append(crumbs, t)
		}
	}
	if m.showHelp {
		crumbs = append(crumbs, "Help")
	}
	line := strings.Join(parts, " ") + " " + strings.Join(crumbs, " › ")
	if m.env.ReadOnly {
		line += m.c.styles.dim.Render("  read-only")
	}
	return trunc(line, m.w)
}

// hintBindings are the keys the hint line shows: the help's own while it is
// open, the screen's alone while it takes text (where e and q are letters),
// else the screen's and the global ones.
func (m *Model) hintBindings() []key.Binding {
	t := m.top()
	switch {
	case m.showHelp:
		return []key.Binding{m.keys.CloseHelp}
	case t.capturing():
		return t.ShortHelp()
	}
	return append(t.ShortHelp(), m.keys.short()...)
}

// hintLine is the line above the footer: the Live question, a flash, or the
// keys of the screen. A failure is never cut at the width: its whole
// sentence wraps over the lines it needs, above the footer (all but the
// header's, the footer's and one line of the screen's at most).
func (m *Model) hintLine(binds []key.Binding) string {
	s := m.c.styles
	var line string
	switch {
	case m.confirm:
		line = s.warn.Render(TextConfirmLive + " Real accounts, real money. " + m.keys.Confirm.Help().Key + " confirms, any other key stays.")
	case m.signingOut:
		line = s.warn.Render(m.signOutQuestion())
	case m.flash.text != "" && m.flash.bad:
		text := wrap(s.err.Render("✗ "+m.flash.text), m.w)
		return fit(text, m.w, m.maxHintRows(text))
	case m.flash.text != "":
		line = s.ok.Render("✓ " + m.flash.text)
	default:
		line = m.shortHelp(binds)
	}
	return trunc(line, m.w)
}

// maxHintRows is the rows text takes on the hint line: its own, but no
// more than the header, the footer and a line of the screen leave.
func (m *Model) maxHintRows(text string) int {
	return max(min(strings.Count(text, "\n")+1, m.h-chromeLines), 1)
}

// shortHelp is as many whole bindings as fit the width, in order, with no
// "…" after them: the ? help has them all, and the footer says so.
func (m *Model) shortHelp(binds []key.Binding) string {
	h := m.help
	h.SetWidth(0)
	on := enabled(binds...)
	for n := len(on); n > 0; n-- {
		if line := h.ShortHelpView(on[:n]); lipgloss.Width(line) <= m.w {
			return line
		}
	}
	return ""
}

// helpGroups are the columns of the ? help: the screen's bindings, then
// the global ones.
func (m *Model) helpGroups() [][]key.Binding {
	t := m.top()
	globals := m.keys.full()
	if uses(t.FullHelp(), "esc") {
		globals = globals[1:] // the screen's esc says what esc does there
	}
	return append(t.FullHelp(), globals)
}

// helpView is the ? help.
func (m *Model) helpView() string {
	w, h := m.bodySize()
	title := m.c.styles.title.Render("Help · "+m.top().title()) + m.c.styles.dim.Render("  ("+m.keys.CloseHelp.Help().Key+" to close)")
	return fit(title+"\n\n"+m.helpColumns(w), w, h)
}

// helpColumns lays the help's columns side by side while they fit the
// width, then in further rows of columns, so that every binding shows
// whole (the help's own view cuts the columns that do not fit).
func (m *Model) helpColumns(w int) string {
	h := m.help
	h.SetWidth(0)
	sep := h.Styles.FullSeparator.Inline(true).Render(h.FullSeparator)
	sepW := lipgloss.Width(sep)
	var rows, row []string
	rowW := 0
	for _, g := range m.helpGroups() {
		col := h.FullHelpView([][]key.Binding{g})
		if col == "" {
			continue
		}
		colW := lipgloss.Width(col)
		if len(row) > 0 && rowW+sepW+colW > w {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowW = nil, 0
		}
		if len(row) > 0 {
			row = append(row, sep)
			rowW += sepW
		}
		row = append(row, col)
		rowW += colW
	}
	if len(row) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	}
	return strings.Join(rows, "\n\n")
}

// footerView: badge · who · used/limit · status+latency · wait countdown ·
// token time left · spinner · ? help. Lower-priority parts are dropped
// first when the terminal is narrow.
func (m *Model) footerView() string {
	e := m.env
	s := m.c.styles
	now := m.c.now()
	type part struct {
		text string
		prio int // lower is kept longer
	}
	parts := []part{{m.c.badge(e.Name), 0}}
	if o := e.owner; o != nil {
		name := o.name
		if name == "" {
			name = o.phone
		}
		if o.project {
			name = "project " + name
		}
		parts = append(parts, part{s.footer.Render(trunc(name, 28)), 5})
	}
	st := e.footerStatus()
	limit := st.Limit
	if limit == 0 {
		limit = platform.RequestBudget
	}
	parts = append(parts, part{s.footer.Render(fmt.Sprintf("%d/%d", st.Used, limit)), 4})
	if st.LastStatus != 0 {
		parts = append(parts, part{s.footer.Render(fmt.Sprintf("%d %s", st.LastStatus, latency(st.LastLatency))), 6})
	}
	if text := footerWait(st, now); text != "" {
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
	hk := m.keys.Help.Help()
	parts = append(parts, part{s.dim.Render(hk.Key + " " + hk.Desc), 2})
	sep := s.dim.Render(" · ")
	join := func(ps []part) string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.text
		}
		return strings.Join(out, sep)
	}
	for lipgloss.Width(join(parts)) > m.w {
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
	return trunc(join(parts), m.w)
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
