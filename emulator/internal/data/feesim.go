package data

import (
	"errors"
	"fmt"
	"time"
)

// DefaultManualFee is what a manual banking fee costs when the simulation
// names no amount, in cents: on the platform it is the project's price,
// which the emulator does not know.
const DefaultManualFee = 10_00

// ErrNotEligible is returned for an account a fee cannot be charged to.
var ErrNotEligible = errors.New("the account is not eligible")

// Fee is a manual banking fee.
type Fee struct {
	AccountID string
	Type      string // ManualBankingFee
	Amount    int64  // cents; 0 for DefaultManualFee
	Currency  string // "" for the account's
	Effective time.Time
}

// ChargeFee books a manual banking fee on an account the viewer sees: the
// booked balance drops at once, as the platform debits fees whatever the
// balance.
func (s *Store) ChargeFee(v Viewer, f Fee) (Transaction, error) {
	idx, ok := s.byID[f.AccountID]
	if !ok || !s.canSee(v, idx) {
		return Transaction{}, fmt.Errorf("account %s: %w", f.AccountID, ErrNotFound)
	}
	a := &s.accounts[idx]
	if a.Status == "Closed" {
		return Transaction{}, fmt.Errorf("account %s is closed: %w", f.AccountID, ErrNotEligible)
	}
	if f.Currency != "" && f.Currency != a.Currency {
		return Transaction{}, fmt.Errorf("the account holds %s, not %s: %w", a.Currency, f.Currency, ErrForbidden)
	}
	amount := f.Amount
	if amount <= 0 {
		amount = DefaultManualFee
	}
	return s.added(idx, func(st *step) (*Transaction, error) {
		return st.add(Transaction{
			Kind:          KindFee,
			Product:       "Fees",
			Type:          "FeesOut",
			Side:          "Debit",
			Amount:        amount,
			Label:         "Banking fee: " + f.Type,
			Counterparty:  "Swan",
			FeesType:      f.Type,
			ExecutionDate: f.Effective.UTC().Truncate(time.Millisecond),
			Status:        StatusBooked,
		})
	})
}
