package ui

import (
	"context"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// cardsScreen is a list of cards: one membership's (shown on the member's
// screen), one account's, or every card the token sees. The last two
// filter by status with f (the platform's filters.statuses).
type cardsScreen struct {
	*listScreen[api.Card]
	get       func(context.Context, api.CardsParams) (*api.Page[api.Card], error)
	base      api.CardsParams
	size      int // the client's page size
	filterKey key.Binding
	status    string // "" or one of api.CardStatuses()
}

// newCardsList lists cards: one membership's (p.MembershipID), one
// account's (p.AccountID), or every card the token sees.
func newCardsList(c *common, env *envState, p api.CardsParams) *cardsScreen {
	s := &cardsScreen{get: env.API.Cards, base: cardsParams(p), size: env.API.PageSize(), filterKey: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "status: any"))}
	title, empty := "Cards", "No cards on this account."
	if p.MembershipID == "" && p.AccountID == "" {
		title, empty = "All cards", "No cards in "+envTitle(env.Name)+" for this token."
	}
	s.listScreen = newListScreen(c, env, listSpec[api.Card]{
		title:      title,
		noun:       "cards",
		columns:    cardColumns(p.MembershipID == ""),
		id:         func(c *api.Card) string { return c.ID },
		fetch:      s.fetch(),
		reversible: true,
		empty: func() string {
			if s.status != "" {
				return "No " + s.status + " cards here: press " + s.filterKey.Help().Key + " for the next status."
			}
			return empty
		},
		open: func(card api.Card) tea.Cmd {
			return push(env.Name, newCardScreen(c, env, card.ID, &card))
		},
		openDesc: "open card",
		note: func() string {
			if s.status == "" {
				return ""
			}
			return "status " + s.status
		},
	})
	// A member's few cards are shown under the member, whose screen has
	// keys of its own.
	s.filterKey.SetEnabled(p.MembershipID == "")
	return s
}

// reopen is every card's list again, with its status filter.
func (s *cardsScreen) reopen(c *common, env *envState) screen {
	if s.base.MembershipID != "" || s.base.AccountID != "" {
		return nil
	}
	n := newCardsList(c, env, api.CardsParams{})
	n.setStatus(s.status)
	n.spec.fetch = n.fetch()
	return n
}

// setStatus makes status the card status listed ("" for any), as its
// key's help says.
func (s *cardsScreen) setStatus(status string) {
	s.status = status
	desc := "status: any"
	if s.status != "" {
		desc = "status: " + strings.ToLower(s.status)
	}
	s.filterKey.SetHelp(s.filterKey.Help().Key, desc)
}

// fetch reads the cards with the status filter.
func (s *cardsScreen) fetch() pagedlist.Fetch[api.Card] {
	p := s.base
	if s.status != "" {
		p.Statuses = []string{s.status}
	}
	return fetchList(api.ListOf(s.get, p, s.size))
}

func (s *cardsScreen) ShortHelp() []key.Binding {
	return append(s.listScreen.ShortHelp(), s.filterKey)
}

func (s *cardsScreen) FullHelp() [][]key.Binding {
	return append(s.listScreen.FullHelp(), []key.Binding{s.filterKey})
}

func (s *cardsScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, s.filterKey) {
		return s.listScreen.handleKey(msg)
	}
	s.setStatus(nextOf(api.CardStatuses(), s.status))
	return s.query(s.fetch()), true
}

// nextOf is the choice after cur in choices, "" (any) after the last.
func nextOf(choices []string, cur string) string {
	i := slices.Index(choices, cur)
	if i+1 < len(choices) {
		return choices[i+1]
	}
	return ""
}

// newAccountCardsList lists one account's cards.
func newAccountCardsList(c *common, env *envState, accountID string) *cardsScreen {
	return newCardsList(c, env, api.CardsParams{AccountID: accountID})
}

// accountCardsParams is how one account's card list reads.
func accountCardsParams(accountID string) api.CardsParams {
	return cardsParams(api.CardsParams{AccountID: accountID})
}

