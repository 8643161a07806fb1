package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/table"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
)

// filterHint follows the filter field in the status line.
const filterHint = "  searches as you type · enter keep · esc clear"

// column of the accounts table; min is the width below which it is dropped,
// flex columns share the space left over.
type column struct {
	title string
	min   int
	flex  bool
	prio  int // lower is kept longer on narrow terminals
	cell  func(a *api.Account) string
}

// accountsScreen is the windowed account list. bubbles' table renders the
// rows it is given; the screen hands it only the visible window, so a key
// press costs the same with 100 or 100,000 loaded rows.
type accountsScreen struct {
	c   *common
	env *envState

	ctx       context.Context
	cancel    context.CancelFunc
	reqCtx    context.Context // the current query's requests
	reqCancel context.CancelFunc

	rows        []api.Account
	total       int
	endCursor   string
	hasNext     bool
	gen         int // id of the current query (refresh, filter or sort)
	inFlight    bool
	refreshing  bool
	resetCursor bool
	loaded      bool
	err         error
	updated     time.Time

	cursor, offset int
	winOffset      int // offset the table rows were built for; -1 forces a rebuild
	tbl            table.Model
	cols           []column
	widths         []int
	// lines caches formatted rows by index; rows only change identity
	// when a query replaces them, which clears the cache.
	lines map[int]string

	search    string
	filter    textinput.Model
	filtering bool
	filterSeq int
	order     string
}

func newAccountsScreen(c *common, env *envState) *accountsScreen {
	ctx, cancel := context.WithCancel(env.ctx)
	s := &accountsScreen{c: c, env: env, ctx: ctx, cancel: cancel, order: api.OrderCreatedAt, winOffset: -1,
		lines: map[int]string{}}
	s.filter = newTextInput("/ ", "search name, IBAN or holder", 100)
	s.tbl = table.New(table.WithFocused(true))
	s.restyle()
	s.layout()
	return s
}

func (s *accountsScreen) init() tea.Cmd { return s.reload(true) }
func (s *accountsScreen) title() string { return TextAccounts }
func (s *accountsScreen) capturing() bool {
	return s.filtering
}
func (s *accountsScreen) busy() bool { return s.inFlight }

func (s *accountsScreen) close() {
	s.cancel()
}

func (s *accountsScreen) ShortHelp() []key.Binding {
	k := s.c.keys
	if s.filtering {
		return []key.Binding{k.Submit, k.Cancel}
	}
	return []key.Binding{k.Up, k.Down, k.Open, k.Filter, k.Refresh, k.Sort, k.Env, k.Help, k.Quit}
}

func (s *accountsScreen) FullHelp() [][]key.Binding {
	k := s.c.keys
	return [][]key.Binding{k.navigation(), {k.Open, k.Filter, k.Refresh, k.Sort, k.Back}}
}

func (s *accountsScreen) back() (bool, tea.Cmd) {
	if s.search == "" {
		return false, nil
	}
	s.filter.SetValue("")
	return true, s.setSearch("")
}

// setSearch makes v (trimmed) the search and queries again, unless that is
// already the search: "acme " after "acme" must not cost a request.
func (s *accountsScreen) setSearch(v string) tea.Cmd {
	v = strings.TrimSpace(v)
	if v == s.search {
		return nil
	}
	s.search = v
	return s.reload(true)
}

// visible is the number of table rows on screen: the body minus the
// column header and the status line.
func (s *accountsScreen) visible() int {
	return max(s.c.height-3-2, 1)
}

func (s *accountsScreen) restyle() {
	st := s.c.styles
	s.tbl.SetStyles(table.Styles{Header: st.colHeader, Cell: st.cell, Selected: st.selected})
	s.filter.SetStyles(s.c.inputStyles())
	s.invalidate()
}

