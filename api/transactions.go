package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operation names of the transactions.
const (
	OpProjectTransactions    = "ProjectTransactions"
	OpAccountTransactionList = "AccountTransactionList"
	OpTransaction            = "Transaction"
)

var (
	projectTransactionsOp = declareQuery[projectTransactionsQuery](OpProjectTransactions, func() map[string]any {
		return TransactionsParams{}.vars(platform.PageMax)
	})
	accountTransactionListOp = declareQuery[accountTransactionListQuery](OpAccountTransactionList, func() map[string]any {
		return TransactionsParams{AccountID: "x"}.vars(platform.PageMax)
	})
	transactionOp = declareQuery[transactionQuery](OpTransaction, idVars)
)

// TransactionParty is a transaction's creditor or debtor, as far as its
// concrete type describes one: SEPA credit transfers and direct debits give
// an IBAN (null when the platform hides it) and a masked IBAN, internal
// credit transfers an account number.
type TransactionParty struct {
	Name          string `json:"name,omitempty"`
	IBAN          string `json:"IBAN,omitempty"`
	MaskedIBAN    string `json:"maskedIBAN,omitempty"`
	BIC           string `json:"BIC,omitempty"`
	AccountNumber string `json:"accountNumber,omitempty"`
}

// BookedBalanceAfter is the schema's BookedBalanceAfter.
type BookedBalanceAfter struct {
	Amount *Amount `json:"amount,omitempty"`
	// SequenceNumber is the booking's number among the account's bookings
	// (1, 2, …); 0 when the platform gives none (the schema says it is
	// coming).
	SequenceNumber int `json:"sequenceNumber,omitempty"`
}

// TransactionStatusInfo is Transaction.statusInfo with the fields of its
// concrete type (…TransactionStatusInfo); only that type's fields are set.
type TransactionStatusInfo struct {
	Status string `json:"status"` // TransactionStatus
	// Booked
	BookingDate  time.Time           `json:"bookingDate,omitzero"`
	ValueDate    time.Time           `json:"valueDate,omitzero"`
	BalanceAfter *BookedBalanceAfter `json:"balanceAfter,omitempty"`
	// Pending
	PendingEndDate time.Time `json:"pendingEndDate,omitzero"`
	// Upcoming
	ExecutionDate time.Time `json:"executionDate,omitzero"`
	// Rejected (a RejectedReasonCode) and Released (a ReleasedReason)
	Reason      string `json:"reason,omitempty"`
	HasFallback *bool  `json:"hasFallback,omitempty"` // Rejected
	// Canceled
	CanceledDate time.Time `json:"canceledDate,omitzero"`
	// Deferred
	DeferredEndDate time.Time `json:"deferredEndDate,omitzero"`
	// Released
	ReleaseDate time.Time `json:"releaseDate,omitzero"`
	// Settled
	SettlementTransactionID string `json:"settlementTransactionId,omitempty"`
	SettledAt               string `json:"settledAt,omitempty"` // Date, YYYY-MM-DD
}

// TransactionDetail is one transaction with the fields of its concrete
// type, as the transaction lists and Transaction(id) return it.
type TransactionDetail struct {
	// Typename is the concrete type (SEPACreditTransferTransaction,
	// CardTransaction, FeeTransaction, …).
	Typename          string                `json:"__typename,omitempty"`
	ID                string                `json:"id"`
	Reference         string                `json:"reference"`
	ExternalReference string                `json:"externalReference,omitempty"`
	Side              string                `json:"side"` // Debit | Credit
	Type              string                `json:"type"` // TransactionTypeEnum
	Amount            Amount                `json:"amount"`
	Label             string                `json:"label"`
	Counterparty      string                `json:"counterparty"`
	PaymentProduct    string                `json:"paymentProduct"`
	StatusInfo        TransactionStatusInfo `json:"statusInfo"`
	Creditor          *TransactionParty     `json:"creditor,omitempty"`
	Debtor            *TransactionParty     `json:"debtor,omitempty"`
	FeesType          string                `json:"feesType,omitempty"` // FeeTransaction
	ExecutionDate     time.Time             `json:"executionDate,omitzero"`
	CreatedAt         time.Time             `json:"createdAt,omitzero"`
	UpdatedAt         time.Time             `json:"updatedAt,omitzero"`
	Account           *AccountRef           `json:"account,omitempty"`
}

