package gql

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

type addFundingSourceArgs struct {
	Input struct {
		Scheme             string
		AccountID          ID
		Iban               scalar
		ConsentRedirectURL string
		Name               *string
	}
}

// maxFundingSourceName bounds a funding source's name in the emulator.
const maxFundingSourceName = 100

// AddDirectDebitFundingSource is restricted to user tokens: the user
// consents to the payment mandate.
func (r *partnerResolver) AddDirectDebitFundingSource(ctx context.Context, args addFundingSourceArgs) (*fundingPayloadR, error) {
	in := args.Input
	c := callerFrom(ctx)
	if c.viewer.Project || c.viewer.UserID == "" {
		return &fundingPayloadR{kind: "Forbidden", message: "addDirectDebitFundingSource needs a user access token: the user consents to the payment mandate"}, nil
	}
	iban := strings.ReplaceAll(string(in.Iban), " ", "")
	switch u, err := url.Parse(in.ConsentRedirectURL); {
	case !data.ValidIBAN(iban):
		return invalidField("iban", "InvalidString", "iban is not a valid IBAN: check its check digits"), nil
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return invalidField("consentRedirectUrl", "InvalidString", "consentRedirectUrl is not an absolute http(s) URL"), nil
	case len(deref(in.Name)) > maxFundingSourceName:
		return invalidField("name", "TooLong", fmt.Sprintf("name must be at most %d bytes", maxFundingSourceName)), nil
	}
	accountID := string(in.AccountID)
	src, err := r.store.AddFundingSource(c.viewer.UserID, data.NewFundingSource{AccountID: accountID, IBAN: iban, Scheme: in.Scheme, Name: deref(in.Name)})
	switch {
	case errors.Is(err, data.ErrNotFound):
		return &fundingPayloadR{kind: "NotFound", message: err.Error(), ident: accountID}, nil
	case errors.Is(err, data.ErrForbidden):
		return &fundingPayloadR{kind: "Forbidden", message: err.Error()}, nil
	case errors.Is(err, data.ErrVerificationRejected):
		return &fundingPayloadR{kind: "AccountVerificationAlreadyRejected", message: err.Error()}, nil
	case err != nil:
		return nil, fmt.Errorf("addDirectDebitFundingSource: %w", err)
	}
	r.events.hub.Emit(webhooks.FundingSourceCreated, src.ID)
	return &fundingPayloadR{kind: "Success", source: &fundingSourceR{store: r.store, f: src}}, nil
}

func invalidField(field, code, message string) *fundingPayloadR {
	return &fundingPayloadR{kind: "Validation", message: message,
		fields: []*validationFieldErrorR{{path: []string{field}, code: code, message: message}}}
}

// FundingSource is a funding source of an account the caller sees.
func (r *partnerResolver) FundingSource(ctx context.Context, args struct{ ID ID }) *fundingSourceR {
	src, ok := r.store.FundingSourceOf(viewerOf(ctx), string(args.ID))
	if !ok {
		return nil
	}
	return &fundingSourceR{store: r.store, f: src}
}

// fundingPayloadR serves AddDirectDebitFundingSourcePayload's members.
type fundingPayloadR struct {
	kind    string // Success | Forbidden | NotFound | AccountVerificationAlreadyRejected | Validation
	message string
	ident   string
	fields  []*validationFieldErrorR
	source  *fundingSourceR
}

func (p *fundingPayloadR) Message() string                  { return p.message }
func (p *fundingPayloadR) ID() string                       { return p.ident }
func (p *fundingPayloadR) Fields() []*validationFieldErrorR { return p.fields }
func (p *fundingPayloadR) FundingSource() *fundingSourceR   { return p.source }

func (p *fundingPayloadR) as(kind string) (*fundingPayloadR, bool) { return p, p.kind == kind }
func (p *fundingPayloadR) ToAddDirectDebitFundingSourceSuccessPayload() (*fundingPayloadR, bool) {
	return p.as("Success")
}
func (p *fundingPayloadR) ToForbiddenRejection() (*fundingPayloadR, bool) { return p.as("Forbidden") }
func (p *fundingPayloadR) ToNotFoundRejection() (*fundingPayloadR, bool)  { return p.as("NotFound") }
func (p *fundingPayloadR) ToAccountVerificationAlreadyRejectedRejection() (*fundingPayloadR, bool) {
	return p.as("AccountVerificationAlreadyRejected")
}
func (p *fundingPayloadR) ToValidationRejection() (*fundingPayloadR, bool) { return p.as("Validation") }

// validationFieldErrorR is a ValidationFieldError.
type validationFieldErrorR struct {
	path          []string
	code, message string
}

func (f *validationFieldErrorR) Path() []string  { return f.path }
func (f *validationFieldErrorR) Code() string    { return f.code }
func (f *validationFieldErrorR) Message() string { return f.message }

type fundingSourcesArgs struct {
	First   int32
	After   *string
	Offset  *int32
	OrderBy *orderArgs
	Filters *struct{ Status []string }
}

// FundingSources needs canViewAccount, as the account's history does.
func (a *accountR) FundingSources(args fundingSourcesArgs) (*connR[data.FundingSource, *fundingSourceR], error) {
	if !a.canViewAccount() {
		return nil, nil
	}
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.FundingSourceQuery{First: int(args.First), After: deref(args.After), Offset: int(deref(args.Offset))}
	q.Field, q.Desc = orderOf(args.OrderBy, "updatedAt", true)
	if args.Filters != nil {
		q.Statuses = args.Filters.Status
	}
	page, err := a.r.store.FundingSources(a.a.ID, q)
	if err != nil {
		return nil, fmt.Errorf("fundingSources: %w", err)
	}
	return newConn(page, data.FundingSourceCursor, func(f *data.FundingSource) *fundingSourceR {
		return &fundingSourceR{store: a.r.store, f: *f}
	}), nil
}

