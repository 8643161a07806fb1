package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
)

// tabOverview is the Overview's tab: the first, before the table's.
const tabOverview = 0

type accountKeys struct {
	Next, Prev, Pick key.Binding
}

// newAccountKeys are the keys that change between n tabs.
func newAccountKeys(n int) accountKeys {
	numbers, help := tabKeys(n)
	return accountKeys{
		Next: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next tab")),
		Prev: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous tab")),
		Pick: key.NewBinding(key.WithKeys(numbers...), key.WithHelp(help, "tab by number")),
	}
}

// accountScreen is one account in tabs: the Overview, then a tab for each
// account tab of the table of views (views.go), each a paged list read
// the first time its tab is shown.
type accountScreen struct {
	c    *common
	env  *envState
	keys accountKeys
	w, h int

	overview *overviewScreen
	opening  *accountOpening
	tabs     []tabPane
	active   int
	// bar is the tab bar as last drawn, "" when it must be drawn again:
	// the tabs' titles are fixed, so only the width, the active tab and
	// the styles change it, never a key press inside a tab's list.
	bar string
}

func newAccountScreen(c *common, env *envState, a api.Account) *accountScreen {
	table := accountTabs(c.views)
	s := &accountScreen{c: c, env: env, keys: newAccountKeys(1 + len(table))}
	s.overview = newOverviewScreen(c, env, a)
	// One request reads the Overview, its chart's first reads for the
	// period it opens on, and every tab's first page; an account seen
	// before shows what it was then until it answers.
	var parts []api.AccountPart
	for _, t := range table {
		parts = append(parts, t.parts(a.ID)...)
	}
	o := newAccountOpening(a.ID, env.Project, env.API.PageSize(), parts, s.overview.chart.model.Days(), &env.views, c.now)
	s.overview.opening, s.opening = o, o
	if v, read := o.kept(); v != nil {
		s.overview.detail.item, s.overview.acct, s.overview.kept = v.Detail, v.Detail.Account, read
		s.overview.chart.showKept(a.ID)
	}
	s.overview.refreshed = s.refreshShown
	s.tabs = append(make([]tabPane, 0, 1+len(table)), tabPane{screen: s.overview, title: s.overview.title()})
	for _, t := range table {
		s.tabs = append(s.tabs, t.open(s, a.ID))
	}
	s.overview.simulated = func() tea.Cmd {
		o.forget()
		var cmds []tea.Cmd
		for _, t := range s.tabs {
			if t.simulated != nil {
				cmds = append(cmds, t.simulated(t.started))
			}
		}
		return tea.Batch(cmds...)
	}
	return s
}

// refreshShown reads again, from the opening's new view, the tabs shown
// with the kept view's rows while it was on the wire.
func (s *accountScreen) refreshShown() tea.Cmd {
	var cmds []tea.Cmd
	for _, t := range s.tabs {
		if t.refreshShown != nil && t.started {
			cmds = append(cmds, t.refreshShown())
		}
	}
	return tea.Batch(cmds...)
}

func newAccountScreenByID(c *common, env *envState, id string) *accountScreen {
	return newAccountScreen(c, env, api.Account{ID: id})
}

// hidden is a private tab's empty text, or why the platform shows nothing
// there.
func (s *accountScreen) hidden(what string, empty func() string) string {
	if d := s.overview.detail.item; d != nil && d.Membership != nil && !d.Membership.CanViewAccount {
		return "No " + what + " shown: your membership of this account lacks canViewAccount, which the platform requires to show them."
	}
	return empty()
}

func (s *accountScreen) resource() (resourceKind, string) { return resourceAccount, s.overview.acct.ID }

// lookedUp: the account was read (or kept from an earlier visit), or
// its first read failed with err.
func (s *accountScreen) lookedUp() (done bool, err error) {
	d := s.overview.detail
	if d.item != nil {
		return true, nil
	}
	return d.err != nil && !d.busy(), d.err
}

// typedByID: the account was asked for by an ID the user typed.
func (s *accountScreen) typedByID(retype key.Binding) { s.overview.retype = retype }

// eventScope is the account, for the Events view opened from any tab.
func (s *accountScreen) eventScope() (id, name string) { return s.overview.eventScope() }

// init reads the account: the Overview's first read is the one request
// that brings every tab's first page, so it goes first whichever tab is
// shown (the one left open when the user switched environments, say).
func (s *accountScreen) init() tea.Cmd {
	var first tea.Cmd
	if o := &s.tabs[tabOverview]; !o.started {
		o.started = true
		first = s.overview.init()
	}
	return tea.Batch(first, s.show(s.active))
}

// show makes tab i the active one, reading its first page the first time.
func (s *accountScreen) show(i int) tea.Cmd {
	s.active, s.bar = i, ""
	t := &s.tabs[i]
	if t.started {
		return nil
	}
	t.started = true
	return t.init()
}

// accountTitle is an account's name, or a stand-in until it is known.
func accountTitle(a *api.Account) string {
	if a.Name != "" {
		return a.Name
	}
	return "Account"
}

