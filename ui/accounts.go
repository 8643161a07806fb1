package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// filterNote follows the filter field on the status line.
const filterNote = "  searches as you type"

// accountsQuery is what the account list asks for; each change starts a new
// query of the list.
type accountsQuery struct {
	search string // trimmed; text that looks like an IBAN searches by IBAN
	// order is one of sortOrders; reverse turns it round (oldest first,
	// Z to A…).
	order   string
	reverse bool
}

func defaultAccountsQuery() accountsQuery { return accountsQuery{order: sortCreated} }

// byIBAN: the search is a whole IBAN (filters.mainIBAN).
func (q accountsQuery) byIBAN() bool { return api.AccountsQuery(q.search).MainIBAN != "" }

// ibanPart is the part of an IBAN the search is, "" when it is none.
func (q accountsQuery) ibanPart() string { return api.AccountsQuery(q.search).IBANPart }

// whole: the list is read whole and sorted or matched here, not paged
// by the platform (an order of this side, a part of an IBAN).
func (q accountsQuery) whole() bool { return !serverOrder(q.order) || q.ibanPart() != "" }

// isDefault: the first screen as launch shows it, the one kept between
// runs.
func (q accountsQuery) isDefault() bool { return q == defaultAccountsQuery() }

// params are the first page's arguments for a: the command line's search
// (api.AccountsQuery), in the order chosen here when the platform has it
// (newest first otherwise, which orders equals), a page of a's page size.
func (q accountsQuery) params(a API) api.AccountsParams {
	p := api.AccountsQuery(q.search)
	p.First, p.OrderBy, p.Direction = a.PageSize(), sortCreated, api.DirectionDesc
	if serverOrder(q.order) {
		p.OrderBy = q.order
		if q.reverse {
			p.Direction = api.DirectionAsc
		}
	}
	return p
}

// list is the query's list as the platform pages it; its reverse order
// (its end first) is the other direction.
func (q accountsQuery) list(a API) *api.List[api.Account] {
	return api.ListOf(a.Accounts, q.params(a), a.PageSize())
}

// fetch reads pages of the query: the whole list for an order of this
// side or a part of an IBAN (wholeFetch), else a page at a time.
func (q accountsQuery) fetch(a API, w *wholeRead) pagedlist.Fetch[api.Account] {
	if q.whole() {
		return q.wholeFetch(a, w)
	}
	return fetchList(q.list(a))
}

// accountColumns: the name and IBAN matter most; the holder goes first on
// a narrow terminal.
func accountColumns() []pagedlist.Column[api.Account] {
	return []pagedlist.Column[api.Account]{
		// On a terminal too narrow for the Holder column, the name carries
		// the holder: several "Main account" rows stay told apart.
		{Title: "Name", Width: 10, Flex: true, Drop: 0, Cell: func(a *api.Account) string { return a.Name }, Narrow: nameAndHolder},
		{Title: "IBAN", Width: 33, Drop: 1, Cell: func(a *api.Account) string { return ibanCell(a.IBAN) }},
		{Title: "Status", Width: 9, Drop: 3, Cell: func(a *api.Account) string { return a.StatusInfo.Status }},
		{Title: "Available", Width: 13, Drop: 2, Cell: availableCell},
		{Title: "Holder", Width: 14, Flex: true, Drop: 4, Cell: func(a *api.Account) string { return a.Holder.Info.Name }},
	}
}

type accountsKeys struct {
	Filter, Sort, Reverse, ClearFilter key.Binding
	// While the filter field has focus.
	Keep, Clear key.Binding
}

func newAccountsKeys() accountsKeys {
	return accountsKeys{
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Sort:        key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort: created")),
		Reverse:     key.NewBinding(key.WithKeys("I"), key.WithHelp("I", "reverse order")),
		ClearFilter: escKey("clear filter"),
		Keep:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		Clear:       escKey("clear filter"),
	}
}

