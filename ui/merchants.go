package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// merchantProfilesScreen is every merchant profile the token sees, the
// newest first, by status (f); enter opens one with its payment methods
// and payment links.
type merchantProfilesScreen struct {
	*listScreen[api.MerchantProfile]
	filter *cycle
}

func newMerchantProfilesList(c *common, env *envState) *merchantProfilesScreen {
	s := &merchantProfilesScreen{filter: newCycle("f", "status", api.MerchantProfileStatuses())}
	s.listScreen = newListScreen(c, env, listSpec[api.MerchantProfile]{
		title:      "Merchant profiles",
		noun:       "merchant profiles",
		columns:    merchantProfileColumns(),
		id:         func(p *api.MerchantProfile) string { return p.ID },
		fetch:      s.fetch(env),
		reversible: true,
		empty: func() string {
			return s.filter.emptyOr("merchant profiles", "No merchant profiles in "+envTitle(env.Name)+" for this token.")
		},
		open: func(p api.MerchantProfile) tea.Cmd {
			return push(env.Name, newMerchantProfileScreen(c, env, p.ID, &p))
		},
		openDesc: "open merchant profile",
		note:     s.filter.note,
	})
	return s
}

func (s *merchantProfilesScreen) fetch(env *envState) pagedlist.Fetch[api.MerchantProfile] {
	p := api.MerchantProfilesParams{Statuses: s.filter.values(), OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return fetchList(api.ListOf(objects(env).MerchantProfiles, p, env.API.PageSize()))
}

func (s *merchantProfilesScreen) ShortHelp() []key.Binding {
	return append(s.listScreen.ShortHelp(), s.filter.key)
}

func (s *merchantProfilesScreen) FullHelp() [][]key.Binding {
	return append(s.listScreen.FullHelp(), []key.Binding{s.filter.key})
}

func (s *merchantProfilesScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, s.filter.key) {
		return s.listScreen.handleKey(msg)
	}
	s.filter.next()
	return s.query(s.fetch(s.env)), true
}

// methodsSummary counts a profile's payment methods by status: "2
// Enabled · 1 PendingReview".
func methodsSummary(p *api.MerchantProfile) string {
	var order []string
	n := map[string]int{}
	for _, m := range p.PaymentMethods {
		if n[m.Status] == 0 {
			order = append(order, m.Status)
		}
		n[m.Status]++
	}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("%d %s", n[s], s)
	}
	return strings.Join(parts, " · ")
}

func merchantProfileColumns() []pagedlist.Column[api.MerchantProfile] {
	return []pagedlist.Column[api.MerchantProfile]{
		{Title: "Merchant", Width: 14, Flex: true, Cell: func(p *api.MerchantProfile) string { return p.MerchantName }},
		{Title: "Status", Width: 13, Drop: 1, Cell: func(p *api.MerchantProfile) string { return p.Status }},
		{Title: "Payment methods", Width: 16, Flex: true, Drop: 2, Cell: methodsSummary},
		{Title: "Product", Width: 17, Drop: 3, Cell: func(p *api.MerchantProfile) string { return p.ProductType }},
		{Title: "Created", Width: 10, Drop: 4, Cell: func(p *api.MerchantProfile) string { return dayText(p.CreatedAt) }},
	}
}

// merchantProfileScreen is one merchant profile: its status, its payment
// methods and theirs, and its payment links with what was paid (enter
// opens one); a opens its account.
type merchantProfileScreen struct {
	*detailList[api.MerchantProfile, api.PaymentLink]
	account key.Binding
}

func newMerchantProfileScreenByID(c *common, env *envState, id string) *merchantProfileScreen {
	return newMerchantProfileScreen(c, env, id, nil)
}