// cardsParams is how a card list reads p: newest first.
func cardsParams(p api.CardsParams) api.CardsParams {
	p.OrderBy, p.Direction = api.OrderCreatedAt, api.DirectionDesc
	return p
}

// cardColumns: the number and status matter most; unless the list is one
// member's, whose card it is.
func cardColumns(holder bool) []pagedlist.Column[api.Card] {
	cols := []pagedlist.Column[api.Card]{
		{Title: "Card", Width: 19, Cell: func(c *api.Card) string { return c.CardMaskedNumber }},
		{Title: "Status", Width: 14, Drop: 1, Cell: func(c *api.Card) string { return c.StatusInfo.Status }},
		{Title: "Name", Width: 10, Flex: true, Drop: 2, Cell: func(c *api.Card) string { return c.Name }},
		{Title: "Expiry", Width: 6, Drop: 3, Cell: func(c *api.Card) string { return c.ExpiryDate }},
		{Title: "Type", Width: 18, Drop: 5, Cell: func(c *api.Card) string { return c.Type }},
	}
	if holder {
		cols = append(cols, pagedlist.Column[api.Card]{Title: "Holder", Width: 12, Flex: true, Drop: 4, Cell: cardHolder})
	}
	return cols
}

// cardHolder is whose card it is: the member's name, else their email.
func cardHolder(c *api.Card) string {
	m := c.AccountMembership
	if m == nil {
		return ""
	}
	if n := userName(m.User); n != "" {
		return n
	}
	return m.Email
}

type cardKeys struct {
	Member, Account, Refresh key.Binding
}

// cardScreen is one card: its status and why, options, spending limits,
// and whose it is (m opens the membership, a the account); in Sandbox its
// payments simulated (s: authorize, debit, release, reverse) and followed.
type cardScreen struct {
	*itemScreen[api.Card]
	keys cardKeys
	sim  *simulating
	// spend is the card's spending against its limits (cardspending.go).
	spend loader[api.CardSpending]
}

func newCardScreenByID(c *common, env *envState, id string) *cardScreen {
	return newCardScreen(c, env, id, nil)
}

func newCardScreen(c *common, env *envState, id string, card *api.Card) *cardScreen {
	s := &cardScreen{
		itemScreen: newItemScreen(c, env, resourceCard, id, "card", env.API.Card, card),
		keys: cardKeys{
			Member:  key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "open member")),
			Account: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "open account")),
			Refresh: refreshKey(),
		},
	}
	s.sim = newSimulating(c, env, s.ctx, "simulate a payment", "simulate a payment", s.simulations, func() simTouchedMsg {
		m := simTouchedMsg{cardID: s.id}
		if c := s.item.item; c != nil && c.AccountMembership != nil {
			m.accountID = c.AccountMembership.AccountID
		}
		return m
	})
	s.syncKeys()
	return s
}

// simulations are the card's, on an environment that has them.
func (s *cardScreen) simulations() []simAction {
	sim := s.env.simulator()
	if sim == nil {
		return nil
	}
	return cardSims(sim, s.id, s.sim.follow)
}

func (s *cardScreen) capturing() bool { return s.sim.capturing() }
func (s *cardScreen) busy() bool      { return s.item.busy() || s.sim.panel.busy() || s.spend.busy() }

// init reads the card, unless the list gave it, and its spending.
func (s *cardScreen) init() tea.Cmd { return tea.Batch(s.itemScreen.init(), s.loadSpending()) }

func (s *cardScreen) loadSpending() tea.Cmd {
	get, id := objects(s.env).CardSpending, s.id
	return s.spend.load(s.c, s.ctx, s.env.Name, func(ctx context.Context) (*api.CardSpending, error) { return get(ctx, id) })
}

func (s *cardScreen) title() string {
	if c := s.item.item; c != nil {
		return orDash(joinNonEmpty(" ", c.CardMaskedNumber, c.Name))
	}
	return "Card"
}

