package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operations of the merchant profiles and their payment links: the
// profiles the token sees (Query.merchantProfiles) or an account's
// (Account.merchantProfiles), one profile, a profile's payment links, and
// one link.
const (
	OpMerchantProfiles        = "MerchantProfiles"
	OpAccountMerchantProfiles = "AccountMerchantProfiles"
	OpMerchantProfile         = "MerchantProfile"
	OpPaymentLinks            = "MerchantPaymentLinks"
	OpPaymentLink             = "MerchantPaymentLink"
)

var (
	merchantProfilesOp        = declareQuery[merchantProfilesQuery](OpMerchantProfiles, func() map[string]any { return MerchantProfilesParams{}.vars(platform.PageMax) })
	accountMerchantProfilesOp = declareQuery[accountMerchantProfilesQuery](OpAccountMerchantProfiles, func() map[string]any {
		return MerchantProfilesParams{AccountID: "x"}.vars(platform.PageMax)
	})
	merchantProfileOp = declareQuery[merchantProfileQuery](OpMerchantProfile, idVars)
	paymentLinksOp    = declareQuery[paymentLinksQuery](OpPaymentLinks, func() map[string]any {
		return PaymentLinksParams{MerchantProfileID: "x"}.vars(platform.PageMax)
	})
	paymentLinkOp = declareQuery[paymentLinkQuery](OpPaymentLink, idVars)
)

// MerchantProfileStatuses is MerchantProfileStatus.
func MerchantProfileStatuses() []string {
	return []string{"PendingReview", "Enabled", "Rejected", "Suspended", "Disabled"}
}

// MerchantProfileOrderFields is MerchantProfileOrderByFieldInput.
func MerchantProfileOrderFields() []string { return []string{OrderCreatedAt, OrderUpdatedAt} }

// PaymentLinkStatuses is MerchantPaymentLinkStatus.
func PaymentLinkStatuses() []string { return []string{"Active", "Expired", "Completed"} }

// PaymentLinkOrderFields is MerchantPaymentLinkOrderByFieldInput.
func PaymentLinkOrderFields() []string { return []string{OrderCreatedAt, "label", "url"} }