func newMerchantProfileScreen(c *common, env *envState, id string, p *api.MerchantProfile) *merchantProfileScreen {
	a := objects(env)
	item := newItemScreen(c, env, resourceMerchantProfile, id, "merchant profile", a.MerchantProfile, p)
	links := api.ListOf(a.PaymentLinks, api.PaymentLinksParams{MerchantProfileID: id, OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc},
		env.API.PageSize())
	rows := newListScreen(c, env, listSpec[api.PaymentLink]{
		title:      "Payment links",
		noun:       "payment links",
		columns:    paymentLinkColumns(),
		id:         func(l *api.PaymentLink) string { return l.ID },
		fetch:      fetchList(links),
		reversible: links.Reversible(),
		pageSize:   links.PageSize(),
		empty:      func() string { return "This merchant profile has no payment link." },
		open:       func(l api.PaymentLink) tea.Cmd { return push(env.Name, newPaymentLinkScreen(c, env, l.ID, &l)) },
		openDesc:   "open payment link",
	})
	s := &merchantProfileScreen{account: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "open account"))}
	s.detailList = newDetailList(item, rows, "Payment links", func(p *api.MerchantProfile) string { return p.MerchantName }, s.fields)
	s.below = s.methods
	s.syncKeys()
	return s
}

func (s *merchantProfileScreen) syncKeys() {
	p := s.item.item
	s.account.SetEnabled(p != nil && p.AccountID != "")
}

func (s *merchantProfileScreen) ShortHelp() []key.Binding {
	return append(s.detailList.ShortHelp(), s.account)
}

func (s *merchantProfileScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.rows.list.Bindings(), s.ShortHelp()}
}

func (s *merchantProfileScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	return s.detailList.update(msg)
}

func (s *merchantProfileScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if key.Matches(msg, s.account) {
		return openCmd(s.env.Name, resourceAccount, s.item.item.AccountID), true
	}
	return s.detailList.handleKey(msg)
}

func (s *merchantProfileScreen) fields(p *api.MerchantProfile) []field {
	return []field{
		{label: "Status", value: orDash(p.Status)}, {label: "Product", value: orDash(p.ProductType)},
		{label: "Basket", value: amountText(p.ExpectedAverageBasket)}, {label: "Created", value: formatTime(p.CreatedAt)},
		{label: "Website", value: orDash(p.WebsiteURL), wide: true},
		{label: "Account", value: orDash(p.AccountID) + opensIt(s.c.styles, s.account), wide: true},
		{label: "ID", value: p.ID, wide: true},
	}
}

// methods are the profile's payment methods, one a line with its status.
func (s *merchantProfileScreen) methods(p *api.MerchantProfile) []string {
	st := s.c.styles
	lines := []string{"", st.bold.Render(fmt.Sprintf("Payment methods (%d)", len(p.PaymentMethods)))}
	if len(p.PaymentMethods) == 0 {
		return append(lines, st.dim.Render("None requested yet."))
	}
	for _, m := range p.PaymentMethods {
		mark := st.dim.Render("·")
		switch m.Status {
		case "Enabled":
			mark = st.ok.Render("✓")
		case "Rejected", "Suspended", "Disabled":
			mark = st.err.Render("✗")
		}
		lines = append(lines, trunc(mark+" "+padTo(m.Type, 30)+padTo(m.Status, 22)+st.dim.Render("v"+fmt.Sprint(m.Version)+" · "+dayText(m.UpdatedAt)), s.w))
	}
	return lines
}

// paid says what a payment link's status means for its money: when it
// was paid, until when it can be, when it expired unpaid.
func paid(l *api.PaymentLink) string {
	si := &l.StatusInfo
	switch si.Status {
	case "Completed":
		return "paid " + formatTime(si.CompletedAt)
	case "Active":
		return "payable until " + dayText(si.ExpiresAt)
	case "Expired":
		return "expired unpaid " + dayText(si.ExpiredAt)
	}
	return si.Status
}

func paymentLinkColumns() []pagedlist.Column[api.PaymentLink] {
	return []pagedlist.Column[api.PaymentLink]{
		{Title: "Created", Width: 10, Cell: func(l *api.PaymentLink) string { return dayText(l.CreatedAt) }},
		{Title: "Amount", Width: 14, Right: true, Cell: func(l *api.PaymentLink) string { return amountText(l.Amount) }},
		{Title: " Status", Width: 10, Drop: 1, Cell: func(l *api.PaymentLink) string { return " " + l.StatusInfo.Status }},
		{Title: "Paid", Width: 26, Drop: 2, Cell: paid},
		{Title: "Label", Width: 10, Flex: true, Drop: 3, Cell: func(l *api.PaymentLink) string { return joinNonEmpty(" · ", l.Label, l.Reference) }},
	}
}

