package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operation names of the memberships.
const (
	OpMemberships    = "AccountMemberships"
	OpAccountMembers = "AccountMembers"
	OpMembership     = "AccountMembership"
)

var (
	membershipsOp    = declareQuery[membershipsQuery](OpMemberships, func() map[string]any { return MembershipsParams{}.vars(platform.PageMax) })
	accountMembersOp = declareQuery[accountMembershipsQuery](OpAccountMembers, func() map[string]any {
		return MembershipsParams{AccountID: "x"}.vars(platform.PageMax)
	})
	membershipOp = declareQuery[membershipQuery](OpMembership, idVars)
)

// MembershipUser is AccountMembership.user: who holds the membership once
// it is bound.
type MembershipUser struct {
	ID        string `json:"id"`
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`
	FullName  string `json:"fullName,omitempty"`
}

// RestrictedTo is the schema's RestrictedTo: whom an invitation is for.
type RestrictedTo struct {
	FirstName   string `json:"firstName,omitempty"`
	LastName    string `json:"lastName,omitempty"`
	BirthDate   string `json:"birthDate,omitempty"` // Date, YYYY-MM-DD
	PhoneNumber string `json:"phoneNumber,omitempty"`
}

// Consent is the consent a pending membership or card waits for.
type Consent struct {
	ID         string `json:"id"`
	Status     string `json:"status,omitempty"` // ConsentStatus
	ConsentURL string `json:"consentUrl,omitempty"`
}

// MembershipStatusInfo is AccountMembership.statusInfo with the fields of
// its concrete type (AccountMembership…StatusInfo).
type MembershipStatusInfo struct {
	Status string `json:"status"` // AccountMembershipStatus
	// Reason says why a membership is Disabled or Suspended.
	Reason string `json:"reason,omitempty"`
	// RestrictedTo is whom a BindingUserError, ConsentPending or
	// InvitationSent membership is for.
	RestrictedTo *RestrictedTo `json:"restrictedTo,omitempty"`
	Consent      *Consent      `json:"consent,omitempty"` // ConsentPending
	// BindingUserError: which facts of the user who tried to bind the
	// membership did not match RestrictedTo.
	FirstNameMatchError     bool `json:"firstNameMatchError,omitempty"`
	LastNameMatchError      bool `json:"lastNameMatchError,omitempty"`
	BirthDateMatchError     bool `json:"birthDateMatchError,omitempty"`
	PhoneNumberMatchError   bool `json:"phoneNumberMatchError,omitempty"`
	EmailVerifiedMatchError bool `json:"emailVerifiedMatchError,omitempty"`
	IDVerifiedMatchError    bool `json:"idVerifiedMatchError,omitempty"`
}

// AccountMembership is the schema's AccountMembership: a person's rights on
// one account.
type AccountMembership struct {
	ID                         string               `json:"id"`
	Email                      string               `json:"email"`
	User                       *MembershipUser      `json:"user,omitempty"` // null until the invitation is bound
	LegalRepresentative        bool                 `json:"legalRepresentative"`
	CanViewAccount             bool                 `json:"canViewAccount"`
	CanManageBeneficiaries     bool                 `json:"canManageBeneficiaries"`
	CanInitiatePayments        bool                 `json:"canInitiatePayments"`
	CanManageAccountMembership bool                 `json:"canManageAccountMembership"`
	CanManageCards             bool                 `json:"canManageCards"`
	StatusInfo                 MembershipStatusInfo `json:"statusInfo"`
	AccountID                  string               `json:"accountId"`
	Account                    *AccountRef          `json:"account,omitempty"`
	CreatedAt                  time.Time            `json:"createdAt,omitzero"`
	UpdatedAt                  time.Time            `json:"updatedAt,omitzero"`
	DisabledAt                 time.Time            `json:"disabledAt,omitzero"`
}

// MembershipsParams are the arguments of one memberships request.
type MembershipsParams struct {
	First int    // page size; 0 means the client's page size
	After string // cursor; "" for the first page
	// AccountID lists one account's members (Account.memberships, a
	// missing account is ErrNotFound); "" lists every membership the token
	// sees (Query.accountMemberships).
	AccountID string
	Search    string   // filters.search
	Email     string   // filters.email
	FirstName string   // filters.firstName
	LastName  string   // filters.lastName
	Status    []string // filters.status: MembershipStatuses()
	// The rights filters: nil for either, else only memberships with (or
	// without) the right.
	CanViewAccount             *bool
	CanManageBeneficiaries     *bool
	CanInitiatePayments        *bool
	CanManageAccountMembership *bool
	CanManageCards             *bool
	UserID                     string // filters.userId; only with AccountID (the root query has no such filter)
	OrderBy                    string // MembershipOrderFields() or "" (server default)
	Direction                  string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p MembershipsParams) WithAfter(after string) MembershipsParams { p.After = after; return p }

func (p MembershipsParams) check() error {
	if p.UserID != "" && p.AccountID == "" {
		return paramError("filters.userId", p.UserID, "filters the members of one account only: give the account id too", nil)
	}
	if err := checkEnum("filters.status", MembershipStatuses(), p.Status...); err != nil {
		return err
	}
	return checkOrder(MembershipOrderFields(), p.OrderBy, p.Direction)
}

// membershipFilter is what AccountMembershipsFilterInput and
// MembershipsFilterInput share.
type membershipFilter struct {
	CanManageCards             *bool    `json:"canManageCards,omitempty"`
	CanInitiatePayments        *bool    `json:"canInitiatePayments,omitempty"`
	CanManageAccountMembership *bool    `json:"canManageAccountMembership,omitempty"`
	CanManageBeneficiaries     *bool    `json:"canManageBeneficiaries,omitempty"`
	CanViewAccount             *bool    `json:"canViewAccount,omitempty"`
	Status                     []string `json:"status,omitempty"`
	Email                      string   `json:"email,omitempty"`
	FirstName                  string   `json:"firstName,omitempty"`
	LastName                   string   `json:"lastName,omitempty"`
	Search                     string   `json:"search,omitempty"`
}

// accountMembershipsFilterInput is the root query's filter type.
type accountMembershipsFilterInput struct {
	membershipFilter
	AccountID string `json:"accountId,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*accountMembershipsFilterInput) GetGraphQLType() string { return "AccountMembershipsFilterInput" }

// membershipsFilterInput is Account.memberships's filter type.
type membershipsFilterInput struct {
	membershipFilter
	UserID string `json:"userId,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*membershipsFilterInput) GetGraphQLType() string { return "MembershipsFilterInput" }

type membershipOrderName struct{}

func (membershipOrderName) graphQLType() string { return "AccountMembershipOrderByInput" }

// vars declares the same variables whatever is set, so the query text
// does not depend on the filters.
func (p MembershipsParams) vars(first int) map[string]any {
	f := membershipFilter{
		CanManageCards: p.CanManageCards, CanInitiatePayments: p.CanInitiatePayments,
		CanManageAccountMembership: p.CanManageAccountMembership, CanManageBeneficiaries: p.CanManageBeneficiaries,
		CanViewAccount: p.CanViewAccount, Status: p.Status, Email: p.Email, FirstName: p.FirstName,
		LastName: p.LastName, Search: p.Search,
	}
	set := f.CanManageCards != nil || f.CanInitiatePayments != nil || f.CanManageAccountMembership != nil ||
		f.CanManageBeneficiaries != nil || f.CanViewAccount != nil || len(f.Status) > 0 ||
		f.Email != "" || f.FirstName != "" || f.LastName != "" || f.Search != ""
	vars := map[string]any{
		"first":   first,
		"after":   cursorVar(p.After),
		"orderBy": orderVar[membershipOrderName](p.OrderBy, p.Direction),
	}
	if p.AccountID == "" {
		var filters *accountMembershipsFilterInput
		if set {
			filters = &accountMembershipsFilterInput{membershipFilter: f}
		}
		vars["filters"] = filters
		return vars
	}
	var filters *membershipsFilterInput
	if set || p.UserID != "" {
		filters = &membershipsFilterInput{membershipFilter: f, UserID: p.UserID}
	}
	vars["filters"] = filters
	vars["accountId"] = graphql.ID(p.AccountID)
	return vars
}

// ---- GraphQL shapes ----

type membershipStatusQL struct {
	Status                                                string `graphql:"status"`
	fragments.AccountMembershipBindingUserErrorStatusInfo `graphql:"... on AccountMembershipBindingUserErrorStatusInfo"`
	fragments.AccountMembershipConsentPendingStatusInfo   `graphql:"... on AccountMembershipConsentPendingStatusInfo"`
	fragments.AccountMembershipInvitationSentStatusInfo   `graphql:"... on AccountMembershipInvitationSentStatusInfo"`
	fragments.AccountMembershipDisabledStatusInfo         `graphql:"... on AccountMembershipDisabledStatusInfo"`
	fragments.AccountMembershipSuspendedStatusInfo        `graphql:"... on AccountMembershipSuspendedStatusInfo"`
}

func (s *membershipStatusQL) statusInfo() MembershipStatusInfo {
	b := &s.AccountMembershipBindingUserErrorStatusInfo
	return MembershipStatusInfo{
		Status:                  s.Status,
		Reason:                  firstNonEmpty(s.DisabledReason, s.SuspendedReason),
		RestrictedTo:            restrictedTo(b.RestrictedTo, s.ConsentRestrictedTo, s.InvitationRestrictedTo),
		Consent:                 consent(s.Consent),
		FirstNameMatchError:     b.FirstNameMatchError,
		LastNameMatchError:      b.LastNameMatchError,
		BirthDateMatchError:     b.BirthDateMatchError,
		PhoneNumberMatchError:   b.PhoneNumberMatchError,
		EmailVerifiedMatchError: b.EmailVerifiedMatchError,
		IDVerifiedMatchError:    b.IDVerifiedMatchError,
	}
}

// restrictedTo converts whichever status type carried it.
func restrictedTo(rs ...*fragments.RestrictedTo) *RestrictedTo {
	for _, r := range rs {
		if r != nil {
			return &RestrictedTo{FirstName: r.FirstName, LastName: r.LastName, BirthDate: deref(r.BirthDate), PhoneNumber: deref(r.PhoneNumber)}
		}
	}
	return nil
}

func consent(c *fragments.Consent) *Consent {
	if c == nil {
		return nil
	}
	return &Consent{ID: c.ID, Status: c.Status, ConsentURL: c.ConsentURL}
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// membershipNode is the selection of an AccountMembership.
type membershipNode struct {
	ID    string `graphql:"id"`
	Email string `graphql:"email"`
	User  *struct {
		ID        string  `graphql:"id"`
		FirstName *string `graphql:"firstName"`
		LastName  *string `graphql:"lastName"`
		FullName  *string `graphql:"fullName"`
	} `graphql:"user"`
	LegalRepresentative        bool               `graphql:"legalRepresentative"`
	CanViewAccount             bool               `graphql:"canViewAccount"`
	CanManageBeneficiaries     bool               `graphql:"canManageBeneficiaries"`
	CanInitiatePayments        bool               `graphql:"canInitiatePayments"`
	CanManageAccountMembership bool               `graphql:"canManageAccountMembership"`
	CanManageCards             bool               `graphql:"canManageCards"`
	StatusInfo                 membershipStatusQL `graphql:"statusInfo"`
	AccountID                  string             `graphql:"accountId"`
	Account                    *accountRefQL      `graphql:"account"`
	CreatedAt                  string             `graphql:"createdAt"`
	UpdatedAt                  string             `graphql:"updatedAt"`
	DisabledAt                 *string            `graphql:"disabledAt"`
}

func (n *membershipNode) membership() AccountMembership {
	m := AccountMembership{
		ID:                         n.ID,
		Email:                      n.Email,
		LegalRepresentative:        n.LegalRepresentative,
		CanViewAccount:             n.CanViewAccount,
		CanManageBeneficiaries:     n.CanManageBeneficiaries,
		CanInitiatePayments:        n.CanInitiatePayments,
		CanManageAccountMembership: n.CanManageAccountMembership,
		CanManageCards:             n.CanManageCards,
		StatusInfo:                 n.StatusInfo.statusInfo(),
		AccountID:                  n.AccountID,
		Account:                    n.Account.ref(),
		CreatedAt:                  parseTime(n.CreatedAt),
		UpdatedAt:                  parseTime(n.UpdatedAt),
		DisabledAt:                 parseTimePtr(n.DisabledAt),
	}
	if u := n.User; u != nil {
		m.User = &MembershipUser{ID: u.ID, FirstName: deref(u.FirstName), LastName: deref(u.LastName), FullName: deref(u.FullName)}
	}
	return m
}

type membershipsQuery struct {
	AccountMemberships connectionQL[membershipNode] `graphql:"accountMemberships(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

type accountMembershipsQuery struct {
	Account *struct {
		Memberships connectionQL[membershipNode] `graphql:"memberships(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
	} `graphql:"account(accountId: $accountId)"`
}

type membershipQuery struct {
	AccountMembership *membershipNode `graphql:"accountMembership(id: $id)"`
}

// ---- Client methods ----

// AccountMemberships fetches one page of memberships: one account's
// (p.AccountID) or every one the token sees.
func (c *Client) AccountMemberships(ctx context.Context, p MembershipsParams) (*Page[AccountMembership], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	vars := p.vars(c.first(p.First))
	if p.AccountID == "" {
		return listPage(ctx, c, membershipsOp, vars,
			func(q *membershipsQuery) (*connectionQL[membershipNode], bool) { return &q.AccountMemberships, true },
			(*membershipNode).membership, nil)
	}
	return listPage(ctx, c, accountMembersOp, vars,
		func(q *accountMembershipsQuery) (*connectionQL[membershipNode], bool) {
			if q.Account == nil {
				return nil, false
			}
			return &q.Account.Memberships, true
		},
		(*membershipNode).membership, c.notFound("account", p.AccountID))
}

// AccountMembership fetches one membership (Query.accountMembership); a
// missing one is an error wrapping ErrNotFound.
func (c *Client) AccountMembership(ctx context.Context, id string) (*AccountMembership, error) {
	return one(ctx, c, membershipOp, map[string]any{"id": graphql.ID(id)},
		func(q *membershipQuery) *membershipNode { return q.AccountMembership },
		(*membershipNode).membership, c.notFound("account membership", id))
}
