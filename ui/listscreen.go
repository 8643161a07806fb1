package ui

import (
	"context"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// fetchPages reads one API list's pages; params turns a request into the
// method's parameters.
func fetchPages[P, T any](get func(context.Context, P) (*api.Page[T], error), params func(pagedlist.Request) P) pagedlist.Fetch[T] {
	return func(ctx context.Context, r pagedlist.Request) (pagedlist.Page[T], error) {
		page, err := get(ctx, params(r))
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

// pageParams turns a request into a list's parameters: base with the
// request's cursor and size, read newest first, or oldest first for a
// reverse read. set writes them where the parameters keep them.
func pageParams[P any](base P, set func(p *P, after string, first int, dir string)) func(pagedlist.Request) P {
	return func(r pagedlist.Request) P {
		p := base
		dir := api.DirectionDesc
		if r.Reverse {
			dir = api.DirectionAsc
		}
		set(&p, r.After, r.First, dir)
		return p
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
	// one request.
	reversible bool
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
	// errs is the list's error, above the status line.
	errs errLines
}

func newListScreen[T any](c *common, env *envState, spec listSpec[T]) *listScreen[T] {
	ctx, cancel := context.WithCancel(env.ctx)
	s := &listScreen[T]{c: c, env: env, ctx: ctx, cancel: cancel, spec: spec,
		keys: listKeys{nav: navKeys(), Open: openKey(spec.openDesc), Refresh: refreshKey()}}
	s.list = pagedlist.New(pagedlist.Options[T]{
		Columns:    spec.columns,
		ID:         spec.id,
		Fetch:      spec.fetch,
		Reversible: spec.reversible,
		Keys:       s.keys.nav,
		Styles:     c.styles.list(),
		Context:    ctx,
		Run:        c.listRun(env.Name),
		Now:        c.now,
		Waiting:    c.listWaiting(env, false),
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

func (s *listScreen[T]) setSize(w, h int) {
	s.w, s.h = w, h
	s.layout()
}

// layout gives the list what the status line and the error leave.
func (s *listScreen[T]) layout() {
	lines := s.errs.set(s.c, s.list.Err(), s.where(), s.w, s.h)
	s.list.SetSize(s.w, max(s.h-1-len(lines), 0))
}

func (s *listScreen[T]) where() where { return where{retry: s.keys.Refresh, project: s.env.Project} }

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
	st := s.c.styles
	if !s.list.Ready() {
		if err := s.list.Err(); err != nil {
			return fit(st.err.Render("✗ Could not load the "+s.spec.noun+". ")+explain(err, s.where()), s.w, s.h)
		}
		wait := s.c.loadingText(s.env.status, s.spec.noun)
		if s.spec.note != nil {
			if n := s.spec.note(); n != "" {
				wait += " " + n
			}
		}
		return fit(wait, s.w, s.h)
	}
	return s.c.listView(s.list, s.spec.title, s.spec.empty, s.errs.lines, s.statusLine(), s.w, s.h)
}

// statusLine: where the cursor is (in a list with rows), the note, what
// is loading or how old the rows are.
func (s *listScreen[T]) statusLine() string {
	var b strings.Builder
	if s.list.Len() > 0 {
		writePosition(&b, s.list)
	}
	if s.spec.note != nil {
		if n := s.spec.note(); n != "" {
			b.WriteString(" · ")
			b.WriteString(n)
		}
	}
	s.c.writeActivity(&b, s.list, s.env.status)
	return trunc(s.c.styles.dimP.Render(strings.TrimPrefix(b.String(), " · ")), s.w)
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
