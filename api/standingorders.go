package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operations of an account's standing orders: the list
// (Account.standingOrders), one with the transactions it made
// (Query.standingOrder), and in Sandbox one canceled (cancelStandingOrder,
// refused on a read-only client).
const (
	OpStandingOrders            = "AccountStandingOrders"
	OpStandingOrder             = "StandingOrder"
	OpStandingOrderTransactions = "StandingOrderTransactions"
	OpCancelStandingOrder       = "CancelStandingOrder"
)

var (
	standingOrdersOp = declareQuery[standingOrdersQuery](OpStandingOrders, func() map[string]any {
		return StandingOrdersParams{AccountID: "x"}.vars(platform.PageMax)
	})
	standingOrderOp             = declareQuery[standingOrderQuery](OpStandingOrder, idVars)
	standingOrderTransactionsOp = declareQuery[standingOrderTransactionsQuery](OpStandingOrderTransactions, func() map[string]any {
		return NestedParams{ID: "x"}.vars(platform.PageMax)
	})
	cancelStandingOrderOp = declareMutation[cancelStandingOrderMutation](OpCancelStandingOrder, input(cancelStandingOrderInput{}))
)

// StandingOrderStatuses is StandingOrderStatus.
func StandingOrderStatuses() []string { return []string{"ConsentPending", "Enabled", "Canceled"} }

// StandingOrderOrderFields is AccountStandingOrderOrderByFieldInput.
func StandingOrderOrderFields() []string { return []string{OrderCreatedAt, OrderUpdatedAt} }

// StandingOrderStatusInfo is StandingOrder.statusInfo with the fields of
// its concrete type.
type StandingOrderStatusInfo struct {
	Status     string    `json:"status"` // StandingOrderStatus
	CanceledAt time.Time `json:"canceledAt,omitzero"`
	Consent    *Consent  `json:"consent,omitempty"` // ConsentPending
}

// SepaBeneficiary is the schema's SEPABeneficiary: whom a transfer goes
// to, its IBAN masked.
type SepaBeneficiary struct {
	Name       string   `json:"name"`
	MaskedIBAN string   `json:"maskedIBAN,omitempty"`
	Address    *Address `json:"address,omitempty"`
}

// StandingOrder is the schema's StandingOrder: a transfer the platform
// makes every period, of a fixed amount or of what brings the balance to
// a target.
type StandingOrder struct {
	ID        string `json:"id"`
	Reference string `json:"reference,omitempty"`
	Label     string `json:"label,omitempty"`
	// Amount is what each execution sends; nil when the order tops the
	// balance up to TargetAvailableBalance instead.
	Amount                 *Amount                 `json:"amount,omitempty"`
	TargetAvailableBalance *Amount                 `json:"targetAvailableBalance,omitempty"`
	Period                 string                  `json:"period"` // Daily | Weekly | Monthly
	FirstExecutionDate     time.Time               `json:"firstExecutionDate,omitzero"`
	LastExecutionDate      time.Time               `json:"lastExecutionDate,omitzero"`
	NextExecutionDate      time.Time               `json:"nextExecutionDate,omitzero"`
	SepaBeneficiary        SepaBeneficiary         `json:"sepaBeneficiary"`
	StatusInfo             StandingOrderStatusInfo `json:"statusInfo"`
	CreditTransferMode     string                  `json:"creditTransferMode,omitempty"`
	CreatedBy              *MembershipUser         `json:"createdBy,omitempty"`
	Account                *AccountRef             `json:"account,omitempty"`
	CreatedAt              time.Time               `json:"createdAt,omitzero"`
	UpdatedAt              time.Time               `json:"updatedAt,omitzero"`
}

// StandingOrdersParams are the arguments of one Account.standingOrders
// request.
type StandingOrdersParams struct {
	First     int    // page size; 0 means the client's page size
	After     string // cursor; "" for the first page
	AccountID string // required
	Statuses  []string
	OrderBy   string // StandingOrderOrderFields() or ""
	Direction string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p StandingOrdersParams) WithAfter(after string) StandingOrdersParams { p.After = after; return p }

func (p StandingOrdersParams) check() error {
	if p.AccountID == "" {
		return paramError("accountId", "", "is required: standing orders belong to one account", nil)
	}
	if err := checkEnum("filters.status", StandingOrderStatuses(), p.Statuses...); err != nil {
		return err
	}
	return checkOrder(StandingOrderOrderFields(), p.OrderBy, p.Direction)
}

type standingOrderFilterName struct{}

func (standingOrderFilterName) graphQLType() string { return "AccountStandingOrderFiltersInput" }

