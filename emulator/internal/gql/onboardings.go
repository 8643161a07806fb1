package gql

import (
	"context"
	"fmt"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// onboardingR is an IndividualAccountHolderOnboarding or a
// CompanyAccountHolderOnboarding, with its account, admin and company.
type onboardingR struct {
	r *request
	o data.Onboarding
}

func (o *onboardingR) ID() ID                     { return ID(o.o.ID) }
func (o *onboardingR) StatusInfo() *onboardingR   { return o }
func (o *onboardingR) Status() string             { return o.o.Status }
func (o *onboardingR) ValidationVersion() string  { return "V2" }
func (o *onboardingR) CreatedAt() scalar          { return dateTime(o.o.CreatedAt) }
func (o *onboardingR) UpdatedAt() scalar          { return dateTime(o.o.UpdatedAt) }
func (o *onboardingR) AccountInfo() *onboardingR  { return o }
func (o *onboardingR) AccountAdmin() *onboardingR { return o }
func (o *onboardingR) ProjectInfo() *projectR     { return o.r.ProjectInfo() }
func (o *onboardingR) TermsAndConditionsUrl() string {
	return "https://documents.example.com/terms-and-conditions.pdf"
}

// OAuthRedirectParameters are the partner's, which the emulator's
// onboardings were not given.
func (o *onboardingR) OAuthRedirectParameters() *onboardingR { return nil }
func (o *onboardingR) State() *string                        { return nil }
func (o *onboardingR) RedirectUrl() *string                  { return nil }

// OnboardingUrl is where the onboarding is filled in.
func (o *onboardingR) OnboardingUrl() *string {
	u := data.OnboardingURL(o.o, o.r.store.Env())
	return &u
}

// Account is the account a finalized onboarding opened.
func (o *onboardingR) Account() *accountR {
	if o.o.AccountIndex < 0 {
		return nil
	}
	a := o.r.store.AccountOfIndex(o.o.AccountIndex)
	if _, ok := o.r.store.Account(o.r.viewer, a.ID); !ok {
		return nil
	}
	return o.r.account(a)
}

// Errors are what an Invalid onboarding lacks or has wrong.
func (o *onboardingR) Errors() []*fieldErrorsR {
	out := make([]*fieldErrorsR, len(o.o.Errors))
	for i, e := range o.o.Errors {
		out[i] = &fieldErrorsR{e: e}
	}
	return out
}

// The account's name and country (the accountInfo types).
func (o *onboardingR) Name() *string    { return optString(o.o.AccountName) }
func (o *onboardingR) Country() *string { return optString(o.o.Country) }

// The account admin: who filled it in.
func (o *onboardingR) Email() *string                   { return optString(o.o.Email) }
func (o *onboardingR) FirstName() *string               { return optString(o.o.FirstName) }
func (o *onboardingR) LastName() *string                { return optString(o.o.LastName) }
func (o *onboardingR) PreferredLanguage() *string       { return optString(o.o.Language) }
func (o *onboardingR) Nationality() *scalar             { return optScalar(o.o.Nationality) }
func (o *onboardingR) Address() *addressR               { return &addressR{a: o.o.Address} }
func (o *onboardingR) TaxIdentificationNumber() *string { return nil }
func (o *onboardingR) EmploymentStatus() *string        { return nil }
func (o *onboardingR) MonthlyIncome() *string           { return nil }
func (o *onboardingR) BirthInfo() *birthInfoR {
	if o.o.BirthDate == "" {
		return nil
	}
	return &birthInfoR{date: o.o.BirthDate}
}

// Company is a company's onboarding's company.
func (o *onboardingR) Company() *companyR {
	if o.o.Type != "Company" {
		return nil
	}
	return &companyR{o: o.o}
}

func (o *onboardingR) ToIndividualAccountHolderOnboarding() (*onboardingR, bool) {
	return o, o.o.Type == "Individual"
}
func (o *onboardingR) ToCompanyAccountHolderOnboarding() (*onboardingR, bool) {
	return o, o.o.Type == "Company"
}
func (o *onboardingR) ToOnboardingInvalidStatusInfo() (*onboardingR, bool) {
	return o, o.o.Status == data.OnboardingInvalid
}
func (o *onboardingR) ToOnboardingValidStatusInfo() (*onboardingR, bool) {
	return o, o.o.Status == data.OnboardingValid
}
func (o *onboardingR) ToOnboardingFinalizedStatusInfo() (*onboardingR, bool) {
	return o, o.o.Status == data.OnboardingFinalized
}

// fieldErrorsR is a ValidationError.
type fieldErrorsR struct{ e data.FieldError }

func (f *fieldErrorsR) Field() string     { return f.e.Field }
func (f *fieldErrorsR) Errors() *[]string { return &f.e.Errors }
func (f *fieldErrorsR) Details() *string  { return nil }

// birthInfoR is a BirthInfo.
type birthInfoR struct{ date string }

func (b *birthInfoR) BirthDate() *scalar  { return optScalar(b.date) }
func (b *birthInfoR) City() *string       { return nil }
func (b *birthInfoR) Country() *scalar    { return nil }
func (b *birthInfoR) PostalCode() *string { return nil }

// companyR is a CompanyInfo.
type companyR struct{ o data.Onboarding }

func (c *companyR) RegistrationNumber() string       { return c.o.Registration }
func (c *companyR) Name() *string                    { return optString(c.o.CompanyName) }
func (c *companyR) TradeName() *string               { return optString(c.o.CompanyName) }
func (c *companyR) VatNumber() *string               { return optString(c.o.VATNumber) }
func (c *companyR) TaxIdentificationNumber() *string { return nil }
func (c *companyR) Address() *addressR               { return &addressR{a: c.o.Address} }

func (r *partnerResolver) AccountHolderOnboarding(ctx context.Context, args struct{ ID ID }) *onboardingR {
	req := r.request(ctx)
	return byID(req, args.ID, r.store.Onboarding, func(o data.Onboarding) *onboardingR { return &onboardingR{r: req, o: o} })
}

// PublicAccountHolderOnboarding is an onboarding read by its id alone, as
// the onboarding page reads it for whoever fills it in.
func (r *partnerResolver) PublicAccountHolderOnboarding(ctx context.Context, args struct{ ID ID }) *onboardingR {
	req := r.request(ctx)
	o, ok := r.store.Onboarding(data.Viewer{Project: true}, string(args.ID))
	if !ok {
		return nil
	}
	return &onboardingR{r: req, o: o}
}

type onboardingsArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *struct {
		Email  *string
		Search *string
		Status *[]string
		Types  *[]string
	}
	OrderBy *orderArgs
}

