package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

// upcomingTab is an account's Upcoming tab: what will leave the account
// and when (its upcoming transactions, soonest first, with their count),
// and its standing orders; o shows one list or the other. Both first
// pages come with the account's one request.
func upcomingTab() *accountTab {
	const title = "Upcoming"
	return &accountTab{title: title,
		parts: func(id string) []api.AccountPart {
			return []api.AccountPart{api.ViewUpcoming.Part(upcomingParams(id)), api.ViewStandingOrders.Part(standingOrdersParams(id))}
		},
		open: func(a *accountScreen, id string) tabPane {
			s := newUpcomingScreen(a.c, a.env, id)
			r1, _ := tabList(a, api.ViewUpcoming, s.upcoming, tabPrivate)
			r2, _ := tabList(a, api.ViewStandingOrders, s.orders, 0)
			return tabPane{screen: s, title: title, refreshShown: func() tea.Cmd { return tea.Batch(r1(), r2()) },
				simulated: func(started bool) tea.Cmd {
					if started {
						return s.upcoming.list.Refresh()
					}
					return nil
				}}
		}}
}

// upcomingParams is how the upcoming transactions read: the soonest
// first.
func upcomingParams(accountID string) api.TransactionsParams {
	return api.TransactionsParams{AccountID: accountID, Status: []string{"Upcoming"}, OrderBy: api.TxOrderExecutionDate, Direction: api.DirectionAsc}
}

// standingOrdersParams is how the standing orders read: the newest first.
func standingOrdersParams(accountID string) api.StandingOrdersParams {
	return api.StandingOrdersParams{AccountID: accountID, OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
}

type upcomingKeys struct {
	Switch key.Binding
}

// upcomingScreen shows an account's upcoming transactions or its standing
// orders (o switches); in Sandbox x cancels the standing order under the
// cursor after a confirmation.
type upcomingScreen struct {
	c         *common
	env       *envState
	accountID string
	upcoming  *listScreen[api.TransactionDetail]
	orders    *listScreen[api.StandingOrder]
	showOrder bool
	keys      upcomingKeys
	cancel    *orderCancel
	w, h      int
}

func newUpcomingScreen(c *common, env *envState, accountID string) *upcomingScreen {
	s := &upcomingScreen{c: c, env: env, accountID: accountID, cancel: newOrderCancel(c, env),
		keys: upcomingKeys{Switch: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "standing orders"))}}
	up := api.ListOf(env.API.TransactionList, upcomingParams(accountID), env.API.PageSize())
	orders := api.ListOf(objects(env).StandingOrders, standingOrdersParams(accountID), env.API.PageSize())
	s.upcoming = newListScreen(c, env, listSpec[api.TransactionDetail]{
		title:      "Upcoming",
		noun:       "upcoming transactions",
		columns:    txColumns(false),
		id:         func(t *api.TransactionDetail) string { return t.ID },
		fetch:      fetchList(up),
		reversible: up.Reversible(),
		pageSize:   up.PageSize(),
		empty:      func() string { return "Nothing is due to leave this account: it has no upcoming transaction." },
		open:       func(t api.TransactionDetail) tea.Cmd { return push(env.Name, newTxDetail(c, env, t)) },
		openDesc:   "open transaction",
		note:       s.nextNote,
	})
	s.orders = newListScreen(c, env, listSpec[api.StandingOrder]{
		title:      "Standing orders",
		noun:       "standing orders",
		columns:    standingOrderColumns(),
		id:         func(o *api.StandingOrder) string { return o.ID },
		fetch:      fetchList(orders),
		reversible: orders.Reversible(),
		pageSize:   orders.PageSize(),
		empty:      func() string { return "This account has no standing order." },
		open: func(o api.StandingOrder) tea.Cmd {
			return push(env.Name, newStandingOrderScreen(c, env, o.ID, &o))
		},
		openDesc: "open standing order",
	})
	s.cancel.ctx = s.orders.ctx
	s.syncKeys()
	return s
}

