package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

// views is the one table of what the app shows, one row per kind of
// thing (as k9s's registrar keeps its viewers): how the : palette names
// its list and one of it by ID and what they open, the event types whose
// resource is one, and, for what an account lists in a tab, the tab and
// its part of the account's one request. The palette, opening by id (a
// link, an event's resource, a trip to the other environment and back),
// an account's tabs, their number keys and the help all range over it,
// in its order; a new view is its screen file and its row here.
func views() []view {
	return []view{
		{kind: resourceAccount, event: "Account", types: []string{"Account"},
			list: &listView{"accounts", "the account list", func(m *Model) tea.Cmd { m.popTo(1); return nil }},
			one:  &oneView{"account", "one account", byID(newAccountScreenByID)}},
		{kind: resourceTransaction, event: "Transaction", types: []string{"Transaction"},
			list: across("transactions", "transactions across accounts", func(c *common, e *envState) screen { return newTxListScreen(c, e, "") }),
			one:  &oneView{"transaction", "one transaction", byID(newTxDetailByID)},
			tab:  listTab("Transactions", api.ViewTransactions, txParams, newTxListScreen, tabPrivate|tabSimulated)},
		{kind: resourceMembership, event: "AccountMembership", types: []string{"AccountMembership"},
			list: across("members", "every membership", func(c *common, e *envState) screen { return newMembersList(c, e, "") }),
			one:  &oneView{"member", "one membership", byID(newMemberScreenByID)},
			tab:  listTab("Members", api.ViewMembers, membersParams, newMembersList, 0)},
		{kind: resourceCard, event: "Card", types: []string{"Card"},
			list: across("cards", "every card", func(c *common, e *envState) screen { return newCardsList(c, e, api.CardsParams{}) }),
			one:  &oneView{"card", "one card", byID(newCardScreenByID)},
			tab:  listTab("Cards", api.ViewCards, accountCardsParams, newAccountCardsList, 0)},
		// The platform has no query for one statement: nothing opens one
		// by ID.
		{tab: listTab("Statements", api.ViewStatements, statementsParams, newStatementsList, tabPrivate)},
		{list: &listView{"events", "the webhook event log (of the account on screen)", func(m *Model) tea.Cmd { return m.openEvents(true) }}},
		{list: &listView{"insights", "the project's transactions by day, product and status; its most active accounts (project token)", func(m *Model) tea.Cmd { return m.openInsights() }}},
		// The view of anything: every root query of the schema, generically
		// (anything.go); an id links to the rich view of its type above.
		{anything: &anyView{"query", "NAME", "any root query of the schema: a table, or an object with all its fields"}},
	}
}

// view is one row of the table of views.
type view struct {
	// kind is what the view shows one of; "" for a view of no one kind
	// (the event log).
	kind resourceKind
	// event is the prefix of the event types whose resource is one
	// ("Card" for Card.Created); "" when no event names one.
	event string
	// types are the GraphQL types whose objects the view's screen of one
	// by ID shows (an interface: every type that implements it): an id
	// that names one in the view of anything opens it there.
	types    []string
	list     *listView   // the : palette's list of them; nil when it has none
	one      *oneView    // one of them by ID; nil when nothing reads one by ID
	tab      *accountTab // the account tab that lists an account's; nil when none does
	anything *anyView    // the view of anything; nil for every other view
}

// anyView is the view of anything as the : palette names it: its name,
// then what follows it.
type anyView struct {
	name, arg, desc string
}

// resourceKind is a kind of platform resource a screen can show by id:
// what an openMsg asks for, named as the user reads it ("membership").
type resourceKind string

// The kinds other screens link to.
const (
	resourceAccount     resourceKind = "account"
	resourceTransaction resourceKind = "transaction"
	resourceMembership  resourceKind = "membership"
	resourceCard        resourceKind = "card"
)

// noun names the kind in a key's help ("open membership").
func (k resourceKind) noun() string {
	if k == "" {
		return "resource"
	}
	return string(k)
}

// listView is a list the : palette opens by its name.
type listView struct {
	name, desc string
	open       func(m *Model) tea.Cmd
}

// across is a list above the account list, in place of whatever was
// there.
func across(name, desc string, newScreen func(*common, *envState) screen) *listView {
	return &listView{name, desc, func(m *Model) tea.Cmd {
		m.popTo(1)
		return m.push(newScreen(m.c, m.env))
	}}
}

// oneView is how one of a kind is opened by its ID: from the : palette
// ("card ID"), and by every other way in.
type oneView struct {
	name, desc string
	open       func(c *common, env *envState, id string) screen
}

// byID is a screen's constructor by id as the table holds it.
func byID[S screen](newScreen func(*common, *envState, string) S) func(*common, *envState, string) screen {
	return func(c *common, env *envState, id string) screen { return newScreen(c, env, id) }
}

// viewOf is the row of kind; nil for none.
func (c *common) viewOf(kind resourceKind) *view {
	for i := range c.views {
		if v := &c.views[i]; v.kind == kind && kind != "" {
			return v
		}
	}
	return nil
}

