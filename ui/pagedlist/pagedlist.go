// Package pagedlist is a windowed, prefetching list over a cursor-paged
// connection, for Bubble Tea screens: rows of any type, columns that drop
// on narrow terminals, request ids so that a stale answer is never applied,
// and refreshes that keep the rows on screen until the new ones arrive.
//
// A screen gives it a Fetch (one page of the connection for a Request) and
// columns, forwards its messages and keys, and draws View where the list
// goes. Only the rows on screen are formatted, so a key press costs the
// same with a hundred rows loaded or a hundred thousand.
//
// Lists that can be read in reverse order (Options.Reversible) reach their
// end in one request: End reads the last page as the first page of the
// reverse order, and the rows between what was read from the top and from
// the bottom are a gap, shown as placeholders and loaded as the cursor
// comes near it from either side. A list that reads one way only reaches
// its end by reading every page before it (Options.WalkToEnd).
package pagedlist

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/partnertui/partnertui/internal/platform"
)

// Request asks for one page of the connection.
type Request struct {
	// After is the cursor of the row the page follows; "" starts from the
	// first row of the order read.
	After string
	// Reverse reads the list's reverse order, from its last row upwards
	// (for a list shown newest first: oldest first).
	Reverse bool
	// First is the number of rows wanted.
	First int
}

// Page is one page of the connection, in the order it was read.
type Page[T any] struct {
	Rows        []T
	Total       int    // rows in the whole list (the connection's totalCount)
	StartCursor string // cursor of Rows[0]
	EndCursor   string // cursor of the last row
	HasNext     bool   // more rows follow in the order read
	// Read is when the rows were read, for a page kept from an earlier
	// read (Updated says how old they are); zero means as it arrives.
	Read time.Time
}

// Fetch reads one page. It runs off the event loop: it must not touch the
// screen's state, only what it captured when it was made.
type Fetch[T any] func(ctx context.Context, r Request) (Page[T], error)

// Column is one column of the list.
type Column[T any] struct {
	Title string
	// Width is the column's minimum width; on a terminal too narrow for
	// every column, the columns with the highest Drop go first.
	Width int
	Drop  int
	// Flex columns share the width left over; the first gets the larger
	// share.
	Flex bool
	// Right aligns the cell to the right (amounts).
	Right bool
	// Cell is the cell's text for a row: plain text, no styling.
	Cell func(*T) string
	// Narrow, when set, is the cell's text while a column was dropped for
	// the width: it can carry what the dropped one said, so that rows
	// stay told apart (an account's holder beside its name).
	Narrow func(*T) string
}

// KeyMap is the list's navigation.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// Move is where cursor goes for msg in a list of page visible rows whose
// last row is last; ok is false for a key that is not a navigation key.
// The result is not clamped: the list clamps it to what it holds.
func (k KeyMap) Move(msg tea.KeyPressMsg, cursor, page, last int) (next int, ok bool) {
	switch {
	case key.Matches(msg, k.Up):
		return cursor - 1, true
	case key.Matches(msg, k.Down):
		return cursor + 1, true
	case key.Matches(msg, k.PageUp):
		return cursor - page, true
	case key.Matches(msg, k.PageDown):
		return cursor + page, true
	case key.Matches(msg, k.Top):
		return 0, true
	case key.Matches(msg, k.Bottom):
		return last, true
	}
	return cursor, false
}

// DefaultKeyMap is vi keys and the usual cursor keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
	}
}

// Styles of the list. Each is applied to whole lines.
type Styles struct {
	Header      lipgloss.Style // the column titles
	Selected    lipgloss.Style // the cursor row
	Placeholder lipgloss.Style // a row not loaded yet
}

