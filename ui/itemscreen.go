package ui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// itemScreen is what the screens of one resource share: the item, given
// by the list it was opened from or read by id, its error, its fields.
type itemScreen[T any] struct {
	c      *common
	env    *envState
	ctx    context.Context
	cancel context.CancelFunc
	kind   resourceKind
	id     string
	noun   string // "card": "Could not load the card."
	// get reads the item by id; nil when it cannot be, and noGet says why.
	get   func(context.Context, string) (*T, error)
	noGet error
	item  loader[T]
	w, h  int
	// retype is the : key when the item was asked for by an ID the user
	// typed (where.retype).
	retype key.Binding
}

func newItemScreen[T any](c *common, env *envState, kind resourceKind, id, noun string,
	get func(context.Context, string) (*T, error), item *T) *itemScreen[T] {
	ctx, cancel := context.WithCancel(env.ctx)
	s := &itemScreen[T]{c: c, env: env, ctx: ctx, cancel: cancel, kind: kind, id: id, noun: noun, get: get}
	s.item.item = item
	return s
}

func (s *itemScreen[T]) resource() (resourceKind, string) { return s.kind, s.id }

// typedByID: the item was asked for by an ID the user typed.
func (s *itemScreen[T]) typedByID(retype key.Binding) { s.retype = retype }

// init reads the item unless the list it came from gave it.
func (s *itemScreen[T]) init() tea.Cmd {
	if s.item.item != nil {
		return nil
	}
	return s.load()
}

// load reads the item again.
func (s *itemScreen[T]) load() tea.Cmd {
	if s.get == nil {
		s.item.err = s.noGet
		return nil
	}
	get, id := s.get, s.id
	return s.item.load(s.c, s.ctx, s.env.Name, func(ctx context.Context) (*T, error) { return get(ctx, id) })
}

// lookedUp: the first read of the item ended, and err is why it failed
// (the : palette opens the screen only once it has the item).
func (s *itemScreen[T]) lookedUp() (done bool, err error) {
	if s.item.item != nil {
		return true, nil
	}
	return s.item.err != nil && !s.item.busy(), s.item.err
}

func (s *itemScreen[T]) capturing() bool  { return false }
func (s *itemScreen[T]) busy() bool       { return s.item.busy() }
func (s *itemScreen[T]) close()           { s.cancel() }
func (s *itemScreen[T]) setSize(w, h int) { s.w, s.h = w, h }

// lines are the screen's heading, its error and fields; until the item
// comes, what it waits for.
func (s *itemScreen[T]) lines(heading string, fields func(*T) []field, retry key.Binding) []string {
	st := s.c.styles
	lines := []string{st.title.Render(heading)}
	if err := s.item.err; err != nil {
		lines = append(lines, wrap(st.err.Render("✗ Could not load the "+s.noun+". ")+s.c.explain(err, where{retry: retry, project: s.env.Project, retype: s.retype}), s.w))
	}
	switch {
	case s.item.item != nil:
		lines = append(lines, fieldRows(st, s.w, fields(s.item.item))...)
	case s.item.busy():
		lines = append(lines, s.c.spinFrame+" Loading the "+s.noun+"…")
	}
	return lines
}

// view is the lines, fitted to the screen.
func (s *itemScreen[T]) view(heading string, fields func(*T) []field, retry key.Binding) string {
	if s.h <= 0 {
		return ""
	}
	return fit(strings.Join(s.lines(heading, fields, retry), "\n"), s.w, s.h)
}
