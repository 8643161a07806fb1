package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

type txListKeys struct {
	Filter, Search, ClearFilter key.Binding
}

// txListScreen is a list of transactions: one account's, or across
// accounts (the project's with a project token, each of the user's
// accounts in turn with a user token), with filters set from the keyboard.
type txListScreen struct {
	*listScreen[api.TransactionDetail]
	accountID string // "" across accounts
	keys      txListKeys
	filter    txFilter
	form      *txFilterForm // open while the filters are edited
	walk      *accountWalk  // the user-token walk across accounts; nil otherwise
}

func newTxListScreen(c *common, env *envState, accountID string) *txListScreen {
	t := &txListScreen{accountID: accountID, keys: txListKeys{
		Filter:      key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "filter")),
		Search:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		ClearFilter: escKey("clear filters"),
	}}
	title := "Transactions"
	if accountID == "" {
		title = "All transactions"
	}
	t.listScreen = newListScreen(c, env, listSpec[api.TransactionDetail]{
		title:   title,
		noun:    "transactions",
		columns: txColumns(accountID == ""),
		id:      func(tx *api.TransactionDetail) string { return tx.ID },
		// Across accounts, a user token walks the accounts, which cannot
		// be read from the end.
		reversible: accountID != "" || env.Project,
		empty:      t.emptyText,
		open: func(tx api.TransactionDetail) tea.Cmd {
			return push(env.Name, newTxDetail(c, env, tx))
		},
		openDesc: "open transaction",
		note:     t.note,
	})
	t.spec.fetch = t.fetch()
	t.syncKeys()
	return t
}

// fetch reads the transactions with the filters set now, newest
// execution first.
func (t *txListScreen) fetch() pagedlist.Fetch[api.TransactionDetail] {
	base := txParams(t.accountID)
	t.filter.apply(&base)
	a := t.env.API
	if t.accountID == "" && !t.env.Project {
		t.walk = &accountWalk{a: a}
		return t.walk.fetch(base)
	}
	t.walk = nil
	return fetchPages(a.TransactionList, pageParams(base, func(p *api.TransactionsParams, after string, first int, dir string) {
		p.After, p.First, p.Direction = after, first, dir
	}))
}

// txParams is how a transaction list reads, before its filters: newest
// execution first.
func txParams(accountID string) api.TransactionsParams {
	return api.TransactionsParams{AccountID: accountID, OrderBy: api.TxOrderExecutionDate, Direction: api.DirectionDesc}
}

// txColumns reproduce a statement line: date, signed amount, status, who
// and what; across accounts, which account.
func txColumns(across bool) []pagedlist.Column[api.TransactionDetail] {
	cols := []pagedlist.Column[api.TransactionDetail]{
		{Title: "Date", Width: 10, Cell: func(t *api.TransactionDetail) string { return dayText(t.ExecutionDate) }},
		{Title: "Amount", Width: 16, Right: true, Cell: func(t *api.TransactionDetail) string { return signedAmount(t.Side, t.Amount) }},
		// One more cell than the status needs: the gap after the amount
		// is two cells, as on a statement.
		{Title: " Status", Width: 10, Drop: 1, Cell: func(t *api.TransactionDetail) string { return " " + t.StatusInfo.Status }},
		{Title: "Counterparty · label", Width: 20, Flex: true, Drop: 2, Cell: func(t *api.TransactionDetail) string {
			if cp := t.Counterparty; cp != "" {
				return cp + " · " + t.Label
			}
			return t.Label
		}},
		{Title: "Type", Width: 28, Drop: 4, Cell: func(t *api.TransactionDetail) string { return t.Type }},
	}
	if across {
		cols = append(cols, pagedlist.Column[api.TransactionDetail]{Title: "Account", Width: 16, Flex: true, Drop: 3,
			Cell: func(t *api.TransactionDetail) string {
				if a := t.Account; a != nil {
					return a.Name
				}
				return ""
			}})
	}
	return cols
}

// signedAmount is an amount with the sign of its side: + credits, -
// debits.
func signedAmount(side string, am api.Amount) string {
	switch side {
	case "Debit":
		return "-" + amountText(am)
	case "Credit":
		return "+" + amountText(am)
	}
	return amountText(am)
}

