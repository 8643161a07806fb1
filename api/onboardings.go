package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operations of the account holder onboardings (project token only):
// the list (Query.accountHolderOnboardings) and one
// (Query.accountHolderOnboarding).
const (
	OpOnboardings = "AccountHolderOnboardings"
	OpOnboarding  = "AccountHolderOnboarding"
)

var (
	onboardingsOp = declareQuery[onboardingsQuery](OpOnboardings, func() map[string]any { return OnboardingsParams{}.vars(platform.PageMax) })
	onboardingOp  = declareQuery[onboardingQuery](OpOnboarding, idVars)
)

// OnboardingStatuses is OnboardingStatus.
func OnboardingStatuses() []string { return []string{"Invalid", "Valid", "Finalized"} }

// OnboardingOrderFields is OnboardingOrderByFieldInput.
func OnboardingOrderFields() []string { return []string{OrderCreatedAt, OrderUpdatedAt, "finalizedAt"} }

// OnboardingFieldError is one field of an Invalid onboarding that is
// missing or invalid (the schema's ValidationError).
type OnboardingFieldError struct {
	Field   string   `json:"field"`
	Errors  []string `json:"errors,omitempty"` // Missing | Invalid
	Details string   `json:"details,omitempty"`
}

// SupportingDocumentStatus is one document of an onboarding's collection.
type SupportingDocumentStatus struct {
	Purpose string `json:"purpose"` // SupportingDocumentPurposeEnum
	Status  string `json:"status"`  // SupportingDocumentStatus
}

// SupportingDocuments is an onboarding's supporting document collection:
// its status, the purposes it requires and the documents it holds.
type SupportingDocuments struct {
	ID        string                     `json:"id"`
	Status    string                     `json:"status"` // SupportingDocumentCollectionStatus
	Required  []string                   `json:"requiredSupportingDocumentPurposes"`
	Documents []SupportingDocumentStatus `json:"supportingDocuments"`
}

// Onboarding is the schema's AccountHolderOnboarding (an individual's or
// a company's): its status and what is missing, the page where the
// future holder fills it in, and the account it opened once finalized.
type Onboarding struct {
	Typename      string                 `json:"__typename"`
	ID            string                 `json:"id"`
	Status        string                 `json:"status"`
	Errors        []OnboardingFieldError `json:"errors,omitempty"` // Invalid
	OnboardingURL string                 `json:"onboardingUrl,omitempty"`
	AccountName   string                 `json:"accountName,omitempty"`
	AccountAdmin  *OnboardingAdmin       `json:"accountAdmin,omitempty"`
	CompanyName   string                 `json:"companyName,omitempty"`
	Account       *AccountRef            `json:"account,omitempty"`
	Documents     *SupportingDocuments   `json:"supportingDocumentCollection,omitempty"`
	CreatedAt     time.Time              `json:"createdAt,omitzero"`
	UpdatedAt     time.Time              `json:"updatedAt,omitzero"`
}

