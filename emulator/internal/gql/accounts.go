package gql

import (
	"context"
	"fmt"
	"sync"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

type accountConnR = connR[*data.Account, *accountR]

func (r *request) accounts(page data.Page[*data.Account]) *accountConnR {
	return newConn(page, func(a **data.Account) string { return (*a).Cursor() },
		func(a **data.Account) *accountR { return r.account(*a) })
}

// accountR is an Account. What the caller may read of it (IBAN, balances,
// history) depends on the token, decided once per account.
type accountR struct {
	r        *request
	a        *data.Account
	viewOnce sync.Once
	canView  bool
}

// canViewAccount is whether the caller has canViewAccount here.
func (a *accountR) canViewAccount() bool {
	a.viewOnce.Do(func() { a.canView = a.r.store.CanViewAccount(a.r.viewer, a.a) })
	return a.canView
}

func (a *accountR) ID() ID                                      { return ID(a.a.ID) }
func (a *accountR) Number() scalar                              { return scalar(a.a.Number) }
func (a *accountR) Name() string                                { return a.a.Name }
func (a *accountR) Holder() *holderR                            { return &holderR{r: a.r, a: a.a} }
func (a *accountR) CashAccountType() string                     { return "Current" }
func (a *accountR) Country() string                             { return a.a.Country }
func (a *accountR) PaymentLevel() string                        { return a.a.PaymentLevel }
func (a *accountR) Currency() scalar                            { return scalar(a.a.Currency) }
func (a *accountR) StatusInfo() *statusR                        { return &statusR{a: a.a, reason: data.StatusReason(a.a)} }
func (a *accountR) CreatedAt() scalar                           { return dateTime(a.a.CreatedAt) }
func (a *accountR) UpdatedAt() scalar                           { return dateTime(a.a.UpdatedAt) }
func (a *accountR) RequiredConsentToFetchNewTransactions() bool { return false }
func (a *accountR) Language() string                            { return a.a.Language }
func (a *accountR) PaymentAccountType() string                  { return a.a.PaymentAccountType }
func (a *accountR) UpgradedAt() *scalar                         { return optDateTime(data.UpgradedAt(a.a)) }
func (a *accountR) BIC() scalar                                 { return scalar(a.a.BIC) }
func (a *accountR) BlockSDD() *bool                             { f := false; return &f }

// IBAN follows the schema's rule: only for paymentLevel Unlimited, and
// for a user token only through a membership with canViewAccount. BIC is
// non-null in the schema, so it is always returned.
func (a *accountR) IBAN() *scalar {
	if a.a.PaymentLevel != "Unlimited" || !a.canViewAccount() {
		return nil
	}
	return optScalar(a.a.IBAN)
}

// Balances, statements and transactions need canViewAccount ("can view
// account balances and transactions history"); without it they are null.
func (a *accountR) Balances() *balancesR {
	if !a.canViewAccount() {
		return nil
	}
	return &balancesR{b: a.r.store.Balances(a.a)}
}

func (a *accountR) LegalRepresentativeMembership() *membershipR {
	return &membershipR{r: a.r, m: a.r.store.LegalRepresentative(a.a)}
}

type membershipsOfAccountArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *membershipFilterArgs
	OrderBy *orderArgs
}

func (a *accountR) Memberships(args membershipsOfAccountArgs) (*membershipConnR, error) {
	q, err := membershipsArgs(args).query()
	if err != nil {
		return nil, err
	}
	page, err := a.r.store.AccountMemberships(a.a, q)
	if err != nil {
		return nil, fmt.Errorf("memberships: %w", err)
	}
	return a.r.memberships(page), nil
}

func (a *accountR) Transactions(args transactionsArgs) (*txConnR, error) {
	if !a.canViewAccount() {
		return nil, nil
	}
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := a.r.store.Transactions(a.a, q)
	if err != nil {
		return nil, fmt.Errorf("transactions: %w", err)
	}
	return a.r.txConn(page), nil
}

func (a *accountR) Statements(args statementsArgs) (*connR[data.Statement, *statementR], error) {
	if !a.canViewAccount() {
		return nil, nil
	}
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.StatementQuery{First: int(args.First), After: deref(args.After)}
	var desc bool
	q.OrderBy, desc = orderOf(args.OrderBy, "openingDate", true)
	q.Asc = !desc
	if f := args.Filters; f != nil {
		var err error
		if q.AfterUpdatedAt, err = parseDateTime("filters.isAfterUpdatedAt", f.IsAfterUpdatedAt); err != nil {
			return nil, err
		}
		if q.BeforeUpdatedAt, err = parseDateTime("filters.isBeforeUpdatedAt", f.IsBeforeUpdatedAt); err != nil {
			return nil, err
		}
		q.Period = deref(f.Period)
	}
	page, err := a.r.store.Statements(a.a, q)
	if err != nil {
		return nil, fmt.Errorf("statements: %w", err)
	}
	return newConn(page, data.StatementCursor, func(st *data.Statement) *statementR {
		return &statementR{acc: a, s: *st}
	}), nil
}

// statusR serves the four account status types and their reasons.
type statusR struct {
	a      *data.Account
	reason data.Reason
}

