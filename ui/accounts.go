package ui

import (
	"context"
	"errors"
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
	order  string // api.OrderCreatedAt | api.OrderUpdatedAt, newest first
}

func defaultAccountsQuery() accountsQuery { return accountsQuery{order: api.OrderCreatedAt} }

func (q accountsQuery) byIBAN() bool { return iban.LooksLike(q.search) }

// isDefault: the first screen as launch shows it, the one kept between
// runs.
func (q accountsQuery) isDefault() bool { return q == defaultAccountsQuery() }

// params are the first page's arguments for a: the command line's search
// (api.AccountsQuery), in the order chosen here, a page of a's page size.
func (q accountsQuery) params(a API) api.AccountsParams {
	p := api.AccountsQuery(q.search)
	p.First, p.OrderBy = a.PageSize(), q.order
	return p
}

// list is the query's list. It is shown newest first, so its reverse
// order (its end first) is the same order ascending.
func (q accountsQuery) list(a API) *api.List[api.Account] {
	return api.ListOf(a.Accounts, q.params(a), a.PageSize())
}

// fetch reads pages of the query.
func (q accountsQuery) fetch(a API) pagedlist.Fetch[api.Account] { return fetchList(q.list(a)) }

// accountColumns: the name and IBAN matter most; the holder goes first on
// a narrow terminal.
func accountColumns() []pagedlist.Column[api.Account] {
	return []pagedlist.Column[api.Account]{
		{Title: "Name", Width: 10, Flex: true, Drop: 0, Cell: func(a *api.Account) string { return a.Name }},
		{Title: "IBAN", Width: 33, Drop: 1, Cell: func(a *api.Account) string { return ibanCell(a.IBAN) }},
		{Title: "Status", Width: 9, Drop: 3, Cell: func(a *api.Account) string { return a.StatusInfo.Status }},
		{Title: "Available", Width: 13, Drop: 2, Cell: availableCell},
		{Title: "Holder", Width: 14, Flex: true, Drop: 4, Cell: func(a *api.Account) string { return a.Holder.Info.Name }},
	}
}

type accountsKeys struct {
	Filter, Sort, ClearFilter key.Binding
	// While the filter field has focus.
	Keep, Clear key.Binding
}

func newAccountsKeys() accountsKeys {
	return accountsKeys{
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Sort:        key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort created/updated")),
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
}

func newAccountsScreen(c *common, env *envState) *accountsScreen {
	s := &accountsScreen{keys: newAccountsKeys(), query: defaultAccountsQuery()}
	s.listScreen = newListScreen(c, env, listSpec[api.Account]{
		title:      TextAccounts,
		noun:       "accounts",
		columns:    accountColumns(),
		id:         func(a *api.Account) string { return a.ID },
		fetch:      s.query.fetch(env.API),
		reversible: true,
		pageSize:   s.query.list(env.API).PageSize(),
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
	cmd := s.list.Seed(s.query.fetch(s.env.API), pageOf(p))
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
	return []key.Binding{lk.Open, k.Filter, lk.Refresh, k.Sort, k.ClearFilter}
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
		case msg.home != nil && msg.home.Accounts != nil:
			return tea.Batch(s.list.Seed(nil, pageOf(msg.home.Accounts)), s.saveSnapshot(msg.home))
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
		q.order = api.OrderCreatedAt
		if s.query.order == api.OrderCreatedAt {
			q.order = api.OrderUpdatedAt
		}
		return s.run(q), true
	case key.Matches(msg, k.ClearFilter):
		s.filter.SetValue("")
		return s.setSearch(""), true
	}
	return s.listScreen.handleKey(msg)
}

// run makes q the query and reads its first page; the rows on screen stay
// until it answers.
func (s *accountsScreen) run(q accountsQuery) tea.Cmd {
	s.query = q
	s.homeID, s.homeErr = 0, nil
	return s.list.Query(q.fetch(s.env.API))
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
			return fit(st.err.Render("✗ Could not load the accounts. ")+explain(err, s.where()), s.w, s.h)
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
	if s.query.order == api.OrderUpdatedAt {
		b.WriteString(" · by updated")
	} else {
		b.WriteString(" · by created")
	}
	switch {
	case s.query.byIBAN():
		b.WriteString(" · IBAN " + iban.Format(s.query.search))
	case s.query.search != "":
		b.WriteString(" · filter “" + s.query.search + "”")
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
