package gql

import (
	"context"
	"errors"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

type manualFeeArgs struct {
	Input struct {
		AccountID     ID
		Type          string
		EffectiveDate scalar
		DueAmount     *amountInput
	}
}

func (r *adminResolver) SimulateManualBankingFee(ctx context.Context, args manualFeeArgs) (*payloadR, error) {
	in := args.Input
	at, err := parseDateTime("effectiveDate", &in.EffectiveDate)
	if err != nil {
		return nil, err
	}
	cents, err := optCents(in.DueAmount)
	if err != nil {
		return nil, err
	}
	id := string(in.AccountID)
	currency := ""
	if in.DueAmount != nil {
		currency = string(in.DueAmount.Currency)
	}
	t, err := r.store.ChargeFee(callerFrom(ctx).viewer, data.Fee{AccountID: id, Type: in.Type, Amount: cents, Currency: currency, Effective: at})
	if errors.Is(err, data.ErrNotEligible) {
		return &payloadR{kind: "AccountNotEligible", message: err.Error()}, nil
	}
	p, err := stepResult(t, err, "AccountNotFound", id, r.booked(t)...)
	if p != nil && p.kind == "Success" {
		p.fee = &feeR{id: t.ID, amount: amount(t.Amount, t.Currency)}
	}
	return p, err
}

// feeR is a SimulateManualBankingFeeSuccessPayload.
type feeR struct {
	id     string
	amount *amountR
}

func (f *feeR) ID() ID                  { return ID(f.id) }
func (f *feeR) DebitedAmount() *amountR { return f.amount }

func (p *payloadR) ToSimulateManualBankingFeeSuccessPayload() (*feeR, bool) {
	return p.fee, p.kind == "Success"
}
func (p *payloadR) ToAccountNotFoundRejection() (*payloadR, bool) {
	return p.as("AccountNotFound")
}
func (p *payloadR) ToAccountNotEligibleRejection() (*payloadR, bool) {
	return p.as("AccountNotEligible")
}

func (r *adminRoot) SimulateManualBankingFee(ctx context.Context, args manualFeeArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateManualBankingFee(ctx, args))
}
