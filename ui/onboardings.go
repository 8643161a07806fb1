package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// The onboardings and capital deposit cases are the project's: the
// platform shows them to a project token only, so they are read with the
// environment's project-token client whatever the session's token.

// projectOnlyError: what is shown to a project token only, on an
// environment without a project-token client.
type projectOnlyError struct{ env, what string }

func (e *projectOnlyError) Error() string {
	return "the platform shows " + e.what + " to the project's token only, and " + envTitle(config.EnvName(e.env)) +
		" has no project-token client"
}

// projectPages reads a project's list, as list makes it of the
// project-token client; without one, every read says so.
func projectPages[T any](env *envState, what string, list func(ProjectAPI) *api.List[T]) pagedlist.Fetch[T] {
	if env.ProjectAPI == nil {
		return func(context.Context, pagedlist.Request) (pagedlist.Page[T], error) {
			return pagedlist.Page[T]{}, &projectOnlyError{env: string(env.Name), what: what}
		}
	}
	return fetchList(list(env.ProjectAPI))
}

// projectGet reads one of the project's items by id with the
// project-token client; nil without one.
func projectGet[T any](env *envState, get func(ProjectAPI) func(context.Context, string) (*T, error)) func(context.Context, string) (*T, error) {
	if env.ProjectAPI == nil {
		return nil
	}
	return get(env.ProjectAPI)
}

// newOnboardingsList is the project's onboardings, the newest first; f
// goes through their statuses.
func newOnboardingsList(c *common, env *envState) *onboardingsScreen {
	s := &onboardingsScreen{filter: newCycle("f", "status", api.OnboardingStatuses())}
	s.listScreen = newListScreen(c, env, listSpec[api.Onboarding]{
		title:      "Onboardings",
		noun:       "onboardings",
		columns:    onboardingColumns(),
		id:         func(o *api.Onboarding) string { return o.ID },
		fetch:      s.fetch(env),
		reversible: true,
		project:    true,
		empty: func() string {
			return s.filter.emptyOr("onboardings", "The project has no onboarding in "+envTitle(env.Name)+".")
		},
		open:     func(o api.Onboarding) tea.Cmd { return push(env.Name, newOnboardingScreen(c, env, o.ID, &o)) },
		openDesc: "open onboarding",
		note:     s.filter.note,
	})
	return s
}

// onboardingsScreen is the onboardings list with its status filter.
type onboardingsScreen struct {
	*listScreen[api.Onboarding]
	filter *cycle
}

func (s *onboardingsScreen) fetch(env *envState) pagedlist.Fetch[api.Onboarding] {
	p := api.OnboardingsParams{Statuses: s.filter.values(), OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return projectPages(env, "onboardings", func(a ProjectAPI) *api.List[api.Onboarding] {
		return api.ListOf(a.Onboardings, p, env.API.PageSize())
	})
}

func (s *onboardingsScreen) ShortHelp() []key.Binding {
	return append(s.listScreen.ShortHelp(), s.filter.key)
}

func (s *onboardingsScreen) FullHelp() [][]key.Binding {
	return append(s.listScreen.FullHelp(), []key.Binding{s.filter.key})
}

func (s *onboardingsScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, s.filter.key) {
		return s.listScreen.handleKey(msg)
	}
	s.filter.next()
	return s.query(s.fetch(s.env)), true
}

// onboardingName is whom an onboarding opens an account for.
func onboardingName(o *api.Onboarding) string {
	if o.CompanyName != "" {
		return o.CompanyName
	}
	if a := o.AccountAdmin; a != nil {
		if n := joinNonEmpty(" ", a.FirstName, a.LastName); n != "" {
			return n
		}
		return a.Email
	}
	return o.AccountName
}

// onboardingMissing are the fields at fault, then the supporting
// documents still needed.
func onboardingMissing(o *api.Onboarding) []string {
	var out []string
	for _, e := range o.Errors {
		out = append(out, e.Field)
	}
	if d := o.Documents; d != nil {
		out = append(out, d.Missing()...)
	}
	return out
}

