package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// keyMap holds every binding. The same bindings handle input and build the
// help, so the help can never disagree with what the keys do.
type keyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Open, Back, Filter, Refresh, Sort       key.Binding
	Env, Copy, QR, Simulate                 key.Binding
	SignIn, Approve, CopyURL                key.Binding
	Help, Quit, ForceQuit                   key.Binding
	Confirm                                 key.Binding
	Submit, Cancel                          key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Refresh:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Sort:     key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort created/updated")),
		Env:      key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "switch sandbox/live")),
		Copy:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy IBAN")),
		QR:       key.NewBinding(key.WithKeys("Q"), key.WithHelp("Q", "IBAN QR code")),
		Simulate: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "simulate transfer")),
		SignIn:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "sign in")),
		Approve:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve as demo user")),
		CopyURL:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy URL")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:     key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		// ctrl+c is matched before anything else, text inputs included.
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Confirm:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "confirm")),
		Submit:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "submit")),
		Cancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// global bindings, shown in every screen's full help.
func (k keyMap) global() []key.Binding {
	return []key.Binding{k.Env, k.Help, k.Quit, k.ForceQuit}
}

// navigation bindings shared by the list and the transactions of the detail.
func (k keyMap) navigation() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// move applies a list-navigation key to cursor, where page is the number of
// visible rows and n the number of rows; ok is false for any other key. The
// caller clamps, since only it knows whether more rows are on their way.
func (k keyMap) move(msg tea.KeyPressMsg, cursor, page, n int) (next int, ok bool) {
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
		return n - 1, true
	}
	return cursor, false
}
