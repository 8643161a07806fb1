package ui

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// standingOrderAmount is what each execution sends, or the balance it
// tops the account up to.
func standingOrderAmount(o *api.StandingOrder) string {
	switch {
	case o.Amount != nil:
		return "-" + amountText(*o.Amount)
	case o.TargetAvailableBalance != nil:
		return "to " + amountText(*o.TargetAvailableBalance)
	}
	return "—"
}

// canCancel: a standing order still makes transfers, or waits for its
// consent to.
func canCancel(o *api.StandingOrder) bool {
	return o != nil && o.StatusInfo.Status != "" && o.StatusInfo.Status != "Canceled"
}

// orderCancel is the cancel of a standing order, asked for then run (x,
// Sandbox only).
type orderCancel struct {
	c   *common
	env *envState
	ctx context.Context
	key key.Binding
	ask *asking
	id  int // the cancel in flight, 0 when none
}

func newOrderCancel(c *common, env *envState) *orderCancel {
	return &orderCancel{c: c, env: env, ask: newAsking(),
		key: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "cancel standing order"))}
}

func (o *orderCancel) sync(so *api.StandingOrder) { o.key.SetEnabled(canCancel(so) && o.env.changes()) }

// handle answers the question, or asks it for so.
func (o *orderCancel) handle(msg tea.KeyPressMsg, so *api.StandingOrder) (tea.Cmd, bool) {
	if o.ask.waiting() {
		return o.ask.answer(msg), true
	}
	if so == nil || !key.Matches(msg, o.key) {
		return nil, false
	}
	id, label, account := so.ID, orDash(joinNonEmpty(" · ", so.Label, so.SepaBeneficiary.Name)), ""
	if so.Account != nil {
		account = so.Account.ID
	}
	c, env, a := o.c, o.env, objects(o.env)
	o.ask.open("Cancel the standing order "+label+"? It makes no transfer after that.", func() tea.Cmd {
		o.id = c.nextID()
		return change(c, env, o.ctx, o.id, account, id, func(ctx context.Context) (*api.StandingOrder, error) {
			return a.CancelStandingOrder(ctx, id)
		}, func(so *api.StandingOrder) string {
			return "The standing order " + label + " is " + so.StatusInfo.Status
		})
	})
	return nil, true
}

func (o *orderCancel) answered(m changedMsg, at where) tea.Cmd {
	if m.id != o.id || o.id == 0 {
		return nil
	}
	o.id = 0
	return changeFlash(m, at)
}

// standingOrderColumns: what it sends and when, to whom, its status.
func standingOrderColumns() []pagedlist.Column[api.StandingOrder] {
	return []pagedlist.Column[api.StandingOrder]{
		{Title: "Next", Width: 10, Cell: func(o *api.StandingOrder) string { return dayText(o.NextExecutionDate) }},
		{Title: "Amount", Width: 16, Right: true, Cell: standingOrderAmount},
		{Title: " Period", Width: 8, Drop: 2, Cell: func(o *api.StandingOrder) string { return " " + o.Period }},
		{Title: "Beneficiary · label", Width: 16, Flex: true, Cell: func(o *api.StandingOrder) string {
			return joinNonEmpty(" · ", o.SepaBeneficiary.Name, o.Label)
		}},
		{Title: "Status", Width: 14, Drop: 1, Cell: func(o *api.StandingOrder) string { return o.StatusInfo.Status }},
	}
}

// standingOrderScreen is one standing order: what it sends, when, to
// whom, and the transactions it made (its history of payments; enter
// opens one); in Sandbox x cancels it after a confirmation.
type standingOrderScreen struct {
	*detailList[api.StandingOrder, api.TransactionDetail]
	account key.Binding
	cancel  *orderCancel
}

func newStandingOrderScreenByID(c *common, env *envState, id string) *standingOrderScreen {
	return newStandingOrderScreen(c, env, id, nil)
}

func newStandingOrderScreen(c *common, env *envState, id string, so *api.StandingOrder) *standingOrderScreen {
	a := objects(env)
	item := newItemScreen(c, env, resourceStandingOrder, id, "standing order", a.StandingOrder, so)
	rows := newListScreen(c, env, listSpec[api.TransactionDetail]{
		title:    "Transactions",
		noun:     "transactions",
		columns:  txColumns(false),
		id:       func(t *api.TransactionDetail) string { return t.ID },
		fetch:    nestedPages(a.StandingOrderTransactions, id, env.API.PageSize()),
		empty:    func() string { return "This standing order has made no transfer yet." },
		open:     func(t api.TransactionDetail) tea.Cmd { return push(env.Name, newTxDetail(c, env, t)) },
		openDesc: "open transaction",
	})
	s := &standingOrderScreen{account: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "open account")),
		cancel: newOrderCancel(c, env)}
	s.detailList = newDetailList(item, rows, "Transactions", func(o *api.StandingOrder) string {
		return joinNonEmpty(" · ", o.Label, o.SepaBeneficiary.Name)
	}, s.fields)
	s.cancel.ctx = s.ctx
	s.syncKeys()
	return s
}

