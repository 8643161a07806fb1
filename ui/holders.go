package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// holdersScreen is every account holder the token sees, the newest
// first: who, the verification's status and why, the holder's status; f
// goes through the verification statuses, enter opens one with its
// accounts.
type holdersScreen struct {
	*listScreen[api.AccountHolder]
	filter *cycle
}

func newHoldersList(c *common, env *envState) *holdersScreen {
	s := &holdersScreen{filter: newCycle("f", "verification", api.VerificationStatuses())}
	s.listScreen = newListScreen(c, env, listSpec[api.AccountHolder]{
		title:      "Account holders",
		noun:       "account holders",
		columns:    holderColumns(),
		id:         func(h *api.AccountHolder) string { return h.ID },
		fetch:      s.fetch(env),
		reversible: true,
		empty: func() string {
			return s.filter.emptyOr("account holders", "No account holders in "+envTitle(env.Name)+" for this token.")
		},
		open: func(h api.AccountHolder) tea.Cmd {
			return push(env.Name, newHolderScreen(c, env, h.ID, &h))
		},
		openDesc: "open holder",
		note:     s.filter.note,
	})
	return s
}

func (s *holdersScreen) fetch(env *envState) pagedlist.Fetch[api.AccountHolder] {
	p := api.AccountHoldersParams{VerificationStatuses: s.filter.values(), OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return fetchList(api.ListOf(objects(env).AccountHolders, p, env.API.PageSize()))
}

func (s *holdersScreen) ShortHelp() []key.Binding {
	return append(s.listScreen.ShortHelp(), s.filter.key)
}

func (s *holdersScreen) FullHelp() [][]key.Binding {
	return append(s.listScreen.FullHelp(), []key.Binding{s.filter.key})
}

func (s *holdersScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, s.filter.key) {
		return s.listScreen.handleKey(msg)
	}
	s.filter.next()
	return s.query(s.fetch(s.env)), true
}

// verificationWhy is what a holder still has to provide, or why it was
// refused.
func verificationWhy(v *api.VerificationStatusInfo) string {
	if len(v.Requirements) > 0 {
		return strings.Join(v.Requirements, ", ")
	}
	return v.Reason
}

func holderColumns() []pagedlist.Column[api.AccountHolder] {
	return []pagedlist.Column[api.AccountHolder]{
		{Title: "Holder", Width: 14, Flex: true, Cell: func(h *api.AccountHolder) string { return h.Info.Name }},
		{Title: "Type", Width: 10, Drop: 3, Cell: func(h *api.AccountHolder) string { return h.Info.Type }},
		{Title: "Verification", Width: 21, Drop: 1, Cell: func(h *api.AccountHolder) string { return h.VerificationStatusInfo.Status }},
		{Title: "Why", Width: 14, Flex: true, Drop: 2, Cell: func(h *api.AccountHolder) string { return verificationWhy(&h.VerificationStatusInfo) }},
		{Title: "Status", Width: 9, Drop: 4, Cell: func(h *api.AccountHolder) string {
			if s := h.StatusInfo; s != nil {
				return s.Status
			}
			return ""
		}},
		{Title: "Created", Width: 10, Drop: 5, Cell: func(h *api.AccountHolder) string { return dayText(h.CreatedAt) }},
	}
}

// holderScreen is one account holder: an individual or a company, its
// verification (since when, and what is missing or why it was refused),
// its status, and its accounts (enter opens one).
type holderScreen struct {
	*detailList[api.AccountHolder, api.Account]
}

func newHolderScreenByID(c *common, env *envState, id string) *holderScreen {
	return newHolderScreen(c, env, id, nil)
}

func newHolderScreen(c *common, env *envState, id string, h *api.AccountHolder) *holderScreen {
	a := objects(env)
	item := newItemScreen(c, env, resourceHolder, id, "account holder", a.AccountHolder, h)
	rows := newListScreen(c, env, listSpec[api.Account]{
		title:    "Accounts",
		noun:     "accounts",
		columns:  accountColumns(),
		id:       func(a *api.Account) string { return a.ID },
		fetch:    nestedPages(a.AccountHolderAccounts, id, env.API.PageSize()),
		empty:    func() string { return "This holder has no account the token can see." },
		open:     func(acct api.Account) tea.Cmd { return openCmd(env.Name, resourceAccount, acct.ID) },
		openDesc: "open account",
	})
	s := &holderScreen{}
	s.detailList = newDetailList(item, rows, "Accounts", func(h *api.AccountHolder) string { return h.Info.Name }, s.fields)
	return s
}

func (s *holderScreen) fields(h *api.AccountHolder) []field {
	st := s.c.styles
	v := &h.VerificationStatusInfo
	verification := v.Status
	if !v.At.IsZero() {
		verification += " since " + formatTime(v.At)
	}
	fs := []field{
		{label: "Type", value: orDash(h.Info.Type)}, {label: "Created", value: formatTime(h.CreatedAt)},
		{label: "Verified", value: orDash(verification), wide: true},
	}
	switch {
	case len(v.Requirements) > 0:
		fs = append(fs, field{label: "Missing", value: st.warn.Render(strings.Join(v.Requirements, ", ")), wide: true})
	case v.Reason != "":
		fs = append(fs, field{label: "Refused", value: st.warn.Render(v.Reason), wide: true})
	}
	if si := h.StatusInfo; si != nil {
		fs = append(fs, field{label: "Status", value: joinNonEmpty(" · ", si.Status, si.Reason), wide: true})
	}
	if i := &h.Info; i.RegistrationNumber != "" || i.VatNumber != "" || i.TradeName != "" {
		fs = append(fs, field{label: "Company", value: joinNonEmpty(" · ", i.TradeName, i.RegistrationNumber, i.VatNumber), wide: true})
	}
	if a := h.ResidencyAddress; a != nil {
		fs = append(fs, field{label: "Address", value: orDash(addressText(a)), wide: true})
	}
	return append(fs, field{label: "ID", value: h.ID, wide: true})
}