func (t *txListScreen) emptyText() string {
	switch {
	case t.filter.set():
		return "No transactions match the filters. Press " + t.keys.ClearFilter.Help().Key + " to clear them."
	case t.accountID != "":
		return "No transactions on this account yet."
	case t.env.Project:
		return "No transactions in this " + envTitle(t.env.Name) + " project yet."
	}
	return "No transactions in your " + envTitle(t.env.Name) + " accounts yet."
}

// note is the filters, and how far the walk across accounts has come.
func (t *txListScreen) note() string {
	parts := []string{}
	if s := t.filter.summary(); s != "" {
		parts = append(parts, s)
	}
	if w := t.walk; w != nil {
		switch read, total, done := w.progress(); {
		case done && total == 0:
			parts = append(parts, "you have no accounts")
		case done:
			parts = append(parts, fmt.Sprintf("all %d accounts read", total))
		case total == 0:
			parts = append(parts, "reading your accounts")
		default:
			parts = append(parts, fmt.Sprintf("%d of %d accounts read", read, total))
		}
	}
	return strings.Join(parts, " · ")
}

func (t *txListScreen) capturing() bool { return t.form != nil }

func (t *txListScreen) syncKeys() {
	t.listScreen.syncKeys()
	t.keys.ClearFilter.SetEnabled(t.filter.set())
}

func (t *txListScreen) ShortHelp() []key.Binding {
	if t.form != nil {
		return t.form.ShortHelp()
	}
	return append(t.listScreen.ShortHelp(), t.keys.Filter, t.keys.Search, t.keys.ClearFilter)
}

func (t *txListScreen) FullHelp() [][]key.Binding {
	if t.form != nil {
		return t.form.FullHelp()
	}
	return append(t.listScreen.FullHelp(), []key.Binding{t.keys.Filter, t.keys.Search, t.keys.ClearFilter})
}

func (t *txListScreen) update(msg tea.Msg) tea.Cmd {
	defer t.syncKeys()
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		if t.form != nil {
			t.form.restyle()
		}
	case tea.PasteMsg:
		if t.form != nil {
			return t.form.paste(msg)
		}
	}
	return t.listScreen.update(msg)
}

func (t *txListScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer t.syncKeys()
	if t.form != nil {
		cmd, done := t.form.handleKey(msg)
		if done == formKept {
			return cmd, true
		}
		f, applied := t.form.result, done == formApplied
		t.form = nil
		if applied && f != t.filter {
			t.filter = f
			return tea.Batch(cmd, t.query(t.fetch())), true
		}
		return cmd, true
	}
	switch {
	case key.Matches(msg, t.keys.Filter):
		return t.openForm(filterStatus), true
	case key.Matches(msg, t.keys.Search):
		return t.openForm(filterSearch), true
	case key.Matches(msg, t.keys.ClearFilter):
		t.filter = txFilter{}
		return t.query(t.fetch()), true
	}
	return t.listScreen.handleKey(msg)
}

func (t *txListScreen) openForm(focus int) tea.Cmd {
	t.form = newTxFilterForm(t.c, t.filter, focus)
	t.form.setSize(t.w, t.h)
	return t.form.focusCmd()
}

func (t *txListScreen) setSize(w, h int) {
	t.listScreen.setSize(w, h)
	if t.form != nil {
		t.form.setSize(w, h)
	}
}

func (t *txListScreen) view() string {
	if t.form != nil {
		return t.form.view()
	}
	return t.listScreen.view()
}

// accountWalk reads, for a user token, the transactions of each of the
// user's accounts in turn as one list: the platform serves the project's
// transactions to project tokens only. Its cursors are "i/c": after the
// transaction with cursor c in the i-th account ("" for its start).
//
// It is shared by the list's fetches, which run off the event loop; the
// status line reads its progress, so the lock is never held across a
// request.
type accountWalk struct {
	a API

	mu       sync.Mutex
	ids      []string
	after    string // the accounts cursor of the next page of accounts
	done     bool   // every account is in ids
	total    int    // the accounts' totalCount
	reached  int    // accounts whose transactions were read, at least in part
	finished bool   // the last account's transactions were read to the end
	// counts are the transactions of each account read (totalCount):
	// their sum is the list's length as far as it is known.
	counts map[int]int
}

