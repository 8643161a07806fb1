package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operations of the capital deposit cases (project token only): the list
// (Query.capitalDepositCases) and one (Query.capitalDepositCase).
const (
	OpCapitalDeposits = "CapitalDepositCases"
	OpCapitalDeposit  = "CapitalDepositCase"
)

var (
	capitalDepositsOp = declareQuery[capitalDepositsQuery](OpCapitalDeposits, func() map[string]any { return CapitalDepositsParams{}.vars(platform.PageMax) })
	capitalDepositOp  = declareQuery[capitalDepositQuery](OpCapitalDeposit, idVars)
)

// CapitalDepositStatuses is CapitalDepositStatus.
func CapitalDepositStatuses() []string {
	return []string{"WaitingForInitialRequirements", "PendingInternalReview", "WaitingForAdditionalInformation",
		"WaitingForNotaryShareDepositCertificate", "WaitingForRegisterExtract", "WaitingForNotaryTransfer", "Completed", "Canceled"}
}

// CapitalDepositOrderFields is CapitalDepositCaseOrderByFieldInput.
func CapitalDepositOrderFields() []string { return []string{"id", OrderCreatedAt, OrderUpdatedAt} }

// CapitalDepositDocument is one document of a case: its type, its review
// and where it can be downloaded.
type CapitalDepositDocument struct {
	ID          string    `json:"id"`
	Type        string    `json:"type"`   // CapitalDepositDocumentType
	Status      string    `json:"status"` // Pending | Uploaded | Validated | Refused
	Reason      string    `json:"reason,omitempty"`
	ReasonCode  string    `json:"reasonCode,omitempty"`
	DownloadURL string    `json:"downloadUrl,omitempty"`
	UploadedAt  time.Time `json:"uploadedAt,omitzero"`
}