// AccountHolderOnboardings are every onboarding for a project token,
// those of the caller's accounts for a user token; newest first.
func (r *partnerResolver) AccountHolderOnboardings(ctx context.Context, args onboardingsArgs) (*connR[data.Onboarding, *onboardingR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	req := r.request(ctx)
	q := data.OnboardingQuery{Viewer: req.viewer, First: int(args.First), After: deref(args.After), Before: deref(args.Before)}
	q.OrderBy, q.Desc = orderOf(args.OrderBy, "createdAt", true)
	if f := args.Filters; f != nil {
		q.Email, q.Search, q.Statuses, q.Types = deref(f.Email), deref(f.Search), deref(f.Status), deref(f.Types)
	}
	page, err := r.store.Onboardings(q)
	if err != nil {
		return nil, fmt.Errorf("accountHolderOnboardings: %w", err)
	}
	return newConn(page, data.OnboardingCursor, func(o *data.Onboarding) *onboardingR { return &onboardingR{r: req, o: *o} }), nil
}

// AccountHolderOnboarding of a holder: the one that opened its account.
func (h *holderR) AccountHolderOnboarding() *onboardingR {
	return &onboardingR{r: h.r, o: h.r.store.AccountOnboarding(h.a)}
}

// PublicCompanyInfoRegistryData is what the company registry holds of a
// company, by its registration number: the emulator's company accounts'
// holders are its registry.
func (r *partnerResolver) PublicCompanyInfoRegistryData(args struct {
	Input struct {
		RegistrationNumber      string
		ResidencyAddressCountry string
	}
}) *companyR {
	a, ok := r.store.CompanyByRegistration(args.Input.RegistrationNumber, args.Input.ResidencyAddressCountry)
	if !ok {
		return nil
	}
	return &companyR{o: r.store.AccountOnboarding(a)}
}