// progress is how many accounts were read of how many, and whether all
// were read to the end.
func (w *accountWalk) progress() (read, total int, done bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reached, max(w.total, len(w.ids)), w.finished
}

// account is the id of the i-th account, reading more of the account list
// as needed; ok is false past the last one.
func (w *accountWalk) account(ctx context.Context, i int) (id string, ok bool, err error) {
	for {
		w.mu.Lock()
		if i < len(w.ids) {
			id := w.ids[i]
			w.mu.Unlock()
			return id, true, nil
		}
		if w.done {
			w.mu.Unlock()
			return "", false, nil
		}
		after := w.after
		w.mu.Unlock()
		page, err := w.a.Accounts(ctx, api.AccountsParams{First: platform.PageMax, After: after, OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc})
		if err != nil {
			return "", false, err
		}
		w.mu.Lock()
		if w.after == after && !w.done {
			for _, a := range page.Items {
				w.ids = append(w.ids, a.ID)
			}
			w.total = page.TotalCount
			w.after = page.PageInfo.EndCursor
			w.done = !page.PageInfo.HasNextPage || w.after == "" || w.after == after || len(page.Items) == 0
		}
		w.mu.Unlock()
	}
}

// reach records that account i, of count transactions, was read (to its
// end when last), and returns how many transactions the accounts read so
// far hold.
func (w *accountWalk) reach(i, count int, last bool) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reached = max(w.reached, i+1)
	if last && w.done && i+1 >= len(w.ids) {
		w.finished = true
	}
	if w.counts == nil {
		w.counts = map[int]int{}
	}
	w.counts[i] = count
	sum := 0
	for _, n := range w.counts {
		sum += n
	}
	return sum
}

// end records that every account was read to its end.
func (w *accountWalk) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.finished = true
}

func walkCursor(i int, c string) string { return strconv.Itoa(i) + "/" + c }

func parseWalkCursor(s string) (int, string, error) {
	if s == "" {
		return 0, "", nil
	}
	n, c, ok := strings.Cut(s, "/")
	i, err := strconv.Atoi(n)
	if !ok || err != nil || i < 0 {
		return 0, "", fmt.Errorf("the list's cursor %q is not one of its own", s)
	}
	return i, c, nil
}

// fetch fills a page from as many accounts as it takes, in account order.
// A page that ends with an account's last transaction says the next read
// starts with the next account.
func (w *accountWalk) fetch(base api.TransactionsParams) pagedlist.Fetch[api.TransactionDetail] {
	return func(ctx context.Context, r pagedlist.Request) (pagedlist.Page[api.TransactionDetail], error) {
		var out pagedlist.Page[api.TransactionDetail]
		i, after, err := parseWalkCursor(r.After)
		if err != nil {
			return out, err
		}
		for len(out.Rows) < r.First {
			id, ok, err := w.account(ctx, i)
			if err != nil {
				return w.partial(out, err)
			}
			if !ok {
				w.end()
				out.HasNext = false
				break
			}
			p := base
			p.AccountID, p.After, p.First = id, after, r.First-len(out.Rows)
			page, err := w.a.TransactionList(ctx, p)
			if err != nil {
				return w.partial(out, err)
			}
			more := page.PageInfo.HasNextPage && page.PageInfo.EndCursor != "" && page.PageInfo.EndCursor != after
			out.Total = w.reach(i, page.TotalCount, !more)
			if len(page.Items) > 0 {
				if len(out.Rows) == 0 {
					out.StartCursor = walkCursor(i, page.PageInfo.StartCursor)
				}
				out.Rows = append(out.Rows, page.Items...)
				out.EndCursor = walkCursor(i, page.PageInfo.EndCursor)
			}
			out.HasNext = true
			if more {
				after = page.PageInfo.EndCursor
				continue
			}
			i, after = i+1, ""
			if len(out.Rows) > 0 {
				out.EndCursor = walkCursor(i, "")
			}
		}
		out.Total = max(out.Total, len(out.Rows))
		return out, nil
	}
}

// partial hands out the rows read before err, if any: the next read,
// from where they end, meets the error again and shows it.
func (w *accountWalk) partial(out pagedlist.Page[api.TransactionDetail], err error) (pagedlist.Page[api.TransactionDetail], error) {
	if len(out.Rows) == 0 {
		return out, err
	}
	out.HasNext = true
	return out, nil
}
