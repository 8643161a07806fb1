package emulator

import (
	"errors"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Names of the direct debit simulations' types, as the schema spells them.
const (
	sddField, sddInput, sddOK                   = "simulateOutgoingSepaDirectDebitReception", "SimulateOutgoingSepaDirectDebitReceptionInput", "SimulateOutgoingSepaDirectDebitReceptionSuccessPayload"
	sddRejectField, sddRejectInput, sddRejectOK = "simulateOutgoingSepaDirectDebitReject", "SimulateOutgoingSepaDirectDebitRejectInput", "SimulateOutgoingSepaDirectDebitRejectSuccessPayload"
	sddCancelField, sddCancelInput, sddCancelOK = "simulateOutgoingSepaDirectDebitCancel", "SimulateOutgoingSepaDirectDebitCancelInput", "SimulateOutgoingSepaDirectDebitCancelSuccessPayload"
	sddReturnField, sddReturnInput, sddReturnOK = "simulateOutgoingSepaDirectDebitReturn", "SimulateOutgoingSepaDirectDebitReturnInput", "SimulateOutgoingSepaDirectDebitReturnSuccessPayload"
)

// directDebit is the input of a direct debit of the account, executed at.
func directDebit(acc *data.Account, amount string, at time.Time) map[string]any {
	return map[string]any{
		"amount":           eur(amount),
		"creditor":         map[string]any{"iban": "FR2730003000706315734174B93", "name": "Energie Plus", "identifier": "FR12ZZZ123456"},
		"debtorIban":       acc.IBAN,
		"executionDate":    at.UTC().Format(time.RFC3339Nano),
		"mandateReference": "MANDATE-42",
		"mandateSequence":  "Recurrent",
		"mandateType":      "Core",
	}
}

func TestDirectDebitDebitedThenReturned(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.transferTarget()
	before := e.balances(acc.ID)
	dd := e.mustSim(sddField, sddInput, sddOK, directDebit(acc, "35.00", e.clock.Now()))
	before = e.moved(acc.ID, before, -3500, -3500, 0, 0)
	e.expectEvents(ev("Transaction.Booked", dd), ev("Account.Updated", acc.ID))
	// Debited, it is too late to reject or cancel it.
	e.rejected(sddRejectField, sddRejectInput, sddRejectOK, "ForbiddenRejection", map[string]any{"transactionId": dd, "reasonCode": "NotSpecifiedByPayer"})
	e.rejected(sddCancelField, sddCancelInput, sddCancelOK, "ForbiddenRejection", map[string]any{"transactionId": dd, "reasonCode": "PaymentUndue"})

	ret := e.mustSim(sddReturnField, sddReturnInput, sddReturnOK, map[string]any{"transactionId": dd, "reasonCode": "RefundRequestedByDebtor"})
	e.moved(acc.ID, before, 3500, 3500, 0, 0)
	e.expectEvents(ev("Transaction.Booked", ret), ev("Account.Updated", acc.ID))
	e.rejected(sddReturnField, sddReturnInput, sddReturnOK, "ForbiddenRejection", map[string]any{"transactionId": dd, "reasonCode": "RefundRequestedByDebtor"})
}

func TestUpcomingDirectDebitRejectedOrCanceled(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.transferTarget()
	before := e.balances(acc.ID)
	later := e.clock.Now().Add(72 * time.Hour)
	dd1 := e.mustSim(sddField, sddInput, sddOK, directDebit(acc, "10.00", later))
	dd2 := e.mustSim(sddField, sddInput, sddOK, directDebit(acc, "11.00", later))
	// Upcoming, they move no balance yet.
	e.moved(acc.ID, before, 0, 0, 0, 0)
	if s := e.transactionStatus(dd1); s != "Upcoming" {
		t.Fatalf("direct debit %s, want Upcoming", s)
	}
	// An upcoming direct debit is not returned.
	e.rejected(sddReturnField, sddReturnInput, sddReturnOK, "ForbiddenRejection", map[string]any{"transactionId": dd1, "reasonCode": "RefundRequestedByDebtor"})

	e.mustSim(sddRejectField, sddRejectInput, sddRejectOK, map[string]any{"transactionId": dd1, "reasonCode": "NotSpecifiedByPayer"})
	e.mustSim(sddCancelField, sddCancelInput, sddCancelOK, map[string]any{"transactionId": dd2, "reasonCode": "PaymentUndue"})
	e.moved(acc.ID, before, 0, 0, 0, 0)
	e.expectEvents(ev("Transaction.Upcoming", dd1), ev("Transaction.Upcoming", dd2),
		ev("Transaction.Rejected", dd1), ev("Transaction.Canceled", dd2))
	if s1, s2 := e.transactionStatus(dd1), e.transactionStatus(dd2); s1 != "Rejected ReasonNotSpecifiedByDebtor" || s2 != "Canceled" {
		t.Fatalf("direct debits %s and %s, want Rejected ReasonNotSpecifiedByDebtor and Canceled", s1, s2)
	}
	e.rejected(sddCancelField, sddCancelInput, sddCancelOK, "ForbiddenRejection", map[string]any{"transactionId": dd1, "reasonCode": "PaymentUndue"})
	e.rejected(sddRejectField, sddRejectInput, sddRejectOK, "TransactionNotFoundRejection", map[string]any{"transactionId": "nothing", "reasonCode": "NotSpecifiedByPayer"})
}

func TestDirectDebitBeyondTheBalanceIsRejected(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.transferTarget()
	before := e.balances(acc.ID)
	dd := e.mustSim(sddField, sddInput, sddOK, directDebit(acc, "99999999.00", e.clock.Now()))
	e.moved(acc.ID, before, 0, 0, 0, 0)
	e.expectEvents(ev("Transaction.Rejected", dd))
	if s := e.transactionStatus(dd); s != "Rejected InsufficientFunds" {
		t.Fatalf("direct debit %s, want Rejected InsufficientFunds", s)
	}
	// An IBAN of no account the caller sees is forbidden.
	in := directDebit(acc, "1.00", e.clock.Now())
	in["debtorIban"] = "FR2730003000706315734174B93"
	e.rejected(sddField, sddInput, sddOK, "ForbiddenRejection", in)
}

func TestUpcomingDirectDebitIsDebitedAtItsExecutionDate(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.transferTarget()
	before := e.balances(acc.ID)
	// A millisecond ahead of the emulator's clock, which stands still: the
	// debit comes a real millisecond later.
	dd := e.mustSim(sddField, sddInput, sddOK, directDebit(acc, "6.00", e.clock.Now().Add(time.Millisecond)))
	e.expectEvents(ev("Transaction.Upcoming", dd), ev("Transaction.Booked", dd), ev("Account.Updated", acc.ID))
	e.moved(acc.ID, before, -600, -600, 0, 0)
	if s := e.transactionStatus(dd); s != "Booked" {
		t.Fatalf("direct debit %s at its execution date, want Booked", s)
	}
	// One rejected before its date is left alone.
	later := e.mustSim(sddField, sddInput, sddOK, directDebit(acc, "6.00", e.clock.Now().Add(72*time.Hour)))
	e.mustSim(sddRejectField, sddRejectInput, sddRejectOK, map[string]any{"transactionId": later, "reasonCode": "NotSpecifiedByPayer"})
	if _, err := e.sandbox.ExecuteDirectDebit(later); !errors.Is(err, data.ErrWrongState) {
		t.Fatalf("executing a rejected direct debit: %v", err)
	}
}