// Shareholder is one shareholder of a case: who (a person, or a company),
// what they bring, where their part stands.
type Shareholder struct {
	ID        string `json:"id"`
	Typename  string `json:"__typename"` // IndividualShareholder | CompanyShareholder
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`
	Name      string `json:"name,omitempty"` // a company's
	Status    string `json:"status"`         // ShareholderStatus
	Amount    Amount `json:"capitalDepositAmount"`
}

// Who names the shareholder: a company's name, a person's names.
func (s *Shareholder) Who() string {
	if s.Typename == "CompanyShareholder" {
		return s.Name
	}
	return joinName(s.FirstName, s.LastName)
}

// CapitalDeposit is the schema's CapitalDepositCase: the capital a
// company in creation deposits, its shareholders and documents.
type CapitalDeposit struct {
	ID             string                   `json:"id"`
	CompanyName    string                   `json:"companyName"`
	Amount         Amount                   `json:"totalCapitalDepositAmount"`
	Status         string                   `json:"status"` // CapitalDepositStatus, from statusInfo
	CanceledReason string                   `json:"canceledReason,omitempty"`
	AccountID      string                   `json:"companyAccountId,omitempty"`
	Shareholders   []Shareholder            `json:"shareholders"`
	Documents      []CapitalDepositDocument `json:"documents"`
	CreatedAt      time.Time                `json:"createdAt,omitzero"`
	UpdatedAt      time.Time                `json:"updatedAt,omitzero"`
}

// CapitalDepositsParams are the arguments of one capitalDepositCases
// request.
type CapitalDepositsParams struct {
	First     int    // page size; 0 means the client's page size
	After     string // cursor; "" for the first page
	Statuses  []string
	Search    string
	OrderBy   string // CapitalDepositOrderFields() or ""
	Direction string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p CapitalDepositsParams) WithAfter(after string) CapitalDepositsParams {
	p.After = after
	return p
}

func (p CapitalDepositsParams) check() error {
	if err := checkEnum("filters.statuses", CapitalDepositStatuses(), p.Statuses...); err != nil {
		return err
	}
	return checkOrder(CapitalDepositOrderFields(), p.OrderBy, p.Direction)
}

// capitalDepositFiltersInput is the schema's CapitalDepositCaseFiltersInput.
type capitalDepositFiltersInput struct {
	Statuses []string `json:"statuses,omitempty"`
	Search   string   `json:"search,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*capitalDepositFiltersInput) GetGraphQLType() string { return "CapitalDepositCaseFiltersInput" }

type capitalDepositOrderName struct{}

func (capitalDepositOrderName) graphQLType() string { return "CapitalDepositCaseOrderByInput" }

func (p CapitalDepositsParams) vars(first int) map[string]any {
	var filters *capitalDepositFiltersInput
	if len(p.Statuses) > 0 || p.Search != "" {
		filters = &capitalDepositFiltersInput{Statuses: p.Statuses, Search: p.Search}
	}
	return map[string]any{
		"first":   first,
		"after":   cursorVar(p.After),
		"filters": filters,
		"orderBy": orderVar[capitalDepositOrderName](p.OrderBy, p.Direction),
	}
}

// ---- GraphQL shapes ----

type capitalDepositNode struct {
	ID          string           `graphql:"id"`
	CompanyName string           `graphql:"companyName"`
	Amount      fragments.Amount `graphql:"totalCapitalDepositAmount" json:"totalCapitalDepositAmount"`
	StatusInfo  struct {
		Status                                         string `graphql:"status"`
		fragments.CapitalDepositCaseCanceledStatusInfo `graphql:"... on CapitalDepositCaseCanceledStatusInfo"`
	} `graphql:"statusInfo"`
	CompanyAccountID *string `graphql:"companyAccountId" json:"companyAccountId"`
	Shareholders     []struct {
		ID     string           `graphql:"id"`
		Status string           `graphql:"status"`
		Amount fragments.Amount `graphql:"capitalDepositAmount" json:"capitalDepositAmount"`
		Info   struct {
			Typename                        string `graphql:"__typename" json:"__typename"`
			fragments.IndividualShareholder `graphql:"... on IndividualShareholder"`
			fragments.CompanyShareholder    `graphql:"... on CompanyShareholder"`
		} `graphql:"info"`
	} `graphql:"shareholders"`
	Documents []struct {
		ID          string  `graphql:"id"`
		Type        string  `graphql:"type"`
		DownloadURL *string `graphql:"downloadUrl" json:"downloadUrl"`
		UploadedAt  *string `graphql:"uploadedAt"`
		StatusInfo  struct {
			Status                                            string `graphql:"status"`
			fragments.CapitalDepositDocumentRefusedStatusInfo `graphql:"... on CapitalDepositDocumentRefusedStatusInfo"`
		} `graphql:"statusInfo"`
	} `graphql:"documents"`
	CreatedAt string `graphql:"createdAt"`
	UpdatedAt string `graphql:"updatedAt"`
}

func (n *capitalDepositNode) capitalDeposit() CapitalDeposit {
	d := CapitalDeposit{ID: n.ID, CompanyName: n.CompanyName, Amount: Amount(n.Amount), Status: n.StatusInfo.Status,
		CanceledReason: deref(n.StatusInfo.ReasonType), AccountID: deref(n.CompanyAccountID),
		Shareholders: []Shareholder{}, Documents: []CapitalDepositDocument{},
		CreatedAt: parseTime(n.CreatedAt), UpdatedAt: parseTime(n.UpdatedAt)}
	for _, s := range n.Shareholders {
		i := &s.Info
		d.Shareholders = append(d.Shareholders, Shareholder{ID: s.ID, Typename: i.Typename, FirstName: i.FirstName, LastName: i.LastName,
			Name: i.Name, Status: s.Status, Amount: Amount(s.Amount)})
	}
	for _, doc := range n.Documents {
		r := &doc.StatusInfo
		d.Documents = append(d.Documents, CapitalDepositDocument{ID: doc.ID, Type: doc.Type, Status: doc.StatusInfo.Status,
			Reason: deref(r.Reason), ReasonCode: r.ReasonCode, DownloadURL: deref(doc.DownloadURL), UploadedAt: parseDay(deref(doc.UploadedAt))})
	}
	return d
}

// joinName is a first and a last name, either of which may be empty.
func joinName(first, last string) string {
	switch {
	case first == "":
		return last
	case last == "":
		return first
	}
	return first + " " + last
}

type capitalDepositsQuery struct {
	CapitalDepositCases connectionQL[capitalDepositNode] `graphql:"capitalDepositCases(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

type capitalDepositQuery struct {
	CapitalDepositCase *capitalDepositNode `graphql:"capitalDepositCase(id: $id)"`
}

// CapitalDeposits fetches one page of the project's capital deposit cases
// (a project token's query).
func (c *Client) CapitalDeposits(ctx context.Context, p CapitalDepositsParams) (*Page[CapitalDeposit], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return listPage(ctx, c, capitalDepositsOp, p.vars(c.first(p.First)),
		func(q *capitalDepositsQuery) (*connectionQL[capitalDepositNode], bool) {
			return &q.CapitalDepositCases, true
		},
		(*capitalDepositNode).capitalDeposit, nil)
}

// CapitalDeposit fetches one capital deposit case; a missing one is
// ErrNotFound.
func (c *Client) CapitalDeposit(ctx context.Context, id string) (*CapitalDeposit, error) {
	return one(ctx, c, capitalDepositOp, map[string]any{"id": graphql.ID(id)},
		func(q *capitalDepositQuery) *capitalDepositNode { return q.CapitalDepositCase },
		(*capitalDepositNode).capitalDeposit, c.notFound("capital deposit case", id))
}