// MerchantPaymentMethod is one way a merchant profile takes payments and
// whether it may.
type MerchantPaymentMethod struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`   // MerchantPaymentMethodType
	Status    string    `json:"status"` // MerchantPaymentMethodStatus
	Version   int       `json:"version"`
	UpdatedAt time.Time `json:"updatedAt,omitzero"`
}

// MerchantProfile is the schema's MerchantProfile: a merchant an account
// takes payments as, its status and payment methods.
type MerchantProfile struct {
	ID                    string                  `json:"id"`
	MerchantName          string                  `json:"merchantName"`
	ProductType           string                  `json:"productType"`
	AccountID             string                  `json:"accountId"`
	Status                string                  `json:"status"` // MerchantProfileStatus
	WebsiteURL            string                  `json:"merchantWebsiteUrl,omitempty"`
	ExpectedAverageBasket Amount                  `json:"expectedAverageBasket"`
	PaymentMethods        []MerchantPaymentMethod `json:"merchantPaymentMethods"`
	CreatedAt             time.Time               `json:"createdAt,omitzero"`
	UpdatedAt             time.Time               `json:"updatedAt,omitzero"`
}

// PaymentLinkStatusInfo is MerchantPaymentLink.statusInfo with the date
// of its concrete type: until when an Active link can be paid, when a
// Completed one was paid, when an Expired one expired.
type PaymentLinkStatusInfo struct {
	Status      string    `json:"status"` // Active | Expired | Completed
	ExpiresAt   time.Time `json:"expiresAt,omitzero"`
	CompletedAt time.Time `json:"completedAt,omitzero"`
	ExpiredAt   time.Time `json:"expiredAt,omitzero"`
}

// PaymentLinkCustomer is who a payment link is for.
type PaymentLinkCustomer struct {
	Name       string `json:"name,omitempty"`
	IBAN       string `json:"iban,omitempty"`
	ExternalID string `json:"externalCustomerId,omitempty"`
}

// PaymentLink is the schema's MerchantPaymentLink: a page where a
// customer pays a merchant profile an amount.
type PaymentLink struct {
	ID                   string                `json:"id"`
	URL                  string                `json:"url"`
	Label                string                `json:"label,omitempty"`
	Reference            string                `json:"reference,omitempty"`
	ExternalReference    string                `json:"externalReference,omitempty"`
	Amount               Amount                `json:"amount"`
	StatusInfo           PaymentLinkStatusInfo `json:"statusInfo"`
	Sequence             string                `json:"sequence"` // Recurrent | OneOff
	Customer             *PaymentLinkCustomer  `json:"customer,omitempty"`
	PaymentMethods       []string              `json:"paymentMethods"` // their types
	MerchantProfile      *MerchantProfileRef   `json:"merchantProfile,omitempty"`
	RequestedExecutionAt time.Time             `json:"requestedExecutionAt,omitzero"`
	CreatedAt            time.Time             `json:"createdAt,omitzero"`
}

// MerchantProfileRef names the profile a payment link belongs to.
type MerchantProfileRef struct {
	ID           string `json:"id"`
	MerchantName string `json:"merchantName,omitempty"`
	AccountID    string `json:"accountId,omitempty"`
}

// MerchantProfilesParams are the arguments of one merchant profiles
// request: every profile the token sees, or one account's.
type MerchantProfilesParams struct {
	First     int    // page size; 0 means the client's page size
	After     string // cursor; "" for the first page
	AccountID string // "" for every profile (Query.merchantProfiles)
	Statuses  []string
	OrderBy   string // MerchantProfileOrderFields() or ""
	Direction string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p MerchantProfilesParams) WithAfter(after string) MerchantProfilesParams {
	p.After = after
	return p
}

func (p MerchantProfilesParams) check() error {
	if err := checkEnum("filters.status", MerchantProfileStatuses(), p.Statuses...); err != nil {
		return err
	}
	return checkOrder(MerchantProfileOrderFields(), p.OrderBy, p.Direction)
}

type merchantProfileFilterName struct{}

func (merchantProfileFilterName) graphQLType() string { return "MerchantProfileFiltersInput" }

type merchantProfileOrderName struct{}

func (merchantProfileOrderName) graphQLType() string { return "MerchantProfileOrderByInput" }

func (p MerchantProfilesParams) vars(first int) map[string]any {
	vars := map[string]any{
		"first":   first,
		"after":   cursorVar(p.After),
		"filters": statusFilterVar[merchantProfileFilterName](p.Statuses),
		"orderBy": orderVar[merchantProfileOrderName](p.OrderBy, p.Direction),
	}
	if p.AccountID != "" {
		vars["accountId"] = graphql.ID(p.AccountID)
	}
	return vars
}

// PaymentLinksParams are the arguments of one page of a merchant
// profile's payment links.
type PaymentLinksParams struct {
	First             int    // page size; 0 means the client's page size
	After             string // cursor; "" for the first page
	MerchantProfileID string // required
	Statuses          []string
	Search            string
	OrderBy           string // PaymentLinkOrderFields() or ""
	Direction         string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p PaymentLinksParams) WithAfter(after string) PaymentLinksParams { p.After = after; return p }

func (p PaymentLinksParams) check() error {
	if p.MerchantProfileID == "" {
		return paramError("merchantProfileId", "", "is required: payment links belong to one merchant profile", nil)
	}
	if err := checkEnum("filters.status", PaymentLinkStatuses(), p.Statuses...); err != nil {
		return err
	}
	return checkOrder(PaymentLinkOrderFields(), p.OrderBy, p.Direction)
}

// paymentLinkFiltersInput is the schema's MerchantPaymentLinkFiltersInput.
type paymentLinkFiltersInput struct {
	Status []string `json:"status,omitempty"`
	Search string   `json:"search,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*paymentLinkFiltersInput) GetGraphQLType() string { return "MerchantPaymentLinkFiltersInput" }

type paymentLinkOrderName struct{}

func (paymentLinkOrderName) graphQLType() string { return "MerchantPaymentLinkOrderByInput" }

func (p PaymentLinksParams) vars(first int) map[string]any {
	var filters *paymentLinkFiltersInput
	if len(p.Statuses) > 0 || p.Search != "" {
		filters = &paymentLinkFiltersInput{Status: p.Statuses, Search: p.Search}
	}
	return map[string]any{
		"id":      graphql.ID(p.MerchantProfileID),
		"first":   first,
		"after":   cursorVar(p.After),
		"filters": filters,
		"orderBy": orderVar[paymentLinkOrderName](p.OrderBy, p.Direction),
	}
}

