package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operations of an account's trusted beneficiaries: the list
// (Account.trustedBeneficiaries), one (Query.trustedBeneficiary), and the
// transfers sent to one, each with the result of the payee verification
// when the platform made one.
const (
	OpBeneficiaries        = "AccountTrustedBeneficiaries"
	OpBeneficiary          = "TrustedBeneficiary"
	OpBeneficiaryTransfers = "TrustedBeneficiaryTransfers"
)

var (
	beneficiariesOp = declareQuery[beneficiariesQuery](OpBeneficiaries, func() map[string]any {
		return BeneficiariesParams{AccountID: "x"}.vars(platform.PageMax)
	})
	beneficiaryOp          = declareQuery[beneficiaryQuery](OpBeneficiary, func() map[string]any { return map[string]any{"id": ""} })
	beneficiaryTransfersOp = declareQuery[beneficiaryTransfersQuery](OpBeneficiaryTransfers, func() map[string]any {
		return beneficiaryTransfersVars(NestedParams{ID: "x"}, platform.PageMax)
	})
)

// BeneficiaryStatuses is TrustedBeneficiaryStatus.
func BeneficiaryStatuses() []string { return []string{"Enabled", "ConsentPending", "Canceled"} }

// BeneficiaryTypes is BeneficiaryType.
func BeneficiaryTypes() []string { return []string{"Sepa", "International", "Internal"} }

// BeneficiaryOrderFields is TrustedBeneficiaryOrderByFieldInput.
func BeneficiaryOrderFields() []string { return []string{OrderCreatedAt, "label", OrderUpdatedAt} }

// BeneficiaryStatusInfo is TrustedBeneficiary.statusInfo with the fields
// of its concrete type.
type BeneficiaryStatusInfo struct {
	Status     string    `json:"status"` // TrustedBeneficiaryStatus
	EnabledAt  time.Time `json:"enabledAt,omitzero"`
	CanceledAt time.Time `json:"canceledAt,omitzero"`
	Consent    *Consent  `json:"consent,omitempty"` // ConsentPending
}

// Beneficiary is the schema's TrustedBeneficiary with the fields of its
// concrete type: a SEPA one's IBAN and address, an international one's
// currency and route.
type Beneficiary struct {
	Typename   string                `json:"__typename"`
	ID         string                `json:"id"`
	Name       string                `json:"name"`
	Label      string                `json:"label"`
	Type       string                `json:"type"` // BeneficiaryType
	StatusInfo BeneficiaryStatusInfo `json:"statusInfo"`
	IBAN       string                `json:"iban,omitempty"`     // Sepa
	Address    *Address              `json:"address,omitempty"`  // Sepa
	Currency   string                `json:"currency,omitempty"` // International
	Route      string                `json:"route,omitempty"`    // International
	CreatedAt  time.Time             `json:"createdAt,omitzero"`
	UpdatedAt  time.Time             `json:"updatedAt,omitzero"`
}

// PayeeVerification is the result of a beneficiary verification (the
// schema's VerifyBeneficiaryResult): whether the name sent matched the
// account's holder.
type PayeeVerification struct {
	Status string `json:"status"` // Match | NoMatch | VerificationNotPossible | CloseMatch
	// NameSuggestion is the holder's name as the verification service
	// knows it, for a CloseMatch.
	NameSuggestion string `json:"nameSuggestion,omitempty"`
}

// BeneficiaryTransfer is one transfer sent to a trusted beneficiary, with
// the payee verification the platform made for it, if any.
type BeneficiaryTransfer struct {
	TransactionDetail
	Verification *PayeeVerification `json:"beneficiaryVerificationResult,omitempty"`
}

// BeneficiariesParams are the arguments of one Account.trustedBeneficiaries
// request.
type BeneficiariesParams struct {
	First     int    // page size; 0 means the client's page size
	After     string // cursor; "" for the first page
	AccountID string // required
	Statuses  []string
	Types     []string
	Label     string // filters.label
	OrderBy   string // BeneficiaryOrderFields() or ""
	Direction string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p BeneficiariesParams) WithAfter(after string) BeneficiariesParams { p.After = after; return p }

func (p BeneficiariesParams) check() error {
	if p.AccountID == "" {
		return paramError("accountId", "", "is required: trusted beneficiaries belong to one account", nil)
	}
	if err := checkEnum("filters.status", BeneficiaryStatuses(), p.Statuses...); err != nil {
		return err
	}
	if err := checkEnum("filters.type", BeneficiaryTypes(), p.Types...); err != nil {
		return err
	}
	return checkOrder(BeneficiaryOrderFields(), p.OrderBy, p.Direction)
}

