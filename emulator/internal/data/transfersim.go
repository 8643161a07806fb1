package data

import "fmt"

// rejectionReasons maps the reasons a simulated rejection may give
// (SepaCreditTransferRejectionReasonCodeEnum,
// SepaDirectDebitRejectReasonCodeEnum) to the RejectedReasonCode the
// partner API shows, where that enum has no value of the same name.
var rejectionReasons = map[string]string{
	"AccountLimited":               "AccountSuspended",
	"AmountExceedsSettlementLimit": "TransactionAmountLimitExceeded",
	"BankOperationCodeInvalid":     "ReasonNotSpecifiedByBank",
	"BeneficiaryBankBicInvalid":    "BeneficiaryBankNotReachable",
	"BeneficiaryBankBicNotFound":   "BeneficiaryBankNotReachable",
	"CreditorAddressMissing":       "BeneficiaryMissingOrIncorrect",
	"CreditorAgentSuspended":       "BeneficiaryBankNotReachable",
	"CreditorNameOrAddressMissing": "BeneficiaryMissingOrIncorrect",
	"DebtorAccountOrIdMissing":     "DebtorAccountUnknown",
	"DebtorNameOrAddressMissing":   "DebtorNameMissing",
	"PaymentNotReceived":           "ReasonNotSpecifiedByBank",
	"ReasonNotSpecifiedByCreditor": "ReasonNotSpecifiedByBank",
	"RejectedByCompliance":         "ReasonNotSpecifiedByBank",
	"NotSpecifiedByPayer":          "ReasonNotSpecifiedByDebtor",
}

// RejectedReason is the RejectedReasonCode a simulated rejection with this
// reason shows.
func RejectedReason(reason string) string {
	if r, ok := rejectionReasons[reason]; ok {
		return r
	}
	return reason
}

// OutgoingTransfer is a SEPA credit transfer an account sends.
type OutgoingTransfer struct {
	AccountID         string
	CreditorIBAN      string
	CreditorName      string
	Amount            int64 // cents
	Currency          string
	Label             string
	Reference         string
	ExternalReference string
	Instant           bool
}

// SendTransfer records an outgoing transfer of an account the viewer sees
// as Pending: it counts at once in the pending balance, so the available
// balance drops, until it is booked, rejected or returned. More than the
// available balance is Rejected for insufficient funds, as the platform
// does.
func (s *Store) SendTransfer(v Viewer, in OutgoingTransfer) (Transaction, error) {
	idx, err := s.sendingAccount(v, in.AccountID)
	if err != nil {
		return Transaction{}, err
	}
	return s.added(idx, func(st *step) (*Transaction, error) { return st.send(in) })
}

// sendingAccount is the index of an account the viewer sees that may
// send transfers.
func (s *Store) sendingAccount(v Viewer, id string) (int32, error) {
	idx, ok := s.byID[id]
	if !ok || !s.canSee(v, idx) {
		return 0, fmt.Errorf("account %s: %w", id, ErrNotFound)
	}
	if a := &s.accounts[idx]; a.Status != "Opened" {
		return 0, fmt.Errorf("the account is %s, and only an Opened account sends transfers: %w", a.Status, ErrForbidden)
	}
	return idx, nil
}

// send records one outgoing transfer of the step's account.
func (st *step) send(in OutgoingTransfer) (*Transaction, error) {
	if in.Currency != st.a.Currency {
		return nil, fmt.Errorf("the account holds %s, not %s: %w", st.a.Currency, in.Currency, ErrForbidden)
	}
	typ := "SepaCreditTransferOut"
	if in.Instant {
		typ = "SepaInstantCreditTransferOut"
	}
	label := in.Label
	if label == "" {
		label = "Transfer to " + in.CreditorName
	}
	creditor := normalizeIBAN(in.CreditorIBAN)
	t := Transaction{
		Kind:                    KindSEPACreditTransfer,
		Product:                 "SEPACreditTransfer",
		Type:                    typ,
		Side:                    "Debit",
		Amount:                  in.Amount,
		Currency:                in.Currency,
		Label:                   label,
		Reference:               in.Reference,
		ExternalReference:       in.ExternalReference,
		Counterparty:            in.CreditorName,
		PaymentMethodIdentifier: creditor,
		CounterpartyIBAN:        creditor,
		Status:                  StatusPending,
	}
	if in.Amount > st.bal.available() {
		t.Status, t.RejectedReason = StatusRejected, "InsufficientFunds"
	}
	return st.add(t)
}