func onboardingColumns() []pagedlist.Column[api.Onboarding] {
	return []pagedlist.Column[api.Onboarding]{
		{Title: "For", Width: 14, Flex: true, Cell: onboardingName},
		{Title: "Type", Width: 10, Drop: 3, Cell: func(o *api.Onboarding) string { return o.HolderType() }},
		{Title: "Status", Width: 9, Drop: 1, Cell: func(o *api.Onboarding) string { return o.Status }},
		{Title: "Missing", Width: 14, Flex: true, Drop: 2, Cell: func(o *api.Onboarding) string { return strings.Join(onboardingMissing(o), ", ") }},
		{Title: "Created", Width: 10, Drop: 4, Cell: func(o *api.Onboarding) string { return dayText(o.CreatedAt) }},
	}
}

type onboardingKeys struct {
	Account, Refresh key.Binding
	page             pageKeys
}

// onboardingScreen is one onboarding: its status, what is still missing
// (fields and documents), the page the future holder fills it in (o opens
// it in the browser where one can open, c copies its link), and the
// account it opened (a).
type onboardingScreen struct {
	*itemScreen[api.Onboarding]
	keys onboardingKeys
}

func newOnboardingScreenByID(c *common, env *envState, id string) *onboardingScreen {
	return newOnboardingScreen(c, env, id, nil)
}

func newOnboardingScreen(c *common, env *envState, id string, o *api.Onboarding) *onboardingScreen {
	get := projectGet(env, func(p ProjectAPI) func(context.Context, string) (*api.Onboarding, error) { return p.Onboarding })
	s := &onboardingScreen{itemScreen: newItemScreen(c, env, resourceOnboarding, id, "onboarding", get, o),
		keys: onboardingKeys{Account: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "open account")),
			Refresh: refreshKey(), page: newPageKeys("onboarding")}}
	s.noGet = &projectOnlyError{env: string(env.Name), what: "onboardings"}
	s.syncKeys()
	return s
}

func (s *onboardingScreen) title() string {
	if o := s.item.item; o != nil {
		return orDash(onboardingName(o))
	}
	return "Onboarding"
}

func (s *onboardingScreen) syncKeys() {
	o := s.item.item
	address := ""
	if o != nil {
		address = o.OnboardingURL
	}
	s.keys.page.sync(s.c, address)
	s.keys.Account.SetEnabled(o != nil && o.Account != nil)
}

func (s *onboardingScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.keys.page.Open, s.keys.page.Copy, s.keys.Account, s.keys.Refresh}
}

func (s *onboardingScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *onboardingScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	s.item.apply(msg)
	return nil
}

func (s *onboardingScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	o := s.item.item
	if o != nil {
		if cmd, ok := s.keys.page.handle(s.c, s.ctx, msg, o.OnboardingURL, "onboarding"); ok {
			return cmd, true
		}
	}
	switch {
	case key.Matches(msg, s.keys.Account):
		return openCmd(s.env.Name, resourceAccount, o.Account.ID), true
	case key.Matches(msg, s.keys.Refresh):
		return s.load(), true
	}
	return nil, false
}

func (s *onboardingScreen) view() string {
	return s.itemScreen.view(s.title(), s.fields, s.keys.Refresh)
}

