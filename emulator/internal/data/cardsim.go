package data

import "fmt"

// CardPayment is a simulated card operation at a merchant.
type CardPayment struct {
	CardID   string
	Amount   int64 // cents
	Currency string
	Merchant Merchant
	// AuthorizationType is CardAuthorizationType: Classic, PreAuthorization
	// or DataRequest.
	AuthorizationType string
	TerminalID        string
	// Outcome is the CardAuthorizationOutcome the simulation asks for:
	// "" or Accepted lets the emulator decide.
	Outcome string
}

// outcomeReasons maps the outcomes a simulation may ask for to the
// RejectedReasonCode a rejected authorization shows; an outcome not named
// here is a refusal with no finer reason.
var outcomeReasons = map[string]string{
	"AccountClosed": "AccountClosed", "AccountSuspended": "AccountSuspended",
	"CardExpired": "CardExpired", "CardNotActivated": "CardNotActivated",
	"CardOutOfOrder": "CardOutOfOrder", "CardPermanentlyBlocked": "CardPermanentlyBlocked",
	"CardSuspended": "CardSuspended", "CardUnknown": "CardUnknown",
	"CanceledByCardHolder": "CanceledByCardHolder", "DoNotHonor": "DoNotHonor",
	"InvalidExpirationDate": "InvalidExpirationDate", "InvalidPinAttemptsExceeded": "InvalidPinAttemptsExceeded",
	"MerchantNotFound": "MerchantNotFound", "PinInvalid": "PinInvalid", "PinRequired": "PinRequired",
	"ThreeDsError": "ThreeDsError", "TransactionAmountLimitExceeded": "TransactionAmountLimitExceeded",
	"TransactionCurrencyIncorrect": "TransactionCurrencyIncorrect",
}

// cardTx is a card transaction of type typ for payment p on card c.
func cardTx(c Card, p CardPayment, typ, side string) Transaction {
	m := p.Merchant
	return Transaction{
		Kind:                    KindCard,
		Product:                 "Card",
		Type:                    typ,
		Side:                    side,
		Amount:                  p.Amount,
		Currency:                p.Currency,
		Label:                   m.Name,
		Counterparty:            m.Name,
		PaymentMethodIdentifier: c.MaskedNumber,
		CardID:                  c.ID,
		MaskedPAN:               c.MaskedNumber,
		Merchant:                m,
		TerminalID:              p.TerminalID,
		AuthorizationType:       p.AuthorizationType,
		Status:                  StatusPending,
	}
}

// cardStep runs fn as one step on the account of a card the viewer sees,
// and returns a copy of the transaction fn answers with.
func (s *Store) cardStep(v Viewer, p CardPayment, fn func(st *step, c Card) (*Transaction, error)) (Transaction, error) {
	c, ok := s.Card(v, p.CardID)
	if !ok {
		return Transaction{}, fmt.Errorf("card %s: %w", p.CardID, ErrNotFound)
	}
	if p.Currency != c.Currency {
		return Transaction{}, fmt.Errorf("the card's account holds %s, not %s: %w", c.Currency, p.Currency, ErrForbidden)
	}
	return s.added(c.AccountIndex, func(st *step) (*Transaction, error) { return fn(st, c) })
}

// refusal is why the platform refuses a card payment on this account and
// card before any outcome is asked for, or "".
func (st *step) refusal(c Card, amount int64) string {
	switch {
	case st.a.Status == "Closed" || st.a.Status == "Closing":
		return "AccountClosed"
	case st.a.Status == "Suspended":
		return "AccountSuspended"
	case c.Status == CardCanceled || c.Status == CardCanceling:
		return "CardPermanentlyBlocked"
	case c.Status != CardEnabled:
		return "CardNotActivated"
	case amount > st.bal.available():
		return "InsufficientFunds"
	}
	return ""
}

// AuthorizeCard records a card authorization: Pending, reserving its
// amount (the available balance drops, the booked one does not), or
// Rejected with its reason when the card, the account, the balance or
// the asked outcome refuses it.
func (s *Store) AuthorizeCard(v Viewer, p CardPayment) (Transaction, error) {
	return s.cardStep(v, p, func(st *step, c Card) (*Transaction, error) {
		reason := st.refusal(c, p.Amount)
		if reason == "" && p.Outcome != "" && p.Outcome != "Accepted" {
			if reason = outcomeReasons[p.Outcome]; reason == "" {
				reason = "DoNotHonor"
			}
		}
		t, err := st.add(cardTx(c, p, "CardOutAuthorization", "Debit"))
		if err == nil && reason != "" {
			st.settle(t, StatusRejected, reason)
		}
		return t, err
	})
}

// DebitCard books the debit of a Pending authorization (for its amount
// unless amount is positive) and releases the authorization, as Captured:
// the reservation ends and the booked balance drops. It returns the
// debit.
func (s *Store) DebitCard(v Viewer, authID string, amount int64) (Transaction, error) {
	return s.stepTx(v, authID, func(st *step, auth *Transaction) (*Transaction, error) {
		if err := expect(auth, StatusPending, "CardOutAuthorization"); err != nil {
			return nil, err
		}
		d := *auth
		d.Type, d.Status, d.Reference, d.origin = "CardOutDebit", StatusBooked, "", auth.ID
		if amount > 0 {
			d.Amount = amount
		}
		st.settle(auth, StatusReleased, "Captured")
		return st.add(d)
	})
}

// DebitCardWithoutAuthorization books a card debit no authorization
// preceded (an offline payment): the platform books it whatever the
// balance.
func (s *Store) DebitCardWithoutAuthorization(v Viewer, p CardPayment) (Transaction, error) {
	return s.bookedCardTx(v, p, "CardOutDebit", "Debit")
}

// CreditCard books a merchant's refund to a card.
func (s *Store) CreditCard(v Viewer, p CardPayment) (Transaction, error) {
	return s.bookedCardTx(v, p, "CardOutCredit", "Credit")
}

func (s *Store) bookedCardTx(v Viewer, p CardPayment, typ, side string) (Transaction, error) {
	return s.cardStep(v, p, func(st *step, c Card) (*Transaction, error) {
		d := cardTx(c, p, typ, side)
		d.Status = StatusBooked
		return st.add(d)
	})
}

// ReleaseCardAuthorization releases a Pending authorization with a
// ReleasedReason: its reservation ends and the available balance is back.
func (s *Store) ReleaseCardAuthorization(v Viewer, authID, reason string) (Transaction, error) {
	return s.change(v, authID, StatusPending, func(st *step, t *Transaction) { st.settle(t, StatusReleased, reason) },
		"CardOutAuthorization")
}

// ReverseCardDebit books the merchant's reversal of a Booked debit (of
// its amount unless amount is positive, and never more): the funds come
// back. It returns the reversal.
func (s *Store) ReverseCardDebit(v Viewer, debitID string, amount int64) (Transaction, error) {
	return s.stepTx(v, debitID, func(st *step, d *Transaction) (*Transaction, error) {
		if err := expect(d, StatusBooked, "CardOutDebit"); err != nil {
			return nil, err
		}
		left := d.Amount - st.undoneAmount(d.ID)
		if amount <= 0 {
			amount = left
		}
		if amount > left || left == 0 {
			return nil, fmt.Errorf("a reversal of %s exceeds the %s of the debit not yet reversed: %w", FormatCents(amount), FormatCents(left), ErrWrongState)
		}
		return st.add(counterpart(d, "CardOutDebitReversal", amount))
	})
}