// accountsScreen is the account list: a list screen whose first page
// comes with who the token belongs to (one request at launch), with a
// search and an order of its own.
type accountsScreen struct {
	*listScreen[api.Account]
	keys accountsKeys

	query   accountsQuery
	homeID  int   // the Home request in flight, 0 when none
	homeErr error // why the first page did not come
	// kept is when the last session's snapshot shown was saved: its rows
	// are marked as such until a fresh read replaces them.
	kept time.Time

	filter    textinput.Model
	filterSeq int
	// whole is the list read whole for the orders of this side and the
	// parts of an IBAN, kept while the user tries them.
	whole *wholeRead
}

func newAccountsScreen(c *common, env *envState) *accountsScreen {
	s := &accountsScreen{keys: newAccountsKeys(), query: defaultAccountsQuery(), whole: &wholeRead{}}
	s.listScreen = newListScreen(c, env, listSpec[api.Account]{
		title:      TextAccounts,
		noun:       "accounts",
		columns:    accountColumns(),
		id:         func(a *api.Account) string { return a.ID },
		fetch:      s.query.fetch(env.API, s.whole),
		reversible: true,
		empty:      s.emptyText,
		open: func(a api.Account) tea.Cmd {
			return push(env.Name, newAccountScreen(c, env, a))
		},
		openDesc: "open",
	})
	s.filter = newTextInput("/ ", "search name, IBAN or holder", 100)
	s.filter.SetStyles(c.inputStyles())
	s.syncKeys()
	return s
}

// setQuery makes q the list's query before it is first read (the order
// and search the list had when the user left its environment).
func (s *accountsScreen) setQuery(q accountsQuery) {
	s.query = q
	s.spec.fetch = q.fetch(s.env.API, s.whole)
}

// init asks for the home (first page and owner) unless it is here already.
func (s *accountsScreen) init() tea.Cmd {
	if s.list.Ready() || s.homeID != 0 {
		return nil
	}
	return s.loadHome()
}

// loadHome checks the session (a file read, so here, off the event loop)
// and fetches the first page with who the token belongs to.
func (s *accountsScreen) loadHome() tea.Cmd {
	s.homeID, s.homeErr = s.c.nextID(), nil
	id, env, a, sess, project := s.homeID, s.env.Name, s.env.API, s.env.Session, s.env.Project
	ctx, p := s.ctx, s.query.params(s.env.API)
	early := s.env.early
	s.env.early = nil // taken once
	if !s.query.isDefault() {
		early = nil
	}
	home := s.c.task(func() tea.Msg {
		var ans homeAnswer
		if early != nil {
			ans = <-early
		} else {
			ans = askHome(ctx, a, sess, p, project)
		}
		return homeMsg{envTag: envTag{env}, id: id, home: ans.home, err: ans.err, needSignIn: ans.needSignIn}
	})
	snap, log := s.env.Snapshot, s.c.log
	if snap == nil || s.list.Ready() || !s.query.isDefault() {
		return home
	}
	return tea.Batch(s.c.task(func() tea.Msg {
		h, saved, err := snap.Load()
		if err != nil {
			log.Warn("launch snapshot not read", "env", string(env), "error", err.Error())
		}
		return snapshotMsg{envTag: envTag{env}, id: id, home: h, saved: saved}
	}), home)
}

// homeAnswer is the first screen's request answered: who the token
// belongs to and the first page, or why not.
type homeAnswer struct {
	home       *api.Home
	err        error
	needSignIn bool
}

// askHome checks the session (a file read) and fetches the first page with
// who the token belongs to.
func askHome(ctx context.Context, a API, sess Session, p api.AccountsParams, project bool) homeAnswer {
	if !project && sess != nil && !sess.SignedIn() {
		return homeAnswer{needSignIn: true}
	}
	h, err := a.Home(ctx, p, project)
	return homeAnswer{home: h, err: err}
}