func (s *onboardingScreen) fields(o *api.Onboarding) []field {
	st := s.c.styles
	page := "—"
	if o.OnboardingURL != "" {
		page = o.OnboardingURL + opensIt(st, s.keys.page.Open)
	}
	fs := []field{
		{label: "Status", value: orDash(o.Status)}, {label: "Type", value: o.HolderType()},
		{label: "Page", value: page, wide: true},
	}
	for i, e := range o.Errors {
		label := ""
		if i == 0 {
			label = "Missing"
		}
		fs = append(fs, field{label: label, value: st.warn.Render(e.Field) + " " + joinNonEmpty(" · ", strings.Join(e.Errors, ", "), e.Details), wide: true})
	}
	if d := o.Documents; d != nil {
		docs := d.Status
		if m := d.Missing(); len(m) > 0 {
			docs += " · still needed: " + st.warn.Render(strings.Join(m, ", "))
		}
		docs += fmt.Sprintf(" · %d of %d required given", len(d.Required)-len(d.Missing()), len(d.Required))
		fs = append(fs, field{label: "Documents", value: docs, wide: true})
	}
	if a := o.AccountAdmin; a != nil {
		fs = append(fs, field{label: "Admin", value: orDash(joinNonEmpty(" · ", joinNonEmpty(" ", a.FirstName, a.LastName), a.Email)), wide: true})
	}
	acct := orDash(o.AccountName) + " (not opened yet)"
	if a := o.Account; a != nil {
		acct = joinNonEmpty(" · ", a.Name, a.ID) + opensIt(st, s.keys.Account)
	}
	return append(fs, field{label: "Account", value: acct, wide: true},
		field{label: "Created", value: formatTime(o.CreatedAt)}, field{label: "Updated", value: formatTime(o.UpdatedAt)},
		field{label: "ID", value: o.ID, wide: true})
}

// ---- capital deposits ----

// capitalDepositsScreen is the project's capital deposit cases, the
// newest first; f goes through their statuses.
type capitalDepositsScreen struct {
	*listScreen[api.CapitalDeposit]
	filter *cycle
}

func newCapitalDepositsList(c *common, env *envState) *capitalDepositsScreen {
	s := &capitalDepositsScreen{filter: newCycle("f", "status", api.CapitalDepositStatuses())}
	s.listScreen = newListScreen(c, env, listSpec[api.CapitalDeposit]{
		title:      "Capital deposits",
		noun:       "capital deposit cases",
		columns:    capitalDepositColumns(),
		id:         func(d *api.CapitalDeposit) string { return d.ID },
		fetch:      s.fetch(env),
		reversible: true,
		project:    true,
		empty: func() string {
			return s.filter.emptyOr("capital deposit cases", "The project has no capital deposit case in "+envTitle(env.Name)+".")
		},
		open: func(d api.CapitalDeposit) tea.Cmd {
			return push(env.Name, newCapitalDepositScreen(c, env, d.ID, &d))
		},
		openDesc: "open capital deposit",
		note:     s.filter.note,
	})
	return s
}

func (s *capitalDepositsScreen) fetch(env *envState) pagedlist.Fetch[api.CapitalDeposit] {
	p := api.CapitalDepositsParams{Statuses: s.filter.values(), OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}
	return projectPages(env, "capital deposit cases", func(a ProjectAPI) *api.List[api.CapitalDeposit] {
		return api.ListOf(a.CapitalDeposits, p, env.API.PageSize())
	})
}

func (s *capitalDepositsScreen) ShortHelp() []key.Binding {
	return append(s.listScreen.ShortHelp(), s.filter.key)
}

func (s *capitalDepositsScreen) FullHelp() [][]key.Binding {
	return append(s.listScreen.FullHelp(), []key.Binding{s.filter.key})
}

func (s *capitalDepositsScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, s.filter.key) {
		return s.listScreen.handleKey(msg)
	}
	s.filter.next()
	return s.query(s.fetch(s.env)), true
}

// documentCounts counts a case's documents by status, in the order of
// their review: "2 Validated · 1 Refused".
func documentCounts(d *api.CapitalDeposit) string {
	n := map[string]int{}
	for _, doc := range d.Documents {
		n[doc.Status]++
	}
	var parts []string
	for _, s := range []string{"Validated", "Uploaded", "Pending", "Refused"} {
		if n[s] > 0 {
			parts = append(parts, strconv.Itoa(n[s])+" "+s)
		}
	}
	return strings.Join(parts, " · ")
}

