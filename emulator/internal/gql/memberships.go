package gql

import (
	"context"
	"fmt"
	"slices"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// membershipFilterArgs is AccountMembershipsFilterInput (accountId) and
// MembershipsFilterInput (userId) at once.
type membershipFilterArgs struct {
	CanManageCards             *bool
	CanInitiatePayments        *bool
	CanManageAccountMembership *bool
	CanManageBeneficiaries     *bool
	CanViewAccount             *bool
	Status                     *[]string
	Email                      *string
	FirstName                  *string
	LastName                   *string
	Search                     *string
	AccountID                  *ID
	UserID                     *string
}

type membershipsArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *membershipFilterArgs
	OrderBy *orderArgs
}

func (args membershipsArgs) query() (data.MembershipQuery, error) {
	if err := checkFirst(args.First); err != nil {
		return data.MembershipQuery{}, err
	}
	q := data.MembershipQuery{First: int(args.First), After: deref(args.After), Before: deref(args.Before)}
	q.OrderBy, q.Desc = orderOf(args.OrderBy, "createdAt", false)
	if f := args.Filters; f != nil {
		q.Filter = data.MembershipFilter{
			CanViewAccount: f.CanViewAccount, CanManageBeneficiaries: f.CanManageBeneficiaries,
			CanInitiatePayments: f.CanInitiatePayments, CanManageAccountMembership: f.CanManageAccountMembership,
			CanManageCards: f.CanManageCards, Statuses: deref(f.Status),
			Email: deref(f.Email), FirstName: deref(f.FirstName), LastName: deref(f.LastName), Search: deref(f.Search),
			UserID: deref(f.UserID), AccountID: string(deref(f.AccountID)),
		}
	}
	return q, nil
}

type membershipConnR = connR[data.Membership, *membershipR]

func (r *request) memberships(page data.Page[data.Membership]) *membershipConnR {
	return newConn(page, data.MembershipCursor, func(m *data.Membership) *membershipR { return &membershipR{r: r, m: *m} })
}

// membershipR is an AccountMembership.
type membershipR struct {
	r *request
	m data.Membership
}

func (m *membershipR) acc() *data.Account                    { return m.r.store.AccountOfIndex(m.m.AccountIndex) }
func (m *membershipR) ID() ID                                { return ID(m.m.ID) }
func (m *membershipR) Email() string                         { return m.m.Email }
func (m *membershipR) LegalRepresentative() bool             { return m.m.LegalRepresentative }
func (m *membershipR) CanViewAccount() bool                  { return m.m.CanViewAccount }
func (m *membershipR) CanManageBeneficiaries() bool          { return m.m.CanManageBeneficiaries }
func (m *membershipR) CanInitiatePayments() bool             { return m.m.CanInitiatePayments }
func (m *membershipR) CanManageAccountMembership() bool      { return m.m.CanManageAccountMembership }
func (m *membershipR) CanManageCards() bool                  { return m.m.CanManageCards }
func (m *membershipR) StatusInfo() *memberStatusR            { return &memberStatusR{r: m.r, m: m.m} }
func (m *membershipR) AccountID() ID                         { return ID(m.acc().ID) }
func (m *membershipR) Account() *accountR                    { return m.r.account(m.acc()) }
func (m *membershipR) CreatedAt() scalar                     { return dateTime(m.m.CreatedAt) }
func (m *membershipR) UpdatedAt() scalar                     { return dateTime(m.m.UpdatedAt) }
func (m *membershipR) Version() string                       { return fmt.Sprint(m.m.Version) }
func (m *membershipR) DisabledAt() *scalar                   { return optDateTime(m.m.DisabledAt) }
func (m *membershipR) Language() *string                     { return optString(m.m.Language) }
func (m *membershipR) AccountCountry() string                { return m.acc().Country }
func (m *membershipR) AccountHolderType() string             { return m.acc().HolderType }
func (m *membershipR) HasRequiredIdentificationLevel() *bool { b := m.m.UserID != ""; return &b }

// AcceptedIdentificationLevels are the levels a member may verify with.
func (m *membershipR) AcceptedIdentificationLevels() []*string {
	levels := []string{"Expert", "QES", "PVID"}
	out := make([]*string, len(levels))
	for i := range levels {
		out[i] = &levels[i]
	}
	return out
}

func (m *membershipR) ResidencyAddress() *addressR {
	return &addressR{a: m.r.store.MemberAddress(m.m)}
}

func (m *membershipR) User() *userR { return m.r.user(m.m.UserID) }

