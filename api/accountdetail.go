package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
)

// Operation names of the account detail.
const (
	OpAccountDetail     = "AccountDetail"
	OpAccountDetailUser = "AccountDetailWithMembership"
)

var (
	accountDetailOp     = declareQuery[accountDetailQuery](OpAccountDetail, accountIDVars)
	accountDetailUserOp = declareQuery[accountDetailUserQuery](OpAccountDetailUser, accountIDVars)
)

// accountIDVars are the variables of an operation on one account.
func accountIDVars() map[string]any { return map[string]any{"accountId": graphql.ID("")} }

// StatusReason is a suspended, closing or closed account's reasonInfo
// (SuspendAccountReason or CloseAccountReason).
type StatusReason struct {
	Type    string `json:"type"` // SuspendAccountReasonType or CloseAccountReasonType
	Message string `json:"message,omitempty"`
}

// AccountStatusDetail is Account.statusInfo with the fields of its
// concrete type (AccountOpenedStatus, AccountSuspendedStatus, …).
type AccountStatusDetail struct {
	Status     string        `json:"status"`               // Opened | Suspended | Closing | Closed
	ReasonInfo *StatusReason `json:"reasonInfo,omitempty"` // Suspended, Closing, Closed
	ClosingAt  time.Time     `json:"closingAt,omitzero"`   // Closing
	ClosedAt   time.Time     `json:"closedAt,omitzero"`    // Closed
}

// Address is the schema's AddressInfo.
type Address struct {
	AddressLine1 string `json:"addressLine1,omitempty"`
	AddressLine2 string `json:"addressLine2,omitempty"`
	City         string `json:"city,omitempty"`
	PostalCode   string `json:"postalCode,omitempty"`
	State        string `json:"state,omitempty"`
	Country      string `json:"country,omitempty"` // CCA3
}

// HolderInfoDetail is AccountHolder.info with the fields of a company
// holder (AccountHolderCompanyInfo).
type HolderInfoDetail struct {
	Type               string `json:"type"` // Individual | Company
	Name               string `json:"name"`
	RegistrationNumber string `json:"registrationNumber,omitempty"`
	VatNumber          string `json:"vatNumber,omitempty"`
	TradeName          string `json:"tradeName,omitempty"`
}

// HolderStatusInfo is AccountHolder.statusInfo (nullable in the schema).
type HolderStatusInfo struct {
	Status string `json:"status"`           // Enabled | Suspended | Canceled
	Reason string `json:"reason,omitempty"` // Suspended, Canceled
}

// HolderDetail is the schema's AccountHolder as the account detail shows it.
type HolderDetail struct {
	ID                 string            `json:"id"`
	VerificationStatus string            `json:"verificationStatus"`
	Info               HolderInfoDetail  `json:"info"`
	StatusInfo         *HolderStatusInfo `json:"statusInfo,omitempty"`
	ResidencyAddress   *Address          `json:"residencyAddress,omitempty"`
}

// AccountDetail is one account in full: everything Account(id) returns
// (the embedded Account, whose StatusInfo and Holder are filled too), the
// reason for its status, its holder in detail and, with a user token, the
// signed-in user's membership of it. In JSON, statusInfo and holder are
// the detailed ones.
type AccountDetail struct {
	Account
	StatusDetail AccountStatusDetail `json:"statusInfo"`
	HolderDetail HolderDetail        `json:"holder"`
	// Membership is the signed-in user's membership of the account: nil
	// with a project token, or when the user has none.
	Membership *AccountMembership `json:"membership,omitempty"`
}

// IBANHiddenReason is one fact that explains a null IBAN: the platform
// returns IBAN (and BIC) only for a paymentLevel Unlimited account seen
// through a membership with canViewAccount.
type IBANHiddenReason string

// The reasons IBANHidden reports.
const (
	// IBANLimitedAccount: the account's paymentLevel is Limited.
	IBANLimitedAccount IBANHiddenReason = "paymentLevel"
	// IBANNoViewRight: the signed-in user's membership lacks canViewAccount.
	IBANNoViewRight IBANHiddenReason = "canViewAccount"
	// IBANNotAssigned: neither applies; the account has no IBAN (yet).
	IBANNotAssigned IBANHiddenReason = "notAssigned"
)

// IBANHidden says why IBAN is empty: nil when there is an IBAN, otherwise
// every reason that applies (IBANNotAssigned alone when none of the
// others does).
func (d *AccountDetail) IBANHidden() []IBANHiddenReason {
	if d.IBAN != "" {
		return nil
	}
	var rs []IBANHiddenReason
	if d.PaymentLevel == "Limited" {
		rs = append(rs, IBANLimitedAccount)
	}
	if d.Membership != nil && !d.Membership.CanViewAccount {
		rs = append(rs, IBANNoViewRight)
	}
	if len(rs) == 0 {
		rs = append(rs, IBANNotAssigned)
	}
	return rs
}

// ---- GraphQL shapes ----