// FirstScreen is the first screen's request of one environment, sent
// before the UI started (Prefetch), for Options.FirstScreen.
type FirstScreen struct {
	of     *Environment // the environment Prefetch was given
	answer <-chan homeAnswer
}

// Prefetch sends e's first screen's request now, before the UI starts, so
// that it travels while the process sets the terminal up and draws its
// first frame: far from the platform, launch to rows is then the network's
// time, not the network's after the start-up's. Give what it returns to
// Run as Options.FirstScreen: the account list takes the answer instead of
// asking again. It reads e and changes nothing in it.
func Prefetch(ctx context.Context, e *Environment) *FirstScreen {
	ch := make(chan homeAnswer, 1)
	p, a, sess, project := defaultAccountsQuery().params(e.API), e.API, e.Session, e.Project
	go func() { ch <- askHome(ctx, a, sess, p, project) }()
	return &FirstScreen{of: e, answer: ch}
}

// saveSnapshot keeps a fresh first screen for the next launch.
func (s *accountsScreen) saveSnapshot(h *api.Home) tea.Cmd {
	snap, log, env := s.env.Snapshot, s.c.log, s.env.Name
	if snap == nil || !s.query.isDefault() {
		return nil
	}
	return s.c.task(func() tea.Msg {
		if err := snap.Save(h); err != nil {
			log.Warn("launch snapshot not saved", "env", string(env), "error", err.Error())
		}
		return nil
	})
}

// seed shows a first page fetched elsewhere (with the sign-in's check).
func (s *accountsScreen) seed(p *api.Page[api.Account]) tea.Cmd {
	s.homeID = 0
	cmd := s.list.Seed(s.spec.fetch, pageOf(p))
	s.syncKeys()
	return cmd
}

func (s *accountsScreen) capturing() bool { return s.filtering() }

// filtering is the search field's focus, not a flag of its own that
// could disagree with it.
func (s *accountsScreen) filtering() bool { return s.filter.Focused() }
func (s *accountsScreen) busy() bool      { return s.homeID != 0 || s.list.Busy() }

func (s *accountsScreen) setSize(w, h int) {
	// The field scrolls within what the prompt and note leave (one cell
	// goes to the cursor after the text) so the cursor stays on screen.
	s.filter.SetWidth(max(w-ansi.StringWidth(s.filter.Prompt)-ansi.StringWidth(filterNote)-1, 8))
	s.listScreen.setSize(w, h)
}

func (s *accountsScreen) ShortHelp() []key.Binding {
	k, lk := s.keys, s.listScreen.keys
	if s.filtering() {
		return []key.Binding{k.Keep, k.Clear}
	}
	return []key.Binding{lk.Open, k.Filter, lk.Refresh, k.Sort, k.Reverse, k.ClearFilter}
}

func (s *accountsScreen) FullHelp() [][]key.Binding {
	if s.filtering() {
		return [][]key.Binding{{s.keys.Keep, s.keys.Clear}}
	}
	return [][]key.Binding{s.list.Bindings(), s.ShortHelp()}
}

// syncKeys enables the bindings that apply now, and lays the screen out
// again for an error that came or went.
func (s *accountsScreen) syncKeys() {
	s.listScreen.syncKeys()
	open := &s.listScreen.keys.Open
	open.SetEnabled(open.Enabled() && !s.filtering())
	k := &s.keys
	k.ClearFilter.SetEnabled(s.query.search != "" && !s.filtering())
	k.Keep.SetEnabled(s.filtering())
	k.Clear.SetEnabled(s.filtering())
	next := sortOrders[(slices.Index(sortOrders, s.query.order)+1)%len(sortOrders)]
	k.Sort.SetHelp(k.Sort.Help().Key, "sort by "+strings.TrimPrefix(strings.TrimSuffix(next, "At"), "sort"))
}