type standingOrderOrderName struct{}

func (standingOrderOrderName) graphQLType() string { return "AccountStandingOrderOrderByInput" }

func (p StandingOrdersParams) vars(first int) map[string]any {
	return map[string]any{
		"accountId": graphql.ID(p.AccountID),
		"first":     first,
		"after":     cursorVar(p.After),
		"filters":   statusFilterVar[standingOrderFilterName](p.Statuses),
		"orderBy":   orderVar[standingOrderOrderName](p.OrderBy, p.Direction),
	}
}

// NestedParams are the arguments of one page of a list an object holds
// (a standing order's transactions, a trusted beneficiary's, an account
// holder's accounts), in the order the platform lists them.
type NestedParams struct {
	First int    // page size; 0 means the client's page size
	After string // cursor; "" for the first page
	ID    string // the object's; required
}

// WithAfter returns p asking for the page after cursor after.
func (p NestedParams) WithAfter(after string) NestedParams {
	p.After = after
	return p
}

func (p NestedParams) vars(first int) map[string]any {
	return map[string]any{"id": graphql.ID(p.ID), "first": first, "after": cursorVar(p.After)}
}

// ---- GraphQL shapes ----

// address converts a nullable Address (or AddressInfo).
func address(a *fragments.Address) *Address {
	if a == nil {
		return nil
	}
	return &Address{AddressLine1: deref(a.AddressLine1), AddressLine2: deref(a.AddressLine2), City: deref(a.City),
		PostalCode: deref(a.PostalCode), State: deref(a.State), Country: deref(a.Country)}
}

// amountPtr converts a nullable Amount.
func amountPtr(a *fragments.Amount) *Amount {
	if a == nil {
		return nil
	}
	v := Amount(*a)
	return &v
}

type standingOrderNode struct {
	ID                     string            `graphql:"id"`
	Reference              *string           `graphql:"reference"`
	Label                  *string           `graphql:"label"`
	Amount                 *fragments.Amount `graphql:"amount"`
	TargetAvailableBalance *fragments.Amount `graphql:"targetAvailableBalance"`
	Period                 string            `graphql:"period"`
	FirstExecutionDate     *string           `graphql:"firstExecutionDate"`
	LastExecutionDate      *string           `graphql:"lastExecutionDate"`
	NextExecutionDate      *string           `graphql:"nextExecutionDate"`
	SepaBeneficiary        struct {
		Name       string             `graphql:"name"`
		MaskedIBAN *string            `graphql:"maskedIBAN" json:"maskedIBAN"`
		Address    *fragments.Address `graphql:"address"`
	} `graphql:"sepaBeneficiary"`
	StatusInfo struct {
		Status                                          string `graphql:"status"`
		fragments.StandingOrderCanceledStatusInfo       `graphql:"... on StandingOrderCanceledStatusInfo"`
		fragments.StandingOrderConsentPendingStatusInfo `graphql:"... on StandingOrderConsentPendingStatusInfo"`
	} `graphql:"statusInfo"`
	CreditTransferMode *string `graphql:"creditTransferMode"`
	CreatedBy          *struct {
		ID        string  `graphql:"id"`
		FirstName *string `graphql:"firstName"`
		LastName  *string `graphql:"lastName"`
	} `graphql:"createdBy"`
	Account   *accountRefQL `graphql:"account"`
	CreatedAt string        `graphql:"createdAt"`
	UpdatedAt string        `graphql:"updatedAt"`
}

// parseDay reads a Date (YYYY-MM-DD) or a DateTime; anything else is the
// zero time.
func parseDay(s string) time.Time {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t
	}
	return parseTime(s)
}

func (n *standingOrderNode) standingOrder() StandingOrder {
	o := StandingOrder{
		ID: n.ID, Reference: deref(n.Reference), Label: deref(n.Label),
		Amount: amountPtr(n.Amount), TargetAvailableBalance: amountPtr(n.TargetAvailableBalance),
		Period:             n.Period,
		FirstExecutionDate: parseTimePtr(n.FirstExecutionDate),
		LastExecutionDate:  parseTimePtr(n.LastExecutionDate),
		NextExecutionDate:  parseDay(deref(n.NextExecutionDate)),
		SepaBeneficiary: SepaBeneficiary{Name: n.SepaBeneficiary.Name, MaskedIBAN: deref(n.SepaBeneficiary.MaskedIBAN),
			Address: address(n.SepaBeneficiary.Address)},
		StatusInfo: StandingOrderStatusInfo{Status: n.StatusInfo.Status, CanceledAt: parseDay(n.StatusInfo.CanceledAt),
			Consent: consent(n.StatusInfo.Consent)},
		CreditTransferMode: deref(n.CreditTransferMode),
		Account:            n.Account.ref(),
		CreatedAt:          parseDay(n.CreatedAt),
		UpdatedAt:          parseDay(n.UpdatedAt),
	}
	if u := n.CreatedBy; u != nil {
		o.CreatedBy = &MembershipUser{ID: u.ID, FirstName: deref(u.FirstName), LastName: deref(u.LastName)}
	}
	return o
}

