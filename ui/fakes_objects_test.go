package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/partnertui/partnertui/api"
)

// fakeObjects is the account's other objects in the fake API: virtual
// IBANs, standing orders, trusted beneficiaries and their transfers, card
// spending, account holders, merchant profiles and payment links (made up
// from the accounts' ids), what the Sandbox changes did to them, and the
// requests for them.
type fakeObjects struct {
	objCalls int // every read and change of these
	// vibans and orders are the virtual IBANs and standing orders changed
	// since the start, by account id; the others are made up.
	vibans  map[string][]api.VirtualIban
	orders  map[string][]api.StandingOrder
	changes []string // "add acc-0", "cancel viban-…", "sdd viban-… allow", "cancel so-…"
}

var objDay = time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)

func makeVirtualIbans(accountID string) []api.VirtualIban {
	n := accountID[len(accountID)-1:]
	return []api.VirtualIban{
		{ID: "viban-" + accountID + "-0", IBAN: "FR7630006000011234567890" + n + "89", BIC: "SWNBFR22", Label: "Invoices", Status: "Enabled",
			BankDetails: "Account Holder " + n + " · IBAN FR76 3000 6000 0112 3456 7890 " + n + "89 · BIC SWNBFR22"},
		{ID: "viban-" + accountID + "-1", IBAN: "FR7630006000019876543210" + n + "42", BIC: "SWNBFR22", Label: "Marketplace", Status: "Enabled", BlockSDD: true},
		{ID: "viban-" + accountID + "-2", IBAN: "FR7630006000015555555555" + n + "12", BIC: "SWNBFR22", Label: "Old shop", Status: "Canceled", BlockSDD: true},
	}
}

func makeStandingOrders(accountID string) []api.StandingOrder {
	ref := &api.AccountRef{ID: accountID, Name: "Account " + accountID[len("acc-"):]}
	return []api.StandingOrder{
		{ID: "so-" + accountID + "-0", Label: "Office rent", Reference: "RENT-2026", Amount: &api.Amount{Value: "1250.00", Currency: "EUR"},
			Period: "Monthly", FirstExecutionDate: objDay.AddDate(0, -6, 0), NextExecutionDate: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
			SepaBeneficiary:    api.SepaBeneficiary{Name: "SCI Les Tilleuls", MaskedIBAN: "FR76 **** **** **** **** **** 123"},
			StatusInfo:         api.StandingOrderStatusInfo{Status: "Enabled"},
			CreditTransferMode: "Regular", CreatedBy: &api.MembershipUser{ID: "user-1", FirstName: "Jane", LastName: "Doe"},
			Account: ref, CreatedAt: objDay.AddDate(0, -6, -3), UpdatedAt: objDay},
		{ID: "so-" + accountID + "-1", Label: "Savings top-up", TargetAvailableBalance: &api.Amount{Value: "500.00", Currency: "EUR"},
			Period: "Weekly", FirstExecutionDate: objDay.AddDate(0, -2, 0), LastExecutionDate: objDay.AddDate(0, 0, -7),
			SepaBeneficiary: api.SepaBeneficiary{Name: "Jane Doe", MaskedIBAN: "DE89 **** **** **** **** 00"},
			StatusInfo:      api.StandingOrderStatusInfo{Status: "Canceled", CanceledAt: objDay.AddDate(0, 0, -3)},
			Account:         ref, CreatedAt: objDay.AddDate(0, -2, -1), UpdatedAt: objDay.AddDate(0, 0, -3)},
	}
}

// makeUpcoming are two transfers due to leave accountID, in the fake's
// list order (the latest first).
func makeUpcoming(accountID string) []api.TransactionDetail {
	out := make([]api.TransactionDetail, 2)
	for i := range out {
		due := time.Date(2026, 12, 15-14*i, 0, 0, 0, 0, time.UTC)
		out[i] = api.TransactionDetail{ID: fmt.Sprintf("up-%s-%d", accountID, i), Side: "Debit", Type: "SepaCreditTransferOut",
			Amount: api.Amount{Value: []string{"89.90", "1250.00"}[i], Currency: "EUR"}, Label: []string{"Phone plan", "Office rent"}[i],
			Counterparty: []string{"Telco SA", "SCI Les Tilleuls"}[i], PaymentProduct: "SEPACreditTransfer",
			ExecutionDate: due, CreatedAt: objDay, UpdatedAt: objDay, StatusInfo: api.TransactionStatusInfo{Status: "Upcoming"},
			Account: &api.AccountRef{ID: accountID}}
	}
	return out
}