func (s *cardScreen) syncKeys() {
	var m *api.CardMembership
	if c := s.item.item; c != nil {
		m = c.AccountMembership
	}
	s.keys.Member.SetEnabled(m != nil && m.ID != "")
	s.keys.Account.SetEnabled(m != nil && m.AccountID != "")
	s.sim.syncKeys()
}

func (s *cardScreen) ShortHelp() []key.Binding {
	if s.capturing() {
		return s.sim.help()
	}
	return append(append([]key.Binding{s.keys.Member, s.keys.Account}, s.sim.help()...), s.keys.Refresh)
}

func (s *cardScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *cardScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	if s.item.apply(msg) || s.spend.apply(msg) {
		return nil
	}
	cmd, _ := s.sim.update(msg)
	return cmd
}

func (s *cardScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	if cmd, ok := s.sim.handleKey(msg); ok {
		return cmd, true
	}
	switch {
	case key.Matches(msg, s.keys.Member):
		return openCmd(s.env.Name, resourceMembership, s.item.item.AccountMembership.ID), true
	case key.Matches(msg, s.keys.Account):
		return openCmd(s.env.Name, resourceAccount, s.item.item.AccountMembership.AccountID), true
	case key.Matches(msg, s.keys.Refresh):
		return tea.Batch(s.load(), s.loadSpending()), true
	}
	return nil, false
}

func (s *cardScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	lines := s.lines(s.title(), s.fields, s.keys.Refresh)
	if s.item.item != nil {
		lines = append(lines, s.spendingSection()...)
	}
	return s.sim.view(strings.Join(lines, "\n"), s.w, s.h)
}

// spendingSection is the card's spending against its limits, or what
// keeps it away.
func (s *cardScreen) spendingSection() []string {
	st := s.c.styles
	lines := []string{"", st.bold.Render("Spending")}
	switch sp := s.spend.item; {
	case sp != nil:
		lines = append(lines, spendingLines(st, s.w, sp)...)
	case s.spend.err != nil:
		lines = append(lines, wrap(st.err.Render("✗ Could not read the card's spending. ")+explain(s.spend.err, where{retry: s.keys.Refresh, project: s.env.Project}), s.w))
	case s.spend.busy():
		lines = append(lines, s.c.spinFrame+" Reading the card's spending…")
	}
	return lines
}

func (s *cardScreen) fields(c *api.Card) []field {
	st := s.c.styles
	si := &c.StatusInfo
	holder, acct := "—", "—"
	if m := c.AccountMembership; m != nil {
		holder = joinNonEmpty(" · ", cardHolder(c), m.ID) + opensIt(st, s.keys.Member)
		acct = orDash(m.AccountID) + opensIt(st, s.keys.Account)
	}
	fs := []field{
		{label: "Status", value: joinNonEmpty(" · ", si.Status, si.Reason)}, {label: "Type", value: orDash(c.Type)},
		{label: "Name", value: orDash(c.Name)}, {label: "Expires", value: orDash(c.ExpiryDate)},
		{label: "Options", value: checks(st, []string{"withdrawal", "international", "e-commerce"}, []bool{c.Withdrawal, c.International, c.ECommerce}), wide: true},
		{label: "Limits", value: spendingLimits(c.SpendingLimits), wide: true},
		{label: "Holder", value: holder, wide: true},
		{label: "Account", value: acct, wide: true},
		{label: "Created", value: formatTime(c.CreatedAt)}, {label: "Updated", value: formatTime(c.UpdatedAt)},
	}
	if cs := si.Consent; cs != nil {
		fs = append(fs, field{label: "Consent", value: joinNonEmpty(" · ", cs.Status, cs.ConsentURL), wide: true})
	}
	return append(fs, field{label: "ID", value: c.ID, wide: true})
}

// spendingLimits reads "2000.00 EUR Monthly (Partner)" for each limit.
func spendingLimits(ls []api.SpendingLimit) string {
	if len(ls) == 0 {
		return "none"
	}
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = amountText(l.Amount) + " " + l.Period + " (" + l.Type + ")"
	}
	return strings.Join(parts, " · ")
}