func (s *accountsScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		s.filter.SetStyles(s.c.inputStyles())
	case homeMsg:
		if msg.id != s.homeID {
			return nil
		}
		s.homeID = 0
		switch {
		case msg.err != nil:
			keepErr(&s.homeErr, msg.err)
		case msg.home != nil && msg.home.Accounts != nil && s.query.whole():
			// Who the token belongs to came with a page this list does
			// not show as it is: it is read whole.
			return s.list.Query(s.spec.fetch)
		case msg.home != nil && msg.home.Accounts != nil:
			return tea.Batch(s.list.Seed(s.spec.fetch, pageOf(msg.home.Accounts)), s.saveSnapshot(msg.home))
		default:
			s.homeErr = errors.New("the API answered without the accounts")
		}
		return nil
	case snapshotMsg:
		if msg.id != s.homeID || msg.home == nil || s.list.Ready() {
			return nil
		}
		// The last session's rows, marked as such until fresh ones come.
		s.kept = msg.saved
		if s.env.owner == nil {
			s.env.owner = ownerOf(msg.home)
		}
		page := pageOf(msg.home.Accounts)
		page.Read = msg.saved
		return s.list.Seed(nil, page)
	case filterTickMsg:
		if msg.seq == s.filterSeq {
			return s.setSearch(s.filter.Value())
		}
		return nil
	case tea.PasteMsg:
		if s.filtering() {
			return s.filterEdited(msg)
		}
		return nil
	}
	return s.listScreen.update(msg)
}

func (s *accountsScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	if s.filtering() {
		return s.filterKey(msg), true
	}
	k := s.keys
	switch {
	case key.Matches(msg, k.Filter):
		s.filter.SetValue(s.query.search)
		s.filter.CursorEnd()
		return s.filter.Focus(), true
	case key.Matches(msg, s.listScreen.keys.Refresh) && !s.list.Ready():
		// Until a first page came, r asks for the home again: the
		// session check and the owner come with it.
		return s.loadHome(), true
	case key.Matches(msg, k.Sort):
		q := s.query
		q.order = sortOrders[(slices.Index(sortOrders, q.order)+1)%len(sortOrders)]
		return s.run(q), true
	case key.Matches(msg, k.Reverse):
		q := s.query
		q.reverse = !q.reverse
		return s.run(q), true
	case key.Matches(msg, k.ClearFilter):
		s.filter.SetValue("")
		return s.setSearch(""), true
	}
	return s.listScreen.handleKey(msg)
}

// run makes q the query and reads its first page; the rows on screen stay
// until it answers. A query read whole takes the rows on screen when
// every row of the same search is loaded, newest first: sorting them
// again costs no request.
func (s *accountsScreen) run(q accountsQuery) tea.Cmd {
	if rows, ok := s.list.All(); ok && q.whole() && q.search == s.query.search && !s.query.whole() {
		p := s.query.params(s.env.API)
		s.whole.keep(s.query.search, readOrder(p), rows)
	}
	s.setQuery(q)
	s.homeID, s.homeErr = 0, nil
	return s.list.Query(s.spec.fetch)
}

// setSearch makes v (trimmed) the search, unless that is already the
// search: "acme " after "acme" must not cost a request.
func (s *accountsScreen) setSearch(v string) tea.Cmd {
	v = strings.TrimSpace(v)
	if v == s.query.search {
		return nil
	}
	q := s.query
	q.search = v
	return s.run(q)
}

func (s *accountsScreen) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys
	switch {
	case key.Matches(msg, k.Keep):
		s.closeFilter()
		return s.setSearch(s.filter.Value())
	case key.Matches(msg, k.Clear):
		s.closeFilter()
		s.filter.SetValue("")
		return s.setSearch("")
	}
	return s.filterEdited(msg)
}

// closeFilter leaves the filter field; a pending debounce tick is now moot.
func (s *accountsScreen) closeFilter() {
	s.filter.Blur()
	s.filterSeq++
}