// layout picks the columns that fit the width and sizes the table. The
// bubbles table wraps rows wider than its viewport, so the widths must add
// up to at most the terminal width.
func (s *accountsScreen) layout() {
	w := max(s.c.width, 1)
	// The field scrolls within what the prompt and hint leave (one cell
	// goes to the cursor after the text) so the cursor stays on screen.
	s.filter.SetWidth(max(w-ansi.StringWidth(s.filter.Prompt)-ansi.StringWidth(filterHint)-1, 8))
	all := []column{
		{title: "Name", min: 10, flex: true, prio: 0, cell: func(a *api.Account) string { return a.Name }},
		{title: "IBAN", min: 33, prio: 1, cell: func(a *api.Account) string { return ibanCell(a.IBAN) }},
		{title: "Status", min: 9, prio: 3, cell: func(a *api.Account) string { return a.StatusInfo.Status }},
		{title: "Available", min: 13, prio: 2, cell: func(a *api.Account) string { return availableCell(a) }},
		{title: "Holder", min: 14, flex: true, prio: 4, cell: func(a *api.Account) string { return a.Holder.Info.Name }},
	}
	// Keep the most important columns that fit (each takes width+1 for
	// the gap), then share what is left between the flexible ones.
	keep := make([]bool, len(all))
	used := 0
	for p := 0; p <= 4; p++ {
		for i, col := range all {
			if col.prio == p && used+col.min+1 <= w {
				keep[i] = true
				used += col.min + 1
			}
		}
	}
	s.cols = s.cols[:0]
	var widths []int
	flex := 0
	for i, col := range all {
		if keep[i] {
			s.cols = append(s.cols, col)
			widths = append(widths, col.min)
			if col.flex {
				flex++
			}
		}
	}
	if len(s.cols) == 0 {
		s.cols = append(s.cols, all[0])
		widths = append(widths, max(w-1, 1))
	}
	if spare := w - used; spare > 0 && flex > 0 {
		// The name gets the larger share: it is what people scan for.
		first := true
		for i, col := range s.cols {
			if !col.flex {
				continue
			}
			share := spare / flex
			if first {
				share += spare % flex
				first = false
			}
			widths[i] += share
		}
	}
	s.widths = widths
	titles := make([]string, len(s.cols))
	for i, col := range s.cols {
		titles[i] = col.title
	}
	// The table gets one column holding the pre-formatted line: it keeps
	// the windowing and the cursor styling, while each line is formatted
	// once (and cached) instead of styling every cell on every key press.
	// Rows built for the old column must go before the new one arrives:
	// the table indexes columns by cell.
	s.tbl.SetRows(nil)
	s.tbl.SetColumns([]table.Column{{Title: s.formatCells(titles), Width: w}})
	s.tbl.SetWidth(w)
	s.tbl.SetHeight(s.visible() + 1)
	s.invalidate()
	s.sync()
}

// formatCells pads or truncates each cell to its column and joins them.
func (s *accountsScreen) formatCells(cells []string) string {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := s.widths[i]
		c = trunc(c, w)
		b.WriteString(c)
		if pad := w - ansi.StringWidth(c); pad > 0 {
			b.WriteString(strings.Repeat(" ", pad))
		}
	}
	return b.String()
}

func (s *accountsScreen) line(i int) string {
	if l, ok := s.lines[i]; ok {
		return l
	}
	if len(s.lines) > 4096 {
		clear(s.lines)
	}
	cells := make([]string, len(s.cols))
	for j, col := range s.cols {
		cells[j] = col.cell(&s.rows[i])
	}
	l := s.formatCells(cells)
	s.lines[i] = l
	return l
}

// sync keeps the cursor in view and hands the table the visible window.
func (s *accountsScreen) sync() {
	n := len(s.rows)
	vis := s.visible()
	s.cursor = clampInt(s.cursor, 0, max(n-1, 0))
	switch {
	case s.cursor < s.offset:
		s.offset = s.cursor
	case s.cursor >= s.offset+vis:
		s.offset = s.cursor - vis + 1
	}
	s.offset = clampInt(s.offset, 0, max(n-vis, 0))
	if s.offset != s.winOffset {
		end := min(s.offset+vis, n)
		win := make([]table.Row, 0, end-s.offset)
		for i := s.offset; i < end; i++ {
			win = append(win, table.Row{s.line(i)})
		}
		s.tbl.SetRows(win)
		s.winOffset = s.offset
	}
	if rel := s.cursor - s.offset; s.tbl.Cursor() != rel {
		s.tbl.SetCursor(rel)
	}
}

