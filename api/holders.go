package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operations of the account holders: the list the token sees
// (Query.accountHolders), one (Query.accountHolder) and its accounts.
const (
	OpAccountHolders        = "AccountHolders"
	OpAccountHolder         = "AccountHolder"
	OpAccountHolderAccounts = "AccountHolderAccounts"
)

var (
	accountHoldersOp        = declareQuery[accountHoldersQuery](OpAccountHolders, func() map[string]any { return AccountHoldersParams{}.vars(platform.PageMax) })
	accountHolderOp         = declareQuery[accountHolderQuery](OpAccountHolder, idVars)
	accountHolderAccountsOp = declareQuery[accountHolderAccountsQuery](OpAccountHolderAccounts, func() map[string]any {
		return NestedParams{ID: "x"}.vars(platform.PageMax)
	})
)

// HolderTypes is AccountHolderType.
func HolderTypes() []string { return []string{"Individual", "Company"} }

// VerificationStatuses is VerificationStatus.
func VerificationStatuses() []string {
	return []string{"NotStarted", "WaitingForInformation", "Pending", "Verified", "Refused"}
}

// HolderStatuses is AccountHolderStatus.
func HolderStatuses() []string { return []string{"Enabled", "Suspended", "Canceled"} }

// HolderOrderFields is AccountHolderOrderByFieldInput.
func HolderOrderFields() []string { return []string{OrderCreatedAt, OrderUpdatedAt} }

// VerificationStatusInfo is AccountHolder.verificationStatusInfo with the
// fields of its concrete type: when the status was reached, and why.
type VerificationStatusInfo struct {
	Status string    `json:"status"` // VerificationStatus
	At     time.Time `json:"at,omitzero"`
	// Reason is why a Refused holder was refused.
	Reason string `json:"reason,omitempty"`
	// Requirements are what a WaitingForInformation holder must still
	// provide (VerificationRequirementType).
	Requirements []string `json:"verificationRequirements,omitempty"`
}

// AccountHolder is the schema's AccountHolder as the holders' view shows
// it: who (an individual or a company), whether verified and why not,
// its status.
type AccountHolder struct {
	HolderDetail
	VerificationStatusInfo VerificationStatusInfo `json:"verificationStatusInfo"`
	CreatedAt              time.Time              `json:"createdDate,omitzero"`
	UpdatedAt              time.Time              `json:"updatedDate,omitzero"`
}

// AccountHoldersParams are the arguments of one accountHolders request.
type AccountHoldersParams struct {
	First                int    // page size; 0 means the client's page size
	After                string // cursor; "" for the first page
	Types                []string
	VerificationStatuses []string
	Statuses             []string
	Search               string
	OrderBy              string // HolderOrderFields() or ""
	Direction            string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p AccountHoldersParams) WithAfter(after string) AccountHoldersParams { p.After = after; return p }

func (p AccountHoldersParams) check() error {
	if err := checkEnum("filters.types", HolderTypes(), p.Types...); err != nil {
		return err
	}
	if err := checkEnum("filters.verificationStatus", VerificationStatuses(), p.VerificationStatuses...); err != nil {
		return err
	}
	if err := checkEnum("filters.status", HolderStatuses(), p.Statuses...); err != nil {
		return err
	}
	return checkOrder(HolderOrderFields(), p.OrderBy, p.Direction)
}

