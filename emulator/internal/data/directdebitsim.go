package data

import (
	"fmt"
	"time"
)

// ReceivedDirectDebit is a SEPA direct debit instruction a creditor sends
// to debit an account.
type ReceivedDirectDebit struct {
	DebtorIBAN       string
	CreditorIBAN     string
	CreditorName     string
	MandateReference string
	Amount           int64 // cents
	Currency         string
	Label            string
	EndToEndID       string
	ExecutionDate    time.Time
}

// ReceiveDirectDebit records a direct debit of an account the viewer
// sees: Upcoming until its execution date when that is still ahead (the
// creditor may cancel it, the debtor reject it), else debited at once:
// Booked, or Rejected for insufficient funds as the platform does.
func (s *Store) ReceiveDirectDebit(v Viewer, in ReceivedDirectDebit) (Transaction, error) {
	idx, ok := s.byIBAN[normalizeIBAN(in.DebtorIBAN)]
	if !ok || !s.canSee(v, idx) {
		return Transaction{}, fmt.Errorf("debtor IBAN %s: %w", in.DebtorIBAN, ErrForbidden)
	}
	a := &s.accounts[idx]
	if in.Currency != a.Currency {
		return Transaction{}, fmt.Errorf("the account holds %s, not %s: %w", a.Currency, in.Currency, ErrForbidden)
	}
	if a.Status == "Closed" {
		return Transaction{}, fmt.Errorf("the account is closed: %w", ErrForbidden)
	}
	label := in.Label
	if label == "" {
		label = in.CreditorName + " direct debit"
	}
	creditor := normalizeIBAN(in.CreditorIBAN)
	return s.added(idx, func(st *step) (*Transaction, error) {
		t := Transaction{
			Kind:                    KindSEPADirectDebit,
			Product:                 "SEPADirectDebit",
			Type:                    "SepaDirectDebitOut",
			Side:                    "Debit",
			Amount:                  in.Amount,
			Currency:                in.Currency,
			Label:                   label,
			Reference:               in.EndToEndID,
			ExternalReference:       in.MandateReference,
			Counterparty:            in.CreditorName,
			PaymentMethodIdentifier: creditor,
			CounterpartyIBAN:        creditor,
			ExecutionDate:           in.ExecutionDate.UTC().Truncate(time.Millisecond),
			Status:                  StatusBooked,
		}
		switch {
		case in.ExecutionDate.After(st.now):
			t.Status = StatusUpcoming
		case in.Amount > st.bal.available():
			t.Status, t.RejectedReason = StatusRejected, "InsufficientFunds"
		}
		return st.add(t)
	})
}

// ExecuteDirectDebit debits an Upcoming direct debit whose execution date
// came: Booked, or Rejected for insufficient funds. One that was rejected
// or canceled meanwhile is left as it is (ErrWrongState).
func (s *Store) ExecuteDirectDebit(id string) (Transaction, error) {
	return s.stepTx(Viewer{Project: true}, id, func(st *step, t *Transaction) (*Transaction, error) {
		if err := expect(t, StatusUpcoming, "SepaDirectDebitOut"); err != nil {
			return nil, err
		}
		if t.Amount > st.bal.available() {
			st.settle(t, StatusRejected, "InsufficientFunds")
		} else {
			st.book(t)
		}
		return t, nil
	})
}

// RejectDirectDebit is the debtor's rejection of an Upcoming direct debit,
// with a SepaDirectDebitRejectReasonCodeEnum reason.
func (s *Store) RejectDirectDebit(v Viewer, id, reason string) (Transaction, error) {
	return s.change(v, id, StatusUpcoming, func(st *step, t *Transaction) { st.settle(t, StatusRejected, RejectedReason(reason)) },
		"SepaDirectDebitOut")
}

// CancelDirectDebit is the creditor's cancelation of an Upcoming direct
// debit.
func (s *Store) CancelDirectDebit(v Viewer, id string) (Transaction, error) {
	return s.change(v, id, StatusUpcoming, func(st *step, t *Transaction) { st.settle(t, StatusCanceled, "") },
		"SepaDirectDebitOut")
}

// ReturnDirectDebit books the refund of a Booked direct debit the account
// member asked for: the funds come back.
func (s *Store) ReturnDirectDebit(v Viewer, id string) (Transaction, error) {
	return s.undo(v, id, "SepaDirectDebitOutReturn", "SepaDirectDebitOut")
}

// BookIncomingDirectDebit books a Pending direct debit the account
// collects (SepaDirectDebitIn): the funds join the booked balance.
func (s *Store) BookIncomingDirectDebit(v Viewer, id string) (Transaction, error) {
	return s.change(v, id, StatusPending, func(st *step, t *Transaction) { st.book(t) }, "SepaDirectDebitIn")
}