func makeBeneficiaries(accountID string) []api.Beneficiary {
	return []api.Beneficiary{
		{Typename: "TrustedSepaBeneficiary", ID: "ben-" + accountID + "-0", Name: "SCI Les Tilleuls", Label: "Landlord", Type: "Sepa",
			IBAN: "FR7630006000011234567890189", Address: &api.Address{AddressLine1: "4 rue des Tilleuls", PostalCode: "69003", City: "Lyon", Country: "FRA"},
			StatusInfo: api.BeneficiaryStatusInfo{Status: "Enabled", EnabledAt: objDay.AddDate(0, -6, 0)}, CreatedAt: objDay.AddDate(0, -6, 0), UpdatedAt: objDay},
		{Typename: "TrustedInternationalBeneficiary", ID: "ben-" + accountID + "-1", Name: "Acme Corp", Label: "US supplier", Type: "International",
			Currency: "USD", Route: "Aba",
			StatusInfo: api.BeneficiaryStatusInfo{Status: "ConsentPending", Consent: &api.Consent{ID: "consent-1", Status: "Created", ConsentURL: "https://consent.example/c/1"}},
			CreatedAt:  objDay, UpdatedAt: objDay},
	}
}

// makeTransfers are three transfers sent to a beneficiary: verified a
// match, a close match, and none.
func makeTransfers(beneficiaryID string) []api.BeneficiaryTransfer {
	checks := []*api.PayeeVerification{{Status: "Match"}, {Status: "CloseMatch", NameSuggestion: "SCI LES TILLEULS SARL"}, nil}
	out := make([]api.BeneficiaryTransfer, len(checks))
	for i, v := range checks {
		day := objDay.AddDate(0, -i, 0)
		out[i] = api.BeneficiaryTransfer{Verification: v, TransactionDetail: api.TransactionDetail{
			ID: fmt.Sprintf("tr-%s-%d", beneficiaryID, i), Side: "Debit", Type: "SepaCreditTransferOut", Typename: "SEPACreditTransferTransaction",
			Amount: api.Amount{Value: "1250.00", Currency: "EUR"}, Label: "Rent " + day.Format("2006-01"), Counterparty: "SCI Les Tilleuls",
			PaymentProduct: "SEPACreditTransfer", ExecutionDate: day, CreatedAt: day, UpdatedAt: day,
			StatusInfo: api.TransactionStatusInfo{Status: "Booked", BookingDate: day, ValueDate: day}}}
	}
	return out
}

// makeHolders is each account's holder: its verification goes through
// every status.
func makeHolders(accounts []api.Account) []api.AccountHolder {
	verif := []api.VerificationStatusInfo{
		{Status: "Verified", At: objDay},
		{Status: "WaitingForInformation", At: objDay, Requirements: []string{"SupportingDocumentsRequired", "TaxIdRequired"}},
		{Status: "Refused", At: objDay, Reason: "The identity document had expired"},
		{Status: "Pending", At: objDay},
	}
	out := make([]api.AccountHolder, len(accounts))
	for i, a := range accounts {
		typ := "Individual"
		if i%2 == 1 {
			typ = "Company"
		}
		out[i] = api.AccountHolder{HolderDetail: api.HolderDetail{ID: "holder-" + a.ID, VerificationStatus: verif[i%4].Status,
			Info:             api.HolderInfoDetail{Type: typ, Name: a.Holder.Info.Name},
			StatusInfo:       &api.HolderStatusInfo{Status: "Enabled"},
			ResidencyAddress: &api.Address{AddressLine1: "1 rue de la Paix", PostalCode: "75002", City: "Paris", Country: "FRA"}},
			VerificationStatusInfo: verif[i%4], CreatedAt: objDay.AddDate(0, 0, -i), UpdatedAt: objDay}
	}
	return out
}