// holderFilterInput is the schema's AccountHolderFilterInput.
type holderFilterInput struct {
	Types              []string `json:"types,omitempty"`
	VerificationStatus []string `json:"verificationStatus,omitempty"`
	Status             []string `json:"status,omitempty"`
	Search             string   `json:"search,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*holderFilterInput) GetGraphQLType() string { return "AccountHolderFilterInput" }

type holderOrderName struct{}

func (holderOrderName) graphQLType() string { return "AccountHolderOrderByInput" }

func (p AccountHoldersParams) vars(first int) map[string]any {
	var filters *holderFilterInput
	if len(p.Types) > 0 || len(p.VerificationStatuses) > 0 || len(p.Statuses) > 0 || p.Search != "" {
		filters = &holderFilterInput{Types: p.Types, VerificationStatus: p.VerificationStatuses, Status: p.Statuses, Search: p.Search}
	}
	return map[string]any{
		"first":   first,
		"after":   cursorVar(p.After),
		"filters": filters,
		"orderBy": orderVar[holderOrderName](p.OrderBy, p.Direction),
	}
}

// ---- GraphQL shapes ----

// holderNode is holderDetailQL's selection (its fields declared alike,
// so that the detail converts as the account's holder does) with the
// verification's reasons and the holder's dates.
type holderNode struct {
	ID                 string `graphql:"id"`
	VerificationStatus string `graphql:"verificationStatus"`
	Info               struct {
		Type                               string `graphql:"type"`
		Name                               string `graphql:"name"`
		fragments.AccountHolderCompanyInfo `graphql:"... on AccountHolderCompanyInfo"`
	} `graphql:"info"`
	StatusInfo *struct {
		Status                                     string `graphql:"status"`
		fragments.AccountHolderCanceledStatusInfo  `graphql:"... on AccountHolderCanceledStatusInfo"`
		fragments.AccountHolderSuspendedStatusInfo `graphql:"... on AccountHolderSuspendedStatusInfo"`
	} `graphql:"statusInfo"`
	ResidencyAddress *struct {
		AddressLine1 *string `graphql:"addressLine1"`
		AddressLine2 *string `graphql:"addressLine2"`
		City         *string `graphql:"city"`
		PostalCode   *string `graphql:"postalCode"`
		State        *string `graphql:"state"`
		Country      *string `graphql:"country"`
	} `graphql:"residencyAddress"`
	VerificationStatusInfo struct {
		Status                                                             string `graphql:"status"`
		fragments.AccountHolderPendingVerificationStatusInfo               `graphql:"... on AccountHolderPendingVerificationStatusInfo"`
		fragments.AccountHolderRefusedVerificationStatusInfo               `graphql:"... on AccountHolderRefusedVerificationStatusInfo"`
		fragments.AccountHolderVerifiedVerificationStatusInfo              `graphql:"... on AccountHolderVerifiedVerificationStatusInfo"`
		fragments.AccountHolderWaitingForInformationVerificationStatusInfo `graphql:"... on AccountHolderWaitingForInformationVerificationStatusInfo"`
	} `graphql:"verificationStatusInfo"`
	CreatedDate string `graphql:"createdDate"`
	UpdatedDate string `graphql:"updatedDate"`
}

func (n *holderNode) holder() AccountHolder {
	d := holderDetailQL{ID: n.ID, VerificationStatus: n.VerificationStatus, Info: n.Info, StatusInfo: n.StatusInfo,
		ResidencyAddress: n.ResidencyAddress}
	v := &n.VerificationStatusInfo
	info := VerificationStatusInfo{Status: v.Status, Reason: v.RefusedReason,
		At: parseTime(firstNonEmpty(v.PendingAt, v.RefusedAt, v.VerifiedAt, v.WaitingForInformationAt))}
	for _, r := range v.VerificationRequirements {
		info.Requirements = append(info.Requirements, r.Type)
	}
	return AccountHolder{HolderDetail: d.detail(), VerificationStatusInfo: info,
		CreatedAt: parseTime(n.CreatedDate), UpdatedAt: parseTime(n.UpdatedDate)}
}

type accountHoldersQuery struct {
	AccountHolders connectionQL[holderNode] `graphql:"accountHolders(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

type accountHolderQuery struct {
	AccountHolder *holderNode `graphql:"accountHolder(id: $id)"`
}

type accountHolderAccountsQuery struct {
	AccountHolder *struct {
		Accounts connectionQL[accountListNode] `graphql:"accounts(first: $first, after: $after)"`
	} `graphql:"accountHolder(id: $id)"`
}

// AccountHolders fetches one page of the account holders the token sees:
// the project's, or those of the user's accounts.
func (c *Client) AccountHolders(ctx context.Context, p AccountHoldersParams) (*Page[AccountHolder], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return listPage(ctx, c, accountHoldersOp, p.vars(c.first(p.First)),
		func(q *accountHoldersQuery) (*connectionQL[holderNode], bool) { return &q.AccountHolders, true },
		(*holderNode).holder, nil)
}

// AccountHolder fetches one account holder; a missing one is ErrNotFound.
func (c *Client) AccountHolder(ctx context.Context, id string) (*AccountHolder, error) {
	return one(ctx, c, accountHolderOp, map[string]any{"id": graphql.ID(id)},
		func(q *accountHolderQuery) *holderNode { return q.AccountHolder },
		(*holderNode).holder, c.notFound("account holder", id))
}

// AccountHolderAccounts fetches one page of an account holder's accounts.
func (c *Client) AccountHolderAccounts(ctx context.Context, p NestedParams) (*Page[Account], error) {
	if p.ID == "" {
		return nil, paramError("id", "", "is required", nil)
	}
	return listPage(ctx, c, accountHolderAccountsOp, p.vars(c.first(p.First)),
		func(q *accountHolderAccountsQuery) (*connectionQL[accountListNode], bool) {
			if q.AccountHolder == nil {
				return nil, false
			}
			return &q.AccountHolder.Accounts, true
		},
		(*accountListNode).account, c.notFound("account holder", p.ID))
}