type standingOrdersQuery struct {
	Account *struct {
		StandingOrders connectionQL[standingOrderNode] `graphql:"standingOrders(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
	} `graphql:"account(accountId: $accountId)"`
}

type standingOrderQuery struct {
	StandingOrder *standingOrderNode `graphql:"standingOrder(standingOrderId: $id)"`
}

type standingOrderTransactionsQuery struct {
	StandingOrder *struct {
		Transactions *connectionQL[txNode] `graphql:"transactions(first: $first, after: $after)"`
	} `graphql:"standingOrder(standingOrderId: $id)"`
}

// StandingOrders fetches one page of an account's standing orders; a
// missing account is ErrNotFound.
func (c *Client) StandingOrders(ctx context.Context, p StandingOrdersParams) (*Page[StandingOrder], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return listPage(ctx, c, standingOrdersOp, p.vars(c.first(p.First)),
		func(q *standingOrdersQuery) (*connectionQL[standingOrderNode], bool) {
			if q.Account == nil {
				return nil, false
			}
			return &q.Account.StandingOrders, true
		},
		(*standingOrderNode).standingOrder, c.notFound("account", p.AccountID))
}

// StandingOrder fetches one standing order (Query.standingOrder); a
// missing one is ErrNotFound.
func (c *Client) StandingOrder(ctx context.Context, id string) (*StandingOrder, error) {
	return one(ctx, c, standingOrderOp, map[string]any{"id": graphql.ID(id)},
		func(q *standingOrderQuery) *standingOrderNode { return q.StandingOrder },
		(*standingOrderNode).standingOrder, c.notFound("standing order", id))
}

// StandingOrderTransactions fetches one page of the transactions a
// standing order made: its history of payments.
func (c *Client) StandingOrderTransactions(ctx context.Context, p NestedParams) (*Page[TransactionDetail], error) {
	if p.ID == "" {
		return nil, paramError("standingOrderId", "", "is required", nil)
	}
	return listPage(ctx, c, standingOrderTransactionsOp, p.vars(c.first(p.First)),
		func(q *standingOrderTransactionsQuery) (*connectionQL[txNode], bool) {
			if q.StandingOrder == nil {
				return nil, false
			}
			return q.StandingOrder.Transactions, true
		},
		(*txNode).transaction, c.notFound("standing order", p.ID))
}

// ---- cancel ----

type cancelStandingOrderInput struct {
	StandingOrderID string `json:"standingOrderId"`
}

// GetGraphQLType names the variable's type in the query text.
func (cancelStandingOrderInput) GetGraphQLType() string { return "CancelStandingOrderInput" }

type cancelStandingOrderMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			StandingOrder standingOrderNode `graphql:"standingOrder"`
		} `graphql:"... on CancelStandingOrderSuccessPayload"`
		Forbidden rejectionQL `graphql:"... on ForbiddenRejection"`
		Internal  rejectionQL `graphql:"... on InternalErrorRejection"`
		NotFound  rejectionQL `graphql:"... on StandingOrderNotFoundRejection"`
	} `graphql:"cancelStandingOrder(input: $input)"`
}

// CancelStandingOrder cancels a standing order: it makes no transfer
// after this. It is a mutation: sent once, refused on a read-only client.
func (c *Client) CancelStandingOrder(ctx context.Context, id string) (*StandingOrder, error) {
	m, err := cancelStandingOrderOp.mutate(ctx, c, map[string]any{"input": cancelStandingOrderInput{StandingOrderID: id}}, "")
	if err != nil {
		return nil, err
	}
	p := &m.P
	if p.Typename != "CancelStandingOrderSuccessPayload" {
		msg := message(p.Forbidden, p.Internal, p.NotFound)
		if msg == "" {
			msg = "the platform did not cancel the standing order"
		}
		return nil, &RejectionError{Env: c.env, Type: p.Typename, Message: msg}
	}
	o := p.Success.StandingOrder.standingOrder()
	return &o, nil
}
