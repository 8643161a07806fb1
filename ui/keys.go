package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/partnertui/partnertui/ui/pagedlist"
)

// Each screen owns its key map, built from the constructors below: what
// one screen enables, disables or relabels changes no other. The hint line
// and the ? help are drawn from the same bindings that handle the keys,
// and a disabled binding is neither handled nor drawn.

// globalKeys are the root's: they work on every screen that is not taking
// text.
type globalKeys struct {
	Env, Help, Quit, ForceQuit key.Binding
	// Events opens the webhook event log, scoped to the account on screen;
	// enabled when the environment has a project-token client.
	Events key.Binding
	// Back pops the screen; enabled only when there is one to go back to
	// and the screen does not use esc itself.
	Back key.Binding
	// Confirm answers the question on the message line (switch to Live).
	Confirm key.Binding
	// CloseHelp leaves the help view.
	CloseHelp key.Binding
	// Jump opens the : palette (k9s's resource jump).
	Jump key.Binding
	// Requests opens the process's request log; enabled when the UI was
	// given one.
	Requests key.Binding
	// SignOut signs the user out of the active environment (y confirms);
	// enabled while someone is signed in.
	SignOut key.Binding
}

func newGlobalKeys() globalKeys {
	return globalKeys{
		Env:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "switch sandbox/live")),
		Events: key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "events")),
		Help:   key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:   key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		// ctrl+c is matched before anything else, text inputs included.
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Confirm:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "confirm")),
		CloseHelp: key.NewBinding(key.WithKeys("?", "esc", "q"), key.WithHelp("?/esc", "close help")),
		Jump:      key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "jump to…")),
		Requests:  key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "requests")),
		SignOut:   key.NewBinding(key.WithKeys("O"), key.WithHelp("O", "sign out")),
	}
}

// short are the global keys worth a place on the hint line.
func (k globalKeys) short() []key.Binding { return []key.Binding{k.Back, k.Env, k.Quit, k.Events} }

// full are the global keys of the help view.
func (k globalKeys) full() []key.Binding {
	return []key.Binding{k.Back, k.Jump, k.Events, k.Requests, k.Env, k.SignOut, k.Help, k.Quit, k.ForceQuit}
}

// navKeys move a list's cursor.
func navKeys() pagedlist.KeyMap { return pagedlist.DefaultKeyMap() }

func refreshKey() key.Binding {
	return key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh"))
}

func openKey(desc string) key.Binding {
	return key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", desc))
}

func escKey(desc string) key.Binding {
	return key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", desc))
}

// enabled keeps the bindings that are enabled (for a test, or to tell
// whether a screen uses a key).
func enabled(bs ...key.Binding) []key.Binding {
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// uses reports whether any enabled binding of groups answers to k.
func uses(groups [][]key.Binding, k string) bool {
	for _, g := range groups {
		for _, b := range g {
			if !b.Enabled() {
				continue
			}
			for _, bk := range b.Keys() {
				if bk == k {
					return true
				}
			}
		}
	}
	return false
}
