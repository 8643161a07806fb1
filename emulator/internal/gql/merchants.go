package gql

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Webhook events of merchants (swan-io/docs, webhooks.mdx).
const (
	eventLinkCreated = "MerchantPaymentLink.Created"
)

// profileR is a MerchantProfile, and its status info.
type profileR struct {
	r *request
	p data.MerchantProfile
}

func (p *profileR) ID() ID                          { return ID(p.p.ID) }
func (p *profileR) AccentColor() *string            { return optString(p.p.AccentColor) }
func (p *profileR) AccountID() ID                   { return ID(p.r.store.AccountOfIndex(p.p.AccountIndex).ID) }
func (p *profileR) CreatedAt() scalar               { return dateTime(p.p.CreatedAt) }
func (p *profileR) UpdatedAt() scalar               { return dateTime(p.p.UpdatedAt) }
func (p *profileR) ExpectedAverageBasket() *amountR { return amount(p.p.Basket, p.p.Currency) }
func (p *profileR) ExpectedMonthlyPaymentVolume() *amountR {
	return amount(p.p.Volume, p.p.Currency)
}
func (p *profileR) MerchantLogoUrl() *string    { return nil }
func (p *profileR) MerchantName() string        { return p.p.Name }
func (p *profileR) MerchantWebsiteUrl() *string { return optString(p.p.Website) }
func (p *profileR) ProductType() string         { return p.p.ProductType }
func (p *profileR) StatusInfo() *profileR       { return p }
func (p *profileR) Status() string              { return p.p.Status }
func (p *profileR) RejectionReason() string     { return p.p.Reason }
func (p *profileR) EnabledAt() scalar           { return date(p.p.StatusAt) }
func (p *profileR) RejectedAt() scalar          { return date(p.p.StatusAt) }
func (p *profileR) SuspendedAt() scalar         { return date(p.p.StatusAt) }
func (p *profileR) DisabledAt() scalar          { return date(p.p.StatusAt) }

// ExpectedMonthlyMerchantProcessingVolume is the band of the expected
// monthly volume.
func (p *profileR) ExpectedMonthlyMerchantProcessingVolume() string {
	switch v := p.p.Volume; {
	case v < 500_000:
		return "LessThan5000"
	case v < 1_000_000:
		return "Between5000And10000"
	case v < 10_000_000:
		return "Between10000And100000"
	}
	return "MoreThan100000"
}

func (p *profileR) MerchantPaymentMethods() *[]*methodR {
	out := make([]*methodR, len(p.p.Methods))
	for i, m := range p.p.Methods {
		out[i] = &methodR{profile: p, m: m}
	}
	return &out
}

func (p *profileR) method(id string) *methodR {
	for _, m := range p.p.Methods {
		if m.ID == id {
			return &methodR{profile: p, m: m}
		}
	}
	return nil
}

func (p *profileR) is(s string) bool { return p.p.Status == s }
func (p *profileR) ToDisabledMerchantProfileStatusInfo() (*profileR, bool) {
	return p, p.is(data.MerchantDisabled)
}
func (p *profileR) ToEnabledMerchantProfileStatusInfo() (*profileR, bool) {
	return p, p.is(data.MerchantEnabled)
}
func (p *profileR) ToPendingReviewMerchantProfileStatusInfo() (*profileR, bool) {
	return p, p.is(data.MerchantPendingReview)
}
func (p *profileR) ToRejectedMerchantProfileStatusInfo() (*profileR, bool) {
	return p, p.is(data.MerchantRejected)
}
func (p *profileR) ToSuspendedMerchantProfileStatusInfo() (*profileR, bool) {
	return p, p.is(data.MerchantSuspended)
}

type merchantLinksArgs struct {
	First   int32
	After   *string
	OrderBy *orderArgs
	Filters *struct {
		AmountGreaterThan *scalar
		AmountSmallerThan *scalar
		IsAfterCreatedAt  *scalar
		IsBeforeCreatedAt *scalar
		Status            *[]string
		Search            *string
	}
}

