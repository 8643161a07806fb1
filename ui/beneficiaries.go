package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// beneficiariesParams is how an account's trusted beneficiaries read: by
// label, as the platform lists them by default.
func beneficiariesParams(accountID string) api.BeneficiariesParams {
	return api.BeneficiariesParams{AccountID: accountID, OrderBy: "label", Direction: api.DirectionAsc}
}

// beneficiariesScreen is an account's Beneficiaries tab: its trusted
// beneficiaries by label; enter opens one with the transfers sent to it.
type beneficiariesScreen struct {
	*listScreen[api.Beneficiary]
}

func newBeneficiariesList(c *common, env *envState, accountID string) *beneficiariesScreen {
	// Read from the end, the labels come backwards.
	list := api.ListOf(objects(env).Beneficiaries, beneficiariesParams(accountID), env.API.PageSize())
	return &beneficiariesScreen{newListScreen(c, env, listSpec[api.Beneficiary]{
		title:      "Beneficiaries",
		noun:       "trusted beneficiaries",
		columns:    beneficiaryColumns(),
		id:         func(b *api.Beneficiary) string { return b.ID },
		fetch:      fetchList(list),
		reversible: list.Reversible(),
		pageSize:   list.PageSize(),
		empty:      func() string { return "No trusted beneficiaries on this account." },
		open: func(b api.Beneficiary) tea.Cmd {
			return push(env.Name, newBeneficiaryScreen(c, env, b.ID, &b))
		},
		openDesc: "open beneficiary",
	})}
}

// beneficiaryAccount is where a beneficiary is paid: a SEPA one's IBAN,
// an international one's route and currency.
func beneficiaryAccount(b *api.Beneficiary) string {
	if b.IBAN != "" {
		return iban.Format(b.IBAN)
	}
	return joinNonEmpty(" ", b.Route, b.Currency)
}

func beneficiaryColumns() []pagedlist.Column[api.Beneficiary] {
	return []pagedlist.Column[api.Beneficiary]{
		{Title: "Label", Width: 14, Flex: true, Cell: func(b *api.Beneficiary) string { return b.Label }},
		{Title: "Name", Width: 14, Flex: true, Drop: 2, Cell: func(b *api.Beneficiary) string { return b.Name }},
		{Title: "IBAN or route", Width: 34, Drop: 3, Cell: beneficiaryAccount},
		{Title: "Type", Width: 13, Drop: 4, Cell: func(b *api.Beneficiary) string { return b.Type }},
		{Title: "Status", Width: 14, Drop: 1, Cell: func(b *api.Beneficiary) string { return b.StatusInfo.Status }},
	}
}

// payeeCheck words a transfer's payee verification: what the bank of the
// account said of the name sent; a dash where none was made.
func payeeCheck(v *api.PayeeVerification) string {
	if v == nil {
		return "—"
	}
	switch v.Status {
	case "Match":
		return "✓ match"
	case "CloseMatch":
		return "~ close: " + orDash(v.NameSuggestion)
	case "NoMatch":
		return "✗ no match"
	case "VerificationNotPossible":
		return "· not possible"
	}
	return v.Status
}

// transferColumns: a statement line, and the payee verification.
func transferColumns() []pagedlist.Column[api.BeneficiaryTransfer] {
	tx := func(f func(*api.TransactionDetail) string) func(*api.BeneficiaryTransfer) string {
		return func(b *api.BeneficiaryTransfer) string { return f(&b.TransactionDetail) }
	}
	return []pagedlist.Column[api.BeneficiaryTransfer]{
		{Title: "Date", Width: 10, Cell: tx(func(t *api.TransactionDetail) string { return dayText(t.ExecutionDate) })},
		{Title: "Amount", Width: 16, Right: true, Cell: tx(func(t *api.TransactionDetail) string { return signedAmount(t.Side, t.Amount) })},
		{Title: " Status", Width: 10, Drop: 1, Cell: tx(func(t *api.TransactionDetail) string { return " " + t.StatusInfo.Status })},
		{Title: "Payee check", Width: 30, Drop: 2, Cell: func(b *api.BeneficiaryTransfer) string { return payeeCheck(b.Verification) }},
		{Title: "Label", Width: 12, Flex: true, Drop: 3, Cell: tx(func(t *api.TransactionDetail) string { return t.Label })},
	}
}

