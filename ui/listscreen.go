package ui

import (
	"context"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// fetchList reads the pages of one of api's lists, which decides how they
// are read (the operation, the page size, a merge of several accounts'
// lists) and what their cursors are.
func fetchList[T any](list *api.List[T]) pagedlist.Fetch[T] {
	return func(ctx context.Context, r pagedlist.Request) (pagedlist.Page[T], error) {
		page, err := list.Page(ctx, r.After, r.First, r.Reverse)
		if err != nil || page == nil {
			return pagedlist.Page[T]{}, err
		}
		return pageOf(page), nil
	}
}

func pageOf[T any](p *api.Page[T]) pagedlist.Page[T] {
	return pagedlist.Page[T]{
		Rows: p.Items, Total: p.TotalCount,
		StartCursor: p.PageInfo.StartCursor, EndCursor: p.PageInfo.EndCursor,
		HasNext: p.PageInfo.HasNextPage && p.PageInfo.EndCursor != "",
	}
}

// listSpec is what one list screen reads and how it draws it.
type listSpec[T any] struct {
	title   string // the breadcrumb
	noun    string // what the rows are: "Loading members…"
	columns []pagedlist.Column[T]
	id      func(*T) string
	fetch   pagedlist.Fetch[T]
	// reversible: fetch honours Request.Reverse, so G reaches the end in
	// one request (api.List.Reversible).
	reversible bool
	// walkToEnd: a list that is not reversible still takes G to its true
	// last row, reading every page before it in order.
	walkToEnd bool
	// pageSize is the rows of one request (api.List.PageSize); 0 means
	// the environment's (the configuration's page_size).
	pageSize int
	// project: the list is read with the environment's project-token
	// client. Its answers carry no msgErr (a refused project token is a
	// configuration matter shown on this screen, never a reason to send
	// the user back to sign in), and its waits are that client's.
	project bool
	// keepErr keeps the last finished read's error on screen while the
	// next read is on the wire, for a list that reads itself again on a
	// timer and would otherwise blink.
	keepErr bool
	// failed is the sentence before the error when the first page could
	// not be read; "" means "Could not load the <noun>.".
	failed string
	// empty says why there are no rows.
	empty func() string
	// open is the command that opens a row's screen; nil when rows do not
	// open. openDesc names it on the hint line.
	open     func(row T) tea.Cmd
	openDesc string
	// note follows the position on the status line (filters, progress
	// across accounts); nil for none.
	note func() string
}

type listKeys struct {
	nav           pagedlist.KeyMap
	Open, Refresh key.Binding
}

// listScreen is a paged list of one kind of item: the rows fetched as the
// cursor nears them, from either end when the list reads in reverse, the
// row under the cursor opened with enter.
type listScreen[T any] struct {
	c      *common
	env    *envState
	ctx    context.Context
	cancel context.CancelFunc
	spec   listSpec[T]
	keys   listKeys
	list   *pagedlist.Model[T]
	w, h   int

	started bool
	// err is the error kept on screen (keepErr); errs is the error shown
	// above the status line.
	err  error
	errs errLines
}

func newListScreen[T any](c *common, env *envState, spec listSpec[T]) *listScreen[T] {
	ctx, cancel := context.WithCancel(env.ctx)
	if spec.pageSize == 0 && env.API != nil {
		spec.pageSize = env.API.PageSize()
	}
	s := &listScreen[T]{c: c, env: env, ctx: ctx, cancel: cancel, spec: spec,
		keys: listKeys{nav: navKeys(), Open: openKey(spec.openDesc), Refresh: refreshKey()}}
	run := c.listRun(env.Name)
	if spec.project {
		run = c.projectListRun(env.Name)
	}
	s.list = pagedlist.New(pagedlist.Options[T]{
		Columns:    spec.columns,
		ID:         spec.id,
		Fetch:      spec.fetch,
		Reversible: spec.reversible,
		WalkToEnd:  spec.walkToEnd,
		PageSize:   spec.pageSize,
		Keys:       s.keys.nav,
		Styles:     c.styles.list(),
		Context:    ctx,
		Run:        run,
		Now:        c.now,
		Waiting:    c.listWaiting(env, spec.project),
	})
	s.syncKeys()
	return s
}

// init reads the first page the first time the list is shown.
func (s *listScreen[T]) init() tea.Cmd {
	if s.started {
		return nil
	}
	s.started = true
	return s.list.Query(s.spec.fetch)
}

// query starts the list over with fetch (a new filter).
func (s *listScreen[T]) query(fetch pagedlist.Fetch[T]) tea.Cmd {
	s.started = true
	s.spec.fetch = fetch
	defer s.syncKeys()
	return s.list.Query(fetch)
}

func (s *listScreen[T]) title() string   { return s.spec.title }
func (s *listScreen[T]) capturing() bool { return false }
func (s *listScreen[T]) busy() bool      { return s.list.Busy() }
func (s *listScreen[T]) close()          { s.cancel(); s.list.Close() }

// paged is the list screen itself, for the screens that embed it.
func (s *listScreen[T]) paged() *listScreen[T] { return s }

func (s *listScreen[T]) setSize(w, h int) {
	s.w, s.h = w, h
	s.layout()
}

// layout gives the list what the status line and the error leave.
func (s *listScreen[T]) layout() {
	lines := s.errs.set(s.c, s.shownErr(), s.where(), s.w, s.h)
	s.list.SetSize(s.w, max(s.h-1-len(lines), 0))
}

// shownErr is the error on screen: the last read's, or with keepErr the
// last finished read's.
func (s *listScreen[T]) shownErr() error {
	if s.spec.keepErr {
		return s.err
	}
	return s.list.Err()
}

// settle records a finished read's error (a cancelled read leaves none).
// The root logs the failures of the lists it sees; a project list's it
// does not see, so they are logged here.
func (s *listScreen[T]) settle() {
	if s.list.Busy() {
		return
	}
	err := s.list.Err()
	if err != nil && err != s.err && s.spec.project {
		s.c.log.Warn("request failed", "env", string(s.env.Name), "list", s.spec.title, "error", err.Error())
	}
	s.err = err
}

// apiStatus is the status of the client the list reads with.
func (s *listScreen[T]) apiStatus() api.Status {
	if s.spec.project {
		return s.env.projectAPIStatus()
	}
	return s.env.status
}

func (s *listScreen[T]) where() where {
	return where{retry: s.keys.Refresh, project: s.env.Project || s.spec.project}
}

func (s *listScreen[T]) syncKeys() {
	s.layout()
	_, selected := s.list.Selected()
	s.keys.Open.SetEnabled(selected && s.spec.open != nil)
}

func (s *listScreen[T]) ShortHelp() []key.Binding {
	return []key.Binding{s.keys.Open, s.keys.Refresh}
}

func (s *listScreen[T]) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.list.Bindings(), {s.keys.Open, s.keys.Refresh}}
}

