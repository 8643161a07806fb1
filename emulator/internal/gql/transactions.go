package gql

import (
	"context"
	"errors"
	"fmt"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

type transactionsArgs struct {
	First   int32
	After   *string
	OrderBy *orderArgs
	Filters *struct {
		Status                      *[]string
		PaymentProduct              *[]string
		IsAfterUpdatedAt            *scalar
		IsBeforeUpdatedAt           *scalar
		Search                      *string
		Type                        *[]string
		IncludeRejectedWithFallback *bool
		Amount                      *scalar
		IsAboveAmount               *scalar
		IsBelowAmount               *scalar
		IsAfterExecutionDate        *scalar
		IsBeforeExecutionDate       *scalar
	}
}

// query reads the arguments; the default order is updatedAt descending,
// as the schema documents.
func (args transactionsArgs) query() (data.TransactionQuery, error) {
	if err := checkFirst(args.First); err != nil {
		return data.TransactionQuery{}, err
	}
	q := data.TransactionQuery{First: int(args.First), After: deref(args.After)}
	var desc bool
	q.OrderBy, desc = orderOf(args.OrderBy, "updatedAt", true)
	q.Asc = !desc
	f := args.Filters
	if f == nil {
		return q, nil
	}
	tf := &q.Filter
	tf.Statuses, tf.Products, tf.Types = deref(f.Status), deref(f.PaymentProduct), deref(f.Type)
	tf.Search = deref(f.Search)
	tf.ExcludeRejectedWithFallback = f.IncludeRejectedWithFallback != nil && !*f.IncludeRejectedWithFallback
	var errs [7]error
	tf.AfterUpdatedAt, errs[0] = parseDateTime("filters.isAfterUpdatedAt", f.IsAfterUpdatedAt)
	tf.BeforeUpdatedAt, errs[1] = parseDateTime("filters.isBeforeUpdatedAt", f.IsBeforeUpdatedAt)
	tf.AfterExecution, errs[2] = parseDateTime("filters.isAfterExecutionDate", f.IsAfterExecutionDate)
	tf.BeforeExecution, errs[3] = parseDateTime("filters.isBeforeExecutionDate", f.IsBeforeExecutionDate)
	tf.Amount, errs[4] = parseAmountArg("filters.amount", f.Amount)
	tf.Above, errs[5] = parseAmountArg("filters.isAboveAmount", f.IsAboveAmount)
	tf.Below, errs[6] = parseAmountArg("filters.isBelowAmount", f.IsBelowAmount)
	for _, err := range errs {
		if err != nil {
			return data.TransactionQuery{}, err
		}
	}
	return q, nil
}

type txConnR = connR[data.Transaction, *txR]

func (r *request) txConn(page data.Page[data.Transaction]) *txConnR {
	return newConn(page, data.TransactionCursor, func(t *data.Transaction) *txR { return r.tx(*t) })
}

func (r *request) tx(t data.Transaction) *txR { return &txR{r: r, t: t} }

// txR serves every Transaction type; the To methods pick the concrete
// one from the transaction's kind.
type txR struct {
	r *request
	t data.Transaction
}

func (t *txR) acc() *data.Account              { return t.r.store.AccountOfIndex(t.t.AccountIndex) }
func (t *txR) amount(c int64) *amountR         { return amount(c, t.t.Currency) }
func (t *txR) ID() ID                          { return ID(t.t.ID) }
func (t *txR) Reference() string               { return t.t.Reference }
func (t *txR) PaymentMethodIdentifier() string { return t.t.PaymentMethodIdentifier }
func (t *txR) Side() string                    { return t.t.Side }
func (t *txR) Type() string                    { return t.t.Type }
func (t *txR) Amount() *amountR                { return t.amount(t.t.Amount) }
func (t *txR) OriginalAmount() *amountR        { return t.amount(t.t.Amount) }
func (t *txR) Label() string                   { return t.t.Label }
func (t *txR) StatusInfo() *txStatusR          { return &txStatusR{t: &t.t} }
func (t *txR) PaymentID() *string              { return optString(t.r.store.PaymentIDOf(t.t)) }
func (t *txR) CreatedAt() scalar               { return dateTime(t.t.CreatedAt) }
func (t *txR) UpdatedAt() scalar               { return dateTime(t.t.UpdatedAt) }
func (t *txR) Counterparty() string            { return t.t.Counterparty }
func (t *txR) PaymentProduct() string          { return t.t.Product }
func (t *txR) Account() *accountR              { return t.r.account(t.acc()) }
func (t *txR) ExternalReference() *string      { return optString(t.t.ExternalReference) }
func (t *txR) ExecutionDate() scalar           { return dateTime(t.t.ExecutionDate) }
func (t *txR) OriginTransactionID() *string    { return nil }
func (t *txR) ProjectID() ID                   { return ID(t.r.store.Project().ID) }
func (t *txR) IsCancelable() bool              { return t.t.IsCancelable() }
func (t *txR) FeesType() string                { return t.t.FeesType }
func (t *txR) TerminalID() *string             { return optString(t.t.TerminalID) }
func (t *txR) AuthorizationType() *string      { return optString(t.t.AuthorizationType) }
func (t *txR) Cmc7() string                    { return "" }
func (t *txR) RlmcKey() string                 { return "" }

// BookedBalanceAfter is the deprecated copy of the booked status's
// balance.
func (t *txR) BookedBalanceAfter() *amountR {
	if t.t.Status != data.StatusBooked {
		return nil
	}
	return t.amount(t.t.BalanceAfter)
}

// RequestedExecutionAt is when a scheduled transfer was asked for.
func (t *txR) RequestedExecutionAt() *scalar {
	if t.t.Status != data.StatusUpcoming {
		return nil
	}
	return optDateTime(t.t.CreatedAt)
}

func (t *txR) StatementCanBeGenerated() *bool {
	b := t.t.Status == data.StatusBooked
	return &b
}

// ReservedAmount is what a pending card authorisation holds.
func (t *txR) ReservedAmount() *amountR {
	if t.t.Type != "CardOutAuthorization" || t.t.Status != data.StatusPending {
		return nil
	}
	return t.amount(t.t.Amount)
}

func (t *txR) ReservedAmountReleasedAt() *scalar {
	if t.t.Status != data.StatusReleased {
		return nil
	}
	return optDateTime(t.t.StatusDate)
}

func (t *txR) Merchant() *merchantR {
	if t.t.Merchant.Name == "" {
		return nil
	}
	return &merchantR{m: t.t.Merchant}
}

func (t *txR) CardDetails() *cardDetailsR {
	if t.t.Kind != data.KindCard {
		return nil
	}
	return &cardDetailsR{tx: t}
}

// own and other are the two parties of a transfer: the account, and the
// counterparty.
func (t *txR) own() *partyR {
	a := t.acc()
	p := &partyR{name: a.HolderName, accountNumber: a.Number}
	// The account's own IBAN follows Account.IBAN: hidden, even masked,
	// below paymentLevel Unlimited.
	if a.PaymentLevel == "Unlimited" {
		p.iban, p.bic, p.masked = a.IBAN, a.BIC, maskIBAN(a.IBAN)
	}
	return p
}

func (t *txR) other() *partyR {
	p := &partyR{name: t.t.Counterparty, iban: t.t.CounterpartyIBAN, bic: t.t.CounterpartyBIC,
		masked: maskIBAN(t.t.CounterpartyIBAN), accountNumber: t.t.CounterpartyAccountNumber}
	if t.t.Kind == data.KindFee {
		p.accountNumber = feeAccountNumber
	}
	return p
}

// feeAccountNumber is the issuer's own account that collects fees.
const feeAccountNumber = "99999000001"

// partyPrefix starts the names of a kind's creditor and debtor types.
func partyPrefix(kind string) string {
	switch kind {
	case data.KindSEPADirectDebit:
		return "SEPADirectDebit"
	case data.KindInternalCredit:
		return "InternalCreditTransfer"
	case data.KindFee:
		return "Fee"
	}
	return "SEPACreditTransfer"
}

// party returns the creditor (or debtor) with its concrete type: the
// account is the creditor of what credits it and the debtor of the rest.
func (t *txR) party(creditor bool) *partyR {
	dir := "Out"
	if t.t.Side == "Credit" {
		dir = "In"
	}
	role := "Debtor"
	if creditor {
		role = "Creditor"
	}
	p := t.other()
	if creditor == (t.t.Side == "Credit") {
		p = t.own()
	}
	// "In" when the account is credited: SEPACreditTransferInCreditor…
	p.typ = partyPrefix(t.t.Kind) + dir + role
	return p
}

func (t *txR) Creditor() *partyR { return t.party(true) }
func (t *txR) Debtor() *partyR   { return t.party(false) }

func (t *txR) is(kind string) bool { return t.t.Kind == kind }
func (t *txR) ToSEPACreditTransferTransaction() (*txR, bool) {
	return t, t.is(data.KindSEPACreditTransfer)
}
func (t *txR) ToSEPADirectDebitTransaction() (*txR, bool) { return t, t.is(data.KindSEPADirectDebit) }
func (t *txR) ToCardTransaction() (*txR, bool)            { return t, t.is(data.KindCard) }
func (t *txR) ToOnlineCardTransaction() (*txR, bool)      { return t, t.is(data.KindOnlineCard) }
func (t *txR) ToInPersonCardTransaction() (*txR, bool)    { return t, t.is(data.KindInPersonCard) }
func (t *txR) ToInternalCreditTransfer() (*txR, bool)     { return t, t.is(data.KindInternalCredit) }
func (t *txR) ToFeeTransaction() (*txR, bool)             { return t, t.is(data.KindFee) }

// The emulator generates no checks, internal direct debits or
// international transfers; the types exist so queries naming them
// validate.
func (t *txR) ToCheckTransaction() (*txR, bool)               { return t, false }
func (t *txR) ToInternalDirectDebitTransaction() (*txR, bool) { return t, false }
func (t *txR) ToInternationalCreditTransferTransaction() (*txR, bool) {
	return t, false
}

// partyR serves every creditor and debtor type.
type partyR struct {
	typ                                    string
	name, masked, iban, bic, accountNumber string
}

func (p *partyR) Name() string          { return p.name }
func (p *partyR) MaskedIBAN() string    { return p.masked }
func (p *partyR) IBAN() *string         { return optString(p.iban) }
func (p *partyR) BIC() *string          { return optString(p.bic) }
func (p *partyR) AccountNumber() scalar { return scalar(p.accountNumber) }
func (p *partyR) as(typ string) (*partyR, bool) {
	return p, p.typ == typ
}
func (p *partyR) ToSEPACreditTransferInCreditor() (*partyR, bool) {
	return p.as("SEPACreditTransferInCreditor")
}
func (p *partyR) ToSEPACreditTransferInDebtor() (*partyR, bool) {
	return p.as("SEPACreditTransferInDebtor")
}
func (p *partyR) ToSEPACreditTransferOutCreditor() (*partyR, bool) {
	return p.as("SEPACreditTransferOutCreditor")
}
func (p *partyR) ToSEPACreditTransferOutDebtor() (*partyR, bool) {
	return p.as("SEPACreditTransferOutDebtor")
}
func (p *partyR) ToSEPADirectDebitInCreditor() (*partyR, bool) {
	return p.as("SEPADirectDebitInCreditor")
}
func (p *partyR) ToSEPADirectDebitInDebtor() (*partyR, bool) {
	return p.as("SEPADirectDebitInDebtor")
}
func (p *partyR) ToSEPADirectDebitOutCreditor() (*partyR, bool) {
	return p.as("SEPADirectDebitOutCreditor")
}
func (p *partyR) ToSEPADirectDebitOutDebtor() (*partyR, bool) {
	return p.as("SEPADirectDebitOutDebtor")
}
func (p *partyR) ToInternalCreditTransferInCreditor() (*partyR, bool) {
	return p.as("InternalCreditTransferInCreditor")
}
func (p *partyR) ToInternalCreditTransferInDebtor() (*partyR, bool) {
	return p.as("InternalCreditTransferInDebtor")
}
func (p *partyR) ToInternalCreditTransferOutCreditor() (*partyR, bool) {
	return p.as("InternalCreditTransferOutCreditor")
}
func (p *partyR) ToInternalCreditTransferOutDebtor() (*partyR, bool) {
	return p.as("InternalCreditTransferOutDebtor")
}
func (p *partyR) ToFeeInCreditor() (*partyR, bool)  { return p.as("FeeInCreditor") }
func (p *partyR) ToFeeInDebtor() (*partyR, bool)    { return p.as("FeeInDebtor") }
func (p *partyR) ToFeeOutCreditor() (*partyR, bool) { return p.as("FeeOutCreditor") }
func (p *partyR) ToFeeOutDebtor() (*partyR, bool)   { return p.as("FeeOutDebtor") }

// merchantR is a CardOutMerchant.
type merchantR struct{ m data.Merchant }

func (m *merchantR) MerchantID() string                    { return m.m.ID }
func (m *merchantR) MerchantName() string                  { return m.m.Name }
func (m *merchantR) MerchantCity() string                  { return m.m.City }
func (m *merchantR) MerchantCountry() *scalar              { return optScalar(m.m.Country) }
func (m *merchantR) MerchantPostalCode() *string           { return optString(m.m.PostalCode) }
func (m *merchantR) MerchantCategoryCode() string          { return m.m.CategoryCode }
func (m *merchantR) ToCardOutMerchant() (*merchantR, bool) { return m, true }

// cardDetailsR is a CardOutDetails: the card that paid.
type cardDetailsR struct{ tx *txR }

func (d *cardDetailsR) MaskedPan() string { return d.tx.t.MaskedPAN }
func (d *cardDetailsR) Card() *cardR {
	if d.tx.t.CardID == "" {
		return nil
	}
	c, ok := d.tx.r.store.Card(data.Viewer{Project: true}, d.tx.t.CardID)
	if !ok {
		return nil
	}
	return &cardR{r: d.tx.r, c: c}
}
func (d *cardDetailsR) ToCardOutDetails() (*cardDetailsR, bool) { return d, true }

// txStatusR serves every TransactionStatusInfo type.
type txStatusR struct{ t *data.Transaction }

func (s *txStatusR) ID() ID                   { return ID(s.t.ID) }
func (s *txStatusR) Status() string           { return s.t.Status }
func (s *txStatusR) BookingDate() scalar      { return dateTime(s.t.UpdatedAt) }
func (s *txStatusR) ValueDate() scalar        { return dateTime(s.t.ExecutionDate) }
func (s *txStatusR) PendingEndDate() *scalar  { return optDateTime(s.t.StatusDate) }
func (s *txStatusR) ExecutionDate() scalar    { return dateTime(s.t.ExecutionDate) }
func (s *txStatusR) HasFallback() bool        { return s.t.HasFallback }
func (s *txStatusR) CanceledDate() *scalar    { return optDateTime(s.t.StatusDate) }
func (s *txStatusR) ReleaseDate() scalar      { return dateTime(s.t.StatusDate) }
func (s *txStatusR) DeferredEndDate() *scalar { return optDateTime(s.t.StatusDate) }
func (s *txStatusR) RepaymentCycleID() ID {
	return ID(s.t.RepaymentCycle)
}
func (s *txStatusR) SettlementTransactionID() string { return s.t.SettlementID }
func (s *txStatusR) SettledAt() scalar               { return scalar(s.t.StatusDate.Format("2006-01-02")) }

// Reason is the RejectedReasonCode or the ReleasedReason, by status.
func (s *txStatusR) Reason() string {
	if s.t.Status == data.StatusReleased {
		return s.t.ReleasedReason
	}
	return s.t.RejectedReason
}

func (s *txStatusR) BalanceAfter() *balanceAfterR { return &balanceAfterR{t: s.t} }

func (s *txStatusR) is(st string) bool { return s.t.Status == st }
func (s *txStatusR) ToBookedTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.is(data.StatusBooked)
}
func (s *txStatusR) ToPendingTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.is(data.StatusPending)
}
func (s *txStatusR) ToUpcomingTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.is(data.StatusUpcoming)
}
func (s *txStatusR) ToRejectedTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.is(data.StatusRejected)
}
func (s *txStatusR) ToCanceledTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.is(data.StatusCanceled)
}
func (s *txStatusR) ToReleasedTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.is(data.StatusReleased)
}
func (s *txStatusR) ToDeferredTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.is(data.StatusDeferred)
}
func (s *txStatusR) ToSettledTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.is(data.StatusSettled)
}