// fundingSourceR is a DirectDebitFundingSource, the FundingSource's only
// kind the emulator adds.
type fundingSourceR struct {
	store *data.Store
	f     data.FundingSource
}

func (s *fundingSourceR) ID() ID            { return ID(s.f.ID) }
func (s *fundingSourceR) Name() *string     { return optString(s.f.Name) }
func (s *fundingSourceR) Iban() scalar      { return scalar(s.f.IBAN) }
func (s *fundingSourceR) CreatedAt() scalar { return dateTime(s.f.CreatedAt) }
func (s *fundingSourceR) UpdatedAt() scalar { return dateTime(s.f.UpdatedAt) }
func (s *fundingSourceR) StatusInfo() *fundingStatusR {
	return &fundingStatusR{f: s.f}
}
func (s *fundingSourceR) ToDirectDebitFundingSource() (*fundingSourceR, bool) { return s, true }

// AccountVerification is the verification the source shares with every
// source of the same holder and IBAN, read afresh.
func (s *fundingSourceR) AccountVerification() (*verificationR, error) {
	v, ok := s.store.Verification(s.f.VerificationID)
	if !ok {
		return nil, fmt.Errorf("the account verification %s of funding source %s is gone", s.f.VerificationID, s.f.ID)
	}
	return &verificationR{v: v}, nil
}

func (s *fundingSourceR) PaymentMandate() *mandateR { return &mandateR{f: s.f} }

// fundingStatusR serves the FundingSourceStatusInfo members.
type fundingStatusR struct{ f data.FundingSource }

func (s *fundingStatusR) Status() string    { return s.f.Status }
func (s *fundingStatusR) EnabledAt() scalar { return scalar(s.f.EnabledAt.UTC().Format("2006-01-02")) }
func (s *fundingStatusR) RejectedAt() scalar {
	return scalar(s.f.RejectedAt.UTC().Format("2006-01-02"))
}
func (s *fundingStatusR) ReasonCode() string { return "AccountVerificationRejected" }
func (s *fundingStatusR) ToPendingFundingSourceStatusInfo() (*fundingStatusR, bool) {
	return s, s.f.Status == data.FundingSourcePending
}
func (s *fundingStatusR) ToEnabledFundingSourceStatusInfo() (*fundingStatusR, bool) {
	return s, s.f.Status == data.FundingSourceEnabled
}
func (s *fundingStatusR) ToRejectedFundingSourceStatusInfo() (*fundingStatusR, bool) {
	return s, s.f.Status == data.FundingSourceRejected
}

// mandateR is the SEPAPaymentDirectDebitMandate the holder gives the bank
// to debit the source's IBAN: recurrent, in the source's scheme.
type mandateR struct{ f data.FundingSource }

func (m *mandateR) ID() ID            { return ID(m.f.MandateID) }
func (m *mandateR) Reference() string { return m.f.MandateReference }
func (m *mandateR) Scheme() string    { return m.f.Scheme }
func (m *mandateR) Sequence() string  { return "Recurrent" }
func (m *mandateR) Name() *string     { return optString(m.f.Name) }
func (m *mandateR) CreatedAt() scalar { return dateTime(m.f.CreatedAt) }
func (m *mandateR) UpdatedAt() scalar { return dateTime(m.f.CreatedAt) }
func (m *mandateR) StatusInfo() *mandateR {
	return m
}
func (m *mandateR) Status() string { return m.f.MandateStatus }
func (m *mandateR) ToSEPAPaymentDirectDebitMandate() (*mandateR, bool) {
	return m, true
}
func (m *mandateR) ToPaymentMandateConsentPendingStatusInfo() (*mandateR, bool) {
	return m, m.f.MandateStatus == data.MandateConsentPending
}
func (m *mandateR) ToPaymentMandateEnabledStatusInfo() (*mandateR, bool) {
	return m, m.f.MandateStatus == data.MandateEnabled
}

// verificationR is a DirectDebitAccountVerification, in both schemas.
type verificationR struct{ v data.AccountVerification }

func (v *verificationR) ID() ID                                  { return ID(v.v.ID) }
func (v *verificationR) Iban() scalar                            { return scalar(v.v.IBAN) }
func (v *verificationR) CreatedAt() scalar                       { return dateTime(v.v.CreatedAt) }
func (v *verificationR) UpdatedAt() scalar                       { return dateTime(v.v.UpdatedAt) }
func (v *verificationR) StatusInfo() *verificationR              { return v }
func (v *verificationR) Status() string                          { return v.v.Status }
func (v *verificationR) VerifiedAt() scalar                      { return dateTime(v.v.VerifiedAt) }
func (v *verificationR) RejectedAt() scalar                      { return dateTime(v.v.RejectedAt) }
func (v *verificationR) Reason() string                          { return "HolderDidNotMatch" }
func (v *verificationR) is(status string) (*verificationR, bool) { return v, v.v.Status == status }
func (v *verificationR) ToDirectDebitAccountVerification() (*verificationR, bool) {
	return v, true
}
func (v *verificationR) ToPendingVerificationStatusInfo() (*verificationR, bool) {
	return v.is(data.VerificationPendingVerification)
}
func (v *verificationR) ToPendingReviewStatusInfo() (*verificationR, bool) {
	return v.is(data.VerificationPendingReview)
}
func (v *verificationR) ToVerifiedStatusInfo() (*verificationR, bool) {
	return v.is(data.VerificationVerified)
}
func (v *verificationR) ToRejectedVerificationStatusInfo() (*verificationR, bool) {
	return v.is(data.VerificationRejected)
}