func (s *standingOrderScreen) capturing() bool { return s.cancel.ask.waiting() }
func (s *standingOrderScreen) busy() bool      { return s.detailList.busy() || s.cancel.id != 0 }

func (s *standingOrderScreen) syncKeys() {
	o := s.item.item
	s.account.SetEnabled(o != nil && o.Account != nil)
	s.cancel.sync(o)
}

func (s *standingOrderScreen) ShortHelp() []key.Binding {
	if s.cancel.ask.waiting() {
		return []key.Binding{s.cancel.ask.yes}
	}
	return append(s.detailList.ShortHelp(), s.account, s.cancel.key)
}

func (s *standingOrderScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.rows.list.Bindings(), s.ShortHelp()}
}

func (s *standingOrderScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	if m, ok := msg.(changedMsg); ok {
		if so, ok := m.item.(*api.StandingOrder); ok && m.err == nil && so.ID == s.id {
			s.item.item = so
			return tea.Batch(s.rows.list.Refresh(), s.cancel.answered(m, where{project: s.env.Project}))
		}
		return s.cancel.answered(m, where{project: s.env.Project})
	}
	return s.detailList.update(msg)
}

func (s *standingOrderScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	if cmd, ok := s.cancel.handle(msg, s.item.item); ok {
		return cmd, true
	}
	if key.Matches(msg, s.account) {
		return openCmd(s.env.Name, resourceAccount, s.item.item.Account.ID), true
	}
	return s.detailList.handleKey(msg)
}

func (s *standingOrderScreen) view() string {
	v := s.detailList.view()
	if !s.cancel.ask.waiting() || s.h <= 0 {
		return v
	}
	lines := strings.Split(v, "\n")
	lines[len(lines)-1] = s.cancel.ask.line(s.c, s.w)
	return strings.Join(lines, "\n")
}

func (s *standingOrderScreen) fields(o *api.StandingOrder) []field {
	st := s.c.styles
	si := &o.StatusInfo
	status := si.Status
	if !si.CanceledAt.IsZero() {
		status += " · " + dayText(si.CanceledAt)
	}
	amount := "—"
	switch {
	case o.Amount != nil:
		amount = amountText(*o.Amount) + " each " + strings.ToLower(periodNoun(o.Period))
	case o.TargetAvailableBalance != nil:
		amount = "what brings the available balance to " + amountText(*o.TargetAvailableBalance)
	}
	acct := "—"
	if a := o.Account; a != nil {
		acct = joinNonEmpty(" · ", a.Name, a.ID) + opensIt(st, s.account)
	}
	to := joinNonEmpty(" · ", o.SepaBeneficiary.Name, o.SepaBeneficiary.MaskedIBAN)
	if ad := o.SepaBeneficiary.Address; ad != nil {
		to = joinNonEmpty(", ", to, addressText(ad))
	}
	fs := []field{
		{label: "Sends", value: amount, wide: true},
		{label: "To", value: orDash(to), wide: true},
		{label: "Next", value: optDay(o.NextExecutionDate)}, {label: "Status", value: orDash(status)},
		{label: "First", value: optDay(o.FirstExecutionDate)}, {label: "Last", value: optDay(o.LastExecutionDate)},
		{label: "Period", value: orDash(o.Period)}, {label: "Mode", value: orDash(o.CreditTransferMode)},
		{label: "Reference", value: orDash(o.Reference)}, {label: "Created", value: optDay(o.CreatedAt)},
		{label: "Account", value: acct, wide: true},
	}
	if cs := si.Consent; cs != nil {
		fs = append(fs, field{label: "Consent", value: joinNonEmpty(" · ", cs.Status, cs.ConsentURL), wide: true})
	}
	if u := o.CreatedBy; u != nil {
		fs = append(fs, field{label: "By", value: orDash(joinNonEmpty(" ", u.FirstName, u.LastName)), wide: true})
	}
	return append(fs, field{label: "ID", value: o.ID, wide: true})
}

// periodNoun is a StandingOrderPeriod as "each …" reads it.
func periodNoun(p string) string {
	switch p {
	case "Daily":
		return "day"
	case "Weekly":
		return "week"
	case "Monthly":
		return "month"
	}
	return p
}

// optDay is a date, or a dash for none.
func optDay(t time.Time) string { return orDash(dayText(t)) }

// addressText is an address on one line.
func addressText(a *api.Address) string {
	return joinNonEmpty(", ", a.AddressLine1, a.AddressLine2, joinNonEmpty(" ", a.PostalCode, a.City), a.State, a.Country)
}
