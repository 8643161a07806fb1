package data

import (
	"fmt"
	"time"
)

// BookTransfer books a Pending simulated transfer of the account: it moves
// from the pending to the booked balance and takes the next booking
// sequence number. Booking a transfer twice is an error.
func (s *Store) BookTransfer(accountID, txID string) error {
	idx, ok := s.byID[accountID]
	if !ok {
		return fmt.Errorf("account %s: %w", accountID, ErrNotFound)
	}
	a := &s.accounts[idx]
	// The generated history is pure, so it is summed outside the lock.
	var booked int64
	seq := 0
	s.eachLight(a, func(t *Transaction) {
		if t.affectsBooked() {
			booked += t.Signed()
		}
		if t.Status == StatusBooked {
			seq = t.Sequence
		}
	})
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	txs := s.extraTx[idx]
	var target *Transaction
	for i := range txs {
		t := &txs[i]
		switch {
		case t.ID == txID:
			target = t
		case t.affectsBooked():
			booked += t.Signed()
			seq = max(seq, t.Sequence)
		}
	}
	if target == nil {
		return fmt.Errorf("transaction %s of account %s: %w", txID, accountID, ErrNotFound)
	}
	if target.Status != StatusPending {
		return fmt.Errorf("transaction %s is %s, not Pending: %w", txID, target.Status, ErrForbidden)
	}
	target.Status = StatusBooked
	target.UpdatedAt = now
	target.BalanceAfter = booked + target.Signed()
	target.Sequence = seq + 1
	return nil
}
