package data

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"time"
)

// Payment statuses (PaymentStatus).
const (
	PaymentConsentPending = "ConsentPending"
	PaymentInitiated      = "Initiated"
	PaymentRejected       = "Rejected"
)

// Payment is a batch of outgoing transfers a user initiated: it waits for
// the user's consent, then its transfers are sent (Initiated), or the
// consent is refused (Rejected).
type Payment struct {
	ID        string
	AccountID string
	Status    string
	// Consent is what the payment waits for; its ID is empty when the
	// user consents automatically (a Sandbox user with autoConsent).
	Consent        Consent
	Transfers      []OutgoingTransfer
	TransactionIDs []string // once Initiated, in the order of Transfers
	// RedirectURL is where the consent page sends the user back.
	RedirectURL string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	// StandingOrderID is the standing order a payment executes, if any.
	StandingOrderID string
}

// MaxPayments bounds the payments initiated in one emulator.
const MaxPayments = 10_000

// InitiatePayment starts a payment of transfers from an account the user
// sees. A user who consents automatically sends them at once; anyone else
// gets a payment waiting for the consent at consentURL (its consentId
// parameter added), which AcceptConsent or RefuseConsent ends.
func (s *Store) InitiatePayment(userID, accountID string, transfers []OutgoingTransfer, consentURL, redirectURL string) (Payment, error) {
	v := Viewer{UserID: userID}
	idx, err := s.sendingAccount(v, accountID)
	if err != nil {
		return Payment{}, err
	}
	u, ok := s.User(s.Effective(userID))
	if !ok {
		return Payment{}, fmt.Errorf("user %s: %w", userID, ErrNotFound)
	}
	for _, t := range transfers {
		if t.Currency != s.accounts[idx].Currency {
			return Payment{}, fmt.Errorf("the account holds %s, not %s: %w", s.accounts[idx].Currency, t.Currency, ErrForbidden)
		}
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	if len(s.payments) >= MaxPayments {
		s.mu.Unlock()
		return Payment{}, fmt.Errorf("the emulator holds %d payments, its maximum: restart it to start afresh: %w", MaxPayments, ErrForbidden)
	}
	n := len(s.payments)
	p := &Payment{ID: s.runtimeID(0x706179, n), AccountID: accountID, Status: PaymentConsentPending,
		Transfers: transfers, RedirectURL: redirectURL, CreatedAt: now, UpdatedAt: now}
	if !u.AutoConsent {
		id := s.runtimeID(0x636f6e73, n)
		p.Consent = Consent{ID: id, Purpose: PurposeInitPayment, Status: ConsentCreated, UserID: u.ID,
			CreatedAt: now, UpdatedAt: now, Challenge: fmt.Sprintf("%016x%016x", mix(uint64(n)^uint64(s.seed)), mix(uint64(n)+uint64(s.seed))),
			URL: consentURL + "?" + url.Values{"consentId": {id}}.Encode()}
		s.byConsent[id] = p.ID
	}
	s.payments[p.ID] = p
	s.mu.Unlock()
	if u.AutoConsent {
		return s.execute(p.ID)
	}
	return s.Payment(p.ID)
}

// Payment returns a copy of the payment with this id.
func (s *Store) Payment(id string) (Payment, error) {
	s.mu.RLock()
	p, ok := s.payments[id]
	var c Payment
	if ok {
		c = p.clone()
	}
	s.mu.RUnlock()
	if ok {
		return c, nil
	}
	// A seeded standing order's execution.
	if sp, ok := s.seededOrderPayment(id); ok {
		return sp, nil
	}
	return Payment{}, fmt.Errorf("payment %s: %w", id, ErrNotFound)
}

func (p *Payment) clone() Payment {
	c := *p
	c.Transfers = append([]OutgoingTransfer(nil), p.Transfers...)
	c.TransactionIDs = append([]string(nil), p.TransactionIDs...)
	return c
}

// PaymentOfConsent returns the payment a consent is for.
func (s *Store) PaymentOfConsent(consentID string) (Payment, error) {
	s.mu.RLock()
	id, ok := s.byConsent[consentID]
	s.mu.RUnlock()
	if !ok {
		return Payment{}, fmt.Errorf("consent %s: %w", consentID, ErrNotFound)
	}
	return s.Payment(id)
}

// AcceptConsent is the user's consent to a pending payment: its transfers
// are sent, Pending (or Rejected for insufficient funds).
func (s *Store) AcceptConsent(consentID string) (Payment, error) {
	p, err := s.answer(consentID, ConsentAccepted)
	if err != nil {
		return Payment{}, err
	}
	return s.execute(p.ID)
}

// RefuseConsent is the user's refusal: the payment is Rejected and sends
// nothing.
func (s *Store) RefuseConsent(consentID string) (Payment, error) {
	return s.answer(consentID, ConsentRefused)
}

// answer records the user's answer to a pending payment consent.
func (s *Store) answer(consentID, status string) (Payment, error) {
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.payments[s.byConsent[consentID]]
	if !ok {
		return Payment{}, fmt.Errorf("consent %s: %w", consentID, ErrNotFound)
	}
	if p.Consent.Status != ConsentCreated && p.Consent.Status != ConsentStarted {
		return Payment{}, fmt.Errorf("consent %s is already %s: %w", consentID, p.Consent.Status, ErrWrongState)
	}
	p.Consent.Status, p.Consent.UpdatedAt, p.UpdatedAt = status, now, now
	if status == ConsentAccepted {
		p.Consent.AcceptedAt = now
	} else {
		p.Consent.RefusedAt = now
		p.Status = PaymentRejected
	}
	return p.clone(), nil
}

// execute sends a consented payment's transfers.
func (s *Store) execute(paymentID string) (Payment, error) {
	p, err := s.Payment(paymentID)
	if err != nil {
		return Payment{}, err
	}
	idx := s.byID[p.AccountID]
	var ids []string
	err = s.stepOn(idx, func(st *step) error {
		for _, in := range p.Transfers {
			t, err := st.send(in)
			if err != nil {
				return err
			}
			t.PaymentID = paymentID
			ids = append(ids, t.ID)
		}
		// Under the same lock, so no one sees the payment half done.
		q := s.payments[paymentID]
		q.Status, q.TransactionIDs, q.UpdatedAt = PaymentInitiated, ids, st.now
		return nil
	})
	if err != nil {
		return Payment{}, err
	}
	return s.Payment(paymentID)
}

// runtimeID is the n-th id of what is created at run time under salt:
// derived from the seed, so a replayed session creates the same ids.
func (s *Store) runtimeID(salt uint64, n int) string {
	r := rand.New(rand.NewPCG(uint64(s.seed)^salt, uint64(n)))
	return uuidFrom(r.Uint64(), r.Uint64())
}

// PaymentCursor is the opaque cursor of a payment.
func PaymentCursor(p *Payment) string { return encodeCursor("payment", p.ID) }

// TransactionsOf pages through the transactions of these ids, those that
// exist.
func (s *Store) TransactionsOf(ids []string, q TransactionQuery) (Page[Transaction], error) {
	txs := make([]Transaction, 0, len(ids))
	for _, id := range ids {
		if t, ok := s.Transaction(id); ok {
			txs = append(txs, t)
		}
	}
	return s.pageOf(txs, q)
}

// PaymentTransactions pages through the transactions a payment sent.
func (s *Store) PaymentTransactions(p Payment, q TransactionQuery) (Page[Transaction], error) {
	return s.TransactionsOf(p.TransactionIDs, q)
}
