package ui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// vibanKeys are the keys of the virtual IBANs, on the list and on one:
// copy the IBAN, and in Sandbox add one, cancel one and switch whether it
// takes SEPA direct debits, each after a confirmation.
type vibanKeys struct {
	Copy, Add, Cancel, SDD key.Binding
}

func newVibanKeys() vibanKeys {
	return vibanKeys{
		Copy:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy IBAN")),
		Add:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "add a virtual IBAN")),
		Cancel: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "cancel it")),
		SDD:    key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "allow/deny direct debits")),
	}
}

// sync enables the keys that fit v (nil: no row); add needs none.
func (k *vibanKeys) sync(env *envState, v *api.VirtualIban, canAdd bool) {
	k.Copy.SetEnabled(v != nil && v.IBAN != "")
	k.Add.SetEnabled(canAdd && env.changes())
	enabled := v != nil && v.Status == "Enabled" && env.changes()
	k.Cancel.SetEnabled(enabled)
	k.SDD.SetEnabled(enabled)
	if v != nil && v.BlockSDD {
		k.SDD.SetHelp("d", "allow direct debits")
	} else {
		k.SDD.SetHelp("d", "deny direct debits")
	}
}

// vibanChanges are the changes of a virtual IBAN, asked for then run.
type vibanChanges struct {
	c         *common
	env       *envState
	ctx       context.Context
	accountID string
	ask       *asking
	id        int // the change in flight, 0 when none
}

// handle answers the question, or asks one for the key pressed on v.
func (ch *vibanChanges) handle(msg tea.KeyPressMsg, k *vibanKeys, v *api.VirtualIban) (tea.Cmd, bool) {
	if ch.ask.waiting() {
		return ch.ask.answer(msg), true
	}
	a, c, env := objects(ch.env), ch.c, ch.env
	switch {
	case key.Matches(msg, k.Add):
		ch.ask.open("Add a virtual IBAN to this account?", func() tea.Cmd {
			ch.id = c.nextID()
			return change(c, env, ch.ctx, ch.id, ch.accountID, "", func(ctx context.Context) (*api.VirtualIban, error) {
				return a.AddVirtualIban(ctx, ch.accountID)
			}, func(v *api.VirtualIban) string { return "Added the virtual IBAN " + iban.Format(v.IBAN) })
		})
		return nil, true
	case v == nil:
		return nil, false
	case key.Matches(msg, k.Cancel):
		id, shown := v.ID, iban.Format(v.IBAN)
		ch.ask.open("Cancel the virtual IBAN "+shown+"? It takes no payment after that, for good.", func() tea.Cmd {
			ch.id = c.nextID()
			return change(c, env, ch.ctx, ch.id, ch.accountID, id, func(ctx context.Context) (*api.VirtualIban, error) {
				return a.CancelVirtualIban(ctx, id)
			}, func(v *api.VirtualIban) string { return "The virtual IBAN " + shown + " is " + v.Status })
		})
		return nil, true
	case key.Matches(msg, k.SDD):
		id, shown, allow := v.ID, iban.Format(v.IBAN), v.BlockSDD
		q := "Deny the SEPA direct debits the virtual IBAN " + shown + " receives?"
		if allow {
			q = "Allow SEPA direct debits on the virtual IBAN " + shown + "?"
		}
		ch.ask.open(q, func() tea.Cmd {
			ch.id = c.nextID()
			return change(c, env, ch.ctx, ch.id, ch.accountID, id, func(ctx context.Context) (*api.VirtualIban, error) {
				return a.SetVirtualIbanSDD(ctx, id, allow)
			}, func(v *api.VirtualIban) string { return "Direct debits on " + shown + ": " + sddText(v) })
		})
		return nil, true
	case key.Matches(msg, k.Copy):
		return copyCmd(c, v.IBAN, "IBAN copied"), true
	}
	return nil, false
}

// answered takes a change's answer: the flash for the screen that asked.
func (ch *vibanChanges) answered(m changedMsg, at where) tea.Cmd {
	if m.id != ch.id || ch.id == 0 {
		return nil
	}
	ch.id = 0
	return changeFlash(m, at)
}

