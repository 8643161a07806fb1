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

type creditTransferInput struct {
	Amount                       amountInput
	ExternalReference            *string
	Label                        *string
	LabelType                    *string
	CategoryPurpose              *string
	Mode                         *string
	Reference                    *string
	RequestedExecutionAt         *scalar
	SepaBeneficiary              *sepaBeneficiaryInput
	BeneficiaryVerificationToken *string
	SwanAccountBeneficiary       *struct {
		AccountNumber scalar
		Name          string
		Save          bool
	}
	TrustedBeneficiaryID *ID
}

type sepaBeneficiaryInput struct {
	Iban    scalar
	Name    string
	Address *addressInput
	Save    *bool
}

type initiateCreditTransfersArgs struct {
	Input struct {
		AccountID          *ID
		AccountNumber      *scalar
		ConsentRedirectURL string
		CreditTransfers    []creditTransferInput
		IdempotencyKey     *string
	}
}

// maxCreditTransfers bounds one payment's transfers in the emulator.
const maxCreditTransfers = 100

// outgoing reads one transfer of the input.
func (c creditTransferInput) outgoing(accountID string, i int) (data.OutgoingTransfer, error) {
	at := fmt.Sprintf("creditTransfers[%d]", i)
	b := c.SepaBeneficiary
	if b == nil || c.SwanAccountBeneficiary != nil {
		return data.OutgoingTransfer{}, fmt.Errorf("%s: the emulator sends transfers to a sepaBeneficiary, a trustedBeneficiaryId or a beneficiaryVerificationToken: pass one of them", at)
	}
	if c.RequestedExecutionAt != nil {
		return data.OutgoingTransfer{}, fmt.Errorf("%s: the emulator sends transfers at once: leave requestedExecutionAt out", at)
	}
	cents, err := c.Amount.cents()
	if err != nil {
		return data.OutgoingTransfer{}, fmt.Errorf("%s: %w", at, err)
	}
	iban := strings.ReplaceAll(string(b.Iban), " ", "")
	if !data.ValidIBAN(iban) {
		return data.OutgoingTransfer{}, fmt.Errorf("%s: sepaBeneficiary.iban is not a valid IBAN: check its check digits", at)
	}
	if strings.TrimSpace(b.Name) == "" {
		return data.OutgoingTransfer{}, fmt.Errorf("%s: sepaBeneficiary.name must not be empty", at)
	}
	mode := deref(c.Mode)
	return data.OutgoingTransfer{AccountID: accountID, CreditorIBAN: iban, CreditorName: b.Name, Amount: cents,
		Currency: string(c.Amount.Currency), Label: deref(c.Label), Reference: deref(c.Reference),
		ExternalReference: deref(c.ExternalReference), Instant: mode == "InstantWithoutFallback" || mode == "InstantWithFallback"}, nil
}

func (r *partnerResolver) InitiateCreditTransfers(ctx context.Context, args initiateCreditTransfersArgs) (*paymentPayloadR, error) {
	in := args.Input
	c := callerFrom(ctx)
	if c.viewer.Project || c.viewer.UserID == "" {
		return &paymentPayloadR{kind: "Forbidden", message: "initiateCreditTransfers needs a user access token: the user consents to the payment"}, nil
	}
	if in.AccountID == nil || in.AccountNumber != nil {
		return nil, errors.New("pass accountId: the emulator does not find accounts by accountNumber")
	}
	if len(in.CreditTransfers) == 0 || len(in.CreditTransfers) > maxCreditTransfers {
		return nil, fmt.Errorf("creditTransfers must hold 1 to %d transfers", maxCreditTransfers)
	}
	if u, err := url.Parse(in.ConsentRedirectURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("consentRedirectUrl %q is not an absolute http(s) URL", in.ConsentRedirectURL)
	}
	accountID := string(*in.AccountID)
	transfers := make([]data.OutgoingTransfer, len(in.CreditTransfers))
	results := make([]*payeeResultR, len(in.CreditTransfers))
	for i, t := range in.CreditTransfers {
		if rej, err := r.creditor(c.viewer, accountID, &t); rej != nil || err != nil {
			return rej, err
		}
		var err error
		if transfers[i], err = t.outgoing(accountID, i); err != nil {
			return nil, err
		}
		results[i] = payeeResult(r.store.VerifyPayee(transfers[i].CreditorName, transfers[i].CreditorIBAN))
	}
	p, err := r.store.InitiatePayment(c.viewer.UserID, accountID, transfers, c.base+ConsentPath(r.store.Env()), in.ConsentRedirectURL)
	switch {
	case errors.Is(err, data.ErrNotFound):
		return &paymentPayloadR{kind: "AccountNotFound", message: err.Error(), ident: accountID}, nil
	case errors.Is(err, data.ErrForbidden):
		return &paymentPayloadR{kind: "Forbidden", message: err.Error()}, nil
	case err != nil:
		return nil, fmt.Errorf("initiateCreditTransfers: %w", err)
	}
	if p.Consent.ID != "" {
		r.events.hub.Emit(webhooks.ConsentCreated, p.Consent.ID)
	} else {
		r.events.paymentSent(p)
	}
	return &paymentPayloadR{kind: "Success", payment: &paymentR{r: r.request(ctx), p: p}, results: results}, nil
}