// invalidate forces the next sync to rebuild the window and the lines.
func (s *accountsScreen) invalidate() {
	s.winOffset = -1
	clear(s.lines)
}

// reload starts a new query from the first page. The rows on screen stay
// until the answer replaces them (stale-while-revalidate).
func (s *accountsScreen) reload(resetCursor bool) tea.Cmd {
	if s.reqCancel != nil {
		s.reqCancel()
	}
	s.reqCtx, s.reqCancel = context.WithCancel(s.ctx)
	s.gen = s.c.nextID()
	s.resetCursor = resetCursor
	s.refreshing = true
	s.err = nil
	return s.fetch("")
}

func (s *accountsScreen) fetch(after string) tea.Cmd {
	s.inFlight = true
	p := api.AccountsParams{After: after, Search: s.search, OrderBy: s.order, Direction: api.DirectionDesc}
	a, ctx, id, env := s.env.API, s.reqCtx, s.gen, s.env.Name
	return s.c.task(func() tea.Msg {
		page, err := a.Accounts(ctx, p)
		return accountsMsg{envTag{env}, id, after, page, err}
	})
}

// more requests the next page once the cursor is within one screen of the
// last loaded row; inFlight makes sure only one page is on the wire.
func (s *accountsScreen) more() tea.Cmd {
	if !s.loaded || !s.hasNext || s.inFlight || s.refreshing {
		return nil
	}
	if s.cursor < len(s.rows)-s.visible()-1 {
		return nil
	}
	return s.fetch(s.endCursor)
}

func (s *accountsScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.layout()
		return nil
	case tea.BackgroundColorMsg:
		s.restyle()
		s.sync()
		return nil
	case accountsMsg:
		return s.onPage(msg)
	case filterTickMsg:
		if msg.seq != s.filterSeq {
			return nil
		}
		return s.setSearch(s.filter.Value())
	case tea.KeyPressMsg:
		if s.filtering {
			return s.filterKey(msg)
		}
		return s.key(msg)
	}
	if s.filtering {
		if _, ok := msg.(tea.PasteMsg); ok {
			return s.filterEdited(msg)
		}
	}
	return nil
}

func (s *accountsScreen) onPage(msg accountsMsg) tea.Cmd {
	if msg.id != s.gen {
		return nil
	}
	s.inFlight = false
	if msg.err != nil {
		s.refreshing = false
		keepErr(&s.err, msg.err)
		return nil
	}
	if msg.page == nil {
		s.refreshing = false
		return nil
	}
	if msg.after == "" {
		s.rows = append([]api.Account(nil), msg.page.Accounts...)
		if s.resetCursor {
			s.cursor, s.offset = 0, 0
		}
		s.refreshing = false
		s.loaded = true
	} else {
		s.rows = append(s.rows, msg.page.Accounts...)
	}
	s.total = msg.page.TotalCount
	s.endCursor = msg.page.PageInfo.EndCursor
	s.hasNext = msg.page.PageInfo.HasNextPage && s.endCursor != ""
	s.updated = s.c.now()
	s.err = nil
	if msg.after == "" {
		s.invalidate()
	} else {
		s.winOffset = -1 // new rows may belong in the window
	}
	s.sync()
	return s.more()
}

func (s *accountsScreen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := s.c.keys
	vis := s.visible()
	if c, ok := k.move(msg, s.cursor, vis, len(s.rows)); ok {
		s.cursor = c
		s.sync()
		return s.more()
	}
	switch {
	case key.Matches(msg, k.Open):
		if s.cursor < 0 || s.cursor >= len(s.rows) {
			return nil
		}
		d := newDetailScreen(s.c, s.env, s.rows[s.cursor])
		env := s.env.Name
		return func() tea.Msg { return pushMsg{envTag{env}, d} }
	case key.Matches(msg, k.Filter):
		s.filtering = true
		s.filter.SetValue(s.search)
		s.filter.CursorEnd()
		return s.filter.Focus()
	case key.Matches(msg, k.Refresh):
		return s.reload(false)
	case key.Matches(msg, k.Sort):
		if s.order == api.OrderCreatedAt {
			s.order = api.OrderUpdatedAt
		} else {
			s.order = api.OrderCreatedAt
		}
		return s.reload(true)
	}
	return nil
}