// added runs fn as one step on account idx, and returns a copy of the
// transaction fn answers with.
func (s *Store) added(idx int32, fn func(st *step) (*Transaction, error)) (Transaction, error) {
	var out Transaction
	err := s.stepOn(idx, func(st *step) error {
		t, err := fn(st)
		if err == nil {
			out = *t
		}
		return err
	})
	return out, err
}

// undo runs one step on simulated transaction id: it must be a Booked one
// of types, not yet given back; a new transaction of typ gives its whole
// amount back.
func (s *Store) undo(v Viewer, id, typ string, types ...string) (Transaction, error) {
	return s.stepTx(v, id, func(st *step, t *Transaction) (*Transaction, error) {
		if err := expect(t, StatusBooked, types...); err != nil {
			return nil, err
		}
		if st.undoneAmount(id) > 0 {
			return nil, fmt.Errorf("transaction %s was already given back: %w", id, ErrWrongState)
		}
		return st.add(counterpart(t, typ, t.Amount))
	})
}

// ReturnIncomingTransfer books the return of a Booked incoming transfer to
// its sender: the funds leave the account. It returns the return.
func (s *Store) ReturnIncomingTransfer(v Viewer, id string) (Transaction, error) {
	return s.undo(v, id, "SepaCreditTransferInReturn", "SepaCreditTransferIn", "SepaInstantCreditTransferIn")
}

// RecallIncomingTransfer books the return of a Booked incoming transfer
// whose sender's recall was accepted.
func (s *Store) RecallIncomingTransfer(v Viewer, id string) (Transaction, error) {
	typ := "SepaCreditTransferInRecall"
	if t, ok := s.lookup(id); ok && t.Type == "SepaInstantCreditTransferIn" {
		typ = "SepaInstantCreditTransferInRecall"
	}
	return s.undo(v, id, typ, "SepaCreditTransferIn", "SepaInstantCreditTransferIn")
}

// ReturnOutgoingTransfer books the return of a Booked outgoing transfer by
// the beneficiary's bank: the funds come back.
func (s *Store) ReturnOutgoingTransfer(v Viewer, id string) (Transaction, error) {
	return s.undo(v, id, "SepaCreditTransferOutReturn", "SepaCreditTransferOut", "SepaInstantCreditTransferOut")
}

// BookOutgoingTransfer books a Pending outgoing transfer.
func (s *Store) BookOutgoingTransfer(v Viewer, id string) (Transaction, error) {
	return s.change(v, id, StatusPending, func(st *step, t *Transaction) { st.book(t) },
		"SepaCreditTransferOut", "SepaInstantCreditTransferOut")
}

// RejectOutgoingTransfer rejects a Pending outgoing transfer with a
// SepaCreditTransferRejectionReasonCodeEnum reason: its amount is
// available again.
func (s *Store) RejectOutgoingTransfer(v Viewer, id, reason string) (Transaction, error) {
	return s.change(v, id, StatusPending, func(st *step, t *Transaction) { st.settle(t, StatusRejected, RejectedReason(reason)) },
		"SepaCreditTransferOut", "SepaInstantCreditTransferOut")
}

// change runs one step on simulated transaction id, which must be of one
// of types and in status: fn changes it.
func (s *Store) change(v Viewer, id, status string, fn func(st *step, t *Transaction), types ...string) (Transaction, error) {
	return s.stepTx(v, id, func(st *step, t *Transaction) (*Transaction, error) {
		if err := expect(t, status, types...); err != nil {
			return nil, err
		}
		fn(st, t)
		return t, nil
	})
}
