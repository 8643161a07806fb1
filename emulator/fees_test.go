package emulator

import (
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

const opManualFee = `mutation($input: SimulateManualBankingFeeInput!) { simulateManualBankingFee(input: $input) {
  __typename ... on Rejection { message } ... on AccountNotFoundRejection { accountId: id }
  ... on SimulateManualBankingFeeSuccessPayload { id debitedAmount { value currency } } } }`

type feeResult struct {
	Typename      string `json:"__typename"`
	Message, ID   string
	AccountID     string
	DebitedAmount struct{ Value, Currency string }
}

func (e *simEnv) fee(in map[string]any) feeResult {
	e.t.Helper()
	var out struct {
		F feeResult `json:"simulateManualBankingFee"`
	}
	e.mustData(pathAdmin, tokSandboxProject, opManualFee, map[string]any{"input": in}, &out)
	return out.F
}

func TestManualBankingFee(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.transferTarget()
	before := e.balances(acc.ID)
	at := "2026-11-22T01:00:00.000Z"
	f := e.fee(map[string]any{"accountId": acc.ID, "type": "DocumentIssuance", "effectiveDate": at, "dueAmount": eur("25.00")})
	if f.Typename != "SimulateManualBankingFeeSuccessPayload" || f.DebitedAmount.Value != "25.00" || f.DebitedAmount.Currency != "EUR" {
		t.Fatalf("fee: %+v", f)
	}
	before = e.moved(acc.ID, before, -2500, -2500, 0, 0)
	e.expectEvents(ev("Transaction.Booked", f.ID), ev("Account.Updated", acc.ID))
	if s := e.transactionStatus(f.ID); s != "Booked" {
		t.Fatalf("fee %s, want Booked", s)
	}
	// With no amount, the emulator's price.
	f = e.fee(map[string]any{"accountId": acc.ID, "type": "ImproperUseOfAccount", "effectiveDate": at})
	if f.DebitedAmount.Value != data.FormatCents(data.DefaultManualFee) {
		t.Fatalf("fee with no amount: %+v", f)
	}
	e.moved(acc.ID, before, -data.DefaultManualFee, -data.DefaultManualFee, 0, 0)
	e.expectEvents(ev("Transaction.Booked", f.ID), ev("Account.Updated", acc.ID))

	if f := e.fee(map[string]any{"accountId": "nope", "type": "DocumentIssuance", "effectiveDate": at}); f.Typename != "AccountNotFoundRejection" || f.AccountID != "nope" {
		t.Fatalf("fee on an unknown account: %+v", f)
	}
	var closed *data.Account
	for _, a := range e.sandbox.AllAccounts() {
		if a.Status == "Closed" {
			closed = a
			break
		}
	}
	if closed == nil {
		t.Fatal("no closed account")
	}
	if f := e.fee(map[string]any{"accountId": closed.ID, "type": "DocumentIssuance", "effectiveDate": at}); f.Typename != "AccountNotEligibleRejection" || f.Message == "" {
		t.Fatalf("fee on a closed account: %+v", f)
	}
	if f := e.fee(map[string]any{"accountId": acc.ID, "type": "DocumentIssuance", "effectiveDate": at, "dueAmount": map[string]any{"value": "1.00", "currency": "USD"}}); f.Typename != "ForbiddenRejection" {
		t.Fatalf("fee in another currency: %+v", f)
	}
	if r := e.query(pathAdmin, tokSandboxProject, opManualFee, map[string]any{"input": map[string]any{"accountId": acc.ID, "type": "DocumentIssuance", "effectiveDate": "yesterday"}}); len(r.Errors) == 0 {
		t.Fatal("a date that is no DateTime was accepted")
	}
	// Rejected, nothing more happened.
	e.expectEvents()
}