type accountStatusQL struct {
	Status                           string `graphql:"status"`
	fragments.AccountSuspendedStatus `graphql:"... on AccountSuspendedStatus"`
	fragments.AccountClosingStatus   `graphql:"... on AccountClosingStatus"`
	fragments.AccountClosedStatus    `graphql:"... on AccountClosedStatus"`
}

func (s *accountStatusQL) detail() AccountStatusDetail {
	d := AccountStatusDetail{Status: s.Status, ClosingAt: parseTime(s.ClosingAt), ClosedAt: parseTime(s.ClosedAt)}
	switch {
	case s.SuspendedReason != nil:
		r := s.SuspendedReason.SuspendAccountReason
		d.ReasonInfo = &StatusReason{Type: r.Type, Message: deref(r.Message)}
	case s.ClosingReason != nil:
		d.ReasonInfo = closeReason(s.ClosingReason)
	case s.ClosedReason != nil:
		d.ReasonInfo = closeReason(s.ClosedReason)
	}
	return d
}

func closeReason(r *fragments.CloseReason) *StatusReason {
	return &StatusReason{Type: r.Type, Message: deref(r.Message)}
}

type holderDetailQL struct {
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
}

func (h *holderDetailQL) detail() HolderDetail {
	d := HolderDetail{
		ID:                 h.ID,
		VerificationStatus: h.VerificationStatus,
		Info: HolderInfoDetail{
			Type:               h.Info.Type,
			Name:               h.Info.Name,
			RegistrationNumber: deref(h.Info.RegistrationNumber),
			VatNumber:          deref(h.Info.VatNumber),
			TradeName:          deref(h.Info.TradeName),
		},
	}
	if s := h.StatusInfo; s != nil {
		d.StatusInfo = &HolderStatusInfo{Status: s.Status, Reason: firstNonEmpty(s.CanceledReason, s.SuspendedReason)}
	}
	if a := h.ResidencyAddress; a != nil {
		d.ResidencyAddress = &Address{
			AddressLine1: deref(a.AddressLine1), AddressLine2: deref(a.AddressLine2), City: deref(a.City),
			PostalCode: deref(a.PostalCode), State: deref(a.State), Country: deref(a.Country),
		}
	}
	return d
}

type accountDetailNode struct {
	fragments.AccountFields
	StatusInfo accountStatusQL `graphql:"statusInfo"`
	Holder     holderDetailQL  `graphql:"holder"`
}

func (n *accountDetailNode) detail() AccountDetail {
	d := AccountDetail{
		Account:      *accountFromFields(&n.AccountFields),
		StatusDetail: n.StatusInfo.detail(),
		HolderDetail: n.Holder.detail(),
	}
	d.StatusInfo = StatusInfo{Status: d.StatusDetail.Status}
	d.Holder = Holder{
		ID:                 d.HolderDetail.ID,
		VerificationStatus: d.HolderDetail.VerificationStatus,
		Info:               HolderInfo{Type: d.HolderDetail.Info.Type, Name: d.HolderDetail.Info.Name},
	}
	return d
}

type accountDetailQuery struct {
	Account *accountDetailNode `graphql:"account(accountId: $accountId)"`
}

// userMembershipQL is the signed-in user's membership of one account.
type userMembershipQL struct {
	AccountMemberships connectionQL[membershipNode] `graphql:"accountMemberships(first: 1, filters: {accountId: $accountId})"`
}

// userMembership is u's membership of account id: the filter asked for
// that account's, and a server that ignored it must not lend another
// account's rights.
func userMembership(u *userMembershipQL, id string) *AccountMembership {
	if u == nil {
		return nil
	}
	for i := range u.AccountMemberships.Edges {
		if n := &u.AccountMemberships.Edges[i].Node; n.AccountID == id {
			m := n.membership()
			return &m
		}
	}
	return nil
}

// accountDetailUserQuery adds the signed-in user's membership of the
// account, which says whether it may see the IBAN.
type accountDetailUserQuery struct {
	Account *accountDetailNode `graphql:"account(accountId: $accountId)"`
	User    *userMembershipQL  `graphql:"user"`
}

// AccountDetail fetches one account in full (Query.account); with a user
// token (project false) the same request also fetches the user's
// membership of the account. A missing account is ErrNotFound.
func (c *Client) AccountDetail(ctx context.Context, id string, project bool) (*AccountDetail, error) {
	vars := map[string]any{"accountId": graphql.ID(id)}
	notFound := c.notFound("account", id)
	if project {
		return one(ctx, c, accountDetailOp, vars,
			func(q *accountDetailQuery) *accountDetailNode { return q.Account },
			(*accountDetailNode).detail, notFound)
	}
	var membership *AccountMembership
	d, err := one(ctx, c, accountDetailUserOp, vars,
		func(q *accountDetailUserQuery) *accountDetailNode {
			membership = userMembership(q.User, id)
			return q.Account
		},
		(*accountDetailNode).detail, notFound)
	if d != nil {
		d.Membership = membership
	}
	return d, err
}