// ---- GraphQL shapes ----

type merchantProfileNode struct {
	ID           string `graphql:"id"`
	MerchantName string `graphql:"merchantName"`
	ProductType  string `graphql:"productType"`
	AccountID    string `graphql:"accountId"`
	StatusInfo   struct {
		Status string `graphql:"status"`
	} `graphql:"statusInfo"`
	WebsiteURL            *string          `graphql:"merchantWebsiteUrl" json:"merchantWebsiteUrl"`
	ExpectedAverageBasket fragments.Amount `graphql:"expectedAverageBasket"`
	PaymentMethods        []struct {
		ID         string `graphql:"id"`
		Type       string `graphql:"type"`
		Version    int    `graphql:"version"`
		StatusInfo struct {
			Status string `graphql:"status"`
		} `graphql:"statusInfo"`
		UpdatedAt string `graphql:"updatedAt"`
	} `graphql:"merchantPaymentMethods" json:"merchantPaymentMethods"`
	CreatedAt string `graphql:"createdAt"`
	UpdatedAt string `graphql:"updatedAt"`
}

func (n *merchantProfileNode) merchantProfile() MerchantProfile {
	p := MerchantProfile{ID: n.ID, MerchantName: n.MerchantName, ProductType: n.ProductType, AccountID: n.AccountID,
		Status: n.StatusInfo.Status, WebsiteURL: deref(n.WebsiteURL), ExpectedAverageBasket: Amount(n.ExpectedAverageBasket),
		PaymentMethods: []MerchantPaymentMethod{}, CreatedAt: parseTime(n.CreatedAt), UpdatedAt: parseTime(n.UpdatedAt)}
	for _, m := range n.PaymentMethods {
		p.PaymentMethods = append(p.PaymentMethods, MerchantPaymentMethod{ID: m.ID, Type: m.Type, Status: m.StatusInfo.Status,
			Version: m.Version, UpdatedAt: parseDay(m.UpdatedAt)})
	}
	return p
}

type paymentLinkNode struct {
	ID                string           `graphql:"id"`
	URL               string           `graphql:"url"`
	Label             *string          `graphql:"label"`
	Reference         *string          `graphql:"reference"`
	ExternalReference *string          `graphql:"externalReference"`
	Amount            fragments.Amount `graphql:"amount"`
	StatusInfo        struct {
		Status                                           string `graphql:"status"`
		fragments.ActiveMerchantPaymentLinkStatusInfo    `graphql:"... on ActiveMerchantPaymentLinkStatusInfo"`
		fragments.CompletedMerchantPaymentLinkStatusInfo `graphql:"... on CompletedMerchantPaymentLinkStatusInfo"`
		fragments.ExpiredMerchantPaymentLinkStatusInfo   `graphql:"... on ExpiredMerchantPaymentLinkStatusInfo"`
	} `graphql:"statusInfo"`
	Sequence string `graphql:"sequence"`
	Customer *struct {
		Name       *string `graphql:"name"`
		IBAN       *string `graphql:"iban"`
		ExternalID *string `graphql:"externalCustomerId" json:"externalCustomerId"`
	} `graphql:"customer"`
	PaymentMethods []struct {
		Type string `graphql:"type"`
	} `graphql:"paymentMethods"`
	MerchantProfile struct {
		ID           string `graphql:"id"`
		MerchantName string `graphql:"merchantName"`
		AccountID    string `graphql:"accountId"`
	} `graphql:"merchantProfile"`
	RequestedExecutionAt *string `graphql:"requestedExecutionAt"`
	CreatedAt            string  `graphql:"createdAt"`
}

