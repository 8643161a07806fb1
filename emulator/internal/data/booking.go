package data

import "fmt"

// BookTransfer books a Pending simulated transfer of the account: it moves
// from the pending to the booked balance and takes the next booking
// sequence number. Booking a transfer twice is an error.
func (s *Store) BookTransfer(accountID, txID string) error {
	idx, ok := s.byID[accountID]
	if !ok {
		return fmt.Errorf("account %s: %w", accountID, ErrNotFound)
	}
	return s.stepOn(idx, func(st *step) error {
		for i := range s.extraTx[idx] {
			if t := &s.extraTx[idx][i]; t.ID == txID {
				if t.Status != StatusPending {
					return fmt.Errorf("transaction %s is %s, not Pending: %w", txID, t.Status, ErrForbidden)
				}
				st.book(t)
				return nil
			}
		}
		return fmt.Errorf("transaction %s of account %s: %w", txID, accountID, ErrNotFound)
	})
}
