package ui

import (
	"context"
	"errors"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
)

// keyScene puts a fresh program in one state.
type keyScene struct {
	name string
	fx   fixture
	// setup brings the program to the state; it may change the fakes.
	setup func(d *driver)
	// takesAll: every key is handled there (text input, the help view).
	takesAll bool
}

func keyScenes() []keyScene {
	return []keyScene{
		{name: "accounts", fx: fixture{rows: 30, signedIn: true}},
		{name: "accounts filtered", fx: fixture{rows: 30, signedIn: true}, setup: func(d *driver) { d.press("/", "2", "enter") }},
		{name: "accounts filter field", fx: fixture{rows: 30, signedIn: true}, setup: func(d *driver) { d.press("/") }, takesAll: true},
		{name: "detail", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter") }},
		{name: "detail QR", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter", "Q") }},
		{name: "detail amount prompt", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter", "s") }, takesAll: true},
		{name: "detail on Live", fx: fixture{rows: 3, signedIn: true, liveSigned: true}, setup: func(d *driver) { d.press("e", "y", "enter") }},
		{name: "project accounts", fx: fixture{rows: 3, project: true}},
		{name: "sign-in", fx: fixture{rows: 3}},
		{name: "sign-in with demo", fx: fixture{rows: 3, demo: true}},
		{name: "sign-in waiting", fx: fixture{rows: 3}, setup: blockLogin},
		{name: "sign-in failed", fx: fixture{rows: 3, demo: true}, setup: func(d *driver) {
			d.sbxS.login = func(context.Context, auth.LoginOptions) (*auth.Identity, error) { return nil, errors.New("boom") }
			d.press("enter")
		}},
		{name: "sign-in warnings", fx: fixture{rows: 3}, setup: func(d *driver) {
			d.sbx.user = &api.User{FullName: "John Roe", MobilePhoneNumber: "+33700000000"}
			d.press("enter")
		}},
		{name: "help", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("?") }, takesAll: true},
		{name: "account transactions", fx: fixture{rows: 3, signedIn: true}, setup: withTxs(func(d *driver) { d.press("enter", "2") })},
		{name: "account transactions filtered", fx: fixture{rows: 3, signedIn: true}, setup: withTxs(func(d *driver) { d.press("enter", "2", "/", "P", "enter") })},
		{name: "transaction filters", fx: fixture{rows: 3, signedIn: true}, setup: withTxs(func(d *driver) { d.press("enter", "2", "f") }), takesAll: true},
		{name: "account members", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter", "3") }},
		{name: "account cards", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter", "4") }},
		{name: "account statements", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter", "5") }},
		{name: "transaction", fx: fixture{rows: 3, signedIn: true}, setup: withTxs(func(d *driver) { d.press("enter", "2", "enter") })},
		{name: "transaction without a project client", fx: fixture{rows: 3, signedIn: true, noEvents: true}, setup: func(d *driver) {
			d.send(openMsg{envTag{config.Sandbox}, resourceTransaction, "tx-acc-0-1"})
		}},
		{name: "member", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter", "3", "enter") }},
		{name: "card", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter", "4", "enter") }},
		{name: "statement", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter", "5", "enter") }},
		{name: "all transactions", fx: fixture{rows: 3, signedIn: true}, setup: withTxs(func(d *driver) { jump(d, "transactions") })},
		{name: "all members", fx: fixture{rows: 3, project: true}, setup: func(d *driver) { jump(d, "members") }},
		{name: "all cards", fx: fixture{rows: 3, project: true}, setup: func(d *driver) { jump(d, "cards") }},
		{name: "palette", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press(":") }, takesAll: true},
		{name: "events", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("E") }},
		{name: "events of an account", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("enter", "E") }},
		{name: "events type field", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("E", "t") }, takesAll: true},
		{name: "events replay question", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("E", "R") }, takesAll: true},
		{name: "events on Live", fx: fixture{rows: 3, signedIn: true, liveSigned: true}, setup: func(d *driver) { d.press("e", "y", "E") }},
		{name: "event", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("E", "enter") }},
		{name: "event naming nothing to open", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("E", "G", "enter") }},
		{name: "event replay question", fx: fixture{rows: 3, signedIn: true}, setup: func(d *driver) { d.press("E", "enter", "R") }, takesAll: true},
		{name: "no event log", fx: fixture{rows: 3, signedIn: true, noEvents: true}},
		{name: "sign-in headless", fx: fixture{rows: 3, headless: true}},
		{name: "sign-in headless waiting", fx: fixture{rows: 3, headless: true}, setup: func(d *driver) {
			blockLogin(d)
			d.send(loginURLMsg{envTag{config.Sandbox}, d.signin().id, fakePrompt(true, false), func(string) error { return nil }})
		}},
		{name: "sign-in paste field", fx: fixture{rows: 3, headless: true}, setup: func(d *driver) {
			blockLogin(d)
			d.send(loginURLMsg{envTag{config.Sandbox}, d.signin().id, fakePrompt(true, false), func(string) error { return nil }})
			d.press("p")
		}, takesAll: true},
	}
}

// withTxs gives the fake accounts transactions before setup runs.
func withTxs(setup func(d *driver)) func(d *driver) {
	return func(d *driver) {
		for _, a := range d.sbx.accounts {
			d.sbx.txs[a.ID] = makeTxs(a.ID, 30)
		}
		setup(d)
	}
}

// jump goes somewhere with the : palette.
func jump(d *driver, to string) {
	d.t.Helper()
	d.press(":")
	for _, r := range to {
		d.press(string(r))
	}
	d.press("enter")
}

func (sc keyScene) start(t *testing.T) *driver {
	t.Helper()
	d := newDriver(t, sc.fx)
	if sc.setup != nil {
		sc.setup(d)
	}
	return d
}

// shown is every binding the hint line and the ? help draw.
func shown(d *driver) []key.Binding {
	out := enabled(d.m.hintBindings()...)
	for _, g := range d.m.helpGroups() {
		out = append(out, enabled(g...)...)
	}
	return out
}

// The hint line and the ? help are drawn from the bindings that handle
// the keys: every key they show is handled, and no other key is.
func TestShownKeysAreExactlyTheHandledKeys(t *testing.T) {
	t.Parallel()
	probes := []string{"a", "b", "c", "e", "E", "f", "g", "G", "j", "k", "m", "o", "p", "q", "Q", "r", "R", "s", "t", "x", "y", "z",
		"/", "?", ":", "1", "2", "5", "enter", "esc", "tab", "shift+tab", "up", "down", "pgup", "pgdown", "home", "end"}
	for _, sc := range keyScenes() {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			keys := map[string]bool{}
			for _, b := range shown(sc.start(t)) {
				for _, k := range b.Keys() {
					keys[k] = true
					if _, handled := sc.start(t).m.key(keyMsg(k)); !handled {
						t.Errorf("%q (%s) is shown but not handled", k, b.Help().Desc)
					}
				}
			}
			if len(keys) == 0 {
				t.Fatal("no keys shown")
			}
			if sc.takesAll {
				return
			}
			for _, k := range probes {
				if keys[k] {
					continue
				}
				if _, handled := sc.start(t).m.key(keyMsg(k)); handled {
					t.Errorf("%q is handled but shown nowhere", k)
				}
			}
		})
	}
}

// Keys that do not apply are not shown: simulate on Live, the demo
// approval without a demo, back on the first screen.
func TestInapplicableKeysAreNotShown(t *testing.T) {
	t.Parallel()
	has := func(d *driver, k string) bool {
		for _, b := range shown(d) {
			for _, bk := range b.Keys() {
				if bk == k {
					return true
				}
			}
		}
		return false
	}
	live := newDriver(t, fixture{rows: 3, signedIn: true, liveSigned: true})
	live.press("e", "y", "enter")
	if has(live, "s") {
		t.Error("simulate is shown on Live")
	}
	signin := newDriver(t, fixture{rows: 3})
	if has(signin, "a") {
		t.Error("the demo approval is shown without a demo")
	}
	accounts := newDriver(t, fixture{rows: 3, signedIn: true})
	if has(accounts, "esc") {
		t.Error("esc is shown on the first screen with no filter to clear")
	}
}
