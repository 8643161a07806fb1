package emulator

import (
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Names of the transfer simulations' types, as the schema spells them.
const (
	bookField, bookInput, bookOK                = "simulateOutgoingSepaCreditTransferBooking", "SimulateOutgoingSepaCreditTransferBookingInput", "SimulateOutgoingSepaCreditTransferBookingSuccessPayload"
	rejectField, rejectInput, rejectOK          = "simulateOutgoingSepaCreditTransferRejection", "SimulateOutgoingSepaCreditTransferRejectionInput", "SimulateOutgoingSepaCreditTransferRejectionSuccessPayload"
	outReturnField, outReturnInput, outReturnOK = "simulateOutgoingSepaCreditTransferReturn", "SimulateOutgoingSepaCreditTransferReturnInput", "SimulateOutgoingSepaCreditTransferReturnSuccessPayload"
	inReturnField, inReturnInput, inReturnOK    = "simulateIncomingSepaCreditTransferReturn", "SimulateIncomingSepaCreditTransferReturnInput", "SimulateIncomingSepaCreditTransferReturnSuccessPayload"
	recallField, recallInput, recallOK          = "simulateIncomingSepaCreditTransferAcceptedRecall", "SimulateIncomingSepaCreditTransferAcceptedRecallInput", "SimulateIncomingSepaCreditTransferAcceptedRecallSuccessPayload"
)

// sendTransfer starts an outgoing transfer of 25.00 from the account.
func (e *simEnv) sendTransfer(acc *data.Account) string {
	e.t.Helper()
	t, err := e.sandbox.SendTransfer(data.Viewer{Project: true}, data.OutgoingTransfer{AccountID: acc.ID,
		CreditorIBAN: "FR2730003000706315734174B93", CreditorName: "Acme SAS", Amount: 2500, Currency: "EUR"})
	if err != nil {
		e.t.Fatal(err)
	}
	return t.ID
}

func TestOutgoingTransferBookedThenReturned(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.transferTarget()
	before := e.balances(acc.ID)
	tx := e.sendTransfer(acc)
	// Pending, it already lowers what is available.
	before = e.moved(acc.ID, before, -2500, 0, -2500, 0)

	e.mustSim(bookField, bookInput, bookOK, map[string]any{"transactionId": tx})
	before = e.moved(acc.ID, before, 0, -2500, 2500, 0)
	e.expectEvents(ev("Transaction.Booked", tx), ev("Account.Updated", acc.ID))
	// Booking is once; a booked transfer is not rejected.
	e.rejected(bookField, bookInput, bookOK, "ForbiddenRejection", map[string]any{"transactionId": tx})
	e.rejected(rejectField, rejectInput, rejectOK, "ForbiddenRejection", map[string]any{"transactionId": tx, "reasonCode": "InsufficientFunds"})

	ret := e.mustSim(outReturnField, outReturnInput, outReturnOK, map[string]any{"transactionId": tx, "reasonCode": "BeneficiaryAccountClosed"})
	e.moved(acc.ID, before, 2500, 2500, 0, 0)
	e.expectEvents(ev("Transaction.Booked", ret), ev("Account.Updated", acc.ID))
	if s := e.transactionStatus(ret); s != "Booked" {
		t.Fatalf("return %s, want Booked", s)
	}
	// A transfer is returned once, and a return is not a transfer.
	e.rejected(outReturnField, outReturnInput, outReturnOK, "ForbiddenRejection", map[string]any{"transactionId": tx, "reasonCode": "NotSpecified"})
	e.rejected(bookField, bookInput, bookOK, "ForbiddenRejection", map[string]any{"transactionId": ret})
}

func TestOutgoingTransferRejected(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.transferTarget()
	before := e.balances(acc.ID)
	tx := e.sendTransfer(acc)
	// A pending transfer is not returned.
	e.rejected(outReturnField, outReturnInput, outReturnOK, "ForbiddenRejection", map[string]any{"transactionId": tx, "reasonCode": "NotSpecified"})
	e.mustSim(rejectField, rejectInput, rejectOK, map[string]any{"transactionId": tx, "reasonCode": "CreditorAgentSuspended"})
	// Rejected, its amount is available again.
	e.moved(acc.ID, before, 0, 0, 0, 0)
	e.expectEvents(ev("Transaction.Rejected", tx))
	if s := e.transactionStatus(tx); s != "Rejected BeneficiaryBankNotReachable" {
		t.Fatalf("transfer %s, want Rejected BeneficiaryBankNotReachable", s)
	}
	e.rejected(bookField, bookInput, bookOK, "ForbiddenRejection", map[string]any{"transactionId": tx})
	e.rejected(bookField, bookInput, bookOK, "TransactionNotFoundRejection", map[string]any{"transactionId": "bosci_sim0000000000nothere"})
}

func TestOutgoingTransferBeyondTheBalanceIsRejected(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.transferTarget()
	before := e.balances(acc.ID)
	tx, err := e.sandbox.SendTransfer(data.Viewer{Project: true}, data.OutgoingTransfer{AccountID: acc.ID,
		CreditorIBAN: "FR2730003000706315734174B93", CreditorName: "Acme SAS", Amount: e.sandbox.Balances(acc).Available + 1, Currency: "EUR"})
	if err != nil || tx.Status != data.StatusRejected || tx.RejectedReason != "InsufficientFunds" {
		t.Fatalf("a transfer beyond the available balance: %+v, %v", tx, err)
	}
	e.moved(acc.ID, before, 0, 0, 0, 0)
}

func TestIncomingTransferReturnedAndRecalled(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.transferTarget()
	before := e.balances(acc.ID)
	in1 := e.simulate(acc.IBAN)
	in2 := e.simulate(acc.IBAN)
	before = e.moved(acc.ID, before, 8400, 8400, 0, 0)
	e.expectEvents(ev("Transaction.Pending", in1), ev("Transaction.Booked", in1), ev("Account.Updated", acc.ID),
		ev("Transaction.Pending", in2), ev("Transaction.Booked", in2), ev("Account.Updated", acc.ID))

	ret := e.mustSim(inReturnField, inReturnInput, inReturnOK, map[string]any{"transactionId": in1, "reasonCode": "NotSpecifiedByBeneficiary"})
	before = e.moved(acc.ID, before, -4200, -4200, 0, 0)
	rec := e.mustSim(recallField, recallInput, recallOK, map[string]any{"transactionId": in2, "reasonCode": "TransactionFraudulent"})
	e.moved(acc.ID, before, -4200, -4200, 0, 0)
	e.expectEvents(ev("Transaction.Booked", ret), ev("Account.Updated", acc.ID), ev("Transaction.Booked", rec), ev("Account.Updated", acc.ID))

	// Each is given back once; a return is not a transfer received.
	e.rejected(recallField, recallInput, recallOK, "ForbiddenRejection", map[string]any{"transactionId": in1, "reasonCode": "TransactionDuplicated"})
	e.rejected(inReturnField, inReturnInput, inReturnOK, "ForbiddenRejection", map[string]any{"transactionId": ret, "reasonCode": "NotSpecifiedByBeneficiary"})
	e.rejected(inReturnField, inReturnInput, inReturnOK, "TransactionNotFoundRejection", map[string]any{"transactionId": "nothing", "reasonCode": "NotSpecifiedByBeneficiary"})
}

// TestRejectionReasonsArePartnerCodes checks that every reason a simulated
// rejection may give shows as a value of the partner API's
// RejectedReasonCode.
func TestRejectionReasonsArePartnerCodes(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	partner := e.enumValues(pathSandbox, "RejectedReasonCode")
	for _, enum := range []string{"SepaCreditTransferRejectionReasonCodeEnum", "SepaDirectDebitRejectReasonCodeEnum"} {
		for reason := range e.enumValues(pathAdmin, enum) {
			if !partner[data.RejectedReason(reason)] {
				t.Errorf("%s %s shows as %s, not a RejectedReasonCode", enum, reason, data.RejectedReason(reason))
			}
		}
	}
}

// enumValues are the values of an enum the endpoint serves.
func (e *simEnv) enumValues(path, name string) map[string]bool {
	e.t.Helper()
	var out struct {
		Type struct{ EnumValues []struct{ Name string } } `json:"__type"`
	}
	e.mustData(path, tokSandboxProject, `query($n: String!) { __type(name: $n) { enumValues { name } } }`, map[string]any{"n": name}, &out)
	vals := map[string]bool{}
	for _, v := range out.Type.EnumValues {
		vals[v.Name] = true
	}
	if len(vals) == 0 {
		e.t.Fatalf("%s serves no enum %s", path, name)
	}
	return vals
}