// beneficiaryFiltersInput is the schema's TrustedBeneficiaryFiltersInput.
type beneficiaryFiltersInput struct {
	Status []string `json:"status,omitempty"`
	Type   []string `json:"type,omitempty"`
	Label  string   `json:"label,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*beneficiaryFiltersInput) GetGraphQLType() string { return "TrustedBeneficiaryFiltersInput" }

type beneficiaryOrderName struct{}

func (beneficiaryOrderName) graphQLType() string { return "TrustedBeneficiaryOrderByInput" }

func (p BeneficiariesParams) vars(first int) map[string]any {
	var filters *beneficiaryFiltersInput
	if len(p.Statuses) > 0 || len(p.Types) > 0 || p.Label != "" {
		filters = &beneficiaryFiltersInput{Status: p.Statuses, Type: p.Types, Label: p.Label}
	}
	return map[string]any{
		"accountId": graphql.ID(p.AccountID),
		"first":     first,
		"after":     cursorVar(p.After),
		"filters":   filters,
		"orderBy":   orderVar[beneficiaryOrderName](p.OrderBy, p.Direction),
	}
}

// beneficiaryTransfersVars: Query.trustedBeneficiary takes a String id.
func beneficiaryTransfersVars(p NestedParams, first int) map[string]any {
	return map[string]any{"id": p.ID, "first": first, "after": cursorVar(p.After)}
}

// ---- GraphQL shapes ----

type beneficiaryNode struct {
	Typename   string `graphql:"__typename" json:"__typename"`
	ID         string `graphql:"id"`
	Name       string `graphql:"name"`
	Label      string `graphql:"label"`
	Type       string `graphql:"type"`
	StatusInfo struct {
		Status                                               string `graphql:"status"`
		fragments.TrustedBeneficiaryEnabledStatusInfo        `graphql:"... on TrustedBeneficiaryEnabledStatusInfo"`
		fragments.TrustedBeneficiaryCanceledStatusInfo       `graphql:"... on TrustedBeneficiaryCanceledStatusInfo"`
		fragments.TrustedBeneficiaryConsentPendingStatusInfo `graphql:"... on TrustedBeneficiaryConsentPendingStatusInfo"`
	} `graphql:"statusInfo"`
	fragments.TrustedSepaBeneficiary          `graphql:"... on TrustedSepaBeneficiary"`
	fragments.TrustedInternationalBeneficiary `graphql:"... on TrustedInternationalBeneficiary"`
	CreatedAt                                 string `graphql:"createdAt"`
	UpdatedAt                                 string `graphql:"updatedAt"`
}

func (n *beneficiaryNode) beneficiary() Beneficiary {
	s := &n.StatusInfo
	return Beneficiary{
		Typename: n.Typename, ID: n.ID, Name: n.Name, Label: n.Label, Type: n.Type,
		StatusInfo: BeneficiaryStatusInfo{Status: s.Status, EnabledAt: parseTime(s.EnabledAt),
			CanceledAt: parseTime(s.CanceledAt), Consent: consent(s.Consent)},
		IBAN: n.IBAN, Address: address(n.Address),
		Currency: n.Currency, Route: n.Route,
		CreatedAt: parseTime(n.CreatedAt), UpdatedAt: parseTime(n.UpdatedAt),
	}
}

// verifiedTxNode is a transaction with the payee verification of a SEPA
// credit transfer: the transaction's own selection (txNode's fields, one
// by one: a struct of the module cannot embed it and stay visible to the
// string sanitiser) and the verification's fragment.
type verifiedTxNode struct {
	Typename                                 string           `graphql:"__typename" json:"__typename"`
	ID                                       string           `graphql:"id"`
	Reference                                string           `graphql:"reference"`
	ExternalReference                        *string          `graphql:"externalReference"`
	Side                                     string           `graphql:"side"`
	Type                                     string           `graphql:"type"`
	Amount                                   fragments.Amount `graphql:"amount"`
	Label                                    string           `graphql:"label"`
	Counterparty                             string           `graphql:"counterparty"`
	PaymentProduct                           string           `graphql:"paymentProduct"`
	StatusInfo                               txStatusQL       `graphql:"statusInfo"`
	ExecutionDate                            string           `graphql:"executionDate"`
	CreatedAt                                string           `graphql:"createdAt"`
	UpdatedAt                                string           `graphql:"updatedAt"`
	Account                                  *accountRefQL    `graphql:"account"`
	fragments.SEPACreditTransferTransaction  `graphql:"... on SEPACreditTransferTransaction"`
	fragments.SEPADirectDebitTransaction     `graphql:"... on SEPADirectDebitTransaction"`
	fragments.InternalCreditTransfer         `graphql:"... on InternalCreditTransfer"`
	fragments.FeeTransaction                 `graphql:"... on FeeTransaction"`
	fragments.SEPACreditTransferVerification `graphql:"... on SEPACreditTransferTransaction"`
}

func (n *verifiedTxNode) transfer() BeneficiaryTransfer {
	// The same fields as txNode's, so the conversion is the transaction's.
	t := txNode{Typename: n.Typename, ID: n.ID, Reference: n.Reference, ExternalReference: n.ExternalReference,
		Side: n.Side, Type: n.Type, Amount: n.Amount, Label: n.Label, Counterparty: n.Counterparty,
		PaymentProduct: n.PaymentProduct, StatusInfo: n.StatusInfo, ExecutionDate: n.ExecutionDate,
		CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt, Account: n.Account,
		SEPACreditTransferTransaction: n.SEPACreditTransferTransaction, SEPADirectDebitTransaction: n.SEPADirectDebitTransaction,
		InternalCreditTransfer: n.InternalCreditTransfer, FeeTransaction: n.FeeTransaction}
	out := BeneficiaryTransfer{TransactionDetail: t.transaction()}
	if r := n.BeneficiaryVerificationResult; r != nil {
		out.Verification = &PayeeVerification{Status: r.Status, NameSuggestion: r.NameSuggestion}
	}
	return out
}

type beneficiariesQuery struct {
	Account *struct {
		TrustedBeneficiaries connectionQL[beneficiaryNode] `graphql:"trustedBeneficiaries(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
	} `graphql:"account(accountId: $accountId)"`
}

