package gql

import (
	"context"
	"fmt"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// amountInput is an AmountInput.
type amountInput struct {
	Value    scalar
	Currency scalar
}

// cents is the amount in cents: it must be positive.
func (a amountInput) cents() (int64, error) {
	c, err := data.ParseAmount(string(a.Value))
	if err != nil || c == 0 {
		return 0, fmt.Errorf("amount.value %q must be a positive decimal such as \"100.00\"", string(a.Value))
	}
	return c, nil
}

// optCents is an optional amount in cents, 0 when absent.
func optCents(a *amountInput) (int64, error) {
	if a == nil {
		return 0, nil
	}
	return a.cents()
}

// merchantInput is a Merchant: the schema gives each field but the
// acquirer's ids a default.
type merchantInput struct {
	AcquirerID    *string
	SubMerchantID *string
	City          string
	Code          string
	Country       scalar
	ID            string
	Name          string
	PostalCode    string
}

// defaultMerchant is the Merchant input's defaults, for a payment whose
// input names no merchant.
var defaultMerchant = data.Merchant{ID: "SWAN01", Name: "SWAN", City: "PARIS", Country: "FRA", PostalCode: "75010", CategoryCode: "0000"}

func (m *merchantInput) merchant() data.Merchant {
	if m == nil {
		return defaultMerchant
	}
	return data.Merchant{ID: m.ID, Name: m.Name, City: m.City, Country: string(m.Country), PostalCode: m.PostalCode, CategoryCode: m.Code}
}

// creditMerchant is the merchant of a card credit, whose input names its
// fields one by one, with no defaults.
func creditMerchant(id, name, city, postalCode, code *string, country *scalar) data.Merchant {
	m := defaultMerchant
	for dst, src := range map[*string]*string{&m.ID: id, &m.Name: name, &m.City: city, &m.PostalCode: postalCode, &m.CategoryCode: code} {
		if src != nil {
			*dst = *src
		}
	}
	if country != nil {
		m.Country = string(*country)
	}
	return m
}

type cardAuthorizationArgs struct {
	Input struct {
		Amount                     *amountInput
		AuthorizationType          string
		CardID                     string
		CardTransactionCategory    string
		CardType                   *string
		Merchant                   *merchantInput
		OperationType              *string
		OriginalAmount             *amountInput
		Outcome                    *string
		TerminalID                 string
		ExpirationDateTime         *scalar
		AllowsPartialAuthorization bool
		TransactionTransportType   *string
	}
}

func (r *adminResolver) SimulateOutgoingCardAuthorization(ctx context.Context, args cardAuthorizationArgs) (*payloadR, error) {
	in := args.Input
	if in.Amount == nil {
		return nil, fmt.Errorf("amount is required: the emulator simulates authorizations of an amount, such as {value: \"12.50\", currency: \"EUR\"}")
	}
	cents, err := in.Amount.cents()
	if err != nil {
		return nil, err
	}
	t, err := r.store.AuthorizeCard(callerFrom(ctx).viewer, data.CardPayment{
		CardID:            in.CardID,
		Amount:            cents,
		Currency:          string(in.Amount.Currency),
		Merchant:          in.Merchant.merchant(),
		AuthorizationType: in.AuthorizationType,
		TerminalID:        in.TerminalID,
		Outcome:           deref(in.Outcome),
	})
	if err == nil && t.Status == data.StatusRejected {
		return &payloadR{kind: "Reject", txID: t.ID, reason: t.RejectedReason,
			emits: []emission{{webhooks.TransactionRejected, t.ID}}}, nil
	}
	return stepResult(t, err, "CardNotFound", in.CardID,
		emission{webhooks.TransactionPending, t.ID}, emission{webhooks.TransactionEnriched, t.ID})
}

type cardDebitArgs struct {
	Input struct {
		Amount         *amountInput
		OriginalAmount *amountInput
		TransactionID  ID
	}
}

func (r *adminResolver) SimulateOutgoingCardDebit(ctx context.Context, args cardDebitArgs) (*payloadR, error) {
	id := string(args.Input.TransactionID)
	cents, err := optCents(args.Input.Amount)
	if err != nil {
		return nil, err
	}
	t, err := r.store.DebitCard(callerFrom(ctx).viewer, id, cents)
	// The platform's debit comes first, its release of the authorization
	// second; a handler may see them either way round.
	return stepResult(t, err, "TransactionNotFound", id, emission{webhooks.TransactionBooked, t.ID},
		emission{webhooks.TransactionReleased, id}, r.accountUpdated(t))
}

// accountUpdated is the event of a booking: the account's booked balance
// changed.
func (r *adminResolver) accountUpdated(t data.Transaction) emission {
	return emission{webhooks.AccountUpdated, r.store.AccountOfIndex(t.AccountIndex).ID}
}

// booked are the events of a transaction booked at once.
func (r *adminResolver) booked(t data.Transaction) []emission {
	return []emission{{webhooks.TransactionBooked, t.ID}, r.accountUpdated(t)}
}

type cardDebitWithoutAuthorizationArgs struct {
	Input struct {
		CardID         string
		Amount         amountInput
		OriginalAmount *amountInput
		CardType       *string
		OperationType  *string
		Merchant       *merchantInput
	}
}

func (r *adminResolver) SimulateOutgoingCardDebitWithoutAuthorization(ctx context.Context, args cardDebitWithoutAuthorizationArgs) (*payloadR, error) {
	in := args.Input
	cents, err := in.Amount.cents()
	if err != nil {
		return nil, err
	}
	t, err := r.store.DebitCardWithoutAuthorization(callerFrom(ctx).viewer, data.CardPayment{
		CardID: in.CardID, Amount: cents, Currency: string(in.Amount.Currency), Merchant: in.Merchant.merchant(),
	})
	return stepResult(t, err, "CardNotFound", in.CardID, r.booked(t)...)
}

type cardReleaseArgs struct {
	Input struct {
		TransactionID ID
		Reason        string
	}
}

func (r *adminResolver) SimulateOutgoingCardAuthorizationRelease(ctx context.Context, args cardReleaseArgs) (*payloadR, error) {
	id := string(args.Input.TransactionID)
	t, err := r.store.ReleaseCardAuthorization(callerFrom(ctx).viewer, id, args.Input.Reason)
	return stepResult(t, err, "TransactionNotFound", id, emission{webhooks.TransactionReleased, id})
}

func (r *adminResolver) SimulateOutgoingCardDebitReverse(ctx context.Context, args cardDebitArgs) (*payloadR, error) {
	id := string(args.Input.TransactionID)
	cents, err := optCents(args.Input.Amount)
	if err != nil {
		return nil, err
	}
	t, err := r.store.ReverseCardDebit(callerFrom(ctx).viewer, id, cents)
	return stepResult(t, err, "TransactionNotFound", id, r.booked(t)...)
}

type cardCreditArgs struct {
	Input struct {
		Amount               amountInput
		CardID               string
		CardType             *string
		OriginTransactionID  *string
		OriginalAmount       *amountInput
		TerminalID           *string
		MerchantID           *string
		MerchantCategoryCode *string
		MerchantName         *string
		MerchantCity         *string
		MerchantPostalCode   *string
		MerchantCountry      *scalar
	}
}

func (r *adminResolver) SimulateOutgoingCardCredit(ctx context.Context, args cardCreditArgs) (*payloadR, error) {
	in := args.Input
	cents, err := in.Amount.cents()
	if err != nil {
		return nil, err
	}
	m := creditMerchant(in.MerchantID, in.MerchantName, in.MerchantCity, in.MerchantPostalCode, in.MerchantCategoryCode, in.MerchantCountry)
	t, err := r.store.CreditCard(callerFrom(ctx).viewer, data.CardPayment{
		CardID: in.CardID, Amount: cents, Currency: string(in.Amount.Currency), Merchant: m, TerminalID: deref(in.TerminalID),
	})
	return stepResult(t, err, "CardNotFound", in.CardID, r.booked(t)...)
}

func (r *adminResolver) SimulateReleaseReservedBalance(ctx context.Context, args struct {
	Input struct{ TransactionID ID }
}) (*payloadR, error) {
	id := string(args.Input.TransactionID)
	t, err := r.store.ReleaseCardAuthorization(callerFrom(ctx).viewer, id, "ManuallyReleased")
	return stepResult(t, err, "TransactionNotFound", id, emission{webhooks.TransactionReleased, id})
}

func (p *payloadR) ToSimulateOutgoingCardAuthorizationSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingCardAuthorizationRejectPayload() (*payloadR, bool) {
	return p.as("Reject")
}
func (p *payloadR) ToSimulateOutgoingCardDebitSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingCardDebitWithoutAuthorizationSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingCardAuthorizationReleaseSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingCardDebitReverseSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingCardCreditSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToReleaseReservedBalanceSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}

func (r *adminRoot) SimulateOutgoingCardAuthorization(ctx context.Context, args cardAuthorizationArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingCardAuthorization(ctx, args))
}
func (r *adminRoot) SimulateOutgoingCardDebit(ctx context.Context, args cardDebitArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingCardDebit(ctx, args))
}
func (r *adminRoot) SimulateOutgoingCardDebitWithoutAuthorization(ctx context.Context, args cardDebitWithoutAuthorizationArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingCardDebitWithoutAuthorization(ctx, args))
}
func (r *adminRoot) SimulateOutgoingCardAuthorizationRelease(ctx context.Context, args cardReleaseArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingCardAuthorizationRelease(ctx, args))
}
func (r *adminRoot) SimulateOutgoingCardDebitReverse(ctx context.Context, args cardDebitArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingCardDebitReverse(ctx, args))
}
func (r *adminRoot) SimulateOutgoingCardCredit(ctx context.Context, args cardCreditArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingCardCredit(ctx, args))
}
func (r *adminRoot) SimulateReleaseReservedBalance(ctx context.Context, args struct {
	Input struct{ TransactionID ID }
}) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateReleaseReservedBalance(ctx, args))
}
