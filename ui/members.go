package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// membersScreen is a list of memberships with the legend of its rights
// grid under the rows: the letters alone say nothing to a newcomer.
type membersScreen struct {
	*listScreen[api.AccountMembership]
	legend bool // the screen has a line for it
	across bool // every membership the token sees, not one account's
}

// rightsLegend is what the letters of the rights grid stand for.
func rightsLegend() string {
	letters := strings.Fields(rightLetters)
	parts := make([]string, len(letters))
	for i, l := range letters {
		parts[i] = l + " " + rightNames[i]
	}
	return strings.Join(parts, " · ")
}

func (s *membersScreen) setSize(w, h int) {
	s.legend = h >= 2
	if s.legend {
		h--
	}
	s.listScreen.setSize(w, h)
}

func (s *membersScreen) view() string {
	v := s.listScreen.view()
	if !s.legend {
		return v
	}
	return v + "\n" + trunc(s.c.styles.dim.Render(rightsLegend()), s.w)
}

// newMembersList lists one account's members, or every membership the
// token sees (accountID ""): who, their email, status and rights at a
// glance.
// reopen is every membership's list again (an account's members live in
// its account's screen).
func (s *membersScreen) reopen(c *common, env *envState) screen {
	if !s.across {
		return nil
	}
	return newMembersList(c, env, "")
}

func newMembersList(c *common, env *envState, accountID string) *membersScreen {
	list := api.ListOf(env.API.AccountMemberships, membersParams(accountID), env.API.PageSize())
	title, empty := "Members", "No members on this account."
	if accountID == "" {
		title, empty = "All members", "No memberships in "+envTitle(env.Name)+" for this token."
	}
	return &membersScreen{across: accountID == "", listScreen: newListScreen(c, env, listSpec[api.AccountMembership]{
		title:      title,
		noun:       "members",
		columns:    memberColumns(accountID == ""),
		id:         func(m *api.AccountMembership) string { return m.ID },
		fetch:      fetchList(list),
		reversible: list.Reversible(),
		pageSize:   list.PageSize(),
		empty:      func() string { return empty },
		open: func(m api.AccountMembership) tea.Cmd {
			return push(env.Name, newMemberScreen(c, env, m.ID, &m))
		},
		openDesc: "open member",
	})}
}

// membersParams is how a member list reads: newest first.
func membersParams(accountID string) api.MembershipsParams {
	return api.MembershipsParams{AccountID: accountID, OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
}

// memberColumns: who and the rights grid matter most; across accounts,
// which account.
func memberColumns(across bool) []pagedlist.Column[api.AccountMembership] {
	cols := []pagedlist.Column[api.AccountMembership]{
		{Title: "Member", Width: 12, Flex: true, Cell: func(m *api.AccountMembership) string { return orDash(memberName(m)) }},
		{Title: rightLetters, Width: len(rightLetters), Drop: 1, Cell: rightsGrid},
		{Title: "Status", Width: 16, Drop: 2, Cell: func(m *api.AccountMembership) string { return m.StatusInfo.Status }},
		{Title: "Email", Width: 14, Flex: true, Drop: 3, Cell: func(m *api.AccountMembership) string { return m.Email }},
		{Title: "Legal rep", Width: 9, Drop: 5, Cell: func(m *api.AccountMembership) string { return yesNo(m.LegalRepresentative) }},
	}
	if across {
		cols = append(cols, pagedlist.Column[api.AccountMembership]{Title: "Account", Width: 14, Flex: true, Drop: 4,
			Cell: func(m *api.AccountMembership) string {
				if a := m.Account; a != nil {
					return a.Name
				}
				return m.AccountID
			}})
	}
	return cols
}

type memberKeys struct {
	Account, Refresh key.Binding
}

// memberScreen is one membership: who, the rights in words, the status and
// why, and the member's cards (a paged list; enter opens one).
type memberScreen struct {
	*itemScreen[api.AccountMembership]
	keys  memberKeys
	cards *cardsScreen
}

func newMemberScreenByID(c *common, env *envState, id string) *memberScreen {
	return newMemberScreen(c, env, id, nil)
}

func newMemberScreen(c *common, env *envState, id string, m *api.AccountMembership) *memberScreen {
	s := &memberScreen{
		itemScreen: newItemScreen(c, env, resourceMembership, id, "membership", env.API.AccountMembership, m),
		keys: memberKeys{
			Account: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "open account")),
			Refresh: refreshKey(),
		},
		cards: newCardsList(c, env, api.CardsParams{MembershipID: id}),
	}
	s.cards.spec.empty = func() string { return "This member has no cards." }
	s.syncKeys()
	return s
}