type balanceAfterR struct{ t *data.Transaction }

func (b *balanceAfterR) Amount() *amountR { return amount(b.t.BalanceAfter, b.t.Currency) }
func (b *balanceAfterR) SequenceNumber() *int32 {
	n := int32(b.t.Sequence)
	return &n
}

// errProjectTokenOnly is the platform's rule for the transactions queries:
// user tokens (and project tokens impersonating a user) can't call them.
var errProjectTokenOnly = errors.New("user tokens can't call transactions queries: use a project access token (client credentials grant), or read account(accountId) { transactions } with this token")

func (r *partnerResolver) Transaction(ctx context.Context, args struct{ ID ID }) (*txR, error) {
	if !viewerOf(ctx).Project {
		return nil, errProjectTokenOnly
	}
	t, ok := r.store.Transaction(string(args.ID))
	if !ok {
		return nil, fmt.Errorf("no transaction has the id %q in this project: pass the id of a listed transaction", string(args.ID))
	}
	return r.request(ctx).tx(t), nil
}

func (r *partnerResolver) Transactions(ctx context.Context, args transactionsArgs) (*txConnR, error) {
	if !viewerOf(ctx).Project {
		return nil, errProjectTokenOnly
	}
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := r.store.RootTransactions(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("transactions: %w", err)
	}
	return r.request(ctx).txConn(page), nil
}