// filterEdited applies an edit and debounces the search: only the last edit
// of a burst, filterDebounce after it, sends a request.
func (s *accountsScreen) filterEdited(msg tea.Msg) tea.Cmd {
	changed, cmd := editInput(&s.filter, msg)
	if !changed {
		return cmd
	}
	s.filterSeq++
	seq, env := s.filterSeq, s.env.Name
	return tea.Batch(cmd, s.c.tick(filterDebounce, func(time.Time) tea.Msg { return filterTickMsg{envTag{env}, seq} }))
}

func (s *accountsScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	st := s.c.styles
	if !s.list.Ready() {
		err := s.homeErr
		if err == nil {
			err = s.list.Err()
		}
		if err != nil {
			return fit(wrap(st.err.Render("✗ Could not load the accounts. ")+s.c.explain(err, s.where()), s.w), s.w, s.h)
		}
		return fit(s.c.loadingText(s.env.status, envTitle(s.env.Name)+" accounts"), s.w, s.h)
	}
	return s.c.listView(s.list, TextAccounts, s.emptyText, s.errs.lines, s.statusLine(), s.w, s.h)
}

func (s *accountsScreen) emptyText() string {
	clear := s.keys.ClearFilter.Help().Key
	switch {
	case s.query.byIBAN():
		return "No account has the IBAN " + iban.Format(s.query.search) + ". Press " + clear + " to clear the filter."
	case s.query.ibanPart() != "":
		return "No account's IBAN " + partText(s.query.ibanPart()) + " (every account was read). Press " + clear + " to clear the filter."
	case s.query.search != "":
		return "No accounts match “" + s.query.search + "”. Press " + clear + " to clear the filter."
	case s.env.Project:
		return "No accounts in this " + envTitle(s.env.Name) + " project yet."
	}
	return "No accounts in " + envTitle(s.env.Name) + " for this user yet."
}

// statusLine: where the cursor is, the order, the filter, what is loading
// or how old the rows are, and the last error.
func (s *accountsScreen) statusLine() string {
	st := s.c.styles
	if s.filtering() {
		return trunc(s.filter.View()+st.dim.Render(filterNote), s.w)
	}
	var b strings.Builder
	b.Grow(128)
	writePosition(&b, s.list)
	b.WriteString(" · " + orderText(s.query.order, s.query.reverse))
	switch part := s.query.ibanPart(); {
	case s.query.byIBAN():
		b.WriteString(" · IBAN " + iban.Format(s.query.search))
	case part != "":
		b.WriteString(" · IBAN " + partText(part))
	case s.query.search != "":
		b.WriteString(" · filter “" + s.query.search + "”")
	}
	if p := s.whole.progress(); p != "" {
		// The whole list is read: say how far.
		b.WriteString(" · " + s.c.spinFrame + " reading every account: " + p)
	}
	if !s.kept.IsZero() && s.list.Updated().Equal(s.kept) {
		b.WriteString(" · last session's")
		if s.homeID != 0 {
			b.WriteString(", " + s.c.spinFrame + " refreshing")
		}
	}
	s.c.writeActivity(&b, s.list, s.env.status)
	return trunc(st.dimP.Render(b.String()), s.w)
}

// nameAndHolder is the account's name and, when it is not the same, its
// holder's: "Main account · Camille Petit".
func nameAndHolder(a *api.Account) string {
	if h := a.Holder.Info.Name; h != "" && h != a.Name {
		return a.Name + " · " + h
	}
	return a.Name
}

// partText says what a part of an IBAN is for the status line: "starts
// with FR76 1741 8000", "ends with 9315521".
func partText(part string) string {
	if strings.Trim(part, "0123456789") == "" {
		return "ends with " + part
	}
	return "starts with " + iban.Format(part)
}

func ibanCell(s string) string {
	if s == "" {
		return "—"
	}
	return iban.Format(s)
}

func availableCell(a *api.Account) string {
	if a.Balances == nil {
		return "—"
	}
	return amountText(a.Balances.Available)
}

func amountText(am api.Amount) string {
	v := am.Value
	if v == "" {
		return "—"
	}
	return v + " " + am.Currency
}