func (s *memberScreen) title() string {
	if m := s.item.item; m != nil {
		if n := memberName(m); n != "" {
			return n
		}
		return m.Email
	}
	return "Member"
}

func (s *memberScreen) init() tea.Cmd { return tea.Batch(s.itemScreen.init(), s.cards.init()) }

func (s *memberScreen) busy() bool { return s.itemScreen.busy() || s.cards.busy() }

func (s *memberScreen) close() { s.itemScreen.close(); s.cards.close() }

func (s *memberScreen) syncKeys() {
	m := s.item.item
	s.keys.Account.SetEnabled(m != nil && m.AccountID != "")
}

func (s *memberScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.cards.keys.Open, s.keys.Account, s.keys.Refresh}
}

func (s *memberScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.cards.list.Bindings(), s.ShortHelp()}
}

func (s *memberScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	defer s.layout()
	if s.item.apply(msg) {
		return nil
	}
	return s.cards.update(msg)
}

func (s *memberScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	switch {
	case key.Matches(msg, s.keys.Account):
		return openCmd(s.env.Name, resourceAccount, s.item.item.AccountID), true
	case key.Matches(msg, s.keys.Refresh):
		return tea.Batch(s.load(), s.cards.list.Refresh()), true
	}
	return s.cards.handleKey(msg)
}

func (s *memberScreen) setSize(w, h int) {
	s.itemScreen.setSize(w, h)
	s.layout()
}

// layout gives the cards what the member's lines leave.
func (s *memberScreen) layout() {
	s.cards.setSize(s.w, max(s.h-len(s.top()), 0))
}

// top are the lines above the cards: the member, then the cards' heading.
func (s *memberScreen) top() []string {
	lines := s.lines(s.title(), s.fields, s.keys.Refresh)
	head := "Cards"
	if s.cards.list.Ready() {
		head = fmt.Sprintf("Cards (%d)", s.cards.list.Len())
	}
	return append(lines, "", s.c.styles.bold.Render(head))
}

func (s *memberScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	top := s.top()
	if len(top) >= s.h {
		return fit(strings.Join(top, "\n"), s.w, s.h)
	}
	return strings.Join(top, "\n") + "\n" + s.cards.view()
}

func (s *memberScreen) fields(m *api.AccountMembership) []field {
	st := s.c.styles
	si := &m.StatusInfo
	user := "— (invitation not accepted yet)"
	if u := m.User; u != nil {
		user = joinNonEmpty(" · ", memberName(m), u.ID)
	}
	acct := m.AccountID
	if a := m.Account; a != nil {
		acct = joinNonEmpty(" · ", a.Name, a.ID)
	}
	fs := []field{
		{label: "Email", value: orDash(m.Email)}, {label: "Status", value: joinNonEmpty(" · ", si.Status, si.Reason)},
		{label: "User", value: user, wide: true},
		{label: "Rights", value: checks(st, rightNames[:], rights(m)), wide: true},
		{label: "Legal rep", value: yesNo(m.LegalRepresentative)}, {label: "Created", value: formatTime(m.CreatedAt)},
		{label: "Account", value: orDash(acct + opensIt(st, s.keys.Account)), wide: true},
	}
	if r := si.RestrictedTo; r != nil {
		fs = append(fs, field{label: "Invited", value: joinNonEmpty(" · ", strings.TrimSpace(r.FirstName+" "+r.LastName),
			joinNonEmpty(" ", "born", r.BirthDate), r.PhoneNumber), wide: true})
	}
	if mm := mismatches(si); mm != "" {
		fs = append(fs, field{label: "Mismatch", value: st.warn.Render(mm), wide: true})
	}
	if cs := si.Consent; cs != nil {
		fs = append(fs, field{label: "Consent", value: joinNonEmpty(" · ", cs.Status, cs.ConsentURL), wide: true})
	}
	if !m.DisabledAt.IsZero() {
		fs = append(fs, field{label: "Disabled", value: formatTime(m.DisabledAt)})
	}
	return fs
}

// mismatches names what did not match the invitation when a user tried
// to bind it (BindingUserError).
func mismatches(si *api.MembershipStatusInfo) string {
	var out []string
	for _, f := range []struct {
		bad  bool
		what string
	}{
		{si.FirstNameMatchError, "first name"}, {si.LastNameMatchError, "last name"}, {si.BirthDateMatchError, "birth date"},
		{si.PhoneNumberMatchError, "phone number"}, {si.EmailVerifiedMatchError, "verified email"}, {si.IDVerifiedMatchError, "identity verification"},
	} {
		if f.bad {
			out = append(out, f.what)
		}
	}
	return strings.Join(out, ", ")
}
