package gql

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// The platform's webhook list has no event for trusted beneficiaries
// (swan-io/docs, webhooks.mdx): adding one emits only its consent's.

// beneficiaryR is a TrustedSepaBeneficiary, and its status info.
type beneficiaryR struct {
	r *request
	b data.Beneficiary
}

func (b *beneficiaryR) ID() ID                                          { return ID(b.b.ID) }
func (b *beneficiaryR) CreatedAt() scalar                               { return dateTime(b.b.CreatedAt) }
func (b *beneficiaryR) UpdatedAt() scalar                               { return dateTime(b.b.UpdatedAt) }
func (b *beneficiaryR) Name() string                                    { return b.b.Name }
func (b *beneficiaryR) Label() string                                   { return b.b.Label }
func (b *beneficiaryR) Type() string                                    { return "Sepa" }
func (b *beneficiaryR) Iban() scalar                                    { return scalar(b.b.IBAN) }
func (b *beneficiaryR) StatusInfo() *beneficiaryR                       { return b }
func (b *beneficiaryR) Status() string                                  { return b.b.Status }
func (b *beneficiaryR) Consent() *consentR                              { return &consentR{r: b.r, c: b.b.Consent} }
func (b *beneficiaryR) EnabledAt() scalar                               { return dateTime(b.b.EnabledAt) }
func (b *beneficiaryR) CanceledAt() scalar                              { return dateTime(b.b.CanceledAt) }
func (b *beneficiaryR) ToTrustedSepaBeneficiary() (*beneficiaryR, bool) { return b, true }

func (b *beneficiaryR) Address() *addressR {
	if b.b.Address == (data.Address{}) {
		return nil
	}
	return &addressR{a: b.b.Address}
}

func (b *beneficiaryR) ToTrustedBeneficiaryConsentPendingStatusInfo() (*beneficiaryR, bool) {
	return b, b.b.Status == data.BeneficiaryConsentPending
}
func (b *beneficiaryR) ToTrustedBeneficiaryEnabledStatusInfo() (*beneficiaryR, bool) {
	return b, b.b.Status == data.BeneficiaryEnabled
}
func (b *beneficiaryR) ToTrustedBeneficiaryCanceledStatusInfo() (*beneficiaryR, bool) {
	return b, b.b.Status == data.BeneficiaryCanceled
}

// Transactions are the transfers sent to the beneficiary, for whoever may
// view the account's history.
func (b *beneficiaryR) Transactions(args transactionsArgs) (*txConnR, error) {
	if !b.r.account(b.r.store.AccountOfIndex(b.b.AccountIndex)).canViewAccount() {
		return nil, nil
	}
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := b.r.store.BeneficiaryTransactions(b.b, q)
	if err != nil {
		return nil, fmt.Errorf("transactions: %w", err)
	}
	return b.r.txConn(page), nil
}

type trustedBeneficiariesArgs struct {
	First   int32
	After   *string
	Offset  *int32
	OrderBy *orderArgs
	Filters *struct {
		Status   *[]string
		Type     *[]string
		Label    *string
		Currency *scalar
	}
}

