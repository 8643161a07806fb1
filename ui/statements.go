package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// newStatementsList lists one account's statements, the latest period
// first.
func newStatementsList(c *common, env *envState, accountID string) *listScreen[api.Statement] {
	list := api.ListOf(env.API.Statements, statementsParams(accountID), env.API.PageSize())
	return newListScreen(c, env, listSpec[api.Statement]{
		title:      "Statements",
		noun:       "statements",
		columns:    statementColumns(),
		id:         func(s *api.Statement) string { return s.ID },
		fetch:      fetchList(list),
		reversible: list.Reversible(),
		pageSize:   list.PageSize(),
		empty:      func() string { return "No statements for this account yet." },
		open: func(st api.Statement) tea.Cmd {
			return push(env.Name, newStatementScreen(c, env, st))
		},
		openDesc: "open statement",
	})
}

// statementsParams is how a statement list reads: the latest period
// first.
func statementsParams(accountID string) api.StatementsParams {
	return api.StatementsParams{AccountID: accountID, OrderBy: "openingDate", Direction: api.DirectionDesc}
}

// statementColumns: the period's dates, its two balances side by side in
// the order they happen, then the rest; the last column takes the width
// left over, so no amount ends up alone at the far right.
func statementColumns() []pagedlist.Column[api.Statement] {
	return []pagedlist.Column[api.Statement]{
		{Title: "From", Width: 10, Cell: func(s *api.Statement) string { return dayText(s.OpeningDate) }},
		{Title: "To", Width: 10, Cell: func(s *api.Statement) string { return dayText(s.ClosingDate) }},
		{Title: "Opening balance", Width: 16, Right: true, Drop: 2, Cell: func(s *api.Statement) string { return amountText(s.OpeningBalance) }},
		{Title: "Closing balance", Width: 16, Right: true, Drop: 1, Cell: func(s *api.Statement) string { return amountText(s.ClosingBalance) }},
		{Title: " Status", Width: 10, Drop: 3, Cell: func(s *api.Statement) string { return " " + s.StatusInfo.Status }},
		{Title: "Period", Width: 8, Drop: 4, Cell: func(s *api.Statement) string { return s.Period }},
		{Title: "Format", Width: 6, Flex: true, Drop: 5, Cell: func(s *api.Statement) string { return s.Format }},
	}
}

// statementScreen is one statement: its period, balances and totals, and
// where to download it (y copies the address).
type statementScreen struct {
	*itemScreen[api.Statement]
	copyURL key.Binding
}

func newStatementScreen(c *common, env *envState, st api.Statement) *statementScreen {
	s := &statementScreen{
		// The platform has no query for one statement: the list's row is
		// all there is, and nothing opens a statement by id (no kind).
		itemScreen: newItemScreen(c, env, "", st.ID, "statement", nil, &st),
		copyURL:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy download URL")),
	}
	s.copyURL.SetEnabled(st.StatusInfo.URL != "")
	return s
}

func (s *statementScreen) title() string {
	st := s.item.item
	return "Statement " + dayText(st.OpeningDate) + " – " + dayText(st.ClosingDate)
}

func (s *statementScreen) ShortHelp() []key.Binding   { return []key.Binding{s.copyURL} }
func (s *statementScreen) FullHelp() [][]key.Binding  { return [][]key.Binding{s.ShortHelp()} }
func (s *statementScreen) update(msg tea.Msg) tea.Cmd { return nil }

func (s *statementScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if key.Matches(msg, s.copyURL) {
		return copyCmd(s.c, s.item.item.StatusInfo.URL, "Download URL copied"), true
	}
	return nil, false
}

func (s *statementScreen) view() string {
	return s.itemScreen.view(s.title(), s.fields, key.Binding{})
}

func (s *statementScreen) fields(st *api.Statement) []field {
	return []field{
		{label: "Period", value: orDash(st.Period)}, {label: "Status", value: orDash(st.StatusInfo.Status)},
		{label: "Opening", value: amountText(st.OpeningBalance)}, {label: "Closing", value: amountText(st.ClosingBalance)},
		{label: "Credits", value: amountText(st.TotalCredits)}, {label: "Debits", value: amountText(st.TotalDebits)},
		{label: "Fee credits", value: amountText(st.FeeCredits)}, {label: "Fee debits", value: amountText(st.FeeDebits)},
		{label: "Format", value: orDash(st.Format)}, {label: "Created", value: formatTime(st.CreatedAt)},
		{label: "Download", value: orDash(st.StatusInfo.URL), wide: true},
		{label: "ID", value: st.ID, wide: true},
	}
}