// creditor resolves a transfer to a trusted beneficiary or through a
// verification token into its SEPA creditor; a beneficiary not found is
// the payload's AccountNotFoundRejection's kin, a forbidden one Forbidden.
func (r *partnerResolver) creditor(v data.Viewer, accountID string, t *creditTransferInput) (*paymentPayloadR, error) {
	var name, iban string
	switch {
	case t.TrustedBeneficiaryID != nil && t.SepaBeneficiary == nil:
		n, i, err := r.store.TransferTo(v, accountID, string(*t.TrustedBeneficiaryID))
		switch {
		case errors.Is(err, data.ErrNotFound), errors.Is(err, data.ErrForbidden):
			return &paymentPayloadR{kind: "Forbidden", message: err.Error()}, nil
		case err != nil:
			return nil, err
		}
		name, iban = n, i
	case t.BeneficiaryVerificationToken != nil && t.SepaBeneficiary == nil && t.TrustedBeneficiaryID == nil:
		tok, err := r.store.UsePayeeToken(*t.BeneficiaryVerificationToken)
		if err != nil {
			return &paymentPayloadR{kind: "Forbidden", message: err.Error()}, nil
		}
		name, iban = tok.Name, tok.IBAN
	default:
		return nil, nil
	}
	t.SepaBeneficiary, t.TrustedBeneficiaryID, t.BeneficiaryVerificationToken = &sepaBeneficiaryInput{Iban: scalar(iban), Name: name}, nil, nil
	return nil, nil
}

func (r *partnerResolver) Payment(ctx context.Context, args struct{ ID ID }) (*paymentR, error) {
	p, err := r.store.Payment(string(args.ID))
	if err != nil {
		return nil, fmt.Errorf("no payment has the id %q: pass the id initiateCreditTransfers answered", string(args.ID))
	}
	req := r.request(ctx)
	if _, ok := r.store.Account(req.viewer, p.AccountID); !ok {
		return nil, fmt.Errorf("no payment has the id %q: pass the id initiateCreditTransfers answered", string(args.ID))
	}
	return &paymentR{r: req, p: p}, nil
}

// paymentSent emits what a payment's sent transfers cause: each is
// Pending, or Rejected for insufficient funds.
func (e *Events) paymentSent(p data.Payment) {
	for _, id := range p.TransactionIDs {
		if t, ok := e.store.Transaction(id); ok && t.Status == data.StatusRejected {
			e.hub.Emit(webhooks.TransactionRejected, id)
			continue
		}
		e.hub.Emit(webhooks.TransactionPending, id)
	}
}

// paymentPayloadR is an InitiateCreditTransfersPayload.
type paymentPayloadR struct {
	kind    string // Success | AccountNotFound | Forbidden
	message string
	ident   string
	payment *paymentR
	results []*payeeResultR // the verification of each transfer's creditor
}

// BeneficiaryVerificationResults are in the order of the transfers.
func (p *paymentPayloadR) BeneficiaryVerificationResults() []*payeeResultR { return p.results }

func (p *paymentPayloadR) Message() string    { return p.message }
func (p *paymentPayloadR) ID() string         { return p.ident }
func (p *paymentPayloadR) Payment() *paymentR { return p.payment }
func (p *paymentPayloadR) ToInitiateCreditTransfersSuccessPayload() (*paymentPayloadR, bool) {
	return p, p.kind == "Success"
}
func (p *paymentPayloadR) ToAccountNotFoundRejection() (*paymentPayloadR, bool) {
	return p, p.kind == "AccountNotFound"
}
func (p *paymentPayloadR) ToForbiddenRejection() (*paymentPayloadR, bool) {
	return p, p.kind == "Forbidden"
}

// paymentR is a Payment, and its status info.
type paymentR struct {
	r *request
	p data.Payment
}

func (p *paymentR) ID() ID                { return ID(p.p.ID) }
func (p *paymentR) CreatedAt() scalar     { return dateTime(p.p.CreatedAt) }
func (p *paymentR) UpdatedAt() scalar     { return dateTime(p.p.UpdatedAt) }
func (p *paymentR) StatusInfo() *paymentR { return p }
func (p *paymentR) Status() string        { return p.p.Status }
func (p *paymentR) Consent() *consentR    { return &consentR{r: p.r, c: p.p.Consent} }
func (p *paymentR) Reason() string        { return "the user refused the consent" }
func (p *paymentR) ToPaymentConsentPending() (*paymentR, bool) {
	return p, p.p.Status == data.PaymentConsentPending
}
func (p *paymentR) ToPaymentInitiated() (*paymentR, bool) {
	return p, p.p.Status == data.PaymentInitiated
}
func (p *paymentR) ToPaymentRejected() (*paymentR, bool) {
	return p, p.p.Status == data.PaymentRejected
}

func (p *paymentR) Transactions(args transactionsArgs) (*txConnR, error) {
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := p.r.store.PaymentTransactions(p.p, q)
	if err != nil {
		return nil, fmt.Errorf("transactions: %w", err)
	}
	return p.r.txConn(page), nil
}

// Payment is the payment that sent a transfer, if one did.
func (t *txR) Payment() *paymentR {
	id := t.r.store.PaymentIDOf(t.t)
	if id == "" {
		return nil
	}
	p, err := t.r.store.Payment(id)
	if err != nil {
		return nil
	}
	return &paymentR{r: t.r, p: p}
}