// TrustedBeneficiaries are read by whoever may view the account.
func (a *accountR) TrustedBeneficiaries(args trustedBeneficiariesArgs) (*connR[data.Beneficiary, *beneficiaryR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.BeneficiaryQuery{First: int(args.First), After: deref(args.After), Offset: int(deref(args.Offset))}
	var desc bool
	q.OrderBy, desc = orderOf(args.OrderBy, "createdAt", true)
	q.Asc = !desc
	if f := args.Filters; f != nil {
		q.Statuses, q.Label, q.Currency = deref(f.Status), deref(f.Label), string(deref(f.Currency))
		if f.Type != nil && !contains(*f.Type, "Sepa") {
			q.Statuses = []string{""} // the emulator's are SEPA beneficiaries
		}
	}
	if !a.canViewAccount() {
		q.Statuses = []string{""} // the connection is non-null: none
	}
	page, err := a.r.store.Beneficiaries(a.a, q)
	if err != nil {
		return nil, fmt.Errorf("trustedBeneficiaries: %w", err)
	}
	return newConn(page, data.BeneficiaryCursor, func(b *data.Beneficiary) *beneficiaryR { return &beneficiaryR{r: a.r, b: *b} }), nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func (r *partnerResolver) TrustedBeneficiary(ctx context.Context, args struct{ ID string }) *beneficiaryR {
	req := r.request(ctx)
	b, ok := r.store.Beneficiary(req.viewer, args.ID)
	if !ok || !req.account(r.store.AccountOfIndex(b.AccountIndex)).canViewAccount() {
		return nil
	}
	return &beneficiaryR{r: req, b: b}
}

type addBeneficiaryArgs struct {
	Input struct {
		AccountID          ID
		Iban               scalar
		Name               string
		Label              *string
		Address            *addressInput
		ConsentRedirectURL string
	}
}

// AddTrustedSepaBeneficiary adds a beneficiary, waiting for the consent
// of who asked unless they consent automatically.
func (r *partnerResolver) AddTrustedSepaBeneficiary(ctx context.Context, args addBeneficiaryArgs) (*outcomeR, error) {
	in := args.Input
	iban := strings.ReplaceAll(string(in.Iban), " ", "")
	switch {
	case !data.ValidIBAN(iban):
		return invalid("iban", "InvalidString", "iban is not a valid IBAN: check its check digits"), nil
	case strings.TrimSpace(in.Name) == "" || len(in.Name) > 70:
		return invalid("name", "InvalidString", "name must hold 1 to 70 characters"), nil
	}
	if u, err := url.Parse(in.ConsentRedirectURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return invalid("consentRedirectUrl", "InvalidString", "consentRedirectUrl is not an absolute http(s) URL"), nil
	}
	c := callerFrom(ctx)
	nb := data.NewBeneficiary{AccountID: string(in.AccountID), Name: strings.TrimSpace(in.Name), Label: deref(in.Label), IBAN: iban,
		ConsentURL: c.base + ConsentPath(r.store.Env()), RedirectURL: in.ConsentRedirectURL}
	if a := in.Address; a != nil {
		nb.Address = data.Address{Line1: deref(a.AddressLine1), Line2: deref(a.AddressLine2), City: deref(a.City),
			PostalCode: deref(a.PostalCode), State: deref(a.State), Country: string(a.Country)}
	}
	b, err := r.store.AddBeneficiary(c.viewer, nb)
	if err != nil {
		if o, ok := rejected(err, "AccountNotFound", nb.AccountID); ok {
			return o, nil
		}
		return nil, fmt.Errorf("addTrustedSepaBeneficiary: %w", err)
	}
	if b.Status == data.BeneficiaryConsentPending {
		r.events.hub.Emit(webhooks.ConsentCreated, b.Consent.ID)
	}
	return success(&beneficiaryR{r: r.request(ctx), b: b}), nil
}

type verifyBeneficiaryArgs struct {
	Input struct {
		Beneficiary struct {
			Sepa        *sepaBeneficiaryInput
			SwanAccount *struct {
				AccountNumber scalar
				Name          string
				Save          bool
			}
			TrustedBeneficiaryID *ID
		}
	}
}

// VerifyBeneficiary verifies a creditor before a transfer: its result, and
// a token valid 24 hours that initiateCreditTransfers takes in place of
// the creditor.
func (r *partnerResolver) VerifyBeneficiary(ctx context.Context, args verifyBeneficiaryArgs) (*outcomeR, error) {
	in := args.Input.Beneficiary
	v := viewerOf(ctx)
	var name, iban string
	switch {
	case in.Sepa != nil && in.SwanAccount == nil && in.TrustedBeneficiaryID == nil:
		name, iban = strings.TrimSpace(in.Sepa.Name), strings.ReplaceAll(string(in.Sepa.Iban), " ", "")
		if !data.ValidIBAN(iban) {
			return invalid("beneficiary.sepa.iban", "InvalidString", "iban is not a valid IBAN: check its check digits"), nil
		}
	case in.SwanAccount != nil && in.Sepa == nil && in.TrustedBeneficiaryID == nil:
		a, ok := r.store.AccountByNumber(string(in.SwanAccount.AccountNumber))
		if !ok {
			return invalid("beneficiary.swanAccount.accountNumber", "InvalidString", "no account has this number"), nil
		}
		name, iban = strings.TrimSpace(in.SwanAccount.Name), a.IBAN
	case in.TrustedBeneficiaryID != nil && in.Sepa == nil && in.SwanAccount == nil:
		b, ok := r.store.Beneficiary(v, string(*in.TrustedBeneficiaryID))
		if !ok {
			return &outcomeR{kind: "TrustedBeneficiaryNotFound", ident: string(*in.TrustedBeneficiaryID), message: "no trusted beneficiary has this id"}, nil
		}
		name, iban = b.Name, b.IBAN
	default:
		return invalid("beneficiary", "InvalidType", "pass exactly one of sepa, swanAccount and trustedBeneficiaryId"), nil
	}
	if name == "" || len(name) > 70 {
		return invalid("beneficiary.name", "TooLong", "the beneficiary's name must hold 1 to 70 characters"), nil
	}
	tok, err := r.store.VerifyBeneficiary(name, iban)
	if err != nil {
		if o, ok := rejected(err, "AccountNotFound", ""); ok {
			return o, nil
		}
		return nil, fmt.Errorf("verifyBeneficiary: %w", err)
	}
	return success(&verificationTokenR{t: tok}), nil
}

// verificationTokenR is a VerifyBeneficiarySuccessPayload's content.
type verificationTokenR struct{ t data.PayeeToken }

func (o *outcomeR) VerifyBeneficiaryResult() *payeeResultR {
	t, _ := o.object.(*verificationTokenR)
	return &payeeResultR{status: t.t.Status, suggestion: t.t.Suggestion}
}
func (o *outcomeR) BeneficiaryVerificationToken() string {
	t, _ := o.object.(*verificationTokenR)
	return t.t.Token
}
func (o *outcomeR) ExpiresAt() scalar {
	t, _ := o.object.(*verificationTokenR)
	return dateTime(t.t.ExpiresAt)
}

// payeeResultR is a VerifyBeneficiaryResult.
type payeeResultR struct{ status, suggestion string }

func payeeResult(status, suggestion string) *payeeResultR {
	return &payeeResultR{status: status, suggestion: suggestion}
}

func (p *payeeResultR) Status() string         { return p.status }
func (p *payeeResultR) NameSuggestion() string { return p.suggestion }
func (p *payeeResultR) ToVerifyBeneficiaryMatch() (*payeeResultR, bool) {
	return p, p.status == data.PayeeMatch
}
func (p *payeeResultR) ToVerifyBeneficiaryCloseMatch() (*payeeResultR, bool) {
	return p, p.status == data.PayeeCloseMatch
}
func (p *payeeResultR) ToVerifyBeneficiaryNoMatch() (*payeeResultR, bool) {
	return p, p.status == data.PayeeNoMatch
}
func (p *payeeResultR) ToVerifyBeneficiaryNotPossible() (*payeeResultR, bool) {
	return p, p.status == data.PayeeNotPossible
}

// Beneficiary is who an outgoing SEPA transfer went to: the account's
// trusted beneficiary of that name and IBAN, else the creditor as typed.
func (t *txR) Beneficiary() any {
	if t.t.Side != "Debit" || t.t.Kind != data.KindSEPACreditTransfer || t.t.CounterpartyIBAN == "" {
		return nil
	}
	if b, ok := t.r.store.BeneficiaryOf(t.t); ok {
		return &beneficiaryR{r: t.r, b: b}
	}
	return &unsavedR{t: t}
}

// unsavedR is an UnsavedSepaBeneficiary: a transfer's creditor.
type unsavedR struct{ t *txR }

func (u *unsavedR) Iban() scalar                                { return scalar(u.t.t.CounterpartyIBAN) }
func (u *unsavedR) Name() string                                { return u.t.t.Counterparty }
func (u *unsavedR) Address() *addressR                          { return nil }
func (u *unsavedR) ToUnsavedSepaBeneficiary() (*unsavedR, bool) { return u, true }

// BeneficiaryVerificationResult of a scheduled order: its creditor's.
func (o *outcomeR) BeneficiaryVerificationResult() *payeeResultR {
	s, ok := o.object.(*orderR)
	if !ok || s.o.IBAN == "" {
		return nil
	}
	return payeeResult(s.r.store.VerifyPayee(s.o.Beneficiary, s.o.IBAN))
}

func (o *outcomeR) TrustedBeneficiary() *beneficiaryR { b, _ := o.object.(*beneficiaryR); return b }
func (o *outcomeR) ToAddTrustedSepaBeneficiarySuccessPayload() (*outcomeR, bool) {
	return o.as("Success")
}
func (o *outcomeR) ToVerifyBeneficiarySuccessPayload() (*outcomeR, bool) { return o.as("Success") }
func (o *outcomeR) ToTrustedBeneficiaryNotFoundRejection() (*outcomeR, bool) {
	return o.as("TrustedBeneficiaryNotFound")
}