// Options configure a list.
type Options[T any] struct {
	Columns []Column[T]
	// ID is a row's stable identity: a refresh finds the selected row by
	// it, and rows read from both ends are joined by it.
	ID    func(*T) string
	Fetch Fetch[T]
	// Reversible: Fetch honours Request.Reverse.
	Reversible bool
	// WalkToEnd, for a list that is not Reversible: End still goes to the
	// true last row, and the pages up to it are read in order, one after
	// another, while the cursor waits there (each answer shows in Loaded).
	// Without it End stops at the last row loaded.
	WalkToEnd bool
	// PageSize is Request.First; 0 means the platform's page maximum.
	PageSize int
	// NoHeader leaves out the line of column titles.
	NoHeader bool
	Keys     KeyMap
	Styles   Styles
	// Context is the parent of every request; Close cancels them all.
	Context context.Context
	// Run turns a fetch into a command. The caller can wrap the message
	// (to tag it, or to recover a panic); nil runs it as it is.
	Run func(func() tea.Msg) tea.Cmd
	// Now is the clock for Updated; nil means time.Now.
	Now func() time.Time
	// Waiting says what holds the reads back before they are sent (a spent
	// request budget, an HTTP 429), "" when nothing does; nil for never.
	// While a read is on the wire, View draws it in place of the first row
	// not loaded yet, or of the first row of a list with none yet, so a
	// held read shows the wait instead of an empty list.
	Waiting func() string
}

// pageMsg is the answer to one request.
type pageMsg[T any] struct {
	list *Model[T]
	gen  int
	id   int
	page Page[T]
	err  error
}

// Err lets the program see the failure of a request (to send the user to
// sign in again, say) without knowing the row type.
func (m pageMsg[T]) Err() error { return m.err }

// want is one read the list needs: where its rows go.
type want[T any] struct {
	req  Request
	seg  *segment[T] // extended by the read; nil for a new segment
	up   bool        // seg grows upwards
	kind placement   // for a new segment
	est  int         // a middle segment's estimated start
}

// inflight is a request on the wire.
type inflight[T any] struct {
	id int
	w  want[T]
}

// refreshing is a query or refresh in progress: its reads are applied
// together when the last answers, so the screen never shows half old and
// half new rows.
type refreshing[T any] struct {
	wants    []want[T]
	pages    []Page[T]
	answered []bool
	ids      []int
	err      error
	// The selected row when the refresh began, to select it again.
	anchorID  string
	anchorPos int
	anchorRel int // its line on screen
	top       bool
}

// Model is one list. The zero value is not usable: use New.
type Model[T any] struct {
	o      Options[T]
	fetch  Fetch[T]
	ctx    context.Context
	cancel context.CancelFunc

	st    store[T]
	ready bool // a first page was applied

	gen       int // the query's generation: a new query or refresh starts another
	genCtx    context.Context
	genCancel context.CancelFunc
	seq       int
	paging    *inflight[T]
	refresh   *refreshing[T]
	err       error
	updated   time.Time

	cursor, offset int
	r              renderer[T]
}