// OnboardingAdmin is who will administer the account once opened.
type OnboardingAdmin struct {
	Email     string `json:"email,omitempty"`
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`
}

// OnboardingsParams are the arguments of one accountHolderOnboardings
// request.
type OnboardingsParams struct {
	First     int    // page size; 0 means the client's page size
	After     string // cursor; "" for the first page
	Statuses  []string
	Types     []string // HolderTypes()
	Search    string
	OrderBy   string // OnboardingOrderFields() or ""
	Direction string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p OnboardingsParams) WithAfter(after string) OnboardingsParams { p.After = after; return p }

func (p OnboardingsParams) check() error {
	if err := checkEnum("filters.status", OnboardingStatuses(), p.Statuses...); err != nil {
		return err
	}
	if err := checkEnum("filters.types", HolderTypes(), p.Types...); err != nil {
		return err
	}
	return checkOrder(OnboardingOrderFields(), p.OrderBy, p.Direction)
}

// onboardingFiltersInput is the schema's OnboardingFiltersInput.
type onboardingFiltersInput struct {
	Status []string `json:"status,omitempty"`
	Types  []string `json:"types,omitempty"`
	Search string   `json:"search,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*onboardingFiltersInput) GetGraphQLType() string { return "OnboardingFiltersInput" }

type onboardingOrderName struct{}

func (onboardingOrderName) graphQLType() string { return "OnboardingOrderByInput" }

func (p OnboardingsParams) vars(first int) map[string]any {
	var filters *onboardingFiltersInput
	if len(p.Statuses) > 0 || len(p.Types) > 0 || p.Search != "" {
		filters = &onboardingFiltersInput{Status: p.Statuses, Types: p.Types, Search: p.Search}
	}
	return map[string]any{
		"first":   first,
		"after":   cursorVar(p.After),
		"filters": filters,
		"orderBy": orderVar[onboardingOrderName](p.OrderBy, p.Direction),
	}
}

// ---- GraphQL shapes ----

// onboardingNode is one member of the AccountHolderOnboarding union:
// what both have through the interface they implement, each one's own
// fields aliased apart.
type onboardingNode struct {
	Typename                                    string `graphql:"__typename" json:"__typename"`
	fragments.AccountHolderOnboardingBase       `graphql:"... on AccountHolderOnboardingBase"`
	fragments.IndividualAccountHolderOnboarding `graphql:"... on IndividualAccountHolderOnboarding"`
	fragments.CompanyAccountHolderOnboarding    `graphql:"... on CompanyAccountHolderOnboarding"`
}

// HolderType is whom the onboarding is for, an Individual or a Company
// (AccountHolderType), from its type.
func (o *Onboarding) HolderType() string {
	if o.Typename == "CompanyAccountHolderOnboarding" {
		return "Company"
	}
	return "Individual"
}

func (n *onboardingNode) onboarding() Onboarding {
	info, admin := n.IndividualAccountInfo, n.IndividualAccountAdmin
	company := n.Typename == "CompanyAccountHolderOnboarding"
	if company {
		info, admin = n.CompanyAccountInfo, n.CompanyAccountAdmin
	}
	o := Onboarding{Typename: n.Typename, ID: n.ID, Status: n.StatusInfo.Status,
		OnboardingURL: deref(n.OnboardingURL), CreatedAt: parseTime(n.CreatedAt), UpdatedAt: parseTime(n.UpdatedAt)}
	if a := n.Account; a != nil {
		o.Account = &AccountRef{ID: a.ID, Name: a.Name}
	}
	for _, e := range n.StatusInfo.Errors {
		o.Errors = append(o.Errors, OnboardingFieldError{Field: e.Field, Errors: e.Errors, Details: deref(e.Details)})
	}
	if info != nil {
		o.AccountName = deref(info.Name)
	}
	if admin != nil {
		o.AccountAdmin = &OnboardingAdmin{Email: deref(admin.Email), FirstName: deref(admin.FirstName), LastName: deref(admin.LastName)}
	}
	if c := n.Company; c != nil && company {
		o.CompanyName = deref(c.Name)
	}
	if c := n.SupportingDocumentCollection; c != nil {
		d := &SupportingDocuments{ID: c.ID, Status: c.StatusInfo.Status, Required: []string{}, Documents: []SupportingDocumentStatus{}}
		for _, r := range c.RequiredSupportingDocumentPurposes {
			d.Required = append(d.Required, r.Name)
		}
		for _, doc := range c.SupportingDocuments {
			d.Documents = append(d.Documents, SupportingDocumentStatus{Purpose: doc.Purpose.Name, Status: doc.StatusInfo.Status})
		}
		o.Documents = d
	}
	return o
}

// Missing are the supporting document purposes the collection requires
// that no document of it serves yet, uploaded or not (a refused one
// counts as missing).
func (d *SupportingDocuments) Missing() []string {
	var out []string
	for _, purpose := range d.Required {
		served := false
		for _, doc := range d.Documents {
			if doc.Purpose == purpose && doc.Status != "Refused" && doc.Status != "NotUploaded" && doc.Status != "WaitingForUpload" {
				served = true
			}
		}
		if !served {
			out = append(out, purpose)
		}
	}
	return out
}

type onboardingsQuery struct {
	Onboardings connectionQL[onboardingNode] `graphql:"accountHolderOnboardings(first: $first, after: $after, filters: $filters, orderBy: $orderBy)" json:"accountHolderOnboardings"`
}

type onboardingQuery struct {
	Onboarding *onboardingNode `graphql:"accountHolderOnboarding(id: $id)" json:"accountHolderOnboarding"`
}

// Onboardings fetches one page of the project's account holder
// onboardings (a project token's query).
func (c *Client) Onboardings(ctx context.Context, p OnboardingsParams) (*Page[Onboarding], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return listPage(ctx, c, onboardingsOp, p.vars(c.first(p.First)),
		func(q *onboardingsQuery) (*connectionQL[onboardingNode], bool) { return &q.Onboardings, true },
		(*onboardingNode).onboarding, nil)
}

// Onboarding fetches one account holder onboarding; a missing one is
// ErrNotFound.
func (c *Client) Onboarding(ctx context.Context, id string) (*Onboarding, error) {
	return one(ctx, c, onboardingOp, map[string]any{"id": graphql.ID(id)},
		func(q *onboardingQuery) *onboardingNode { return q.Onboarding },
		(*onboardingNode).onboarding, c.notFound("onboarding", id))
}