func makeMerchantProfiles(accounts []api.Account) []api.MerchantProfile {
	statuses := []string{"Enabled", "PendingReview", "Suspended"}
	out := make([]api.MerchantProfile, min(len(accounts), len(statuses)))
	for i := range out {
		out[i] = api.MerchantProfile{ID: "mp-" + strconv.Itoa(i), MerchantName: "Shop " + strconv.Itoa(i), ProductType: "Goods",
			AccountID: accounts[i].ID, Status: statuses[i], WebsiteURL: "https://shop" + strconv.Itoa(i) + ".example",
			ExpectedAverageBasket: api.Amount{Value: "40.00", Currency: "EUR"},
			PaymentMethods: []api.MerchantPaymentMethod{
				{ID: "pm-" + strconv.Itoa(i) + "-card", Type: "Card", Status: "Enabled", Version: 1, UpdatedAt: objDay},
				{ID: "pm-" + strconv.Itoa(i) + "-sdd", Type: "SepaDirectDebitCore", Status: "PendingReview", Version: 2, UpdatedAt: objDay},
			},
			CreatedAt: objDay.AddDate(0, 0, -i), UpdatedAt: objDay}
	}
	return out
}

// makePaymentLinks are a profile's links: one paid, one payable, one
// expired unpaid.
func makePaymentLinks(p api.MerchantProfile) []api.PaymentLink {
	ref := &api.MerchantProfileRef{ID: p.ID, MerchantName: p.MerchantName, AccountID: p.AccountID}
	return []api.PaymentLink{
		{ID: "pl-" + p.ID + "-0", URL: "https://pay.example/l/0", Label: "Order 1001", Reference: "INV-1001", Amount: api.Amount{Value: "59.00", Currency: "EUR"},
			StatusInfo: api.PaymentLinkStatusInfo{Status: "Completed", CompletedAt: objDay.Add(26 * time.Hour)}, Sequence: "OneOff",
			Customer: &api.PaymentLinkCustomer{Name: "Paul Martin"}, PaymentMethods: []string{"Card"}, MerchantProfile: ref, CreatedAt: objDay},
		{ID: "pl-" + p.ID + "-1", URL: "https://pay.example/l/1", Label: "Order 1002", Amount: api.Amount{Value: "120.00", Currency: "EUR"},
			StatusInfo: api.PaymentLinkStatusInfo{Status: "Active", ExpiresAt: objDay.AddDate(0, 4, 0)}, Sequence: "OneOff",
			PaymentMethods: []string{"Card", "SepaDirectDebitCore"}, MerchantProfile: ref, CreatedAt: objDay.Add(-time.Hour)},
		{ID: "pl-" + p.ID + "-2", URL: "https://pay.example/l/2", Label: "Order 0999", Amount: api.Amount{Value: "15.50", Currency: "EUR"},
			StatusInfo: api.PaymentLinkStatusInfo{Status: "Expired", ExpiredAt: objDay.AddDate(0, -1, 0)}, Sequence: "OneOff",
			PaymentMethods: []string{"Card"}, MerchantProfile: ref, CreatedAt: objDay.AddDate(0, -5, 0)},
	}
}

// objRead counts a read and fails it when the fake does.
func (f *fakeAPI) objRead() error {
	f.objCalls++
	return f.err
}

func (f *fakeAPI) vibansOf(accountID string) []api.VirtualIban {
	if v, ok := f.vibans[accountID]; ok {
		return v
	}
	return makeVirtualIbans(accountID)
}

func (f *fakeAPI) VirtualIbans(ctx context.Context, p api.VirtualIbansParams) (*api.Page[api.VirtualIban], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	return f.virtualIbans(p)
}

// virtualIbans is VirtualIbans with f.mu held, not recorded.
func (f *fakeAPI) virtualIbans(p api.VirtualIbansParams) (*api.Page[api.VirtualIban], error) {
	if _, ok := f.account(p.AccountID); !ok {
		return nil, fmt.Errorf("account %s: %w", p.AccountID, api.ErrNotFound)
	}
	var rows []api.VirtualIban
	for _, v := range f.vibansOf(p.AccountID) {
		if len(p.Statuses) == 0 || slices.Contains(p.Statuses, v.Status) {
			rows = append(rows, v)
		}
	}
	return fakePage(rows, func(v *api.VirtualIban) string { return v.ID }, p.After, p.First, false)
}