// New makes a list; nothing is fetched until Query, Seed or Refresh.
func New[T any](o Options[T]) *Model[T] {
	if o.PageSize <= 0 || o.PageSize > platform.PageMax {
		o.PageSize = platform.PageMax
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	if o.Run == nil {
		o.Run = func(f func() tea.Msg) tea.Cmd { return f }
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	m := &Model[T]{o: o, fetch: o.Fetch}
	m.ctx, m.cancel = context.WithCancel(o.Context)
	m.genCtx, m.genCancel = context.WithCancel(m.ctx)
	m.st = store[T]{id: o.ID, page: o.PageSize}
	m.r.init(o.Columns, o.Styles, o.NoHeader)
	return m
}

// Close cancels every request; the list is not used again.
func (m *Model[T]) Close() { m.cancel() }

// SetSize gives the list its width and its height in lines, column titles
// included.
func (m *Model[T]) SetSize(w, h int) {
	m.r.resize(w, h)
	m.scroll()
	m.prepare()
}

// SetColumns replaces the columns, keeping the rows and the cursor: a
// screen that shows a few of many columns at a time moves them sideways.
func (m *Model[T]) SetColumns(cols []Column[T]) {
	m.r.all = cols
	m.r.layout()
	m.prepare()
}

// SetStyles restyles the list (the terminal's background was learnt).
func (m *Model[T]) SetStyles(s Styles) {
	m.r.restyle(s)
	m.prepare()
}

// Query starts the list over with fetch (a new filter or order): the rows
// on screen stay until the first page of the new query replaces them, and
// the cursor then goes to the top.
func (m *Model[T]) Query(fetch Fetch[T]) tea.Cmd {
	if fetch != nil {
		m.fetch = fetch
	}
	return m.start(&refreshing[T]{top: true, wants: []want[T]{{req: m.req("", false), kind: placeTop}}})
}

// Seed starts the list over with fetch and a first page already fetched
// with something else (in the same request), so showing it costs none. The
// command reads what a screen taller than the page needs.
func (m *Model[T]) Seed(fetch Fetch[T], first Page[T]) tea.Cmd {
	if fetch != nil {
		m.fetch = fetch
	}
	m.newGen()
	m.apply(&refreshing[T]{top: true, wants: []want[T]{{kind: placeTop}}, pages: []Page[T]{first}})
	return m.more()
}

// Refresh reads again the first page and the page around the cursor, and
// keeps the cursor on the row it was on (found by id) at the same line of
// the screen; the rows on screen stay until the new ones arrive. Rows
// loaded elsewhere are let go, and load again as the cursor comes near.
func (m *Model[T]) Refresh() tea.Cmd {
	if !m.ready {
		return m.Query(nil)
	}
	rf := &refreshing[T]{anchorPos: m.cursor, anchorRel: m.cursor - m.offset}
	if r := m.st.row(m.cursor); r != nil {
		rf.anchorID = m.o.ID(r)
	}
	rf.wants = append(rf.wants, want[T]{req: m.req("", false), kind: placeTop})
	ps := m.o.PageSize
	winTop, winBottom := m.offset, m.offset+m.r.visible()-1
	switch last := m.lastSeg(); {
	case winBottom < ps:
		// The first page covers the screen.
	case m.o.Reversible && last != nil && last.atBottom && winTop >= m.st.n-ps:
		rf.wants = append(rf.wants, want[T]{req: m.req("", true), kind: placeBottom})
	default:
		if pos, c, ok := m.st.cursorAbove(winTop, 2*ps); ok {
			rf.wants = append(rf.wants, want[T]{req: m.req(c, false), kind: placeMiddle, est: pos + 1})
		}
	}
	return m.start(rf)
}

func (m *Model[T]) req(after string, reverse bool) Request {
	return Request{After: after, Reverse: reverse, First: m.o.PageSize}
}

func (m *Model[T]) lastSeg() *segment[T] {
	if len(m.st.segs) == 0 {
		return nil
	}
	return m.st.segs[len(m.st.segs)-1]
}

// newGen makes every answer to an earlier request stale, and cancels them.
func (m *Model[T]) newGen() {
	m.genCancel()
	m.genCtx, m.genCancel = context.WithCancel(m.ctx)
	m.gen++
	m.paging, m.refresh = nil, nil
}

func (m *Model[T]) start(rf *refreshing[T]) tea.Cmd {
	m.newGen()
	m.err = nil
	m.refresh = rf
	rf.pages = make([]Page[T], len(rf.wants))
	rf.answered = make([]bool, len(rf.wants))
	rf.ids = make([]int, len(rf.wants))
	cmds := make([]tea.Cmd, len(rf.wants))
	for i, w := range rf.wants {
		rf.ids[i], cmds[i] = m.send(w.req)
	}
	return tea.Batch(cmds...)
}

// send runs one request of the current generation.
func (m *Model[T]) send(r Request) (int, tea.Cmd) {
	m.seq++
	id, gen, ctx, fetch := m.seq, m.gen, m.genCtx, m.fetch
	return id, m.o.Run(func() tea.Msg {
		p, err := fetch(ctx, r)
		return pageMsg[T]{list: m, gen: gen, id: id, page: p, err: err}
	})
}

// Update applies the answers to the list's requests; it ignores every
// other message.
func (m *Model[T]) Update(msg tea.Msg) tea.Cmd {
	pm, ok := msg.(pageMsg[T])
	if !ok || pm.list != m || pm.gen != m.gen {
		return nil
	}
	if rf := m.refresh; rf != nil {
		for i, id := range rf.ids {
			if id == pm.id && !rf.answered[i] {
				return m.refreshAnswer(rf, i, pm)
			}
		}
		return nil
	}
	if p := m.paging; p != nil && p.id == pm.id {
		m.paging = nil
		if pm.err != nil {
			// Kept until the next read; a key press tries again.
			m.keepErr(pm.err)
			return nil
		}
		m.err = nil
		m.place(p.w, pm.page)
		m.updated = m.o.Now()
		m.settled()
		return m.more()
	}
	return nil
}

func (m *Model[T]) refreshAnswer(rf *refreshing[T], i int, pm pageMsg[T]) tea.Cmd {
	rf.answered[i] = true
	rf.pages[i] = pm.page
	if pm.err != nil && rf.err == nil {
		rf.err = pm.err
	}
	for _, a := range rf.answered {
		if !a {
			return nil
		}
	}
	if rf.err != nil {
		// The rows on screen stay, with the error beside them.
		m.refresh = nil
		m.keepErr(rf.err)
		return nil
	}
	m.apply(rf)
	return m.more()
}

// apply replaces the rows with a finished query's or refresh's pages.
func (m *Model[T]) apply(rf *refreshing[T]) {
	m.refresh = nil
	m.err = nil
	m.st.reset()
	for i, w := range rf.wants {
		m.st.add(rf.pages[i], w.req.Reverse, w.kind, w.est)
	}
	m.ready = true
	m.updated = m.o.Now()
	for _, p := range rf.pages {
		if !p.Read.IsZero() && p.Read.Before(m.updated) {
			m.updated = p.Read
		}
	}
	switch {
	case rf.top:
		m.cursor, m.offset = 0, 0
	default:
		m.cursor = rf.anchorPos
		if rf.anchorID != "" {
			if i := m.st.find(rf.anchorID, rf.anchorPos, 2*m.o.PageSize); i >= 0 {
				m.cursor = i
			}
		}
		m.offset = m.cursor - rf.anchorRel
	}
	m.settled()
}

// place puts a paging read's rows where they belong.
func (m *Model[T]) place(w want[T], p Page[T]) {
	if w.seg != nil {
		m.st.extend(w.seg, p, w.up)
		return
	}
	m.st.add(p, w.req.Reverse, w.kind, w.est)
}

// settled brings the cursor, the window and the formatted lines in line
// with the rows after any change to them.
func (m *Model[T]) settled() {
	m.r.invalidate()
	m.scroll()
	m.prepare()
}

func (m *Model[T]) keepErr(err error) {
	if m.ctx.Err() == nil && m.genCtx.Err() == nil {
		m.err = err
	}
}

// more starts the read the cursor needs next, if any: rows not loaded
// within a screen of the cursor. One read is on the wire at a time.
func (m *Model[T]) more() tea.Cmd {
	if !m.ready || m.refresh != nil || m.paging != nil {
		return nil
	}
	w, ok := m.next()
	if !ok {
		return nil
	}
	id, cmd := m.send(w.req)
	m.paging = &inflight[T]{id: id, w: w}
	return cmd
}

// next picks the read for the gap nearest the cursor within a screen.
func (m *Model[T]) next() (want[T], bool) {
	vis := m.r.visible()
	lo, hi := m.cursor-vis-1, m.cursor+vis+1
	var best gap[T]
	bestDist := -1
	for g := range m.st.gaps {
		if g.to <= lo || g.from > hi {
			continue
		}
		d := 0
		switch {
		case m.cursor < g.from:
			d = g.from - m.cursor
		case m.cursor >= g.to:
			d = m.cursor - g.to + 1
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = g, d
		}
	}
	if bestDist < 0 {
		return want[T]{}, false
	}
	g := best
	// A side can be read from only if the server named the row there.
	var up, down string
	if g.below != nil {
		up = g.below.cursors[0]
	}
	if g.above != nil {
		down = g.above.cursors[len(g.above.cursors)-1]
	}
	// Fill from the side nearer the cursor; from below only when the list
	// reads in reverse.
	nearBottom := m.cursor >= g.to || (m.cursor >= g.from && m.cursor-g.from >= g.to-m.cursor)
	fromBelow := m.o.Reversible && (g.below == nil || up != "") && (nearBottom || g.above == nil || down == "")
	switch {
	case fromBelow && g.below != nil:
		return want[T]{req: m.req(up, true), seg: g.below, up: true}, true
	case fromBelow:
		return want[T]{req: m.req("", true), kind: placeBottom}, true
	case g.above != nil && down != "":
		return want[T]{req: m.req(down, false), seg: g.above}, true
	case g.above == nil:
		return want[T]{req: m.req("", false), kind: placeTop}, true
	}
	return want[T]{}, false
}

// HandleKey moves the cursor for a navigation key; handled is false for
// any other key.
func (m *Model[T]) HandleKey(msg tea.KeyPressMsg) (cmd tea.Cmd, handled bool) {
	next, ok := m.o.Keys.Move(msg, m.cursor, m.r.visible(), m.bottom())
	if !ok {
		return nil, false
	}
	m.cursor = next
	m.scroll()
	m.prepare()
	return m.more(), true
}

// bottom is where End goes: the true last row when the list can be read
// from its end or walked to it, else the last row loaded (the next page
// follows).
func (m *Model[T]) bottom() int {
	if last := m.lastSeg(); m.o.Reversible || m.o.WalkToEnd || last == nil || last.atBottom {
		return m.st.n - 1
	}
	return m.lastSeg().end() - 1
}

// SetCursor puts the cursor on row i (clamped to the list), loading what
// is around it.
func (m *Model[T]) SetCursor(i int) tea.Cmd {
	m.cursor = i
	m.scroll()
	m.prepare()
	return m.more()
}

// Bindings are the navigation keys, for the screen's help.
func (m *Model[T]) Bindings() []key.Binding {
	k := m.o.Keys
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// scroll keeps the cursor in the list and in the window.
func (m *Model[T]) scroll() {
	n, vis := m.st.n, m.r.visible()
	m.cursor = clamp(m.cursor, 0, n-1)
	switch {
	case m.cursor < m.offset:
		m.offset = m.cursor
	case m.cursor >= m.offset+vis:
		m.offset = m.cursor - vis + 1
	}
	m.offset = clamp(m.offset, 0, n-vis)
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}

// Selected returns the row under the cursor; ok is false when it is not
// loaded (or the list is empty).
func (m *Model[T]) Selected() (row T, ok bool) {
	if r := m.st.row(m.cursor); r != nil {
		return *r, true
	}
	return row, false
}

// All is every row of the list, in order, when every one is loaded (the
// list then holds the whole connection); ok is false otherwise.
func (m *Model[T]) All() (rows []T, ok bool) {
	if !m.ready || m.st.loaded != m.st.n {
		return nil, false
	}
	for _, s := range m.st.segs {
		rows = append(rows, s.rows...)
	}
	if rows == nil {
		rows = []T{}
	}
	return rows, true
}

// Cursor is the cursor's row, from 0.
func (m *Model[T]) Cursor() int { return m.cursor }

// Len is the number of rows in the list, loaded or not.
func (m *Model[T]) Len() int { return m.st.n }

// Rows is the number of row lines on screen, what page keys move by.
func (m *Model[T]) Rows() int { return m.r.visible() }

// Loaded is the number of rows loaded.
func (m *Model[T]) Loaded() int { return m.st.loaded }

// Ready reports whether a first page was applied (until then the screen
// shows its own loading or error state).
func (m *Model[T]) Ready() bool { return m.ready }

// Busy reports whether a request is on the wire.
func (m *Model[T]) Busy() bool { return m.paging != nil || m.refresh != nil }

// Refreshing reports whether a query or refresh is replacing rows that are
// still on screen.
func (m *Model[T]) Refreshing() bool { return m.refresh != nil && m.ready }

// Err is the last failed read's error, nil once a read succeeds. A
// cancelled read (the list's own doing) leaves none.
func (m *Model[T]) Err() error { return m.err }

// Updated is when rows were last applied.
func (m *Model[T]) Updated() time.Time { return m.updated }

// prepare formats the rows in the window, so View only assembles lines.
func (m *Model[T]) prepare() {
	m.r.prepare(m.offset, m.st.n, m.format)
}

// format is the line of row i, or the placeholder when it is not loaded.
func (m *Model[T]) format(i int) (line string, loaded bool) {
	r := m.st.row(i)
	if r == nil {
		return "", false
	}
	return m.r.line(r), true
}

// Reformat formats the rows on screen again, for cells that change with
// the clock (an age) rather than with the rows.
func (m *Model[T]) Reformat() {
	m.r.invalidate()
	m.prepare()
}

// View draws the column titles and the rows in the window: exactly the
// height given to SetSize, no line wider than its width.
func (m *Model[T]) View() string {
	wait := ""
	if m.o.Waiting != nil && m.Busy() {
		wait = m.o.Waiting()
	}
	return m.r.view(m.cursor-m.offset, wait)
}