// beneficiaryScreen is one trusted beneficiary: whom, where, its status
// and since when, and the transfers sent to it with the payee
// verification each had (enter opens one).
type beneficiaryScreen struct {
	*detailList[api.Beneficiary, api.BeneficiaryTransfer]
	copyIBAN key.Binding
}

func newBeneficiaryScreenByID(c *common, env *envState, id string) *beneficiaryScreen {
	return newBeneficiaryScreen(c, env, id, nil)
}

func newBeneficiaryScreen(c *common, env *envState, id string, b *api.Beneficiary) *beneficiaryScreen {
	a := objects(env)
	item := newItemScreen(c, env, resourceBeneficiary, id, "trusted beneficiary", a.Beneficiary, b)
	rows := newListScreen(c, env, listSpec[api.BeneficiaryTransfer]{
		title:   "Transfers",
		noun:    "transfers",
		columns: transferColumns(),
		id:      func(t *api.BeneficiaryTransfer) string { return t.ID },
		fetch:   nestedPages(a.BeneficiaryTransfers, id, env.API.PageSize()),
		empty:   func() string { return "No transfer was sent to this beneficiary yet." },
		open: func(t api.BeneficiaryTransfer) tea.Cmd {
			return push(env.Name, newTxDetail(c, env, t.TransactionDetail))
		},
		openDesc: "open transfer",
	})
	s := &beneficiaryScreen{copyIBAN: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy IBAN"))}
	s.detailList = newDetailList(item, rows, "Transfers", func(b *api.Beneficiary) string { return orDash(joinNonEmpty(" · ", b.Label, b.Name)) }, s.fields)
	s.syncKeys()
	return s
}

func (s *beneficiaryScreen) syncKeys() {
	b := s.item.item
	s.copyIBAN.SetEnabled(b != nil && b.IBAN != "")
}

func (s *beneficiaryScreen) ShortHelp() []key.Binding {
	return append(s.detailList.ShortHelp(), s.copyIBAN)
}

func (s *beneficiaryScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.rows.list.Bindings(), s.ShortHelp()}
}

func (s *beneficiaryScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	return s.detailList.update(msg)
}

func (s *beneficiaryScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if key.Matches(msg, s.copyIBAN) {
		return copyCmd(s.c, s.item.item.IBAN, "IBAN copied"), true
	}
	return s.detailList.handleKey(msg)
}

func (s *beneficiaryScreen) fields(b *api.Beneficiary) []field {
	si := &b.StatusInfo
	status := si.Status
	switch {
	case !si.CanceledAt.IsZero():
		status += " since " + formatTime(si.CanceledAt)
	case !si.EnabledAt.IsZero():
		status += " since " + formatTime(si.EnabledAt)
	}
	fs := []field{
		{label: "Name", value: orDash(b.Name)}, {label: "Type", value: orDash(b.Type)},
		{label: "Account", value: orDash(beneficiaryAccount(b)), wide: true},
		{label: "Status", value: orDash(status), wide: true},
	}
	if a := b.Address; a != nil {
		fs = append(fs, field{label: "Address", value: orDash(addressText(a)), wide: true})
	}
	if cs := si.Consent; cs != nil {
		fs = append(fs, field{label: "Consent", value: joinNonEmpty(" · ", cs.Status, cs.ConsentURL), wide: true})
	}
	return append(fs, field{label: "Created", value: formatTime(b.CreatedAt)}, field{label: "Updated", value: formatTime(b.UpdatedAt)},
		field{label: "ID", value: b.ID, wide: true})
}