func (n *paymentLinkNode) paymentLink() PaymentLink {
	s := &n.StatusInfo
	l := PaymentLink{ID: n.ID, URL: n.URL, Label: deref(n.Label), Reference: deref(n.Reference),
		ExternalReference: deref(n.ExternalReference), Amount: Amount(n.Amount),
		StatusInfo: PaymentLinkStatusInfo{Status: s.Status, ExpiresAt: parseTime(s.ExpiresAt),
			CompletedAt: parseTime(s.CompletedAt), ExpiredAt: parseTime(s.ExpiredAt)},
		Sequence: n.Sequence, PaymentMethods: []string{},
		MerchantProfile: &MerchantProfileRef{ID: n.MerchantProfile.ID, MerchantName: n.MerchantProfile.MerchantName,
			AccountID: n.MerchantProfile.AccountID},
		RequestedExecutionAt: parseTimePtr(n.RequestedExecutionAt), CreatedAt: parseTime(n.CreatedAt)}
	if c := n.Customer; c != nil {
		l.Customer = &PaymentLinkCustomer{Name: deref(c.Name), IBAN: deref(c.IBAN), ExternalID: deref(c.ExternalID)}
	}
	for _, m := range n.PaymentMethods {
		l.PaymentMethods = append(l.PaymentMethods, m.Type)
	}
	return l
}

type merchantProfilesQuery struct {
	MerchantProfiles connectionQL[merchantProfileNode] `graphql:"merchantProfiles(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

type accountMerchantProfilesQuery struct {
	Account *struct {
		MerchantProfiles *connectionQL[merchantProfileNode] `graphql:"merchantProfiles(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
	} `graphql:"account(accountId: $accountId)"`
}

type merchantProfileQuery struct {
	MerchantProfile *merchantProfileNode `graphql:"merchantProfile(id: $id)"`
}

type paymentLinksQuery struct {
	MerchantProfile *struct {
		Links *connectionQL[paymentLinkNode] `graphql:"merchantPaymentLinks(first: $first, after: $after, filters: $filters, orderBy: $orderBy)" json:"merchantPaymentLinks"`
	} `graphql:"merchantProfile(id: $id)"`
}

type paymentLinkQuery struct {
	PaymentLink *paymentLinkNode `graphql:"merchantPaymentLink(id: $id)" json:"merchantPaymentLink"`
}

// MerchantProfiles fetches one page of merchant profiles: one account's
// (p.AccountID; a missing account is ErrNotFound), or every one the token
// sees.
func (c *Client) MerchantProfiles(ctx context.Context, p MerchantProfilesParams) (*Page[MerchantProfile], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	vars := p.vars(c.first(p.First))
	if p.AccountID == "" {
		return listPage(ctx, c, merchantProfilesOp, vars,
			func(q *merchantProfilesQuery) (*connectionQL[merchantProfileNode], bool) {
				return &q.MerchantProfiles, true
			},
			(*merchantProfileNode).merchantProfile, nil)
	}
	return listPage(ctx, c, accountMerchantProfilesOp, vars,
		func(q *accountMerchantProfilesQuery) (*connectionQL[merchantProfileNode], bool) {
			if q.Account == nil {
				return nil, false
			}
			return q.Account.MerchantProfiles, true
		},
		(*merchantProfileNode).merchantProfile, c.notFound("account", p.AccountID))
}

// MerchantProfile fetches one merchant profile; a missing one is
// ErrNotFound.
func (c *Client) MerchantProfile(ctx context.Context, id string) (*MerchantProfile, error) {
	return one(ctx, c, merchantProfileOp, map[string]any{"id": graphql.ID(id)},
		func(q *merchantProfileQuery) *merchantProfileNode { return q.MerchantProfile },
		(*merchantProfileNode).merchantProfile, c.notFound("merchant profile", id))
}

// PaymentLinks fetches one page of a merchant profile's payment links; a
// missing profile is ErrNotFound.
func (c *Client) PaymentLinks(ctx context.Context, p PaymentLinksParams) (*Page[PaymentLink], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return listPage(ctx, c, paymentLinksOp, p.vars(c.first(p.First)),
		func(q *paymentLinksQuery) (*connectionQL[paymentLinkNode], bool) {
			if q.MerchantProfile == nil {
				return nil, false
			}
			return q.MerchantProfile.Links, true
		},
		(*paymentLinkNode).paymentLink, c.notFound("merchant profile", p.MerchantProfileID))
}

// PaymentLink fetches one payment link; a missing one is ErrNotFound.
func (c *Client) PaymentLink(ctx context.Context, id string) (*PaymentLink, error) {
	return one(ctx, c, paymentLinkOp, map[string]any{"id": graphql.ID(id)},
		func(q *paymentLinkQuery) *paymentLinkNode { return q.PaymentLink },
		(*paymentLinkNode).paymentLink, c.notFound("payment link", id))
}
