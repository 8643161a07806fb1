package gql

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

type simulateArgs struct {
	Input struct {
		Amount struct {
			Value    scalar
			Currency scalar
		}
		CreditorAddress *addressInput
		CreditorIban    scalar
		CreditorName    string
		DebtorAddress   *addressInput
		DebtorIban      scalar
		DebtorName      string
		EndToEndID      *scalar
		Label           *string
		IsInstant       *bool
	}
}

type addressInput struct {
	AddressLine1 *string
	AddressLine2 *string
	City         *string
	PostalCode   *string
	State        *string
	Country      scalar
}

// sepaReference is the SepaReference scalar's character set and length.
var sepaReference = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9/\-?:().,'+ ]{1,35}$`) })

// checkSepaReference checks that an argument is a SepaReference.
func checkSepaReference(name, ref string) error {
	if !sepaReference().MatchString(ref) || strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") || strings.Contains(ref, "//") {
		return fmt.Errorf("%s %q is not a SEPA reference: use up to 35 Latin letters, digits or /-?:().,'+ and space", name, ref)
	}
	return nil
}

func (r *adminResolver) SimulateIncomingSepaCreditTransferReception(ctx context.Context, args simulateArgs) (*payloadR, error) {
	in := args.Input
	cents, err := data.ParseAmount(string(in.Amount.Value))
	if err != nil || cents == 0 {
		return nil, fmt.Errorf("amount.value %q must be a positive decimal such as \"100.00\"", string(in.Amount.Value))
	}
	if !data.ValidIBAN(strings.ReplaceAll(string(in.DebtorIban), " ", "")) {
		return nil, fmt.Errorf("debtorIban %q is not a valid IBAN: check its check digits", string(in.DebtorIban))
	}
	if strings.TrimSpace(in.CreditorName) == "" || strings.TrimSpace(in.DebtorName) == "" {
		return nil, errors.New("creditorName and debtorName must not be empty")
	}
	t := data.IncomingTransfer{
		CreditorIBAN: string(in.CreditorIban),
		CreditorName: in.CreditorName,
		DebtorIBAN:   string(in.DebtorIban),
		DebtorName:   in.DebtorName,
		Amount:       cents,
		Currency:     string(in.Amount.Currency),
		Instant:      deref(in.IsInstant),
		Label:        deref(in.Label),
	}
	if in.EndToEndID != nil {
		if err := checkSepaReference("endToEndId", string(*in.EndToEndID)); err != nil {
			return nil, err
		}
		t.EndToEndID = string(*in.EndToEndID)
	}
	tx, err := r.store.ReceiveTransfer(callerFrom(ctx).viewer, t)
	if errors.Is(err, data.ErrForbidden) {
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("simulate transfer: %w", err)
	}
	return &payloadR{kind: "Success", txID: tx.ID}, nil
}

func (r *adminRoot) SimulateIncomingSepaCreditTransferReception(ctx context.Context, args simulateArgs) (*payloadR, error) {
	p, err := r.adminResolver.SimulateIncomingSepaCreditTransferReception(ctx, args)
	if err != nil || p.kind != "Success" {
		return p, err
	}
	if a, ok := r.store.AccountByIBAN(callerFrom(ctx).viewer, string(args.Input.CreditorIban)); ok {
		r.events.transferReceived(a.ID, p.txID)
	}
	return p, nil
}

// reasonArgs is the input of a step on a transaction with a reason code.
type reasonArgs struct {
	Input struct {
		ReasonCode    string
		TransactionID ID
	}
}

// txArgs is the input of a step on a transaction.
type txArgs struct {
	Input struct{ TransactionID ID }
}

// undone runs a step that books a new transaction giving back another's
// funds.
func (r *adminResolver) undone(ctx context.Context, id string, undo func(data.Viewer, string) (data.Transaction, error)) (*payloadR, error) {
	t, err := undo(callerFrom(ctx).viewer, id)
	return stepResult(t, err, "TransactionNotFound", id, r.booked(t)...)
}

func (r *adminResolver) SimulateIncomingSepaCreditTransferReturn(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.undone(ctx, string(args.Input.TransactionID), r.store.ReturnIncomingTransfer)
}

func (r *adminResolver) SimulateIncomingSepaCreditTransferAcceptedRecall(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.undone(ctx, string(args.Input.TransactionID), r.store.RecallIncomingTransfer)
}

func (r *adminResolver) SimulateOutgoingSepaCreditTransferReturn(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.undone(ctx, string(args.Input.TransactionID), r.store.ReturnOutgoingTransfer)
}

func (r *adminResolver) SimulateOutgoingSepaCreditTransferBooking(ctx context.Context, args txArgs) (*payloadR, error) {
	id := string(args.Input.TransactionID)
	t, err := r.store.BookOutgoingTransfer(callerFrom(ctx).viewer, id)
	return stepResult(t, err, "TransactionNotFound", id, r.booked(t)...)
}

func (r *adminResolver) SimulateOutgoingSepaCreditTransferRejection(ctx context.Context, args reasonArgs) (*payloadR, error) {
	id := string(args.Input.TransactionID)
	t, err := r.store.RejectOutgoingTransfer(callerFrom(ctx).viewer, id, args.Input.ReasonCode)
	return stepResult(t, err, "TransactionNotFound", id, emission{webhooks.TransactionRejected, id})
}

func (p *payloadR) ToSimulateIncomingSepaCreditTransferReturnSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateIncomingSepaCreditTransferAcceptedRecallSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingSepaCreditTransferBookingSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingSepaCreditTransferRejectionSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingSepaCreditTransferReturnSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}

func (r *adminRoot) SimulateIncomingSepaCreditTransferReturn(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateIncomingSepaCreditTransferReturn(ctx, args))
}
func (r *adminRoot) SimulateIncomingSepaCreditTransferAcceptedRecall(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateIncomingSepaCreditTransferAcceptedRecall(ctx, args))
}
func (r *adminRoot) SimulateOutgoingSepaCreditTransferBooking(ctx context.Context, args txArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingSepaCreditTransferBooking(ctx, args))
}
func (r *adminRoot) SimulateOutgoingSepaCreditTransferRejection(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingSepaCreditTransferRejection(ctx, args))
}
func (r *adminRoot) SimulateOutgoingSepaCreditTransferReturn(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingSepaCreditTransferReturn(ctx, args))
}