func (s *listScreen[T]) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		s.list.SetStyles(s.c.styles.list())
		s.errs.restyled()
	case listMsg:
		defer s.settle()
		return s.list.Update(msg.inner)
	case projectListMsg:
		defer s.settle()
		return s.list.Update(msg.inner)
	}
	return nil
}

func (s *listScreen[T]) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	if cmd, ok := s.list.HandleKey(msg); ok {
		return cmd, true
	}
	switch {
	case key.Matches(msg, s.keys.Open):
		if row, ok := s.list.Selected(); ok && s.spec.open != nil {
			return s.spec.open(row), true
		}
		return nil, true
	case key.Matches(msg, s.keys.Refresh):
		if !s.list.Ready() {
			return s.query(s.spec.fetch), true
		}
		return s.list.Refresh(), true
	}
	return nil, false
}

func (s *listScreen[T]) view() string {
	if s.h <= 0 {
		return ""
	}
	if !s.list.Ready() {
		return fit(s.placeholder(), s.w, s.h)
	}
	return s.viewWith(s.statusLine())
}

// viewWith draws the list with status as its status line.
func (s *listScreen[T]) viewWith(status string) string {
	return s.c.listView(s.list, s.spec.title, s.spec.empty, s.errs.lines, status, s.w, s.h)
}

// placeholder stands for the list until its first page: why the read
// failed, or what it waits for.
func (s *listScreen[T]) placeholder() string {
	if err := s.shownErr(); err != nil {
		failed := s.spec.failed
		if failed == "" {
			failed = "Could not load the " + s.spec.noun + "."
		}
		text := s.c.styles.err.Render("✗ "+failed+" ") + s.c.explain(err, s.where())
		return lipgloss.NewStyle().Width(max(s.w, 1)).Render(text)
	}
	wait := s.c.loadingText(s.apiStatus(), s.spec.noun)
	if s.spec.note != nil {
		if n := s.spec.note(); n != "" {
			wait += " " + n
		}
	}
	return wait
}

// statusLine: where the cursor is (in a list with rows), the note, what
// is loading or how old the rows are.
func (s *listScreen[T]) statusLine() string {
	var b strings.Builder
	s.writeStatus(&b)
	s.c.writeActivity(&b, s.list, s.apiStatus())
	return trunc(s.c.styles.dimP.Render(strings.TrimPrefix(b.String(), " · ")), s.w)
}

// writeStatus writes where the cursor is and the note, each after " · ".
func (s *listScreen[T]) writeStatus(b *strings.Builder) {
	if s.list.Len() > 0 {
		b.WriteString(" · ")
		writePosition(b, s.list)
	}
	if s.spec.note != nil {
		if n := s.spec.note(); n != "" {
			b.WriteString(" · ")
			b.WriteString(n)
		}
	}
}

// listInfo is what a status line tells of a paged list.
type listInfo interface {
	Cursor() int
	Len() int
	Loaded() int
	Refreshing() bool
	Busy() bool
	Updated() time.Time
}

// writePosition writes "row i of loaded/total".
// It is drawn on every key press: the numbers go through a buffer on the
// stack, not strings of their own.
func writePosition(b *strings.Builder, l listInfo) {
	var buf [64]byte
	p := append(buf[:0], "row "...)
	p = strconv.AppendInt(p, int64(min(l.Cursor()+1, l.Len())), 10)
	p = append(p, " of "...)
	p = strconv.AppendInt(p, int64(l.Loaded()), 10)
	p = append(p, '/')
	p = strconv.AppendInt(p, int64(l.Len()), 10)
	b.Write(p)
}

// writeActivity writes what the list waits for (the wait that holds its
// request back, from the API client's status st), or how old its rows are.
func (c *common) writeActivity(b *strings.Builder, l listInfo, st api.Status) {
	switch {
	case l.Refreshing():
		b.WriteString(" · " + c.spinFrame + " refreshing")
	case l.Busy():
		if w := waitText(st, c.now()); w != "" {
			b.WriteString(" · " + c.spinFrame + " " + w)
		} else {
			b.WriteString(" · " + c.spinFrame + " loading more")
		}
	case !l.Updated().IsZero():
		b.WriteString(" · updated " + shortDuration(c.now().Sub(l.Updated())) + " ago")
	}
}