func (s *accountsScreen) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.c.keys
	switch {
	case key.Matches(msg, k.Submit):
		s.closeFilter()
		return s.setSearch(s.filter.Value())
	case key.Matches(msg, k.Cancel):
		s.closeFilter()
		s.filter.SetValue("")
		return s.setSearch("")
	}
	return s.filterEdited(msg)
}

// closeFilter leaves the filter field; a pending debounce tick is now moot.
func (s *accountsScreen) closeFilter() {
	s.filtering = false
	s.filter.Blur()
	s.filterSeq++
}

// filterEdited applies an edit and debounces the search: only the last edit
// of a burst, filterDebounce after it, sends a request.
func (s *accountsScreen) filterEdited(msg tea.Msg) tea.Cmd {
	changed, cmd := editInput(&s.filter, msg)
	if !changed {
		return cmd
	}
	s.filterSeq++
	seq, env := s.filterSeq, s.env.Name
	return tea.Batch(cmd, s.c.tick(filterDebounce, func(time.Time) tea.Msg { return filterTickMsg{envTag{env}, seq} }))
}

func (s *accountsScreen) view(w, h int) string {
	st := s.c.styles
	if !s.loaded {
		if s.err != nil {
			return st.err.Render("✗ Could not load the accounts: "+describe(s.err)) + "\n" + "Press r to retry."
		}
		return s.c.spinFrame + " Loading " + envTitle(s.env.Name) + " accounts…"
	}
	var b strings.Builder
	if len(s.rows) == 0 {
		b.WriteString(st.colHeader.Render("Accounts") + "\n")
		switch {
		case s.search != "":
			b.WriteString("No accounts match “" + s.search + "”. Press esc to clear the filter.")
		default:
			b.WriteString("No accounts in " + envTitle(s.env.Name) + " for this user yet.")
		}
		body := fit(b.String(), w, max(h-1, 0))
		return body + "\n" + s.statusLine(w)
	}
	b.WriteString(s.tbl.View())
	return fit(b.String(), w, max(h-1, 0)) + "\n" + s.statusLine(w)
}

func (s *accountsScreen) statusLine(w int) string {
	st := s.c.styles
	if s.filtering {
		return trunc(s.filter.View()+st.dim.Render(filterHint), w)
	}
	parts := []string{fmt.Sprintf("row %d of %d/%d", min(s.cursor+1, len(s.rows)), len(s.rows), s.total)}
	if s.order == api.OrderUpdatedAt {
		parts = append(parts, "by updated")
	} else {
		parts = append(parts, "by created")
	}
	if s.search != "" {
		parts = append(parts, "filter “"+s.search+"”")
	}
	switch {
	case s.refreshing:
		parts = append(parts, s.c.spinFrame+" refreshing")
	case s.inFlight:
		parts = append(parts, s.c.spinFrame+" loading more")
	case !s.updated.IsZero():
		parts = append(parts, "updated "+shortDuration(s.c.now().Sub(s.updated))+" ago")
	}
	line := st.dim.Render(strings.Join(parts, " · "))
	if s.err != nil {
		line += " " + st.err.Render("✗ "+describe(s.err))
	}
	return trunc(line, w)
}

func ibanCell(s string) string {
	if s == "" {
		return "—"
	}
	return ibanText(s)
}

func availableCell(a *api.Account) string {
	if a.Balances == nil {
		return "—"
	}
	return amountText(a.Balances.Available)
}

func amountText(am api.Amount) string {
	v := am.Value
	if v == "" {
		return "—"
	}
	return v + " " + am.Currency
}

// keepErr stores a failed request's error for the screen to show, unless
// the screen cancelled the request itself.
func keepErr(dst *error, err error) {
	if !errors.Is(err, context.Canceled) {
		*dst = err
	}
}

func clampInt(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}