// CounterpartyParty is the other side of the transaction: the debtor of a
// credit, the creditor of a debit; nil when the concrete type names none.
func (t *TransactionDetail) CounterpartyParty() *TransactionParty {
	if t.Side == "Credit" {
		return t.Debtor
	}
	return t.Creditor
}

// Transaction orderings (TransactionsOrderByField).
const (
	TxOrderID            = "id"
	TxOrderCreatedAt     = "createdAt"
	TxOrderUpdatedAt     = "updatedAt"
	TxOrderExecutionDate = "executionDate"
)

// TransactionsParams are the arguments of one transactions request: one
// account's (Account.transactions) or, with a project token only, the whole
// project's (Query.transactions). Both take TransactionsFiltersInput.
type TransactionsParams struct {
	First     int    // page size; 0 means the client's page size
	After     string // cursor; "" for the first page
	AccountID string // "" lists the project's transactions (project token only)

	Status         []string // filters.status: TransactionStatuses()
	Type           []string // filters.type: TransactionTypes()
	PaymentProduct []string // filters.paymentProduct: PaymentProducts()
	Search         string   // filters.search

	IsAfterExecutionDate  time.Time // filters.isAfterExecutionDate; zero for none
	IsBeforeExecutionDate time.Time
	IsAfterUpdatedAt      time.Time
	IsBeforeUpdatedAt     time.Time

	Amount        string // filters.amount: an exact AmountValue such as "12.50"
	IsAboveAmount string // filters.isAboveAmount
	IsBelowAmount string // filters.isBelowAmount

	IncludeRejectedWithFallback *bool

	OrderBy   string // TransactionOrderFields() or "" (server default: updatedAt, newest first)
	Direction string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p TransactionsParams) WithAfter(after string) TransactionsParams { p.After = after; return p }

func (p TransactionsParams) check() error {
	if err := checkEnum("filters.status", TransactionStatuses(), p.Status...); err != nil {
		return err
	}
	if err := checkEnum("filters.type", TransactionTypes(), p.Type...); err != nil {
		return err
	}
	if err := checkEnum("filters.paymentProduct", PaymentProducts(), p.PaymentProduct...); err != nil {
		return err
	}
	for _, a := range [][2]string{{"filters.amount", p.Amount}, {"filters.isAboveAmount", p.IsAboveAmount}, {"filters.isBelowAmount", p.IsBelowAmount}} {
		if err := checkAmount(a[0], a[1]); err != nil {
			return err
		}
	}
	if err := checkRange("filters.isAfterExecutionDate", p.IsAfterExecutionDate, p.IsBeforeExecutionDate); err != nil {
		return err
	}
	if err := checkRange("filters.isAfterUpdatedAt", p.IsAfterUpdatedAt, p.IsBeforeUpdatedAt); err != nil {
		return err
	}
	return checkOrder(TransactionOrderFields(), p.OrderBy, p.Direction)
}

// checkRange refuses an empty date range (after not before before).
func checkRange(param string, after, before time.Time) error {
	if after.IsZero() || before.IsZero() || after.Before(before) {
		return nil
	}
	return paramError(param, dateTimeVar(after), "is not before the end of the range ("+dateTimeVar(before)+"): no transaction can match", nil)
}