// objects is what the environment's client reads and changes of the
// account's other objects.
func objects(e *envState) objectsAPI { return e.API }

// sddText says whether a virtual IBAN takes direct debits.
func sddText(v *api.VirtualIban) string {
	if v.BlockSDD {
		return "blocked"
	}
	return "allowed"
}

// vibansScreen is an account's Virtual IBANs tab: the status filter (f),
// each IBAN copied (y), and in Sandbox one added (n), canceled (x) or its
// direct debits switched (d), after a confirmation; the list is read
// again after each change.
type vibansScreen struct {
	*listScreen[api.VirtualIban]
	keys   vibanKeys
	filter *cycle
	ch     *vibanChanges
}

func newVibansList(c *common, env *envState, accountID string) *vibansScreen {
	s := &vibansScreen{keys: newVibanKeys(), filter: newCycle("f", "status", []string{"Enabled", "Canceled", "Suspended"}),
		ch: &vibanChanges{c: c, env: env, accountID: accountID, ask: newAsking()}}
	s.listScreen = newListScreen(c, env, listSpec[api.VirtualIban]{
		title:   "Virtual IBANs",
		noun:    "virtual IBANs",
		columns: vibanColumns(),
		id:      func(v *api.VirtualIban) string { return v.ID },
		fetch:   s.fetch(accountID),
		empty: func() string {
			none := "No virtual IBANs on this account."
			if s.keys.Add.Enabled() {
				none += " Press " + s.keys.Add.Help().Key + " to add one."
			}
			return s.filter.emptyOr("virtual IBANs", none)
		},
		walkToEnd: true,
		open: func(v api.VirtualIban) tea.Cmd {
			return push(env.Name, newVibanScreen(c, env, accountID, v))
		},
		openDesc: "open virtual IBAN",
		note:     s.filter.note,
	})
	s.ch.ctx = s.ctx
	s.syncKeys()
	return s
}

// virtualIbansParams is how the tab reads: the platform's order, every
// status.
func virtualIbansParams(accountID string) api.VirtualIbansParams {
	return api.VirtualIbansParams{AccountID: accountID}
}

func (s *vibansScreen) fetch(accountID string) pagedlist.Fetch[api.VirtualIban] {
	p := virtualIbansParams(accountID)
	p.Statuses = s.filter.values()
	return fetchList(api.ListOf(objects(s.ch.env).VirtualIbans, p, s.ch.env.API.PageSize()))
}

func vibanColumns() []pagedlist.Column[api.VirtualIban] {
	return []pagedlist.Column[api.VirtualIban]{
		{Title: "IBAN", Width: 34, Cell: func(v *api.VirtualIban) string { return iban.Format(v.IBAN) }},
		{Title: "Status", Width: 9, Drop: 1, Cell: func(v *api.VirtualIban) string { return v.Status }},
		{Title: "SDD", Width: 7, Drop: 2, Cell: sddText},
		{Title: "Label", Width: 12, Flex: true, Drop: 3, Cell: func(v *api.VirtualIban) string { return v.Label }},
		{Title: "BIC", Width: 11, Drop: 4, Cell: func(v *api.VirtualIban) string { return v.BIC }},
	}
}

func (s *vibansScreen) selected() *api.VirtualIban {
	if v, ok := s.list.Selected(); ok {
		return &v
	}
	return nil
}

func (s *vibansScreen) capturing() bool { return s.ch.ask.waiting() }
func (s *vibansScreen) busy() bool      { return s.listScreen.busy() || s.ch.id != 0 }

func (s *vibansScreen) syncKeys() {
	s.listScreen.syncKeys()
	s.keys.sync(s.env, s.selected(), true)
}

func (s *vibansScreen) ShortHelp() []key.Binding {
	if s.ch.ask.waiting() {
		return []key.Binding{s.ch.ask.yes}
	}
	return []key.Binding{s.listScreen.keys.Open, s.keys.Add, s.keys.Cancel, s.keys.SDD, s.keys.Copy, s.filter.key, s.listScreen.keys.Refresh}
}

func (s *vibansScreen) FullHelp() [][]key.Binding {
	return append(s.listScreen.FullHelp(), []key.Binding{s.keys.Copy, s.filter.key, s.keys.Add, s.keys.Cancel, s.keys.SDD})
}