// user is the User with this id; nil for none.
func (r *request) user(id string) *userR {
	if id == "" {
		return nil
	}
	u, ok := r.store.User(id)
	if !ok {
		return nil
	}
	return &userR{r: r, u: u}
}

// Spending is what the membership's cards spent together in its limit's
// window.
func (m *membershipR) Spending() *spendingR {
	return &spendingR{s: m.r.store.MembershipSpending(m.m)}
}

func (m *membershipR) SpendingLimits() *[]*spendingLimitR {
	if m.m.SpendingLimit == 0 {
		return nil
	}
	l := []*spendingLimitR{{typ: "AccountHolder", period: "Monthly", amount: amount(m.m.SpendingLimit, m.acc().Currency)}}
	return &l
}

func (m *membershipR) Cards(args cardsArgs) (*cardConnR, error) {
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := m.r.store.MembershipCards(m.m, q)
	if err != nil {
		return nil, fmt.Errorf("cards: %w", err)
	}
	return m.r.cards(page), nil
}

// memberStatusR serves the six membership status types.
type memberStatusR struct {
	r *request
	m data.Membership
}

// Consent is asked only of AccountMembershipConsentPendingStatusInfo.
func (s *memberStatusR) Consent() *consentR {
	return &consentR{r: s.r, c: s.r.store.MembershipConsent(s.m)}
}

func (s *memberStatusR) Status() string                { return s.m.Status }
func (s *memberStatusR) Reason() string                { return s.m.StatusReason }
func (s *memberStatusR) RestrictedTo() *restrictedToR  { return &restrictedToR{m: s.m} }
func (s *memberStatusR) mismatch(field string) bool    { return slices.Contains(s.m.BindingErrors, field) }
func (s *memberStatusR) FirstNameMatchError() bool     { return s.mismatch("firstName") }
func (s *memberStatusR) LastNameMatchError() bool      { return s.mismatch("lastName") }
func (s *memberStatusR) BirthDateMatchError() bool     { return s.mismatch("birthDate") }
func (s *memberStatusR) PhoneNumberMatchError() bool   { return s.mismatch("phoneNumber") }
func (s *memberStatusR) EmailVerifiedMatchError() bool { return false }
func (s *memberStatusR) IdVerifiedMatchError() bool    { return false }
func (s *memberStatusR) is(st string) bool             { return s.m.Status == st }
func (s *memberStatusR) ToAccountMembershipEnabledStatusInfo() (*memberStatusR, bool) {
	return s, s.is(data.MemberEnabled)
}
func (s *memberStatusR) ToAccountMembershipInvitationSentStatusInfo() (*memberStatusR, bool) {
	return s, s.is(data.MemberInvitationSent)
}
func (s *memberStatusR) ToAccountMembershipConsentPendingStatusInfo() (*memberStatusR, bool) {
	return s, s.is(data.MemberConsentPending)
}
func (s *memberStatusR) ToAccountMembershipBindingUserErrorStatusInfo() (*memberStatusR, bool) {
	return s, s.is(data.MemberBindingUserError)
}
func (s *memberStatusR) ToAccountMembershipSuspendedStatusInfo() (*memberStatusR, bool) {
	return s, s.is(data.MemberSuspended)
}
func (s *memberStatusR) ToAccountMembershipDisabledStatusInfo() (*memberStatusR, bool) {
	return s, s.is(data.MemberDisabled)
}

// restrictedToR is who an open invitation is for.
type restrictedToR struct{ m data.Membership }

func (r *restrictedToR) FirstName() string    { return r.m.FirstName }
func (r *restrictedToR) LastName() string     { return r.m.LastName }
func (r *restrictedToR) BirthDate() *scalar   { return optScalar(r.m.BirthDate) }
func (r *restrictedToR) PhoneNumber() *string { return optString(r.m.Phone) }

type spendingLimitR struct {
	typ, period string
	amount      *amountR
}

func (l *spendingLimitR) Type() string     { return l.typ }
func (l *spendingLimitR) Period() string   { return l.period }
func (l *spendingLimitR) Amount() *amountR { return l.amount }

func (r *partnerResolver) AccountMembership(ctx context.Context, args struct{ ID ID }) *membershipR {
	m, ok := r.store.Membership(viewerOf(ctx), string(args.ID))
	if !ok {
		return nil
	}
	return &membershipR{r: r.request(ctx), m: m}
}

func (r *partnerResolver) AccountMemberships(ctx context.Context, args membershipsArgs) (*membershipConnR, error) {
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := r.store.Memberships(viewerOf(ctx), q)
	if err != nil {
		return nil, fmt.Errorf("accountMemberships: %w", err)
	}
	return r.request(ctx).memberships(page), nil
}
