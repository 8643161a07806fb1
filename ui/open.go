package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/config"
)

// itemMsg answers the request for one item (an account, a transaction, a
// membership, a card) that a screen made with its loader.
type itemMsg[T any] struct {
	envTag
	id   int
	item *T
	err  error
}

func (m itemMsg[T]) msgErr() error { return m.err }

// loader is one item a screen reads by id: the request in flight, the
// item once it came, the error that kept it away.
type loader[T any] struct {
	id   int // the request in flight, 0 when none
	item *T
	err  error
}

// load asks for the item with get, off the event loop.
func (l *loader[T]) load(c *common, ctx context.Context, env config.EnvName, get func(context.Context) (*T, error)) tea.Cmd {
	l.id = c.nextID()
	id := l.id
	return c.task(func() tea.Msg {
		item, err := get(ctx)
		return itemMsg[T]{envTag{env}, id, item, err}
	})
}

// apply takes the answer to the request in flight; it reports whether msg
// was that answer. A failed reload keeps the item shown with the error.
func (l *loader[T]) apply(msg tea.Msg) bool {
	m, ok := msg.(itemMsg[T])
	if !ok || m.id != l.id || l.id == 0 {
		return false
	}
	l.id = 0
	switch {
	case m.err != nil:
		keepErr(&l.err, m.err)
	case m.item != nil:
		l.item, l.err = m.item, nil
	}
	return true
}

func (l *loader[T]) busy() bool { return l.id != 0 }

// resourceScreen is a screen that shows one resource: opening that
// resource again goes back to it instead of stacking a copy.
type resourceScreen interface {
	resource() (resourceKind, string)
}

// open shows the screen of one resource on top of the stack, or goes back
// to it when it is already there.
func (m *Model) open(msg openMsg) tea.Cmd {
	if msg.env != m.env.Name || msg.id == "" {
		return nil
	}
	for i := len(m.stack) - 1; i >= 0; i-- {
		if r, ok := m.stack[i].(resourceScreen); ok {
			if k, id := r.resource(); k == msg.kind && id == msg.id {
				m.popTo(i + 1)
				return nil
			}
		}
	}
	if s := m.resourceScreen(msg.kind, msg.id); s != nil {
		return m.push(s)
	}
	return nil
}

// resourceScreen is a new screen of one resource of the active
// environment; nil for a kind nothing opens by id.
func (m *Model) resourceScreen(kind resourceKind, id string) screen {
	if v := m.c.viewOf(kind); v != nil && v.one != nil {
		return v.one.open(m.c, m.env, id)
	}
	return nil
}

// jump goes where the palette was asked to: a view by name, or the
// resource it looked up. A jump replaces the trail above the account list
// instead of piling onto it (as k9s's : does).
func (m *Model) jump(msg jumpMsg) tea.Cmd {
	m.closeTop() // the palette
	if msg.s == nil {
		return msg.target.open(m, msg.arg)
	}
	m.popTo(1)
	if t, ok := msg.s.(typedByID); ok {
		t.typedByID(m.keys.Jump)
	}
	// Its first read was the lookup's: it is shown as it is.
	msg.s.setSize(m.bodySize())
	m.stack = append(m.stack, msg.s)
	return nil
}

// push opens s on top of the stack.
func (m *Model) push(s screen) tea.Cmd {
	s.setSize(m.bodySize())
	m.stack = append(m.stack, s)
	return s.init()
}

// popTo closes the screens above the first n.
func (m *Model) popTo(n int) {
	for len(m.stack) > max(n, 1) {
		m.top().close()
		m.stack = m.stack[:len(m.stack)-1]
	}
}

// openCmd asks the root to open a resource by id.
func openCmd(env config.EnvName, kind resourceKind, id string) tea.Cmd {
	return func() tea.Msg { return openMsg{envTag{env}, kind, id} }
}