func (s *vibansScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	if m, ok := msg.(changedMsg); ok {
		var read tea.Cmd
		_, viban := m.item.(*api.VirtualIban)
		switch {
		// The account's other changes (a standing order canceled) leave
		// its virtual IBANs as they are.
		case m.accountID != s.ch.accountID || m.err != nil || !viban:
		case m.itemID == "":
			// An IBAN added is listed first: the list starts over there,
			// on it.
			read = s.query(s.fetch(s.ch.accountID))
		default:
			read = s.list.Refresh()
		}
		return tea.Batch(read, s.ch.answered(m, s.where()))
	}
	return s.listScreen.update(msg)
}

func (s *vibansScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	s.syncKeys()
	defer s.syncKeys()
	if key.Matches(msg, s.filter.key) && !s.ch.ask.waiting() {
		s.filter.next()
		return s.query(s.fetch(s.ch.accountID)), true
	}
	if cmd, ok := s.ch.handle(msg, &s.keys, s.selected()); ok {
		return cmd, true
	}
	return s.listScreen.handleKey(msg)
}

func (s *vibansScreen) view() string {
	if s.h <= 0 || !s.ch.ask.waiting() || !s.list.Ready() {
		return s.listScreen.view()
	}
	return s.viewWith(s.ch.ask.line(s.c, s.w))
}

// vibanScreen is one virtual IBAN: its bank details, copied with y; in
// Sandbox canceled (x) or its direct debits switched (d). The platform
// has no query for one virtual IBAN: it is the list's row, replaced by
// what each change answers.
type vibanScreen struct {
	*itemScreen[api.VirtualIban]
	keys vibanKeys
	ch   *vibanChanges
}

func newVibanScreen(c *common, env *envState, accountID string, v api.VirtualIban) *vibanScreen {
	s := &vibanScreen{itemScreen: newItemScreen(c, env, "", v.ID, "virtual IBAN", nil, &v), keys: newVibanKeys()}
	s.ch = &vibanChanges{c: c, env: env, ctx: s.ctx, accountID: accountID, ask: newAsking()}
	s.syncKeys()
	return s
}

func (s *vibanScreen) title() string {
	v := s.item.item
	return orDash(joinNonEmpty(" · ", iban.Format(v.IBAN), v.Label))
}

func (s *vibanScreen) capturing() bool { return s.ch.ask.waiting() }
func (s *vibanScreen) busy() bool      { return s.ch.id != 0 }
func (s *vibanScreen) syncKeys()       { s.keys.sync(s.env, s.item.item, false) }

func (s *vibanScreen) ShortHelp() []key.Binding {
	if s.ch.ask.waiting() {
		return []key.Binding{s.ch.ask.yes}
	}
	return []key.Binding{s.keys.Copy, s.keys.Cancel, s.keys.SDD}
}

func (s *vibanScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *vibanScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	m, ok := msg.(changedMsg)
	if !ok {
		return nil
	}
	if v, ok := m.item.(*api.VirtualIban); ok && m.err == nil && v.ID == s.id {
		s.item.item = v
	}
	return s.ch.answered(m, where{project: s.env.Project})
}

func (s *vibanScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	return s.ch.handle(msg, &s.keys, s.item.item)
}

func (s *vibanScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	lines := s.lines(s.title(), s.fields, key.Binding{})
	if s.ch.ask.waiting() {
		return fit(strings.Join(lines, "\n"), s.w, s.h-1) + "\n" + s.ch.ask.line(s.c, s.w)
	}
	return fit(strings.Join(lines, "\n"), s.w, s.h)
}

func (s *vibanScreen) fields(v *api.VirtualIban) []field {
	return []field{
		{label: "IBAN", value: iban.Format(v.IBAN), wide: true},
		{label: "BIC", value: orDash(v.BIC)}, {label: "Status", value: orDash(v.Status)},
		{label: "Direct debits", value: sddText(v)},
		{label: "Label", value: orDash(v.Label), wide: true},
		{label: "Bank details", value: orDash(v.BankDetails), wide: true},
		{label: "ID", value: v.ID, wide: true},
	}
}
