package gql

import (
	"context"
	"errors"
	"strings"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

type directDebitReceptionArgs struct {
	Input struct {
		Amount   amountInput
		Creditor struct {
			Address      *addressInput
			Iban         scalar
			Name         string
			Identifier   scalar
			UltimateName *string
		}
		DebtorIban       scalar
		EndToEndID       *scalar
		ExecutionDate    scalar
		MandateAmendment *struct {
			PreviousCreditorIdentifier *scalar
			PreviousDebtorIban         *scalar
			PreviousMandateReference   *scalar
		}
		MandateReference scalar
		MandateSequence  string
		MandateType      string
		Label            *string
	}
}

func (r *adminResolver) SimulateOutgoingSepaDirectDebitReception(ctx context.Context, args directDebitReceptionArgs) (*payloadR, error) {
	in := args.Input
	cents, err := in.Amount.cents()
	if err != nil {
		return nil, err
	}
	exec, err := parseDateTime("executionDate", &in.ExecutionDate)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Creditor.Name) == "" {
		return nil, errors.New("creditor.name must not be empty")
	}
	if !data.ValidIBAN(strings.ReplaceAll(string(in.Creditor.Iban), " ", "")) {
		return nil, errors.New("creditor.iban is not a valid IBAN: check its check digits")
	}
	if err := checkSepaReference("mandateReference", string(in.MandateReference)); err != nil {
		return nil, err
	}
	dd := data.ReceivedDirectDebit{
		DebtorIBAN:       string(in.DebtorIban),
		CreditorIBAN:     string(in.Creditor.Iban),
		CreditorName:     in.Creditor.Name,
		MandateReference: string(in.MandateReference),
		Amount:           cents,
		Currency:         string(in.Amount.Currency),
		Label:            deref(in.Label),
		ExecutionDate:    exec,
	}
	if in.EndToEndID != nil {
		if err := checkSepaReference("endToEndId", string(*in.EndToEndID)); err != nil {
			return nil, err
		}
		dd.EndToEndID = string(*in.EndToEndID)
	}
	t, err := r.store.ReceiveDirectDebit(callerFrom(ctx).viewer, dd)
	var emits []emission
	switch t.Status {
	case data.StatusUpcoming:
		emits = []emission{{webhooks.TransactionUpcoming, t.ID}}
	case data.StatusRejected:
		emits = []emission{{webhooks.TransactionRejected, t.ID}}
	default:
		emits = r.booked(t)
	}
	return stepResult(t, err, "Forbidden", "", emits...)
}

func (r *adminResolver) SimulateOutgoingSepaDirectDebitReject(ctx context.Context, args reasonArgs) (*payloadR, error) {
	id := string(args.Input.TransactionID)
	t, err := r.store.RejectDirectDebit(callerFrom(ctx).viewer, id, args.Input.ReasonCode)
	return stepResult(t, err, "TransactionNotFound", id, emission{webhooks.TransactionRejected, id})
}

func (r *adminResolver) SimulateOutgoingSepaDirectDebitCancel(ctx context.Context, args reasonArgs) (*payloadR, error) {
	id := string(args.Input.TransactionID)
	t, err := r.store.CancelDirectDebit(callerFrom(ctx).viewer, id)
	return stepResult(t, err, "TransactionNotFound", id, emission{webhooks.TransactionCanceled, id})
}

func (r *adminResolver) SimulateOutgoingSepaDirectDebitReturn(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.undone(ctx, string(args.Input.TransactionID), r.store.ReturnDirectDebit)
}

// SimulateIncomingSepaDirectDebitBooking books a Pending direct debit the
// account collects: the funds arrive.
func (r *adminResolver) SimulateIncomingSepaDirectDebitBooking(ctx context.Context, args txArgs) (*payloadR, error) {
	id := string(args.Input.TransactionID)
	t, err := r.store.BookIncomingDirectDebit(callerFrom(ctx).viewer, id)
	return stepResult(t, err, "TransactionNotFound", id, r.booked(t)...)
}

func (p *payloadR) ToSimulateIncomingSepaDirectDebitBookingSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingSepaDirectDebitReceptionSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingSepaDirectDebitRejectSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingSepaDirectDebitCancelSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateOutgoingSepaDirectDebitReturnSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}

func (r *adminRoot) SimulateOutgoingSepaDirectDebitReception(ctx context.Context, args directDebitReceptionArgs) (*payloadR, error) {
	p, err := r.emitted(r.adminResolver.SimulateOutgoingSepaDirectDebitReception(ctx, args))
	if err == nil && p.kind == "Success" {
		if t, ok := r.store.Transaction(p.txID); ok && t.Status == data.StatusUpcoming {
			r.events.executeAt(t.ExecutionDate, t.ID)
		}
	}
	return p, err
}
func (r *adminRoot) SimulateIncomingSepaDirectDebitBooking(ctx context.Context, args txArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateIncomingSepaDirectDebitBooking(ctx, args))
}
func (r *adminRoot) SimulateOutgoingSepaDirectDebitReject(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingSepaDirectDebitReject(ctx, args))
}
func (r *adminRoot) SimulateOutgoingSepaDirectDebitCancel(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingSepaDirectDebitCancel(ctx, args))
}
func (r *adminRoot) SimulateOutgoingSepaDirectDebitReturn(ctx context.Context, args reasonArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateOutgoingSepaDirectDebitReturn(ctx, args))
}