// resourceOf is the kind of resource an event names, from its type's
// prefix (Account.Updated, Transaction.Booked, AccountMembership.Bound,
// Card.Created); "" for the types whose resource the UI does not open.
func (c *common) resourceOf(eventType string) resourceKind {
	prefix, _, _ := strings.Cut(eventType, ".")
	for _, v := range c.views {
		if v.event == prefix && v.event != "" && v.one != nil {
			return v.kind
		}
	}
	return ""
}

// jumpTargets are the palette's destinations: every view's list by name,
// then one of every kind by ID, in the table's order.
func jumpTargets(vs []view) []jumpTarget {
	var out []jumpTarget
	for _, v := range vs {
		if l := v.list; l != nil {
			out = append(out, jumpTarget{name: l.name, desc: l.desc, open: func(m *Model, _ string) tea.Cmd { return l.open(m) }})
		}
	}
	for _, v := range vs {
		if o := v.one; o != nil {
			out = append(out, jumpTarget{name: o.name, arg: "ID", desc: o.desc, lookup: o.open})
		}
	}
	for _, v := range vs {
		if a := v.anything; a != nil {
			out = append(out, queryTarget(a))
		}
	}
	return out
}

// paletteHint is the palette's placeholder: the kinds' lists, and one by
// ID ("accounts, transactions, members, cards, or account ID…").
func paletteHint(vs []view) string {
	var names []string
	first := ""
	for _, v := range vs {
		if v.list != nil && v.one != nil {
			names = append(names, v.list.name)
			if first == "" {
				first = v.one.name
			}
		}
	}
	return strings.Join(names, ", ") + ", or " + first + " ID…"
}

// accountTabs are the tabs of an account after its Overview, in the
// table's order.
func accountTabs(vs []view) []*accountTab {
	var out []*accountTab
	for _, v := range vs {
		if v.tab != nil {
			out = append(out, v.tab)
		}
	}
	return out
}

// tabKeys are the number keys of n tabs, "1" to "9" at most, and their
// help ("1-5").
func tabKeys(n int) ([]string, string) {
	n = min(n, 9)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = strconv.Itoa(i + 1)
	}
	return keys, "1-" + strconv.Itoa(n)
}

// accountTab is what makes a view an account tab: its title, its screen
// for one account, and its part of the account's one request.
type accountTab struct {
	title string
	// parts are what the tab adds to the account's one request: the first
	// page of each of its lists.
	parts func(accountID string) []api.AccountPart
	// open is the tab's screen on account s, whose opening brings the
	// first page of each of its lists (firstPage).
	open func(s *accountScreen, accountID string) tabPane
}

// tabTrait is what sets a tab apart.
type tabTrait uint8

const (
	// tabPrivate: the platform shows the list only to a member with
	// canViewAccount; an empty tab says so.
	tabPrivate tabTrait = 1 << iota
	// tabSimulated: a simulation on the account changes the list, which
	// is read again after one.
	tabSimulated
)

// pagedScreen is a screen over a paged list of T: every list screen
// (listScreen and the screens that embed it).
type pagedScreen[T any] interface {
	screen
	paged() *listScreen[T]
}

// listTab is a tab that lists the account's T, with the screen newScreen
// makes for an account, reading list with the parameters params gives for
// it (the ones the screen reads its first page with): its first page is
// the opening's.
func listTab[P, T any, S pagedScreen[T]](title string, list api.AccountList[P, T], params func(accountID string) P,
	newScreen func(*common, *envState, string) S, traits tabTrait) *accountTab {
	return &accountTab{title: title,
		parts: func(id string) []api.AccountPart { return []api.AccountPart{list.Part(params(id))} },
		open: func(a *accountScreen, id string) tabPane {
			s := newScreen(a.c, a.env, id)
			l := s.paged()
			own := l.spec.fetch
			l.spec.fetch = firstPage(a.opening, list, own)
			if traits&tabPrivate != 0 {
				empty := l.spec.empty
				l.spec.empty = func() string { return a.hidden(l.spec.noun, empty) }
			}
			t := tabPane{screen: s, title: title, refreshShown: func() tea.Cmd {
				if a.opening.behind(list.Name()) {
					return l.list.Refresh()
				}
				return nil
			}}
			if traits&tabSimulated != 0 {
				t.simulated = func(started bool) tea.Cmd {
					if started {
						return l.list.Refresh()
					}
					// The opening's page is from before the simulation.
					l.spec.fetch = own
					return nil
				}
			}
			return t
		}}
}

// tabPane is one tab of an account screen.
type tabPane struct {
	screen
	title   string
	started bool
	// refreshShown reads the tab's lists again when the opening has a
	// view newer than the one they show; nil for the Overview.
	refreshShown func() tea.Cmd
	// simulated follows a simulation on the account (started: the tab
	// was shown); nil for a tab it does not change.
	simulated func(started bool) tea.Cmd
}