// changeViban applies change to the virtual IBAN id, wherever it is.
func (f *fakeAPI) changeViban(id string, change func(*api.VirtualIban)) (*api.VirtualIban, error) {
	for _, a := range f.accounts {
		vs := slices.Clone(f.vibansOf(a.ID))
		for i := range vs {
			if vs[i].ID == id {
				change(&vs[i])
				if f.vibans == nil {
					f.vibans = map[string][]api.VirtualIban{}
				}
				f.vibans[a.ID] = vs
				v := vs[i]
				return &v, nil
			}
		}
	}
	return nil, &api.RejectionError{Env: "sandbox", Type: "IbanEntryNotFoundRejection", Message: "no virtual IBAN " + id}
}

func (f *fakeAPI) AddVirtualIban(ctx context.Context, accountID string) (*api.VirtualIban, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	f.changes = append(f.changes, "add "+accountID)
	vs := f.vibansOf(accountID)
	v := api.VirtualIban{ID: fmt.Sprintf("viban-%s-new%d", accountID, len(vs)), IBAN: "FR7630006000017777777777" + strconv.Itoa(len(vs)) + "55",
		BIC: "SWNBFR22", Status: "Enabled"}
	if f.vibans == nil {
		f.vibans = map[string][]api.VirtualIban{}
	}
	f.vibans[accountID] = append([]api.VirtualIban{v}, vs...)
	return &v, nil
}

func (f *fakeAPI) CancelVirtualIban(ctx context.Context, id string) (*api.VirtualIban, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	f.changes = append(f.changes, "cancel "+id)
	return f.changeViban(id, func(v *api.VirtualIban) { v.Status = "Canceled" })
}

func (f *fakeAPI) SetVirtualIbanSDD(ctx context.Context, id string, allow bool) (*api.VirtualIban, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	f.changes = append(f.changes, fmt.Sprintf("sdd %s allow=%v", id, allow))
	return f.changeViban(id, func(v *api.VirtualIban) { v.BlockSDD = !allow })
}

func (f *fakeAPI) ordersOf(accountID string) []api.StandingOrder {
	if o, ok := f.orders[accountID]; ok {
		return o
	}
	return makeStandingOrders(accountID)
}

func (f *fakeAPI) StandingOrders(ctx context.Context, p api.StandingOrdersParams) (*api.Page[api.StandingOrder], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	return f.standingOrders(p)
}