type beneficiaryQuery struct {
	TrustedBeneficiary *beneficiaryNode `graphql:"trustedBeneficiary(id: $id)"`
}

type beneficiaryTransfersQuery struct {
	TrustedBeneficiary *struct {
		Transactions *connectionQL[verifiedTxNode] `graphql:"transactions(first: $first, after: $after)"`
	} `graphql:"trustedBeneficiary(id: $id)"`
}

// Beneficiaries fetches one page of an account's trusted beneficiaries; a
// missing account is ErrNotFound.
func (c *Client) Beneficiaries(ctx context.Context, p BeneficiariesParams) (*Page[Beneficiary], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return listPage(ctx, c, beneficiariesOp, p.vars(c.first(p.First)),
		func(q *beneficiariesQuery) (*connectionQL[beneficiaryNode], bool) {
			if q.Account == nil {
				return nil, false
			}
			return &q.Account.TrustedBeneficiaries, true
		},
		(*beneficiaryNode).beneficiary, c.notFound("account", p.AccountID))
}

// Beneficiary fetches one trusted beneficiary; a missing one is
// ErrNotFound.
func (c *Client) Beneficiary(ctx context.Context, id string) (*Beneficiary, error) {
	return one(ctx, c, beneficiaryOp, map[string]any{"id": id},
		func(q *beneficiaryQuery) *beneficiaryNode { return q.TrustedBeneficiary },
		(*beneficiaryNode).beneficiary, c.notFound("trusted beneficiary", id))
}

// BeneficiaryTransfers fetches one page of the transfers sent to a
// trusted beneficiary, each with its payee verification.
func (c *Client) BeneficiaryTransfers(ctx context.Context, p NestedParams) (*Page[BeneficiaryTransfer], error) {
	if p.ID == "" {
		return nil, paramError("id", "", "is required", nil)
	}
	return listPage(ctx, c, beneficiaryTransfersOp, beneficiaryTransfersVars(p, c.first(p.First)),
		func(q *beneficiaryTransfersQuery) (*connectionQL[verifiedTxNode], bool) {
			if q.TrustedBeneficiary == nil {
				return nil, false
			}
			return q.TrustedBeneficiary.Transactions, true
		},
		(*verifiedTxNode).transfer, c.notFound("trusted beneficiary", p.ID))
}