// transactionsFiltersInput is the schema's TransactionsFiltersInput.
type transactionsFiltersInput struct {
	Status                      []string `json:"status,omitempty"`
	PaymentProduct              []string `json:"paymentProduct,omitempty"`
	IsAfterUpdatedAt            string   `json:"isAfterUpdatedAt,omitempty"`
	IsBeforeUpdatedAt           string   `json:"isBeforeUpdatedAt,omitempty"`
	Search                      string   `json:"search,omitempty"`
	Type                        []string `json:"type,omitempty"`
	IncludeRejectedWithFallback *bool    `json:"includeRejectedWithFallback,omitempty"`
	Amount                      string   `json:"amount,omitempty"`
	IsAboveAmount               string   `json:"isAboveAmount,omitempty"`
	IsBelowAmount               string   `json:"isBelowAmount,omitempty"`
	IsAfterExecutionDate        string   `json:"isAfterExecutionDate,omitempty"`
	IsBeforeExecutionDate       string   `json:"isBeforeExecutionDate,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*transactionsFiltersInput) GetGraphQLType() string { return "TransactionsFiltersInput" }

type transactionsOrderName struct{}

func (transactionsOrderName) graphQLType() string { return "TransactionsOrderByInput" }

func (p TransactionsParams) vars(first int) map[string]any {
	f := transactionsFiltersInput{
		Status:                      p.Status,
		PaymentProduct:              p.PaymentProduct,
		IsAfterUpdatedAt:            dateTimeVar(p.IsAfterUpdatedAt),
		IsBeforeUpdatedAt:           dateTimeVar(p.IsBeforeUpdatedAt),
		Search:                      p.Search,
		Type:                        p.Type,
		IncludeRejectedWithFallback: p.IncludeRejectedWithFallback,
		Amount:                      p.Amount,
		IsAboveAmount:               p.IsAboveAmount,
		IsBelowAmount:               p.IsBelowAmount,
		IsAfterExecutionDate:        dateTimeVar(p.IsAfterExecutionDate),
		IsBeforeExecutionDate:       dateTimeVar(p.IsBeforeExecutionDate),
	}
	var filters *transactionsFiltersInput
	if len(f.Status) > 0 || len(f.PaymentProduct) > 0 || len(f.Type) > 0 || f.IncludeRejectedWithFallback != nil ||
		f.IsAfterUpdatedAt != "" || f.IsBeforeUpdatedAt != "" || f.Search != "" || f.Amount != "" ||
		f.IsAboveAmount != "" || f.IsBelowAmount != "" || f.IsAfterExecutionDate != "" || f.IsBeforeExecutionDate != "" {
		filters = &f
	}
	vars := map[string]any{
		"first":   first,
		"after":   cursorVar(p.After),
		"filters": filters,
		"orderBy": orderVar[transactionsOrderName](p.OrderBy, p.Direction),
	}
	if p.AccountID != "" {
		vars["accountId"] = graphql.ID(p.AccountID)
	}
	return vars
}

// ---- GraphQL shapes ----

type txStatusQL struct {
	Status                                  string `graphql:"status"`
	fragments.BookedTransactionStatusInfo   `graphql:"... on BookedTransactionStatusInfo"`
	fragments.PendingTransactionStatusInfo  `graphql:"... on PendingTransactionStatusInfo"`
	fragments.UpcomingTransactionStatusInfo `graphql:"... on UpcomingTransactionStatusInfo"`
	fragments.RejectedTransactionStatusInfo `graphql:"... on RejectedTransactionStatusInfo"`
	fragments.CanceledTransactionStatusInfo `graphql:"... on CanceledTransactionStatusInfo"`
	fragments.DeferredTransactionStatusInfo `graphql:"... on DeferredTransactionStatusInfo"`
	fragments.ReleasedTransactionStatusInfo `graphql:"... on ReleasedTransactionStatusInfo"`
	fragments.SettledTransactionStatusInfo  `graphql:"... on SettledTransactionStatusInfo"`
}

func (s *txStatusQL) statusInfo() TransactionStatusInfo {
	si := TransactionStatusInfo{
		Status:                  s.Status,
		BookingDate:             parseTime(s.BookingDate),
		ValueDate:               parseTime(s.ValueDate),
		PendingEndDate:          parseTimePtr(s.PendingEndDate),
		ExecutionDate:           parseTime(s.ExecutionDate),
		Reason:                  firstNonEmpty(s.RejectedReason, s.ReleasedReason),
		HasFallback:             s.HasFallback,
		CanceledDate:            parseTimePtr(s.CanceledDate),
		DeferredEndDate:         parseTimePtr(s.DeferredEndDate),
		ReleaseDate:             parseTime(s.ReleaseDate),
		SettlementTransactionID: s.SettlementTransactionID,
		SettledAt:               s.SettledAt,
	}
	if b := s.BalanceAfter; b != nil {
		si.BalanceAfter = &BookedBalanceAfter{}
		if a := b.Amount; a != nil {
			si.BalanceAfter.Amount = new(Amount(*a))
		}
		if n := b.SequenceNumber; n != nil {
			si.BalanceAfter.SequenceNumber = *n
		}
	}
	return si
}

// txNode is the selection of a Transaction: the interface's fields, and
// the counterparties of the concrete types that describe them.
type txNode struct {
	Typename                                string           `graphql:"__typename" json:"__typename"`
	ID                                      string           `graphql:"id"`
	Reference                               string           `graphql:"reference"`
	ExternalReference                       *string          `graphql:"externalReference"`
	Side                                    string           `graphql:"side"`
	Type                                    string           `graphql:"type"`
	Amount                                  fragments.Amount `graphql:"amount"`
	Label                                   string           `graphql:"label"`
	Counterparty                            string           `graphql:"counterparty"`
	PaymentProduct                          string           `graphql:"paymentProduct"`
	StatusInfo                              txStatusQL       `graphql:"statusInfo"`
	ExecutionDate                           string           `graphql:"executionDate"`
	CreatedAt                               string           `graphql:"createdAt"`
	UpdatedAt                               string           `graphql:"updatedAt"`
	Account                                 *accountRefQL    `graphql:"account"`
	fragments.SEPACreditTransferTransaction `graphql:"... on SEPACreditTransferTransaction"`
	fragments.SEPADirectDebitTransaction    `graphql:"... on SEPADirectDebitTransaction"`
	fragments.InternalCreditTransfer        `graphql:"... on InternalCreditTransfer"`
	fragments.FeeTransaction                `graphql:"... on FeeTransaction"`
}

func (n *txNode) transaction() TransactionDetail {
	return TransactionDetail{
		Typename:          n.Typename,
		ID:                n.ID,
		Reference:         n.Reference,
		ExternalReference: deref(n.ExternalReference),
		Side:              n.Side,
		Type:              n.Type,
		Amount:            Amount(n.Amount),
		Label:             n.Label,
		Counterparty:      n.Counterparty,
		PaymentProduct:    n.PaymentProduct,
		StatusInfo:        n.StatusInfo.statusInfo(),
		Creditor:          party(n.Creditor, n.DirectDebitCreditor, n.InternalCreditor),
		Debtor:            party(n.Debtor, n.DirectDebitDebtor, n.InternalDebtor),
		FeesType:          n.FeesType,
		ExecutionDate:     parseTime(n.ExecutionDate),
		CreatedAt:         parseTime(n.CreatedAt),
		UpdatedAt:         parseTime(n.UpdatedAt),
		Account:           n.Account.ref(),
	}
}

// party converts whichever concrete type described the party (at most one
// did: a transaction has one concrete type).
func party(sct, sdd *fragments.SEPAParty, internal *fragments.InternalParty) *TransactionParty {
	for _, s := range []*fragments.SEPAParty{sct, sdd} {
		if s != nil {
			return &TransactionParty{Name: s.Name, IBAN: deref(s.IBAN), MaskedIBAN: s.MaskedIBAN, BIC: deref(s.BIC)}
		}
	}
	if internal != nil {
		return &TransactionParty{Name: internal.Name, AccountNumber: internal.AccountNumber}
	}
	return nil
}

type projectTransactionsQuery struct {
	Transactions connectionQL[txNode] `graphql:"transactions(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

type accountTransactionListQuery struct {
	Account *struct {
		Transactions *connectionQL[txNode] `graphql:"transactions(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
	} `graphql:"account(accountId: $accountId)"`
}

type transactionQuery struct {
	Transaction *txNode `graphql:"transaction(id: $id)"`
}

// ---- Client methods ----

// TransactionList fetches one page of transactions with their details: one
// account's (p.AccountID; a missing account is ErrNotFound) or the whole
// project's (p.AccountID "", which the platform serves to project tokens
// only: a user token gets a *GraphQLError).
func (c *Client) TransactionList(ctx context.Context, p TransactionsParams) (*Page[TransactionDetail], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	vars := p.vars(c.first(p.First))
	if p.AccountID == "" {
		return listPage(ctx, c, projectTransactionsOp, vars,
			func(q *projectTransactionsQuery) (*connectionQL[txNode], bool) { return &q.Transactions, true },
			(*txNode).transaction, nil)
	}
	return listPage(ctx, c, accountTransactionListOp, vars,
		func(q *accountTransactionListQuery) (*connectionQL[txNode], bool) {
			if q.Account == nil {
				return nil, false
			}
			return q.Account.Transactions, true
		},
		(*txNode).transaction, c.notFound("account", p.AccountID))
}

// Transaction fetches one transaction in detail (Query.transaction, which
// the platform serves to project tokens only).
func (c *Client) Transaction(ctx context.Context, id string) (*TransactionDetail, error) {
	return one(ctx, c, transactionOp, map[string]any{"id": graphql.ID(id)},
		func(q *transactionQuery) *txNode { return q.Transaction },
		(*txNode).transaction, c.notFound("transaction", id))
}
