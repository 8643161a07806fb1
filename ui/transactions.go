package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

type txListKeys struct {
	Filter, Search, ClearFilter key.Binding
}

// txListScreen is a list of transactions: one account's, or across
// accounts (the project's with a project token, the user's accounts'
// merged with a user token), with filters set from the keyboard.
type txListScreen struct {
	*listScreen[api.TransactionDetail]
	accountID string // "" across accounts
	keys      txListKeys
	filter    txFilter
	form      *txFilterForm // open while the filters are edited
	// source is the list read now (with the filters set): an account's,
	// the project's, or the user's accounts' merged (api.Transactions).
	source *api.List[api.TransactionDetail]
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
	fetch := t.fetch(env)
	t.listScreen = newListScreen(c, env, listSpec[api.TransactionDetail]{
		title:   title,
		noun:    "transactions",
		columns: txColumns(accountID == ""),
		id:      func(tx *api.TransactionDetail) string { return tx.ID },
		fetch:   fetch,
		// Across accounts, a user token merges the accounts' lists, which
		// cannot be read from the end: G reads every page before it.
		reversible: t.source.Reversible(),
		walkToEnd:  !t.source.Reversible(),
		pageSize:   t.source.PageSize(),
		empty:      t.emptyText,
		open: func(tx api.TransactionDetail) tea.Cmd {
			return push(env.Name, newTxDetail(c, env, tx))
		},
		openDesc: "open transaction",
		note:     t.note,
	})
	t.syncKeys()
	return t
}

// reopen is the list across accounts again with its filters (an
// account's list lives in its account's screen, which is a place of its
// own).
func (t *txListScreen) reopen(c *common, env *envState) screen {
	if t.accountID != "" {
		return nil
	}
	n := newTxListScreen(c, env, "")
	n.filter = t.filter
	n.spec.fetch = n.fetch(env)
	return n
}

// fetch reads the transactions with the filters set now, newest
// execution first.
func (t *txListScreen) fetch(env *envState) pagedlist.Fetch[api.TransactionDetail] {
	base := txParams(t.accountID)
	t.filter.apply(&base)
	t.source = api.Transactions(env.API, base, env.Project, env.API.PageSize())
	return fetchList(t.source)
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
	if m, ok := t.source.Merged(); ok {
		switch {
		case m.Ended && m.Accounts == 0:
			parts = append(parts, "you have no accounts")
		case m.Ended:
			parts = append(parts, fmt.Sprintf("all %d accounts read", m.Accounts))
		case m.Accounts == 0:
			parts = append(parts, "reading your accounts")
		case m.InTurn:
			parts = append(parts, fmt.Sprintf("%d of %d accounts read, one after another", m.Started, m.Accounts))
		case m.Started < m.Accounts:
			parts = append(parts, fmt.Sprintf("%d of %d accounts read", m.Started, m.Accounts))
		default:
			parts = append(parts, fmt.Sprintf("%d accounts merged", m.Accounts))
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
			return tea.Batch(cmd, t.query(t.fetch(t.env))), true
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
		return t.query(t.fetch(t.env)), true
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
