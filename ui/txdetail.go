package ui

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
)

type txDetailKeys struct {
	Account, Copy, Refresh key.Binding
}

// txDetailScreen is one transaction in full. Opened from a list it shows
// the row, which has every field; opened by id it reads the transaction
// with the project's token, the only one the platform answers. In Sandbox
// s offers what the simulations allow for its type and status (book,
// reject, return, recall; a card authorization's debit or release…), and
// the screen reads it again when a simulation moved it.
type txDetailScreen struct {
	*itemScreen[api.TransactionDetail]
	keys txDetailKeys
	sim  *simulating
}

func newTxDetail(c *common, env *envState, t api.TransactionDetail) *txDetailScreen {
	return newTxDetailScreen(c, env, t.ID, &t)
}

func newTxDetailByID(c *common, env *envState, id string) *txDetailScreen {
	return newTxDetailScreen(c, env, id, nil)
}

func newTxDetailScreen(c *common, env *envState, id string, t *api.TransactionDetail) *txDetailScreen {
	var get func(context.Context, string) (*api.TransactionDetail, error)
	if p := env.ProjectAPI; p != nil {
		get = p.Transaction
	}
	s := &txDetailScreen{
		itemScreen: newItemScreen(c, env, resourceTransaction, id, "transaction", get, t),
		keys: txDetailKeys{
			Account: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "open account")),
			Copy:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy ID")),
			Refresh: refreshKey(),
		},
	}
	s.noGet = &noProjectAPIError{env: string(env.Name)}
	s.sim = newSimulating(c, env, s.ctx, "simulate", "simulate", s.simulations, func() simTouchedMsg {
		if t := s.item.item; t != nil && t.Account != nil {
			return simTouchedMsg{accountID: t.Account.ID}
		}
		return simTouchedMsg{}
	})
	s.syncKeys()
	return s
}

// simulations are those that fit the transaction as last read.
func (s *txDetailScreen) simulations() []simAction {
	sim, t := s.env.simulator(), s.item.item
	if sim == nil || t == nil {
		return nil
	}
	return txSims(sim, t)
}

func (s *txDetailScreen) capturing() bool { return s.sim.capturing() }
func (s *txDetailScreen) busy() bool      { return s.item.busy() || s.sim.panel.busy() }

func (s *txDetailScreen) title() string {
	if t := s.item.item; t != nil && t.Label != "" {
		return t.Label
	}
	return "Transaction"
}

func (s *txDetailScreen) syncKeys() {
	t := s.item.item
	s.keys.Account.SetEnabled(t != nil && t.Account != nil && t.Account.ID != "")
	s.keys.Refresh.SetEnabled(s.get != nil)
	s.sim.syncKeys()
}

func (s *txDetailScreen) ShortHelp() []key.Binding {
	if s.capturing() {
		return s.sim.help()
	}
	return append(append([]key.Binding{s.keys.Account, s.keys.Copy}, s.sim.help()...), s.keys.Refresh)
}

func (s *txDetailScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *txDetailScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	if s.item.apply(msg) {
		return nil
	}
	if m, ok := msg.(simTouchedMsg); ok && m.touches(s.id) && s.get != nil {
		return s.load()
	}
	cmd, _ := s.sim.update(msg)
	return cmd
}

func (s *txDetailScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	if cmd, ok := s.sim.handleKey(msg); ok {
		return cmd, true
	}
	switch {
	case key.Matches(msg, s.keys.Account):
		return openCmd(s.env.Name, resourceAccount, s.item.item.Account.ID), true
	case key.Matches(msg, s.keys.Copy):
		return copyCmd(s.c, s.id, "Transaction ID copied"), true
	case key.Matches(msg, s.keys.Refresh):
		return s.load(), true
	}
	return nil, false
}

func (s *txDetailScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	return s.sim.view(strings.Join(s.lines(s.title(), s.fields, s.keys.Refresh), "\n"), s.w, s.h)
}

func (s *txDetailScreen) fields(t *api.TransactionDetail) []field {
	st := s.c.styles
	si := &t.StatusInfo
	fs := []field{
		{label: "Amount", value: st.bold.Render(signedAmount(t.Side, t.Amount))}, {label: "Side", value: orDash(t.Side)},
		{label: "Type", value: orDash(t.Type)}, {label: "Product", value: orDash(t.PaymentProduct)},
		{label: "Status", value: txStatusText(si), wide: true},
		{label: "Counterparty", value: orDash(t.Counterparty)}, {label: "Its account", value: partyText(t.CounterpartyParty())},
		{label: "Reference", value: orDash(t.Reference)}, {label: "External ref", value: orDash(t.ExternalReference)},
		{label: "Label", value: orDash(t.Label), wide: true},
		{label: "Created", value: formatTime(t.CreatedAt)}, {label: "Executed", value: formatTime(t.ExecutionDate)},
		{label: "Booked", value: formatTime(si.BookingDate)}, {label: "Value date", value: formatTime(si.ValueDate)},
		{label: "Updated", value: formatTime(t.UpdatedAt)},
	}
	if b := si.BalanceAfter; b != nil && b.Amount != nil {
		fs = append(fs, field{label: "Balance after", value: amountText(*b.Amount)})
	}
	if t.FeesType != "" {
		fs = append(fs, field{label: "Fees", value: t.FeesType})
	}
	acct := "—"
	if a := t.Account; a != nil {
		acct = joinNonEmpty(" · ", a.Name, a.ID) + opensIt(st, s.keys.Account)
	}
	return append(fs, field{label: "Account", value: acct, wide: true}, field{label: "ID", value: t.ID, wide: true})
}

// txStatusText is a transaction's status with its reason and the date
// that goes with it.
func txStatusText(si *api.TransactionStatusInfo) string {
	parts := []string{orDash(si.Status)}
	if si.Reason != "" {
		r := "reason " + si.Reason
		if si.HasFallback != nil && *si.HasFallback {
			r += " (with fallback)"
		}
		parts = append(parts, r)
	}
	dates := []struct {
		label string
		t     string
	}{
		{"pending until", optTime(si.PendingEndDate)}, {"executes", optTime(si.ExecutionDate)},
		{"canceled", optTime(si.CanceledDate)}, {"deferred until", optTime(si.DeferredEndDate)},
		{"released", optTime(si.ReleaseDate)}, {"settled", si.SettledAt},
	}
	for _, d := range dates {
		if d.t != "" {
			parts = append(parts, d.label+" "+d.t)
		}
	}
	if si.SettlementTransactionID != "" {
		parts = append(parts, "by "+si.SettlementTransactionID)
	}
	return strings.Join(parts, " · ")
}

// optTime is t, or nothing when it is not set.
func optTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return formatTime(t)
}

// partyText is the counterparty's account: its IBAN (masked when the
// platform hides it), BIC or account number.
func partyText(p *api.TransactionParty) string {
	if p == nil {
		return "—"
	}
	acct := iban.Format(p.IBAN)
	if p.IBAN == "" {
		acct = p.MaskedIBAN
	}
	if p.AccountNumber != "" {
		acct = joinNonEmpty(" ", acct, "account "+p.AccountNumber)
	}
	return orDash(joinNonEmpty(" · ", acct, p.BIC))
}
