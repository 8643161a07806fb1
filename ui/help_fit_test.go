package ui

import (
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// helpScenes reach every kind of screen the ? help is opened on.
var helpScenes = []struct {
	name string
	keys []string
}{
	{"sign-in", nil},
	{"accounts", nil},
	{"overview", []string{"enter"}},
	{"transactions", []string{"enter", "2"}},
	{"transaction", []string{"enter", "2", "enter"}},
	{"members", []string{"enter", "3"}},
	{"member", []string{"enter", "3", "enter"}},
	{"cards", []string{"enter", "4"}},
	{"card", []string{"enter", "4", "enter"}},
	{"statements", []string{"enter", "5"}},
	{"statement", []string{"enter", "5", "enter"}},
	{"events", []string{"E"}},
	{"event", []string{"E", "enter"}},
	{"all transactions", []string{":", "t", "r", "a", "n", "s", "a", "c", "t", "i", "o", "n", "s", "enter"}},
}

// TestHelpShowsEveryBindingAt80x24: the ? help of every screen shows each
// of its bindings whole at 80×24 (more rows of columns, not "…"), and the
// hint line never ends in a cut binding.
func TestHelpShowsEveryBindingAt80x24(t *testing.T) {
	t.Parallel()
	for _, sc := range helpScenes {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			fx := fixture{rows: 3, signedIn: sc.name != "sign-in", demo: true, w: 80, h: 24}
			d := newDriverWith(t, fx, func(d *driver) {
				d.sbx.txs["acc-0"] = makeTxs("acc-0", 3)
			})
			d.press(sc.keys...)
			hint := strings.Split(d.screen(), "\n")[23-1]
			if strings.HasSuffix(strings.TrimSpace(hint), "…") {
				t.Errorf("the hint line is cut: %q", hint)
			}
			groups := d.m.helpGroups()
			d.press("?")
			screen := d.screen()
			// The body: the breadcrumbs above it may be cut.
			cut := strings.Join(strings.Split(screen, "\n")[1:22], "\n")
			for _, g := range groups {
				for _, b := range g {
					if !b.Enabled() {
						continue
					}
					// A description of its own may end in "…" (jump to…).
					cut = strings.ReplaceAll(cut, b.Help().Desc, "")
					if h := b.Help(); !helpEntry(h).MatchString(screen) {
						t.Errorf("the help lacks %q %q:\n%s", h.Key, h.Desc, screen)
					}
				}
			}
			if strings.Contains(cut, "…") {
				t.Errorf("the help cuts something:\n%s", screen)
			}
		})
	}
}

// helpEntry matches a binding as the help draws it: the key, the spaces
// that align its column, the description.
func helpEntry(h key.Help) *regexp.Regexp {
	return regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(h.Key) + ` +` + regexp.QuoteMeta(h.Desc) + `(\s|$)`)
}