func (f *fakeAPI) standingOrders(p api.StandingOrdersParams) (*api.Page[api.StandingOrder], error) {
	if _, ok := f.account(p.AccountID); !ok {
		return nil, fmt.Errorf("account %s: %w", p.AccountID, api.ErrNotFound)
	}
	return fakePage(f.ordersOf(p.AccountID), func(o *api.StandingOrder) string { return o.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
}

func (f *fakeAPI) standingOrder(id string) (*api.StandingOrder, string) {
	for _, a := range f.accounts {
		for _, o := range f.ordersOf(a.ID) {
			if o.ID == id {
				return &o, a.ID
			}
		}
	}
	return nil, ""
}

func (f *fakeAPI) StandingOrder(ctx context.Context, id string) (*api.StandingOrder, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	if o, _ := f.standingOrder(id); o != nil {
		return o, nil
	}
	return nil, fmt.Errorf("standing order %s: %w", id, api.ErrNotFound)
}

func (f *fakeAPI) StandingOrderTransactions(ctx context.Context, p api.NestedParams) (*api.Page[api.TransactionDetail], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	var rows []api.TransactionDetail
	for _, t := range makeTransfers(p.ID) {
		rows = append(rows, t.TransactionDetail)
	}
	return fakePage(rows, func(t *api.TransactionDetail) string { return t.ID }, p.After, p.First, false)
}

func (f *fakeAPI) CancelStandingOrder(ctx context.Context, id string) (*api.StandingOrder, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	f.changes = append(f.changes, "cancel "+id)
	o, acct := f.standingOrder(id)
	if o == nil {
		return nil, &api.RejectionError{Env: "sandbox", Type: "StandingOrderNotFoundRejection", Message: "no standing order " + id}
	}
	os := slices.Clone(f.ordersOf(acct))
	for i := range os {
		if os[i].ID == id {
			os[i].StatusInfo = api.StandingOrderStatusInfo{Status: "Canceled", CanceledAt: testNow}
			o = &os[i]
		}
	}
	if f.orders == nil {
		f.orders = map[string][]api.StandingOrder{}
	}
	f.orders[acct] = os
	c := *o
	return &c, nil
}

func (f *fakeAPI) Beneficiaries(ctx context.Context, p api.BeneficiariesParams) (*api.Page[api.Beneficiary], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	return f.beneficiaries(p)
}

func (f *fakeAPI) beneficiaries(p api.BeneficiariesParams) (*api.Page[api.Beneficiary], error) {
	if _, ok := f.account(p.AccountID); !ok {
		return nil, fmt.Errorf("account %s: %w", p.AccountID, api.ErrNotFound)
	}
	return fakePage(makeBeneficiaries(p.AccountID), func(b *api.Beneficiary) string { return b.ID }, p.After, p.First, p.Direction == api.DirectionDesc)
}

func (f *fakeAPI) Beneficiary(ctx context.Context, id string) (*api.Beneficiary, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	for _, a := range f.accounts {
		for _, b := range makeBeneficiaries(a.ID) {
			if b.ID == id {
				return &b, nil
			}
		}
	}
	return nil, fmt.Errorf("trusted beneficiary %s: %w", id, api.ErrNotFound)
}

func (f *fakeAPI) BeneficiaryTransfers(ctx context.Context, p api.NestedParams) (*api.Page[api.BeneficiaryTransfer], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	return fakePage(makeTransfers(p.ID), func(t *api.BeneficiaryTransfer) string { return t.ID }, p.After, p.First, false)
}

// CardSpending: each card has a monthly limit of the partner's, of which
// 1,250.00 is used, and a daily one of the holder's, whose use is not
// reported.
func (f *fakeAPI) CardSpending(ctx context.Context, id string) (*api.CardSpending, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	return &api.CardSpending{CardID: id,
		Limits: []api.SpendingLimit{{Type: "Partner", Period: "Monthly", Amount: api.Amount{Value: "2000.00", Currency: "EUR"}},
			{Type: "AccountHolder", Period: "Daily", Amount: api.Amount{Value: "300.00", Currency: "EUR"}}},
		Spending: &api.Spending{Period: "Monthly", Amount: &api.Amount{Value: "1250.00", Currency: "EUR"},
			Start: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		MemberLimits:   []api.SpendingLimit{{Type: "AccountHolder", Period: "Weekly", Amount: api.Amount{Value: "1000.00", Currency: "EUR"}}},
		MemberSpending: &api.Spending{Period: "Weekly", Amount: &api.Amount{Value: "1000.00", Currency: "EUR"}},
	}, nil
}

func (f *fakeAPI) AccountHolders(ctx context.Context, p api.AccountHoldersParams) (*api.Page[api.AccountHolder], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	var rows []api.AccountHolder
	for _, h := range makeHolders(f.accounts) {
		if len(p.VerificationStatuses) == 0 || slices.Contains(p.VerificationStatuses, h.VerificationStatusInfo.Status) {
			rows = append(rows, h)
		}
	}
	return fakePage(rows, func(h *api.AccountHolder) string { return h.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
}

func (f *fakeAPI) AccountHolder(ctx context.Context, id string) (*api.AccountHolder, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	for _, h := range makeHolders(f.accounts) {
		if h.ID == id {
			return &h, nil
		}
	}
	return nil, fmt.Errorf("account holder %s: %w", id, api.ErrNotFound)
}

func (f *fakeAPI) AccountHolderAccounts(ctx context.Context, p api.NestedParams) (*api.Page[api.Account], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	var rows []api.Account
	for _, a := range f.accounts {
		if "holder-"+a.ID == p.ID {
			rows = append(rows, a)
		}
	}
	return fakePage(rows, func(a *api.Account) string { return a.ID }, p.After, p.First, false)
}

func (f *fakeAPI) MerchantProfiles(ctx context.Context, p api.MerchantProfilesParams) (*api.Page[api.MerchantProfile], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	var rows []api.MerchantProfile
	for _, m := range makeMerchantProfiles(f.accounts) {
		if (len(p.Statuses) == 0 || slices.Contains(p.Statuses, m.Status)) && (p.AccountID == "" || p.AccountID == m.AccountID) {
			rows = append(rows, m)
		}
	}
	return fakePage(rows, func(m *api.MerchantProfile) string { return m.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
}

func (f *fakeAPI) MerchantProfile(ctx context.Context, id string) (*api.MerchantProfile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	for _, m := range makeMerchantProfiles(f.accounts) {
		if m.ID == id {
			return &m, nil
		}
	}
	return nil, fmt.Errorf("merchant profile %s: %w", id, api.ErrNotFound)
}

func (f *fakeAPI) PaymentLinks(ctx context.Context, p api.PaymentLinksParams) (*api.Page[api.PaymentLink], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	for _, m := range makeMerchantProfiles(f.accounts) {
		if m.ID == p.MerchantProfileID {
			return fakePage(makePaymentLinks(m), func(l *api.PaymentLink) string { return l.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
		}
	}
	return nil, fmt.Errorf("merchant profile %s: %w", p.MerchantProfileID, api.ErrNotFound)
}

func (f *fakeAPI) PaymentLink(ctx context.Context, id string) (*api.PaymentLink, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.objRead(); err != nil {
		return nil, err
	}
	for _, m := range makeMerchantProfiles(f.accounts) {
		for _, l := range makePaymentLinks(m) {
			if l.ID == id {
				return &l, nil
			}
		}
	}
	return nil, fmt.Errorf("payment link %s: %w", id, api.ErrNotFound)
}

// objectViewParts answers the account view's parts of the objects, each
// read as its list alone reads it.
func (f *fakeAPI) objectViewParts(ctx context.Context, v *api.AccountView, p api.AccountViewParams, answered *int) []error {
	upcoming := func(ctx context.Context, q api.TransactionsParams) (*api.Page[api.TransactionDetail], error) {
		return f.transactionList(ctx, q)
	}
	return []error{
		viewPart(ctx, v, p, answered, api.ViewVirtualIbans, func(_ context.Context, q api.VirtualIbansParams) (*api.Page[api.VirtualIban], error) {
			return f.virtualIbans(q)
		}),
		viewPart(ctx, v, p, answered, api.ViewUpcoming, upcoming),
		viewPart(ctx, v, p, answered, api.ViewStandingOrders, func(_ context.Context, q api.StandingOrdersParams) (*api.Page[api.StandingOrder], error) {
			return f.standingOrders(q)
		}),
		viewPart(ctx, v, p, answered, api.ViewBeneficiaries, func(_ context.Context, q api.BeneficiariesParams) (*api.Page[api.Beneficiary], error) {
			return f.beneficiaries(q)
		}),
	}
}

// makeOnboardings are the project's onboardings: one Invalid with what it
// lacks, one Valid, one Finalized that opened an account.
func makeOnboardings() []api.Onboarding {
	return []api.Onboarding{
		{Typename: "IndividualAccountHolderOnboarding", ID: "onb-0", Status: "Invalid", OnboardingURL: "https://onboarding.example/o/0",
			Errors: []api.OnboardingFieldError{{Field: "accountAdmin.birthDate", Errors: []string{"Missing"}},
				{Field: "accountAdmin.email", Errors: []string{"Invalid"}, Details: "not an email address"}},
			AccountName: "Main account", AccountAdmin: &api.OnboardingAdmin{FirstName: "Léa", LastName: "Garnier", Email: "lea@"},
			Documents: &api.SupportingDocuments{ID: "sdc-0", Status: "WaitingForDocument", Required: []string{"ProofOfIdentity", "ProofOfIndividualAddress"},
				Documents: []api.SupportingDocumentStatus{{Purpose: "ProofOfIdentity", Status: "Uploaded"}}},
			CreatedAt: objDay, UpdatedAt: objDay.Add(time.Hour)},
		{Typename: "CompanyAccountHolderOnboarding", ID: "onb-1", Status: "Valid", OnboardingURL: "https://onboarding.example/o/1",
			CompanyName: "Garnier SAS", AccountName: "Operations", AccountAdmin: &api.OnboardingAdmin{FirstName: "Paul", LastName: "Garnier", Email: "paul@garnier.example"},
			CreatedAt: objDay.AddDate(0, 0, -1), UpdatedAt: objDay},
		{Typename: "IndividualAccountHolderOnboarding", ID: "onb-2", Status: "Finalized", OnboardingURL: "https://onboarding.example/o/2",
			AccountName: "Savings", Account: &api.AccountRef{ID: "acc-0", Name: "Account 0"},
			AccountAdmin: &api.OnboardingAdmin{FirstName: "Jane", LastName: "Doe", Email: "jane@example.com"},
			CreatedAt:    objDay.AddDate(0, 0, -9), UpdatedAt: objDay.AddDate(0, 0, -8)},
	}
}

func makeCapitalDeposits() []api.CapitalDeposit {
	return []api.CapitalDeposit{
		{ID: "cdc-0", CompanyName: "Garnier SAS", Amount: api.Amount{Value: "10000.00", Currency: "EUR"}, Status: "WaitingForRegisterExtract",
			AccountID: "acc-1",
			Shareholders: []api.Shareholder{
				{ID: "sh-0", Typename: "IndividualShareholder", FirstName: "Paul", LastName: "Garnier", Status: "CapitalTransferred", Amount: api.Amount{Value: "6000.00", Currency: "EUR"}},
				{ID: "sh-1", Typename: "CompanyShareholder", Name: "Holding G", Status: "WaitingForTransfer", Amount: api.Amount{Value: "4000.00", Currency: "EUR"}},
			},
			Documents: []api.CapitalDepositDocument{
				{ID: "doc-0", Type: "ArticlesOfIncorporation", Status: "Validated", UploadedAt: objDay.AddDate(0, 0, -5)},
				{ID: "doc-1", Type: "ProofOfIdentity", Status: "Refused", ReasonCode: "ExpiredDocument", Reason: "expired in 2025", UploadedAt: objDay.AddDate(0, 0, -4)},
				{ID: "doc-2", Type: "RegisterExtract", Status: "Pending"},
			},
			CreatedAt: objDay.AddDate(0, 0, -10), UpdatedAt: objDay},
		{ID: "cdc-1", CompanyName: "Atelier Roux", Amount: api.Amount{Value: "1000.00", Currency: "EUR"}, Status: "Completed",
			Shareholders: []api.Shareholder{}, Documents: []api.CapitalDepositDocument{}, CreatedAt: objDay.AddDate(0, -2, 0), UpdatedAt: objDay},
	}
}

func (f *fakeProjectAPI) Onboardings(ctx context.Context, p api.OnboardingsParams) (*api.Page[api.Onboarding], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.objCalls++
	if f.err != nil {
		return nil, f.err
	}
	var rows []api.Onboarding
	for _, o := range makeOnboardings() {
		if len(p.Statuses) == 0 || slices.Contains(p.Statuses, o.Status) {
			rows = append(rows, o)
		}
	}
	return fakePage(rows, func(o *api.Onboarding) string { return o.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
}

func (f *fakeProjectAPI) Onboarding(ctx context.Context, id string) (*api.Onboarding, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.objCalls++
	for _, o := range makeOnboardings() {
		if o.ID == id {
			return &o, nil
		}
	}
	return nil, fmt.Errorf("onboarding %s: %w", id, api.ErrNotFound)
}

func (f *fakeProjectAPI) CapitalDeposits(ctx context.Context, p api.CapitalDepositsParams) (*api.Page[api.CapitalDeposit], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.objCalls++
	if f.err != nil {
		return nil, f.err
	}
	return fakePage(makeCapitalDeposits(), func(d *api.CapitalDeposit) string { return d.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
}

func (f *fakeProjectAPI) CapitalDeposit(ctx context.Context, id string) (*api.CapitalDeposit, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.objCalls++
	for _, d := range makeCapitalDeposits() {
		if d.ID == id {
			return &d, nil
		}
	}
	return nil, fmt.Errorf("capital deposit case %s: %w", id, api.ErrNotFound)
}