type paymentLinkKeys struct {
	Profile key.Binding
	page    pageKeys
}

// paymentLinkScreen is one payment link: its amount and what was paid,
// whom it is for, the methods it offers, and its page (o opens it, c
// copies it); m opens its merchant profile.
type paymentLinkScreen struct {
	*itemScreen[api.PaymentLink]
	keys    paymentLinkKeys
	refresh key.Binding
}

func newPaymentLinkScreenByID(c *common, env *envState, id string) *paymentLinkScreen {
	return newPaymentLinkScreen(c, env, id, nil)
}

func newPaymentLinkScreen(c *common, env *envState, id string, l *api.PaymentLink) *paymentLinkScreen {
	s := &paymentLinkScreen{itemScreen: newItemScreen(c, env, resourcePaymentLink, id, "payment link", objects(env).PaymentLink, l),
		keys: paymentLinkKeys{Profile: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "open merchant profile")),
			page: newPageKeys("payment")},
		refresh: refreshKey()}
	s.syncKeys()
	return s
}

func (s *paymentLinkScreen) title() string {
	if l := s.item.item; l != nil {
		return orDash(joinNonEmpty(" · ", amountText(l.Amount), l.Label))
	}
	return "Payment link"
}

func (s *paymentLinkScreen) syncKeys() {
	l := s.item.item
	address := ""
	if l != nil {
		address = l.URL
	}
	s.keys.page.sync(s.c, address)
	s.keys.Profile.SetEnabled(l != nil && l.MerchantProfile != nil && l.MerchantProfile.ID != "")
}

func (s *paymentLinkScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.keys.page.Open, s.keys.page.Copy, s.keys.Profile, s.refresh}
}

func (s *paymentLinkScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *paymentLinkScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	s.item.apply(msg)
	return nil
}

func (s *paymentLinkScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	l := s.item.item
	if l != nil {
		if cmd, ok := s.keys.page.handle(s.c, s.ctx, msg, l.URL, "payment"); ok {
			return cmd, true
		}
	}
	switch {
	case key.Matches(msg, s.keys.Profile):
		return openCmd(s.env.Name, resourceMerchantProfile, l.MerchantProfile.ID), true
	case key.Matches(msg, s.refresh):
		return s.load(), true
	}
	return nil, false
}

func (s *paymentLinkScreen) view() string {
	return s.itemScreen.view(s.title(), s.fields, s.refresh)
}

func (s *paymentLinkScreen) fields(l *api.PaymentLink) []field {
	st := s.c.styles
	status := l.StatusInfo.Status + " · " + paid(l)
	if l.StatusInfo.Status == "Completed" {
		status = st.ok.Render("✓") + " " + status
	}
	fs := []field{
		{label: "Amount", value: amountText(l.Amount)}, {label: "Sequence", value: orDash(l.Sequence)},
		{label: "Status", value: status, wide: true},
		{label: "Page", value: orDash(l.URL) + opensIt(st, s.keys.page.Open), wide: true},
		{label: "Methods", value: orDash(strings.Join(l.PaymentMethods, ", ")), wide: true},
	}
	if c := l.Customer; c != nil {
		fs = append(fs, field{label: "Customer", value: orDash(joinNonEmpty(" · ", c.Name, c.IBAN, c.ExternalID)), wide: true})
	}
	fs = append(fs, field{label: "Label", value: orDash(l.Label)}, field{label: "Reference", value: orDash(joinNonEmpty(" · ", l.Reference, l.ExternalReference))})
	if p := l.MerchantProfile; p != nil {
		fs = append(fs, field{label: "Merchant", value: orDash(joinNonEmpty(" · ", p.MerchantName, p.ID)) + opensIt(st, s.keys.Profile), wide: true})
	}
	return append(fs, field{label: "Created", value: formatTime(l.CreatedAt)}, field{label: "Execution", value: orDash(optTime(l.RequestedExecutionAt))},
		field{label: "ID", value: l.ID, wide: true})
}