func (s *accountScreen) title() string {
	t := accountTitle(&s.overview.acct)
	if s.active != tabOverview {
		t += " › " + s.tabs[s.active].title
	}
	return t
}

func (s *accountScreen) capturing() bool { return s.tabs[s.active].capturing() }
func (s *accountScreen) busy() bool      { return s.overview.busy() || s.tabs[s.active].busy() }

func (s *accountScreen) close() {
	for _, t := range s.tabs {
		t.close()
	}
}

func (s *accountScreen) setSize(w, h int) {
	s.w, s.h, s.bar = w, h, ""
	bar := 1
	if s.takesHeader() {
		bar = 0
	}
	for _, t := range s.tabs {
		t.setSize(w, max(h-bar, 0))
	}
}

// takesHeader: the QR code needs every line, the tab bar's and the
// header's included, to fit 80×24.
func (s *accountScreen) takesHeader() bool { return s.active == tabOverview && s.overview.showQR }

// ShortHelp is the tab's: the tab bar says how to change tabs.
func (s *accountScreen) ShortHelp() []key.Binding { return s.tabs[s.active].ShortHelp() }

func (s *accountScreen) FullHelp() [][]key.Binding {
	t := s.tabs[s.active]
	if t.capturing() {
		return t.FullHelp()
	}
	return append(t.FullHelp(), []key.Binding{s.keys.Next, s.keys.Prev, s.keys.Pick})
}

// update gives every tab its answers: a tab not shown may still be
// waiting for one.
func (s *accountScreen) update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		s.bar = ""
	}
	cmds := make([]tea.Cmd, 0, len(s.tabs))
	for _, t := range s.tabs {
		cmds = append(cmds, t.update(msg))
	}
	return tea.Batch(cmds...)
}

func (s *accountScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	t := s.tabs[s.active]
	if t.capturing() {
		return t.handleKey(msg)
	}
	n := len(s.tabs)
	switch {
	case key.Matches(msg, s.keys.Next):
		return s.show((s.active + 1) % n), true
	case key.Matches(msg, s.keys.Prev):
		return s.show((s.active + n - 1) % n), true
	case key.Matches(msg, s.keys.Pick):
		return s.show(int(msg.String()[0] - '1')), true
	}
	return t.handleKey(msg)
}

func (s *accountScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	if s.takesHeader() {
		return s.overview.view()
	}
	if s.bar == "" {
		s.bar = s.tabBar()
	}
	if s.h == 1 {
		return s.bar
	}
	return s.bar + "\n" + s.tabs[s.active].view()
}

// tabBar names the tabs with the active one marked; on a terminal too
// narrow for all of them, those around the active one that fit, a … for
// those left out, and the active one's number.
func (s *accountScreen) tabBar() string {
	st := s.c.styles
	names := make([]string, len(s.tabs))
	width := 0
	for i, t := range s.tabs {
		names[i] = " " + t.title + " "
		width += ansi.StringWidth(names[i]) + 1
	}
	if width > s.w {
		return s.tabWindow(names)
	}
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(st.dim.Render("│"))
		}
		if i == s.active {
			b.WriteString(st.selected.Render(n))
		} else {
			b.WriteString(n)
		}
	}
	if hint := "  " + s.keys.Next.Help().Key + "/" + s.keys.Pick.Help().Key + " to change"; width+ansi.StringWidth(hint) <= s.w {
		b.WriteString(st.dim.Render(hint))
	}
	return trunc(b.String(), s.w)
}

// tabWindow is the tab bar of tabs that do not all fit: the active one
// and as many of its neighbours as fit, the next ones first.
func (s *accountScreen) tabWindow(names []string) string {
	st := s.c.styles
	count := " " + strconv.Itoa(s.active+1) + "/" + strconv.Itoa(len(names))
	cost := func(i, j int) int { // the tabs i..j-1, their separators and the marks
		w := ansi.StringWidth(count)
		for k := i; k < j; k++ {
			w += ansi.StringWidth(names[k]) + 1
		}
		if i > 0 {
			w += 2
		}
		if j < len(names) {
			w += 2
		}
		return w
	}
	i, j := s.active, s.active+1
	for grown := true; grown; {
		grown = false
		if j < len(names) && cost(i, j+1) <= s.w {
			j, grown = j+1, true
		}
		if i > 0 && cost(i-1, j) <= s.w {
			i, grown = i-1, true
		}
	}
	var b strings.Builder
	if i > 0 {
		b.WriteString(st.dim.Render("…│"))
	}
	for k := i; k < j; k++ {
		if k > i {
			b.WriteString(st.dim.Render("│"))
		}
		if k == s.active {
			b.WriteString(st.selected.Render(names[k]))
		} else {
			b.WriteString(names[k])
		}
	}
	if j < len(names) {
		b.WriteString(st.dim.Render("│…"))
	}
	b.WriteString(st.dim.Render(count))
	return trunc(b.String(), s.w)
}