// nextNote says when the soonest upcoming transaction leaves.
func (s *upcomingScreen) nextNote() string {
	if s.upcoming == nil || s.upcoming.list.Len() == 0 {
		return ""
	}
	if t, ok := s.upcoming.list.Selected(); ok && s.upcoming.list.Cursor() == 0 {
		return "next " + dayText(t.ExecutionDate) + " " + signedAmount(t.Side, t.Amount)
	}
	return ""
}

// active is the list shown.
func (s *upcomingScreen) active() screen {
	if s.showOrder {
		return s.orders
	}
	return s.upcoming
}

func (s *upcomingScreen) title() string   { return "Upcoming" }
func (s *upcomingScreen) capturing() bool { return s.cancel.ask.waiting() }
func (s *upcomingScreen) busy() bool      { return s.active().busy() || s.cancel.id != 0 }
func (s *upcomingScreen) close()          { s.upcoming.close(); s.orders.close() }

// init reads both lists' first pages: both come with the account's one
// request, and the bar counts both.
func (s *upcomingScreen) init() tea.Cmd { return tea.Batch(s.upcoming.init(), s.orders.init()) }

func (s *upcomingScreen) setSize(w, h int) {
	s.w, s.h = w, h
	s.upcoming.setSize(w, max(h-1, 0))
	s.orders.setSize(w, max(h-1, 0))
}

func (s *upcomingScreen) selectedOrder() *api.StandingOrder {
	if !s.showOrder {
		return nil
	}
	if o, ok := s.orders.list.Selected(); ok {
		return &o
	}
	return nil
}

func (s *upcomingScreen) syncKeys() {
	if s.showOrder {
		s.keys.Switch.SetHelp("o", "upcoming transactions")
	} else {
		s.keys.Switch.SetHelp("o", "standing orders")
	}
	s.cancel.sync(s.selectedOrder())
}

func (s *upcomingScreen) ShortHelp() []key.Binding {
	if s.cancel.ask.waiting() {
		return []key.Binding{s.cancel.ask.yes}
	}
	return append(s.active().ShortHelp(), s.keys.Switch, s.cancel.key)
}

func (s *upcomingScreen) FullHelp() [][]key.Binding {
	return append(s.active().FullHelp(), []key.Binding{s.keys.Switch, s.cancel.key})
}

func (s *upcomingScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	if m, ok := msg.(changedMsg); ok {
		var cmds []tea.Cmd
		if _, order := m.item.(*api.StandingOrder); order && m.accountID == s.accountID && m.err == nil {
			// A canceled order makes none of its transfers.
			cmds = append(cmds, s.orders.list.Refresh(), s.upcoming.list.Refresh())
		}
		return tea.Batch(append(cmds, s.cancel.answered(m, s.orders.where()))...)
	}
	return tea.Batch(s.upcoming.update(msg), s.orders.update(msg))
}

func (s *upcomingScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	s.syncKeys()
	defer s.syncKeys()
	if cmd, ok := s.cancel.handle(msg, s.selectedOrder()); ok {
		return cmd, true
	}
	if key.Matches(msg, s.keys.Switch) {
		s.showOrder = !s.showOrder
		return nil, true
	}
	return s.active().handleKey(msg)
}

// view is the bar that names both lists with their counts, then the list
// shown (the cancel's question on its status line while it waits).
func (s *upcomingScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	st := s.c.styles
	names := []string{"Upcoming transactions" + countOf(s.upcoming.list), "Standing orders" + countOf(s.orders.list)}
	on := 0
	if s.showOrder {
		on = 1
	}
	names[on] = st.selected.Render(" " + names[on] + " ")
	names[1-on] = " " + names[1-on] + " "
	bar := trunc(strings.Join(names, st.dim.Render("·"))+st.dim.Render("  "+s.keys.Switch.Help().Key+" to switch"), s.w)
	if s.h == 1 {
		return bar
	}
	body := s.active().view()
	if s.cancel.ask.waiting() {
		lines := strings.Split(body, "\n")
		lines[len(lines)-1] = s.cancel.ask.line(s.c, s.w)
		body = strings.Join(lines, "\n")
	}
	return bar + "\n" + body
}

// countOf is " (n)" once a list knows its length.
func countOf(l interface {
	Ready() bool
	Len() int
}) string {
	if !l.Ready() {
		return ""
	}
	return " (" + strconv.Itoa(l.Len()) + ")"
}