func (s *statusR) Status() string    { return s.a.Status }
func (s *statusR) ClosingAt() scalar { return dateTime(s.a.StatusChangedAt) }
func (s *statusR) ClosedAt() scalar  { return dateTime(s.a.StatusChangedAt) }
func (s *statusR) Reason() string    { return s.reason.Message }
func (s *statusR) ReasonInfo() *reasonR {
	return &reasonR{r: s.reason, suspend: s.a.Status == "Suspended"}
}
func (s *statusR) is(st string) bool                          { return s.a.Status == st }
func (s *statusR) ToAccountOpenedStatus() (*statusR, bool)    { return s, s.is("Opened") }
func (s *statusR) ToAccountSuspendedStatus() (*statusR, bool) { return s, s.is("Suspended") }
func (s *statusR) ToAccountClosingStatus() (*statusR, bool)   { return s, s.is("Closing") }
func (s *statusR) ToAccountClosedStatus() (*statusR, bool)    { return s, s.is("Closed") }

// reasonR is a CloseAccountReason or a SuspendAccountReason.
type reasonR struct {
	r       data.Reason
	suspend bool
}

func (r *reasonR) Type() string                             { return r.r.Type }
func (r *reasonR) Message() *string                         { return optString(r.r.Message) }
func (r *reasonR) ToCloseAccountReason() (*reasonR, bool)   { return r, !r.suspend }
func (r *reasonR) ToSuspendAccountReason() (*reasonR, bool) { return r, r.suspend }

type holderR struct {
	r *request
	a *data.Account
}

func (h *holderR) ID() ID                     { return ID(h.a.HolderID) }
func (h *holderR) VerificationStatus() string { return h.verification().Status }
func (h *holderR) Info() *holderInfoR         { return &holderInfoR{r: h.r, a: h.a} }
func (h *holderR) CreatedDate() scalar        { return dateTime(h.a.CreatedAt) }
func (h *holderR) UpdatedDate() scalar        { return dateTime(h.a.UpdatedAt) }
func (h *holderR) ResidencyAddress() *addressR {
	return &addressR{a: h.r.store.HolderAddress(h.a)}
}
func (h *holderR) StatusInfo() *holderStatusR { return &holderStatusR{st: data.HolderStatus(h.a)} }

type holderStatusR struct{ st data.Reason }

func (s *holderStatusR) Status() string { return s.st.Type }
func (s *holderStatusR) Reason() string { return s.st.Message }
func (s *holderStatusR) ToAccountHolderEnabledStatusInfo() (*holderStatusR, bool) {
	return s, s.st.Type == "Enabled"
}
func (s *holderStatusR) ToAccountHolderSuspendedStatusInfo() (*holderStatusR, bool) {
	return s, s.st.Type == "Suspended"
}
func (s *holderStatusR) ToAccountHolderCanceledStatusInfo() (*holderStatusR, bool) {
	return s, s.st.Type == "Canceled"
}

type holderInfoR struct {
	r *request
	a *data.Account
}

func (h *holderInfoR) Type() string                     { return h.a.HolderType }
func (h *holderInfoR) Name() string                     { return h.a.HolderName }
func (h *holderInfoR) RegistrationNumber() *string      { return optString(h.a.RegistrationNumber) }
func (h *holderInfoR) VatNumber() *string               { return optString(h.a.VATNumber) }
func (h *holderInfoR) TaxIdentificationNumber() *string { return nil }
func (h *holderInfoR) TradeName() *string               { return optString(h.a.HolderName) }

// User is the individual holder, who is their account's legal
// representative.
func (h *holderInfoR) User() *userR {
	u, _ := h.r.store.User(h.r.store.LegalRepresentative(h.a).UserID)
	return &userR{r: h.r, u: u}
}
func (h *holderInfoR) ToAccountHolderIndividualInfo() (*holderInfoR, bool) {
	return h, h.a.HolderType == "Individual"
}
func (h *holderInfoR) ToAccountHolderCompanyInfo() (*holderInfoR, bool) {
	return h, h.a.HolderType == "Company"
}

type balancesR struct{ b data.Balances }

func (b *balancesR) Available() *amountR { return amount(b.b.Available, b.b.Currency) }
func (b *balancesR) Pending() *amountR   { return amount(b.b.Pending, b.b.Currency) }
func (b *balancesR) Booked() *amountR    { return amount(b.b.Booked, b.b.Currency) }
func (b *balancesR) Reserved() *amountR  { return amount(b.b.Reserved, b.b.Currency) }

type accountsArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *struct {
		Status        *[]string
		PaymentLevels *[]string
		MainIBAN      *string
		Search        *string
	}
	OrderBy *orderArgs
}

func (r *partnerResolver) Accounts(ctx context.Context, args accountsArgs) (*accountConnR, error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.AccountQuery{Viewer: viewerOf(ctx), First: int(args.First), After: deref(args.After), Before: deref(args.Before)}
	if f := args.Filters; f != nil {
		q.Statuses, q.PaymentLevels = deref(f.Status), deref(f.PaymentLevels)
		q.Search, q.MainIBAN = deref(f.Search), deref(f.MainIBAN)
	}
	q.OrderBy, q.Desc = orderOf(args.OrderBy, "createdAt", false)
	page, err := r.store.Accounts(q)
	if err != nil {
		return nil, fmt.Errorf("accounts: %w", err)
	}
	return r.request(ctx).accounts(page), nil
}

func (r *partnerResolver) Account(ctx context.Context, args struct{ AccountID ID }) *accountR {
	a, ok := r.store.Account(viewerOf(ctx), string(args.AccountID))
	if !ok {
		return nil
	}
	return r.request(ctx).account(a)
}

func (r *request) account(a *data.Account) *accountR { return &accountR{r: r, a: a} }