func capitalDepositColumns() []pagedlist.Column[api.CapitalDeposit] {
	return []pagedlist.Column[api.CapitalDeposit]{
		{Title: "Company", Width: 14, Flex: true, Cell: func(d *api.CapitalDeposit) string { return d.CompanyName }},
		{Title: "Amount", Width: 14, Right: true, Drop: 2, Cell: func(d *api.CapitalDeposit) string { return amountText(d.Amount) }},
		{Title: " Status", Width: 24, Drop: 1, Cell: func(d *api.CapitalDeposit) string { return " " + d.Status }},
		{Title: "Documents", Width: 14, Flex: true, Drop: 3, Cell: documentCounts},
		{Title: "Created", Width: 10, Drop: 4, Cell: func(d *api.CapitalDeposit) string { return dayText(d.CreatedAt) }},
	}
}

// capitalDepositScreen is one capital deposit case: its status, its
// shareholders and what each brings, its documents and their review.
type capitalDepositScreen struct {
	*itemScreen[api.CapitalDeposit]
	refresh key.Binding
}

func newCapitalDepositScreenByID(c *common, env *envState, id string) *capitalDepositScreen {
	return newCapitalDepositScreen(c, env, id, nil)
}

func newCapitalDepositScreen(c *common, env *envState, id string, d *api.CapitalDeposit) *capitalDepositScreen {
	get := projectGet(env, func(p ProjectAPI) func(context.Context, string) (*api.CapitalDeposit, error) { return p.CapitalDeposit })
	s := &capitalDepositScreen{itemScreen: newItemScreen(c, env, resourceCapitalDeposit, id, "capital deposit case", get, d), refresh: refreshKey()}
	s.noGet = &projectOnlyError{env: string(env.Name), what: "capital deposit cases"}
	return s
}

func (s *capitalDepositScreen) title() string {
	if d := s.item.item; d != nil && d.CompanyName != "" {
		return d.CompanyName
	}
	return "Capital deposit"
}

func (s *capitalDepositScreen) ShortHelp() []key.Binding   { return []key.Binding{s.refresh} }
func (s *capitalDepositScreen) FullHelp() [][]key.Binding  { return [][]key.Binding{s.ShortHelp()} }
func (s *capitalDepositScreen) update(msg tea.Msg) tea.Cmd { s.item.apply(msg); return nil }

func (s *capitalDepositScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if key.Matches(msg, s.refresh) {
		return s.load(), true
	}
	return nil, false
}

func (s *capitalDepositScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	lines := s.lines(s.title(), s.fields, s.refresh)
	if d := s.item.item; d != nil {
		lines = append(lines, s.tables(d)...)
	}
	return fit(strings.Join(lines, "\n"), s.w, s.h)
}

func (s *capitalDepositScreen) fields(d *api.CapitalDeposit) []field {
	status := d.Status
	if d.CanceledReason != "" {
		status += " · " + d.CanceledReason
	}
	return []field{
		{label: "Amount", value: amountText(d.Amount)}, {label: "Status", value: orDash(status)},
		{label: "Account", value: orDash(d.AccountID)}, {label: "Created", value: formatTime(d.CreatedAt)},
		{label: "ID", value: d.ID, wide: true},
	}
}

// tables are the shareholders and the documents, one line each.
func (s *capitalDepositScreen) tables(d *api.CapitalDeposit) []string {
	st := s.c.styles
	lines := []string{"", st.bold.Render(fmt.Sprintf("Shareholders (%d)", len(d.Shareholders)))}
	for _, h := range d.Shareholders {
		lines = append(lines, trunc(padTo(orDash(h.Who()), 24)+padTo(amountText(h.Amount), 16)+h.Status, s.w))
	}
	lines = append(lines, "", st.bold.Render(fmt.Sprintf("Documents (%d)", len(d.Documents))))
	for _, doc := range d.Documents {
		why := joinNonEmpty(" · ", doc.ReasonCode, doc.Reason)
		if why != "" {
			why = st.warn.Render(why)
		}
		lines = append(lines, trunc(padTo(doc.Type, 32)+padTo(doc.Status, 11)+joinNonEmpty(" · ", why, optUploaded(doc)), s.w))
	}
	return lines
}

// optUploaded says when a document was uploaded; "" when it was not.
func optUploaded(d api.CapitalDepositDocument) string {
	if d.UploadedAt.IsZero() {
		return ""
	}
	return "uploaded " + dayText(d.UploadedAt)
}