// MerchantPaymentLinks are the profile's links, newest first.
func (p *profileR) MerchantPaymentLinks(args merchantLinksArgs) (*connR[data.PaymentLink, *linkR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	list := p.r.store.ProfileLinks(p.p)
	if f := args.Filters; f != nil {
		var keep func(data.PaymentLink) bool
		var err error
		if keep, err = amountDateFilter(f.AmountGreaterThan, f.AmountSmallerThan, f.IsAfterCreatedAt, f.IsBeforeCreatedAt,
			func(l data.PaymentLink) (int64, scalar) { return l.Amount, dateTime(l.CreatedAt) }); err != nil {
			return nil, err
		}
		search := strings.ToLower(deref(f.Search))
		list = slices.DeleteFunc(list, func(l data.PaymentLink) bool {
			return !keep(l) || (f.Status != nil && !slices.Contains(*f.Status, l.Status)) ||
				(search != "" && !strings.Contains(strings.ToLower(l.Label+"\x00"+l.Reference+"\x00"+l.ID), search))
		})
	}
	if field, desc := orderOf(args.OrderBy, "createdAt", true); field != "createdAt" || !desc {
		cmp := func(x, y data.PaymentLink) int { return x.CreatedAt.Compare(y.CreatedAt) }
		if field == "label" {
			cmp = func(x, y data.PaymentLink) int { return strings.Compare(x.Label, y.Label) }
		}
		slices.SortStableFunc(list, func(x, y data.PaymentLink) int {
			if desc {
				return cmp(y, x)
			}
			return cmp(x, y)
		})
	}
	page, err := data.PageList(list, int(args.First), deref(args.After), 0, "merchantPaymentLink", func(l data.PaymentLink) string { return l.ID })
	if err != nil {
		return nil, fmt.Errorf("merchantPaymentLinks: %w", err)
	}
	return newConn(page, func(l *data.PaymentLink) string { return l.ID }, func(l *data.PaymentLink) *linkR { return &linkR{r: p.r, l: *l} }), nil
}

// amountDateFilter keeps what lies within the filters' amounts and dates.
func amountDateFilter[T any](above, below, after, before *scalar, of func(T) (int64, scalar)) (func(T) bool, error) {
	lo, err := parseAmountArg("filters.amountGreaterThan", above)
	if err != nil {
		return nil, err
	}
	hi, err := parseAmountArg("filters.amountSmallerThan", below)
	if err != nil {
		return nil, err
	}
	from, err := parseDateTime("filters.isAfterCreatedAt", after)
	if err != nil {
		return nil, err
	}
	to, err := parseDateTime("filters.isBeforeCreatedAt", before)
	if err != nil {
		return nil, err
	}
	return func(x T) bool {
		a, d := of(x)
		at, _ := parseDateTime("", &d)
		return (lo == nil || a > *lo) && (hi == nil || a < *hi) && (from.IsZero() || at.After(from)) && (to.IsZero() || at.Before(to))
	}, nil
}

type merchantPaymentsArgs struct {
	First   int32
	After   *string
	OrderBy *orderArgs
	Filters *struct {
		AmountGreaterThan *scalar
		AmountSmallerThan *scalar
		IsAfterCreatedAt  *scalar
		IsBeforeCreatedAt *scalar
		PaymentMethod     *[]string
		Status            *[]string
		Search            *string
		AccountID         *string
	}
}

// merchantPayments pages payments by the arguments' filters and order.
func (r *request) merchantPayments(list []data.MerchantPayment, args merchantPaymentsArgs) (*connR[data.MerchantPayment, *merchantPaymentR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	if f := args.Filters; f != nil {
		keep, err := amountDateFilter(f.AmountGreaterThan, f.AmountSmallerThan, f.IsAfterCreatedAt, f.IsBeforeCreatedAt,
			func(m data.MerchantPayment) (int64, scalar) { return m.Amount, dateTime(m.CreatedAt) })
		if err != nil {
			return nil, err
		}
		search := strings.ToLower(deref(f.Search))
		list = slices.DeleteFunc(list, func(m data.MerchantPayment) bool {
			return !keep(m) || (f.Status != nil && !slices.Contains(*f.Status, m.Status)) ||
				(f.PaymentMethod != nil && !slices.Contains(*f.PaymentMethod, "Card")) ||
				(search != "" && !strings.Contains(strings.ToLower(m.Label+"\x00"+m.Reference+"\x00"+m.ID), search))
		})
	}
	if field, desc := orderOf(args.OrderBy, "createdAt", true); field != "createdAt" || !desc {
		cmp := func(x, y data.MerchantPayment) int { return x.CreatedAt.Compare(y.CreatedAt) }
		switch field {
		case "amount":
			cmp = func(x, y data.MerchantPayment) int { return int(x.Amount - y.Amount) }
		case "label":
			cmp = func(x, y data.MerchantPayment) int { return strings.Compare(x.Label, y.Label) }
		}
		slices.SortStableFunc(list, func(x, y data.MerchantPayment) int {
			if desc {
				return cmp(y, x)
			}
			return cmp(x, y)
		})
	}
	page, err := data.PageList(list, int(args.First), deref(args.After), 0, "merchantPayment", func(m data.MerchantPayment) string { return m.ID })
	if err != nil {
		return nil, fmt.Errorf("merchantPayments: %w", err)
	}
	return newConn(page, func(m *data.MerchantPayment) string { return m.ID }, func(m *data.MerchantPayment) *merchantPaymentR {
		return &merchantPaymentR{r: r, m: *m}
	}), nil
}

// MerchantPayments are the payments the profile received, newest first.
func (p *profileR) MerchantPayments(args merchantPaymentsArgs) (*connR[data.MerchantPayment, *merchantPaymentR], error) {
	return p.r.merchantPayments(p.r.store.ProfilePayments(p.p), args)
}

// methodR is a merchant payment method of one of three types, and its
// status info.
type methodR struct {
	profile *profileR
	m       data.PaymentMethod
}

func (m *methodR) ID() ID                              { return ID(m.m.ID) }
func (m *methodR) MethodID() ID                        { return ID(m.m.MethodID) }
func (m *methodR) Type() string                        { return m.m.Type }
func (m *methodR) Version() int32                      { return int32(m.m.Version) }
func (m *methodR) CreatedAt() scalar                   { return date(m.m.CreatedAt) }
func (m *methodR) UpdatedAt() scalar                   { return date(m.m.UpdatedAt) }
func (m *methodR) MerchantProfile() *profileR          { return m.profile }
func (m *methodR) UseSwanSepaCreditorIdentifier() bool { return true }
func (m *methodR) StatusInfo() *methodR                { return m }
func (m *methodR) Status() string                      { return m.m.Status }
func (m *methodR) EnabledAt() scalar                   { return date(m.m.UpdatedAt) }
func (m *methodR) DisabledAt() scalar                  { return date(m.m.UpdatedAt) }
func (m *methodR) SuspendedAt() scalar                 { return date(m.m.UpdatedAt) }
func (m *methodR) RejectedAt() scalar                  { return date(m.m.UpdatedAt) }
func (m *methodR) RejectionReason() string             { return "UnsupportedMerchantProfile" }

func (m *methodR) ToCardMerchantPaymentMethod() (*methodR, bool) { return m, m.m.Type == "Card" }
func (m *methodR) ToSepaDirectDebitCoreMerchantPaymentMethod() (*methodR, bool) {
	return m, m.m.Type == "SepaDirectDebitCore"
}
func (m *methodR) ToCheckMerchantPaymentMethod() (*methodR, bool) { return m, m.m.Type == "Check" }
func (m *methodR) ToDisabledMerchantPaymentMethodStatusInfo() (*methodR, bool) {
	return m, m.m.Status == "Disabled"
}
func (m *methodR) ToEnabledMerchantPaymentMethodStatusInfo() (*methodR, bool) {
	return m, m.m.Status == "Enabled"
}
func (m *methodR) ToPendingMerchantPaymentMethodStatusInfo() (*methodR, bool) {
	return m, m.m.Status == "PendingReview"
}
func (m *methodR) ToRejectedMerchantPaymentMethodStatusInfo() (*methodR, bool) {
	return m, m.m.Status == "Rejected"
}
func (m *methodR) ToSuspendedMerchantPaymentMethodStatusInfo() (*methodR, bool) {
	return m, m.m.Status == "Suspended"
}

// linkR is a MerchantPaymentLink, and its status info.
type linkR struct {
	r *request
	l data.PaymentLink
}

func (l *linkR) ID() string                 { return l.l.ID }
func (l *linkR) ProjectID() ID              { return ID(l.r.store.Project().ID) }
func (l *linkR) URL() string                { return data.PaymentLinkURL(l.l) }
func (l *linkR) Amount() *amountR           { return amount(l.l.Amount, l.l.Currency) }
func (l *linkR) RedirectUrl() *string       { return optString(l.l.RedirectURL) }
func (l *linkR) CancelRedirectUrl() *string { return optString(l.l.CancelRedirectURL) }
func (l *linkR) Sequence() string           { return l.l.Sequence }
func (l *linkR) ExternalReference() *string { return optString(l.l.ExternalReference) }
func (l *linkR) Reference() *string         { return optString(l.l.Reference) }
func (l *linkR) Language() *string          { return optString(l.l.Language) }
func (l *linkR) Label() *string             { return optString(l.l.Label) }
func (l *linkR) CreatedAt() scalar          { return dateTime(l.l.CreatedAt) }

// RequestedExecutionAt is null for a payment executed as soon as possible.
func (l *linkR) RequestedExecutionAt() *scalar { return optDateTime(l.l.RequestedExecutionAt) }

func (l *linkR) BillingAddress() *addressR {
	if l.l.BillingAddress == (data.Address{}) {
		return nil
	}
	return &addressR{a: l.l.BillingAddress}
}
func (l *linkR) StatusInfo() *linkR  { return l }
func (l *linkR) Status() string      { return l.l.Status }
func (l *linkR) ExpiresAt() scalar   { return dateTime(l.l.ExpiresAt) }
func (l *linkR) CompletedAt() scalar { return dateTime(l.l.StatusAt) }
func (l *linkR) ExpiredAt() scalar   { return dateTime(l.l.StatusAt) }

func (l *linkR) profile() *profileR {
	p, _ := l.r.store.MerchantProfile(data.Viewer{Project: true}, l.l.ProfileID)
	return &profileR{r: l.r, p: p}
}

func (l *linkR) MerchantProfile() *profileR { return l.profile() }

func (l *linkR) PaymentMethods() []*methodR {
	p := l.profile()
	var out []*methodR
	for _, id := range l.l.MethodIDs {
		if m := p.method(id); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// Customer is who the link was made for, when it names one.
func (l *linkR) Customer() *linkR {
	if l.l.CustomerName == "" {
		return nil
	}
	return l
}
func (l *linkR) ExternalCustomerID() *string { return nil }
func (l *linkR) Name() *string               { return optString(l.l.CustomerName) }
func (l *linkR) Iban() *string               { return nil }

func (l *linkR) ToActiveMerchantPaymentLinkStatusInfo() (*linkR, bool) {
	return l, l.l.Status == "Active"
}
func (l *linkR) ToCompletedMerchantPaymentLinkStatusInfo() (*linkR, bool) {
	return l, l.l.Status == "Completed"
}
func (l *linkR) ToExpiredMerchantPaymentLinkStatusInfo() (*linkR, bool) {
	return l, l.l.Status == "Expired"
}

// merchantPaymentR is a CardMerchantPayment, its status info and its
// balance.
type merchantPaymentR struct {
	r *request
	m data.MerchantPayment
}

func (m *merchantPaymentR) ID() ID                                           { return ID(m.m.ID) }
func (m *merchantPaymentR) Amount() *amountR                                 { return amount(m.m.Amount, m.m.Currency) }
func (m *merchantPaymentR) Label() *string                                   { return optString(m.m.Label) }
func (m *merchantPaymentR) Reference() *string                               { return optString(m.m.Reference) }
func (m *merchantPaymentR) ExternalReference() *string                       { return nil }
func (m *merchantPaymentR) UpdatedAt() scalar                                { return dateTime(m.m.UpdatedAt) }
func (m *merchantPaymentR) StatusInfo() *merchantPaymentR                    { return m }
func (m *merchantPaymentR) Status() string                                   { return m.m.Status }
func (m *merchantPaymentR) CreatedAt() scalar                                { return dateTime(m.m.CreatedAt) }
func (m *merchantPaymentR) AuthorizedAt() scalar                             { return dateTime(m.m.CreatedAt.Add(1e9)) }
func (m *merchantPaymentR) CapturedAt() scalar                               { return dateTime(m.m.UpdatedAt) }
func (m *merchantPaymentR) Balance() *merchantPaymentR                       { return m }
func (m *merchantPaymentR) ToCardMerchantPayment() (*merchantPaymentR, bool) { return m, true }

func (m *merchantPaymentR) profile() *profileR {
	p, _ := m.r.store.MerchantProfile(data.Viewer{Project: true}, m.m.ProfileID)
	return &profileR{r: m.r, p: p}
}

func (m *merchantPaymentR) MerchantProfile() *profileR { return m.profile() }

// PaymentMethod is the profile's card method, which took it.
func (m *merchantPaymentR) PaymentMethod() *methodR {
	p := m.profile()
	for _, x := range p.p.Methods {
		if x.Type == "Card" {
			return &methodR{profile: p, m: x}
		}
	}
	return nil
}

// PaymentLink is the link it came through, if any.
func (m *merchantPaymentR) PaymentLink() *linkR {
	if m.m.LinkID == "" {
		return nil
	}
	l, ok := m.r.store.PaymentLink(data.Viewer{Project: true}, m.m.LinkID)
	if !ok {
		return nil
	}
	return &linkR{r: m.r, l: l}
}

// Transactions are its account's credit for it.
func (m *merchantPaymentR) Transactions(args transactionsArgs) (*txConnR, error) {
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := m.r.store.TransactionsOf([]string{m.m.TransactionID}, q)
	if err != nil {
		return nil, fmt.Errorf("transactions: %w", err)
	}
	return m.r.txConn(page), nil
}

// The balance of a captured payment: all of it captured and refundable.
func (m *merchantPaymentR) captured() int64 {
	if m.m.Status == "Captured" {
		return m.m.Amount
	}
	return 0
}
func (m *merchantPaymentR) TotalAuthorized() *amountR { return amount(m.m.Amount, m.m.Currency) }
func (m *merchantPaymentR) TotalCaptured() *amountR   { return amount(m.captured(), m.m.Currency) }
func (m *merchantPaymentR) AvailableToRefund() *amountR {
	return amount(m.captured(), m.m.Currency)
}
func (m *merchantPaymentR) AvailableToCapture() *amountR {
	return amount(m.m.Amount-m.captured(), m.m.Currency)
}
func (m *merchantPaymentR) AvailableToCancel() *amountR {
	return amount(m.m.Amount-m.captured(), m.m.Currency)
}
func (m *merchantPaymentR) TotalCanceled() *amountR { return amount(0, m.m.Currency) }
func (m *merchantPaymentR) TotalDisputed() *amountR { return amount(0, m.m.Currency) }
func (m *merchantPaymentR) TotalRefunded() *amountR { return amount(0, m.m.Currency) }

func (m *merchantPaymentR) ToMerchantPaymentAuthorized() (*merchantPaymentR, bool) {
	return m, m.m.Status == "Authorized"
}
func (m *merchantPaymentR) ToMerchantPaymentCaptured() (*merchantPaymentR, bool) {
	return m, m.m.Status == "Captured"
}

type merchantProfilesArgs struct {
	First   int32
	After   *string
	OrderBy *orderArgs
	Filters *struct {
		ID     *[]ID
		Status *[]string
	}
}

// profiles pages merchant profiles by the arguments.
func (r *request) profiles(list []data.MerchantProfile, args merchantProfilesArgs) (*connR[data.MerchantProfile, *profileR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	if f := args.Filters; f != nil {
		list = slices.DeleteFunc(list, func(p data.MerchantProfile) bool {
			return (f.Status != nil && !slices.Contains(*f.Status, p.Status)) || (f.ID != nil && !slices.Contains(*f.ID, ID(p.ID)))
		})
	}
	field, desc := orderOf(args.OrderBy, "createdAt", true)
	slices.SortStableFunc(list, func(x, y data.MerchantProfile) int {
		a, b := x.CreatedAt, y.CreatedAt
		if field == "updatedAt" {
			a, b = x.UpdatedAt, y.UpdatedAt
		}
		if desc {
			return b.Compare(a)
		}
		return a.Compare(b)
	})
	page, err := data.PageList(list, int(args.First), deref(args.After), 0, "merchantProfile", func(p data.MerchantProfile) string { return p.ID })
	if err != nil {
		return nil, fmt.Errorf("merchantProfiles: %w", err)
	}
	return newConn(page, func(p *data.MerchantProfile) string { return p.ID }, func(p *data.MerchantProfile) *profileR {
		return &profileR{r: r, p: *p}
	}), nil
}

// MerchantProfiles of an account: whoever may view it reads them.
func (a *accountR) MerchantProfiles(args merchantProfilesArgs) (*connR[data.MerchantProfile, *profileR], error) {
	if !a.canViewAccount() {
		return nil, nil
	}
	return a.r.profiles(a.r.store.AccountMerchantProfiles(a.a), args)
}

func (r *partnerResolver) MerchantProfiles(ctx context.Context, args merchantProfilesArgs) (*connR[data.MerchantProfile, *profileR], error) {
	req := r.request(ctx)
	return req.profiles(r.store.MerchantProfiles(req.viewer), args)
}

func (r *partnerResolver) MerchantProfile(ctx context.Context, args struct{ ID ID }) *profileR {
	req := r.request(ctx)
	return byID(req, args.ID, r.store.MerchantProfile, func(p data.MerchantProfile) *profileR { return &profileR{r: req, p: p} })
}

func (r *partnerResolver) MerchantPaymentLink(ctx context.Context, args struct{ ID ID }) *linkR {
	req := r.request(ctx)
	return byID(req, args.ID, r.store.PaymentLink, func(l data.PaymentLink) *linkR { return &linkR{r: req, l: l} })
}

func (r *partnerResolver) MerchantPayment(ctx context.Context, args struct{ ID ID }) *merchantPaymentR {
	req := r.request(ctx)
	return byID(req, args.ID, r.store.MerchantPayment, func(m data.MerchantPayment) *merchantPaymentR { return &merchantPaymentR{r: req, m: m} })
}

func (r *partnerResolver) MerchantPayments(ctx context.Context, args merchantPaymentsArgs) (*connR[data.MerchantPayment, *merchantPaymentR], error) {
	req := r.request(ctx)
	accountID := ""
	if args.Filters != nil {
		accountID = deref(args.Filters.AccountID)
	}
	return req.merchantPayments(r.store.AllMerchantPayments(req.viewer, accountID), args)
}

type createPaymentLinkArgs struct {
	Input struct {
		MerchantProfileID    ID
		Amount               amountInput
		RedirectURL          *scalar
		CancelRedirectURL    *scalar
		BillingAddress       *addressInput
		ExpiresAt            *scalar
		RequestedExecutionAt *scalar
		Sequence             *string
		ExternalReference    *string
		Reference            *string
		Label                *string
		Language             *string
		Customer             *struct{ ExternalCustomerID, Name, Iban *string }
		PaymentMethodIDs     []string
	}
}

// CreateMerchantPaymentLink creates an Active link of an Enabled profile.
func (r *partnerResolver) CreateMerchantPaymentLink(ctx context.Context, args createPaymentLinkArgs) (*outcomeR, error) {
	in := args.Input
	cents, err := in.Amount.cents()
	if err != nil {
		return invalid("amount", "InvalidString", err.Error()), nil
	}
	if len(in.PaymentMethodIDs) == 0 {
		return invalid("paymentMethodIds", "TooShort", "paymentMethodIds must name at least one of the profile's methods"), nil
	}
	expires, err := parseDateTime("expiresAt", in.ExpiresAt)
	if err != nil {
		return invalid("expiresAt", "InvalidString", err.Error()), nil
	}
	execAt, err := parseDateTime("requestedExecutionAt", in.RequestedExecutionAt)
	if err != nil {
		return invalid("requestedExecutionAt", "InvalidString", err.Error()), nil
	}
	// The platform executes a SEPA direct debit up to a year ahead, and a
	// card payment within days: nothing later.
	if !execAt.IsZero() && execAt.After(r.store.Now().AddDate(1, 0, 0)) {
		return invalid("requestedExecutionAt", "InvalidString", "requestedExecutionAt must be within a year"), nil
	}
	nl := data.NewPaymentLink{ProfileID: string(in.MerchantProfileID), Amount: cents, Currency: string(in.Amount.Currency),
		Label: deref(in.Label), Reference: deref(in.Reference), ExternalReference: deref(in.ExternalReference),
		RedirectURL: string(deref(in.RedirectURL)), CancelRedirectURL: string(deref(in.CancelRedirectURL)), Language: deref(in.Language),
		Sequence: deref(in.Sequence), MethodIDs: in.PaymentMethodIDs, ExpiresAt: expires, RequestedExecutionAt: execAt}
	if a := in.BillingAddress; a != nil {
		nl.BillingAddress = data.Address{Line1: deref(a.AddressLine1), Line2: deref(a.AddressLine2), City: deref(a.City),
			PostalCode: deref(a.PostalCode), State: deref(a.State), Country: string(a.Country)}
	}
	if in.Customer != nil {
		nl.CustomerName = deref(in.Customer.Name)
	}
	req := r.request(ctx)
	l, err := r.store.CreatePaymentLink(req.viewer, nl)
	switch {
	case errors.Is(err, data.ErrMethodNotActive):
		return &outcomeR{kind: "MerchantPaymentMethodNotActive", message: err.Error(), methodIDs: in.PaymentMethodIDs}, nil
	case errors.Is(err, data.ErrWrongState):
		p, _ := r.store.MerchantProfile(req.viewer, nl.ProfileID)
		return &outcomeR{kind: "MerchantProfileWrongStatus", message: err.Error(), current: p.Status, expected: data.MerchantEnabled}, nil
	case errors.Is(err, data.ErrNotFound), errors.Is(err, data.ErrForbidden):
		return &outcomeR{kind: "Forbidden", message: err.Error()}, nil
	case err != nil:
		return nil, fmt.Errorf("createMerchantPaymentLink: %w", err)
	}
	r.events.hub.Emit(eventLinkCreated, l.ID)
	return success(&linkR{r: req, l: l}), nil
}

func (o *outcomeR) MerchantPaymentLink() *linkR { l, _ := o.object.(*linkR); return l }
func (o *outcomeR) PaymentMethodIds() *[]string { return &o.methodIDs }
func (o *outcomeR) CurrentStatus() string       { return o.current }
func (o *outcomeR) ExpectedStatus() string      { return o.expected }
func (o *outcomeR) ToCreateMerchantPaymentLinkSuccessPayload() (*outcomeR, bool) {
	return o.as("Success")
}
func (o *outcomeR) ToMerchantProfileWrongStatusRejection() (*outcomeR, bool) {
	return o.as("MerchantProfileWrongStatus")
}
func (o *outcomeR) ToMerchantPaymentMethodNotActiveRejection() (*outcomeR, bool) {
	return o.as("MerchantPaymentMethodNotActive")
}
